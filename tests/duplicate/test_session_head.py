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

from firmware_host.club.heads import SESSION_HEADS, HeadBook
from firmware_host.session.duplicate_session import Session, SessionDesk
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
