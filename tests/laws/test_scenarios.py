"""Replays every example scenario in tests/data and checks the rulings each line expects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_host.records.replay import game_of, read_events
from laws.engine import LawEngine

DATA = Path(__file__).resolve().parent.parent / "data"
SCENARIOS = sorted(DATA.glob("*.jsonl"))


def test_there_are_scenarios_for_both_games() -> None:
    games = {json.loads(p.read_text().splitlines()[0])["game"] for p in SCENARIOS}
    assert games == {"contract-bridge", "euchre"}


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_scenario_rulings(path: Path) -> None:
    lines = path.read_text().splitlines()
    engine: LawEngine | None = None
    for item in read_events(lines, path.name):
        if engine is None:
            game = game_of(item.event, None)
            assert game is not None
            engine = LawEngine(game)
        got = [f"{r.remedy.value} {r.clause}" for r in engine.feed(item.event)]
        expect = json.loads(lines[item.line - 1]).get("expect")
        if expect is not None:
            assert got == expect, f"{path.name}:{item.line}"
        else:
            irregular = [g for g in got if not g.startswith(("score", "game_won", "rubber_won"))]
            assert irregular == [], f"{path.name}:{item.line}: unexpected {irregular}"
