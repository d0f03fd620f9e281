"""A euchre night's standings, player by player (``docs/scoring.md``, "Euchre nights").

Each player's figures over the night: points (his tally: the sum of his points hand by hand, by the
club's scoring), hands won (hands on which he scored more than 0: a loner's partner given 0 by a house
rule wins no hand), loners made (marches he played alone that scored), and
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


@dataclass(frozen=True)
class Tally:
    """One table's part of one round, player by player: points, hands won and loners made, and the
    points scored at the table in all (what a sit-out's mean is made of)."""

    points: Mapping[int, int]
    won: Mapping[int, int]
    loners: Mapping[int, int]
    total: int
    hands: int = 0      # how many hands were played there (a round counts in a player's rounds from its first)


def table_tally(seats: Mapping[Seat, int], hands: Iterable[HandPlayed], rules: Rules = SOMERSET) -> Tally:
    """The tally of the hands played at one table in one round, its seats' players given."""
    points = dict.fromkeys(seats.values(), 0)
    won = dict.fromkeys(seats.values(), 0)
    loners = dict.fromkeys(seats.values(), 0)
    total = played = 0
    for h in hands:
        played += 1
        for seat, pts in (h.points if h.points is not None else seat_points(h.hand, rules)).items():
            player = seats[seat]
            points[player] += pts
            total += pts
            if pts > 0:
                won[player] += 1
        if h.hand.alone is not None and h.hand.tricks == 5 and h.hand.makers not in h.hand.void:
            loners[seats[h.hand.alone]] += 1
    return Tally(points, won, loners, total, played)


def seats_of(rnd: Round, k: int) -> dict[Seat, int]:
    north, south, east, west = rnd.tables[k - 1]
    return {Seat.N: north, Seat.S: south, Seat.E: east, Seat.W: west}


def standings(players: int, rounds: Iterable[Round], hands: Iterable[HandPlayed],
              rules: Rules = SOMERSET) -> tuple[PlayerStanding, ...]:
    """The standings after the rounds given (their hands; a round's sit-outs get its mean)."""
    rounds = list(rounds)
    by_table: dict[tuple[int, int], list[HandPlayed]] = {}
    known = {(r.number, k) for r in rounds for k in range(1, len(r.tables) + 1)}
    for h in hands:
        if (h.round, h.table) not in known:
            raise ValueError(f"a hand at table {h.table} of round {h.round}, which the night does not have")
        by_table.setdefault((h.round, h.table), []).append(h)
    tallies = {(r.number, k): table_tally(seats_of(r, k), by_table.get((r.number, k), ()), rules)
               for r in rounds for k in range(1, len(r.tables) + 1)}
    return ranked(players, rounds, tallies)


def round_mean(tallies: Iterable[Tally]) -> Fraction:
    """The mean points of the players who played a round (what a sit-out is credited)."""
    tallies = list(tallies)
    present = sum(len(t.points) for t in tallies)
    return Fraction(sum(t.total for t in tallies), present) if present else Fraction(0)


def ranked(players: int, rounds: Iterable[Round], tallies: Mapping[tuple[int, int], Tally]) -> tuple[PlayerStanding, ...]:
    """The standings from each table's tally of each round (``(round, table)`` -> :class:`Tally`)."""
    whole = dict.fromkeys(range(1, players + 1), 0)        # summed as whole numbers; a Fraction at the end
    won = dict.fromkeys(range(1, players + 1), 0)
    loners = dict.fromkeys(range(1, players + 1), 0)
    played = dict.fromkeys(range(1, players + 1), 0)
    points: dict[int, Fraction] = {}
    means: list[tuple[tuple[int, ...], Fraction]] = []
    for rnd in rounds:
        at = [tallies[(rnd.number, k)] for k in range(1, len(rnd.tables) + 1)]
        for t in at:
            for p, v in t.points.items():
                whole[p] += v
                won[p] += t.won[p]
                loners[p] += t.loners[p]
                played[p] += 1 if t.hands else 0     # the round in play counts from its first hand
        if rnd.out and at:
            means.append((rnd.out, round_mean(at)))
    points = {p: Fraction(v) for p, v in whole.items()}
    for sitting, mean in means:
        for p in sitting:
            points[p] += mean
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
        out.append(PlayerStanding(p, points[p], won[p], loners[p], played[p],
                                  f"{first + 1}=" if shared else str(i + 1)))
    return tuple(out)
