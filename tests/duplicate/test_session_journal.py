"""The session's journal: every change and every refusal is a row of a hash-chained journal of its own;
a restart rebuilds the same session from it; a journal that cannot be written changes nothing; one
that was tampered with is refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware_host.records.journal import JournalError
from firmware_host.session.duplicate_session import Session, SessionFileError, session_path
from laws.scoring import render_session
from laws.session.duplicate.spec import SetupError

from .sessionkit import all_results, make_setup

MITCHELL_5 = {"kind": "mitchell", "tables": 5, "boards_per_round": 2}


def _session(tmp_path: Path) -> Session:
    return Session.create(tmp_path / "s", make_setup(MITCHELL_5), analyse=False, synchronous="NORMAL",
                          clock=lambda: 1700000000.0)


def test_a_restart_rebuilds_the_session_with_its_corrections_adjustments_and_refusals(tmp_path: Path) -> None:
    s = _session(tmp_path)
    results = all_results(s.setup, fouled={3: 2})
    first_round = [r for r in results if r["round"] == 1]
    outcomes = s.submit(first_round)
    assert all(o.taken for o in outcomes)
    key = next(k for k in s.state.entries if k.startswith("1/"))
    bad = dict(first_round[0], source="table-01:4242", ew="9 EW")
    s.submit([{"type": "round", "round": 2, "by": "alice"}, bad,
              {"type": "correct", "key": key, "contract": "3NT", "declarer": "N", "tricks": 9, "by": "alice",
               "why": "typed wrong"},
              {"type": "adjust", "board": 4, "ns": "2 NS", "ew": "2 EW", "kind": "artificial", "ns_value": "60",
               "ew_value": "40", "by": "alice", "why": "slow play"}])
    s.submit([r for r in results if r["round"] == 2])
    before = render_session(s.scored())
    entries, refusals, called = dict(s.state.entries), list(s.refusals), s.state.called
    assert len(refusals) == 1 and "the movement seats 1 NS and 1 EW there" in refusals[0]["why"]
    s.close()

    again = Session.open(tmp_path / "s", analyse=False)
    assert render_session(again.scored()) == before
    assert again.state.entries == entries and again.state.called == called == 2
    assert [r["why"] for r in again.refusals] == [r["why"] for r in refusals]
    assert again.state.entries[key].contract == "3NT" and again.state.entries[key].by == "alice"
    assert again.state.entries["4/2 NS/2 EW"].kind == "artificial"
    assert again.state.entries["4/2 NS/2 EW"].original is not None  # the table's result is kept under it
    # what the table sent and was refused is kept whole in the journal
    notes = [r.body for r in again.journal.rows() if r.kind == "note"]
    assert notes[0]["refused"]["record"]["source"] == "table-01:4242"
    again.close()


def test_a_cancelled_adjustment_gives_back_the_result_it_replaced(tmp_path: Path) -> None:
    s = _session(tmp_path)
    rec = all_results(s.setup)[0]
    s.take(rec)
    key = f"{rec['board']}/{rec['ns']}/{rec['ew']}"
    played = s.state.entries[key]
    assert s.take({"type": "adjust", "board": rec["board"], "ns": rec["ns"], "ew": rec["ew"], "kind": "assigned",
                   "ns_value": "420", "ew_value": "", "by": "alice"}).taken
    assert s.state.entries[key].kind == "assigned"
    assert s.take({"type": "cancel", "key": key, "by": "alice"}).taken
    assert s.state.entries[key] == played


def test_a_journal_that_cannot_be_written_takes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = _session(tmp_path)
    results = all_results(s.setup)
    s.submit(results[:3])
    before = dict(s.state.entries)

    def full(rows: list) -> list:
        raise JournalError(f"{s.journal.path}: cannot append 1 row(s) (database or disk is full)")

    monkeypatch.setattr(s.journal, "append_many", full)
    with pytest.raises(SessionFileError, match="cannot be written .*nothing was taken"):
        s.submit(results[3:6])
    assert s.state.entries == before


def test_a_tampered_journal_is_refused_naming_the_row(tmp_path: Path) -> None:
    s = _session(tmp_path)
    s.submit(all_results(s.setup)[:4])
    s.close()
    db = sqlite3.connect(session_path(tmp_path / "s"))
    db.execute("DROP TRIGGER journal_no_update")  # what someone editing the file would do first
    db.execute("UPDATE journal SET body = replace(body, '\"round\":1', '\"round\":2') WHERE seq = 3")
    db.commit()
    db.close()
    with pytest.raises(SessionFileError, match="does not verify .*row 3"):
        Session.open(tmp_path / "s", analyse=False)


def test_opening_where_there_is_no_session_or_making_one_twice_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SessionFileError, match="no session here"):
        Session.open(tmp_path / "none", analyse=False)
    _session(tmp_path).close()
    with pytest.raises(SessionFileError, match="a session is already there"):
        _session(tmp_path)


def test_a_setup_that_cannot_be_played_makes_no_journal(tmp_path: Path) -> None:
    setup = make_setup(MITCHELL_5)
    with pytest.raises(SetupError, match="seats 10 pairs"):
        Session.create(tmp_path / "bad", type(setup)(**{**setup.__dict__, "pairs": 12}), analyse=False)
    assert not (tmp_path / "bad").exists()


def test_scoring_board_by_board_as_results_come_gives_what_scoring_the_whole_session_gives(tmp_path: Path) -> None:
    s = _session(tmp_path)
    results = all_results(s.setup, fouled={5: 2})
    for i, rec in enumerate(results):
        s.take(rec)
        if i % 4 == 0:
            assert s.scored() == s.rescore_all(), i
    s.take({"type": "adjust", "board": results[2]["board"], "ns": results[2]["ns"], "ew": results[2]["ew"],
            "kind": "artificial", "ns_value": "60", "ew_value": "50"})
    s.take({"type": "regroup", "key": f"{results[3]['board']}/{results[3]['ns']}/{results[3]['ew']}", "group": "C"})
    assert s.scored() == s.rescore_all()
    assert render_session(s.scored()) == render_session(s.rescore_all())
