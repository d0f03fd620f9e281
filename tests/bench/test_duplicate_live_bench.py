"""cardtable bench duplicate-live runs (figures are read by people, not asserted on)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser import missing


def test_bench_duplicate_live_quick_shows_every_result_on_the_directors_page() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed")
    if missing():
        pytest.skip(missing())
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "bench", "duplicate-live", "--quick", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    fig = json.loads(p.stdout.splitlines()[-1])["run"]
    assert fig["results_sent"] == fig["results_taken"] == fig["lines_shown"] == 20
