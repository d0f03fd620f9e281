"""Hypothesis over fault schedules: whichever commits fail, and for however many retries, the table ends
exactly as a table whose journal never failed: the same rows in the same order (events, rulings, lamps),
the same engine state, the same lamps, and the engine never ahead of the journal."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.records.journal import Journal, JournalError
from firmware_host.table.controller import LawInput, TableController
from laws.events import event_from_dict

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIOS = {name: [json.loads(x) for x in (ROOT / "tests" / "data" / f"{name}.jsonl").read_text().splitlines()
                    if x.strip()] for name in ("bridge-irregularities", "euchre-irregularities")}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FlakyJournal:
    """The journal's interface with commits that fail when the schedule says (SQLite's own failures are
    exercised in test_journal_faults; here the schedule is what varies)."""

    def __init__(self, journal: Journal, schedule: list[bool]) -> None:
        self._j = journal
        self.schedule = list(schedule)
        self.failed = 0
        self.armed = False  # the schedule starts once the controller is built

    def append_many(self, rows):  # type: ignore[no-untyped-def]
        if self.armed and self.schedule and self.schedule.pop(0):
            self.failed += 1
            raise JournalError("disk I/O error (scheduled)")
        return self._j.append_many(rows)

    def append(self, kind, body, t):  # type: ignore[no-untyped-def]
        return self.append_many([(kind, body, t)])[-1]

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self._j, name)


def _rows(path: Path) -> list[tuple[str, dict]]:
    with Journal.open(path) as j:
        assert j.verify().ok
        out = []
        for r in j.rows():
            if r.kind == "note" and r.body.get("journal") == "recovered":
                continue
            out.append((r.kind, {k: v for k, v in r.body.items() if k != "t"}))
        return out


def _play(path: Path, lines: list[dict], schedule: list[bool]) -> tuple[TableController, int]:
    clock = Clock()
    journal = FlakyJournal(Journal.open(path, synchronous="NORMAL"), schedule)
    ctl = TableController(game=lines[0]["game"], journal=journal, panel=None, clock=clock)  # type: ignore[arg-type]
    journal.armed = True
    for obj in lines[1:]:
        ctl.submit(LawInput(event_from_dict({k: v for k, v in obj.items() if k != "expect"}), "script"))
        ctl.drain()
    for _ in range(200):
        if not ctl.snapshot()["held"]:
            break
        clock.now += 10.0
        ctl.drain()
    return ctl, journal.failed


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(SCENARIOS)), schedule=st.lists(st.booleans(), max_size=400))
def test_any_fault_schedule_ends_as_a_clean_run(tmp_path_factory, name: str, schedule: list[bool]) -> None:  # type: ignore[no-untyped-def]
    lines = SCENARIOS[name]
    clean_dir, flaky_dir = tmp_path_factory.mktemp("clean"), tmp_path_factory.mktemp("flaky")
    clean, _ = _play(clean_dir, lines, [])
    flaky, failed = _play(flaky_dir, lines, schedule)
    assert flaky.snapshot()["held"] == 0 and flaky.snapshot()["journal_fault"] is None
    assert _rows(flaky_dir) == _rows(clean_dir)
    assert flaky.lamps == clean.lamps
    assert flaky.engine.snapshot() == clean.engine.snapshot()
    clean.journal.close()
    flaky.journal.close()
