"""A concession the cards show cannot stand (docs/laws.md ``BP-68-71``, law 71): the tricks a side cannot
lose, counted from the cards the table knows, and the agreed claim that gives that side fewer.

Law 71 cancels the concession of a trick that could not be lost by any normal play. Most of that is the
director's judgement (what a normal play is); this module counts only what no play at all can change, so
the table never cancels a concession it cannot prove wrong:

* **Trump contracts.** A trump held in a hand the table knows, higher than every trump still out in the
  other three hands, wins any trick it is played to; a hand plays one card a trick, so each such trump
  wins a trick of its own. For a side, the count is those trumps in each of its two hands (only the
  hand with the highest trump still out can hold any: a trump lower than partner's is not counted).
  "Still out" is every trump not yet played and not in that hand, so a hand is counted whenever its own
  cards are known (the whole deal from the shoe, or dummy's spread hand alone).
* **A trick in progress.** A hand still to play to it, when a trump higher than all of its counted trumps
  is already in it, cannot win that trick and may have to play one of them there and lose it: one fewer is
  counted. A trump in it that only some of them beat costs nothing: the hand wins the trick with a higher
  one, and the rest are still the highest trumps out.
* **No trumps.** Nothing is counted: the highest card of a suit wins only when that suit is led or
  followed, and it may be discarded on another suit's trick.
* **A trick already won.** The ``claim`` event gives tricks of those remaining; the tricks already won
  are counted from the cards played, and no entry gives one back, so there is nothing to cancel there.

Pure: it reads a :class:`~laws.bridge.play.Play` and changes nothing (``Play.cancel_concession`` applies).
"""

from __future__ import annotations

from dataclasses import dataclass

from laws.bridge.play import Play
from laws.bridge.tricks import RANK_VALUE, ClaimStatus
from laws.cards import RANKS, Card, Seat, Side


@dataclass(frozen=True)
class Cancelled:
    """A concession cancelled: the agreed claim gave ``side`` ``given`` of the ``remaining`` tricks, but its
    ``sure`` trumps win more; ``restored`` tricks go back to it."""

    side: Side
    sure: tuple[tuple[Seat, Card], ...]
    given: int
    remaining: int

    @property
    def restored(self) -> int:
        return len(self.sure) - self.given


def _rank(card: Card) -> int:
    return RANK_VALUE[card.rank]


def sure_trumps(play: Play, seat: Seat) -> list[Card]:
    """The trumps ``seat`` holds that win a trick whatever is played, highest first (module docstring);
    empty at no trumps or when the table does not know the hand."""
    trump = play.trump
    held = play.holds(seat)
    if trump is None or held is None:
        return []
    mine = sorted((c for c in held if c.suit == trump), key=_rank, reverse=True)
    out_there = [Card(r, trump) for r in RANKS
                 if Card(r, trump) not in play.played_by and Card(r, trump) not in mine]
    top = max((_rank(c) for c in out_there), default=0)
    sure = [c for c in mine if _rank(c) > top]
    trick = play.current.cards
    if sure and trick and seat not in trick and \
            any(c.suit == trump and _rank(c) > _rank(sure[0]) for c in trick.values()):
        sure = sure[:-1]
    return sure


def judge(play: Play) -> Cancelled | None:
    """The concession an agreed claim makes that gives a side fewer of the remaining tricks than its sure
    trumps win, or None. The claimer's side takes what it claimed, the other side the rest; at most one
    side can hold sure trumps."""
    c = play.claim_state
    if c is None or c.status is not ClaimStatus.AGREED:
        return None
    for side, given in ((c.seat.side, c.tricks), (c.seat.side.other, c.remaining - c.tricks)):
        sure = tuple((seat, card) for seat in side.seats for card in sure_trumps(play, seat))
        if len(sure) > given:
            return Cancelled(side, sure, given, c.remaining)
    return None
