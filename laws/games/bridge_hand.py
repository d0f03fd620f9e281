"""Contract Bridge as it is played: one deal's auction and play as the engine keeps them, and the helpers
the auction, play and result clauses share (``bridge_auction``, ``bridge_play``, ``bridge_result``).

The models are ``laws.bridge``'s :class:`~laws.bridge.auction.Auction` and
:class:`~laws.bridge.play.Play`; a :class:`BridgeHand` holds them on the deal (``DealState.bridge``),
with what waits for a choice:

* ``pending``: the irregular call or card just made (an insufficient bid, a call out of rotation, a lead
  out of turn, a defender's card played early) that the laws let someone accept. It is not applied until
  it is accepted (an ``accept`` entry, or the player entitled calling or playing over it); anything else
  that comes next cancels it (a call) or takes it back (a card).
* ``watch``: after a cancelled call, the offender's replacement: the one call that brings nothing more
  (the lowest sufficient bid; the same call again) passes quietly, any other is the director's to judge
  (comparable or not, law 23) and he enters the ``bar`` it brings.

Our reading, where the engine had to decide (docs/events.md says the same):

* The auction is captured from the first ``call`` of a deal. A deal whose cards are played with no call
  at all is a table that does not record the auction: its cards are recorded as before and its result is
  typed (rubber bridge without capture works as it always did).
* The deal is known when the shoe read all 52 cards, thirteen to each seat; then every revoke is seen at
  the card. Otherwise only dummy's hand is known, once a ``dummy`` entry spreads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from laws.bridge.auction import Auction
from laws.bridge.calls import Call
from laws.bridge.play import Play
from laws.cards import Card, Seat
from laws.rulings import Remedy, Ruling
from laws.state import DealState, Phase, TableState

DUP = "Duplicate Bridge"
RUBBER = "Rubber Bridge"
RUBBER_GAME = "contract-bridge"   # the game whose table the rubber code governs (docs/laws.md, "which code governs")


@dataclass
class Pending:
    """An irregular call or card awaiting acceptance.

    Attributes:
        what: ``call`` or ``card``.
        seat: who made it.
        clause: its docs/laws.md id.
        kind: the irregularity (a ``CallIrregularity`` or ``PlayIrregularity`` value).
        detail: the model's sub-kind.
        call: the call (``what == "call"``).
        card: the card (``what == "card"``).
        accept_by: who may accept it.
        penalty_card: a card taken back becomes a penalty card.
        options: the option codes the ruling named.
        law: the citation of the ruling.
    """

    what: str
    seat: Seat
    clause: str
    kind: str
    detail: str = ""
    call: Call | None = None
    card: Card | None = None
    accept_by: tuple[Seat, ...] = ()
    penalty_card: bool = False
    options: tuple[str, ...] = ()
    law: str = ""


@dataclass
class Watch:
    """A cancelled call's offender, whose replacement the engine checks (module docstring).

    Attributes:
        seat: the offender.
        clause: the docs/laws.md id of the cancelled call.
        law: its citation.
        free: the call that brings nothing more (None: none is certain; the director judges any).
        bars: what a call that is not comparable brings, ``(seat, turns)`` (``-1``: the rest).
        what: the cancelled call in words.
    """

    seat: Seat
    clause: str
    law: str
    free: Call | None
    bars: tuple[tuple[Seat, int], ...]
    what: str


@dataclass
class BridgeHand:
    """One deal's auction and play, and what waits for a choice.

    Attributes:
        auction: the auction (from the deal's end).
        play: the play, once the auction closed with a contract.
        pending: an irregular call or card awaiting acceptance.
        watch: a cancelled call's offender whose replacement is checked.
        verdict: the model's verdict on the event being ruled (between the clauses of one event).
        captured: a call was seen in this deal: the auction (and so the play) is recorded.
        irregular: the clause and citation of the auction's latest irregularity (a ``bar`` cites it).
        noted: how many of the play's revokes have been ruled on (``BP-61``).
        told: the play's revokes (by index) said to be established (``BP-63``).
        transferred: for each revoke (by index) whose ``BP-64`` transfer was ruled, what that ruling said
            (tricks, the tricks counted, why): a transfer is ruled again only when it has changed since,
            so rectifying again (a twelfth-trick correction, a revoke found after play) does not repeat it.
        scored: the result the cards gave, once it was scored: ``{"declarer", "contract", "tricks"}``.
        honours: honours the deal gives (``(side, points)``), when the hands are known.
        bar_asked: the director has been asked to judge a call and may enter a ``bar`` (a replacement
            that may not be comparable, law 23; a change of call, law 25), with the bars the laws name
            for it (empty: none named, the director decides); None when nothing asks for one. It stays
            until he enters a bar or the auction closes.
    """

    auction: Auction
    play: Play | None = None
    pending: Pending | None = None
    watch: Watch | None = None
    verdict: Any = None
    captured: bool = False
    irregular: tuple[str, str] | None = None
    noted: int = 0
    told: list[int] = field(default_factory=list)
    transferred: dict[int, tuple[int, tuple[int, ...], str]] = field(default_factory=dict)
    scored: dict[str, Any] | None = None
    honours: tuple[Any, int] | None = None
    known: dict[Seat, list[Card]] | None = None
    bar_asked: tuple[tuple[Seat, int], ...] | None = None

    @property
    def code(self) -> str:
        """The code this table's rulings cite: "Rubber Bridge" or "Duplicate Bridge" (the auction's)."""
        return self.auction.code


def hand(s: TableState) -> BridgeHand | None:
    """The deal's bridge hand, or None (no deal, a void deal, or the deal has not ended)."""
    d = s.deal
    if d is None or d.void or not d.ended:
        return None
    h: BridgeHand | None = d.bridge
    return h


def known_hands(d: DealState) -> dict[Seat, list[Card]] | None:
    """The four hands when the shoe read the whole deal (52 different cards, 13 a seat), else None."""
    if d.cards_dealt != 52 or len(d.seen) != 52 or any(len(d.hands[s]) != 13 for s in Seat):
        return None
    return {s: list(d.hands[s]) for s in Seat}


def start(s: TableState) -> None:
    """The deal has ended: its auction begins, the dealer first (``BP-17``)."""
    d = s.deal
    if d is None or d.void:
        return
    d.bridge = BridgeHand(Auction(d.dealer, rubber=s.game == RUBBER_GAME), known=known_hands(d))


def rule(clause: str, law: str, remedy: Remedy, reason: str, **kw: Any) -> Ruling:
    """A ruling under ``clause`` (for a clause that speaks for another id, as the pending's)."""
    extra = kw.pop("extra", None) or {}
    return Ruling(remedy=remedy, law=law, clause=clause, reason=reason, extra=extra, **kw)


def need_play(s: TableState, what: str) -> tuple[BridgeHand, Play]:
    """The hand and its play for an entry about the play (``what``: "a claim"...).

    Raises:
        ValueError: there is no play to speak of (the auction is open, or was not recorded).
    """
    h = hand(s)
    if h is None or h.play is None:
        why = ("the auction has not closed" if h is not None and h.captured else
               "the table did not record this deal's auction, so it does not know the contract")
        raise ValueError(f"{what} needs the play, but {why}")
    return h, h.play


def in_play(s: TableState) -> bool:
    """Whether this deal's play is followed by the play model (the auction was captured and closed)."""
    h = hand(s)
    return h is not None and h.play is not None


def scored_from_cards(s: TableState) -> bool:
    """The hand is over and needs nothing typed: the table scored it from its auction and play (a hand
    that waits for its typed result, or for a twelfth-trick revoke's correction, is not; nor is a deal
    passed out, which is no hand). A table with a shoe deals the next pack then."""
    h = hand(s)
    return h is not None and h.scored is not None and not h.scored.get("passed_out") and s.phase is Phase.SCORING


def play_over(s: TableState) -> bool:
    """The engine's hook (``GameRules.ends_play``): the play model says play has ended and the play-end
    clauses have not run for it yet."""
    h = hand(s)
    return (h is not None and h.play is not None and h.play.ended and h.scored is None
            and s.phase in (Phase.AUCTION, Phase.PLAY))


def played(d: DealState, seat: Seat, card: Card) -> None:
    """One more card in the deal's record of cards played (the engine's own record is skipped for a
    card the play model took: ``set_aside``)."""
    d.plays.append((seat, card))
    d.played[seat] += 1


def sync_plays(d: DealState, play: Play) -> None:
    """The deal's record of cards played (``DealState.plays``, ``played``) from the play model, after a
    change that is not one more card (a correction)."""
    d.plays = [(st, c) for t in [*play.tricks, play.current] for st, c in t.cards.items()]
    d.played = dict.fromkeys(Seat, 0)
    for st, _ in d.plays:
        d.played[st] += 1
