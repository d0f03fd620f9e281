"""Issue 29, item 8: after a round, where each pair and the boards go, read from the movement (pure)."""

from __future__ import annotations

from laws.duplicate.movement import Movement, barometer, howell, mitchell, move_dicts, move_words, next_moves


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
    assert any("to the bye stand between tables 3 and 4 (table" in w for w in words), words
    half = mitchell(3, 2, half_table=True)
    said = [w for r in range(1, half.rounds) for t in (1, 2, 3) for w in move_words(next_moves(half, r, t))]
    assert any("sits out round" in w for w in said), said


def test_a_half_tables_first_sit_out_sends_its_boards_on() -> None:
    """Audit 18: the boards set out at round 1's sit-out table were never told to move (the guide card:
    round 1 ``5 out (13-15)``, round 2 ``4-3 13-15``)."""
    m = mitchell(5, 3, half_table=True)
    assert move_words(next_moves(m, 1, 5)) == ["Pair 5 NS: stays at table 5, North-South", "Boards 13-15: to table 4"]
    assert move_dicts(next_moves(m, 1, 5))[1] == {"pair": None, "boards": [13, 14, 15], "to_table": 4, "round": 2,
                                                  "direction": None}
    # a later sit-out holds nothing: the boards it shows went past it, to the relay
    assert move_words(next_moves(m, 2, 1)) == ["Pair 1 NS: stays at table 1, North-South"]
    assert move_words(next_moves(m, 1, 2))[-1] == "Boards 4-6: to the relay (table 5 plays them in round 3)"
    # sharing with a table that plays them: that table sends them, the sit-out says nothing of them
    r = mitchell(4, 2, half_table=True, even="relay")   # round 1: table 1 plays 1-2, table 4 sits out with 1-2
    assert not any(mv.boards for mv in next_moves(r, 1, 4))


def _lost_boards(m: Movement) -> list[str]:
    """Every group a table plays (the first of those sharing it) that no move brings there, once a table
    has held it (a group first met on the relay's bye stand is set out by the director: the guide card
    says which, `test_a_relay_mitchells_bye_stand_is_named`)."""
    told = {(mv.to_table, mv.in_round, b) for r in range(1, m.rounds) for t in range(1, m.tables + 1)
            for mv in next_moves(m, r, t) if mv.boards for b in mv.boards}
    lost = []
    for s in m.seatings:
        first = min(x.table for x in m.seatings if x.round == s.round and x.played and x.group == s.group) \
            if s.played else None
        held = any(x.group == s.group and x.round < s.round for x in m.seatings)
        if s.played and s.table == first and held:
            missing = [b for b in m.boards_of(s.group) if (s.table, s.round, b) not in told]
            if missing:
                lost.append(f"round {s.round} table {s.table}: boards {missing}")
    return lost


def test_every_mitchells_boards_are_told_where_to_go() -> None:
    for tables in range(3, 31):
        for half in (False, True):
            for even in ("skip", "relay"):
                m = mitchell(tables, 2, even=even, half_table=half)
                assert _lost_boards(m) == [], m.name
    for tables in range(3, 9):
        assert _lost_boards(howell(tables, 3)) == [], tables


def test_a_relay_mitchells_bye_stand_is_named() -> None:
    """Audit m32: in a relay Mitchell the boards that rest go on the bye stand between tables n/2 and
    n/2 + 1, but table n/2 + 1 was told ``to the relay``, which in that movement is tables 1 and n sharing,
    and the guide card said only ``boards 5-6 not at a table``: nobody was told which boards the director
    sets out on the bye stand before round 1, nor that they rest there."""
    m = mitchell(4, 2, even="relay")   # round 1: 1-2 | 3-4 | 7-8 | 1-2, boards 5-6 on the stand
    assert move_words(next_moves(m, 1, 3))[-1] == \
        "Boards 7-8: to the bye stand between tables 2 and 3 (table 2 plays them in round 3)"
    assert move_dicts(next_moves(m, 1, 3))[-1] == {"pair": None, "boards": [7, 8], "to_table": 2, "round": 3,
                                                   "direction": None}
    assert move_words(next_moves(m, 3, 3))[-1] == "Boards 3-4: to the director"   # rest, then never again
    for tables in range(2, 31, 2):
        r = mitchell(tables, 2, even="relay")
        stand = tables // 2 + 1                       # group n/2 + 1 starts on the stand
        text = r.text()
        assert (f"round 1: boards {2 * stand - 1}-{2 * stand} on the bye stand between tables {tables // 2} and "
                f"{tables // 2 + 1} (the director puts them there before play)") in text, text
        assert "not at a table" not in text
        said = [w for rd in range(1, r.rounds) for t in range(1, tables + 1) for w in move_words(next_moves(r, rd, t))]
        assert not any("to the relay" in w for w in said), said
