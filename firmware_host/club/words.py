"""The words the director reads: the same words the table's own display shows its players.

One source of words (``firmware_host.devices.display_text`` for rulings, ``firmware_host.devices.display`` for lamps and
the score line): the dashboard never shows a code name (``claim_option``, ``new_shuffle_and_cut``) and never
words a ruling differently from the terminal. Pure functions over the JSON the tables publish; anything
malformed gives plain words, never an exception.
"""

from __future__ import annotations

from typing import Any

from firmware_host.devices import display
from firmware_host.devices.display_text import SEAT_NAMES, score_words, title
from laws.cards import Seat
from laws.rulings import IRREGULARITY_REMEDIES, Remedy, Ruling

SCORES = frozenset({Remedy.SCORE, Remedy.GAME_WON, Remedy.RUBBER_WON})
HEADLINE_FIELDS = ("grants", "options", "search", "agreed", "ruled", "passed_out", "verified", "confirmed",
                   "tricks", "found")  # ruling fields the headline depends on
RETIRE_AT = 3  # unreadable + damaged cards across deals at which a pack should be retired


def ruling_of(body: Any) -> Ruling | None:
    """The ``Ruling`` a table published (as far as the words need it); None for a remedy we do not know."""
    return _ruling(body) if isinstance(body, dict) else None


def _ruling(body: dict[str, Any]) -> Ruling | None:
    try:
        remedy = Remedy(str(body.get("remedy")))
    except ValueError:
        return None
    dealer = body.get("dealer")
    pack = body.get("pack")
    extra = {k: body[k] for k in HEADLINE_FIELDS if k in body}  # what the display's headline reads
    if not isinstance(extra.get("options", []), list):
        extra.pop("options")
    return Ruling(remedy, str(body.get("law") or ""), str(body.get("clause") or ""), str(body.get("reason") or ""),
                  dealer=Seat(dealer) if dealer in SEAT_NAMES else None,
                  pack=pack if isinstance(pack, str) and pack else None, extra=extra)


def headline(body: dict[str, Any]) -> str:
    """What the table tells its players to do, as its display says it ("REDEAL — East deals")."""
    r = _ruling(body)
    if r is None:
        return "A RULING"  # a remedy this dashboard does not know: never its code name
    return title(r)


def kind(body: dict[str, Any]) -> str:
    """``irregularity`` (the director may be needed), ``score``, or ``other`` (the ordinary course)."""
    r = _ruling(body)
    if r is None:
        return "other"
    if r.remedy in IRREGULARITY_REMEDIES or r.remedy is Remedy.ATTENTION:
        return "irregularity"
    return "score" if r.remedy in SCORES else "other"


def lamp_words(lamps: dict[str, bool]) -> list[str]:
    """The lit lamps only, each as the table's display labels it; attention lamps as one phrase, and
    device faults as the display groups them ("NO SHOE CAMERA") where it does."""
    out = [label for name, label in display.LAMP_LABELS.items() if lamps.get(name)]
    faults: dict[str, str] = getattr(display, "FAULT_LABELS", {})
    down = [label for name, label in faults.items() if lamps.get(name)]
    if down:
        out.append("NO " + " ".join(down))
    seats = [SEAT_NAMES[s] for s in "NESW" if lamps.get(f"attention_{s}")]
    if seats:
        out.append("ATTENTION " + ", ".join(seats))
    return out


def score_line(score: Any) -> str:
    """The score in words ("Game 1 of the rubber. Below the line North-South 0, ..."); "" before there is
    one."""
    if not isinstance(score, dict) or not score:
        return ""
    try:
        return score_words(score)
    except (AttributeError, TypeError, ValueError):
        return ""


def lit_items(lamps: dict[str, bool], reasons: dict[str, dict[str, Any]],
              offline: dict[str, str]) -> list[dict[str, Any]]:
    """Every lit lamp, each with why it is lit: the words of the ruling that lit it (``reasons``: lamp
    name -> ruling words) or, for a device's lamp, the device's own reason. Attention lamps lit by the
    same ruling are one item ("ATTENTION North, South"). Only words: no lamp's code name."""
    out: list[dict[str, Any]] = []
    for name, label in display.LAMP_LABELS.items():
        if lamps.get(name):
            out.append({"lamp": label, **(reasons.get(name) or {})})
    faults: dict[str, str] = getattr(display, "FAULT_LABELS", {})
    for name, label in faults.items():
        if lamps.get(name):
            device = name.removesuffix("_offline").removesuffix("_fault")
            why = offline.get(device, "")
            out.append({"lamp": f"NO {label}", "headline": "", "reason": why, "law": "", "clause": ""})
    groups: dict[str, list[str]] = {}
    said: dict[str, dict[str, Any]] = {}
    for s in "NESW":
        if lamps.get(f"attention_{s}"):
            words_ = reasons.get(f"attention_{s}") or {}
            key = str(words_.get("headline", ""))
            groups.setdefault(key, []).append(SEAT_NAMES[s])
            said[key] = words_
    for key, seats in groups.items():
        out.append({"lamp": "ATTENTION " + ", ".join(seats), **said[key]})
    return out


def seat_name(seat: str) -> str:
    """"North" for "N"; "" for anything else."""
    return SEAT_NAMES.get(seat, "")


def pack_why(unreadable: int, damaged: int, deals: int) -> str:
    """Why a pack should be retired (or "" while it is fit)."""
    bad = unreadable + damaged
    if bad < RETIRE_AT:
        return ""
    parts = [f"{n} {what} card{'s' if n != 1 else ''}" for n, what in ((unreadable, "unreadable"),
                                                                         (damaged, "damaged")) if n]
    return (f"{' and '.join(parts)} in {deals} deal{'s' if deals != 1 else ''} "
            f"(retire at {RETIRE_AT} between them)")


def set_aside_words(raw: Any) -> list[str]:
    """The events a table set aside (its status's ``set_aside``), in the words its display uses."""
    from firmware_host.table.setaside import SetAside

    out: list[str] = []
    for a in raw[:8] if isinstance(raw, list) else ():
        if not isinstance(a, dict) or isinstance(a.get("row"), bool) or not isinstance(a.get("row"), int):
            continue
        aside = SetAside(a["row"], str(a.get("type", "?"))[:40], str(a.get("src", "?"))[:40],
                         str(a.get("error", "an error"))[:60], a.get("ruling") == "none")
        out.append(aside.text())
    return out
