"""Every long-running command stops cleanly on SIGTERM as on SIGINT (issue 20, last paragraph): each is
started here as a shell's background job starts it, with SIGINT inherited ignored (so Ctrl-C's signal
could never stop it), and stopped with SIGTERM: it exits by itself, having removed its links and ptys,
closed its journal and stopped its child processes. On main ``shoe-sim`` died on SIGTERM and left its
link behind, and ``soak`` left its ``cardtable run`` and the virtual shoe running."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.procs import running_with

ROOT = Path(__file__).resolve().parents[2]


def _background(*args: str, cwd: Path = ROOT) -> subprocess.Popen[str]:
    """``cardtable ARGS`` started as a background job is: SIGINT ignored from the start."""
    return subprocess.Popen([sys.executable, "-m", "firmware_host.cli", *args], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))


def _until(what: Callable[[], bool], timeout: float = 30.0, why: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, f"timed out: {why}"
        time.sleep(0.05)


def _stop(proc: subprocess.Popen[str], timeout: float = 30.0) -> tuple[int, str]:
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("it did not stop on SIGTERM") from None
    return proc.returncode, err


def test_shoe_sim_removes_its_link_and_pty_on_sigterm(tmp_path: Path) -> None:
    (tmp_path / "shoe").write_text("left over")       # replaced, as README says
    proc = _background("shoe-sim", "--link", str(tmp_path))
    assert proc.stdout is not None
    link = Path(proc.stdout.readline().strip())
    assert link == tmp_path / "shoe" and link.is_symlink()    # README: `DIR/shoe`, DIR an existing folder
    tty = os.readlink(link)
    rc, err = _stop(proc)
    assert rc == 0 and "Traceback" not in err, err
    assert not link.is_symlink() and not link.exists()
    assert not os.path.exists(tty) or not os.path.islink(link), tty


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (Debian package mosquitto; `make test` installs it)")


def test_club_broker_stops_its_mosquitto_on_sigterm(tmp_path: Path) -> None:
    _need_mosquitto()
    from firmware_host.club.broker import free_port

    folder = tmp_path / "broker-sigterm"
    proc = _background("club", "broker", "--dir", str(folder), "--port", str(free_port()), "--table", "t1")
    assert proc.stdout is not None
    assert "listening" in proc.stdout.readline()
    assert running_with(str(folder / "mosquitto.conf"))  # its mosquitto runs
    rc, err = _stop(proc)
    assert rc == 0 and "Traceback" not in err, err
    _until(lambda: not running_with(str(folder / "mosquitto.conf")), 20, "mosquitto left running")


def test_club_demo_stops_everything_on_sigterm(tmp_path: Path) -> None:
    _need_mosquitto()
    from firmware_host.club.broker import free_port

    folder = tmp_path / "demo-sigterm"
    proc = _background("club", "demo", "--tables", "2", "--dir", str(folder), "--port", str(free_port()))
    assert proc.stdout is not None
    assert "simulated tables" in proc.stdout.readline()
    rc, err = _stop(proc)
    assert rc == 0 and "Traceback" not in err, err
    _until(lambda: not running_with(str(folder)), 20, "the demo's broker left running")


def test_run_closes_its_journal_on_sigterm(tmp_path: Path) -> None:
    from firmware_host.records.journal import Journal

    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[table]\nid = "t1"\ngame = "euchre"\ndata_dir = "{tmp_path / "data"}"\n'
                   '[shoe]\ndriver = "none"\n[camera]\nsource = "none"\n[pins]\nfactory = "mock"\n')
    proc = _background("run", "--config", str(cfg), "--no-display")
    _until(lambda: (tmp_path / "data" / "journal.sqlite3").exists(), why="no journal")
    _until(lambda: (tmp_path / "data" / "journal.sqlite3-wal").exists(), why="no writer")
    rc, err = _stop(proc)
    assert rc == 0 and "Traceback" not in err, err
    assert not (tmp_path / "data" / "journal.sqlite3-wal").exists()  # closed: the WAL checkpointed away
    with Journal.open_readonly(tmp_path / "data") as j:
        assert j.verify().ok


def test_soak_stops_its_table_and_shoe_on_sigterm(tmp_path: Path) -> None:
    work = tmp_path / "soak-sigterm"
    proc = _background("soak", "--deals", "4", "--faults", "0", "--games", "euchre", "--workdir", str(work))
    _until(lambda: any(p != proc.pid for p in running_with(str(work))), 60, "the soak never started its table")
    rc, err = _stop(proc, timeout=60)
    assert rc == 143 and "Traceback" not in err, err
    _until(lambda: not running_with(str(work)), 20, "the soak left its table running")
    assert not any(p.is_symlink() for p in work.rglob("*"))  # the shoe's link is gone


def test_a_second_sigterm_while_stopping_does_not_raise_again() -> None:
    """``timeout`` (and systemd) send SIGTERM to the command and again to its process group: ``soak``'s
    second ``SystemExit(143)`` came in the interpreter's shutdown, a traceback ending ``SystemExit: 143``
    ("Exception ignored in: <module 'threading'>"), or in a ``finally``, cutting its clean-up short."""
    from firmware_host.commands.stopping import exit_on_sigterm

    before = signal.getsignal(signal.SIGTERM)
    try:
        exit_on_sigterm(143)
        with pytest.raises(SystemExit) as stopped:
            signal.raise_signal(signal.SIGTERM)
        assert stopped.value.code == 143
        signal.raise_signal(signal.SIGTERM)      # the stop is under way: taken, nothing raised
        assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_IGN, signal.SIG_DFL)  # children still take it
    finally:
        signal.signal(signal.SIGTERM, before)


def test_club_broker_says_so_when_its_mosquitto_dies(tmp_path: Path) -> None:
    """Audit m16: mosquitto killed under ``club broker`` (kill -9, the OOM killer) ended the command with
    status 247 and not a word: the director's terminal and the unit's journal showed nothing of why the
    tables lost their broker. It says so in one line and exits 1, so the unit starts it again."""
    _need_mosquitto()
    from firmware_host.club.broker import free_port

    folder = tmp_path / "broker-killed"
    proc = _background("club", "broker", "--dir", str(folder), "--port", str(free_port()), "--table", "t1")
    assert proc.stdout is not None
    assert "listening" in proc.stdout.readline()
    mosquitto = [p for p in running_with(str(folder / "mosquitto.conf")) if p != proc.pid]
    assert len(mosquitto) == 1, mosquitto
    os.kill(mosquitto[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, (proc.returncode, err)
    last = err.strip().splitlines()[-1]
    assert last.startswith("club broker: mosquitto stopped (killed by signal 9)"), err
    assert "Traceback" not in err
