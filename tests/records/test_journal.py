"""Journal: append and read back, the hash chain catches tampering, kill -9 loses nothing committed."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.records.journal import GENESIS, Journal, JournalError, row_hash
from laws.cards import Card, Seat
from laws.events import CardDealt, DealStarted, GameChosen, event_from_dict, event_to_dict

ROOT = Path(__file__).resolve().parents[2]


def fill(j: Journal, n: int = 6) -> None:
    for i in range(n):
        j.append(("event", "ruling", "lamp", "note")[i % 4], {"i": i}, t=100.0 + i)


def test_append_and_read_back(tmp_path: Path) -> None:
    j = Journal.open(tmp_path / "data")  # a data directory that does not exist yet
    assert j.path == tmp_path / "data" / "journal.sqlite3"
    events = [GameChosen("contract-bridge"), DealStarted(Seat.N, "A", t=1.5),
              CardDealt(Seat.E, Card("T", "S"), face_up=True)]
    seqs = [j.append("event", event_to_dict(e), t=float(k)) for k, e in enumerate(events)]
    assert seqs == [1, 2, 3]
    assert j.append("lamp", {"redeal": True, "shuffle": False}, t=3.0) == 4
    assert j.append("lamp", {"redeal": False, "shuffle": True}, t=4.0) == 5
    assert j.append("ruling", {"law": "CB-redeal-faced"}, t=4.0) == 6
    assert [event_from_dict(d) for d in j.events()] == events
    assert j.last_lamps() == {"redeal": False, "shuffle": True}
    rows = list(j.rows(since=4))
    assert [r.seq for r in rows] == [5, 6] and rows[0].kind == "lamp"
    assert rows[0].prev_hash == list(j.rows(since=3))[0].hash
    j.close()
    again = Journal.open(tmp_path / "data")
    assert [r.seq for r in again.rows()] == [1, 2, 3, 4, 5, 6]
    result = again.verify()
    assert result.ok and result.rows == 6 and result.head == again.head()[1]
    assert again.append("note", {"restart": True}, t=9.0) == 7


def test_settings_are_wal_and_synchronous(tmp_path: Path) -> None:
    for mode, code in (("FULL", 2), ("NORMAL", 1)):
        j = Journal.open(tmp_path / f"{mode}.sqlite3", synchronous=mode)
        assert j._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j._conn.execute("PRAGMA synchronous").fetchone()[0] == code
        j.close()


def test_reading_while_appending(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    fill(j, 1200)
    seen = 0
    for row in j.rows():  # a long read does not block the writer, and sees a consistent snapshot
        if seen % 300 == 0:
            j.append("note", {"during": row.seq}, t=0.0)
        seen += 1
    assert seen == 1200 and j.head()[0] == 1204 and j.verify().ok


def test_bad_appends_are_refused(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    with pytest.raises(ValueError, match="kind"):
        j.append("gossip", {}, t=0.0)
    with pytest.raises(ValueError):
        j.append("note", {"x": float("nan")}, t=0.0)
    assert list(j.rows()) == [] and j.head() == (0, GENESIS)
    assert Journal.open(tmp_path).last_lamps() is None


def test_first_hash_is_documented_formula(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    j.append("note", {"b": 1, "a": "é"}, t=2.5)
    row = next(j.rows())
    assert row.prev_hash == GENESIS
    assert row.hash == row_hash(GENESIS, 1, 2.5, "note", {"a": "é", "b": 1})


def tamper(path: Path, sql: str) -> None:
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER IF EXISTS journal_no_update")
    conn.execute("DROP TRIGGER IF EXISTS journal_no_delete")
    conn.execute(sql)
    conn.commit()
    conn.close()


def test_the_database_refuses_updates_and_deletes(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    fill(j, 2)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        j._conn.execute("UPDATE journal SET body = '{}' WHERE seq = 1")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        j._conn.execute("DELETE FROM journal WHERE seq = 1")


@pytest.mark.parametrize(("sql", "seq", "why"), [
    ("UPDATE journal SET body = '{\"i\":99}' WHERE seq = 3", 3, "edited"),
    ("UPDATE journal SET t = 1.0 WHERE seq = 4", 4, "edited"),
    ("UPDATE journal SET kind = 'ruling' WHERE seq = 5", 5, "edited"),
    ("DELETE FROM journal WHERE seq = 3", 4, "missing"),
    ("UPDATE journal SET prev_hash = hash WHERE seq = 2", 2, "prev_hash"),
    ("UPDATE journal SET body = 'not json' WHERE seq = 6", 6, "not valid"),
])
def test_tampering_is_found_at_the_right_row(tmp_path: Path, sql: str, seq: int, why: str) -> None:
    j = Journal.open(tmp_path)
    fill(j)
    j.close()
    tamper(tmp_path / "journal.sqlite3", sql)
    result = Journal.open(tmp_path).verify()
    assert not result.ok and result.bad_seq == seq and why in result.reason
    assert str(tmp_path / "journal.sqlite3") in result.message() and f"row {seq}" in result.message()


def test_rehashed_row_still_breaks_the_next_link(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    fill(j)
    rows = list(j.rows())
    j.close()
    forged = row_hash(rows[1].hash, 3, rows[2].t, rows[2].kind, {"i": 42})
    tamper(tmp_path / "journal.sqlite3",
           f"UPDATE journal SET body = '{{\"i\":42}}', hash = '{forged}' WHERE seq = 3")
    result = Journal.open(tmp_path).verify()
    assert (result.ok, result.bad_seq) == (False, 4)


def test_garbage_file_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "journal.sqlite3"
    bad.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(JournalError, match=str(bad)):
        Journal.open(tmp_path)
    with pytest.raises(JournalError, match="no journal here"):
        Journal.open(tmp_path / "absent", create=False)


def test_corrupt_page_is_reported(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    for i in range(400):
        j.append("event", {"i": i, "pad": "y" * 200}, t=float(i))
    j.close()  # checkpoints the WAL into the main file
    path = tmp_path / "journal.sqlite3"
    data = bytearray(path.read_bytes())
    mid = len(data) // 2
    data[mid:mid + 3000] = random.Random(7).randbytes(3000)
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError, match=str(path)):
        result = Journal.open(tmp_path).verify()
        assert not result.ok  # a body corrupted inside a readable page is a chain failure instead
        raise JournalError(result.message())


def test_kill_9_loses_nothing_that_was_committed(tmp_path: Path) -> None:
    rng = random.Random(5)
    path = tmp_path / "journal.sqlite3"
    confirmed: dict[int, int] = {}
    next_i = 0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _round in range(6):
        proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "records" / "journal_writer.py"),
                                 str(path), str(next_i)], stdout=subprocess.PIPE, text=True, env=env)
        assert proc.stdout is not None
        for _ in range(rng.randint(1, 150)):
            line = proc.stdout.readline()
            assert line, "writer died early"
            seq, i = map(int, line.split())
            confirmed[seq] = i
        proc.send_signal(signal.SIGKILL)  # at whatever point of its loop it has reached
        proc.wait()
        proc.stdout.close()
        j = Journal.open(path)
        result = j.verify()
        assert result.ok, result.message()
        stored = {r.seq: r.body["i"] for r in j.rows()}
        next_i = max(stored.values()) + 1
        j.close()
        assert all(stored.get(seq) == i for seq, i in confirmed.items())
    assert len(confirmed) >= 6


def test_an_existing_journal_opens_while_another_process_holds_the_write_lock(tmp_path: Path) -> None:
    """Found by the soak (issue 20): a table restarted while another process held the journal's write
    lock exited 1 with "not a readable journal database (database is locked)". Opening a journal that
    exists writes nothing, so it opens at once; the first append meets the lock (and the table holds its
    inputs, docs/ordering.md) and succeeds once the lock is gone."""
    import time

    with Journal.open(tmp_path) as j:
        j.append("event", {"type": "game", "game": "euchre"}, 1.0)
    other = sqlite3.connect(tmp_path / "journal.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        t0 = time.monotonic()
        j = Journal.open(tmp_path)
        assert time.monotonic() - t0 < 5  # no wait for the busy timeout
        j._conn.execute("PRAGMA busy_timeout = 50")  # noqa: SLF001
        with pytest.raises(JournalError):
            j.append("note", {"x": 1}, 2.0)
        other.execute("ROLLBACK")
        assert j.append("note", {"x": 1}, 2.0) == 2
        j.close()
    finally:
        other.close()


def test_a_journal_that_needs_writing_to_open_names_the_lock(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal not yet complete (its schema row missing) needs a write to open; locked past the busy
    timeout, the one line says so instead of calling the file unreadable."""
    with Journal.open(tmp_path) as j:
        j.append("event", {"type": "game", "game": "euchre"}, 1.0)
    db = tmp_path / "journal.sqlite3"
    fix = sqlite3.connect(db, isolation_level=None)
    fix.execute("DELETE FROM meta")
    fix.close()
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **kw: real(*a, **{**kw, "timeout": 0.05}))
    try:
        with pytest.raises(JournalError, match="locked by another process") as err:
            Journal.open(tmp_path)
        assert "not a readable" not in str(err.value)
    finally:
        other.close()


@contextlib.contextmanager
def _read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder that cannot be written, really: a tmpfs remounted read-only when this is root (who may
    write into any folder), else a folder without write permission; skipped when neither can be had."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0:
        yield folder
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True).returncode:
        pytest.skip("root, and no tmpfs can be mounted here to make a read-only folder")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def _make_read_only(folder: Path) -> None:
    if os.geteuid() != 0:
        folder.chmod(0o555)
    else:
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


def test_a_journal_on_a_read_only_disk_is_said_to_be_unwritable_not_unreadable(tmp_path: Path) -> None:
    """Audit m16: `club dashboard --session` on a session folder remounted read-only (a disk that failed
    into read-only) said `session.sqlite3: not a readable journal database (unable to open database
    file)`, though `duplicate show` and `journal verify` read it well: the writer names the folder that
    cannot be written."""
    with _read_only_folder(tmp_path) as folder:
        with Journal.open(folder / "journal.sqlite3") as j:
            j.append("note", {"text": "kept"}, 1.0)
        _make_read_only(folder)
        try:
            with pytest.raises(JournalError) as exc:
                Journal.open(folder / "journal.sqlite3")
            assert "cannot be opened to write: its folder" in str(exc.value), exc.value
            assert "not a readable" not in str(exc.value)
            with Journal.open_readonly(folder / "journal.sqlite3") as j:   # it reads well
                assert j.verify().ok
        finally:
            if os.geteuid() != 0:
                folder.chmod(0o755)
