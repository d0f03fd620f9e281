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


def test_bench_bidding_reads_the_calls_beside_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    """``bench vision --bidding --quick``: both ways on the same frames, every call read, nothing false."""
    assert main(["bench", "vision", "--bidding", "--quick", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["bench"] == "vision-bidding" and doc["frames"] == 12 and doc["bidding_cards"] == 11
    assert doc["cards_only"]["median_ms"] > 0 and doc["with_bidding_cards"]["median_ms"] > 0
    assert doc["calls_read"] >= 0.95 and doc["cards_read_with_bidding_cards"] >= 0.95
    assert doc["false_calls"] == 0 and doc["false_cards"] == 0
    assert len(doc["layouts"]) == 9 and all(r["now"]["false_calls"] == 0 for r in doc["layouts"])
    kinds = {k.split("|")[0] for k in doc["outsider"]}
    assert kinds == {"deal", "stack", "fan", "row", "column"}
    assert all(v["false"] == 0 and v["median_ms"] > 0 for v in doc["outsider"].values())


def test_bench_outsider_alone_on_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """``bench vision --outsider --quick --seed N``: one frame a kind of the outsider's table on that seed, both
    decoders on the same frames, each kind's time ratio."""
    assert main(["bench", "vision", "--outsider", "--quick", "--json", "--seed", "3", "--against", "filed"]) == 0
    doc = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert doc["bench"] == "vision-outsider" and doc["seed"] == 3 and doc["frames"] == 1
    assert doc["against"] == "filed"
    assert {k.split("|")[0] for k in doc["figures"]} == {"deal", "stack", "fan", "row", "column"}
    assert all(v["false"] == 0 for v in doc["figures"].values())
    assert set(doc["time_ratio"]) == {f"{k}|{s}" for k in ("deal", "stack", "fan", "row", "column")
                                      for s in ("1280x720", "1920x1080")}


def test_the_decoder_as_filed_has_every_remedy_of_issue_37_turned_off() -> None:
    """``--against filed`` sets the decoder beside the one of when issue 37 was filed: every flag an issue-37
    round added is off, and the second look's cap and single band of sizes are the issue's."""
    from firmware_host.bench.vision import filed, today

    d = filed()
    assert (d.max_candidates, d.size_bands, d.split_joined, d.defocus, d.max_ink, d.narrow, d.glare,
            d.regrid, d.lean) == (8, False, False, False, 0.85, False, False, False, False)
    # "today" is main's decoder before the eighth round: every remedy on, none of the eighth round's
    # cheaper ways (the ninth's reads the same samples and has no flag)
    assert today().regrid and today().glare and not today().lean
