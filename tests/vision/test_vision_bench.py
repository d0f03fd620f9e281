"""The vision benchmark runs (quick mode) and prints figures for every size and card count."""

from __future__ import annotations

import json

import pytest

from firmware_host.cli import main


@pytest.mark.slow
def test_bench_vision_quick(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "vision", "--quick", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(r["size"], r["cards"]) for r in doc["rows"]] == [
        (s, n) for s in ("640x480", "1280x720", "1920x1080") for n in (1, 4, 13)] + [("1280x720", 13)]
    for r in doc["rows"]:
        assert r["ours"]["false_reads"] == 0 and r["ours"]["median_ms"] > 0 and r["baseline"]["frames"] >= 3
