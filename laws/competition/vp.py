"""Victory points from a match's IMP margin.

**The WBF continuous scale** (the World Bridge Federation's 20-point scale of 2013). A match of ``N``
boards has a *blitz* margin ``B = 15 * sqrt(N)`` (not a whole number in general). With
``t = (sqrt(5) - 1) / 2`` (about 0.618), a margin of ``m`` IMPs (``0 <= m``) is worth to the winner

    ``VP(m) = 10 + 10 * (1 - t ** (3 * m / B)) / (1 - t ** 3)``,

at most 20, and the loser gets ``20 - VP(m)``. The scale is published to two decimals for each whole
margin: each value is rounded to the nearest hundredth (a half upwards); then, wherever rounding made one
IMP worth more than the IMP before it (the step from ``m`` to ``m + 1`` larger than the step from
``m - 1`` to ``m``), the value at ``m`` is raised by one hundredth, and this is repeated until every step
is no larger than the one before (the WBF panel's own correction, which keeps the scale concave). A
margin of ``B`` or more is 20-0.

We keep the values in hundredths (integers), so ``VP(m) + VP(-m)`` is exactly 20.00 and nothing is lost
to floating point after the single rounding of each formula value.

**Discrete scales** (a whole number of VPs for a range of IMPs, as in the WBF's discrete tables and many
clubs' 30-point and 25-point scales) are data: :class:`DiscreteScale` takes, for each VP score of the
winner from the draw upwards, the smallest margin that earns it, and checks that the scale is a scale
(it starts at 0 IMPs, its margins rise, the winner's and the loser's VPs add up to the total).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

TOTAL = 20
HUNDREDTHS = 100 * TOTAL          # 20.00 VP in hundredths
DRAW = HUNDREDTHS // 2
TAU = (math.sqrt(5) - 1) / 2


class ScaleError(ValueError):
    """A victory-point scale, or an argument of one, that cannot be used; the message says which."""


def _whole(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ScaleError(f"{name} is a whole number from {low}, got {value!r}")
    return value


def blitz(boards: int) -> float:
    """The margin that wins 20-0 in a match of ``boards`` boards: ``15 * sqrt(boards)``."""
    return 15 * math.sqrt(_whole("a match's number of boards", boards, 1))


def _formula(margin: int, boards: int) -> float:
    b = blitz(boards)
    return float(DRAW + DRAW * (1 - TAU ** (3 * margin / b)) / (1 - TAU ** 3))


@lru_cache(maxsize=256)
def wbf_table(boards: int) -> tuple[int, ...]:
    """The WBF continuous scale for ``boards`` boards, in hundredths of a VP, for margins 0 .. ceil(B).

    Index ``m`` is the winner's VPs (times 100) for a margin of ``m`` IMPs; the last entry is 2000.
    """
    top = math.ceil(blitz(boards))
    values = [min(HUNDREDTHS, math.floor(_formula(m, boards) + 0.5)) for m in range(top + 1)]
    values[-1] = HUNDREDTHS
    changed = True
    while changed:
        changed = False
        for m in range(1, len(values) - 1):
            if values[m + 1] - values[m] > values[m] - values[m - 1]:
                values[m] += 1
                changed = True
    return tuple(values)


def wbf_vp(margin: int, boards: int) -> Fraction:
    """The VPs (out of 20) of the side whose IMP margin is ``margin`` (negative when it lost).

    >>> wbf_vp(0, 16), wbf_vp(1, 16), wbf_vp(-1, 16)
    (Fraction(10, 1), Fraction(1031, 100), Fraction(969, 100))
    """
    if isinstance(margin, bool) or not isinstance(margin, int):
        raise ScaleError(f"an IMP margin is a whole number, got {margin!r}")
    table = wbf_table(boards)
    hundredths = table[min(abs(margin), len(table) - 1)]
    if margin < 0:
        hundredths = HUNDREDTHS - hundredths
    return Fraction(hundredths, 100)


@dataclass(frozen=True)
class DiscreteScale:
    """A discrete scale: ``thresholds[k]`` is the smallest margin that earns the winner ``draw + k`` VPs.

    ``total`` is what the two sides' VPs add up to (20, 25 or 30); ``draw`` is each side's VPs at a
    margin of 0 (``total / 2``, or a whole number below it where a scale's draw is e.g. 15-15 of 30).
    ``thresholds[0]`` must be 0 and the others at least 1 and never falling: two equal thresholds are a
    margin that earns several VPs at once (the ACBL's 30-point scale gives 18-12 for 1 IMP, so 16, 17
    and 18 VPs all have the threshold 1). The winner's VPs never pass ``total`` (a scale whose top is
    ``total - 0`` ends with the blitz margin).
    """

    name: str
    total: int
    draw: int
    thresholds: tuple[int, ...]

    def __post_init__(self) -> None:
        _whole("a scale's total", self.total, 2)
        _whole("a scale's draw", self.draw, 0)
        if 2 * self.draw != self.total:
            raise ScaleError(f"{self.name}: a draw is {self.draw}-{self.draw}, which does not add up to {self.total}")
        if not self.thresholds or self.thresholds[0] != 0:
            raise ScaleError(f"{self.name}: the first threshold (a draw) must be 0 IMPs")
        for k, (a, b) in enumerate(zip(self.thresholds, self.thresholds[1:]), 1):
            _whole(f"{self.name}: threshold {k}", b, 1)
            if b < a:
                raise ScaleError(f"{self.name}: the margin for {self.draw + k} VPs ({b}) must be no less than "
                                 f"the margin for {self.draw + k - 1} ({a})")
        if self.draw + len(self.thresholds) - 1 > self.total:
            raise ScaleError(f"{self.name}: {len(self.thresholds)} steps pass the total of {self.total}")

    def vp(self, margin: int) -> Fraction:
        """The VPs of the side with this margin (negative when it lost)."""
        if isinstance(margin, bool) or not isinstance(margin, int):
            raise ScaleError(f"an IMP margin is a whole number, got {margin!r}")
        steps = sum(1 for t in self.thresholds[1:] if abs(margin) >= t)
        won = self.draw + steps
        return Fraction(won if margin >= 0 else self.total - won)


def discrete_scale(name: str, total: int, thresholds: Sequence[int]) -> DiscreteScale:
    """A :class:`DiscreteScale` from its total and its thresholds (the draw is half the total)."""
    if isinstance(total, bool) or not isinstance(total, int) or total % 2:
        raise ScaleError(f"{name}: a scale's total is an even whole number, got {total!r}")
    return DiscreteScale(name, total, total // 2, tuple(thresholds))


def read_discrete(text: str, name: str) -> DiscreteScale:
    """A discrete scale from text: a first line ``total N``, then one line ``VP MARGIN`` per step.

    The steps start at the draw (``N / 2`` at 0 IMPs); each later step has more VPs and a larger margin.
    A step more than one VP above the one before gives every VP between at that same margin (a scale
    that jumps, as the ACBL's 30-point scale does from 15-15 to 18-12 at 1 IMP).

    Blank lines and ``#`` comments are skipped. Every line that is not a step raises a
    :class:`ScaleError` naming its number.
    """
    total: int | None = None
    steps: list[tuple[int, int, int]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if total is None:
            if len(words) != 2 or words[0] != "total" or not words[1].isascii() or not words[1].isdigit():
                raise ScaleError(f"{name} line {number}: the first line is 'total N', got {raw.strip()!r}")
            total = int(words[1])
            if total % 2 or total < 2:
                raise ScaleError(f"{name} line {number}: a scale's total is an even whole number (its draw is half "
                                 f"of it), got {total}")
            continue
        if len(words) != 2 or not all(w.isascii() and w.isdigit() and len(w) <= 4 for w in words):
            raise ScaleError(f"{name} line {number}: a step is 'VP MARGIN' (two whole numbers), got {raw.strip()!r}")
        steps.append((number, int(words[0]), int(words[1])))
    if total is None:
        raise ScaleError(f"{name}: no 'total N' line")
    draw = total // 2
    thresholds: list[int] = []
    for k, (number, vp, margin) in enumerate(steps):
        if k == 0 and vp != draw:
            raise ScaleError(f"{name} line {number}: the first step is the draw, {draw} VPs, got {vp}")
        if k == 0 and margin != 0:
            raise ScaleError(f"{name} line {number}: the draw is at 0 IMPs, got {margin}")
        if vp > total:
            raise ScaleError(f"{name} line {number}: {vp} VPs pass the total of {total}")
        if k and vp <= steps[k - 1][1]:
            raise ScaleError(f"{name} line {number}: expected more than {steps[k - 1][1]} VPs, got {vp}")
        if k and margin <= steps[k - 1][2]:
            raise ScaleError(f"{name} line {number}: the margin for {vp} VPs ({margin}) must be more than "
                             f"the margin for {steps[k - 1][1]} ({steps[k - 1][2]})")
        thresholds += [margin] * (vp - draw + 1 - len(thresholds))
    return discrete_scale(name, total, thresholds)
