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

**Penalties ruled at the table** reach the tally by the law that the table's ruling cites, as the table
scores them itself (``laws/scoring/euchre.py``):

* a renege established (law 63, ``EU-63``): the other side adds 3 points, or 5 when a lone hand was played,
  for each renege; equal numbers of reneges by both sides cancel (law 71, ruled at the table, so no
  penalty arrives); the penalty is scored first and the hand's own points are then scored as the cards
  fell (law 4);
* a wrong number of cards found in play (law 90, ``EU-90``): the other side adds 2 (4 in a lone hand) and
  the offending side scores nothing on the hand (``void``);
* a lone hand abandoned by an adversary (law 50, ``EU-50``): the lone player's side scores 5 and nobody
  scores more on the hand (both sides ``void``).

A penalty's points go to both players of the side that gains them (the house rule on a loner's partner
is about a march, not a penalty).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from laws.cards import Seat, Side
from laws.errors import as_typed
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
        if isinstance(self.loner, bool) or self.loner not in (4, 5):   # under Somerset scoring too (unused there),
            # as docs/euchre.md gives it: --loner 4|5 (a 6 was taken and kept)
            raise HandError(f"a loner's march scores 4 or 5 by house rules, got {self.loner!r}")
        if self.loner_partner is not None and self.loner_partner not in range(0, 6):
            raise HandError(f"a loner's partner scores 0 to 5, got {self.loner_partner!r}")
        if self.euchred not in (2, 3, 4):
            raise HandError(f"a euchre scores 2 to 4 to the defenders, got {self.euchred!r}")


SOMERSET = Rules()


PENALTY_CLAUSES = {"EU-63": (RENEGE, RENEGE_ALONE), "EU-90": (2, 4), "EU-50": (5, 5)}


@dataclass(frozen=True)
class Penalty:
    """A penalty the table ruled on the hand: its clause (``EU-63`` renege, ``EU-90`` wrong count,
    ``EU-50`` lone hand abandoned), the offending side, and the points the other side adds."""

    clause: str
    offending: Side
    points: int

    def __post_init__(self) -> None:
        if self.clause not in PENALTY_CLAUSES:
            raise HandError(f"a penalty's clause is one of {', '.join(PENALTY_CLAUSES)}, got {self.clause!r}")
        if not isinstance(self.offending, Side):
            raise HandError(f"a penalty's offending side is NS or EW, got {self.offending!r}")
        if self.points not in PENALTY_CLAUSES[self.clause]:
            raise HandError(f"{self.clause} gives {' or '.join(map(str, sorted(set(PENALTY_CLAUSES[self.clause]))))} "
                            f"points, got {as_typed(self.points)}")


@dataclass(frozen=True)
class Hand:
    """One hand's facts from the table: the makers, the lone player (or None), the makers' tricks, the
    penalties ruled on it, and the sides the law lets score nothing on the hand itself (``void``)."""

    makers: Side
    alone: Seat | None
    tricks: int
    penalties: tuple[Penalty, ...] = ()
    void: frozenset[Side] = frozenset()

    def __post_init__(self) -> None:
        if isinstance(self.tricks, bool) or not isinstance(self.tricks, int) or not 0 <= self.tricks <= 5:
            raise HandError(f"the makers' tricks are 0 to 5, got {self.tricks!r}")
        if self.alone is not None and self.alone.side is not self.makers:
            raise HandError(f"{self.alone.value} played alone but is not one of the makers ({self.makers.value})")

    @property
    def reneges(self) -> tuple[Penalty, ...]:
        return tuple(p for p in self.penalties if p.clause == "EU-63")


def renege_points(hand: Hand) -> int:
    """The renege penalty the other side scores (law 63): 3, or 5 when a lone hand was played."""
    return RENEGE_ALONE if hand.alone is not None else RENEGE


def hand_scorers(hand: Hand, rules: Rules | None = None) -> dict[Seat, int]:
    """Each seat's points for the hand's own result (no penalty), by the club's rules."""
    rules = rules or SOMERSET
    out = dict.fromkeys(Seat, 0)
    makers_score, points = hand_points(hand.alone is not None, hand.tricks)
    scorers = hand.makers if makers_score else (Side.EW if hand.makers is Side.NS else Side.NS)
    if scorers in hand.void:
        return out
    if rules.scoring is Scoring.HOUSE:
        if not makers_score:
            points = rules.euchred * (2 if hand.alone is not None else 1)
        elif hand.alone is not None and hand.tricks == 5:
            for seat in Seat:
                if seat.side is hand.makers:
                    partner_share = rules.loner if rules.loner_partner is None else rules.loner_partner
                    out[seat] = rules.loner if seat is hand.alone else partner_share
            return out
    for seat in Seat:
        if seat.side is scorers:
            out[seat] = points
    return out


def seat_points(hand: Hand, rules: Rules | None = None) -> dict[Seat, int]:
    """Each seat's points for the hand, as the club's rules give them (the Somerset code by default): the
    penalties ruled at the table to the other side's players, then the hand's own points."""
    out = hand_scorers(hand, rules)
    for p in hand.penalties:
        for seat in Seat:
            if seat.side is not p.offending:
                out[seat] += p.points
    return out


def rules_to_dict(r: Rules) -> dict[str, Any]:
    """The night's scoring as its journal's setup and the exports write it (``scoring``)."""
    return {"scoring": r.scoring.value, "loner": r.loner, "loner_partner": r.loner_partner, "euchred": r.euchred}


def rules_from_dict(d: Mapping[str, Any]) -> Rules:
    """The scoring a setup's ``scoring`` says (a key left out: the Somerset code's figure)."""
    try:
        return Rules(Scoring(d.get("scoring", "somerset")), int(d.get("loner", 4)),
                     None if d.get("loner_partner") is None else int(d["loner_partner"]), int(d.get("euchred", 2)))
    except ValueError as exc:
        raise HandError(f"scoring: {exc}") from None
