"""Duplicate bridge at one table (docs/laws.md ``DB-`` and ``BP-``): boards from hand records, the auction and
the play as bridge plays them, every card against the board's record, the duplicate score.

The clauses, in the order they are tried: the board and its deal (``duplicate_board``: ``DB-2``,
``DB-6``, ``DB-14``, ``DB-13``, ``DB-87`` before the play's clauses see a card, ``DB-15``), what is raised at the table
(``duplicate_play``: drawing attention, ``DB-9``; a revoke alleged, ``BP-64``; a missing or surplus card
once the auction began, ``DB-14``, ``BP-66-67``), the auction (``bridge_auction``), the play (``bridge_play``), claims and
the end of play (``bridge_result``), then the board's check and score (``DB-7``, ``DB-77``). There is no
draw, no shuffle and cut and no rotation of the deal: the board's number names its dealer (``DB-2``), and
its cards come from its pockets or from the table's shoe dealing its record.
"""

from __future__ import annotations

from laws.cards import RANKS, full_pack
from laws.games import (
    bridge_auction,
    bridge_hand,
    bridge_play,
    bridge_result,
    duplicate_board,
    duplicate_play,
)
from laws.games.base import GameRules, Registry
from laws.state import TableState

NAME = "duplicate-bridge"
reg = Registry("Duplicate Bridge")

duplicate_board.register(reg, before_play=True)
duplicate_play.register(reg)
bridge_auction.register(reg)
bridge_play.register(reg)
bridge_result.register(reg)
duplicate_board.register(reg, before_play=False)


def _setup(state: TableState) -> None:
    state.game_state[duplicate_board.KEY] = None


RULES = GameRules(name=NAME, title="Duplicate Bridge", pack=full_pack(RANKS), hand_size=13, cards_dealt=52,
                  claims_close="deal_end", clauses=tuple(reg.clauses), setup=_setup,
                  ends_play=bridge_hand.play_over)
