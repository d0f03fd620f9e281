"""``cardtable bench duplicate-demo --quick`` plays a small evening of real tables and reports its figures
(no timing is asserted)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from firmware_host.cli import main


def test_bench_duplicate_demo_quick(capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (Debian package mosquitto; `make test` installs it)")
    assert main(["bench", "duplicate-demo", "--quick", "--json"]) == 0
    fig = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["mitchell 3x6"]
    assert fig["results"] == 18 and fig["inputs"] >= 18 * 6 and fig["fouls_not_checking_out"] == 0  # 4 calls, 2 confirms at least
    assert fig["wall_s"] >= fig["played_s"] > 0 and fig["cpu_per_result_ms"] > 0
