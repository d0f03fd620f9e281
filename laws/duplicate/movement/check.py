"""What is wrong with a movement: each rule a small named function, run in order by :func:`check`.

A sound movement gives the empty list. The rules hold for any movement, whoever made it (a builder, an
``.ASC`` file, a hand-written table); ``round_robin`` adds the complete-Howell rules and ``copies`` says
how many copies of each board are in play (tables that play one group in the same round share it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from itertools import combinations

from laws.duplicate.movement.model import Movement, Pair, Seating, board_span, pair_order

Rule = Callable[[Movement], list[str]]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _pair(p: Pair) -> str:
    return f"pair {p}"


def shape(m: Movement) -> list[str]:
    """Rounds, tables and groups within the movement's own counts; groups that do not overlap."""
    out = []
    if m.tables < 1 or m.rounds < 1 or m.copies < 1:
        out.append(f"a movement needs at least one table, round and copy (got {m.tables}, {m.rounds}, {m.copies})")
    for s in m.seatings:
        if not 1 <= s.round <= m.rounds:
            out.append(f"round {s.round} (table {s.table}) is outside rounds 1-{m.rounds}")
        if not 1 <= s.table <= m.tables:
            out.append(f"table {s.table} (round {s.round}) is outside tables 1-{m.tables}")
        if s.group not in m.groups:
            out.append(f"board group {s.group} at table {s.table} in round {s.round} is not one of the "
                       f"movement's groups ({board_span(m.groups) if m.groups else 'none'})")
    owner: dict[int, int] = {}
    for g, boards in sorted(m.groups.items()):
        if not boards:
            out.append(f"board group {g} has no boards")
        for b in boards:
            if b in owner:
                out.append(f"board {b} is in groups {owner[b]} and {g}")
            owner.setdefault(b, g)
    return out


def one_seating_a_table(m: Movement) -> list[str]:
    """A table has one seating a round, and a seating has at least one pair."""
    seen: dict[tuple[int, int], Seating] = {}
    out = []
    for s in m.seatings:
        if (s.round, s.table) in seen:
            out.append(f"table {s.table} has two seatings in round {s.round}")
        seen[(s.round, s.table)] = s
        if not s.pairs:
            out.append(f"table {s.table} in round {s.round} has a board group but no pairs")
    return out


def pair_once_a_round(m: Movement) -> list[str]:
    """A pair sits at one seat of one table in a round."""
    at: dict[tuple[Pair, int], list[int]] = defaultdict(list)
    for s in m.seatings:
        for p in s.pairs:
            at[(p, s.round)].append(s.table)
    return [f"{_pair(p)} is at {'both seats of table ' + str(t[0]) if len(set(t)) == 1 else 'tables ' + _and([str(x) for x in t])} "
            f"in round {r}" for (p, r), t in sorted(at.items(), key=lambda kv: (kv[0][1], kv[0][0].number))
            if len(t) > 1]


def board_once_a_pair(m: Movement) -> list[str]:
    """A pair plays each board at most once."""
    rounds: dict[tuple[Pair, int], list[int]] = defaultdict(list)
    for s in m.seatings:
        if s.played:
            for p in s.pairs:
                for b in m.boards_of(s.group):
                    rounds[(p, b)].append(s.round)
    return [f"{_pair(p)} plays board {b} {len(r)} times (rounds {_and([str(x) for x in r])})"
            for (p, b), r in sorted(rounds.items(), key=lambda kv: (kv[0][1], str(kv[0][0]))) if len(r) > 1]


def meet_once(m: Movement) -> list[str]:
    """Two pairs meet at most once."""
    met: dict[frozenset[Pair], list[int]] = defaultdict(list)
    for s in m.seatings:
        if s.ns is not None and s.ew is not None and s.ns != s.ew:
            met[frozenset((s.ns, s.ew))].append(s.round)
    out = []
    for pairs, rounds in met.items():
        if len(rounds) > 1:
            a, b = sorted(pairs, key=pair_order)
            out.append(f"pairs {a} and {b} meet {len(rounds)} times (rounds {_and([str(x) for x in rounds])})")
    return sorted(out)


def complete_howell(m: Movement) -> list[str]:
    """In a round robin, every pair meets every other and plays every board."""
    if not m.round_robin:
        return []
    met = {frozenset(s.pairs) for s in m.seatings if s.played}
    out = [f"pairs {a} and {b} never meet" for a, b in combinations(m.pairs(), 2) if frozenset((a, b)) not in met]
    played: dict[Pair, set[int]] = defaultdict(set)
    for s in m.seatings:
        if s.played:
            for p in s.pairs:
                played[p].update(m.boards_of(s.group))
    every = set(m.boards())
    for p in m.pairs():
        missed = sorted(every - played[p])
        if missed:
            out.append(f"{_pair(p)} never plays boards {board_span(missed)}")
    return out


def sharing(m: Movement) -> list[str]:
    """One set of ``b`` boards keeps at most ``b`` tables busy in a round (tables that share pass the
    boards between them); ``copies`` sets, ``copies`` times that."""
    at: dict[tuple[int, int], list[int]] = defaultdict(list)
    for s in m.seatings:
        at[(s.round, s.group)].append(s.table)
    out = []
    for (r, g), t in sorted(at.items()):
        size = len(m.boards_of(g))
        limit = max(m.copies, 1) * max(size, 1)
        if len(t) > limit:
            sets = "one set" if m.copies == 1 else f"{m.copies} sets"
            out.append(f"boards {board_span(m.boards_of(g))} are at {len(t)} tables in round {r} (tables "
                       f"{_and([str(x) for x in t])}); {sets} of {size} board{'s' if size != 1 else ''} "
                       f"keep{'s' if m.copies == 1 else ''} {limit} table{'s' if limit != 1 else ''} busy at most")
    return out


def seats_the_field(m: Movement) -> list[str]:
    """The movement seats exactly the pairs it is for, and every group is played."""
    out = []
    pairs = m.pairs()
    if m.contestants > 2 * m.tables:
        out.append(f"{m.contestants} pairs cannot sit at {m.tables} tables")
    if len(pairs) != m.contestants:
        out.append(f"the movement is for {m.contestants} pairs but seats {len(pairs)}")
    idle = [p for p in pairs if not any(s.played and p in s.pairs for s in m.seatings)]
    out += [f"{_pair(p)} never plays a board" for p in idle]
    played = {s.group for s in m.seatings if s.played}
    out += [f"boards {board_span(b)} are never played" for g, b in sorted(m.groups.items()) if g not in played and b]
    return out


RULES: tuple[Rule, ...] = (shape, one_seating_a_table, pair_once_a_round, board_once_a_pair, meet_once,
                           complete_howell, sharing, seats_the_field)


def check(movement: Movement) -> list[str]:
    """Every problem with ``movement``, each as a sentence; empty when it is sound."""
    return [problem for rule in RULES for problem in rule(movement)]
