"""A journal that cannot commit for a while (disk full, write lock held elsewhere): the controller holds
every input in order, lights the fault lamp, says so, retries with backoff on its injected clock and goes
on where it stopped; the engine never takes an event the journal did not get. Real SQLite failures:
``PRAGMA max_page_count`` (SQLITE_FULL, what a full data folder gives) and a write lock held by another
connection (``database is locked``)."""

from __future__ import annotations

import logging
import random
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_host.config import load_config
from firmware_host.devices.panel import Panel
from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput, TableController
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import event_from_dict
from tests.laws.streams import BRIDGE_PACK, bridge_deal, prelude, shuffled


class Clock:
    """A clock that only moves when the test says so."""

    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


class Rig:
    def __init__(self, path: Path) -> None:
        self.cfg = load_config(None, env={}, check_devices=False)
        self.factory = MockFactory()
        self.clock = Clock()
        self.panel = Panel(self.cfg.pins, self.factory, self.clock)
        self.journal = Journal.open(path)
        self.ctl = TableController(game="contract-bridge", journal=self.journal, panel=self.panel,
                                   clock=self.clock)

    def lamp(self, name: str) -> bool:
        return bool(self.factory.pin(self.cfg.pins.lamps[name]).state)

    def close(self) -> None:
        self.panel.close()
        self.journal.close()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    yield r
    r.close()


class _Statuses:
    def __init__(self, told: list[dict]) -> None:
        self.told = told

    def status(self, snap: dict) -> None:
        self.told.append(snap)

    def event(self, *a: object) -> None: ...

    def ruling(self, *a: object) -> None: ...

    def deal_over(self, *a: object) -> None: ...

    def pack_health(self, *a: object) -> None: ...


def _deal(seed: int) -> list:
    cards = shuffled(BRIDGE_PACK, random.Random(seed))
    return prelude(Seat.N) + bridge_deal(Seat.N, cards)


def _journaled(path: Path) -> list[dict]:
    with Journal.open(path) as j:
        assert j.verify().ok
        return [{k: v for k, v in e.items() if k not in ("t", "src")} for e in j.events() if e["type"] != "game"]


def _fill_disk(journal: Journal) -> None:
    """The data folder is full: SQLite may not grow the database by one page."""
    conn = sqlite3.connect(journal.path)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    journal._conn.execute(f"PRAGMA max_page_count = {pages}")  # noqa: SLF001 - the real SQLite limit


def _free_disk(journal: Journal) -> None:
    journal._conn.execute("PRAGMA max_page_count = 1073741823")  # noqa: SLF001


def test_full_disk_holds_every_input_and_loses_none(rig: Rig, tmp_path: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    told: list[dict] = []
    rig.ctl.observers.append(_Statuses(told))  # the club's status, as the publisher gets it
    events = _deal(1)
    for e in events[:10]:
        rig.ctl.submit(LawInput(e, "shoe"))
    rig.ctl.drain()
    _fill_disk(rig.journal)
    for e in events[10:]:  # the pack goes on leaving the shoe while nothing can be written
        rig.ctl.submit(LawInput(e, "shoe"))
        rig.ctl.drain()
    # the engine took no event the journal did not get; the fault is lit and said; the rest is held
    got = _journaled(tmp_path)
    assert rig.ctl.engine.state.deal.cards_dealt == sum(e["type"] == "card_dealt" for e in got)  # type: ignore[union-attr]
    assert rig.lamp("journal_fault")
    snap = rig.ctl.snapshot()
    assert snap["journal_fault"] and snap["held"] == len(events) - len(got) > 10
    assert told[-1]["journal_fault"] and told[-1]["held"] == snap["held"] and told[-1]["lamps"]["journal_fault"]
    # nothing happens before the backoff says so, however often the consumer looks
    rig.ctl.drain()
    assert rig.ctl.snapshot()["held"] == len(events) - len(got)
    _free_disk(rig.journal)
    for _ in range(20):  # the backoff is bounded: within a few retries the journal is tried again
        rig.clock.now += 1.0
        rig.ctl.drain()
        if not rig.ctl.snapshot()["held"]:
            break
    assert rig.ctl.snapshot()["held"] == 0
    assert not rig.lamp("journal_fault") and not rig.ctl.snapshot()["journal_fault"]
    assert told[-1]["journal_fault"] is None and told[-1]["held"] == 0
    assert _journaled(tmp_path) == [_journaled_form(e) for e in events]
    # no ruling was made from the stall, and the live table is where a restart puts it
    with Journal.open(tmp_path) as j:
        assert not [r for r in j.rows() if r.kind == "ruling"]
        again = TableController(game="contract-bridge", journal=j, panel=None, clock=rig.clock)
        assert again.engine.state.phase == rig.ctl.engine.state.phase
        assert again.engine.state.deal.cards_dealt == 52  # type: ignore[union-attr]
    # no card of the open deal went to the log, tracebacks included
    _assert_no_cards_logged(caplog, events)


def _journaled_form(e) -> dict:  # type: ignore[no-untyped-def]
    from laws.events import event_to_dict

    return {k: v for k, v in event_to_dict(e).items() if k != "t"}


def _assert_no_cards_logged(caplog, events) -> None:  # type: ignore[no-untyped-def]
    codes = {e.card.code for e in events if getattr(e, "card", None) is not None}
    names = {e.card.name for e in events if getattr(e, "card", None) is not None}
    for rec in caplog.records:
        text = rec.getMessage() + (rec.exc_text or "") + (logging.Formatter().formatException(rec.exc_info)
                                                          if rec.exc_info else "")
        words = set(re.findall(r"\b[2-9TJQKA][SHDC]\b", text))
        assert not words & codes, text
        assert not any(n in text for n in names), text


def test_write_lock_held_elsewhere_holds_inputs_in_order(rig: Rig, tmp_path: Path) -> None:
    rig.journal._conn.execute("PRAGMA busy_timeout = 20")  # noqa: SLF001 - give up on a lock quickly
    events = _deal(2)
    for e in events[:20]:
        rig.ctl.process(LawInput(e, "shoe"))
    other = sqlite3.connect(rig.journal.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    for e in events[20:]:
        rig.ctl.submit(LawInput(e, "shoe"))
    rig.ctl.drain()
    assert rig.lamp("journal_fault")
    held = rig.ctl.snapshot()["held"]
    assert held == len(events) - 20
    other.execute("COMMIT")
    other.close()
    for _ in range(20):
        rig.clock.now += 1.0
        rig.ctl.drain()
        if not rig.ctl.snapshot()["held"]:
            break
    assert not rig.lamp("journal_fault")
    assert _journaled(tmp_path) == [_journaled_form(e) for e in events]
    fresh = LawEngine("contract-bridge")
    for e in _journaled(tmp_path):
        fresh.feed(event_from_dict(e))
    assert fresh.state.phase == rig.ctl.engine.state.phase


def test_a_commit_failing_after_the_engine_took_the_event_is_retried_not_lost(rig: Rig, tmp_path: Path) -> None:
    """The rulings of an event are owed when their commit fails: the next inputs wait behind them."""
    events = _deal(3)
    dealt = events[:4 + 3]  # prelude, deal_start and two cards
    for e in dealt:
        rig.ctl.process(LawInput(e, "shoe"))
    faced = event_from_dict({"type": "card_faced", "card": events[-2].card.code, "where": "deal",
                             "seat": "E"})
    journal = rig.journal
    real = journal.append_many
    calls = {"n": 0}

    def flaky(rows):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:  # the event went in; its rulings and lamps do not, this once
            raise __import__("firmware_host.records.journal", fromlist=["JournalError"]).JournalError("disk I/O error")
        return real(rows)

    journal.append_many = flaky  # type: ignore[method-assign]
    rig.ctl.submit(LawInput(faced, "camera"))
    rig.ctl.submit(LawInput(events[7], "shoe"))
    rig.ctl.drain()
    assert rig.lamp("journal_fault") and not rig.lamp("redeal")
    rig.clock.now += 5.0
    rig.ctl.drain()
    assert rig.lamp("redeal") and not rig.lamp("journal_fault")
    with Journal.open(tmp_path) as j:
        kinds = [(r.kind, r.body.get("type")) for r in j.rows()]
    at = kinds.index(("event", "card_faced"))
    assert kinds[at + 1] == ("ruling", None)
    assert ("event", "card_dealt") in kinds[at + 2:]  # (a card of the voided deal: noted ignored after it)


def test_a_journal_locked_at_boot_is_held_not_fatal(tmp_path: Path) -> None:
    """Booting while another process holds the write lock: the controller starts, lights the fault
    lamp, and writes its game line and the inputs that came meanwhile once the lock is gone."""
    cfg = load_config(None, env={}, check_devices=False)
    factory = MockFactory()
    clock = Clock()
    journal = Journal.open(tmp_path)
    journal._conn.execute("PRAGMA busy_timeout = 20")  # noqa: SLF001
    other = sqlite3.connect(journal.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    panel = Panel(cfg.pins, factory, clock)
    try:
        ctl = TableController(game="contract-bridge", journal=journal, panel=panel, clock=clock)
        assert ctl.snapshot()["journal_fault"] and bool(factory.pin(cfg.pins.lamps["journal_fault"]).state)
        events = _deal(4)[:8]
        for e in events:
            ctl.submit(LawInput(e, "shoe"))
        ctl.drain()
        other.execute("COMMIT")
        for _ in range(20):
            clock.now += 1.0
            ctl.drain()
        assert ctl.snapshot()["held"] == 0
        with Journal.open(tmp_path) as j:
            assert next(iter(j.events())) == {"type": "game", "game": "contract-bridge"}
        assert _journaled(tmp_path) == [_journaled_form(e) for e in events]
    finally:
        other.close()
        panel.close()
        journal.close()


def test_a_device_offline_when_the_table_stopped_is_noted_back_after_a_restart(tmp_path: Path) -> None:
    """Found by the soak (issue 20): the table was killed while the shoe was unplugged and the camera
    down; the restarted controller took both for online, so their return was never journaled and both
    offline lamps stayed lit for good. A restart now takes each device's state from the journal (its
    lamp row), and the device's return is a change like any other."""
    from firmware_host.table.inputs import DeviceStatus

    r = Rig(tmp_path)
    try:
        for device in ("shoe", "camera"):
            r.ctl.submit(DeviceStatus(device, False, "unplugged"))
        r.ctl.drain()
        assert r.lamp("shoe_offline") and r.lamp("camera_offline")
    finally:
        r.close()  # killed: nothing more is journaled
    r = Rig(tmp_path)  # the restart
    try:
        assert r.lamp("shoe_offline") and r.lamp("camera_offline")   # as the journal left them
        assert r.ctl.snapshot()["shoe_online"] is False
        for device in ("shoe", "camera"):
            r.ctl.submit(DeviceStatus(device, True, "back"))
        r.ctl.drain()
        assert not r.lamp("shoe_offline") and not r.lamp("camera_offline")
        notes = [row.body for row in r.journal.rows() if row.kind == "note" and "online" in row.body]
        assert [(n["device"], n["online"]) for n in notes] == [("shoe", False), ("camera", False),
                                                               ("shoe", True), ("camera", True)]
    finally:
        r.close()
