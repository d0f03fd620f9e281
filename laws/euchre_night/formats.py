"""Who sits where each round of a euchre night (``docs/movements.md``, "Euchre nights").

A *round* is a tuple of tables; a table is four player numbers ``(north, south, east, west)``, North and
South partners, East and West partners; players who sit out that round are listed apart.

* **Progressive euchre** (:func:`progressive_first`, :func:`progressive_next`): tables are numbered from
  the head table (1). After each round the winning pair at every table but the head moves up one table
  and the losing pair stays; at the head table the winners stay and the losers go to the foot table.
  Partners split: at every table the pair that stayed takes North and East and the arriving pair South
  and West, so each arriving player partners one who stayed. A tie at a table (equal points) is decided
  by the director's rule for the night before the winners are given here (we suggest: more hands won,
  then the pair seated North-South). With a number of players that is not a multiple of 4, the last
  ``n % 4`` sit out round 1, and each round's sit-outs come in at the foot table in place of as many
  of its players, those who have sat out least (:func:`progressive_next`).
* **Rotating partners** (:func:`rotating`): every player partners every other once, as evenly as the
  numbers allow. The partnerships of each round are a round of the circle method over the players (a
  *1-factorization*: over ``n - 1`` rounds every two players are partners exactly once); the partnerships
  are then paired off at tables in order. With an odd ``n`` the player paired with the circle's blank
  sits out each round (every player once); when the partnerships left are odd in number (``n ≡ 2`` or
  ``3 mod 4``) one of them sits out too: the one whose players have sat out least so far (the smaller
  larger count, then the smaller sum, then the last in the circle), so the sit-outs spread
  (``docs/euchre.md``, "The draws, seat by seat"). :func:`partner_counts` proves the evenness for any schedule.
* **Fixed partnerships**: a round robin (:func:`laws.competition.teams.round_robin`) or a Swiss by points
  (:func:`laws.competition.swiss.draw`) of the partnerships, two partnerships a table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Table = tuple[int, int, int, int]


class FormatError(ValueError):
    """A night's format that cannot be used; the message says why."""


@dataclass(frozen=True)
class Round:
    """One round's tables (head table first) and the players sitting out; and, a Swiss round that no
    draw could make without a repeat, the tables (numbers from 1) whose two partnerships have met before."""

    number: int
    tables: tuple[Table, ...]
    out: tuple[int, ...] = ()
    repeats: tuple[int, ...] = ()


def _players(value: object) -> int:
    """The number of players of a night: a whole number, at least 4 (said as docs/euchre.md says it)."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 4:
        raise FormatError(f"a euchre night needs at least 4 players, got {value}")
    return _whole("the number of players", value, 4)


def _whole(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise FormatError(f"{name} is a whole number from {low}, got {value!r}")
    return value


def progressive_first(players: int) -> Round:
    """Round 1 of a progressive night: players 1..4t at tables in order; when the number is not a multiple
    of 4, the last ``players % 4`` players sit out (see :func:`progressive_next` for who sits out next)."""
    _players(players)
    seated = players - players % 4
    return Round(1, tuple((p, p + 1, p + 2, p + 3) for p in range(1, seated + 1, 4)),
                 tuple(range(seated + 1, players + 1)))


def _split(stay: tuple[int, int], arrive: tuple[int, int]) -> Table:
    """The pair that stayed splits up, each partnering one who arrived: the stayers take North and East,
    the arrivals South and West (so North and South, and East and West, are each a stayer with an arrival)."""
    return (stay[0], arrive[0], stay[1], arrive[1])


def progressive_next(current: Round, ns_won: Mapping[int, bool], sat: Mapping[int, int] | None = None) -> Round:
    """The next round of a progressive night, from who won at each table.

    Sit-outs (a number of players not a multiple of 4): those who sat out this round come in at the foot
    table, in the seats of as many of the foot's next players, who sit out instead: of the foot's four,
    those who have sat out least so far (``sat``: player -> rounds sat out, this one included), the
    higher-numbered first when equal; the sit-outs, in number order, take their seats in the order North,
    South, East, West (a table's tuple order).

    Args:
        current: this round.
        ns_won: for each table number (1 = head), whether North-South won there.
        sat: how many rounds each player has sat out so far (needed only when someone sits out).
    """
    n = len(current.tables)
    winners, losers = [], []
    for k, (north, south, east, west) in enumerate(current.tables, 1):
        if k not in ns_won:
            raise FormatError(f"round {current.number}: no winner given for table {k}")
        ns, ew = (north, south), (east, west)
        winners.append(ns if ns_won[k] else ew)
        losers.append(ew if ns_won[k] else ns)
    tables: list[Table] = []
    for k in range(n):
        if n == 1:
            stay, arrive = winners[0], losers[0]
        elif k == 0:
            stay, arrive = winners[0], winners[1]      # the head's winners stay; table 2's winners come up
        elif k == n - 1:
            stay, arrive = losers[k], losers[0]        # the foot's losers stay; the head's losers come down
        else:
            stay, arrive = losers[k], winners[k + 1]
        tables.append(_split(stay, arrive))
    if not current.out:
        return Round(current.number + 1, tuple(tables))
    counts = dict(sat or {})
    foot = list(tables[-1])
    going = sorted(foot, key=lambda p: (counts.get(p, 0), -p))[:len(current.out)]
    for p, q in zip(sorted(going, key=foot.index), current.out):
        foot[foot.index(p)] = q
    tables[-1] = (foot[0], foot[1], foot[2], foot[3])
    return Round(current.number + 1, tuple(tables), tuple(sorted(going)))


def rotating(players: int) -> tuple[Round, ...]:
    """A rotating-partners night: every player partners every other once (see the module docstring)."""
    _players(players)
    ring = list(range(1, players + 1)) + ([0] if players % 2 else [])
    m = len(ring)
    rounds = []
    sat = dict.fromkeys(range(1, players + 1), 0)
    for r in range(m - 1):
        pairs = [(ring[i], ring[m - 1 - i]) for i in range(m // 2)]
        out = [p for pair in pairs for p in pair if p != 0 and 0 in pair]
        pairs = [p for p in pairs if 0 not in p]
        if len(pairs) % 2:   # one partnership sits out: the one whose players have sat out least so far,
            # the latest in the circle among equals (the earliest let 7, 19, 23, 27, ... players' sit-outs
            # differ by three; this keeps them within two for every number of players from 5 to 80)
            k = min(range(len(pairs)), key=lambda i: (max(sat[pairs[i][0]], sat[pairs[i][1]]),
                                                      sat[pairs[i][0]] + sat[pairs[i][1]], -i))
            out += list(pairs.pop(k))
        for p in out:
            sat[p] += 1
        tables = []
        while len(pairs) >= 2:
            a, b = pairs.pop(0), pairs.pop(0)
            tables.append((a[0], a[1], b[0], b[1]))
        out += [p for pair in pairs for p in pair]
        rounds.append(Round(r + 1, tuple(tables), tuple(sorted(out))))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return tuple(rounds)


def partner_counts(rounds: Sequence[Round]) -> dict[frozenset[int], int]:
    """How many times each two players were partners over the rounds."""
    counts: dict[frozenset[int], int] = {}
    for rnd in rounds:
        for north, south, east, west in rnd.tables:
            for pair in (frozenset((north, south)), frozenset((east, west))):
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def check_round(rnd: Round, players: int) -> list[str]:
    """What is wrong with a round: every player seated or out exactly once."""
    seen = [p for t in rnd.tables for p in t] + list(rnd.out)
    if sorted(seen) != list(range(1, players + 1)):
        return [f"round {rnd.number}: players {sorted(seen)} are not each of 1-{players} once"]
    return []
