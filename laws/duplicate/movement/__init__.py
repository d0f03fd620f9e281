"""Movements as data (``DUPLICATE.md``, Movements): who sits where and which boards each table plays,
round by round, for Mitchell, Howell and barometer movements and for ``.ASC`` movement files.

``model``: the values (:class:`Pair`, :class:`Seating`, :class:`Movement`); ``check``: what is wrong
with one; ``build``: the builders; ``asc``: the text movement file. Everything is importable from here.
"""

from laws.duplicate.movement.asc import asc_numbers, from_asc, to_asc
from laws.duplicate.movement.build import HOWELL_TABLES, MITCHELL_TABLES, barometer, howell, mitchell
from laws.duplicate.movement.check import RULES, check
from laws.duplicate.movement.model import (
    EW,
    NS,
    ONE_FIELD,
    Movement,
    MovementError,
    Pair,
    Seating,
    board_span,
    groups_of,
)

__all__ = [
    "EW", "HOWELL_TABLES", "MITCHELL_TABLES", "NS", "ONE_FIELD", "RULES", "Movement", "MovementError", "Pair",
    "Seating", "asc_numbers", "barometer", "board_span", "check", "from_asc", "groups_of", "howell",
    "mitchell", "to_asc",
]
