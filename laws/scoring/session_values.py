"""The values a session is scored from and the values it is scored into (see :mod:`laws.scoring.session`).

In: :class:`~laws.competitors.Pair` (the one competitor type), :class:`Line` with a :class:`Played`,
:class:`Assigned` or :class:`Artificial` result, and a :class:`Method`. Out: :class:`SessionResult` holding :class:`ScoredBoard` travellers of
:class:`ScoredLine` and per-field :class:`Ranking` of :class:`Standing`. All frozen; points are exact
fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from laws.cards import Card, Seat
from laws.competitors import Pair as Pair  # re-exported: the one competitor type
from laws.duplicate.boards import Vulnerability
from laws.errors import SessionError as SessionError  # re-exported: its home for callers
from laws.scoring.bridge import Contract
from laws.scoring.imps import Datum


class Method(StrEnum):
    """How the session is scored."""

    MATCHPOINTS = "matchpoints"              # 2 and 1 a comparison
    MATCHPOINTS_HALF = "matchpoints-half"    # 1 and 1/2 a comparison
    BUTLER = "butler"
    CROSS_IMPS = "cross-imps"

    @property
    def at_imps(self) -> bool:
        return self in (Method.BUTLER, Method.CROSS_IMPS)


@dataclass(frozen=True)
class Played:
    """A table result: contract (None when passed out), declarer, tricks won by declarer, lead."""

    contract: Contract | None
    declarer: Seat | None
    tricks: int
    lead: Card | None = None


@dataclass(frozen=True)
class Assigned:
    """The director's assigned score, North-South's view; ``ew`` (also North-South's view) when split."""

    ns: int
    ew: int | None = None


@dataclass(frozen=True)
class Artificial:
    """The director's artificial adjusted score: a percentage for each side (60 / 50 / 40 usually)."""

    ns: Fraction | int
    ew: Fraction | int


Result = Played | Assigned | Artificial


@dataclass(frozen=True)
class Line:
    """One line of a board's traveller, as the table (or the director) entered it."""

    board: int
    ns: Pair
    ew: Pair
    result: Result
    group: str = "A"


@dataclass(frozen=True)
class ScoredLine:
    """A traveller line with its score and points (percentages at matchpoints only)."""

    board: int
    ns: Pair
    ew: Pair
    group: str
    contract: str           # "4SX", "Pass", or "" for an adjusted score
    declarer: str           # "N", or ""
    tricks: int | None
    lead: str | None
    ns_score: int | None    # the score North-South are compared on (None when artificial)
    ew_score: int | None    # the score East-West are compared on, North-South's view
    ns_points: Fraction
    ew_points: Fraction
    ns_percent: Fraction | None
    ew_percent: Fraction | None
    note: str


@dataclass(frozen=True)
class ScoredBoard:
    """One board's traveller, lines in pair order; ``top`` at matchpoints, ``datums`` at Butler."""

    number: int
    vulnerability: Vulnerability
    due: int
    top: Fraction | None
    lines: tuple[ScoredLine, ...]
    datums: tuple[Datum, ...]


@dataclass(frozen=True)
class Standing:
    """One pair's place in its field."""

    pair: Pair
    total: Fraction
    tops: Fraction | None       # the sum of the tops available to the pair (matchpoints)
    percent: Fraction | None    # matchpoints only
    per_board: Fraction         # points per board played
    boards: int
    place: str


@dataclass(frozen=True)
class Ranking:
    """A field's ranking, best first."""

    field: str
    standings: tuple[Standing, ...]


@dataclass(frozen=True)
class SessionResult:
    """A scored session: boards in number order, rankings in field-name order."""

    method: Method
    boards: tuple[ScoredBoard, ...]
    rankings: tuple[Ranking, ...]
