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
