"""``cardtable duplicate open`` is all or nothing (issue 28, item 8): stopped at any step that reaches the
disk (every statement on the journal's connection, every fsync, the rename), the folder either holds a
session that opens, or none, and the same command then makes it. The stop is a ``Killed`` raised at
step N, after which the connection is dropped without a word, as a killed process's would be."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import firmware_host.records.journal as journal_module
from firmware_host.cli import main
from firmware_host.session.duplicate_session import Session, SessionFileError


class Killed(BaseException):
    """The process is gone (no except clause of the program catches it)."""


class Killer:
    def __init__(self, at: int) -> None:
        self.at, self.count, self.conns = at, 0, []

    def step(self) -> None:
        self.count += 1
        if self.count == self.at:
            raise Killed


class Conn:
    """The writer's connection, each statement a step where the process may die."""

    def __init__(self, conn: Any, killer: Killer) -> None:
        self._conn, self._killer = conn, killer
        killer.conns.append(conn)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._conn, name)
        if name in ("execute", "executescript", "executemany", "commit"):
            def step(*a: Any, **k: Any) -> Any:
                self._killer.step()
                return attr(*a, **k)
            return step
        return attr


def _open_args(folder: Path, records: Path) -> list[str]:
    return ["duplicate", "open", "--dir", str(folder), "--hand-records", str(records), "--pairs", "6",
            "--movement", "mitchell", "--boards-per-round", "2", "--name", "Monday"]


def test_a_stop_at_any_step_of_open_leaves_a_session_that_opens_or_none(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    records = tmp_path / "tonight.pbn"
    assert main(["boards", "new", "--count", "6", "--out", str(records)]) == 0
    real_connect = journal_module.connect_writer
    import firmware_host.session.journalled as session_module  # where the all-or-nothing making lives
    real_replace, real_fsync = session_module.os.replace, session_module._fsync
    n, finished = 0, False
    while not finished:
        n += 1
        folder = tmp_path / f"night-{n}"
        killer = Killer(n)
        monkeypatch.setattr(journal_module, "connect_writer", lambda *a, k=killer: Conn(real_connect(*a), k))
        monkeypatch.setattr(session_module, "_fsync", lambda p, k=killer: (k.step(), real_fsync(p)))
        monkeypatch.setattr(session_module.os, "replace", lambda a, b, k=killer: (k.step(), real_replace(a, b)))
        try:
            finished = main(_open_args(folder, records)) == 0
        except Killed:
            for conn in killer.conns:     # the process died: its connections go, uncommitted work with them
                conn.close()
        monkeypatch.setattr(journal_module, "connect_writer", real_connect)
        monkeypatch.setattr(session_module, "_fsync", real_fsync)
        monkeypatch.setattr(session_module.os, "replace", real_replace)
        try:
            Session.open(folder, analyse=False, readonly=True).close()      # a whole session is there
        except SessionFileError:
            assert main(_open_args(folder, records)) == 0, f"stopped at step {n}: the folder can be made again"
            Session.open(folder, analyse=False, readonly=True).close()
        assert n < 200
    assert n > 5   # the steps were there to stop at
