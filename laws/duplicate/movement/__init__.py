"""Movements as data (``DUPLICATE.md``, Movements): who sits where and which boards each table plays,
round by round, for Mitchell, Howell and barometer movements and for ``.ASC`` movement files.

``model``: the values (:class:`Pair`, :class:`Seating`, :class:`Movement`); ``check``: what is wrong
with one; ``build``: the builders; ``asc``: the text movement file; ``moves``: where pairs and boards go after a round. Everything is importable from here.
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
    records_problem,
)
from laws.duplicate.movement.moves import Move, move_dicts, move_words, next_moves

__all__ = [
    "EW", "HOWELL_TABLES", "MITCHELL_TABLES", "NS", "ONE_FIELD", "RULES", "Move", "Movement", "MovementError",
    "Pair", "Seating", "asc_numbers", "barometer", "board_span", "check", "from_asc", "groups_of", "howell",
    "mitchell", "move_dicts", "move_words", "next_moves", "records_problem", "to_asc",
]
