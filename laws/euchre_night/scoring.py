"""A euchre hand's points to each player at a club night, as the club chooses (``docs/scoring.md``).

**The Somerset code** (``Scoring.SOMERSET``, laws 2-3, as the table already scores a hand): makers who
take all five tricks score 2, or 4 when one of them played alone; three or four tricks score 1; fewer
than three and they are euchred: the opponents score 2, or 4 when the maker played alone.

**House rules** (``Scoring.HOUSE``), the common club variant: the same, except that a loner who takes all
five tricks scores ``loner`` points (4 or 5, the club's choice) and his partner ``loner_partner`` (the
same as the loner by default, or 0 where the club gives the loner alone the points); a euchred side's
opponents score ``euchred`` (2).

At a progressive night each player carries his side's points for the hand on his own tally (a side's
points go to both its players, but for the house rule on a loner's partner).

**A renege** (laws 62-71, ruled at the table) costs the offending side the penalty the law gives: the
other side scores 3 points, or 5 when a lone hand was played; the hand's own points are not scored then
for the offending side (the table's ruling says which side reneged; :func:`renege_points`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from laws.cards import Seat, Side
from laws.scoring.euchre import hand_points

RENEGE = 3
RENEGE_ALONE = 5


class Scoring(StrEnum):
    SOMERSET = "somerset"
    HOUSE = "house"


class HandError(ValueError):
    """A hand's facts that cannot be scored; the message names the field."""


@dataclass(frozen=True)
class Rules:
    """The club's scoring choice."""

    scoring: Scoring = Scoring.SOMERSET
    loner: int = 4
    loner_partner: int | None = None     # None: the same as the loner
    euchred: int = 2

    def __post_init__(self) -> None:
        if not isinstance(self.scoring, Scoring):
            raise HandError(f"scoring is one of {', '.join(s.value for s in Scoring)}, got {self.scoring!r}")
        if self.scoring is Scoring.HOUSE and self.loner not in (4, 5):
            raise HandError(f"a loner's march scores 4 or 5 by house rules, got {self.loner!r}")
        if self.loner_partner is not None and self.loner_partner not in range(0, 6):
            raise HandError(f"a loner's partner scores 0 to 5, got {self.loner_partner!r}")
        if self.euchred not in (2, 3, 4):
            raise HandError(f"a euchre scores 2 to 4 to the defenders, got {self.euchred!r}")


SOMERSET = Rules()


@dataclass(frozen=True)
class Hand:
    """One hand's facts from the table: the makers, the lone player (or None), the makers' tricks, and
    the side that reneged (or None)."""

    makers: Side
    alone: Seat | None
    tricks: int
    reneged: Side | None = None

    def __post_init__(self) -> None:
        if isinstance(self.tricks, bool) or not isinstance(self.tricks, int) or not 0 <= self.tricks <= 5:
            raise HandError(f"the makers' tricks are 0 to 5, got {self.tricks!r}")
        if self.alone is not None and self.alone.side is not self.makers:
            raise HandError(f"{self.alone.value} played alone but is not one of the makers ({self.makers.value})")


def renege_points(hand: Hand) -> int:
    """The renege penalty the other side scores (laws 62-71): 3, or 5 when a lone hand was played."""
    return RENEGE_ALONE if hand.alone is not None else RENEGE


def seat_points(hand: Hand, rules: Rules | None = None) -> dict[Seat, int]:
    """Each seat's points for the hand, as the club's rules give them (the Somerset code by default)."""
    rules = rules or SOMERSET
    out = dict.fromkeys(Seat, 0)
    if hand.reneged is not None:
        other = Side.EW if hand.reneged is Side.NS else Side.NS
        for seat in Seat:
            if seat.side is other:
                out[seat] = renege_points(hand)
        return out
    makers_score, points = hand_points(hand.alone is not None, hand.tricks)
    if rules.scoring is Scoring.HOUSE:
        if not makers_score:
            points = rules.euchred * (2 if hand.alone is not None else 1)
        elif hand.alone is not None and hand.tricks == 5:
            for seat in Seat:
                if seat.side is hand.makers:
                    partner_share = rules.loner if rules.loner_partner is None else rules.loner_partner
                    out[seat] = rules.loner if seat is hand.alone else partner_share
            return out
    scorers = hand.makers if makers_score else (Side.EW if hand.makers is Side.NS else Side.NS)
    for seat in Seat:
        if seat.side is scorers:
            out[seat] = points
    return out
