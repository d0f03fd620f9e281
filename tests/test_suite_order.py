"""The suite's scheduling (tests/conftest.py, SLOW_FIRST): the files it names exist, the Makefile keeps the
collection's order for xdist, and those files are collected first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import SLOW_FIRST

ROOT = Path(__file__).resolve().parents[1]


def test_every_slow_file_named_exists_and_the_makefile_keeps_the_order() -> None:
    assert [p for p in SLOW_FIRST if not (ROOT / p).is_file()] == []
    assert len(set(SLOW_FIRST)) == len(SLOW_FIRST)
    assert "--no-loadscope-reorder" in (ROOT / "Makefile").read_text()


def test_the_slow_files_are_collected_first() -> None:
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                        "tests/cli", "tests/soak/test_soak_run.py", "tests/vision/test_vision_bench.py"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    files = [line.split("::", 1)[0] for line in p.stdout.splitlines() if "::" in line]
    order = list(dict.fromkeys(files))
    assert order[:2] == ["tests/vision/test_vision_bench.py", "tests/soak/test_soak_run.py"], p.stdout[-2000:]
