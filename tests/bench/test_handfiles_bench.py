"""``cardtable bench handfiles`` runs and measures the four cases (figures are read by people, not
asserted on); a case that should be refused and is read instead stops the benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.bench.handfiles import _refused
from firmware_host.bench.report import ChecksFailed

ROOT = Path(__file__).resolve().parents[2]


def test_bench_handfiles_quick_prints_its_four_figures() -> None:
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "bench", "handfiles", "--quick", "--json"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    fig = json.loads(p.stdout.splitlines()[-1])
    cases = [v for k, v in fig.items() if k != "bench"]
    assert len(cases) == 4 and all(c["repeats"] == 1 and c["median_s"] >= 0 for c in cases)


def test_a_refusal_case_that_reads_the_file_fails(tmp_path: Path) -> None:
    from firmware_host.duplicate.handrecords.handfiles import render_hand_records
    from tests.duplicate.test_handfiles_bounds import _boards

    good = tmp_path / "good.bri"
    good.write_bytes(render_hand_records(_boards(2), "bri"))
    with pytest.raises(ChecksFailed, match="good.bri was read, not refused"):
        _refused(good)()
