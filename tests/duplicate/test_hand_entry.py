"""Issue 29, items 3 and 4, in the session's state and journal: a result entered by hand for a table
whose Pi failed (marked so, and held against the table's own result when that arrives later: never both
scored), a line taken off that never moves a table back to a past round (marked to be replayed or for
the director), the call of a round undone until a result of it arrives, a session shown as finished,
and the forms read as people type them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firmware_host.duplicate import forms
from firmware_host.session.duplicate_session import Session
from laws.session.duplicate.state import SessionState, progress, replay

from .sessionkit import all_results, make_setup, result

MITCHELL_7 = {"kind": "mitchell", "tables": 7, "boards_per_round": 1}
MITCHELL_3 = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}


def _hand(st: SessionState, key: str, contract: str = "4S", declarer: str = "S", lead: str = "HA",
          tricks: int = 10, by: str = "td", table: str | None = None) -> dict[str, Any]:
    return forms.enter({"key": key, "contract": contract, "declarer": declarer, "lead": lead, "tricks": tricks},
                       by, st, table=table)


def _take(st: SessionState, rec: dict[str, Any]) -> None:
    why = st.check(rec)
    assert why == "", why
    st.apply(rec)


def _table_result(setup: Any, st: SessionState, board: int) -> dict[str, Any]:
    for s in st.movement.seatings:
        if s.played and board in st.movement.boards_of(s.group):
            return result(setup, s.round, s.table, board, random.Random(board))
    raise AssertionError(board)


# -- a result without a working table --------------------------------------------------------------------

def test_a_result_entered_by_hand_is_scored_marked_and_journaled_so(tmp_path: Any) -> None:
    setup = make_setup(MITCHELL_3)
    s = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    rec = _hand(s.state, "1/1NS/1EW", contract="4s", lead="♥A")
    assert (rec["hand"], rec["contract"], rec["lead"], rec["round"], rec["table"]) == (True, "4S", "AH", 1, "table-01")
    assert s.take(rec).taken
    e = s.state.entries["1/1 NS/1 EW"]
    assert e.hand and e.kind == "played" and e.by == "td"
    assert any(ln.ns.number == 1 for ln in s.scored().boards[0].lines)
    s.close()
    again = Session.open(tmp_path / "s", analyse=False)
    assert again.state.entries["1/1 NS/1 EW"].hand          # the journal says so: a restart keeps the mark
    rows = [r.body for r in again.journal.rows() if r.kind == "event"]
    assert rows[-1]["hand"] is True and rows[-1]["by"] == "td"
    again.close()


def test_the_tables_own_result_arriving_later_is_a_conflict_never_scored_twice() -> None:
    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    theirs = _table_result(setup, st, 1)
    key = f"1/{theirs['ns']}/{theirs['ew']}"
    _take(st, _hand(st, key, contract="3NT", declarer="N", tricks=9))
    _take(st, theirs)                                       # taken into the journal, not onto the traveller
    assert key in st.conflicts and st.entries[key].hand
    assert len([ln for ln in st.board_lines(1) if ln.ns.number == 1]) == 1
    assert st.check(theirs) == "repeat"                     # the same message again
    assert not st.finished()
    assert "no conflict to settle" in st.check({"type": "resolve", "key": "2/1 NS/1 EW", "keep": "table"})
    assert "choose one first" in st.check({"type": "cancel", "key": key})
    _take(st, {"type": "resolve", "key": key, "keep": "table", "by": "td"})
    assert not st.entries[key].hand and st.entries[key].contract == theirs["contract"] and not st.conflicts


def test_a_correction_while_a_line_is_in_conflict_is_refused_until_one_result_is_kept() -> None:
    # A correction taken while both results were held was silently dropped by "Keep the table's": the
    # director chooses first, as for taking the line off, then corrects the result kept.
    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    theirs = _table_result(setup, st, 1)
    key = f"1/{theirs['ns']}/{theirs['ew']}"
    _take(st, _hand(st, key, contract="4S", declarer="N", tricks=10))
    _take(st, {**theirs, "contract": "4S", "declarer": "N", "tricks": 9})
    fix = {"type": "correct", "key": key, "tricks": 11, "by": "td", "why": "TD ruling"}
    assert st.check(fix) == (f"line {key} has a result entered by hand and the table's own: choose one first "
                             "(keep the table's or the hand-entered one), then correct it")
    _take(st, {"type": "resolve", "key": key, "keep": "table", "by": "td"})
    _take(st, fix)
    assert st.entries[key].tricks == 11 and not st.entries[key].hand


def test_a_correction_journaled_during_a_conflict_before_it_was_refused_replays_as_it_did() -> None:
    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    theirs = _table_result(setup, st, 1)
    key = f"1/{theirs['ns']}/{theirs['ew']}"
    hand = _hand(st, key, contract="4S", declarer="N", tricks=10)
    table = {**theirs, "contract": "4S", "declarer": "N", "tricks": 9}
    old = [hand, table, {"type": "correct", "key": key, "tricks": 11, "by": "td", "why": "TD ruling"},
           {"type": "resolve", "key": key, "keep": "hand", "by": "td"}]
    state, skipped = replay(setup, old)
    assert not skipped and state.entries[key].tricks == 11 and state.entries[key].hand


def test_a_hand_entry_on_a_line_that_has_a_result_is_refused_naming_it() -> None:
    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    theirs = _table_result(setup, st, 1)
    _take(st, theirs)
    why = st.check(_hand(st, "1 1 1"))
    assert why == "line 1/1 NS/1 EW has a result already (from table 1 in round 1): correct it instead"


def test_the_same_hand_entry_again_by_the_same_hand_is_a_repeat() -> None:
    """Audit 65 F8: a second press of a page's "Enter the result" was refused as a second result ("has a
    result already ... correct it instead"). The same entry by the same page, as the line stands, is a
    repeat; another result, or the same from someone else, is still refused."""
    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    rec = _hand(st, "1/1 NS/1 EW", table="table-01", by="table-01's page")
    _take(st, rec)
    assert st.check(_hand(st, "1/1 NS/1 EW", table="table-01", by="table-01's page")) == "repeat"
    assert "has a result already" in st.check(_hand(st, "1/1 NS/1 EW", tricks=9, table="table-01", by="table-01's page"))
    assert "has a result already" in st.check(_hand(st, "1/1 NS/1 EW", by="td"))


def test_a_table_page_may_enter_only_its_own_lines_up_to_the_round_called() -> None:
    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    with pytest.raises(forms.FormError, match="this page is table table-02's"):
        _hand(st, "1/1 NS/1 EW", table="table-02")
    rec = _hand(st, "1/1 NS/1 EW", table="table-01", by="table-01's page")
    _take(st, rec)
    assert st.entries["1/1 NS/1 EW"].hand


def test_correct_on_a_missing_line_says_what_to_do() -> None:
    """On main the answer was only "no traveller line '5/3 NS/4 EW' (a line is board/NS pair/EW pair...)"."""
    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    why = st.check({"type": "correct", "key": "1/1 NS/1 EW", "tricks": 9})
    assert why == ("no traveller line 1/1 NS/1 EW (table 1, round 1): no result has reached the session for it "
                   "yet; enter the result by hand (contract, declarer, lead, tricks) or give an adjusted score")
    assert "do not play board 1 against each other" in st.check({"type": "correct", "key": "1/2 NS/1 EW"})


# -- taking a line off ------------------------------------------------------------------------------------

def _through_round(setup: Any, st: SessionState, last: int) -> None:
    for rec in all_results(setup):
        if rec["round"] > last:
            break
        while st.called < rec["round"]:
            _take(st, {"type": "round", "round": st.called + 1, "by": "td"})
        _take(st, rec)


def test_taking_a_line_off_never_moves_a_table_back_to_a_past_round() -> None:
    """The issue's case: a round-2 line taken off in round 3; its table stays in round 3 (on main it
    showed "round 2 · still to play: 2")."""
    setup = make_setup(MITCHELL_7)
    st = SessionState.start(setup)
    _through_round(setup, st, 3)
    line = next(e for e in st.entries.values() if e.board == 2 and e.round == 2)
    _take(st, {"type": "cancel", "key": line.key, "by": "td", "why": "wrong board"})
    row = progress(st).tables[line.table - 1]
    assert (row["round"], row["left"], row["slow"]) == (3, [], False), row
    assert row["taken_off"] == {"replay": [2], "director": []}
    assert not st.finished()


def test_a_replayed_result_is_taken_when_marked_to_replay_and_refused_when_the_director_scores_it() -> None:
    setup = make_setup(MITCHELL_7)
    st = SessionState.start(setup)
    _through_round(setup, st, 3)
    line = next(e for e in st.entries.values() if e.board == 2 and e.round == 2)
    replayed = result(setup, 2, line.table, 2, random.Random(5), seq=9001)
    _take(st, {"type": "cancel", "key": line.key, "by": "td", "then": "director"})
    with pytest.raises(forms.FormError, match="the director took line .* off to score it: ask the director"):
        _hand(st, line.key, table=line.club_table)            # the table's own page may not enter it
    assert st.check(replayed) == (f"table {line.table}, round 2, board 2: the director took line {line.key} off to score it; "
                                  "the table's result is not taken (the director may enter it by hand)")
    assert progress(st).tables[line.table - 1]["taken_off"] == {"replay": [], "director": [2]}
    _take(st, _hand(st, line.key))                           # the director scores it: the mark goes
    assert progress(st).tables[line.table - 1]["taken_off"] == {"replay": [], "director": []}
    other = next(e for e in st.entries.values() if e.board == 3 and e.round == 3)
    _take(st, {"type": "cancel", "key": other.key, "by": "td", "then": "replay"})
    again = result(setup, 3, other.table, 3, random.Random(6), seq=9002)
    _take(st, again)
    assert st.entries[other.key].source == again["source"] and not st.taken_off
    assert "'replay'" in st.check({"type": "cancel", "key": other.key, "then": "later"})


def test_a_cancel_without_then_marks_the_line_to_replay_but_refuses_the_result_taken_off() -> None:
    """docs/session.md: ``then`` left out marks the line to be replayed, and the same result sent again is
    refused (a restart's resend); with ``then: "replay"`` said, any result the table sends for it is taken."""
    setup = make_setup(MITCHELL_7)
    st = SessionState.start(setup)
    _through_round(setup, st, 3)
    line = next(e for e in st.entries.values() if e.board == 3 and e.round == 3)
    first = next(r for r in all_results(setup) if r["round"] == 3 and r["board"] == 3 and r["table_number"] == line.table)
    _take(st, {"type": "cancel", "key": line.key, "by": "td", "why": "wrong board"})
    assert progress(st).tables[line.table - 1]["taken_off"]["replay"] == [3]
    again = {**first, "source": f"{first['table']}:9003"}
    assert "a table's resend does not bring it back" in st.check(again)
    other = next(e for e in st.entries.values() if e.board == 2 and e.round == 2)
    said = next(r for r in all_results(setup) if r["round"] == 2 and r["board"] == 2 and r["table_number"] == other.table)
    _take(st, {"type": "cancel", "key": other.key, "by": "td", "then": "replay"})
    assert not st.check({**said, "source": f"{said['table']}:9004"})



@pytest.mark.parametrize("then", ["replay", None])
def test_the_message_taken_off_delivered_again_is_refused_with_the_directors_decision_not_a_repeat(then: str | None) -> None:
    """The table's own message of the result the director took off, delivered again under its own number (a
    table restarted resends from the start): answered ``repeat`` it told the table the session held its
    result (the table stops sending a board answered ``repeat``) while the line stayed empty. Refused with the
    director's decision, whether or not he said ``then: "replay"``; a later row with another result (the board
    replayed) is taken either way."""
    setup = make_setup(MITCHELL_7)
    st = SessionState.start(setup)
    _through_round(setup, st, 3)
    line = next(e for e in st.entries.values() if e.board == 3 and e.round == 3)
    first = next(r for r in all_results(setup) if r["round"] == 3 and r["board"] == 3 and r["table_number"] == line.table)
    assert st.check(first) == "repeat"                      # before the director took it off: a repeat
    _take(st, {"type": "cancel", "key": line.key, "by": "td", "why": "wrong board", **({"then": then} if then else {})})
    assert st.check(first) == (f"table {line.table}, round 3, board 3: the director took this table's result of board 3 "
                               "off (by td: wrong board); a table's resend does not bring it back (the director "
                               "enters a result if one is due)")
    later = {**first, "source": f"{first['table']}:{9000 + 1}", "tricks": (first["tricks"] + 1) % 14}
    assert st.check(later) == ""

# -- the round called --------------------------------------------------------------------------------------

def test_a_round_call_can_be_undone_until_a_result_of_it_arrives() -> None:
    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    _through_round(setup, st, 1)
    # round 1 IS the round called last here: the message said it was not, and named no true reason
    assert st.check({"type": "uncall", "round": 1}) == (
        "round 1 cannot be undone: it is in play from the start (no call of it to undo)")
    _take(st, {"type": "round", "round": 2, "by": "td"})
    assert st.check({"type": "uncall", "round": 1}) == (
        "only the round called last can be undone (round 2 is called), not 1")
    assert "only the round called last" in st.check({"type": "uncall", "round": 3})
    _take(st, {"type": "uncall", "round": 2, "by": "td"})
    assert st.called == 1
    _take(st, {"type": "round", "round": 2, "by": "td"})
    first = next(r for r in all_results(setup) if r["round"] == 2)
    _take(st, first)
    assert st.check({"type": "uncall", "round": 2}) == (
        f"round 2 cannot be undone: a result of round 2 is in (table {first['table_number']}, board {first['board']})")


def test_the_session_is_finished_when_every_round_is_called_and_every_line_is_in() -> None:
    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    results = all_results(setup)
    _through_round(setup, st, 99)
    assert st.finished() and len(st.entries) == len(results)
    state, skipped = replay(setup, [*({"type": "round", "round": r} for r in (2, 3)), *results])
    assert state.finished() and not skipped


# -- the forms, as people type ---------------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["1/1 NS/3 EW", "1/1NS/3EW", "1 1NS 3EW", "1 1 ns 3 ew", "1, 1NS, 3EW", " 1 1 3 "])
def test_a_line_key_is_read_as_people_type_it(typed: str) -> None:
    assert forms.read_key(typed, mitchell=True) == "1/1 NS/3 EW"


def test_a_howells_line_key_has_no_direction_and_nonsense_is_named() -> None:
    assert forms.read_key("4 2NS 5EW", mitchell=False) == "4/2/5"
    with pytest.raises(forms.FormError, match="is not board/NS pair/EW pair"):
        forms.read_key("board four", mitchell=True)


def test_an_adjusted_scores_pairs_are_read_as_a_lines_are() -> None:
    """Audit a11 #3: in a Mitchell "NS pair" 3 and "EW pair" 3 are 3 NS and 3 EW (they were journaled as
    bare 3 and 3 and refused as a board the pairs do not play); a direction typed stands; a Howell's
    pairs have none."""
    def pairs(ns: Any, ew: Any, mitchell: bool) -> tuple[Any, Any]:
        rec = forms.adjust({"board": "5", "ns": ns, "ew": ew, "kind": "artificial", "ns_value": "A+",
                            "ew_value": "A-"}, "td", mitchell)
        return rec["ns"], rec["ew"]

    assert pairs("3", " 3 ", True) == ("3 NS", "3 EW")
    assert pairs("3ns", "4 EW", True) == ("3 NS", "4 EW")
    assert pairs("2 EW", "5 NS", True) == ("2 EW", "5 NS")        # a pair sitting the other way
    assert pairs("2NS", "5 EW", False) == ("2", "5")
    assert pairs("north", [3], True) == ("north", [3])           # for the session's checks to name
    st = SessionState.start(make_setup(MITCHELL_3))
    rec = forms.adjust({"board": "1", "ns": "1", "ew": "1", "kind": "artificial", "ns_value": "A+",
                        "ew_value": "A-"}, "td", True)
    assert st.check(rec) == ""


@pytest.mark.parametrize(("typed", "value"), [("A+", "60"), ("a=", "50"), ("A", "50"), ("A-", "40"),
                                              ("average plus", "60"), ("55%", "55"), ("60", "60")])
def test_an_artificial_score_may_be_typed_as_a_word(typed: str, value: str) -> None:
    rec = forms.adjust({"board": "3", "ns": "1 NS", "ew": "3 EW", "kind": "artificial", "ns_value": typed,
                        "ew_value": "A-"}, "td", True)
    assert (rec["board"], rec["ns_value"], rec["ew_value"]) == (3, value, "40")


def test_a_split_assigned_score_is_typed_as_each_sides_own_and_kept_from_north_souths_view() -> None:
    rec = forms.adjust({"board": 1, "ns": "1 NS", "ew": "1 EW", "kind": "assigned", "ns_own": "420",
                        "ew_own": "-140"}, "td", True)
    assert (rec["ns_value"], rec["ew_value"]) == ("420", "140")
    with pytest.raises(forms.FormError, match="East-West's own score must be a whole number"):
        forms.adjust({"board": 1, "ns": "1 NS", "ew": "1 EW", "kind": "assigned", "ns_own": "420",
                      "ew_own": "-145"}, "td", True)


@pytest.mark.parametrize(("typed", "code"), [("4s", "4S"), ("3ntx", "3NTX"), ("3N", "3NT"), ("4♠xx", "4SXX"),
                                             ("pass", "Pass")])
def test_a_contract_is_read_as_typed(typed: str, code: str) -> None:
    assert forms.contract(typed) == code


def test_a_bad_contract_declarer_or_lead_is_named() -> None:
    st = SessionState.start(make_setup(MITCHELL_3))
    with pytest.raises(forms.FormError, match="the contract '8S'"):
        _hand(st, "1/1 NS/1 EW", contract="8S")
    with pytest.raises(forms.FormError, match="the declarer is N, E, S or W"):
        _hand(st, "1/1 NS/1 EW", declarer="X")
    with pytest.raises(forms.FormError, match="the lead 'ZZ' is a card"):
        _hand(st, "1/1 NS/1 EW", lead="ZZ")
    assert forms.lead("s10") == "TS" and forms.lead("") is None


def test_the_exports_mark_a_result_entered_by_hand(tmp_path: Any) -> None:
    """PBN (a commentary in the line's game; endplay still reads the file), HTML (the line's note) and
    USEBIO (a comment in its TRAVELLER_LINE: 1.2 has no element for it)."""
    import xml.etree.ElementTree as ET

    from endplay.parsers import pbn as pbn_parser

    from firmware_host.duplicate.results.export import export

    setup = make_setup(MITCHELL_3)
    s = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    assert s.take(_hand(s.state, "1/1 NS/1 EW", contract="4S", declarer="S", tricks=10)).taken
    assert s.take(result(setup, 1, 1, 2, random.Random(2))).taken
    pbn = export(s, "pbn").decode("utf-8")
    assert pbn.count("{entered by hand}") == 1
    games = pbn_parser.loads(pbn)
    assert any(str(g.contract).startswith(("4S", "4♠")) for g in games if g.board_num == 1)
    # the traveller's line, and the line on each of its two pairs' scorecards
    assert export(s, "html").decode("utf-8").count("entered by hand") == 3
    xml = export(s, "usebio").decode("utf-8")
    assert xml.count("<!-- entered by hand -->") == 1
    ET.fromstring(xml.split("?>", 1)[1] if xml.startswith("<?xml") else xml)
    s.close()


def test_a_hand_entered_line_corrected_still_says_who_entered_it() -> None:
    """docs/session.md: a line entered by hand is marked with who entered it. A correction overwrote that,
    so the note of a line table-01's page entered read "entered by hand by alice (miscounted)"."""
    from firmware_host.duplicate.views import _line
    from laws.scoring.session import score_boards

    setup = make_setup(MITCHELL_3)
    st = SessionState.start(setup)
    seat = next(s for s in st.movement.seatings if s.played and s.round == 1)
    board = st.movement.boards_of(seat.group)[0]
    k = f"{board}/{seat.ns}/{seat.ew}"
    _take(st, _hand(st, k, by="table-01's page"))
    _take(st, {"type": "correct", "key": k, "tricks": 9, "by": "alice", "why": "miscounted"})
    e = st.entries[k]
    assert (e.by, e.hand, e.corrected, e.tricks) == ("table-01's page", True, ("alice", "miscounted"), 9)
    (scored,) = score_boards([board], st.board_lines(board), {board: st.due()[board]}, setup.method, st.fields)
    ln = next(x for x in scored.lines if x.ns.label == str(seat.ns))
    assert _line(ln, e, False)["note"] == "entered by hand by table-01's page; corrected by alice (miscounted)"


def test_the_usebio_section_of_the_document_says_the_hand_mark_is_written() -> None:
    """The file carries ``<!-- entered by hand -->`` (above); the USEBIO section's "Not written:" list said
    the mark was not written, against the same document's hand-entry section."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "session.md").read_text(encoding="utf-8")
    not_written = doc[doc.index("* Not written: master points"):]
    not_written = not_written[:not_written.index(".")]
    assert "hand" not in not_written, not_written
    assert doc.count("`<!-- entered by hand -->`") >= 1


def test_duplicate_show_marks_a_line_entered_by_hand(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/session.md: a hand-entered line is marked wherever it is read; ``duplicate show`` left its
    Note column empty, where the page, PBN, USEBIO and HTML mark it."""
    from firmware_host.cli import main

    setup = make_setup(MITCHELL_3)
    s = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    assert s.take(_hand(s.state, "1/1 NS/1 EW", contract="4S", declarer="S", tricks=10)).taken
    assert s.take(result(setup, 1, 1, 2, random.Random(2))).taken
    s.close()
    assert main(["duplicate", "show", "--session", str(tmp_path / "s")]) == 0
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if ln.startswith("    1 NS   1 EW ")]
    assert len(lines) == 2, out                                   # board 1 (by hand) and board 2 (the table's)
    assert lines[0].endswith("  entered by hand") and "by hand" not in lines[1], lines


def test_a_conflict_says_the_tables_fouled_board_call_and_keeping_the_tables_result_keeps_it(tmp_path: Any) -> None:
    """Audit 65: the dashboard's "Two results for one line" said only "the table sent: 3NT by North, 7
    tricks" while that result called a fouled board (North played the three of clubs, South's by the
    record). The director must read it: "Keep the table's" keeps the call, and the board's copy is then
    scored in a fouled group from that table and round on (docs/session.md); the hand-entered one keeps
    the copy's group."""
    from firmware_host.duplicate.views import conflicts
    from laws.cards import Seat
    from tests.table.duptable import swapped

    setup = make_setup(MITCHELL_3)
    s = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    record = next(b for b in setup.boards if b.number == 1)
    theirs = result(setup, 1, 1, 1, random.Random(4), held=swapped(record.deal, Seat.N, Seat.S))
    assert theirs["foul"] is not None and not theirs["verified"]
    key = f"1/{theirs['ns']}/{theirs['ew']}"
    assert s.take(_hand(s.state, key, contract=theirs["contract"], declarer=theirs["declarer"] or "N",
                        lead=theirs["lead"] or "HA", tricks=theirs["tricks"])).taken
    assert s.take(theirs).taken
    (c,) = conflicts(s)
    f = theirs["foul"]
    seat = {"N": "North", "E": "East", "S": "South", "W": "West"}
    from laws.cards import Card

    said = f"{seat[f['played_by']]} played the {Card.parse(f['card']).name}, which the record gives to " \
           f"{seat[f['record_seat']]} (trick {f['trick']})"
    assert c["foul"] == said and c["table_result"].endswith(f", with a fouled-board call: {said}")
    assert c["same"] is False                          # the same contract and tricks, but not the same result
    assert s.state.board_groups(1)[key] == "A"         # the hand-entered result stands meanwhile
    assert s.take({"type": "resolve", "key": key, "keep": "table", "by": "td"}).taken
    assert s.state.entries[key].foul == theirs["foul"] and s.state.board_groups(1)[key] != "A"
    s.close()
