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
* **16 players, 12 rounds** (4 tables): the 4-table, 12-round individual of Ted's Bridge World (Ted
  Muller's site of movements), as the open-source club scorer *Bridge_pal* ships it
  (``MarcinRubin/Bridge_pal`` on GitHub, ``backend/bridge_movements/Individual_16_1.txt``, whose first
  line names Ted's Bridge World). Its rows give four players and a group; we read the players as North,
  South, East, West, the one reading under which no two players partner twice (read as North, East,
  South, West, 18 partnerships would come twice). Players 13 to 16 stay North at tables 4 to 1; in each
  round players 1 to 12 move on one (12 to 1) and every table's group moves on one. In 12 rounds each
  player partners 12 of the 15 others once: not every two players are partners (``PARTIAL``).
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
    16: (
        ((16, 1, 2, 7, 1), (15, 6, 9, 11, 2), (14, 8, 4, 5, 6), (13, 10, 12, 3, 7)),
        ((16, 2, 3, 8, 2), (15, 7, 10, 12, 3), (14, 9, 5, 6, 7), (13, 11, 1, 4, 8)),
        ((16, 3, 4, 9, 3), (15, 8, 11, 1, 4), (14, 10, 6, 7, 8), (13, 12, 2, 5, 9)),
        ((16, 4, 5, 10, 4), (15, 9, 12, 2, 5), (14, 11, 7, 8, 9), (13, 1, 3, 6, 10)),
        ((16, 5, 6, 11, 5), (15, 10, 1, 3, 6), (14, 12, 8, 9, 10), (13, 2, 4, 7, 11)),
        ((16, 6, 7, 12, 6), (15, 11, 2, 4, 7), (14, 1, 9, 10, 11), (13, 3, 5, 8, 12)),
        ((16, 7, 8, 1, 7), (15, 12, 3, 5, 8), (14, 2, 10, 11, 12), (13, 4, 6, 9, 1)),
        ((16, 8, 9, 2, 8), (15, 1, 4, 6, 9), (14, 3, 11, 12, 1), (13, 5, 7, 10, 2)),
        ((16, 9, 10, 3, 9), (15, 2, 5, 7, 10), (14, 4, 12, 1, 2), (13, 6, 8, 11, 3)),
        ((16, 10, 11, 4, 10), (15, 3, 6, 8, 11), (14, 5, 1, 2, 3), (13, 7, 9, 12, 4)),
        ((16, 11, 12, 5, 11), (15, 4, 7, 9, 12), (14, 6, 2, 3, 4), (13, 8, 10, 1, 5)),
        ((16, 12, 1, 6, 12), (15, 5, 8, 10, 1), (14, 7, 3, 4, 5), (13, 9, 11, 2, 6)),
    ),
}

# Published tables in which not every two players are partners (each two at most once): the 16-player
# one plays 12 rounds, so each player partners 12 of the 15 others (docs/movements.md).
PARTIAL: frozenset[int] = frozenset({16})

# Published tables in which not all players meet as opponents equally often: in the 12-player one, of
# the 66 pairs of players 11 never meet as opponents, 11 once, 22 twice, 11 three times and 11 four
# times; in the 16-player one, of 120 pairs 6 never meet, 36 once and 78 twice (``opponent_counts``;
# docs/movements.md).
UNEVEN_OPPONENTS: frozenset[int] = frozenset({12, 16})

SOURCES: Mapping[int, str] = {
    8: "BridgeScorer's Individual 2 Tables (github.com/thebridsk/bridgescorer)",
    12: "admatis.com's 12 players, 11 rounds, 22 boards (as github.com/thebridsk/bridgescorer transcribes it)",
    16: "Ted's Bridge World's 16 players, 4 tables, 12 rounds (as github.com/MarcinRubin/Bridge_pal ships it)",
}
