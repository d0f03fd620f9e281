"""A board's results as the comparison methods see them: entries, fouled groups, artificial scores.

Matchpoints (:mod:`laws.scoring.matchpoints`) and IMPs (:mod:`laws.scoring.imps`) compare the results of
one board. Both take the same :class:`Entry` values, one per traveller line, and answer one
:class:`Points` per entry, in the same order. This module holds what the two share.

Rules we state:

* **Two columns of scores.** Each entry carries the North-South-view score that North-South pairs are
  compared on (``ns``) and the one East-West pairs are compared on (``ew``). They are equal except for a
  *split* assigned score (``DB-12``), where the director gives the two sides different results: each
  side is then compared with the other lines of its own direction on its own score, and the other lines
  of each direction are compared with that line's score for their direction. So a board is scored once
  per direction, and without a split score the two passes agree.
* **Artificial adjusted scores** (``DB-12``) are percentages per side, given to each side on its own
  (North-South may get 60 and East-West 40). A line with an artificial score is compared with nothing
  and nothing is compared with it: the board's real results are compared among themselves and, at
  matchpoints, factored to the number of results due (Neuberg, ``DB-78``).
* **Fouled boards** (``DB-87``): each entry carries a group id (the form of the board that table
  played). Each group is scored apart. When a board has more than one group, a group of fewer than three
  results that is also under a third of the results due (``3 * size < due``) is not scored: each side in
  it gets average-plus (60 %, or +3 IMPs), since nobody at such a table is at fault. A board with a
  single group is never treated so, however few results it has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

AVERAGE_PLUS = Fraction(60)
AVERAGE = Fraction(50)
AVERAGE_MINUS = Fraction(40)
SMALL_GROUP_RESULTS = 3     # a fouled group under this many results ...
SMALL_GROUP_SHARE = 3       # ... and under 1/3 of the results due gets artificial scores
SMALL_GROUP_PERCENT = AVERAGE_PLUS


class Kind(StrEnum):
    """How an entry's points were reached."""

    COMPARED = "compared"          # compared with the other real results of its group
    ARTIFICIAL = "artificial"      # the director's artificial adjusted score (DB-12)
    SMALL_GROUP = "small_group"    # a fouled group too small to compare (DB-87): average-plus to both


@dataclass(frozen=True)
class Entry:
    """One traveller line in comparison terms.

    Attributes:
        ns: the North-South-view score North-South pairs are compared on (None when artificial).
        ew: the North-South-view score East-West pairs are compared on (equal to ``ns`` unless the
            director split an assigned score; None when artificial).
        group: the fouled-board group the line's table played (one group by default).
        artificial: the artificial percentages (North-South, East-West), or None for a real result.
    """

    ns: int | None
    ew: int | None
    group: str = "A"
    artificial: tuple[Fraction, Fraction] | None = None

    def __post_init__(self) -> None:
        if self.artificial is None:
            if not (isinstance(self.ns, int) and isinstance(self.ew, int)) or isinstance(self.ns, bool) \
                    or isinstance(self.ew, bool):
                raise ValueError(f"a real result needs whole-number scores, got ns={self.ns!r} ew={self.ew!r}")
        else:
            if self.ns is not None or self.ew is not None:
                raise ValueError("an artificial score carries percentages, not scores")
            for pct in self.artificial:
                if not isinstance(pct, (int, Fraction)) or isinstance(pct, bool) or not 0 <= pct <= 100:
                    raise ValueError(f"an artificial score is a percentage 0 to 100, got {pct!r}")

    @classmethod
    def real(cls, score: int, group: str = "A") -> Entry:
        """A table result (or an assigned score) that both directions are compared on."""
        return cls(score, score, group)

    @classmethod
    def split(cls, ns: int, ew: int, group: str = "A") -> Entry:
        """A split assigned score: ``ns`` for North-South, ``ew`` (North-South's view) for East-West."""
        return cls(ns, ew, group)

    @classmethod
    def adjusted(cls, ns_percent: Fraction | int, ew_percent: Fraction | int) -> Entry:
        """An artificial adjusted score, a percentage for each side."""
        return cls(None, None, "", (Fraction(ns_percent), Fraction(ew_percent)))


@dataclass(frozen=True)
class Points:
    """What one entry earns: North-South's and East-West's points, and how."""

    ns: Fraction
    ew: Fraction
    kind: Kind


@dataclass(frozen=True)
class Plan:
    """A board's entries sorted for scoring: groups to compare, and the entries that are not compared."""

    groups: tuple[tuple[str, tuple[int, ...]], ...]    # (group id, indices of its real results)
    artificial: tuple[int, ...]                        # director's artificial scores
    small: tuple[int, ...]                             # results in fouled groups too small to compare


def plan(entries: Sequence[Entry], due: int) -> Plan:
    """Split a board's entries into groups of real results, artificial scores and small groups.

    Args:
        entries: the board's lines.
        due: the number of results due on the board (at least the number of entries).

    Raises:
        ValueError: ``due`` is not a whole number at least the number of entries.
    """
    if isinstance(due, bool) or not isinstance(due, int) or due < max(1, len(entries)):
        raise ValueError(f"{len(entries)} results need at least as many due, got due={due!r}")
    by_group: dict[str, list[int]] = {}
    artificial: list[int] = []
    for i, e in enumerate(entries):
        if e.artificial is not None:
            artificial.append(i)
        else:
            by_group.setdefault(e.group, []).append(i)
    groups: list[tuple[str, tuple[int, ...]]] = []
    small: list[int] = []
    fouled = len(by_group) > 1
    for gid in sorted(by_group):
        members = by_group[gid]
        if fouled and is_small_group(len(members), due):
            small.extend(members)
        else:
            groups.append((gid, tuple(members)))
    return Plan(tuple(groups), tuple(artificial), tuple(sorted(small)))


def is_small_group(size: int, due: int) -> bool:
    """Whether a fouled group of ``size`` results, on a board with ``due`` due, is too small to compare:
    fewer than three results and under a third of the results due (``DB-87``)."""
    return size < SMALL_GROUP_RESULTS and SMALL_GROUP_SHARE * size < due
