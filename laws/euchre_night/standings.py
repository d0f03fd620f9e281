"""A euchre night's standings, player by player (``docs/scoring.md``, "Euchre nights").

Each player's figures over the night: points (his tally: the sum of his points hand by hand, by the
club's scoring), hands won (hands on which his side scored), loners made (marches he played alone that scored), and
the rounds he played. A player who sits out a round is credited, for that round, the mean points of the
players who played it (a Fraction; the common "average for a sit-out" rule), and no hands or loners.

Ranking, best first: points; then hands won; then loners made; then the player's number. Players equal
on points, hands won and loners share the place ("2=").
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from laws.cards import Seat
from laws.euchre_night.formats import Round
from laws.euchre_night.scoring import SOMERSET, Hand, Rules, seat_points


@dataclass(frozen=True)
class HandPlayed:
    """One hand at one table of one round."""

    round: int
    table: int
    hand: Hand
    points: Mapping[Seat, int] | None = None   # the seats' points by the night's rules, when already known


@dataclass(frozen=True)
class PlayerStanding:
    player: int
    points: Fraction
    hands_won: int
    loners: int
    rounds: int
    place: str


def standings(players: int, rounds: Iterable[Round], hands: Iterable[HandPlayed],
              rules: Rules = SOMERSET) -> tuple[PlayerStanding, ...]:
    """The standings after the rounds given (their hands; a round's sit-outs get its mean)."""
    seat_of: dict[tuple[int, int], Mapping[Seat, int]] = {}
    played_in: dict[int, set[int]] = {}
    out_in: dict[int, tuple[int, ...]] = {}
    for rnd in rounds:
        out_in[rnd.number] = rnd.out
        for k, (north, south, east, west) in enumerate(rnd.tables, 1):
            seat_of[(rnd.number, k)] = {Seat.N: north, Seat.S: south, Seat.E: east, Seat.W: west}
            played_in.setdefault(rnd.number, set()).update((north, south, east, west))
    whole = dict.fromkeys(range(1, players + 1), 0)        # summed as whole numbers; a Fraction at the end
    won = dict.fromkeys(range(1, players + 1), 0)
    loners = dict.fromkeys(range(1, players + 1), 0)
    round_points: dict[int, int] = {}
    for h in hands:
        seats = seat_of.get((h.round, h.table))
        if seats is None:
            raise ValueError(f"a hand at table {h.table} of round {h.round}, which the night does not have")
        for seat, pts in (h.points if h.points is not None else seat_points(h.hand, rules)).items():
            player = seats[seat]
            whole[player] += pts
            round_points[h.round] = round_points.get(h.round, 0) + pts
            if pts > 0:
                won[player] += 1
        if h.hand.alone is not None and h.hand.tricks == 5 and h.hand.makers not in h.hand.void:
            loners[seats[h.hand.alone]] += 1
    points = {p: Fraction(v) for p, v in whole.items()}
    for number, sitting in out_in.items():
        present = played_in.get(number, set())
        if sitting and present:
            mean = Fraction(round_points.get(number, 0), len(present))
            for p in sitting:
                points[p] += mean
    rounds_played = {p: sum(1 for s in played_in.values() if p in s) for p in points}
    den = math.lcm(*(x.denominator for x in points.values()))
    scaled = {p: x.numerator * (den // x.denominator) for p, x in points.items()}   # exact, as whole numbers
    order = sorted(points, key=lambda p: (-scaled[p], -won[p], -loners[p], p))
    keys = [(scaled[p], won[p], loners[p]) for p in order]
    first_at: dict[tuple[int, int, int], int] = {}
    for i, key in enumerate(keys):
        first_at.setdefault(key, i)
    many = Counter(keys)
    out: list[PlayerStanding] = []
    for i, p in enumerate(order):
        first = first_at[keys[i]]
        shared = many[keys[i]] > 1
        out.append(PlayerStanding(p, points[p], won[p], loners[p], rounds_played[p],
                                  f"{first + 1}=" if shared else str(i + 1)))
    return tuple(out)
