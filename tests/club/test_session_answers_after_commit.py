"""A result is answered only once the session committed it, and the table sends it again until then
(issue 28, item 3), through a real Mosquitto, a real duplicate table (controller, journal, publisher,
``DuplicateResults``) and the session's own client: the session killed between receiving a result and
committing it, and restarted at once; the session's journal locked while a result arrives. The
dashboard's duplicate session commits off the asyncio loop."""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.club.duplicate_service import SessionService
from firmware_host.duplicate.desk import SessionDesk
from firmware_host.duplicate.session import Session
from laws.cards import Seat
from laws.games.duplicate_board import board_of
from tests.duplicate.sessionkit import make_setup
from tests.table.duptable import bid, confirm, play

from .conftest import _need
from .test_duplicate_real_table import PASSWORDS, SPEC, RealTable, _until


@pytest.fixture
def room(tmp_path: Path) -> Any:
    _need("mosquitto", "mosquitto")
    broker = LocalBroker(tmp_path / "broker", PASSWORDS)
    broker.start()
    yield broker, make_setup(SPEC)
    broker.stop()


def _service(desk: SessionDesk, broker: LocalBroker, tick: float) -> SessionService:
    service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], tick=tick)
    service.start()
    assert service.connected.wait(10)
    return service


def _confirm_board_3(t: RealTable, records: dict) -> None:
    assert _until(lambda: board_of(t.ctl.engine.state) is not None, t.ctl)
    bid(t.ctl, records[3], "1NT pass pass pass")
    play(t.ctl, records[3].deal, random.Random(3))
    confirm(t.ctl, Seat.N, Seat.E)


def test_a_result_received_by_a_session_killed_before_its_commit_is_sent_again_and_taken(room: Any,
                                                                                       tmp_path: Path) -> None:
    broker, setup = room
    records = {b.number: b for b in setup.boards}
    desk = SessionDesk(Session.create(tmp_path / "session", setup, analyse=False, synchronous="NORMAL"))
    service = _service(desk, broker, tick=3600.0)       # it receives (and the broker is told) but never commits
    t = RealTable(tmp_path / "table-02", broker.port, records)
    try:
        _confirm_board_3(t, records)
        assert _until(lambda: desk.ordering.waiting == 1, t.ctl)
        # killed: the process is gone with what it held in memory; nothing reached its journal
        service._stop.set()
        service.client.loop_stop()
        service.client.socket().close()
        desk.session.close()
        again = SessionDesk(Session.open(tmp_path / "session", analyse=False, synchronous="NORMAL"))
        assert again.session.state.entries == {}
        restarted = _service(again, broker, tick=0.02)   # at once: it republishes every seating on connecting
        try:
            assert _until(lambda: "3/2 NS/2 EW" in again.session.state.entries, t.ctl, timeout=20), \
                "the table never sent again a result the session had received but not committed"
            assert _until(lambda: not t.results.unanswered, t.ctl)
        finally:
            restarted.stop()
    finally:
        t.stop()


def test_a_result_that_arrives_while_the_sessions_journal_is_locked_is_taken_once_it_is_free(room: Any,
                                                                                             tmp_path: Path) -> None:
    broker, setup = room
    records = {b.number: b for b in setup.boards}
    desk = SessionDesk(Session.create(tmp_path / "session", setup, analyse=False, synchronous="NORMAL"))
    desk.session.journal._conn.execute("PRAGMA busy_timeout = 100")   # SQLite's 10 s, shortened for the test
    service = _service(desk, broker, tick=0.02)
    t = RealTable(tmp_path / "table-02", broker.port, records)
    other = sqlite3.connect(desk.session.journal.path, isolation_level=None)
    try:
        assert _until(lambda: t.results.publisher.connected and board_of(t.ctl.engine.state) is not None, t.ctl)
        other.execute("BEGIN IMMEDIATE")                 # another process holds the session journal's write lock
        _confirm_board_3(t, records)
        assert _until(lambda: desk.fault is not None, t.ctl)
        assert desk.session.state.entries == {} and t.results.unanswered   # not answered: not committed
        other.execute("ROLLBACK")
        assert _until(lambda: "3/2 NS/2 EW" in desk.session.state.entries, t.ctl, timeout=20)
        assert _until(lambda: not t.results.unanswered, t.ctl)
        assert desk.fault is None and len(desk.session.state.entries) == 1
    finally:
        other.close()
        t.stop()
        service.stop()


def test_the_dashboards_session_commits_off_the_event_loop(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from firmware_host.club.auth import hash_password
    from firmware_host.club.broker import free_port
    from firmware_host.club.dashboard import Dashboard

    desk = SessionDesk(Session.create(tmp_path / "session", make_setup(SPEC), analyse=False, synchronous="NORMAL"))
    threads: list[str] = []
    real = desk.session.submit

    def submit(records: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(records)

    desk.session.submit = submit  # type: ignore[method-assign]
    d = Dashboard("127.0.0.1", free_port(), "dashboard", "pw", {"director": hash_password("pw-1")}, duplicate=desk)
    with TestClient(d.app, base_url="http://club.test"):
        loop_thread: list[str] = []
        d.hub.tickers.append(lambda: loop_thread.append(threading.current_thread().name))
        desk.offer("cardtable/table-02/board", b"not json")
        assert _until(lambda: bool(threads) and bool(loop_thread))
    assert threads and loop_thread and threads[0] != loop_thread[0], (threads, loop_thread)
    desk.session.close()
