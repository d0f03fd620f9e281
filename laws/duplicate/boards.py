"""A board's number, its dealer and its vulnerability (Duplicate Bridge, law 2; ``DB-2``).

The dealer goes round the table with the board number (board 1 North, 2 East, 3 South, 4 West, 5 North
again); the vulnerability follows a cycle of sixteen boards that the laws print as a table. Both are
functions of the number alone, so a board that says otherwise is wrong, not a variant.
"""

from __future__ import annotations

from enum import StrEnum

from laws.cards import SEATS, Seat, Side

LAW = "Duplicate Bridge, law 2"
CLAUSE = "DB-2"


class Vulnerability(StrEnum):
    """Which sides are vulnerable on a board; the values are PBN's ``[Vulnerable]`` spellings."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    def of(self, side: Side) -> bool:
        """Whether ``side`` is vulnerable."""
        return self is Vulnerability.ALL or self.value == side.value

    @property
    def words(self) -> str:
        """For people: "nobody vulnerable", "North-South vulnerable", "both vulnerable"."""
        return {"None": "nobody vulnerable", "NS": "North-South vulnerable",
                "EW": "East-West vulnerable", "All": "both sides vulnerable"}[self.value]


# Boards 1..16 (docs/laws.md, the vulnerability cycle); board n uses entry (n - 1) % 16.
_CYCLE = ("None", "NS", "EW", "All", "NS", "EW", "All", "None",
          "EW", "All", "None", "NS", "All", "None", "NS", "EW")


def _check(number: int) -> None:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(f"a board number is a whole number from 1, got {number!r}")


def dealer(number: int) -> Seat:
    """The dealer of board ``number``: N, E, S, W for (number - 1) mod 4 = 0, 1, 2, 3."""
    _check(number)
    return SEATS[(number - 1) % 4]


def vulnerability(number: int) -> Vulnerability:
    """The vulnerability of board ``number``, from the sixteen-board cycle."""
    _check(number)
    return Vulnerability(_CYCLE[(number - 1) % 16])


def vulnerable(number: int, side: Side) -> bool:
    """Whether ``side`` is vulnerable on board ``number``."""
    return vulnerability(number).of(side)
