"""Cards, seats and sides in the event-format notation.

A card is rank then suit: ranks ``AKQJT98765432``, suits ``SHDC`` (``TS`` is the ten of spades).
Seats are ``N``, ``E``, ``S``, ``W`` in clockwise order; sides are ``NS`` and ``EW``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from laws.errors import quoted

RANKS = "AKQJT98765432"
SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {
    "A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine", "8": "eight",
    "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two",
}


class Seat(StrEnum):
    """A seat at the table, clockwise N, E, S, W."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def left(self) -> Seat:
        """The next seat clockwise (the player on this seat's left)."""
        return SEATS[(SEATS.index(self) + 1) % 4]

    @property
    def right(self) -> Seat:
        """The previous seat clockwise (the player on this seat's right)."""
        return SEATS[(SEATS.index(self) - 1) % 4]

    @property
    def partner(self) -> Seat:
        return SEATS[(SEATS.index(self) + 2) % 4]

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    def __str__(self) -> str:
        return self.value


class Side(StrEnum):
    """A partnership."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    def __str__(self) -> str:
        return self.value


SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)


def clockwise_from(seat: Seat) -> tuple[Seat, ...]:
    """The four seats in clockwise order starting with ``seat``."""
    i = SEATS.index(seat)
    return tuple(SEATS[(i + k) % 4] for k in range(4))


@dataclass(frozen=True, order=True)
class Card:
    """A playing card such as ``Card("T", "S")`` (ten of spades)."""

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if len(self.rank) != 1 or self.rank not in RANKS:
            raise ValueError(f"unknown rank {self.rank!r}")
        if len(self.suit) != 1 or self.suit not in SUITS:
            raise ValueError(f"unknown suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"TS"`` into a card; raises ``ValueError`` naming what is wrong."""
        if not isinstance(text, str) or len(text) != 2:
            raise ValueError(f"unknown card {quoted(text)} (want rank then suit, e.g. 'TS')")
        return cls(text[0].upper(), text[1].upper())

    @property
    def code(self) -> str:
        return self.rank + self.suit

    @property
    def name(self) -> str:
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code


def full_pack(ranks: str = RANKS) -> tuple[Card, ...]:
    """Every card of the given ranks in each suit, spades first."""
    return tuple(Card(r, s) for s in SUITS for r in ranks)
