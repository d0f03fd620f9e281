"""A Swiss event's standings and each round's draw (pairs or teams alike: a *competitor* is a
:class:`~laws.competitors.Competitor`, a team or a pair, told apart and ordered by its number).

**Standings** (:func:`standings`), best first, by these tie-breaks in turn:

1. total victory points;
2. net IMPs (IMPs won minus IMPs lost over every match played);
3. between competitors still equal, the VPs each scored in the matches they played against each other
   (when every one of them met every other; otherwise this step is skipped);
4. the starting number, lower first (the seeding, or the order of entry).

A bye counts as a match won by the bye score the director sets (12 VPs on the 20-point scale by default,
the common club figure) with no IMPs either way.

**The draw** (:func:`draw`). Round 1 pairs the top half of the seeding against the bottom half (1 v
``n/2 + 1``, 2 v ``n/2 + 2``, ...). Every later round pairs from the standings, top down: the highest
competitor not yet drawn meets the highest one below it that it has not met; when that leaves no way to
draw the rest without a repeat, the search steps back and tries the next candidate, so a draw without a
repeat is always found when one exists. When none exists (late in a small field, some results leave
every way of drawing a round with a repeat), the round is still drawn, never stopped: with the fewest
repeated matches there can be (the competitors that have not met paired as far as they can be, a
largest matching: :mod:`laws.competition.matching`), and among the draws with that few, the one the same
top-down rule gives (the highest not yet drawn meets the highest below it that still leaves the rest
drawable with no more repeats than the fewest). The draw names its repeated matches
(:attr:`Draw.repeats`), so whoever shows it can say so. With an odd number, before drawing, the
lowest-placed competitor that has not yet had a bye gets it. The first-named of each match is the
higher-placed (it sits North-South, or is the home team).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from laws.competition.matching import largest_matching_size
from laws.competitors import Competitor

BYE_VP = Fraction(12)


class SwissError(ValueError):
    """A round that is not a number from 1, competitors that are not right, or standings from results
    that cannot be right (never a round every draw of which repeats a match: that one is drawn
    with the fewest repeats)."""


@dataclass(frozen=True)
class Played:
    """One competitor's match in a round: its opponent (None for a bye), its VPs and its IMPs won and lost."""

    round: int
    competitor: Competitor
    opponent: Competitor | None
    vp: Fraction
    imps_for: int = 0
    imps_against: int = 0


@dataclass(frozen=True)
class Standing:
    """A competitor's place: its totals and the matches they come from."""

    competitor: Competitor
    vp: Fraction
    net_imps: int
    opponents: frozenset[Competitor]
    byes: int
    place: str = ""


@dataclass(frozen=True)
class Draw:
    """A round's draw: its matches (higher-placed first) and the competitor with the bye, if any; and
    those of its matches that repeat one played before (empty unless no draw avoids every repeat: then
    as few as there can be)."""

    round: int
    matches: tuple[tuple[Competitor, Competitor], ...]
    bye: Competitor | None = None
    order: tuple[Competitor, ...] = field(default=(), compare=False)
    repeats: tuple[tuple[Competitor, Competitor], ...] = ()


def _check(competitors: Sequence[Competitor]) -> tuple[Competitor, ...]:
    seen: set[Competitor] = set()
    for c in competitors:
        if not isinstance(c, Competitor):
            raise SwissError(f"a competitor is a team, pair or player (laws.competitors), got {c!r}")
        if c in seen:
            raise SwissError(f"competitor {c} is entered twice")
        seen.add(c)
    if len(seen) < 2:
        raise SwissError("a Swiss needs at least 2 competitors")
    return tuple(competitors)


def standings(competitors: Sequence[Competitor], played: Iterable[Played]) -> tuple[Standing, ...]:
    """The standings, best first, by the tie-breaks in this module's docstring.

    ``competitors`` is the starting order (seeding). Each match is given once per competitor (both sides).
    """
    entrants = _check(competitors)
    seed = {c: i for i, c in enumerate(entrants)}
    vp: dict[Competitor, Fraction] = {c: Fraction(0) for c in entrants}
    net: dict[Competitor, int] = dict.fromkeys(entrants, 0)
    met: dict[Competitor, set[Competitor]] = {c: set() for c in entrants}
    byes: dict[Competitor, int] = dict.fromkeys(entrants, 0)
    between: dict[tuple[Competitor, Competitor], Fraction] = {}
    seen: set[tuple[int, Competitor]] = set()
    for p in played:
        if p.competitor not in seed or (p.opponent is not None and p.opponent not in seed):
            raise SwissError(f"round {p.round}: a match of a competitor not entered ({p.competitor} v {p.opponent})")
        if (p.round, p.competitor) in seen:
            raise SwissError(f"round {p.round}: competitor {p.competitor} has two results")
        seen.add((p.round, p.competitor))
        vp[p.competitor] += Fraction(p.vp)
        net[p.competitor] += p.imps_for - p.imps_against
        if p.opponent is None:
            byes[p.competitor] += 1
        else:
            met[p.competitor].add(p.opponent)
            match = (p.competitor, p.opponent)
            between[match] = between.get(match, Fraction(0)) + Fraction(p.vp)

    def key(c: Competitor) -> tuple[Fraction, int]:
        return (-vp[c], -net[c])

    ordered = sorted(entrants, key=lambda c: (key(c), seed[c]))
    out: list[Competitor] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and key(ordered[j]) == key(ordered[i]):
            j += 1
        tied = ordered[i:j]
        if len(tied) > 1 and all(b in met[a] for a in tied for b in tied if a != b):
            tied = sorted(tied, key=lambda c: (-sum(between.get((c, o), Fraction(0)) for o in tied if o != c),
                                               seed[c]))
        out.extend(tied)
        i = j
    places = _places([(vp[c], net[c]) for c in out])
    return tuple(Standing(c, vp[c], net[c], frozenset(met[c]), byes[c], places[k]) for k, c in enumerate(out))


def _places(keys: list[tuple[Fraction, int]]) -> list[str]:
    """Places with ``=`` for competitors equal on VPs and net IMPs (the later tie-breaks order them but
    they share the place)."""
    out = []
    for i, k in enumerate(keys):
        first = keys.index(k)
        shared = keys.count(k) > 1
        out.append(f"{first + 1}=" if shared else str(i + 1))
    return out


def draw(round_number: int, table: Sequence[Standing], seeding: Sequence[Competitor] | None = None) -> Draw:
    """The draw of ``round_number`` from the standings ``table`` (best first).

    Round 1 uses ``seeding`` (or the table's order): top half against bottom half. Later rounds pair
    top down avoiding repeats, or with the fewest repeats when every draw has one (see the module's
    docstring): a round is always drawn, since an event or a night that cannot draw its next round
    stops with its tables waiting.

    Raises:
        SwissError: the round number or the competitors are not right (never for repeats).
    """
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise SwissError(f"a round is a number from 1, got {round_number!r}")
    order = [s.competitor for s in table] if seeding is None or round_number > 1 else list(seeding)
    _check(order)
    by = {s.competitor: s for s in table}
    bye: Competitor | None = None
    if len(order) % 2:
        fewest = min((s.byes for s in table), default=0)
        bye = next(c for c in reversed(order) if c not in by or by[c].byes == fewest)
        order.remove(bye)
    if round_number == 1:
        half = len(order) // 2
        return Draw(1, tuple(zip(order[:half], order[half:])), bye, tuple(order))
    met: Mapping[Competitor, frozenset[Competitor]] = {c: by[c].opponents if c in by else frozenset() for c in order}
    # the top-down search only when a draw without a repeat exists: it would otherwise try every way
    # before giving up, which in a big field is more than any evening has time for
    fresh = _fresh(order, met)
    fewest = len(order) // 2 - largest_matching_size(range(len(order)), fresh)
    matches = _pair(order, met) if fewest == 0 else None
    if matches is None:
        matches = _fewest_repeats(order, met, fresh, fewest)
    repeats = tuple(m for m in matches if m[1] in met[m[0]])
    return Draw(round_number, tuple(matches), bye, tuple(order), repeats)


def _pair(order: list[Competitor], met: Mapping[Competitor, frozenset[Competitor]]) -> list[tuple[Competitor, Competitor]] | None:
    """Top-down pairing with backtracking; None when no draw avoids every repeat."""
    position = {c: i for i, c in enumerate(order)}
    free = list(order)
    out: list[tuple[Competitor, Competitor]] = []
    failed: set[frozenset[Competitor]] = set()

    def go() -> bool:
        if not free:
            return True
        state = frozenset(free)
        if state in failed:
            return False
        first = free.pop(0)
        for k, other in enumerate(free):
            if other in met[first]:
                continue
            free.pop(k)
            out.append((first, other))
            if go():
                return True
            out.pop()
            free.insert(k, other)
        free.insert(0, first)
        failed.add(state)
        return False

    if not go():
        return None
    return sorted(out, key=lambda m: position[m[0]])


def _fewest_repeats(order: list[Competitor], met: Mapping[Competitor, frozenset[Competitor]],
                    fresh: Mapping[int, list[int]], allowed: int) -> list[tuple[Competitor, Competitor]]:
    """Top-down pairing with ``allowed`` repeats, the fewest there can be (``fresh``: the matches not
    yet played, by place in ``order``).

    The fewest is the number of matches less a largest matching of the matches not yet played; each
    step takes the highest candidate that still leaves the rest drawable within what is left of it, so
    the search never steps back. With no repeat allowed this would be :func:`_pair`'s draw.
    """
    position = {c: i for i, c in enumerate(order)}

    def fewest(rest: list[Competitor]) -> int:
        return len(rest) // 2 - largest_matching_size([position[c] for c in rest], fresh)

    free = list(order)
    out: list[tuple[Competitor, Competitor]] = []
    while free:
        first = free.pop(0)
        for k, other in enumerate(free):
            cost = int(other in met[first])
            if cost <= allowed and cost + fewest(free[:k] + free[k + 1:]) <= allowed:
                break
        else:  # pragma: no cover - the fewest is always reachable from the step before
            raise AssertionError("no pairing within the fewest repeats")
        free.pop(k)
        out.append((first, other))
        allowed -= cost
    return sorted(out, key=lambda m: position[m[0]])


def _fresh(order: list[Competitor], met: Mapping[Competitor, frozenset[Competitor]]) -> dict[int, list[int]]:
    """The graph of the matches not yet played, each competitor by its place in ``order``."""
    return {i: [j for j, o in enumerate(order) if j != i and o not in met[c]] for i, c in enumerate(order)}
