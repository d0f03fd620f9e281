"""Scoring, pure bookkeeping: rubber bridge and Somerset Club euchre (results and penalties in,
rulings out), and duplicate bridge (a board's score, matchpoints, IMPs, a session's ranking).

Standard library only; no clock, no files.
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
