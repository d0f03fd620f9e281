"""The real duplicate table on the club's link, through a real Mosquitto and the club's session service:
its seating journaled and used (the round's boards with their records), each board played, checked and
confirmed at the table, its result taken by the session once; a misboarded board's foul reaching the
session with its first wrong card; a result confirmed just before the table stopped sent again by the
restarted table, and taken once."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.session.broker_client import SessionService
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.table.controller import TableController
from firmware_host.table.duplicate import DuplicateProcedure
from firmware_host.tablelink.duplicate_results import DuplicateResults, connect
from firmware_host.tablelink.publisher import MqttPublisher
from laws.cards import Seat
from laws.games.duplicate_board import board_of
from tests.duplicate.sessionkit import make_setup
from tests.table.duptable import bid, confirm, play, swapped
from tests.table.test_controller import Clock

from .conftest import _need

SPEC = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}
PASSWORDS = {DASHBOARD_USER: "dash-pw-1", "table-01": "t1-pw", "table-02": "t2-pw", "table-03": "t3-pw"}


def _until(pred: Any, ctl: TableController | None = None, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ctl is not None:
            ctl.drain()
        if pred():
            return True
        time.sleep(0.02)
    return False


class RealTable:
    def __init__(self, folder: Path, port: int, records: dict) -> None:
        self.journal = Journal.open(folder, synchronous="NORMAL")
        self.ctl = TableController(game="duplicate-bridge", journal=self.journal, panel=None, clock=Clock(),
                                   table_id="table-02")
        self.pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=port), "table-02", self.journal,
                                 password=PASSWORDS["table-02"])
        self.results = connect(DuplicateResults(self.ctl, self.pub), self.ctl, self.pub)
        self.proc = DuplicateProcedure(self.ctl, records, None, "board", source="session")
        self.proc.resume()
        self.pub.start()

    def stop(self) -> None:
        self.pub.stop()
        self.journal.close()


@pytest.fixture
def club(tmp_path: Path) -> Any:
    _need("mosquitto", "mosquitto")
    broker = LocalBroker(tmp_path / "broker", PASSWORDS)
    broker.start()
    setup = make_setup(SPEC)
    desk = SessionDesk(Session.create(tmp_path / "session", setup, analyse=False, synchronous="NORMAL"))
    service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], tick=0.02)
    service.start()
    assert service.connected.wait(10)
    yield broker, desk, setup
    service.stop()
    broker.stop()


def test_a_real_table_plays_its_round_from_the_session_and_the_session_takes_each_result(club, tmp_path) -> None:
    broker, desk, setup = club
    records = {b.number: b for b in setup.boards}
    t = RealTable(tmp_path / "table-02", broker.port, records)
    try:
        assert _until(lambda: board_of(t.ctl.engine.state) is not None, t.ctl)
        b = board_of(t.ctl.engine.state)
        assert (b.number, b.table, b.round, b.ns, b.ew, b.section) == (3, 2, 1, "2 NS", "2 EW", "A")
        rng = random.Random(3)
        bid(t.ctl, records[3], "1NT pass pass pass")
        play(t.ctl, records[3].deal, rng)
        confirm(t.ctl, Seat.N, Seat.E)
        assert _until(lambda: "3/2 NS/2 EW" in desk.session.state.entries, t.ctl)
        assert board_of(t.ctl.engine.state).number == 4                 # the next board of the round
        held = swapped(records[4].deal, Seat.N, Seat.E)
        bid(t.ctl, records[4], "1NT pass pass pass")
        out = play(t.ctl, held, rng)
        assert len([r for r in out if r.clause == "DB-87"]) == 1
        confirm(t.ctl, Seat.S, Seat.W)
        assert _until(lambda: "4/2 NS/2 EW" in desk.session.state.entries, t.ctl)
        e3, e4 = desk.session.state.entries["3/2 NS/2 EW"], desk.session.state.entries["4/2 NS/2 EW"]
        assert e3.verified is True and e3.foul is None and e3.record == records[3].fingerprint
        assert e4.verified is False and e4.foul is not None and set(e4.foul["seats"]) == {"N", "E"}
        notes = [r.body for r in t.journal.rows() if r.kind == "note" and "session" in r.body]
        assert notes and notes[0]["session"]["kind"] in ("round", "seating")
        assert t.results.sent == 2
    finally:
        t.stop()


def test_a_result_confirmed_before_a_stop_is_sent_again_and_taken_once(club, tmp_path) -> None:
    broker, desk, setup = club
    records = {b.number: b for b in setup.boards}
    folder = tmp_path / "table-02"
    t = RealTable(folder, broker.port, records)
    try:
        assert _until(lambda: board_of(t.ctl.engine.state) is not None, t.ctl)
        broker.stop()                                                   # the club's link goes down
        bid(t.ctl, records[3], "2S pass pass pass")
        play(t.ctl, records[3].deal, random.Random(4))
        confirm(t.ctl, Seat.N, Seat.E)
    finally:
        t.stop()                                                        # and the table stops
    broker.start()
    again = RealTable(folder, broker.port, records)
    try:
        assert _until(lambda: "3/2 NS/2 EW" in desk.session.state.entries, again.ctl, timeout=30)
        entry = desk.session.state.entries["3/2 NS/2 EW"]
        assert entry.contract == "2S" and entry.declarer == "S"
        assert board_of(again.ctl.engine.state).number == 4
    finally:
        again.stop()


class _Pub:
    def __init__(self) -> None:
        self.sent: list[tuple[dict, int]] = []
        self.cb: Any = None

    def on_session(self, cb: Any) -> None:
        self.cb = cb

    def board_result(self, body: dict, seq: int, deal: int = 0) -> None:
        self.sent.append((body, seq))


def test_a_result_left_unanswered_is_sent_again_with_a_row_of_its_own_and_forgotten_once_answered(tmp_path) -> None:
    from firmware_host.table.controller import SessionInput
    from firmware_host.table.duplicate import TableRound
    from tests.table.duptable import records, table

    recs = records(2, seed=5)
    ctl, _p, j = table(tmp_path, recs, TableRound("A", 2, 1, "2 NS", "2 EW", (1, 2)))
    bid(ctl, recs[1], "1NT pass pass pass")
    play(ctl, recs[1].deal, random.Random(1))
    confirm(ctl, Seat.N, Seat.E)                      # confirmed while no results publisher ran (a kill)
    clock = [100.0]
    pub = _Pub()
    res = connect(DuplicateResults(ctl, pub, clock=lambda: clock[0]), ctl, pub)  # as the restarted table builds it
    assert list(res.unanswered) == [(1, 1)] and pub.sent == []
    seating = {"kind": "seating", "table": "t2", "section": "A", "table_number": 2, "round": 1, "called": 1,
               "rounds": 3, "seq": 1, "t": 0.0, "ns": "2 NS", "ew": "2 EW",
               "boards": [{"board": 1, "record": recs[1].fingerprint}, {"board": 2, "record": recs[2].fingerprint}],
               "left": [1, 2], "answers": []}
    ctl.process(SessionInput(seating))
    (body, seq), = pub.sent
    assert body["board"] == 1 and body["confirmed"] == {"ns": "N", "ew": "E"} and body["verified"] is True
    assert any(r.seq == seq and "board_result_again" in r.body for r in j.rows())
    clock[0] += 1.0
    ctl.process(SessionInput(seating))
    assert len(pub.sent) == 1                          # not again before RESEND_AFTER
    clock[0] += 5.0
    ctl.process(SessionInput(seating | {"left": [2], "answers": [{"board": 1, "status": "taken"}]}))
    assert len(pub.sent) == 1 and res.unanswered == {}
    j.close()
