"""The whole simulated table end to end: virtual shoe on a real pty, synthetic camera, MockFactory pins,
SQLite journal. For each irregularity of the demo the ruling and the lamp history are asserted; the
bridge deals are read back from the PBN file with endplay."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.demo import run_demo
from firmware_host.records.journal import Journal

BRIDGE = [("formation", "CB-draw"), ("new_shuffle_and_cut", "CB-cut-faced"), ("redeal", "CB-redeal-faced"),
          ("new_shuffle_and_cut", "CB-shuffle-demand"), ("attention", "CB-redeal-miscount"),
          ("redeal", "CB-redeal-miscount"), ("replace_pack", "CB-pack-damaged"),
          ("attention", "CB-missing-search"), ("redeal", "CB-missing-not-found"), ("score", "CB-rubber"),
          ("game_won", "CB-rubber"),
          ("claim_option", "CB-redeal-out-of-turn"), ("redeal", "CB-redeal-out-of-turn"),
          ("score", "CB-rubber"), ("game_won", "CB-rubber")]
EUCHRE = [("formation", "EU-11"), ("misdeal", "EU-41"), ("claim_option", "EU-35"), ("redeal", "EU-35"),
          ("deal_stands", "EU-90"), ("penalty", "EU-90"), ("score", "EU-2")]


def _history(path: Path) -> tuple[list[tuple[str, str]], list[tuple[str, dict]]]:
    """Rulings, and for each lamp row the ruling or note that preceded it."""
    rulings: list[tuple[str, str]] = []
    lamps: list[tuple[str, dict]] = []
    last = ""
    with Journal.open(path) as j:
        assert j.verify().ok
        for row in j.rows():
            if row.kind == "ruling":
                rulings.append((row.body["remedy"], row.body["clause"]))
                last = row.body["clause"]
            elif row.kind == "event":
                last = row.body["type"]
            elif row.kind == "note":
                last = "ack" if "ack" in row.body else f"device:{row.body.get('device')}"
            elif row.kind == "lamp":
                lamps.append((last, {k: v for k, v in row.body.items() if v}))
    return rulings, lamps


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert run_demo(out, seed=7, camera=True) == 0
    return out


def test_bridge_rulings_and_lamps(demo: Path) -> None:
    rulings, lamps = _history(demo / "contract-bridge")
    assert rulings == BRIDGE
    lit = {cause: on for cause, on in lamps}
    assert lit["CB-cut-faced"] == {"shuffle": True}
    assert lit["CB-redeal-faced"] == {"redeal": True}
    assert lit["CB-redeal-miscount"]["redeal"] is True
    assert lit["CB-pack-damaged"]["replace_pack"] is True
    assert lit["ack"] == {}  # the director's button put every ruling lamp out
    assert lit["CB-redeal-out-of-turn"].get("redeal") is True
    assert ("device:shoe", {"shoe_offline": True}) in [(c, {k: v for k, v in on.items() if k == "shoe_offline"})
                                                       for c, on in lamps]
    assert lit["deal_start"] == {}  # a new deal put the lamps out


def test_euchre_rulings_and_lamps(demo: Path) -> None:
    rulings, lamps = _history(demo / "euchre")
    assert rulings == EUCHRE
    lit = {cause: on for cause, on in lamps}
    assert lit["EU-41"] == {"redeal": True}
    assert lit["EU-35"]["redeal"] is True


def test_pbn_reads_back_with_endplay(demo: Path) -> None:
    from endplay.parsers import pbn
    from endplay.types import Player

    from firmware_host.records.pbn import deals_from_events
    from laws.cards import Card

    with open(demo / "bridge.pbn") as f:
        boards = pbn.load(f)
    with Journal.open(demo / "contract-bridge") as j:
        ours = deals_from_events(list(j.events()))
    assert len(boards) == len(ours) == 2
    for board, deal in zip(boards, ours):
        assert board.info["North"] == "Ann" and board.info["West"] == "Di"
        for seat, cards in deal.hands.items():
            theirs = {Card(c.rank.abbr, "SHDC"[c.suit.value]) for c in board.deal[Player.find(seat.value)]}
            assert theirs == set(cards) and len(theirs) == 13


def test_exported_history_replays_to_the_same_rulings(demo: Path, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    for game in ("contract-bridge", "euchre"):
        out = tmp_path / f"{game}.jsonl"
        subprocess.run([sys.executable, "-m", "firmware_host.cli", "export", "jsonl", "--data-dir",
                        str(demo / game), "--out", str(out)], check=True, capture_output=True, timeout=60)
        p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "replay", str(out)], capture_output=True,
                           text=True, timeout=60, check=True)
        replayed = [json.loads(line) for line in p.stdout.splitlines()]
        with Journal.open(demo / game) as j:
            journaled = [{k: v for k, v in r.body.items() if k != "deal"} for r in j.rows() if r.kind == "ruling"]
        assert replayed == journaled
