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


def test_bench_degradations_counts_by_kind_px_per_module_and_smear() -> None:
    """A few frames of the second generator: every kind, before and now side by side, no false card."""
    from vision.measure_degrade import KINDS, run_degradations, speed_on_existing

    (row,) = run_degradations(len(KINDS), sizes=((960, 540),), progress=False)
    now, before = row["now"], row["before"]
    assert isinstance(now, dict) and isinstance(before, dict)
    assert set(now["by_kind"]) == set(KINDS) and now["frames"] == len(KINDS)
    assert now["false_cards"] == 0 and before["false_cards"] == 0 and now["rejected_texts"] > 0
    assert 0 < sum(n for _, n in now["by_ppm"].values()) <= sum(n for _, n in now["by_kind"].values())
    speed = speed_on_existing(3)
    assert speed["frames"] == 3 and speed["time_ratio"] > 0
