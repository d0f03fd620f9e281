"""IMPs: the IMP table, Butler scoring against a datum, and cross-IMPs (``DB-78``, ``DB-12``).

**The table.** A difference in points converts to IMPs by docs/laws.md's table (0-10 -> 0, 20-40 -> 1, ...,
3500-3990 -> 23, 4000 and more -> 24), the same for a negative difference with the sign turned. Scores
are multiples of 10, so differences are too; should one not be, it gets the IMPs of the highest range
whose lower edge it reaches (15 -> 0, 45 -> 1).

**Butler.** Each board has a *datum*: the mean of its North-South scores after dropping the highest
and the lowest, rounded to the nearest 10. As docs/laws.md's ``DB-78`` says, we drop **one at each end**
whenever that leaves a score to average: from three results up (the datum of three is the middle one);
a board of one or two results keeps them all. How many are dropped is a regulation elsewhere and
practice differs (ACBLscore by default drops 5 % at each end; the Sydney Bridge Centre's description of
its Butler drops 10 %; the EBU White Book's worked example of a short board, as quoted in the EBU forum
thread "XIMP Scoring with Fouled Boards", ignores one top and one bottom), so a caller may pass another
count (``drop``). A mean
that ends exactly in 5 rounds to the even ten (425 -> 420, 435 -> 440, -425 -> -420), the rule the
ACBLscore manual gives for its computed datum; this is symmetric for negatives. Each North-South
result then gets ``imps(score - datum)`` and East-West the negative. The datum is not factored when
results are missing.

**Cross-IMPs.** Each score is IMPed against every other score of the board (from the same direction's
point of view) and the sum divided by the number of comparisons, as docs/laws.md's ``DB-78`` says: with
``n`` results, ``sum / (n - 1)``, however many were due (the comparisons made are the ones the sum is
of; the EBU's scorers also scale for missing results, ``sum * N / (n * (N - 1))``, which we do not). A
lone result scores 0.

**Artificial scores at IMPs** (``DB-12``): average-plus +3, average 0, average-minus -3; no other
percentage has an IMP value, so another one is refused rather than guessed.

**Fouled boards** (``DB-87``): each group has its own Butler datum, or is cross-IMPed within itself
(scaled to the board's whole due count as above); a group too small to score gets +3 to both sides
(:mod:`laws.scoring.comparison`). A split assigned score is scored per direction, as there described.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from laws.scoring.comparison import (
    AVERAGE,
    AVERAGE_MINUS,
    AVERAGE_PLUS,
    SMALL_GROUP_PERCENT,
    Entry,
    Kind,
    Points,
    plan,
)

LAW = "Duplicate Bridge, law 78"
CLAUSE = "DB-78"

# The lower edge of each IMP range of docs/laws.md's table: a difference reaching the k-th edge is worth k IMPs.
IMP_EDGES = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750,
             2000, 2250, 2500, 3000, 3500, 4000)
BUTLER_DROP_FROM = 3          # drop the highest and the lowest from this many results up (DB-78)
ARTIFICIAL_IMPS = {AVERAGE_PLUS: 3, AVERAGE: 0, AVERAGE_MINUS: -3}


class ImpMethod(StrEnum):
    """How a pairs event turns point differences into IMPs."""

    BUTLER = "butler"
    CROSS = "cross-imps"


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number of points, got {value!r}")
    return value


def imps(difference: int) -> int:
    """The IMPs for a difference in points (negative for a negative difference)."""
    d = _whole(difference, "an IMP difference")
    n = bisect_right(IMP_EDGES, abs(d))
    return n if d >= 0 else -n


def artificial_imps(percent: Fraction | int) -> int:
    """The IMP value of an artificial adjusted score: 60 % -> +3, 50 % -> 0, 40 % -> -3 (``DB-12``).

    Raises:
        ValueError: any other percentage.
    """
    try:
        return ARTIFICIAL_IMPS[Fraction(percent)]
    except KeyError:
        raise ValueError(f"an artificial {percent}% has no IMP value (DB-12 gives +3, 0 and -3 for 60, 50 "
                         "and 40%)") from None


def butler_drop(results: int) -> int:
    """How many scores the datum drops at each end by default: one from three results up, else none."""
    return 1 if results >= BUTLER_DROP_FROM else 0


def round_to_ten(value: Fraction) -> int:
    """Round to the nearest multiple of 10; an exact half (…5) goes to the even ten, either sign."""
    return round(value / 10) * 10


def butler_datum(scores: Sequence[int], drop: int | None = None) -> int:
    """The Butler datum of a board's North-South scores.

    Args:
        scores: the scores (at least one).
        drop: how many to drop at each end; None for the default (:func:`butler_drop`).

    Raises:
        ValueError: no scores, or ``drop`` would leave none.
    """
    values = sorted(_whole(s, "a score") for s in scores)
    k = butler_drop(len(values)) if drop is None else drop
    if isinstance(k, bool) or not isinstance(k, int) or k < 0 or len(values) - 2 * k < 1:
        raise ValueError(f"cannot drop {k!r} at each end of {len(values)} scores and keep one")
    kept = values[k:len(values) - k]
    return round_to_ten(Fraction(sum(kept), len(kept)))


def butler(scores: Sequence[int], drop: int | None = None) -> tuple[int, ...]:
    """North-South's Butler IMPs for each score, in order (East-West get the negatives)."""
    datum = butler_datum(scores, drop)
    return tuple(imps(s - datum) for s in scores)


def cross_imp_sums(scores: Sequence[int]) -> tuple[int, ...]:
    """For each score, the sum of the IMPs it wins against every other score (North-South's view)."""
    values = [_whole(s, "a score") for s in scores]
    memo: dict[int, int] = {}
    out = []
    for s in values:
        total = 0
        for t in values:
            d = s - t
            got = memo.get(d)
            if got is None:
                got = memo[d] = imps(d)
            total += got
        out.append(total)
    return tuple(out)


def cross_imp_scale(n: int) -> Fraction:
    """The factor that turns a cross-IMP sum of one of ``n`` scores into a score: one over the ``n - 1``
    comparisons it was made of; 0 for a lone score (nothing to compare)."""
    return Fraction(1, n - 1) if n > 1 else Fraction(0)


def cross_imps(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """North-South's cross-IMPs for each score, in order (East-West get the negatives): its IMPs against
    every other score, divided by the number of those comparisons."""
    scale = cross_imp_scale(len(scores))
    return tuple(s * scale for s in cross_imp_sums(scores))


@dataclass(frozen=True)
class Datum:
    """The Butler datum of one group of a board, per direction (equal unless a score was split)."""

    group: str
    ns: int
    ew: int


@dataclass(frozen=True)
class ImpBoard:
    """A board scored at IMPs: the points of each entry, in order, and the Butler datums used."""

    points: tuple[Points, ...]
    datums: tuple[Datum, ...]


def imp_board(entries: Sequence[Entry], due: int, method: ImpMethod, drop: int | None = None) -> ImpBoard:
    """Score one board at IMPs, each entry from each side's point of view.

    Args:
        entries: the board's lines (see :mod:`laws.scoring.comparison`).
        due: the number of results due on the board.
        method: Butler or cross-IMPs.
        drop: Butler only: scores dropped at each end of each group's datum (None: the default rule).

    Raises:
        ValueError: ``due`` below the number of entries, or an artificial percentage with no IMP value.
    """
    p = plan(entries, due)
    out: dict[int, Points] = {}
    datums: list[Datum] = []
    for i in p.artificial:
        ns_pct, ew_pct = entries[i].artificial or (AVERAGE, AVERAGE)
        out[i] = Points(Fraction(artificial_imps(ns_pct)), Fraction(artificial_imps(ew_pct)), Kind.ARTIFICIAL)
    plus = Fraction(artificial_imps(SMALL_GROUP_PERCENT))
    for i in p.small:
        out[i] = Points(plus, plus, Kind.SMALL_GROUP)
    for gid, members in p.groups:
        ns = [entries[i].ns or 0 for i in members]
        ew = [entries[i].ew or 0 for i in members]
        if method is ImpMethod.BUTLER:
            d_ns = butler_datum(ns, drop)
            d_ew = d_ns if ew == ns else butler_datum(ew, drop)
            datums.append(Datum(gid, d_ns, d_ew))
            for i, a, b in zip(members, ns, ew):
                out[i] = Points(Fraction(imps(a - d_ns)), Fraction(-imps(b - d_ew)), Kind.COMPARED)
        else:
            scale = cross_imp_scale(len(members))
            sums_ns = cross_imp_sums(ns)
            sums_ew = sums_ns if ew == ns else cross_imp_sums(ew)
            for i, a, b in zip(members, sums_ns, sums_ew):
                out[i] = Points(a * scale, -b * scale, Kind.COMPARED)
    return ImpBoard(tuple(out[i] for i in range(len(entries))), tuple(datums))
