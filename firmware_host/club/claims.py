"""Open claims and the missing-card search as the director reads them, and the dashboard's own check of a
choice before it is sent (the table checks it again against its own state, ``firmware_host.table.choices``).

Pure (no I/O). A table's status carries ``claims`` and ``search`` (``docs/mqtt.md``); they are turned into
words here (``display_text``, the words the table's display uses) and anything malformed is left out, never
an exception. A choice's ``what`` travels as the event format's name, but the page shows only its words.
"""

from __future__ import annotations

from typing import Any

from firmware_host.devices.display_text import BID_WORDS, SEAT_NAMES, found_words, option_words
from laws.cards import SUITS, Card
from laws.events import EventFormatError, event_from_dict, event_to_dict
from laws.games import get_game

SIDES = {"NS": ("N", "S"), "EW": ("E", "W")}
SIDE_WORDS = {"NS": "North-South", "EW": "East-West"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
NEEDS = ("card", "suit")
# Entries the director may make for a player: the game, the event's fields and the phases that take them
# (the table checks again, ``firmware_host.table.choices.ENTRIES``): euchre declarations and the dealer's
# discard; a bridge call (any call of the event format, for any seat: the table's engine judges whose turn
# it was and whether the call is legal).
ENTRIES = {"bid": (("euchre",), ("seat", "call", "suit", "alone"), ("auction",)),
           "discard": (("euchre",), ("seat", "card"), ("auction", "play")),
           "call": (("contract-bridge", "duplicate-bridge"), ("seat", "call"), ("auction", "play"))}
GAME_WORDS = {"euchre": "a euchre table", "contract-bridge": "a bridge table"}


def bridge_calls() -> list[dict[str, str]]:
    """Every call the page offers, lowest bid first, then pass, double, redouble, then the five bids of
    eight (a bid above seven, which a player may say and the laws rule inadmissible, ``BP-35-36``): the
    event format's spelling and the words the page shows (``one heart``, ``three notrump``, ``pass``,
    ``eight spades``)."""
    from laws.bridge.calls import DOUBLE, PASS, REDOUBLE, BidAboveSeven, bid_of_rank
    from laws.scoring.bridge import STRAINS

    legal = [{"call": c.code, "words": c.words} for c in [*(bid_of_rank(r) for r in range(35)), PASS, DOUBLE,
                                                           REDOUBLE]]
    return legal + [{"call": b.code, "words": f"{b.words} (above seven)"}
                    for b in (BidAboveSeven(8, strain) for strain in STRAINS)]


class ChoiceError(ValueError):
    """A choice the dashboard will not send; the text says why."""


def _text(v: Any, limit: int = 400) -> str:
    return v[:limit] if isinstance(v, str) else ""


def claim_words(raw: Any) -> list[dict[str, Any]]:
    """The open claims of a status, in words: who may choose, what, and what each option must name."""
    out: list[dict[str, Any]] = []
    for cl in raw[:8] if isinstance(raw, list) else ():
        if not isinstance(cl, dict) or not isinstance(cl.get("options"), list):
            continue
        side = cl.get("side") if cl.get("side") in SIDES else None
        raw_needs = cl.get("needs")
        needs: dict[str, Any] = raw_needs if isinstance(raw_needs, dict) else {}
        options = [{"what": o, "words": option_words(o),
                    "needs": needs.get(o) if needs.get(o) in NEEDS else None}
                   for o in cl["options"][:8] if isinstance(o, str) and option_words(o) != "a choice"]
        if not options:
            continue
        offender = cl.get("offender")
        trick = cl.get("trick")
        out.append({"clause": _text(cl.get("clause"), 40), "law": _text(cl.get("law"), 200),
                    "why": _text(cl.get("why")), "side": SIDE_WORDS.get(str(side), "either side"),
                    "seats": [{"seat": s, "name": SEAT_NAMES[s]} for s in (SIDES[side] if side else "NESW")],
                    "options": options, "against": SEAT_NAMES.get(str(offender), ""),
                    "trick": trick if isinstance(trick, int) and not isinstance(trick, bool) else None})
    return out


def search_words(raw: Any) -> dict[str, Any] | None:
    """The missing-card search of a status, in words, with the outcomes the director may record."""
    if not isinstance(raw, dict) or raw.get("seat") not in SEAT_NAMES:
        return None
    short = str(raw["seat"])
    outcomes: list[str | None] = [short, "loose", *(s for s in "NESW" if s != short), "trick", None]
    return {"seat": short, "short": SEAT_NAMES[short],
            "outcomes": [{"found": f, "words": found_words(f, short)} for f in outcomes]}


def check_choice(game: str, claims: list[dict[str, Any]], data: dict[str, Any]) -> dict[str, Any]:
    """The fields of a ``choose`` command for ``data`` (``seat``, ``what``, ``clause``, ``card``,
    ``suit``), checked against the claims the table last said are open.

    Raises:
        ChoiceError: no such option open, a player not of the side, a card or suit missing or bad.
    """
    if not claims:
        raise ChoiceError("no claim is open at that table")
    what, clause, seat = data.get("what"), data.get("clause"), data.get("seat")
    found = [(cl, o) for cl in claims for o in cl["options"]
             if o["what"] == what and (not clause or cl["clause"] == clause)]
    if not found:
        offered = ", ".join(o["words"] for cl in claims for o in cl["options"])
        raise ChoiceError(f"that is not an option of the open claim (it offers: {offered})")
    cl, option = found[0]
    if seat not in [s["seat"] for s in cl["seats"]]:
        names = " or ".join(s["name"] for s in cl["seats"])
        raise ChoiceError(f"the choice belongs to {cl['side']}: choose for {names}")
    out: dict[str, Any] = {"seat": seat, "what": what, "clause": cl["clause"]}
    if option["needs"] == "card" or (what == "call_card" and data.get("card")):
        try:
            card = Card.parse(str(data.get("card") or ""))
        except ValueError:
            raise ChoiceError("that call names a card: choose its rank and suit") from None
        if game and card not in get_game(game).pack:
            raise ChoiceError(f"the {card.name} is not in the pack of this game")
        out["card"] = card.code
    if option["needs"] == "suit":
        if data.get("suit") not in tuple(SUITS):
            raise ChoiceError("that call names a suit: choose spades, hearts, diamonds or clubs")
        out["suit"] = data["suit"]
    return out


def check_search(search: dict[str, Any] | None, data: dict[str, Any]) -> str | None:
    """The ``found`` of a ``search`` command, checked against the search the table last said is open.

    Raises:
        ChoiceError: no search open, or an outcome that is not one of its outcomes.
    """
    if search is None:
        raise ChoiceError("no search for a missing card is under way at that table")
    found = data.get("found")
    if found not in [o["found"] for o in search["outcomes"]]:
        raise ChoiceError("choose where the card was found (a hand, loose, a trick) or that it was not found")
    return None if found is None else str(found)


def entries(game: str, phase: str) -> dict[str, Any]:
    """Which entries the page offers now: euchre ``bid`` (with the calls in words) and ``discard``; in a
    bridge auction, ``call`` (with every call in words). ``POST /api/call`` also takes a call in the play
    (one after the auction closed, which the engine rules on), but the page offers none there."""
    out: dict[str, Any] = {}
    if game in ("contract-bridge", "duplicate-bridge") and phase == "auction":  # the form in the auction only (every update of a
        out["call"] = bridge_calls()                       # table carries it: not the 52 of the play too)
    if game != "euchre":
        return out
    if phase in ENTRIES["bid"][2]:
        out["bid"] = [{"call": c, "words": w} for c, w in BID_WORDS.items()]
    if phase in ENTRIES["discard"][2]:
        out["discard"] = True
    return out


def check_entry(game: str, phase: str, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The fields of a ``bid``, ``discard`` or ``call`` command for ``data``, checked for the table's game and
    phase (a call only as far as the event format goes).

    Raises:
        ChoiceError: not a table of that game, not the phase, or a field that is wrong (named).
    """
    games, fields, phases = ENTRIES[kind]
    if game not in games:
        raise ChoiceError(f"a {kind} is entered at {GAME_WORDS[games[0]]}, and that table plays {game or 'no game yet'}")
    if phase not in phases:
        raise ChoiceError(f"that table is in its {phase} phase: a {kind} is entered in the "
                          f"{' or '.join(phases)} phase")
    given = {k: data[k] for k in fields if k in data and data[k] is not None and data[k] != ""}
    try:
        event = event_from_dict({"type": kind, **given})
    except EventFormatError as exc:
        raise ChoiceError(str(exc)) from None
    if kind == "bid" and (given.get("call") == "name") != ("suit" in given):
        raise ChoiceError("a suit goes with naming a suit (the second round), and only with it")
    card = getattr(event, "card", None)
    if card is not None and card not in get_game(game).pack:
        raise ChoiceError(f"the {card.name} is not in the pack of this game")
    return {k: v for k, v in event_to_dict(event).items() if k not in ("type", "t")}
