"""An event on a real Mosquitto with real headless Chromium: four teams' tables send their results as a
duplicate table does (the wire's ``board`` message); the moment the round's last result is committed,
the next round's draw is on every table's retained seating topic, on the director's page and on each
table's page. A resend is a repeat, a bad message is refused with its reason and journaled, and a
restart rebuilds the same event from its journal."""

from __future__ import annotations

import json
import secrets
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.events.desk import EventDesk
from firmware_host.events.session import EventSession
from firmware_host.session.roster import ROSTER_FILE
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS
from laws.competition.event_spec import EventKind, EventSpec
from laws.competitors import team
from tests.club.conftest import _need
from tests.events.service_harness import EventService

TABLES = ("t-a", "t-b", "t-c", "t-d")


class Tables:
    """One MQTT login a club table, publishing ``board`` messages as a duplicate table does."""

    def __init__(self, port: int, passwords: dict[str, str]) -> None:
        import paho.mqtt.client as mqtt

        self.clients = {}
        self.seq = dict.fromkeys(TABLES, 0)
        for t in TABLES:
            c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=t)
            c.username_pw_set(t, passwords[t])
            c.connect("127.0.0.1", port)
            c.loop_start()
            self.clients[t] = c

    def send(self, table: str, rnd: int, board: int, contract: str, declarer: str | None, tricks: int,
             *, seq: int | None = None, number: int | None = None) -> None:
        if seq is None:
            self.seq[table] += 1
            seq = self.seq[table]
        body = {"section": "A", "table_number": number or TABLES.index(table) + 1, "round": rnd, "board": board,
                "ns": "home", "ew": "away", "contract": contract, "declarer": declarer, "lead": None, "tricks": tricks,
                "auction": [], "play": [], "record": "", "verified": False, "foul": None, "confirmed": {"ns": "N", "ew": "E"}}
        env = {"table": table, "kind": "board", "seq": seq, "deal": 0, "secret": False, "t": time.time(), "body": body}
        self.clients[table].publish(TOPICS.board(table), json.dumps(env), qos=1).wait_for_publish(10)

    def close(self) -> None:
        for c in self.clients.values():
            c.disconnect()
            stop_loop(c)


class Seatings:
    """A watcher of the tables' retained seating topics."""

    def __init__(self, port: int, password: str) -> None:
        import paho.mqtt.client as mqtt

        self.last: dict[str, dict[str, Any]] = {}
        self.cond = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="watch-event")
        self.client.username_pw_set("watcher", password)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(TOPICS.seating("+"), qos=1)
        self.client.on_message = self._on
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on(self, client: Any, userdata: Any, msg: Any) -> None:
        with self.cond:
            self.last[msg.topic.rsplit("/", 1)[1]] = json.loads(msg.payload)
            self.cond.notify_all()

    def wait(self, pred: Any, timeout: float = 60.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: pred(self.last), timeout)


@pytest.fixture
def club(tmp_path: Path) -> Any:
    _need("mosquitto", "mosquitto")
    passwords = {t: secrets.token_urlsafe(9) for t in TABLES} | {DASHBOARD_USER: "dash-pw-1", "watcher": "w-pw-1"}
    broker = LocalBroker(tmp_path / "broker", passwords, dashboards=(DASHBOARD_USER, "watcher"))
    broker.start()
    spec = EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2, name="Winter Swiss")
    session = EventSession.create(tmp_path / "event", spec, TABLES)
    service = EventService(session, "127.0.0.1", broker.port, DASHBOARD_USER, passwords[DASHBOARD_USER])
    service.start()
    assert service.connected.wait(60)
    tables = Tables(broker.port, passwords)
    seatings = Seatings(broker.port, passwords["watcher"])
    yield service, tables, seatings, tmp_path
    seatings.client.disconnect()
    stop_loop(seatings.client)
    tables.close()
    service.stop()
    session.close()
    broker.stop()


def _text(driver: Any, element_id: str) -> str:
    """An element's text read in one script (the page redraws itself: no element is held across it)."""
    return str(driver.execute_script(
        f"const e = document.getElementById({element_id!r}); return e ? e.textContent : '';"))


def _round1_but_one(tables: Tables) -> None:
    # Round 1: 1 v 3 (tables t-a open, t-b closed), 2 v 4 (t-c, t-d); boards 1 and 2.
    tables.send("t-a", 1, 1, "4S", "N", 10)
    tables.send("t-b", 1, 1, "4S", "N", 9)
    tables.send("t-a", 1, 2, "3NT", "E", 9)
    tables.send("t-b", 1, 2, "3NT", "E", 9)
    tables.send("t-c", 1, 1, "Pass", None, 0)
    tables.send("t-d", 1, 1, "2H", "S", 8)
    tables.send("t-c", 1, 2, "1NT", "N", 7)


def test_the_next_draw_is_on_every_topic_and_page_when_the_last_result_is_in(club: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import chromium, missing

    service, tables, seatings, tmp = club
    why = missing()
    if why:
        pytest.skip(why)
    assert service.session.event.draws[1].matches == ((team(1), team(3)), (team(2), team(4)))
    _round1_but_one(tables)
    assert seatings.wait(lambda last: len(last.get("t-c", {}).get("answers", [])) == 2)
    assert seatings.last["t-a"]["round"] == 1
    with tempfile.TemporaryDirectory() as profile_a, tempfile.TemporaryDirectory() as profile_b:
        director, table_page = chromium(profile_a), chromium(profile_b)
        try:
            director.get(service.url + "/event")
            table_page.get(service.url + "/event/table/t-d")
            WebDriverWait(director, 60).until(lambda d: "Round 1 of 3" in _text(d, "round"))
            WebDriverWait(table_page, 60).until(lambda d: "Round 1 of 3" in _text(d, "round"))
            assert "1 v 3" in _text(director, "draw")
            tables.send("t-d", 1, 2, "1NT", "N", 8)   # the last result of round 1
            assert seatings.wait(lambda last: all(last.get(t, {}).get("round") == 2 for t in TABLES)), seatings.last
            second = tuple((x.number, y.number) for x, y in service.session.event.draws[2].matches)
            assert {frozenset(m) for m in second}.isdisjoint({frozenset((1, 3)), frozenset((2, 4))})
            (a, b), (c, d) = second
            WebDriverWait(director, 60).until(lambda d_: "Round 2 of 3" in _text(d_, "round"))
            assert f"{a} v {b}" in _text(director, "draw")
            assert f"{c} v {d}" in _text(director, "draw")
            WebDriverWait(table_page, 60).until(lambda d_: "Round 2 of 3" in _text(d_, "round"))
            # t-d is table 4: match 2's closed room, the second-named team North-South.
            assert f"N {d} S {d} E {c} W {c}" in _text(table_page, "seats")
            artifacts = Path(__file__).resolve().parents[1] / "artifacts"
            artifacts.mkdir(exist_ok=True)
            director.save_screenshot(str(artifacts / "event_director_round2.png"))
        finally:
            director.quit()
            table_page.quit()
    assert seatings.last["t-a"]["seat"]["north"] == a and seatings.last["t-d"]["seat"]["north"] == d


def test_repeat_refusal_and_restart(club: Any) -> None:
    service, tables, seatings, tmp = club
    tables.send("t-a", 1, 1, "4S", "N", 10)
    tables.send("t-a", 1, 1, "4S", "N", 10, seq=1)          # the same message again
    tables.send("t-a", 1, 5, "4S", "N", 10)                 # a board not in round 1
    tables.send("t-b", 1, 1, "4S", "N", 9, number=3)        # names another table than its own
    assert seatings.wait(lambda last: len(last.get("t-a", {}).get("answers", [])) == 3
                         and len(last.get("t-b", {}).get("answers", [])) == 1), (seatings.last, service.session.refusals)
    answers = [a["status"] for a in seatings.last["t-a"]["answers"]]
    assert answers == ["taken", "repeat", "refused"]
    assert "board 5 is not played at table 1 in round 1" in seatings.last["t-a"]["answers"][2]["why"]
    assert "names table 3, but t-b is table 2" in seatings.last["t-b"]["answers"][0]["why"]
    assert len(service.director()["refusals"]) == 2
    service.stop()
    service.session.close()
    again = EventSession.open(tmp / "event")
    assert again.event.results == service.session.event.results
    assert len(again.refusals) == 2 and "t-a:1" in again.sources
    again.close()
    service.session.journal = again.journal  # the fixture closes it again
    service.session.journal = EventSession.open(tmp / "event").journal


def test_cardtable_event_run_serves_the_pages_behind_the_director_s_login_and_stops_on_sigterm(
        tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    import httpx

    from firmware_host.club.broker import free_port
    from firmware_host.web.auth import hash_password

    def get(url: str) -> tuple[int, str, str]:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return r.status, r.geturl(), r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, url, exc.read().decode()

    _need("mosquitto", "mosquitto")
    passwords = {DASHBOARD_USER: "dash-pw-1"}
    broker = LocalBroker(tmp_path / "broker", passwords)
    broker.start()
    try:
        session = EventSession.create(tmp_path / "event", EventSpec(EventKind.INDIVIDUAL, 8, 7, 2, name="Ind"),
                                      ("x1", "x2"))
        session.close()
        (tmp_path / "pw").write_text("dash-pw-1\n")
        (tmp_path / "users").write_text(f"director:{hash_password('table-talk-1')}\n")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "event", "run", str(tmp_path / "event"),
                                 "--broker", f"127.0.0.1:{broker.port}", "--password-file", str(tmp_path / "pw"),
                                 "--users", str(tmp_path / "users"), "--http", f"127.0.0.1:{port}"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert f"{base}/event" in line, line
            deadline = time.monotonic() + 30     # the server binds after it says where it will be
            while True:
                try:
                    status, where, body = get(base + "/event")
                    break
                except (ConnectionError, urllib.error.URLError):
                    assert time.monotonic() < deadline and proc.poll() is None, "the pages never came up"
                    time.sleep(0.1)
            assert where.endswith("/login?next=/event") and "Ind" not in body            # the login first
            for path in ("/api/event/state", "/api/event/table/x2", "/event/table/x2"):
                status, _, body = get(base + path)
                assert status in (401, 404) and "seat" not in body and "Ind" not in body, (path, status)
            with httpx.Client(base_url=base, timeout=30) as client:
                refused = client.post("/login", data={"username": "director", "password": "wrong-horse-1"})
                assert "/login" in str(refused.url) or refused.status_code in (401, 403)
                assert client.get("/api/event/state").status_code == 401
                client.post("/login", data={"username": "director", "password": "table-talk-1"})
                state = client.get("/api/event/state")
                assert state.status_code == 200 and state.json()["kind"] == "individual"
                seat = next(t for t in state.json()["draws"][0]["tables"] if t["table"] == 2)
                assert (seat["north"], seat["south"], seat["east"], seat["west"]) == (2, 6, 4, 3)
        finally:
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    finally:
        broker.stop()


def test_cardtable_event_run_refuses_a_users_file_it_cannot_use(tmp_path: Path) -> None:
    import subprocess
    import sys

    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.INDIVIDUAL, 8, 7, 2), ("x1", "x2"))
    session.close()
    (tmp_path / "pw").write_text("x\n")
    (tmp_path / "users").write_text("director:not-a-hash\n")
    (tmp_path / "empty").write_text("# nobody yet\n")
    for users, words in (("users", "line 1"), ("empty", "has no login"), ("missing", "cannot read")):
        done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "event", "run", str(tmp_path / "event"),
                               "--password-file", str(tmp_path / "pw"), "--users", str(tmp_path / users)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_message_the_journal_cannot_take_is_held_and_taken_in_order_once_it_can(tmp_path: Path) -> None:
    import sqlite3

    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TABLES,
                                  synchronous="NORMAL")
    service = EventService(session, "127.0.0.1", 1, "nobody", "x")     # never started: no broker needed
    now = [100.0]
    service.ordering.clock = lambda: now[0]
    published: list[tuple[str, dict[str, Any]]] = []
    service.client.publish = lambda topic, payload, qos=0, retain=False: published.append(  # type: ignore[method-assign]
        (topic, json.loads(payload)))

    def message(table: str, seq: int, board: int, tricks: int) -> bytes:
        body = {"section": "A", "table_number": TABLES.index(table) + 1, "round": 1, "board": board, "ns": "1",
                "ew": "3", "contract": "4S", "declarer": "N", "lead": None, "tricks": tricks, "record": "",
                "verified": False, "confirmed": {"ns": "N", "ew": "E"}}
        return json.dumps({"table": table, "kind": "board", "seq": seq, "t": 1.0, "body": body}).encode()

    session.journal._conn.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(session.journal.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")                                     # another writer holds the lock
    service.offer(TOPICS.board("t-a"), message("t-a", 1, 1, 10))
    assert service.step() is False and service.ordering.waiting == 1 and published == []
    assert session.fault and session.event.results == {}                 # nothing taken, nothing answered
    service.offer(TOPICS.board("t-b"), message("t-b", 1, 1, 9))          # waits behind it
    now[0] += 0.1
    assert service.step() is False and service.ordering.waiting == 2
    other.execute("ROLLBACK")
    other.close()
    now[0] += 1.0
    assert service.step() is True and session.fault is None
    assert sorted(session.event.results) == [(1, 1, 1), (1, 2, 1)]
    answers = {topic: body["answers"] for topic, body in published}
    assert answers[TOPICS.seating("t-a")][0]["status"] == "taken"
    assert answers[TOPICS.seating("t-b")][0]["status"] == "taken"
    service.http.server_close()
    session.close()


def test_cardtable_event_run_gives_a_table_s_page_the_same_key_after_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key is made from the known-device key kept beside the users file (as `club dashboard` keeps
    it): a table's link, and the page its retained seating names, survive a restart."""
    import argparse
    import signal

    import firmware_host.club.dashboard as dashboard
    from firmware_host.commands.event import _run
    from firmware_host.web.auth import hash_password

    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.INDIVIDUAL, 8, 7, 2), ("x1", "x2"))
    session.close()
    (tmp_path / "pw").write_text("x\n")
    (tmp_path / "users").write_text(f"director:{hash_password('table-talk-1')}\n")
    keys: list[str] = []

    class Server:
        def __init__(self, dash: Any) -> None:
            self.dash = dash

        def run(self) -> None:
            keys.append(self.dash.event.desk.table_key("x1"))

    monkeypatch.setattr(dashboard, "serve", lambda dash, host, port: Server(dash))
    monkeypatch.setattr(signal, "signal", lambda *a: None)        # leave pytest's own SIGTERM alone
    args = argparse.Namespace(folder=str(tmp_path / "event"), broker="127.0.0.1:1", user="dashboard",
                              password_file=str(tmp_path / "pw"), http="127.0.0.1:0",
                              users=str(tmp_path / "users"))
    assert _run(args) == 0 and _run(args) == 0
    assert len(keys) == 2 and keys[0] == keys[1]
    assert (tmp_path / "users.device-key").exists()


def test_the_last_result_sends_every_table_s_message_again_saying_finished(tmp_path: Path) -> None:
    """Audit 69 F3: only the table that sent the event's last result was told it had finished; the others
    kept their retained seating with finished false (and an older version) while the API said finished."""
    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.SWISS_TEAMS, 4, 1, 1), TABLES,
                                  synchronous="NORMAL")
    service = EventService(session, "127.0.0.1", 1, "nobody", "x")     # never started: no broker needed
    published: dict[str, dict[str, Any]] = {}
    service.client.publish = lambda topic, payload, qos=0, retain=False: published.__setitem__(  # type: ignore[method-assign]
        topic, json.loads(payload))

    def message(table: str, tricks: int) -> bytes:
        body = {"section": "A", "table_number": TABLES.index(table) + 1, "round": 1, "board": 1, "ns": "1",
                "ew": "3", "contract": "4S", "declarer": "N", "lead": None, "tricks": tricks, "record": "",
                "verified": False, "confirmed": {"ns": "N", "ew": "E"}}
        return json.dumps({"table": table, "kind": "board", "seq": 1, "t": 1.0, "body": body}).encode()

    try:
        for table in TABLES:
            service.offer(TOPICS.board(table), message(table, 10))
            assert service.step() is True
        assert session.event.current == 2                                   # the one round complete
        for table in TABLES:
            view = published[TOPICS.seating(table)]
            assert view["finished"] is True and view["version"] == session.version, (table, view)
    finally:
        service.http.server_close()
        session.close()


def _answered(tmp_path: Path, body: dict[str, Any], seq: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The answer an event (its service never started: no broker needed) gives table t-a's board message
    ``body`` sent as ``seq``, and the director's refusals after it."""
    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TABLES,
                                  synchronous="NORMAL")
    service = EventService(session, "127.0.0.1", 1, "nobody", "x")
    published: dict[str, dict[str, Any]] = {}
    service.client.publish = lambda topic, payload, qos=0, retain=False: published.__setitem__(  # type: ignore[method-assign]
        topic, json.loads(payload))
    try:
        service.offer(TOPICS.board("t-a"), json.dumps({"table": "t-a", "kind": "board", "seq": seq, "t": 1.0,
                                                       "body": body}).encode())
        assert service.step() is True
        return published[TOPICS.seating("t-a")]["answers"][-1], service.desk.director()["refusals"]
    finally:
        service.http.server_close()
        session.close()


def test_a_refused_result_is_answered_with_its_seq_and_board(tmp_path: Path) -> None:
    """Audit 69 F8: a result refused for one field (its table number) was answered with source ``t-a:?``
    and no board, though its why named ``t-a:10``; the table could not match the refusal to its result."""
    body = {"section": "A", "table_number": 3, "round": 1, "board": 1, "ns": "1", "ew": "3", "contract": "4S",
            "declarer": "N", "lead": None, "tricks": 10, "record": "", "verified": False, "confirmed": {"ns": "N", "ew": "E"}}
    answer, refusals = _answered(tmp_path, body, 10)
    assert answer == {"source": "t-a:10", "board": 1, "status": "refused",
                      "why": "t-a:10: the result names table 3, but t-a is table 1", "kind": "board"}
    assert refusals[-1]["source"] == "t-a:10"


def test_an_event_answers_its_tables_as_a_pairs_session_does(tmp_path: Path) -> None:
    """An event's seatings' answers had no ``kind`` (a pairs session's have had one since abd0fbb): a table
    read a refused ``players`` message (its member cards) as a ``board`` message nobody could match, and
    member cards taken were answered too, which a pairs session answers with the names alone. A restart
    emptied every answer, where a pairs session reads them back from its journal."""
    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TABLES,
                                  synchronous="NORMAL")
    (tmp_path / "event" / ROSTER_FILE).write_text("1021,Ann Smith\n1045,Bob Jones\n1102,Cy Young\n", encoding="utf-8")
    published: dict[str, dict[str, Any]] = {}
    desk = EventDesk(session)
    desk.connect(lambda topic, payload, retain: published.__setitem__(topic, json.loads(payload)))
    body = {"section": "A", "table_number": 3, "round": 1, "board": 1, "ns": "1", "ew": "3", "contract": "4S",
            "declarer": "N", "lead": None, "tricks": 10, "record": "", "verified": False, "confirmed": {"ns": "N", "ew": "E"}}

    def cards(table: str, members: list[str], seq: int) -> bytes:
        return json.dumps({"table": table, "kind": "players", "seq": seq, "t": 1.0, "body": {
            "table_number": TABLES.index(table) + 1, "round": 1, "side": "ns", "pair": "-", "members": members}}).encode()

    desk.offer(TOPICS.board("t-a"), json.dumps({"table": "t-a", "kind": "board", "seq": 10, "t": 1.0, "body": body}).encode())
    desk.offer(TOPICS.table("t-a", "players"), cards("t-a", ["1021", "1045"], 11))   # taken: no answer
    desk.offer(TOPICS.table("t-b", "players"), cards("t-b", ["1102", "1021"], 12))   # 1021 plays for t-a's team
    desk.offer(TOPICS.table("t-c", "players"), cards("t-c", ["9999", "1045"], 13))   # not in the roster
    try:
        assert desk.step() is True
        answers = {t: published[TOPICS.seating(t)]["answers"] for t in ("t-a", "t-b", "t-c")}
        assert answers["t-a"] == [{"source": "t-a:10", "board": 1, "status": "refused", "kind": "board",
                                   "why": "t-a:10: the result names table 3, but t-a is table 1"}]
        [named], [unknown] = answers["t-b"], answers["t-c"]
        assert (named["source"], named["board"], named["status"], named["kind"]) == ("t-b:12", None, "refused", "players")
        assert "member 1021 (Ann Smith) already plays for" in named["why"]
        assert (unknown["source"], unknown["board"], unknown["status"], unknown["kind"]) == ("t-c:13", None, "refused", "players")
        assert "9999" in unknown["why"]
    finally:
        session.close()
    session = EventSession.open(tmp_path / "event", synchronous="NORMAL")
    published.clear()
    desk = EventDesk(session)
    desk.connect(lambda topic, payload, retain: published.__setitem__(topic, json.loads(payload)))
    try:
        desk.publish_all()
        assert {t: published[TOPICS.seating(t)]["answers"] for t in ("t-a", "t-b", "t-c")} == answers
    finally:
        session.close()


def test_an_event_refuses_a_seq_below_1_naming_seqs_rule(tmp_path: Path) -> None:
    """An event read ``seq`` -1 with any message's range (``t-a: seq must be a whole number 0 to ...``);
    a board message's seq is the table's journal row, from 1, and the reason says so."""
    from firmware_host.events.session import Unread, result_of

    body = {"section": "A", "table_number": 1, "round": 1, "board": 1, "ns": "1", "ew": "3", "contract": "4S",
            "declarer": "N", "lead": None, "tricks": 10, "record": "", "verified": False, "confirmed": {"ns": "N", "ew": "E"}}
    with pytest.raises(Unread, match=r"^t-a: seq \(the table's journal row, which counts from 1\) must be a whole "
                                     r"number 1 to 4611686018427387904, got -1$"):
        result_of("t-a", json.dumps({"table": "t-a", "kind": "board", "seq": -1, "t": 1.0, "body": body}).encode(), TABLES)


def test_a_pass_out_with_a_lead_is_refused_as_a_pairs_session_refuses_it(tmp_path: Path) -> None:
    """A pairs session and the federation refuse a passed-out board with an opening lead (one rule,
    ``passed_out_lead``); an event's result keeps no lead, so it took such a message with the lead dropped,
    a mistyped result taken as a pass-out. Refused and answered, in the session's words."""
    body = {"section": "A", "table_number": 1, "round": 1, "board": 1, "ns": "1", "ew": "3", "contract": "Pass",
            "declarer": None, "lead": "AS", "tricks": 0, "record": "", "verified": False,
            "confirmed": {"ns": "N", "ew": "E"}}
    answer, _ = _answered(tmp_path, body, 11)
    assert answer["status"] == "refused" and answer["board"] == 1, answer
    assert answer["why"] == "t-a:11: board 1: a passed-out board has no lead, got AS", answer


def test_a_result_played_from_another_record_is_refused_when_the_event_has_hand_records(tmp_path: Path) -> None:
    """An outside table found an event with hand records take (and score) a result whose ``record`` was not
    the event's board (a board misboarded from another set), where a pairs session refuses it. Refused now,
    answered with its seq and board; the event's own fingerprint, or none, is taken as before."""
    from tests.table.duptable import records

    recs = records(6, seed=3)
    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TABLES,
                                  synchronous="NORMAL", boards=tuple(recs.values()))
    service = EventService(session, "127.0.0.1", 1, "nobody", "x")
    published: dict[str, dict[str, Any]] = {}
    service.client.publish = lambda topic, payload, qos=0, retain=False: published.__setitem__(  # type: ignore[method-assign]
        topic, json.loads(payload))
    body = {"section": "A", "table_number": 1, "round": 1, "board": 1, "ns": "1", "ew": "3", "contract": "4S",
            "declarer": "N", "lead": None, "tricks": 10, "verified": False, "confirmed": {"ns": "N", "ew": "E"}}
    try:
        answers = []
        for seq, record in ((20, recs[2].fingerprint), (21, recs[1].fingerprint)):
            service.offer(TOPICS.board("t-a"), json.dumps({"table": "t-a", "kind": "board", "seq": seq, "t": 1.0,
                                                           "body": {**body, "record": record}}).encode())
            assert service.step() is True
            answers.append(published[TOPICS.seating("t-a")]["answers"][-1])
        wrong, right = answers
        assert (wrong["source"], wrong["board"], wrong["status"]) == ("t-a:20", 1, "refused"), wrong
        assert wrong["why"] == (f"t-a:20: board 1: the table played from a record that is not this event's board 1 "
                                f"(fingerprint {recs[2].fingerprint[:12]}..., the event's is {recs[1].fingerprint[:12]}...)")
        assert (right["source"], right["status"]) == ("t-a:21", "taken"), right
    finally:
        service.http.server_close()
        session.close()


def test_every_table_s_message_reaches_the_broker_in_the_order_it_was_made(tmp_path: Path) -> None:
    """A connection's messages (paho's thread: the dashboard sends every seating again on each) were made
    under the desk's lock but handed to the client after it, so one made before the director named a team
    could be sent after the naming's own and stay retained: the table kept the event as it was. The
    connection is held here between making its first message and sending it while the director names."""
    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TABLES,
                                  synchronous="NORMAL")
    desk = EventDesk(session)
    sent: list[tuple[str, dict[str, Any]]] = []
    made, go = threading.Event(), threading.Event()

    def publish(topic: str, body: str, retain: bool) -> None:
        if threading.current_thread().name == "reconnection" and not go.is_set():
            made.set()
            assert go.wait(30)
        sent.append((topic, json.loads(body)))

    desk.connect(publish)
    reconnection = threading.Thread(target=desk.publish_all, name="reconnection")
    reconnection.start()
    try:
        assert made.wait(30)                                # t-a's message: made, not yet sent
        director = threading.Thread(target=lambda: desk.director_record(
            {"type": "names", "competitor": 1, "name": "Hearts", "players": [], "by": "director"}))
        director.start()
        director.join(0.5)   # the naming is journaled; its messages wait for the one in hand (sent at once before)
    finally:
        go.set()
        reconnection.join(30)
    director.join(30)
    last = [m for topic, m in sent if topic == TOPICS.seating("t-a")][-1]
    assert session.event.names[1]["name"] == "Hearts"
    assert last["version"] == session.version, [(m["version"], m.get("names")) for t, m in sent
                                                if t == TOPICS.seating("t-a")]
    session.close()
