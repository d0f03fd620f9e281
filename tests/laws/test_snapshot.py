"""A checkpoint of the engine's state: taken at any point of a table's history and restored, the engine
goes on exactly as the one that never stopped (same rulings, same final state)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.engine import LawEngine
from laws.events import Event, event_from_dict
from laws.snapshot import SnapshotError, dumps, loads
from tests.laws.test_properties import bridge_table, euchre_table

DATA = Path(__file__).resolve().parents[1] / "data"


def _split_run(game: str, events: list[Event], k: int) -> None:
    whole = LawEngine(game)
    first = [r.to_dict() for r in whole.feed_all(events[:k])]
    rest = [r.to_dict() for r in whole.feed_all(events[k:])]
    before = LawEngine(game)
    assert [r.to_dict() for r in before.feed_all(events[:k])] == first
    again = LawEngine(game)
    again.restore(before.snapshot())
    assert again.snapshot() == before.snapshot()
    assert [r.to_dict() for r in again.feed_all(events[k:])] == rest, f"differs after a restore at event {k}"
    assert again.snapshot() == whole.snapshot()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), deals=st.integers(1, 4), at=st.floats(0, 1))
def test_bridge_table_restored_anywhere_goes_on_the_same(seed: int, deals: int, at: float) -> None:
    events = bridge_table(seed, deals)
    _split_run("contract-bridge", events, int(at * len(events)))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), deals=st.integers(1, 6), at=st.floats(0, 1))
def test_euchre_table_restored_anywhere_goes_on_the_same(seed: int, deals: int, at: float) -> None:
    events = euchre_table(seed, deals)
    _split_run("euchre", events, int(at * len(events)))


@pytest.mark.parametrize("path", sorted(DATA.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_point_of_each_scenario(path: Path) -> None:
    """The scenarios hold the irregularities, claims, the draw and the roster: restore at every line."""
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip() and not x.startswith("#")]
    events = [event_from_dict(x) for x in lines]
    game = next(e.game for e in events if e.TYPE == "game")  # type: ignore[attr-defined]
    # One run that never stops, its state and its rulings kept at every point (running it again from the
    # start for each point, as _split_run does, made this test the suite's slowest by far).
    whole = LawEngine(game)
    states, rulings = [], []
    for e in events:
        states.append(whole.snapshot())
        rulings.append([r.to_dict() for r in whole.feed(e)])
    states.append(whole.snapshot())
    end = states[-1]
    for k in range(len(events) + 1):
        again = LawEngine(game)
        again.restore(states[k])
        assert again.snapshot() == states[k], f"a restore at event {k} is not the state it was taken from"
        rest = [r for per_event in rulings[k:] for r in per_event]
        assert [r.to_dict() for r in again.feed_all(events[k:])] == rest, f"differs after a restore at event {k}"
        assert again.snapshot() == end, f"ends elsewhere after a restore at event {k}"


def test_a_snapshot_builds_only_the_engines_own_types() -> None:
    for bad in ('{"o": "os:system", "a": {}}', '{"e": "subprocess:Popen", "v": 1}', '{"x": 1}', "[1, {}]",
                "not json"):
        with pytest.raises(SnapshotError):
            loads(bad)
    with pytest.raises(SnapshotError, match="cannot snapshot"):
        dumps(Path("/"))
    with pytest.raises(SnapshotError, match="not the state of a euchre table"):
        LawEngine("euchre").restore(LawEngine("contract-bridge").snapshot())


def test_euchre_play_irregularities_survive_a_restore_anywhere() -> None:
    """Claims with options, calls in force, exposed cards, declarations and the discard (issue 12) are
    part of the state a checkpoint keeps."""
    from tests.laws.test_euchre_bidding import turned
    head = turned()
    events = [event_from_dict(o) for o in (
        {"type": "bid", "seat": "E", "call": "pass"}, {"type": "bid", "seat": "E", "call": "order"},
        {"type": "bid", "seat": "S", "call": "pass"}, {"type": "bid", "seat": "W", "call": "order"},
        {"type": "demand", "seat": "N", "what": "hold_order"},
        {"type": "card_played", "seat": "S", "card": "7C"},
        {"type": "demand", "seat": "E", "what": "call_suit", "suit": "S"},
        {"type": "card_played", "seat": "E", "card": "AC"}, {"type": "card_played", "seat": "E", "card": "KC"},
        {"type": "discard", "seat": "N", "card": "TH"},
        {"type": "card_played", "seat": "S", "card": "7C"}, {"type": "card_played", "seat": "W", "card": "AD"},
        {"type": "card_played", "seat": "N", "card": "AH"},
        {"type": "demand", "seat": "S", "what": "call_card", "card": "KC"},
        {"type": "card_played", "seat": "N", "card": "KH"}, {"type": "card_played", "seat": "E", "card": "9H"},
        {"type": "play_end"})]
    state = head.snapshot()
    for k in range(len(events) + 1):
        whole = LawEngine("euchre")
        whole.restore(state)
        first = [r.to_dict() for r in whole.feed_all(events[:k])]
        rest = [r.to_dict() for r in whole.feed_all(events[k:])]
        part = LawEngine("euchre")
        part.restore(state)
        assert [r.to_dict() for r in part.feed_all(events[:k])] == first
        again = LawEngine("euchre")
        again.restore(loads(dumps(part.snapshot())))
        assert [r.to_dict() for r in again.feed_all(events[k:])] == rest, k
        assert again.snapshot() == whole.snapshot()
    full = LawEngine("euchre")
    full.restore(state)
    clauses = {r.clause for r in full.feed_all(events)}
    assert {"EU-80", "EU-52", "EU-46", "EU-87", "EU-55"} <= clauses, clauses
