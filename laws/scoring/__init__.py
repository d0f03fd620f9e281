"""Scoring for the games the table knows: rubber bridge, Somerset Club euchre and duplicate bridge.

Rubber bridge and euchre are bookkeeping: results and penalties in, rulings (``score``, ``penalty``,
``game_won``, ``rubber_won``) out. Duplicate is pure and exact: a board's score (``DB-77``),
matchpoints, Neuberg and IMPs (``DB-78``), adjusted scores (``DB-12``), fouled boards (``DB-87``) and a
whole session, as fractions; only :func:`render_session` rounds. The rules are in each module's
docstring and in ``docs/scoring.md``.
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
from laws.scoring.comparison import AVERAGE, AVERAGE_MINUS, AVERAGE_PLUS
from laws.scoring.duplicate import ScoreInputError, board_score, declarer_score, passed_out_lead
from laws.scoring.euchre import EuchreRubber, GameResult, hand_points
from laws.scoring.imps import ImpMethod, artificial_imps, butler, butler_datum, cross_imps, imps
from laws.scoring.matchpoints import Scale, matchpoints, neuberg, percentage, top
from laws.scoring.render import present, render_session
from laws.scoring.session import (
    Artificial,
    Assigned,
    Line,
    Method,
    Pair,
    Played,
    Ranking,
    ScoredBoard,
    ScoredLine,
    SessionError,
    SessionResult,
    Standing,
    Tally,
    rank_boards,
    rank_tallies,
    score_boards,
    score_session,
    tally_boards,
)
from laws.scoring.session_bench import bench_session

__all__ = [
    "AVERAGE", "AVERAGE_MINUS", "AVERAGE_PLUS", "Artificial", "Assigned", "Contract", "Entry",
    "EuchreRubber", "GameResult", "ImpMethod", "Line", "Method", "Pair", "Played", "Ranking",
    "RubberScore", "Scale", "ScoreInputError", "ScoredBoard", "ScoredLine", "SessionError",
    "SessionResult", "Standing", "Tally", "artificial_imps", "bench_session", "board_score", "butler",
    "butler_datum", "cross_imps", "declarer_score", "hand_points", "imps", "matchpoints", "neuberg",
    "overtrick_points", "parse_contract", "passed_out_lead", "percentage", "present", "rank_boards", "rank_tallies", "render_session",
    "score_boards", "score_session", "tally_boards",
    "slam_bonus", "top", "trick_points", "undertrick_points",
]
