"""Issue 29, item 8: after a round, where each pair and the boards go, read from the movement (pure)."""

from __future__ import annotations

from laws.duplicate.movement import barometer, howell, mitchell, move_dicts, move_words, next_moves


def test_a_mitchell_against_its_guide_card() -> None:
    m = mitchell(4, 2)   # round 1: 1-1 1-2 | 2-2 3-4 | 3-3 5-6 | 4-4 7-8; round 2: 1-4 3-4 | 2-1 5-6 | 3-2 7-8 | 4-3 1-2
    assert move_words(next_moves(m, 1, 1)) == ["Pair 1 NS: stays at table 1, North-South",
                                               "Pair 1 EW: to table 2, East-West", "Boards 1-2: to table 4"]
    assert move_dicts(next_moves(m, 1, 1))[2] == {"pair": None, "boards": [1, 2], "to_table": 4, "round": 2,
                                                  "direction": None}
    assert move_words(next_moves(m, 3, 2)) == ["Boards 7-8: to the director"]      # the last round


def test_a_howell_pair_changes_direction_and_a_barometer_copy_goes_to_the_director() -> None:
    h = howell(4, 2)
    for mv in next_moves(h, 1, 2):
        if mv.pair is not None:
            there = h.where(mv.pair, 2)
            assert there is not None and mv.to_table == there.table
            assert mv.direction == ("NS" if there.ns == mv.pair else "EW")
    assert move_words(next_moves(barometer(3, 2), 1, 1))[-1] == "Boards 1-2: to the director"


def test_a_relay_and_a_sit_out_are_said() -> None:
    m = mitchell(6, 2, even="relay")
    words = [w for r in range(1, m.rounds) for t in range(1, m.tables + 1) for w in move_words(next_moves(m, r, t))]
    assert any("to the relay (table" in w for w in words), words
    half = mitchell(3, 2, half_table=True)
    said = [w for r in range(1, half.rounds) for t in (1, 2, 3) for w in move_words(next_moves(half, r, t))]
    assert any("sits out round" in w for w in said), said
