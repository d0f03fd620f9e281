"""`kill -9` at any moment: nothing journaled is lost, the chain verifies, the lamps come back."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from firmware_host.config import load_config
from firmware_host.devices.panel import Panel
from firmware_host.records.journal import Journal
from firmware_host.table.controller import TableController
from laws.engine import LawEngine
from laws.events import event_from_dict

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIO = ROOT / "tests" / "data" / "bridge-irregularities.jsonl"


def _run_until_killed(data_dir: Path, start: int, kill_after: int) -> tuple[int, int, bool]:
    """Start a worker at scenario line ``start``; SIGKILL it after ``kill_after`` acknowledged inputs.
    Returns (last acknowledged input, its journal seq, finished)."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.table.controller_worker", str(data_dir),
                             str(SCENARIO), str(start)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    last, seq, seen = start - 1, 0, 0
    for line in proc.stdout:
        if line.startswith("done"):
            _, i, s = line.split()
            last, seq, seen = int(i), int(s), seen + 1
            if seen >= kill_after:
                os.kill(proc.pid, signal.SIGKILL)
                break
        elif line.startswith("end"):
            break
    proc.wait(timeout=30)
    proc.stdout.close()
    return last, seq, proc.returncode == 0


def test_kill_minus_nine_loses_nothing_and_restores_lamps(tmp_path: Path) -> None:
    rnd = random.Random(9)
    start, finished, kills = 1, False, 0
    while not finished and kills < 8:
        last, seq, finished = _run_until_killed(tmp_path, start, rnd.randint(3, 40))
        kills += not finished
        with Journal.open(tmp_path) as j:
            assert j.verify().ok, j.verify().message()
            assert j.head()[0] >= seq  # every acknowledged row is there
            journaled = [b for b in j.events() if b["type"] != "game"]
            lamps = j.last_lamps()
        # the worker resumes after the last event that reached the journal
        start = len(journaled) + 1
        assert start >= last + 1 or not finished
    assert kills >= 3
    # a restarted controller is in the state a clean replay of the journal gives, lamps included
    cfg = load_config(None, env={}, check_devices=False)
    factory = MockFactory()
    with Journal.open(tmp_path) as j:
        ctl = TableController(game="contract-bridge", journal=j, panel=Panel(cfg.pins, factory, lambda: 0.0),
                              clock=lambda: 0.0)
        fresh = LawEngine("contract-bridge")
        expected: list[dict] = []
        got: list[dict] = []
        for row in j.rows():  # every event's rulings are journaled, none twice, despite the kills
            if row.kind == "event" and row.body["type"] != "game":
                expected += [r.to_dict() for r in fresh.feed(event_from_dict(row.body))]
            elif row.kind == "ruling":
                got.append({k: v for k, v in row.body.items() if k != "deal"})
        assert got == expected
        assert ctl.engine.state.phase == fresh.state.phase
        assert ctl.engine.state.next_dealer == fresh.state.next_dealer
        if lamps:
            assert ctl.lamps == {k: bool(v) for k, v in lamps.items()}
            for name, on in ctl.lamps.items():
                assert bool(factory.pin(cfg.pins.lamps[name]).state) == on
