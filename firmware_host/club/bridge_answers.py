"""A bridge deal's irregularities and claims as the director reads them on the dashboard, the answers the
page offers for them, and the dashboard's own check of an answer before it is sent (the table checks it
again, ``firmware_host.table.bridge_choices``, and its engine judges it).

Pure (no I/O). A bridge table's status carries ``bridge`` (docs/mqtt.md): what waits for a ruling
(``waiting``), the revokes that may still be corrected, the bar the director was asked to judge, the
claim. ``bridge_view`` turns it into words (``display_text``, the words the table's display uses) and into
the answers that are meaningful now, each with what it must name:

- an irregular call or card waiting that may be accepted: ``accept``, for the player who may accept;
- a card waiting that may be taken back: ``withdraw`` (for its player; the card is the one waiting, which
  the page does not know: cards are held back from the club while the deal is open);
- a revoke not yet established (or one on the twelfth trick): ``correct_revoke``, the card of the suit led
  that replaces it;
- a call the director was asked to judge: ``bar``, the player and how long he must pass;
- play under way with nothing waiting: ``claim``; a claim made: ``claim_reply`` for the other side; a
  claim disputed: ``claim_ruled``.

Anything malformed in the status is left out, never an exception. An answer travels as its command's
name (``correct_revoke`` for the ``correct`` event: ``correct`` is a deal's result corrected), but the page
shows only words.
"""

from __future__ import annotations

from typing import Any

from firmware_host.devices.display_text import (
    ANSWER_NAMES,
    ANSWER_WORDS,
    SEAT_NAMES,
    bar_words,
    claim_words,
    revoke_words,
    waiting_words,
)
from firmware_host.table.bridge_choices import ANSWERS, GAMES, phases
from laws.cards import Card
from laws.events import EventFormatError, event_from_dict, event_to_dict

RANKS = "AKQJT98765432"
BAR_TURNS = ((1, "at the next turn"), (2, "at the next two turns"), (3, "at the next three turns"),
             ("rest", "for the rest of the auction"))


class AnswerError(ValueError):
    """An answer the dashboard will not send; the text says why."""


def _seat(v: Any) -> str | None:
    return v if isinstance(v, str) and v in SEAT_NAMES else None


def _count(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 13 else None


def _seats(codes: Any) -> list[dict[str, str]]:
    return [{"seat": s, "name": SEAT_NAMES[s]} for s in "NESW" if s in codes]


def _offer(kind: str, **kw: Any) -> dict[str, Any]:
    return {"kind": kind, "label": ANSWER_WORDS[kind], **kw}


def bridge_view(game: str, phase: str, raw: Any) -> dict[str, Any] | None:
    """The status's ``bridge`` in words, with the answers the page offers now (None: not a bridge deal the
    table records)."""
    if game not in GAMES or not isinstance(raw, dict):
        return None
    offers: list[dict[str, Any]] = []
    said: list[str] = []
    waiting = _waiting(raw.get("waiting"), phase, offers, said)
    for r in raw.get("revokes")[:4] if isinstance(raw.get("revokes"), list) else []:
        seat, trick = _seat(r.get("seat") if isinstance(r, dict) else None), _count(r.get("trick") if isinstance(r, dict) else None)
        suit = r.get("suit") if isinstance(r, dict) else None
        if seat and trick and suit in ("S", "H", "D", "C") and phase in phases("correct_revoke"):
            offers.append(_offer("correct_revoke", title="Correct " + revoke_words(seat, trick, suit),
                                 seats=_seats(seat), cards=[{"card": x + suit, "words": Card(x, suit).name}
                                                            for x in RANKS]))
    bar = raw.get("bar")
    if isinstance(bar, dict) and phase in phases("bar"):
        suggested = bar_words(bar.get("bars"))
        first = next((b[0] for b in _list(bar.get("bars")) if isinstance(b, list) and b and _seat(b[0])), None)
        offers.append(_offer("bar", title="The director judges the call: bar a player from calling",
                             why=("The laws name: " + suggested + ".") if suggested else "",
                             law=_text(bar.get("law"), 200), clause=_text(bar.get("clause"), 40),
                             seats=_seats("NESW"), seat=first,
                             turns=[{"turns": t, "words": w} for t, w in BAR_TURNS]))
    claim = _claim(raw, phase, waiting, offers, said)
    return {"said": said, "claim": claim, "offers": offers}


def _list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def _text(v: Any, limit: int) -> str:
    return v[:limit] if isinstance(v, str) else ""


def _waiting(w: Any, phase: str, offers: list[dict[str, Any]], said: list[str]) -> bool:
    if not isinstance(w, dict) or not _seat(w.get("seat")) or not isinstance(w.get("options"), list):
        return False
    seat = str(w["seat"])
    call = w.get("call") if isinstance(w.get("call"), str) else None
    line = waiting_words(_text(w.get("kind"), 40), seat, call)
    said.append(f"Waiting for a ruling: {line}.")
    by = [s for s in _list(w.get("accept_by")) if _seat(s)]
    if "accept" in w["options"] and by and phase in phases("accept"):
        offers.append(_offer("accept", title=f"{' or '.join(SEAT_NAMES[s] for s in by)} may accept {line}",
                             seats=_seats(by), law=_text(w.get("law"), 200), clause=_text(w.get("clause"), 40)))
    if call is not None and by and phase in phases("decline"):
        offers.append(_offer("decline", title=f"{' or '.join(SEAT_NAMES[s] for s in by)} does not accept {line}: "
                             "it is cancelled, with what the law makes of that", seats=_seats(by),
                             law=_text(w.get("law"), 200), clause=_text(w.get("clause"), 40)))
        said.append("Not accepted: say so below, or enter the call made instead with the call form (a call by "
                    "another than who may accept cancels it; his own accepts it).")
    elif "withdraw" in w["options"] and phase in phases("withdraw"):
        offers.append(_offer("withdraw", title=f"Take back {line}", seats=_seats(seat),
                             law=_text(w.get("law"), 200), clause=_text(w.get("clause"), 40)))
    if call is None and "spread" in w["options"] and by and phase in phases("spread"):
        offers.append(_offer("spread", title=f"{SEAT_NAMES[by[0]]}, declarer, spreads his hand and becomes "
                             "dummy; his partner declares and the lead stands", seats=_seats(by[:1]),
                             law=_text(w.get("law"), 200), clause=_text(w.get("clause"), 40)))
    return True


def _claim(raw: dict[str, Any], phase: str, waiting: bool, offers: list[dict[str, Any]],
           said: list[str]) -> str:
    c = raw.get("claim")
    if isinstance(c, dict) and _seat(c.get("seat")) and _count(c.get("tricks")) is not None and \
            _count(c.get("remaining")) is not None:
        seat, status, remaining = str(c["seat"]), _text(c.get("status"), 20), int(c["remaining"])
        other = [s for s in "NESW" if (s in "NS") != (seat in "NS")]
        if status == "pending" and phase in phases("claim_reply"):
            offers.append(_offer("claim_reply", title=f"{SEAT_NAMES[seat]}'s claim: the other side answers",
                                 seats=_seats(other), answers=[{"agree": True, "words": "agrees"},
                                                               {"agree": False, "words": "disputes"}]))
        if status == "disputed" and phase in phases("claim_ruled"):
            offers.append(_offer("claim_ruled", title=f"Tricks for {SEAT_NAMES[seat]}'s side of the last "
                                 f"{remaining}", most=remaining))
        return claim_words(seat, int(c["tricks"]), remaining, status)
    left = _count(raw.get("tricks_left"))
    declarer = _seat(raw.get("declarer"))
    if declarer and left and raw.get("to_play") and not waiting and phase in phases("claim"):
        dummy = "NESW"["NESW".index(declarer) ^ 2]
        offers.append(_offer("claim", title="Enter a claim or a concession", most=left,
                             seats=_seats([s for s in "NESW" if s != dummy])))
    return ""


def check_answer(game: str, phase: str, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The fields of answer ``kind`` for ``data``, checked for the table's game and phase and as far as the
    event format goes (who may answer, and whether anything waits, the table's engine judges).

    Raises:
        AnswerError: not a bridge table, not a phase that takes it, or a field that is wrong (named).
    """
    etype, fields = ANSWERS[kind]
    if game not in GAMES:
        raise AnswerError(f"{ANSWER_NAMES[kind]} is entered at a bridge table, and that table plays {game or 'no game yet'}")
    allowed = phases(kind)
    if phase not in allowed:
        raise AnswerError(f"that table is in its {phase} phase: {ANSWER_NAMES[kind]} is entered in the "
                          f"{' or '.join(allowed)} phase")
    given = {k: data[k] for k in fields if k in data and data[k] is not None and data[k] != ""}
    if kind == "withdraw" and "card" not in given:  # the card waiting: the table knows it
        try:
            event_from_dict({"type": "accept", **given})
        except EventFormatError as exc:
            raise AnswerError(str(exc)) from None
        return {"seat": given["seat"]}
    try:
        event = event_from_dict({"type": etype, **given})
    except EventFormatError as exc:
        raise AnswerError(str(exc)) from None
    return {k: v for k, v in event_to_dict(event).items() if k not in ("type", "t")}
