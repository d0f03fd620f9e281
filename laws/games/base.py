"""What a game module provides: its rules as data and its clauses as small named functions.

A clause is a function ``fn(clause, state, event)`` returning rulings (or None), registered with the id
of the clause in docs/laws.md and the law it comes from::

    reg = Registry("Contract Bridge")

    @reg.clause("CB-cut-faced", "New Shuffle and Cut", "cut", "card_faced")
    def cut_faced(c: Clause, s: TableState, e: PackCut) -> Ruling | None:
        ...
        return c.rule(Remedy.NEW_SHUFFLE_AND_CUT, "A card was faced in cutting ...")

The engine runs a game's clauses for each event in registration order; the first ruling that ends the
deal stops the rest, so one fact yields one ruling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from laws.cards import Card, Seat, Side
from laws.rulings import Remedy, Ruling
from laws.state import Claim, Phase, TableState

ClauseFn = Callable[["Clause", TableState, Any], "Iterable[Ruling] | Ruling | None"]


@dataclass(frozen=True)
class Clause:
    """One clause of the laws: its id, the law it cites, the events it watches, and its function."""

    id: str
    law: str
    events: tuple[str, ...]
    fn: ClauseFn
    summary: str

    def rule(self, remedy: Remedy, reason: str, **kw: Any) -> Ruling:
        """A ruling under this clause."""
        extra = kw.pop("extra", None) or {}
        return Ruling(remedy=remedy, law=self.law, clause=self.id, reason=reason, extra=extra, **kw)

    def __call__(self, state: TableState, event: Any) -> list[Ruling]:
        out = self.fn(self, state, event)
        if out is None:
            return []
        if isinstance(out, Ruling):
            return [out]
        return list(out)


class Registry:
    """Collects a game's clauses in order."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.clauses: list[Clause] = []

    def clause(self, cid: str, law: str, *events: str) -> Callable[[ClauseFn], ClauseFn]:
        """Register ``fn`` as clause ``cid`` citing ``law`` (prefixed with the game's title)."""
        def deco(fn: ClauseFn) -> ClauseFn:
            doc = (fn.__doc__ or "").strip().splitlines()
            self.clauses.append(Clause(cid, f"{self.title}, {law}", events, fn, doc[0] if doc else ""))
            return fn
        return deco


@dataclass(frozen=True)
class GameRules:
    """A game as data.

    Attributes:
        name: the event-format name (``contract-bridge``, ``euchre``).
        title: the name shown to players.
        pack: every card of one pack.
        hand_size: cards each player holds after the deal.
        cards_dealt: cards that leave the pack in a complete deal (the euchre trump card not included).
        claims_close: the event after which a dealing irregularity can no longer be claimed.
        clauses: the game's clauses, in the order they are tried.
        setup: creates the game-specific state (scorer, draw) in ``TableState.game_state``.
        ends_play: whether the game's own model of the play says play has just ended (the engine then
            runs the ``play_end`` clauses itself); None for a game that waits for ``play_end``.
    """

    name: str
    title: str
    pack: tuple[Card, ...]
    hand_size: int
    cards_dealt: int
    claims_close: str
    clauses: tuple[Clause, ...]
    setup: Callable[[TableState], None]
    ends_play: Callable[[TableState], bool] | None = None


# ---------------------------------------------------------------------------------------------------
# Helpers shared by both games' clauses.

def seat_name(state: TableState, seat: Seat) -> str:
    """'North' or 'North (Ann)' when the player is known."""
    full = {"N": "North", "E": "East", "S": "South", "W": "West"}[seat.value]
    name = state.players.get(seat)
    return f"{full} ({name})" if name else full


def side_players(state: TableState) -> dict[Side, list[str]]:
    """Who plays for each side as the last draw seated them (seat order: North before South, East before
    West); a side with no known player is left out. A rubber's rulings name them: its score is theirs,
    and the next draw may seat them elsewhere."""
    players: dict[Side, list[str]] = {}
    for seat in Seat:
        if seat in state.players:
            players.setdefault(seat.side, []).append(state.players[seat])
    return players


def the_card(card: Card | None, *, capital: bool = True) -> str:
    """"The ace of spades", or "An unreadable card" when the card is not known; for the start of a sentence
    unless ``capital`` is false."""
    text = f"the {card.name}" if card is not None else "an unreadable card"
    return text[0].upper() + text[1:] if capital else text


def open_claims_for(state: TableState, seat: Seat) -> list[Claim]:
    """Open claims that ``seat`` may make (claims for its side or for anyone)."""
    return [c for c in state.claims if c.side is None or c.side is seat.side]


def cut_fault(c: Clause, state: TableState, seat: Seat, top: int | None, bottom: int | None,
              min_packet: int = 4) -> Ruling | None:
    """A new cut when the wrong player cut, or a packet is smaller than ``min_packet`` (both games)."""
    dealer = state.next_dealer
    if dealer is not None and seat != dealer.right:
        return c.rule(Remedy.NEW_CUT, f"{seat_name(state, seat)} cut, but the cut belongs to "
                      f"{seat_name(state, dealer.right)}, the dealer's right-hand opponent.", seat=seat)
    small = [n for n in (top, bottom) if n is not None and n < min_packet]
    if small:
        return c.rule(Remedy.NEW_CUT, f"The cut left a packet of {small[0]} cards; each packet must hold "
                      f"at least {min_packet}.", seat=seat)
    return None


def grant_claim(state: TableState, seat: Seat, did: str, grants: str = "redeal") -> Ruling | None:
    """What a player's demand wins while a claim for ``grants`` is open to him (``did``: "demanded a
    redeal"); the claim is then used up."""
    claims = [c for c in open_claims_for(state, seat) if c.grants == grants]
    if not claims:
        return None
    cl = claims[0]
    state.claims.remove(cl)
    return Ruling(Remedy(cl.grants), cl.law, cl.clause, f"{seat_name(state, seat)} {did} in time: {cl.why}",
                  dealer=cl.dealer, seat=seat)


def set_aside_dealt(state: TableState, out: list[Ruling]) -> list[Ruling]:
    """A draw's rulings, where the table it forms comes after a deal was dealt (its hand bid or trump being
    made, played, or awaiting its result): the new table does not play the old one's hand, so each
    ``formation`` says that deal is set aside unscored and dealt again by the new dealer, and carries
    ``deal_set_aside`` (its number; the engine voids it). Without it the hand vanished with no word and
    its next call or card was dropped unexplained. The game rules out a hand that is already over (a
    bridge hand scored from its cards) before calling this; a refused draw (no ``formation``) sets nothing
    aside."""
    d = state.deal
    if d is None or d.void or state.phase not in (Phase.AUCTION, Phase.PLAY, Phase.SCORING):
        return out

    def note(r: Ruling) -> str:
        return (f" Deal {d.number} was dealt before the table was formed, so it is set aside unscored; the "
                f"cards are shuffled, cut and dealt again, by {r.extra.get('dealer_name')}.")
    return [replace(r, reason=r.reason + note(r), extra={**r.extra, "deal_set_aside": d.number})
            if r.remedy is Remedy.FORMATION else r for r in out]


def side_text(side: Side) -> str:
    return "North-South" if side is Side.NS else "East-West"
