"""``cardtable bench duplicate --quick`` runs and reports both sides of each comparison."""

from __future__ import annotations

import json

import pytest

from firmware_host.cli import main


def test_bench_duplicate_quick(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "duplicate", "--quick", "--json"]) == 0
    fig = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert fig["full rescore, matchpoints"]["lines"] == 810
    dd = fig["double dummy and par"]
    assert dd["ours_median_s"] > 0 and dd["endplay_median_s"] > 0 and dd["overhead_ratio"] > 0
    pages = fig["every page of a two-section event, 50 tables"]
    assert pages["tables"] == 50 and pages["results"] == 1250 and pages["median_ms"] > 0
