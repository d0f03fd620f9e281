"""Published individual movements, transcribed as data (who sits where, round by round).

Each table is ``(North, South, East, West, group)``: North-South and East-West are partners and
``group`` is the board group the published table gives that table in that round. The numbers are
facts copied from the tables named below; nothing here is computed. ``docs/movements.md`` says where
each came from and how it was checked (:func:`laws.competition.individual.check` proves that every two
players partner exactly once and meet as opponents equally often; the tests compare every seat with
the published table again).

* **8 players, 7 rounds** (2 tables): the "Individual 2 Tables" movement shipped with the open-source
  scorer *BridgeScorer* (``thebridsk/bridgescorer`` on GitHub, file
  ``IndividualMovement.Individual2Tables.yaml``). Both tables play the round's group.
* **12 players, 11 rounds** (3 tables): the 12-player, 11-round, 22-board individual published by the
  Hungarian site admatis.com (``12players-11rounds-22boards.pdf``) as BridgeScorer transcribes it
  (``IndividualMovement.Individual3Tables.yaml``, which names that address). The boards travel: each
  table plays its own group.
"""

from __future__ import annotations

from collections.abc import Mapping

Row = tuple[int, int, int, int, int]

PUBLISHED: Mapping[int, tuple[tuple[Row, ...], ...]] = {
    8: (
        ((8, 1, 5, 7, 1), (2, 6, 4, 3, 1)),
        ((8, 2, 6, 1, 2), (3, 7, 5, 4, 2)),
        ((8, 3, 7, 2, 3), (4, 1, 6, 5, 3)),
        ((8, 4, 1, 3, 4), (5, 2, 7, 6, 4)),
        ((8, 5, 2, 4, 5), (6, 3, 1, 7, 5)),
        ((8, 6, 3, 5, 6), (7, 4, 2, 1, 6)),
        ((8, 7, 4, 6, 7), (1, 5, 3, 2, 7)),
    ),
    12: (
        ((12, 1, 5, 10, 1), (7, 11, 8, 9, 6), (2, 4, 3, 6, 7)),
        ((12, 2, 6, 11, 2), (8, 1, 9, 10, 7), (3, 5, 4, 7, 8)),
        ((12, 3, 7, 1, 3), (9, 2, 10, 11, 8), (4, 6, 5, 8, 9)),
        ((12, 4, 8, 2, 4), (10, 3, 11, 1, 9), (5, 7, 6, 9, 10)),
        ((12, 5, 9, 3, 5), (11, 4, 1, 2, 10), (6, 8, 7, 10, 11)),
        ((12, 6, 10, 4, 6), (1, 5, 2, 3, 11), (7, 9, 8, 11, 1)),
        ((12, 7, 11, 5, 7), (2, 6, 3, 4, 1), (8, 10, 9, 1, 2)),
        ((12, 8, 1, 6, 8), (3, 7, 4, 5, 2), (9, 11, 10, 2, 3)),
        ((12, 9, 2, 7, 9), (4, 8, 5, 6, 3), (10, 1, 11, 3, 4)),
        ((12, 10, 3, 8, 10), (5, 9, 6, 7, 4), (11, 2, 1, 4, 5)),
        ((12, 11, 4, 9, 11), (6, 10, 7, 8, 5), (1, 3, 2, 5, 6)),
    ),
}

# Published tables in which every two players partner once but do not all meet as opponents equally
# often: in the 12-player one, of the 66 pairs of players 11 never meet as opponents, 11 once, 22 twice,
# 11 three times and 11 four times (``opponent_counts``; docs/movements.md).
UNEVEN_OPPONENTS: frozenset[int] = frozenset({12})

SOURCES: Mapping[int, str] = {
    8: "BridgeScorer's Individual 2 Tables (github.com/thebridsk/bridgescorer)",
    12: "admatis.com's 12 players, 11 rounds, 22 boards (as github.com/thebridsk/bridgescorer transcribes it)",
}
