"""``cardtable soak`` stopped by SIGTERM while it sets its table up: the table process it started is stopped
and its virtual shoe closed (the link to the pseudo-terminal removed), wherever the signal lands.

A run of the whole suite once found ``soak``'s ``cardtable run`` still running after the soak had exited on
SIGTERM (``tests/cli/test_stopping.py``): the signal had come while ``subprocess.Popen`` was starting it, or
before the soak's loop began, where no ``finally`` stopped it. That table then reconnected through the dead
shoe's link to whichever test's virtual shoe took the same pseudo-terminal number, and read every other
byte of that shoe's frames (the byte after each frame's start: 14 tests of other files failed with "bad crc")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _gone(pid: int, within: float = 10.0) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:  # a child of ours that has exited: reap it
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:
            pass
        time.sleep(0.05)
    return False


def test_a_sigterm_while_the_table_process_starts_leaves_it_in_hand_to_be_stopped(tmp_path: Path) -> None:
    """The signal arrives inside ``Popen``, once the child exists and before ``Popen`` returns it (made so
    here: the stand-in for ``Popen`` starts a child and signals its own process). ``RunProcess.start`` takes
    the signal once the child is in ``self.proc``, so the caller's ``finally`` stops it; it used to raise
    inside ``Popen`` and leave the child running with no one holding it."""
    script = textwrap.dedent(f"""
        import os, signal, subprocess, sys
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        from firmware_host.soak import rig

        real = subprocess.Popen

        def popen(args, **kw):
            child = real(["sleep", "60"], **kw)
            print(child.pid, flush=True)
            os.kill(os.getpid(), signal.SIGTERM)   # the signal lands now, inside Popen
            for _ in range(1000):                   # (the handler runs at the next line Python runs)
                pass
            return child

        def handler(signum, frame):
            raise SystemExit(143)

        signal.signal(signal.SIGTERM, handler)
        rig.subprocess.Popen = popen
        folder = Path({str(tmp_path)!r})
        run = rig.RunProcess(folder / "t.toml", folder / "fifo", folder)
        try:
            run.start()
            print("start returned", flush=True)
        finally:
            run.stop()
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    lines = r.stdout.split()
    assert r.returncode == 143, (r.returncode, r.stderr)
    assert "returned" not in r.stdout  # the signal still stopped the start, once the child was held
    child = int(lines[0])
    try:
        assert _gone(child), "the table process was left running"
    finally:
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_sigterm_after_the_table_starts_and_before_the_loop_stops_it_and_closes_the_shoe(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The soak's evening, with SIGTERM's ``SystemExit`` raised right after the table process started (before
    the loop): the table process is stopped and the shoe's link removed. Before, both were set up outside
    the ``try`` whose ``finally`` undoes them."""
    from firmware_host.soak import driver, rig

    started: list[rig.RunProcess] = []
    shoes: list[rig.SoakShoe] = []
    real_start, real_open = rig.RunProcess.start, rig.SoakShoe.open

    def start(self: rig.RunProcess) -> None:
        real_start(self)
        started.append(self)
        raise SystemExit(143)

    def open_(self: rig.SoakShoe) -> str:
        shoes.append(self)
        return real_open(self)

    monkeypatch.setattr(rig.RunProcess, "start", start)
    monkeypatch.setattr(rig.SoakShoe, "open", open_)
    try:
        with pytest.raises(SystemExit):
            driver.evening(deals=1, faults=0, seed=3, games=("euchre",), workdir=tmp_path)
        assert started and started[0].proc is not None
        assert _gone(started[0].proc.pid), "the table process was left running"
        assert not [p for p in tmp_path.rglob("*") if p.is_symlink()], "the shoe's link was left behind"
    finally:  # whatever the outcome, leave nothing running for the tests after this one
        for run in started:
            run.kill()
        for shoe in shoes:
            shoe.close()


def test_a_sigterm_while_the_duplicate_tables_start_still_closes_those_started(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``run_tables`` (the duplicate soak's round): the second table's start is cut short by SIGTERM's
    ``SystemExit``; the first table, started, is closed all the same, and so is the second, whatever it had
    made (a table cut short before its process existed closes without an error). The tables were started
    outside the ``try`` whose ``finally`` closes them."""
    from firmware_host.soak import dup_tables
    from firmware_host.soak.dup_schedule import make_dup_schedule

    started: list[int] = []
    closed: list[int] = []
    real_close = dup_tables.TableRun.close

    def start(self: dup_tables.TableRun, records_file: Path) -> None:
        if started:
            self.shoe = None          # as far as a real start gets before the signal
            raise SystemExit(143)
        started.append(self.plan.table)

    def close(self: dup_tables.TableRun) -> list:  # type: ignore[type-arg]
        closed.append(self.plan.table)
        return real_close(self) if self.plan.table not in started else []

    monkeypatch.setattr(dup_tables.TableRun, "start", start)
    monkeypatch.setattr(dup_tables.TableRun, "close", close)
    schedule = make_dup_schedule(tables=3, boards=2, seed=5)
    with pytest.raises(SystemExit):
        dup_tables.run_tables(schedule, tmp_path, 5, timeout=5)
    assert started and set(closed) == {p.table for p in schedule.tables}


def test_a_sigterm_before_the_table_process_exists_closes_the_shoe(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The signal lands once the shoe is open and before the table process starts: the shoe is closed and its
    link removed (``_abandon``), and no table process is started."""
    from firmware_host.soak import driver, rig

    shoes: list[rig.SoakShoe] = []
    real_open = rig.SoakShoe.open

    def open_(self: rig.SoakShoe) -> str:
        shoes.append(self)
        return real_open(self)

    def start(self: rig.RunProcess) -> None:
        raise SystemExit(143)

    monkeypatch.setattr(rig.SoakShoe, "open", open_)
    monkeypatch.setattr(rig.RunProcess, "start", start)
    try:
        with pytest.raises(SystemExit):
            driver.evening(deals=1, faults=0, seed=3, games=("euchre",), workdir=tmp_path)
        assert shoes, "the shoe was never opened"
        assert not [p for p in tmp_path.rglob("*") if p.is_symlink()], "the shoe's link was left behind"
    finally:
        for shoe in shoes:
            shoe.close()
