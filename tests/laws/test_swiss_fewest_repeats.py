"""A Swiss round that no draw can make without a repeat is drawn all the same, with the fewest repeats
(laws/competition/swiss.py, docs/scoring.md section 11): checked against every pairing of small fields,
and the largest matching it counts them with (laws/competition/matching.py) against every subset of
edges of small graphs."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest

from laws.competition import swiss, teams
from laws.competition.matching import largest_matching_size
from laws.competitors import Competitor, team


def _pairings(free: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way of pairing ``free`` (positions in the standings), in the top-down order: the first's
    partner as high as can be, then the rest's the same way."""
    if not free:
        yield []
        return
    first, rest = free[0], free[1:]
    for k, other in enumerate(rest):
        for tail in _pairings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *tail]


TEAMS = {n: team(n) for n in range(1, 41)}


def _table(order: list[int], met: set[frozenset[int]]) -> list[swiss.Standing]:
    return [swiss.Standing(TEAMS[p], Fraction(0), 0, frozenset(TEAMS[o] for e in met if p in e for o in e if o != p), 0)
            for p in order]


def _expected(order: list[int], met: set[frozenset[int]]) -> tuple[list[tuple[int, int]], int]:
    """The draw the module's docstring promises, found the slow way: of every pairing, those with the
    fewest repeats, and of those the first in the top-down order."""
    best: tuple[list[tuple[int, int]], int] | None = None
    for p in _pairings(order):
        cost = sum(frozenset(m) in met for m in p)
        if best is None or cost < best[1]:
            best = (p, cost)
    assert best is not None
    return best


def _check(order: list[int], met: set[frozenset[int]]) -> int:
    d = swiss.draw(2, _table(order, met))
    got = [(a.number, b.number) for a, b in d.matches]
    want, fewest = _expected(order, met)
    assert got == want, (order, sorted(map(sorted, met)))
    assert [(a.number, b.number) for a, b in d.repeats] == [m for m in got if frozenset(m) in met]
    assert len(d.repeats) == fewest
    return fewest


def _histories(n: int) -> set[frozenset[frozenset[int]]]:
    """Every set of matches ``n`` competitors can have played in rounds without a repeat (each round a
    pairing of them all), after 1 to ``n - 2`` rounds."""
    rounds = [frozenset(frozenset(m) for m in p) for p in _pairings(list(range(1, n + 1)))]
    out: set[frozenset[frozenset[int]]] = set()
    level = {frozenset[frozenset[int]]()}
    for _ in range(n - 2):
        level = {h | r for h in level for r in rounds if not h & r}
        out |= level
    return out


@pytest.mark.parametrize("n", [4, 6])
def test_every_history_of_a_small_field_is_drawn_with_the_fewest_repeats_first_top_down(n: int) -> None:
    # every history and, since the histories are every labelling of them, every order of the standings
    # (the standings 1 to n against every history is every order against every history, relabelled)
    fewest = {_check(list(range(1, n + 1)), set(h)) for h in _histories(n)}
    assert fewest == ({0, 1} if n == 6 else {0})       # six: two triangles left need one repeat


def test_every_set_of_matches_among_six_is_drawn_with_the_fewest_repeats() -> None:
    # not only histories: any matches played (a director's corrected draw may leave any), one set in 13
    edges = [frozenset(e) for e in itertools.combinations(range(1, 7), 2)]
    seen = set()
    for bits in range((1 << len(edges)) - 1, -1, -13):
        seen.add(_check([1, 2, 3, 4, 5, 6], {e for k, e in enumerate(edges) if bits >> k & 1}))
    assert seen == {0, 1, 2, 3}       # from no repeat needed to every match a repeat


@pytest.mark.parametrize("n", [4, 8, 10])
def test_random_histories_are_drawn_with_the_fewest_repeats(n: int) -> None:
    rng = random.Random(n)
    edges = [frozenset(e) for e in itertools.combinations(range(1, n + 1), 2)]
    for _ in range(400 if n < 10 else 60):
        density = rng.choice((0.3, 0.6, 0.8, 0.9))
        met = {e for e in edges if rng.random() < density}
        order = list(range(1, n + 1))
        rng.shuffle(order)
        _check(order, met)


def test_two_triangles_left_draw_with_one_repeat() -> None:
    # 6 teams whose three rounds were every match between {1, 2, 3} and {4, 5, 6}: what has not been
    # played is two triangles, so every draw has a repeat; before, SwissError stopped the round
    met = {frozenset((a, b)) for a in (1, 2, 3) for b in (4, 5, 6)}
    d = swiss.draw(4, _table([1, 2, 3, 4, 5, 6], met))
    assert [(a.number, b.number) for a, b in d.matches] == [(1, 2), (3, 4), (5, 6)]
    assert [(a.number, b.number) for a, b in d.repeats] == [(3, 4)]


def test_a_round_robin_played_out_draws_in_order_every_match_a_repeat() -> None:
    # 4 teams that have all met: before, "round 4: every way of drawing the round repeats a match"
    played = []
    for r, ms in enumerate(teams.round_robin(4), 1):
        for a, b in ms:
            played += [swiss.Played(r, team(a), team(b), Fraction(10)), swiss.Played(r, team(b), team(a), Fraction(10))]
    d = swiss.draw(4, swiss.standings([team(n) for n in (1, 2, 3, 4)], played))
    assert [(a.number, b.number) for a, b in d.matches] == [(1, 2), (3, 4)]
    assert d.repeats == d.matches


def test_a_draw_without_a_repeat_names_none() -> None:
    d = swiss.draw(2, _table([1, 2, 3, 4], {frozenset((1, 2)), frozenset((3, 4))}))
    assert [(a.number, b.number) for a, b in d.matches] == [(1, 3), (2, 4)] and d.repeats == ()


def _brute_matching(vertices: list[int], edges: set[frozenset[int]]) -> int:
    best = 0
    for k in range(len(vertices) // 2, 0, -1):
        for chosen in itertools.combinations(sorted(edges, key=sorted), k):
            if len({v for e in chosen for v in e}) == 2 * k:
                return k
    return best


def test_the_largest_matching_is_the_largest_on_every_graph_of_six_and_random_ones_of_nine() -> None:
    rng = random.Random(9)
    graphs: list[tuple[list[int], set[frozenset[int]]]] = []
    six = [frozenset(e) for e in itertools.combinations(range(6), 2)]
    for bits in range(0, 1 << len(six), 3):
        graphs.append((list(range(6)), {e for k, e in enumerate(six) if bits >> k & 1}))
    nine = [frozenset(e) for e in itertools.combinations(range(9), 2)]
    for _ in range(300):
        p = rng.choice((0.15, 0.25, 0.4))
        graphs.append((list(range(9)), {e for e in nine if rng.random() < p}))
    # a blossom: a 5-cycle with a tail on each side, whose largest matching needs the cycle shrunk
    graphs.append((list(range(9)), {frozenset(e) for e in ((0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5), (2, 6),
                                                            (6, 7), (3, 8))}))
    for vertices, edges in graphs:
        adj: dict[int, list[int]] = {v: [] for v in vertices}
        for e in edges:
            a, b = sorted(e)
            adj[a].append(b)
            adj[b].append(a)
        assert largest_matching_size(vertices, adj) == _brute_matching(vertices, edges), sorted(map(sorted, edges))


def test_a_big_field_with_no_draw_left_is_drawn_at_once() -> None:
    # 40 teams, every match among the first 21 and among the last 19 played: no draw avoids a repeat
    # (each half is odd) and the fewest is one
    entrants: list[Competitor] = [team(n) for n in range(1, 41)]
    met = {frozenset((a, b)) for g in (range(1, 22), range(22, 41)) for a, b in itertools.combinations(g, 2)}
    d = swiss.draw(9, _table([c.number for c in entrants], met))
    assert len(d.repeats) == 1 and len(d.matches) == 20
