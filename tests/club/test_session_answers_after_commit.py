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
from firmware_host.session.broker_client import SessionService
from firmware_host.session.duplicate_session import Session, SessionDesk
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


SESSION_PROCESS = """
import sys, time
from firmware_host.session.broker_client import SessionService
from firmware_host.session.duplicate_session import SessionDesk
from firmware_host.session.duplicate_session import Session
desk = SessionDesk(Session.open(sys.argv[1], analyse=False, synchronous="NORMAL"))
service = SessionService(desk, "127.0.0.1", int(sys.argv[2]), sys.argv[3], sys.argv[4], tick=float(sys.argv[5]))
service.start()
assert service.connected.wait(10)
print("connected", flush=True)
while not desk.ordering.waiting:       # a table's result has arrived (the broker was told: PUBACK)
    time.sleep(0.005)
print("received", flush=True)
time.sleep(3600)
"""


def test_a_result_received_by_a_session_killed_before_its_commit_is_sent_again_and_taken(room: Any,
                                                                                       tmp_path: Path) -> None:
    import subprocess
    import sys

    broker, setup = room
    records = {b.number: b for b in setup.boards}
    Session.create(tmp_path / "session", setup, analyse=False, synchronous="NORMAL").close()
    # the session in a process of its own whose ticks are an hour apart: it receives, never commits
    proc = subprocess.Popen([sys.executable, "-c", SESSION_PROCESS, str(tmp_path / "session"), str(broker.port),
                             DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], "3600"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t = RealTable(tmp_path / "table-02", broker.port, records)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "connected", proc.stderr
        _confirm_board_3(t, records)
        assert proc.stdout.readline().strip() == "received"
        proc.kill()                                       # kill -9 right after the table sent it
        proc.wait(10)
        again = SessionDesk(Session.open(tmp_path / "session", analyse=False, synchronous="NORMAL"))
        assert again.session.state.entries == {}          # nothing of it reached the session's journal
        restarted = _service(again, broker, tick=0.02)   # at once: it republishes every seating on connecting
        try:
            assert _until(lambda: "3/2 NS/2 EW" in again.session.state.entries, t.ctl, timeout=20), \
                "the table never sent again a result the session had received but not committed"
            assert _until(lambda: not t.results.unanswered, t.ctl)
        finally:
            restarted.stop()
    finally:
        if proc.poll() is None:
            proc.kill()
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

    from firmware_host.club.broker import free_port
    from firmware_host.club.dashboard import Dashboard
    from firmware_host.web.auth import hash_password

    from .conftest import csrf, login

    desk = SessionDesk(Session.create(tmp_path / "session", make_setup(SPEC), analyse=False, synchronous="NORMAL"))
    commits: list[str] = []
    real = desk.session.journal.append_many

    def append_many(rows: Any) -> Any:
        commits.append(threading.current_thread().name)
        return real(rows)

    desk.session.journal.append_many = append_many  # type: ignore[method-assign]
    d = Dashboard("127.0.0.1", free_port(), "dashboard", "pw", {"director": hash_password("pw-1")}, duplicate=desk)
    with TestClient(d.app, base_url="http://club.test") as client:
        loop_thread: list[str] = []
        d.hub.tickers.append(lambda: loop_thread.append(threading.current_thread().name))
        desk.offer("cardtable/table-02/board", b"not json")          # a table's message: the hub's worker
        assert _until(lambda: bool(commits) and bool(loop_thread))
        assert login(client, "pw-1").status_code == 303
        answer = client.post("/api/duplicate/round", content=b"not json", headers={"x-csrf-token": csrf(client)})
        assert answer.status_code == 400 and len(commits) == 2        # a form refused: journaled, off the loop too
        assert client.get("/api/duplicate/state").status_code == 200
    assert loop_thread and loop_thread[0] not in commits, (commits, loop_thread)
    desk.session.close()
