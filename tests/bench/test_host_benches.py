"""Smoke test: the host benchmarks run in quick mode and print their figures (no timing is asserted)."""

from __future__ import annotations

import json

import pytest

from firmware_host.cli import main


@pytest.mark.parametrize("name", ["journal", "panel"])
def test_bench_quick_prints_figures(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", name, "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert any(isinstance(v, dict) and "p99_ms" in v for v in figures.values())
