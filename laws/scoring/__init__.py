"""Scoring for the games the table knows: rubber bridge and Somerset Club euchre.

Pure bookkeeping: results and penalties in, rulings (``score``, ``penalty``, ``game_won``,
``rubber_won``) out.
"""

from laws.scoring.bridge import (
    Contract,
    Entry,
    RubberScore,
    overtrick_points,
    parse_contract,
    slam_bonus,
    trick_points,
    undertrick_points,
)
from laws.scoring.euchre import EuchreRubber, GameResult, hand_points

__all__ = [
    "Contract", "Entry", "EuchreRubber", "GameResult", "RubberScore", "hand_points",
    "overtrick_points", "parse_contract", "slam_bonus", "trick_points", "undertrick_points",
]
