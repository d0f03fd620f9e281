"""Who competes: one type for a pair, a team and a player, whoever seats, scores or ranks them.

A :class:`Competitor` is its kind (pair, team or player), its number and, where it has one, its home
direction (``Side.NS`` or ``Side.EW`` in a two-field movement such as a Mitchell; ``None`` in a Howell,
a teams match or an individual). Two competitors are the same when kind, number and direction are:
pair 3 NS and pair 3 EW are two pairs. ``members`` (the players' names, when known) is carried along
but is not part of who the competitor is; nor are a player's ``member`` (the club's member number, ``""``
for a visitor) and ``federation`` (the national federation's number).

A player is a competitor of kind ``player``: an individual movement's player 7, a euchre night's
player 3 (``player(3, "Ann", "M12")``), or one of a pair's two players as the results files name him
(``player(name="Ann", member="M12", federation="1001")``). Only a player may be given number 0, which
means "not numbered": a pair's player in the results is known by his names, not by a number of his own.

The movement (:mod:`laws.duplicate.movement`) and the scoring (:mod:`laws.scoring`) both call it
``Pair``; it is this one type, so a movement's pair is the scoring's pair with no conversion between.
A direction may be given as ``"NS"``/``"EW"`` and is kept as a :class:`~laws.cards.Side` (a ``str``
enum, so it still equals ``"NS"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from laws.cards import Side
from laws.errors import MovementError, SessionError


class CompetitorError(MovementError, SessionError):
    """A competitor that cannot be: a number that is not a whole number from 1, a direction that is not one.

    It is a :class:`~laws.errors.MovementError` and a :class:`~laws.errors.SessionError` (both
    ``ValueError``), so whoever seats or scores pairs catches it as before there was one type.
    """


class Kind(StrEnum):
    """What kind of competitor."""

    PAIR = "pair"
    TEAM = "team"
    PLAYER = "player"


@dataclass(frozen=True, order=True)
class Competitor:
    """A pair, team or player: its number and, in a two-field movement, its home direction.

    Ordered by number, then direction, then kind (pairs of one field sort by number).
    """

    number: int
    direction: Side | None = None
    kind: Kind = Kind.PAIR
    members: tuple[str, ...] = field(default=(), compare=False)
    member: str = field(default="", compare=False)
    federation: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        least = 0 if self.kind == Kind.PLAYER else 1
        if isinstance(self.number, bool) or not isinstance(self.number, int) or self.number < least:
            raise CompetitorError(f"a {self.kind} number is a whole number from {least}, got {self.number!r}")
        if isinstance(self.direction, str) and self.direction in ("NS", "EW"):
            object.__setattr__(self, "direction", Side(self.direction))
        if self.direction is not None and not isinstance(self.direction, Side):
            raise CompetitorError(f"{self.kind} {self.number}: direction must be NS, EW or None, "
                                  f"got {self.direction!r}")
        try:
            kind = Kind(self.kind)
        except ValueError:
            raise CompetitorError(f"a competitor is a pair, team or player, got {self.kind!r}") from None
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "members", tuple(str(m) for m in self.members))
        object.__setattr__(self, "member", str(self.member))
        object.__setattr__(self, "federation", str(self.federation))
        # The hash of who it is, made once: scoring looks pairs up in dicts thousands of times a rescore
        # (the same value the dataclass's own hash of the compared fields would give).
        object.__setattr__(self, "_hash", hash((self.number, self.direction, kind)))
        object.__setattr__(self, "_key", (self.number, "" if self.direction is None else self.direction.value))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined,no-any-return]

    @property
    def name(self) -> str:
        """The members' names, ``" & "`` between them: a player's own name (``""`` when not known)."""
        return " & ".join(m for m in self.members if m)

    @property
    def label(self) -> str:
        """``"3 NS"``, or ``"5"`` for a competitor without a direction."""
        return f"{self.number}" if self.direction is None else f"{self.number} {self.direction.value}"

    @property
    def key(self) -> tuple[int, str]:
        """``(number, "NS"|"EW"|"")``: a sort key that never compares a direction with ``None``."""
        return self._key  # type: ignore[attr-defined,no-any-return]

    def __str__(self) -> str:
        return self.label


#: A pair is a :class:`Competitor` of kind ``pair`` (the default): ``Pair(3, "NS")``, ``Pair(5)``.
Pair = Competitor


def team(number: int, members: tuple[str, ...] = ()) -> Competitor:
    """Team ``number`` (a team has no direction)."""
    return Competitor(number, None, Kind.TEAM, members)


def player(number: int = 0, name: str = "", member: str = "", federation: str = "") -> Competitor:
    """Player ``number`` (0: not numbered), with his name and numbers where known; a player has no direction."""
    return Competitor(number, None, Kind.PLAYER, (name,) if name else (), member, federation)
