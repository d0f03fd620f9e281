"""The session's state as a fold of records: bad input named and refused without a change, the
movement's progress (a late table holds nobody else), fouled-board groups from the tables' calls, and
what a table's page may show (never a board a pair seated there has still to play)."""

from __future__ import annotations

import copy
import random

import pytest

from laws.duplicate.movement import mitchell, to_asc
from laws.session.duplicate.spec import SessionSetup, SetupError, check_setup
from laws.session.duplicate.state import SessionState, progress, replay

from .sessionkit import all_results, make_setup, result

MITCHELL_4 = {"kind": "mitchell", "tables": 4, "boards_per_round": 2}
MITCHELL_5 = {"kind": "mitchell", "tables": 5, "boards_per_round": 2}


def _state(spec: dict = MITCHELL_5) -> tuple[SessionSetup, SessionState]:
    setup = make_setup(spec)
    return setup, SessionState.start(setup)


def _snapshot(st: SessionState) -> tuple:
    return (dict(st.entries), dict(st.by_pair), set(st.sources), st.called, dict(st.regroups))


# -- bad input: one clear message naming what and where, and nothing changes ---------------------------

def _refused(st: SessionState, rec: dict, words: str) -> None:
    before = _snapshot(st)
    why = st.check(rec)
    assert words in why, why
    assert _snapshot(st) == before


def test_a_result_for_a_board_the_movement_does_not_give_that_table_is_refused_with_its_boards() -> None:
    setup, st = _state()
    rec = result(setup, 1, 1, 1, random.Random(1))
    rec["board"] = 3  # table 1 plays boards 1-2 in round 1
    _refused(st, rec, "table 1, round 1: a result for board 3, but the movement gives that table boards 1-2 that round")


def test_a_second_result_for_the_same_board_and_pair_is_refused_naming_the_first() -> None:
    setup, st = _state()
    first = result(setup, 1, 1, 1, random.Random(1))
    st.apply(first)
    again = result(setup, 1, 1, 1, random.Random(99), seq=777)  # another message, another result
    again["tricks"] = (first["tricks"] + 1) % 14 if first["contract"] != "Pass" else 0
    again["contract"] = "3NT" if first["contract"] == "Pass" else first["contract"]
    again["declarer"] = again["declarer"] or "N"
    _refused(st, again, "a second result for board 1 and pair 1 NS (the first came from table 1 in round 1)")


def test_a_result_journaled_in_another_spelling_is_kept_in_the_one_spelling_and_its_resend_is_a_repeat() -> None:
    # a journal written before board messages were held to "4S"/"3NTX"/"Pass" (docs/mqtt.md) may hold "3ntx";
    # the session keeps (and the results files print) "3NTX", and the same result spelled "3NTX" is a repeat
    setup, st = _state()
    rec = {**result(setup, 1, 1, 1, random.Random(1)), "contract": "3ntx", "declarer": "N", "tricks": 8,
           "lead": None, "play": [], "verified": False, "foul": None}
    st.apply(rec)
    assert [e.contract for e in st.entries.values()] == ["3NTX"]
    assert st.check({**rec, "contract": "3NTX", "source": "table-01:5000"}) == "repeat"
    assert st.check({**rec, "contract": "3nx", "source": rec["source"]}) == "repeat"
    st.apply({"type": "correct", "key": next(iter(st.entries)), "contract": "4s", "by": "director", "why": "typo"})
    assert [e.contract for e in st.entries.values()] == ["4S"]


def test_a_passed_out_result_with_a_lead_is_refused_as_one_with_a_declarer() -> None:
    # a board nobody played has no opening lead; before, a pass-out with a lead was taken and kept it
    setup, st = _state()
    rec = {**result(setup, 1, 1, 1, random.Random(1)), "contract": "Pass", "declarer": None, "tricks": 0,
           "lead": "AS", "play": [], "verified": False, "foul": None}
    _refused(st, {**rec, "declarer": "N", "lead": None}, "table 1, round 1, board 1: a passed-out board has no declarer, got N")
    _refused(st, rec, "table 1, round 1, board 1: a passed-out board has no lead, got AS")
    assert st.check({**rec, "lead": None}) == ""


def test_the_same_message_again_is_a_repeat_not_a_second_result() -> None:
    setup, st = _state()
    rec = result(setup, 1, 1, 1, random.Random(1))
    st.apply(rec)
    assert st.check(copy.deepcopy(rec)) == "repeat"
    resent = dict(rec, source="table-01:9999")  # the table journaled it again: same result, same table
    assert st.check(resent) == "repeat"


def test_the_result_taken_resent_after_the_directors_correction_is_a_repeat_not_a_second_result() -> None:
    """p6: a table resent its result (its 3 s timer, a new journal row) while the director corrected the
    line; the resend was refused as "a second result for board 1 and pair 1 NS (the first came from table 1
    in round 1)", and the table showed its players that refusal of their own result. The session took that
    result from that table: the resend is a repeat (docs/mqtt.md), and the correction stands."""
    setup, st = _state()
    rec = {**result(setup, 1, 1, 1, random.Random(1)), "contract": "3NT", "declarer": "N", "tricks": 9,
           "lead": None, "play": [], "verified": False, "foul": None}
    st.apply(rec)
    key = next(iter(st.entries))
    st.apply({"type": "correct", "key": key, "tricks": 10, "by": "director", "why": "scorer's slip"})
    assert st.check(dict(rec, source="table-01:9999")) == "repeat"
    assert st.entries[key].tricks == 10
    other = dict(rec, source="table-01:9998", tricks=8)     # another result still is a second result
    assert "a second result for board 1" in st.check(other)


def test_an_adjusted_score_on_a_board_the_pairs_do_not_play_is_refused() -> None:
    _setup, st = _state()
    _refused(st, {"type": "adjust", "board": 3, "ns": "1 NS", "ew": "1 EW", "kind": "artificial",
                  "ns_value": "60", "ew_value": "40"},
             "an adjusted score on a board not played: pairs 1 NS and 1 EW do not play board 3 against each other")


def test_a_tables_result_for_a_line_holding_an_adjusted_score_says_so_not_a_second_result_from_a_table() -> None:
    """An outside table sent its result for a line the director had given an adjusted score: it was refused
    as "a second result ... (the first came from table 1 in round 1)", a table result that never came. The
    refusal says the line holds the director's adjusted score."""
    setup, st = _state()
    st.apply({"type": "adjust", "board": 1, "ns": "1 NS", "ew": "1 EW", "kind": "artificial",
              "ns_value": "60", "ew_value": "40", "by": "td", "why": "the table's Pi failed"})
    _refused(st, result(setup, 1, 1, 1, random.Random(1)),
             "table 1, round 1, board 1: line 1/1 NS/1 EW holds the director's adjusted score; the table's result is "
             "not taken (the director may cancel the adjusted score and enter it)")

def test_wrong_pairs_round_table_record_and_section_are_each_named() -> None:
    setup, st = _state()
    base = result(setup, 1, 2, 3, random.Random(1))
    _refused(st, dict(base, ew="5 EW"), "the movement seats 2 NS and 2 EW there, the result names 2 NS and 5 EW")
    _refused(st, dict(base, round=9), "round 9 is not one of the movement's rounds (1-5)")
    _refused(st, dict(base, table_number=3), "table table-02 is table 2 of the movement, but its result says table 3")
    _refused(st, dict(base, record="0" * 64), "the table played from a record that is not this session's board 3")
    _refused(st, dict(base, section="B"), "a result for section 'B'; this session is section A")
    _refused(st, dict(base, table="table-09"), "a result from table 'table-09', which is not one of this session's tables")
    _refused(st, dict(base, contract="4S", declarer="N", tricks=14), "tricks must be a whole number 0 to 13, got 14")
    _refused(st, dict(base, verified=True, foul={"card": "AS"}), "cannot both verify against the record and call a fouled board")


def test_a_round_called_twice_or_beyond_the_movement_is_refused() -> None:
    _setup, st = _state()
    _refused(st, {"type": "round", "round": 1}, "round 1 has been called already")
    _refused(st, {"type": "round", "round": 6}, "round 6 is not one of the movement's rounds (1-5)")


def test_corrections_of_a_line_that_is_not_there_or_to_a_bad_result_are_refused() -> None:
    setup, st = _state()
    rec = result(setup, 1, 1, 1, random.Random(1))
    st.apply(rec)
    _refused(st, {"type": "correct", "key": "1/9 NS/9 EW", "tricks": 3}, "no traveller line '1/9 NS/9 EW'")
    _refused(st, {"type": "correct", "key": "1/1 NS/1 EW", "contract": "8S", "declarer": "N"}, "line 1/1 NS/1 EW:")
    _refused(st, {"type": "regroup", "key": "1/1 NS/1 EW", "group": "AB"}, "a fouled-board group is one letter")


def test_a_movement_that_cannot_seat_the_pairs_is_refused_naming_both_counts() -> None:
    setup = make_setup(MITCHELL_4)
    with pytest.raises(SetupError, match=r"Mitchell, 4 tables \(skip\) seats 8 pairs \(8 seats at 4 tables\), not 9"):
        check_setup(SessionSetup(**{**setup.__dict__, "pairs": 9}))


def test_hand_records_missing_a_board_of_the_movement_are_refused() -> None:
    setup = make_setup(MITCHELL_4)
    with pytest.raises(SetupError, match="plays boards 1-8 but the hand records have no board 8"):
        check_setup(SessionSetup(**{**setup.__dict__, "boards": setup.boards[:-1]}))


def test_hand_records_holding_none_of_the_boards_played_are_named_by_the_boards_they_hold() -> None:
    """An event opened with a set numbered 16-30 (`cardtable event open --records`) was refused as having
    "no boards 1-6", without a word of the boards the file does hold."""
    from laws.duplicate.movement import records_problem

    assert records_problem(range(16, 31), range(1, 7), "the event") == (
        "the event plays boards 1-6 but the hand records have no boards 1-6: their boards are 16-30 (the boards "
        "played are numbered from 1)")
    assert records_problem(range(1, 8), range(1, 9), "the event") == (   # one short: as before
        "the event plays boards 1-8 but the hand records have no board 8")


ASC_3 = "6 3 3 3 0\n# Mitchell, 3 tables\n1-4 A  2-5 B  3-6 C\n1-6 B  2-4 C  3-5 A\n1-5 C  2-6 A  3-4 B\n"


def test_an_asc_with_a_pair_twice_in_a_round_or_a_group_out_of_range_is_refused_naming_the_line() -> None:
    assert to_asc(mitchell(3, 2)) == ASC_3
    setup = make_setup({"kind": "asc", "text": ASC_3, "boards_per_round": 2})
    assert check_setup(setup).tables == 3
    twice = ASC_3.replace("2-5 B", "2-4 B", 1)
    with pytest.raises(SetupError, match=r"m\.asc: line 3: pair 4 is at tables 1 and 2 in round 1"):
        check_setup(SessionSetup(**{**setup.__dict__, "movement": {"kind": "asc", "text": twice, "file": "m.asc",
                                                                   "boards_per_round": 2}}))
    out_of_range = ASC_3.replace("1-4 A", "1-4 G", 1)
    with pytest.raises(SetupError, match=r"line 3: board group G at table 1 is out of range"):
        check_setup(SessionSetup(**{**setup.__dict__, "movement": {"kind": "asc", "text": out_of_range}}))


def test_an_asc_that_reads_but_cannot_be_played_is_refused_with_the_checkers_words() -> None:
    """docs/movements.md, "The checker": no broken movement is handed out, whoever made it. An .ASC that
    reads (no pair twice in a round) but plays a board twice or meets twice was opened as it stood."""
    setup = make_setup({"kind": "asc", "text": ASC_3, "boards_per_round": 2})
    again = ASC_3.replace("1-6 B  2-4 C  3-5 A", "1-4 A  2-5 B  3-6 C")      # round 2 is round 1 again
    with pytest.raises(SetupError, match=r"m\.asc: the movement cannot be played as it stands: pair 1 plays board 1 "
                                         r"2 times"):
        check_setup(SessionSetup(**{**setup.__dict__, "movement": {"kind": "asc", "text": again, "file": "m.asc",
                                                                   "boards_per_round": 2}}))


def test_club_tables_given_twice_or_missing_are_refused() -> None:
    setup = make_setup(MITCHELL_4)
    with pytest.raises(SetupError, match="club tables table-01 and table-02 are both given table 1"):
        check_setup(SessionSetup(**{**setup.__dict__, "tables": {"table-01": 1, "table-02": 1, "table-03": 3,
                                                                 "table-04": 4}}))
    with pytest.raises(SetupError, match="cannot be an MQTT topic level"):
        check_setup(SessionSetup(**{**setup.__dict__, "tables": {"session": 1}}))


# -- progress -----------------------------------------------------------------------------------------

def test_a_late_table_is_slow_and_holds_nobody_else() -> None:
    setup, st = _state()
    rng = random.Random(3)
    for t in range(1, 6):
        for b in st.movement.boards_of(st.movement.at(1, t).group):
            if t != 3 or b == 5:  # table 3 plays only one of its two boards
                st.apply(result(setup, 1, t, b, rng))
    st.apply({"type": "round", "round": 2})
    p = progress(st)
    rows = {r["table"]: r for r in p.tables}
    assert p.called == 2 and [r["table"] for r in p.tables if r["slow"]] == [3]
    assert rows[3]["round"] == 1 and rows[3]["left"] == [6] and rows[3]["unplayed"] == [6, 7, 8]
    assert all(rows[t]["round"] == 2 for t in (1, 2, 4, 5))
    # table 4 plays its round-2 boards (they came from table 5) while table 3 is still on round 1
    s = st.movement.at(2, 4)
    for b in st.movement.boards_of(s.group):
        assert st.check(result(setup, 2, 4, b, rng)) == ""
    st.apply(result(setup, 1, 3, 6, rng))
    assert progress(st).tables[2]["round"] == 2 and not progress(st).tables[2]["slow"]


# -- fouled boards --------------------------------------------------------------------------------------

def test_a_foul_call_opens_a_group_that_the_board_keeps_until_a_table_verifies_it() -> None:
    setup = make_setup(MITCHELL_5)
    st = SessionState.start(setup)
    lines = [r for r in all_results(setup, fouled={1: 3}) if r["board"] == 1]
    assert [r["round"] for r in lines] == [1, 2, 3, 4, 5]
    for r in lines:
        st.apply(r)
    groups = {st.entries[k].round: g for k, g in st.groups().items() if k.startswith("1/")}
    expected = {r["round"]: ("A" if r["round"] < 3 or r["contract"] == "Pass" and r["round"] == 3 else "B")
                for r in lines}
    assert lines[2]["foul"] is not None or lines[2]["contract"] == "Pass"
    assert groups == expected, (groups, [(r["round"], r["contract"], r["verified"], r["foul"]) for r in lines])
    # a later table that verifies (the director put the board right) is back in group A
    st2 = SessionState.start(setup)
    fixed = [dict(r) for r in lines]
    fixed[4] = dict(fixed[4], foul=None, verified=True)
    for r in fixed:
        st2.apply(r)
    assert {st2.entries[k].round: g for k, g in st2.groups().items() if k.startswith("1/")}[5] == "A"


# -- a table's page -------------------------------------------------------------------------------------

def _leaks(st: SessionState, visible: callable) -> list[str]:
    """Every board a table's page would show although a pair seated there has still to play it."""
    out = []
    for t in range(1, st.movement.tables + 1):
        s = st.movement.at(st.table_round(t), t)
        for p in (s.pairs if s else ()):
            shown = visible(t) & st.still_to_play(p)
            out += [f"table {t}: board {b} shown, pair {p} still plays it" for b in sorted(shown)]
    return out


@pytest.mark.parametrize("spec", [MITCHELL_5, {"kind": "howell", "tables": 4, "boards_per_round": 2},
                                  {"kind": "mitchell", "tables": 6, "boards_per_round": 2, "even": "relay"}])
def test_a_table_page_never_shows_a_board_a_pair_seated_there_has_still_to_play(spec: dict) -> None:
    setup = make_setup(spec)
    st = SessionState.start(setup)
    results = all_results(setup)
    shown_any = 0
    for i, rec in enumerate(results):
        if rec["round"] > st.called:
            st.apply({"type": "round", "round": rec["round"]})
        st.apply(rec)
        assert _leaks(st, st.visible_boards) == []
        shown_any += sum(len(st.visible_boards(t)) for t in range(1, st.movement.tables + 1))
        if i == len(results) // 2:
            break
    assert shown_any > 0  # pages do show boards once both pairs have played them


def test_the_leak_check_finds_a_page_that_shows_everything() -> None:
    setup = make_setup(MITCHELL_5)
    st = SessionState.start(setup)
    for rec in all_results(setup)[:12]:
        st.apply(rec)
    assert _leaks(st, lambda t: set(st.movement.boards()))  # the checker can fail


def test_replaying_the_records_gives_the_same_state() -> None:
    setup = make_setup(MITCHELL_5)
    records = all_results(setup) + [{"type": "round", "round": 2}]
    a, skipped = replay(setup, records)
    b, _ = replay(setup, records)
    assert skipped == [] and a.entries == b.entries and a.lines() == b.lines()
