"""Matchpoints, Neuberg factoring and adjusted scores at matchpoints (``DB-78``, ``DB-12``, ``DB-87``).

**Scales.** On the *2-scale* (the international one and our default) a score earns 2 for each score of
its direction it beats and 1 for each it ties; with ``n`` results the top is ``2(n - 1)``. On the
*1-scale* (the ½-point scale) it earns 1 and ½; the top is ``n - 1``. Every figure on the 1-scale is
half the 2-scale one, and we compute it so. A percentage is points over the top, times 100; a board
whose top is 0 (due once) gives 50 %.

**Neuberg** (``DB-78``). A board with ``n`` results compared where ``N`` were due is factored to ``N``:
on the 2-scale ``MP_N = (MP_n + 1) * N / n - 1``; on the 1-scale, halving both sides,
``MP_N = (MP_n + 1/2) * N / n - 1/2``. With ``n = N`` it changes nothing. It is exact (a fraction);
only presentation rounds.

**Artificial scores** (``DB-12``): a side given ``p`` % gets ``p / 100`` of the top for the number due
(``2(N - 1)`` or ``N - 1``); each side on its own. The board's real results are compared among
themselves and factored to ``N`` by Neuberg, so the artificial lines neither help nor hurt them.

**Assigned scores** (``DB-12``) are ordinary results here (the session turns them into entries), and a
split one is compared per direction (:mod:`laws.scoring.comparison`).

**Fouled boards** (``DB-87``): each group is matchpointed on its own and factored by Neuberg to the
whole board's due count ``N``, so every group has the board's top; a group too small to compare gets
average-plus (60 %) for both sides.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction

from laws.scoring.comparison import SMALL_GROUP_PERCENT, Entry, Kind, Points, plan

LAW = "Duplicate Bridge, law 78"
CLAUSE = "DB-78"


class Scale(StrEnum):
    """The matchpoint scale: 2 and 1 a comparison, or 1 and ½."""

    TWO = "2"
    ONE = "1"

    @property
    def factor(self) -> Fraction:
        """What a 2-scale figure is multiplied by on this scale."""
        return Fraction(1) if self is Scale.TWO else Fraction(1, 2)


def top(results: int, scale: Scale = Scale.TWO) -> Fraction:
    """The top of a board with ``results`` results: ``2(n - 1)`` or ``n - 1``."""
    if isinstance(results, bool) or not isinstance(results, int) or results < 1:
        raise ValueError(f"a board has at least one result, got {results!r}")
    return 2 * (results - 1) * scale.factor


def matchpoints(scores: Sequence[int], scale: Scale = Scale.TWO) -> tuple[Fraction, ...]:
    """Each score's matchpoints against the others (higher is better), in order.

    Args:
        scores: the scores of one direction, from that direction's point of view.
        scale: 2-scale (default) or 1-scale.
    """
    ordered = sorted(scores)
    halve = scale is Scale.ONE
    out = []
    for s in scores:
        below = bisect_left(ordered, s)
        ties = bisect_right(ordered, s) - below - 1
        # Fraction of one int takes no gcd: the same value, made faster (a whole rescore makes thousands)
        out.append(Fraction(2 * below + ties, 2) if halve else Fraction(2 * below + ties))
    return tuple(out)


def neuberg(points: Fraction | int, results: int, due: int, scale: Scale = Scale.TWO) -> Fraction:
    """Factor a score's matchpoints among ``results`` results to the ``due`` results of the board.

    Raises:
        ValueError: fewer than one result, or more results than due.
    """
    if results < 1 or due < results:
        raise ValueError(f"Neuberg needs 1 <= results <= due, got {results} results of {due} due")
    # (points + half) * due / results - half, as one fraction (half: 1 on the 2-scale, 1/2 on the 1-scale)
    n, d = points.numerator, points.denominator
    if scale is Scale.ONE:
        n, d = 2 * n, 2 * d         # points = 2n / 2d, half = d / 2d
        h = d // 2
    else:
        h = d
    return Fraction((n + h) * due - h * results, d * results)


def percentage(points: Fraction, board_top: Fraction) -> Fraction:
    """Points as a percentage of the top (50 when the top is 0)."""
    if board_top == 0:
        return Fraction(50)
    # 100 * points / top as one fraction (one gcd instead of three operations' worth)
    return Fraction(100 * points.numerator * board_top.denominator, points.denominator * board_top.numerator)


def artificial_points(percent: Fraction | int, due: int, scale: Scale = Scale.TWO) -> Fraction:
    """The matchpoints of an artificial ``percent`` on a board with ``due`` results due."""
    return Fraction(percent) / 100 * top(due, scale)


def matchpoint_board(entries: Sequence[Entry], due: int, scale: Scale = Scale.TWO) -> tuple[Points, ...]:
    """Score one board at matchpoints, each entry from each side's point of view.

    Args:
        entries: the board's lines (see :mod:`laws.scoring.comparison`).
        due: the number of results due on the board; every score is on the top for ``due``.
        scale: 2-scale or 1-scale.

    Returns:
        One :class:`Points` per entry, in order.

    Raises:
        ValueError: ``due`` below the number of entries.
    """
    p = plan(entries, due)
    out: dict[int, Points] = {}
    for i in p.artificial:
        ns_pct, ew_pct = entries[i].artificial or (Fraction(50), Fraction(50))
        out[i] = Points(artificial_points(ns_pct, due, scale), artificial_points(ew_pct, due, scale),
                        Kind.ARTIFICIAL)
    plus = artificial_points(SMALL_GROUP_PERCENT, due, scale)
    for i in p.small:
        out[i] = Points(plus, plus, Kind.SMALL_GROUP)
    for _gid, members in p.groups:
        n = len(members)
        ns = [entries[i].ns or 0 for i in members]
        ew = [-(entries[i].ew or 0) for i in members]      # East-West's own view
        mp_ns = matchpoints(ns, scale)
        mp_ew = matchpoints(ew, scale)
        for i, a, b in zip(members, mp_ns, mp_ew):
            if n != due:
                a, b = neuberg(a, n, due, scale), neuberg(b, n, due, scale)
            out[i] = Points(a, b, Kind.COMPARED)
    return tuple(out[i] for i in range(len(entries)))
