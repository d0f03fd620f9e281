"""The session's journal head is kept where the club keeps the tables' heads (issue 28, item 6): a
session journal edited and re-hashed end to end still passes ``journal verify``, ``show`` and ``export``
on its own, but ``cardtable club verify session`` finds it against the head the club kept; ``show`` and
``export`` print the head so a club can publish it beside the hand records' commitment."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from firmware_host.cli import main
from firmware_host.club.heads import SESSION_HEADS, HeadBook
from firmware_host.records.journal import Journal
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.web.auth import add_user
from firmware_host.wire.topics import TOPICS
from tests.records.test_journal_tamper import _rehash_from

from .sessionkit import make_setup, result
from .test_link import MITCHELL_3, _message


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host.cli", *argv], capture_output=True, text=True,
                          timeout=60, check=False)


def test_a_session_rewritten_end_to_end_is_found_against_the_head_the_club_kept(tmp_path: Path) -> None:
    heads = HeadBook(tmp_path / "users.heads.jsonl")
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"),
                       keep_head=heads.keeper(SESSION_HEADS, time.time))
    rec = result(make_setup(MITCHELL_3), 1, 2, 3, random.Random(5))
    desk.offer(TOPICS.board("table-02"), _message(rec, seq=88))
    assert desk.tick()
    head = desk.session.journal.read_head()
    row = next(r for r in desk.session.journal.rows() if r.kind == "event" and r.body.get("type") == "result")
    desk.session.close()
    heads.close()
    kept = HeadBook.read(tmp_path / "users.heads.jsonl", SESSION_HEADS)
    assert f"{kept[-1].row}:{kept[-1].hash}" == head
    journal = str(tmp_path / "s" / "session.sqlite3")
    shown = _cli("duplicate", "show", "--session", str(tmp_path / "s"))
    assert shown.returncode == 0 and f"session journal head {head}" in shown.stdout
    assert _cli("club", "verify", SESSION_HEADS, "--heads", str(tmp_path / "users.heads.jsonl"),
                "--journal", journal).returncode == 0
    _rehash_from(Path(journal), row.seq, {**row.body, "tricks": 13 - int(row.body["tricks"])})   # the result, rewritten
    assert _cli("journal", "verify", "--data-dir", journal).returncode == 0     # the chain alone still verifies
    assert _cli("duplicate", "show", "--session", str(tmp_path / "s")).returncode == 0
    found = _cli("club", "verify", SESSION_HEADS, "--heads", str(tmp_path / "users.heads.jsonl"), "--journal", journal)
    assert found.returncode == 1 and "TAMPERED" in found.stderr and f"row {row.seq}" in found.stderr, found.stderr


def _dashboard_once(tmp_path: Path, session: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """``cardtable club dashboard --session`` up to where it would serve (it keeps the session's head at
    start, before any broker or browser), as one evening's run on the club's one dashboard."""
    import firmware_host.club.dashboard as dashboard

    monkeypatch.setattr(dashboard, "serve", lambda *a, **k: SimpleNamespace(run=lambda: None))
    (tmp_path / "dash.password").write_text("x\n", encoding="utf-8")
    if not (tmp_path / "users").exists():
        add_user(tmp_path / "users", "director", "right-horse-1")
    return main(["club", "dashboard", "--users", str(tmp_path / "users"), "--broker-port", "1",
                 "--mqtt-password-file", str(tmp_path / "dash.password"), "--session", str(session)])


def _session_with_a_result(folder: Path) -> None:
    desk = SessionDesk(Session.create(folder, make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"))
    desk.offer(TOPICS.board("table-02"), _message(result(make_setup(MITCHELL_3), 1, 2, 3, random.Random(5)), seq=88))
    assert desk.tick()
    desk.session.close()


def test_next_weeks_session_on_the_same_dashboard_is_not_taken_for_this_weeks_rewritten(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Two evenings, the same hand records (so the same commitment), one dashboard and one heads file: each
    # session's heads are its own, and neither is reported TAMPERED, though a rewrite is still found.
    heads = tmp_path / "users.heads.jsonl"
    for week in ("week1", "week2"):
        _session_with_a_result(tmp_path / week)
        assert _dashboard_once(tmp_path, tmp_path / week, monkeypatch) == 0
    kept = HeadBook.read(heads)
    assert len({h.table for h in kept}) == 2 and all(h.table.startswith("session:") for h in kept), kept
    assert not any(h.problem for h in kept), kept
    capsys.readouterr()
    for week in ("week1", "week2"):
        rc = main(["club", "verify", "session", "--heads", str(heads), "--journal", str(tmp_path / week / "session.sqlite3")])
        out = capsys.readouterr()
        assert rc == 0 and "journal intact" in out.out, out.err
    journal = tmp_path / "week1" / "session.sqlite3"
    with Journal.open_readonly(journal) as j:
        row = next(r for r in j.rows() if r.kind == "event" and r.body.get("type") == "result")
    _rehash_from(journal, row.seq, {**row.body, "tricks": 13 - int(row.body["tricks"])})
    rc = main(["club", "verify", "session", "--heads", str(heads), "--journal", str(journal)])
    err = capsys.readouterr().err
    assert rc == 1 and "TAMPERED" in err and f"row {row.seq}" in err, err


def test_heads_an_older_dashboard_kept_under_the_bare_name_are_still_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # An older dashboard kept every session's heads under "session", one session after the other: each
    # session is checked against its own run of them, and a rewrite is still found.
    book = HeadBook(tmp_path / "old.heads.jsonl")
    for week in ("week1", "week2"):
        _session_with_a_result(tmp_path / week)
        with Journal.open_readonly(tmp_path / week / "session.sqlite3") as j:
            first = next(iter(j.rows()))
            book.keeper(SESSION_HEADS, time.time)(f"{first.seq}:{first.hash}")
            book.keeper(SESSION_HEADS, time.time)(j.read_head())
    book.close()
    assert any(h.problem for h in HeadBook.read(tmp_path / "old.heads.jsonl"))   # the bare name mixed them
    capsys.readouterr()
    for week in ("week1", "week2"):
        rc = main(["club", "verify", "session", "--heads", str(tmp_path / "old.heads.jsonl"),
                   "--journal", str(tmp_path / week / "session.sqlite3")])
        out = capsys.readouterr()
        assert rc == 0 and "it holds all 2 heads" in out.out, out.err
    journal = tmp_path / "week2" / "session.sqlite3"
    with Journal.open_readonly(journal) as j:
        row = next(r for r in j.rows() if r.kind == "event" and r.body.get("type") == "result")
    _rehash_from(journal, row.seq, {**row.body, "tricks": 13 - int(row.body["tricks"])})
    rc = main(["club", "verify", "session", "--heads", str(tmp_path / "old.heads.jsonl"), "--journal", str(journal)])
    err = capsys.readouterr().err
    assert rc == 1 and "TAMPERED" in err and f"row {row.seq}" in err, err


def test_a_session_rewritten_from_its_opening_row_is_tampered_not_unknown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The session's heads are kept under the name its opening row gives: rewriting that row (and every
    # hash after it) renamed the session, and `club verify session` said the club held no head of it,
    # exit 2 (cannot be read), where a journal that fails its heads is exit 1 (README, docs/session.md).
    # The dashboard keeps the journal's file with the session's heads, which finds it under its old name.
    heads = tmp_path / "users.heads.jsonl"
    _session_with_a_result(tmp_path / "s")
    assert _dashboard_once(tmp_path, tmp_path / "s", monkeypatch) == 0
    journal = tmp_path / "s" / "session.sqlite3"
    kept = HeadBook.read(heads)
    copy = tmp_path / "copy" / "session.sqlite3"
    copy.parent.mkdir()
    copy.write_bytes(journal.read_bytes())
    with Journal.open_readonly(journal) as j:
        first = next(iter(j.rows()))
    _rehash_from(journal, first.seq, {**first.body, "setup": {**first.body["setup"], "club": "Another club"}})
    assert main(["journal", "verify", "--data-dir", str(journal)]) == 0     # the chain alone still verifies
    capsys.readouterr()
    rc = main(["club", "verify", "session", "--heads", str(heads), "--journal", str(journal)])
    err = capsys.readouterr().err
    assert rc == 1 and err.startswith(f"club verify: TAMPERED: table session: the club kept {len(kept)} head"), err
    assert (f"of {kept[-1].table} for this journal file ({journal.resolve()}; the newest: row {kept[-1].row}, "
            "heard at ") in err and "the journal was rewritten from its opening row, or replaced" in err, err
    rc = main(["club", "verify", kept[-1].table, "--heads", str(heads), "--journal", str(journal)])
    assert rc == 1 and "TAMPERED" in capsys.readouterr().err          # named as the heads file spells it
    rc = main(["club", "verify", "session", "--heads", str(heads), "--journal", str(copy)])
    assert rc == 0 and "journal intact" in capsys.readouterr().out    # a copy of the journal as it was
    _session_with_a_result(tmp_path / "elsewhere")                    # never ran under this dashboard
    rc = main(["club", "verify", "session", "--heads", str(heads), "--journal",
               str(tmp_path / "elsewhere" / "session.sqlite3")])
    assert rc == 2 and "holds no journal head of this session" in capsys.readouterr().err
    assert all(h.journal == str(journal.resolve()) for h in kept), kept     # the file, with every head


def test_a_refused_forms_note_is_followed_by_the_head_the_club_keeps(tmp_path: Path) -> None:
    """Audit m16: the docs say the dashboard keeps the session's head "after every commit", but a form
    refused for what was typed (its note committed by the desk's ``refuse_form``) kept none: the club held
    the row before it until the next record, so a journal cut back or edited at that row after a kill
    -9 passed ``club verify session``. The head now follows the note."""
    kept: list[str] = []
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"),
                       keep_head=kept.append)
    try:
        why = desk.refuse_form({"type": "form", "form": "correct", "by": "director", "payload": "{}"}, "bad line")
        assert why == "bad line"
        assert kept and kept[-1] == desk.session.journal.read_head()
        assert kept[-1].startswith("2:")
    finally:
        desk.session.close()
