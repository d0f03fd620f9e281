"""``kill -9`` of a real ``cardtable run`` while its commit is held (another process holds the journal's
write lock for two seconds) while the virtual shoe goes on dealing: after a restart the journal has every
card the shoe dealt, once and in order, and no ruling (no false "out of rotation" redeal)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from firmware_host.shoe.virtual import VirtualShoe
from tests.table.livetable import dealt, rulings
from tests.table.test_run_command import _config

ROOT = Path(__file__).resolve().parent.parent.parent


def _until(what, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    """Poll another process's progress (files, the shoe's thread) until ``what()``."""
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _cards(data: Path) -> int:
    if not (data / "journal.sqlite3").exists():
        return 0
    try:
        return len(dealt(data))
    except Exception:  # noqa: BLE001 - the journal is being created by the other process
        return 0


def _run(cfg: Path) -> subprocess.Popen:  # type: ignore[type-arg]
    return subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "run", "--config", str(cfg),
                             "--no-display"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


def test_kill_while_a_commit_is_held_loses_no_acknowledged_card(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=21, packs=("A1", "B1"), gap_ms=40) as shoe:
        acked: list[int] = []
        ring = shoe.firmware.ring
        forget = ring.ack
        ring.ack = lambda upto: (acked.append(upto), forget(upto))[1]  # what the host acknowledged
        cfg = _config(tmp_path, shoe.path)
        host = _run(cfg)
        _until(lambda: _cards(data) >= 5)
        locker = subprocess.Popen([sys.executable, "-m", "tests.table.journal_locker",
                                   str(data / "journal.sqlite3"), "told"], cwd=ROOT, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        assert locker.stdin is not None and locker.stdout is not None
        try:
            assert locker.stdout.readline().strip() == "locked"
            held_from = len(shoe.dealt)
            _until(lambda: len(shoe.dealt) >= held_from + 8)  # cards reach the host while it cannot commit
            os.kill(host.pid, signal.SIGKILL)
            host.wait(timeout=10)
        finally:  # let go once the host is dead (a fixed stall could end first on a loaded machine)
            locker.stdin.close()
        assert locker.stdout.readline().strip() == "released"
        locker.wait(timeout=10)
        locker.stdout.close()
        assert host.stderr is not None
        host.stderr.close()
        host = _run(cfg)  # the same shoe, still holding whatever was not acknowledged
        _until(lambda: _cards(data) >= 52)
        host.send_signal(signal.SIGTERM)
        _, err = host.communicate(timeout=20)
        assert host.returncode == 0, err
        sent = [(c.card.code, c.pack) for c in shoe.dealt[:52]]
    got = [(e["card"], e.get("pack")) for e in dealt(data)]
    assert got == sent  # every card once, in order: none acknowledged and lost, none twice
    assert rulings(data) == []
    assert acked  # the host did acknowledge (after its commits)
