"""The choices the laws leave to a player: open claims with their options, the missing-card search, and
how a seat's button or the director's dashboard takes one.

Pure functions over the engine's state (the controller calls them on its consumer thread, so what they
read is the state the next event will meet):

- ``open_claims`` and ``open_search`` say what is open, for the table's status (the dashboard shows it in
  words, ``display_text.option_words``); a bridge deal's auction and play, and the director's answers that
  settle its irregularities, are ``bridge_choices``.
- ``press_option``: what a seat's claim button takes. A redeal or reshuffle claim: ``redeal`` (as before).
  Only calls open: the one option the law gives (one claim open to his side, with one option), when it
  needs nothing the button cannot say (a card call names its card on the claim, no suit to name); with
  several options or claims (two exposed cards: which one is called?), or a card or suit to name,
  the press stays a claim and the engine answers that the director chooses.
- ``director_entry``: a euchre ``bid`` or ``discard``, or a bridge ``call``, the director enters for a
  player (checked for its fields, the table's game and phase; the engine then judges it like a button's).
  A call is checked only as far as the event format goes (a bid ``1C`` ... ``7NT``, ``pass``,
  ``double``, ``redouble``, for a seat): whose turn it was, and whether it was sufficient or admissible,
  the engine judges, as for a call the camera read.
- ``button_call``: what a seat's button says during a bridge auction: two presses (the panel's
  ``new_shuffle``, which the laws have no use for once the deal is complete) pass for that seat; one
  press still draws attention (or takes an open claim, ``press_option``) and a long hold still reclaims
  the side's pack. Every other call comes from a bidding card, the table's page or the director.
- ``shoe_demand``: what the shoe's demand button (a long press) demands: an open redeal claim, else a new
  shuffle and cut; never a pass.
- ``director_choice`` and ``director_search`` turn a command from the dashboard into the ``demand`` or
  ``missing_card`` event the engine rules on, or refuse it with ``ChoiceRefused`` naming what is wrong
  (the option is not open to that player, the claim has gone, the card or suit is missing or bad).
"""

from __future__ import annotations

from typing import Any

from firmware_host.devices.display_text import option_words
from firmware_host.table.bridge_choices import ANSWERS
from firmware_host.table.bridge_choices import GAMES as BRIDGE_GAMES
from laws.cards import SUITS, Card, Seat
from laws.events import DemandMade, Event, EventFormatError, MissingCardReported, event_from_dict
from laws.games import get_game
from laws.games.base import open_claims_for, seat_name
from laws.state import Claim, Phase, TableState

# the director's commands answered in the status (``answers``); the bridge answers are ``bridge_choices``
CHECKED = ("choose", "search", "bid", "discard", "call", *ANSWERS)
CLAIM_TAKES = {"redeal": "redeal", "reshuffle": "new_shuffle"}  # a claim's grant -> the demand that takes it
FOUND = ("loose", "trick", *(s.value for s in Seat))  # and None: declared not found
# What the director may enter for a player: euchre declarations and the dealer's discard, a bridge call;
# the game, the event's fields, and the phases in which the table takes them.
ENTRIES = {"bid": (("euchre",), ("seat", "call", "suit", "alone"), (Phase.AUCTION,), "while trump is being made"),
           "discard": (("euchre",), ("seat", "card"), (Phase.AUCTION, Phase.PLAY),
                       "once the deal is complete, until play ends"),
           "call": (("contract-bridge", "duplicate-bridge"), ("seat", "call"), (Phase.AUCTION, Phase.PLAY),
                    "once the deal is complete, until play ends")}
GAME_WORDS = {"euchre": "a euchre table", "contract-bridge": "a bridge table"}


class ChoiceRefused(ValueError):
    """A director's choice the table will not enter; the text says why, for the dashboard."""


def claim_options(cl: Claim) -> tuple[str, ...]:
    """The ``demand`` ``what``s that take claim ``cl``."""
    if cl.grants == "call":
        return cl.options
    return (CLAIM_TAKES.get(cl.grants, "redeal"),)


def needs(cl: Claim, what: str) -> str | None:
    """What a choice of ``what`` under ``cl`` must name besides: ``card``, ``suit`` or None."""
    if what == "call_card" and cl.card is None:
        return "card"
    if what == "call_suit":
        return "suit"
    return None


def open_claims(state: TableState) -> list[dict[str, Any]]:
    """The open claims, JSON-ready (cards as codes: the publisher hides them while the deal is open)."""
    out = []
    for cl in state.claims:
        options = claim_options(cl)
        out.append({"clause": cl.clause, "law": cl.law, "side": cl.side.value if cl.side else None,
                    "options": list(options), "needs": {o: needs(cl, o) for o in options if needs(cl, o)},
                    "offender": cl.offender.value if cl.offender else None, "trick": cl.trick,
                    "card": cl.card.code if cl.card else None, "why": cl.why})
    return out


def open_search(state: TableState) -> dict[str, Any] | None:
    """The bridge missing-card search under way: the deficient seat and the card (None: not known)."""
    d = state.deal
    if d is None or d.void or d.search is None:
        return None
    return {"seat": d.search.value, "card": d.search_card.code if d.search_card else None}


def open_board(state: TableState) -> dict[str, Any] | None:
    """A duplicate table's board, for the status (None: no board on the table): where it is played, its
    number's dealer and vulnerability, and how far it is (no card identity: the record stays at the table)."""
    b = state.game_state.get("duplicate")
    if b is None:
        return None
    rec = b.record
    stage = ("abandoned" if b.abandoned else "cancelled" if b.cancelled else "confirmed" if b.done else "scored" if b.result is not None
             else "play")
    return {"board": rec.number, "dealer": rec.dealer.value, "vulnerable": rec.vulnerability.value,
            "section": b.section, "table": b.table, "round": b.round, "ns": b.ns, "ew": b.ew, "how": b.how,
            "stage": stage, "confirmed": sorted(b.confirmed), "foul": b.played is not None and b.played.foul is not None,
            "decision": b.decision, "score": b.result["score"] if b.result else None}


def confirms(state: TableState, seat: Seat) -> bool:
    """Whether a press of ``seat``'s button confirms a duplicate board's result: the board has one, and
    ``seat``'s side has not confirmed it yet (``laws.games.duplicate_board``)."""
    b = state.game_state.get("duplicate")
    if b is None or getattr(b, "result", None) is None or b.done:
        return False
    return ("ns" if seat in (Seat.N, Seat.S) else "ew") not in b.confirmed


def press_option(state: TableState, seat: Seat) -> str | None:
    """What a claim-button press of ``seat`` demands while claims are open to it (None: no claim open)."""
    claims = open_claims_for(state, seat)
    if not claims:
        return None
    if any(cl.grants != "call" for cl in claims):
        return "redeal"  # a redeal or reshuffle claim: the engine grants it (laws 27, 35-40; CB redeal)
    options = [(cl, o) for cl in claims for o in cl.options]
    if len(options) == 1 and needs(*options[0]) is None:
        return options[0][1]  # the one thing the law lets him do (one claim, one option), nothing to name
    return "redeal"  # a choice, or a card or suit to name: the engine says the director enters it


def shoe_demand(state: TableState, seat: Seat) -> str:
    """What the shoe's demand button (a long press, PROTOCOL.md 4.2: "the player demands a redeal/new
    deal") demands: the redeal or reshuffle a claim open to ``seat`` grants, else a new shuffle and cut
    (before the first card is dealt; after it the engine answers that it is too late). Never a call: in a
    bridge auction only the panel's two presses pass (``button_call``)."""
    if any(cl.grants != "call" for cl in open_claims_for(state, seat)):
        return "redeal"
    return "new_shuffle"


def _seat(value: Any, field: str) -> Seat:
    try:
        return Seat(str(value))
    except ValueError:
        raise ChoiceRefused(f"{field} must be N, E, S or W, not {str(value)[:20]!r}") from None


def director_choice(state: TableState, body: dict[str, Any]) -> DemandMade:
    """The demand for a director's choice ``{"seat", "what", "card"?, "suit"?, "clause"?}``.

    Raises:
        ChoiceRefused: nothing open offers that choice to that player, or it lacks a card or suit.
    """
    seat = _seat(body.get("seat"), "seat")
    what = str(body.get("what") or "")[:40]
    clause = body.get("clause")
    who = seat_name(state, seat)
    claims = [cl for cl in open_claims_for(state, seat) if what in claim_options(cl)]
    if isinstance(clause, str) and clause:
        claims = [cl for cl in claims if cl.clause == clause]
    if not claims:
        offered = sorted({o for cl in open_claims_for(state, seat) for o in claim_options(cl)})
        if not state.claims:
            raise ChoiceRefused("no claim is open at the table now (it was taken or has lapsed)")
        if not offered:
            raise ChoiceRefused(f"no open claim belongs to {who}'s side")
        raise ChoiceRefused(f"that is not a choice the open claim gives {who}; it gives: "
                            + ", ".join(option_words(o) for o in offered))
    cl = claims[0]
    card: Card | None = None
    suit: str | None = None
    want = needs(cl, what)
    if what == "call_card" and body.get("card"):
        try:
            card = Card.parse(str(body["card"])[:4])
        except ValueError:
            raise ChoiceRefused(f"{str(body['card'])[:10]!r} is not a card") from None
        if card not in get_game(state.game).pack:
            raise ChoiceRefused(f"the {card.name} is not in this game's pack")
    elif want == "card":
        raise ChoiceRefused("that call names a card: choose which")
    if what == "call_suit":
        suit = str(body.get("suit") or "")
        if suit not in tuple(SUITS):
            raise ChoiceRefused("that call names a suit: choose spades, hearts, diamonds or clubs")
    return DemandMade(seat, what, card, suit)


def director_search(state: TableState, body: dict[str, Any]) -> MissingCardReported:
    """The ``missing_card`` event for the outcome of the search (``{"found": "loose" | "trick" | seat |
    null}``).

    Raises:
        ChoiceRefused: no search is under way, or ``found`` is not one of those.
    """
    d = state.deal
    if d is None or d.void or d.search is None:
        raise ChoiceRefused("no search for a missing card is under way at the table")
    found = body.get("found")
    if found is not None and found not in FOUND:
        raise ChoiceRefused(f"found must be loose, trick, a seat or null (not found), not {str(found)[:20]!r}")
    where: str | Seat | None = Seat(found) if found in ("N", "E", "S", "W") else found
    return MissingCardReported(d.search_card, d.search, where)


def director_entry(state: TableState, kind: str, body: dict[str, Any]) -> Event:
    """The ``bid``, ``discard`` or ``call`` event the director entered (``body`` holds its fields).

    Raises:
        ChoiceRefused: not a table of the entry's game, not the phase for it, or a field that is wrong.
    """
    games, fields, phases, when = ENTRIES[kind]
    if state.game not in games:
        raise ChoiceRefused(f"a {kind} is entered at {GAME_WORDS[games[0]]}, and this table plays {state.game}")
    if state.phase not in phases:
        raise ChoiceRefused(f"a {kind} is entered {when}; the table is in its {state.phase.value} phase")
    try:
        event = event_from_dict({"type": kind, **{k: body[k] for k in fields if k in body and body[k] is not None}})
    except EventFormatError as exc:
        raise ChoiceRefused(str(exc)) from None
    card = getattr(event, "card", None)
    if card is not None and card not in get_game(state.game).pack:
        raise ChoiceRefused(f"the {card.name} is not in the pack of this game")
    return event


def button_call(state: TableState, seat: Seat, kind: str) -> Event | None:
    """The call a seat's button makes, if any: two presses (``new_shuffle``) during a bridge deal's auction,
    rubber or duplicate, are that seat's pass; anything else is no call (None: the press is a demand as before)."""
    if kind != "new_shuffle" or state.game not in BRIDGE_GAMES or state.phase is not Phase.AUCTION:
        return None
    if state.deal is None or state.deal.void:
        return None
    return event_from_dict({"type": "call", "seat": seat.value, "call": "pass"})
