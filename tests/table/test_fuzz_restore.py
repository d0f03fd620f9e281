"""Fuzzing through the controller and its restart (issue 20, item 1): every event type of the format
(``tests/laws/fuzz_events.py``), random fields, random phases, random order, taken by a live table and
then replayed by a restart; and journals of random event rows, as a later or an earlier version might
have written them. Zero crashes: the table always starts, and a restart rebuilds the engine the live table
had (checkpoints on and off)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.records.journal import Journal
from firmware_host.table import ordering
from firmware_host.table.controller import LawInput, TableController
from laws.events import EVENT_TYPES, Event
from tests.laws.fuzz_events import JSON_ANY, _field_values, table_events
from tests.table.fakes import Clock

SLOW = settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _start(path: Path, game: str, checkpoints: bool) -> tuple[TableController, Journal]:
    j = Journal.open(path, synchronous="NORMAL")
    return TableController(game=game, journal=j, panel=None, clock=Clock(), checkpoints=checkpoints), j


def _live_then_restart(game: str, events: list[Event], checkpoints: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp, \
            mock.patch.object(ordering, "CHECKPOINT_ROWS", 40):  # checkpoints within a short fuzzed table
        path = Path(tmp)
        ctl, j = _start(path, game, checkpoints)
        try:
            for e in events[1:]:
                ctl.process(LawInput(e, "director"))  # never raises: a refusal or a fault is set aside
            live = ctl.engine.snapshot()
        finally:
            j.close()
        ctl, j = _start(path, game, checkpoints)
        try:
            assert ctl.engine.snapshot() == live
            assert j.verify().ok
        finally:
            j.close()


@SLOW
@given(st.sampled_from(["contract-bridge", "euchre"]), st.booleans(), st.data())
def test_a_fuzzed_table_restarts_as_it_was(game: str, checkpoints: bool, data: st.DataObject) -> None:
    events = data.draw(table_events(game, steps=90))
    _live_then_restart(game, events, checkpoints)


@st.composite
def raw_rows(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Event rows as an unknown writer may have left them: any type name, fields of the right kinds or
    any JSON value, some of them events the format refuses."""
    out = []
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from([*EVENT_TYPES, "call", "claim", "", "deal_start"]))
        fields = draw(_field_values(EVENT_TYPES[kind])) if kind in EVENT_TYPES else \
            draw(st.dictionaries(st.sampled_from(["seat", "call", "card", "x"]), JSON_ANY, max_size=3))
        out.append({"type": kind, **fields})
    return out


@SLOW
@given(st.sampled_from(["contract-bridge", "euchre"]), raw_rows())
def test_a_journal_of_random_rows_starts(game: str, rows: list[dict[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp)
        with Journal.open(path, synchronous="NORMAL") as j:
            j.append("event", {"type": "game", "game": game}, 1.0)
            for k, body in enumerate(rows):
                if body.get("type") == "game":
                    continue  # a journal of another game is refused on purpose (tested elsewhere)
                j.append("event", body, 2.0 + k)
        ctl, j = _start(path, game, checkpoints=True)
        try:
            ctl.snapshot()  # the table is up and can say where it is
        finally:
            j.close()
        again, j2 = _start(path, game, checkpoints=True)  # and a second start agrees with the first
        try:
            assert again.engine.snapshot() == ctl.engine.snapshot()
        finally:
            j2.close()
