"""The table benchmark runs (figures are read by people, not asserted on)."""

from __future__ import annotations

import json
import subprocess
import sys


def test_bench_table_quick_prints_figures() -> None:
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "bench", "table", "--quick", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    fig = json.loads(p.stdout.splitlines()[-1])
    assert fig["52-card deal, controller CPU"]["n"] >= 1 and fig["engine events/s"] > 0


def test_bench_e2e_quick_measures_lamp_changes() -> None:
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "bench", "e2e", "--quick", "--json"],
                       capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stderr
    fig = json.loads(p.stdout.splitlines()[-1])
    assert fig["lamp_samples"] >= 10 and fig["card_samples"] >= 100


def test_bench_wire_quick_reads_and_refuses_each_payload() -> None:
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "bench", "wire", "--quick", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    fig = json.loads(p.stdout.splitlines()[-1])
    assert fig["board message"]["read_json_us"] > 0 and fig["nested 2,000 deep (refused)"]["bytes"] == 4000


def test_bench_e2e_goes_on_when_its_shoe_side_is_held_back(monkeypatch, capsys) -> None:
    """The shoe's side held back 2 s between two cards (a busy machine): its heartbeats keep the host from
    taking the shoe for offline (over 1.6 s of silence), and the measurement goes on."""
    import argparse

    import firmware_host.bench.e2e as e2e

    calls = [0]
    wait_for = e2e._Stamp.wait_for

    def held_back(self: e2e._Stamp, n: int, timeout: float = 5.0) -> float:
        calls[0] += 1
        if calls[0] == 30:
            import time
            time.sleep(2.0)
        return wait_for(self, n, timeout)

    monkeypatch.setattr(e2e._Stamp, "wait_for", held_back)
    assert e2e.run(argparse.Namespace(quick=True, json=True)) == 0
    fig = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert fig["card_samples"] >= 100 and calls[0] > 30


def test_a_bench_that_cannot_measure_says_so_in_one_line(monkeypatch, capsys) -> None:
    import argparse

    from firmware_host import bench
    from firmware_host.bench.report import BenchFailed

    def fails(args: argparse.Namespace) -> int:
        raise BenchFailed("event 12 did not reach the journal within 5 s")

    monkeypatch.setattr("firmware_host.bench.e2e.run", fails)
    assert bench.run("e2e", argparse.Namespace(quick=True, json=True)) == 1
    assert capsys.readouterr().err == "cardtable bench e2e: could not measure: event 12 did not reach the journal within 5 s\n"
