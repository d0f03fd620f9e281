"""The director's commands are done once by their id, across restarts, and the broker is told only once a
command is committed (issue 20, items 3 and 4). The wiring is the real one: ``ClubCommands`` hands each
delivery to the controller with the acknowledgement it must give."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from firmware_host.live import ClubCommands
from firmware_host.records.journal import Journal
from firmware_host.table.controller import TableController
from laws.cards import Seat
from tests.laws.streams import euchre_known_deal
from tests.table.fakes import Clock
from tests.table.test_choices import HANDS

BID = {"table": "t1", "by": "ann", "t": 0, "id": "b1", "seat": "E", "call": "pass"}


def _table(path: Path) -> tuple[TableController, Journal, ClubCommands]:
    j = Journal.open(path, synchronous="NORMAL")
    ctl = TableController(game="euchre", journal=j, panel=None, clock=Clock())
    return ctl, j, ClubCommands("euchre", ctl.submit)


def _bids(j: Journal) -> list[dict[str, Any]]:
    return [r.body for r in j.rows() if r.kind == "event" and r.body["type"] == "bid"]


def test_a_bid_delivered_again_after_a_restart_acts_once(tmp_path: Path) -> None:
    from firmware_host.table.controller import LawInput

    ctl, j, commands = _table(tmp_path)
    ctl.engine.state.next_dealer = Seat.N
    for e in euchre_known_deal(Seat.N, {s.value: c for s, c in HANDS.items()}, "7S"):
        ctl.process(LawInput(e, "script"))
    commands("bid", BID)
    ctl.drain()
    assert len(_bids(j)) == 1
    rulings_before = sum(1 for r in j.rows() if r.kind == "ruling")
    j.close()
    ctl, j, commands = _table(tmp_path)  # a restart; the broker delivers the bid again (QoS 1)
    try:
        commands("bid", BID)
        ctl.drain()
        assert len(_bids(j)) == 1  # on main: journaled twice, and East's second pass ruled out of turn
        assert sum(1 for r in j.rows() if r.kind == "ruling") == rulings_before  # no false law-82 ruling
        acked: list[int] = []
        commands("bid", BID, "", lambda: acked.append(2))  # and again, as the broker would
        ctl.drain()
        assert len(_bids(j)) == 1 and acked == [2]  # the repeat is acknowledged: answered, not done again
        assert {"id": "b1", "kind": "bid", "ok": True, "why": ""} in ctl.snapshot()["answers"]
    finally:
        j.close()


def test_a_command_is_acknowledged_only_once_it_is_committed(tmp_path: Path) -> None:
    """While another writer holds the journal's lock the command waits, unacknowledged; it is
    acknowledged after its row is in."""
    ctl, j, commands = _table(tmp_path)
    ctl.order.backoff = (0.0, 0.0)
    acked: list[str] = []
    blocker = sqlite3.connect(j.path, timeout=0, isolation_level=None)
    j._conn.execute("PRAGMA busy_timeout = 0")  # noqa: SLF001 - fail at once instead of waiting 10 s
    blocker.execute("BEGIN IMMEDIATE")
    try:
        commands("ack", {"table": "t1", "by": "ann", "t": 0, "id": "a1"}, "", lambda: acked.append("a1"))
        ctl.drain()
        assert ctl.order.fault is not None and acked == []  # on main: acknowledged on arrival
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    ctl.drain()
    notes = [r.body for r in j.rows() if r.kind == "note" and "command" in r.body]
    j.close()
    assert [n["command"]["id"] for n in notes] == ["a1"] and acked == ["a1"]


def test_a_refused_command_is_journaled_then_acknowledged(tmp_path: Path) -> None:
    ctl, j, commands = _table(tmp_path)
    acked: list[str] = []
    commands("bid", {}, "payload is not JSON (Expecting value at column 1)", lambda: acked.append("x"))
    commands("result", {"table": "t1", "by": "ann", "id": "r9", "result": {"makers": "NS", "tricks": 9}}, "",
             lambda: acked.append("r9"))
    ctl.drain()
    refused = [r.body for r in j.rows() if r.kind == "note" and "refused" in r.body]
    j.close()
    assert [r["refused"] for r in refused][0] == "payload is not JSON (Expecting value at column 1)"
    assert "9 tricks" in refused[1]["refused"] and refused[1]["command"]["id"] == "r9"
    assert acked == ["x", "r9"]


def test_a_checkpoint_carries_the_ids_so_a_restart_need_not_search_before_it(tmp_path: Path) -> None:
    from firmware_host.table.controller import LawInput

    ctl, j, commands = _table(tmp_path)
    ctl.engine.state.next_dealer = Seat.N
    for e in euchre_known_deal(Seat.N, {s.value: c for s, c in HANDS.items()}, "7S"):
        ctl.process(LawInput(e, "script"))
    commands("bid", BID)
    ctl.drain()
    ctl.checkpoint(force=True)  # the bid's row is before the checkpoint now
    j.close()
    searched: list[int] = []
    real = Journal.rows_with

    def spy(self: Journal, keys: tuple[str, ...], kinds: tuple[str, ...] = ("note",), since: int = 0) -> Any:
        searched.append(since)
        return real(self, keys, kinds, since)

    Journal.rows_with = spy  # type: ignore[method-assign]
    try:
        ctl, j, commands = _table(tmp_path)
    finally:
        Journal.rows_with = real  # type: ignore[method-assign]
    try:
        assert searched and min(searched) > 0  # only the rows after the checkpoint were searched
        commands("bid", BID)
        ctl.drain()
        assert len(_bids(j)) == 1
    finally:
        j.close()
