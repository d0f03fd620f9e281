"""An event on the club's director's server (``cardtable club dashboard --event``), real Mosquitto and
real headless Chromium: the director's page (behind the dashboard's login) and a table's page (opened
with the key its retained seating gives it) show the next round's draw from the very update that brings
the round's last result; no view they were ever sent has a round complete and the next one not drawn. A
page without a login (or with a wrong key) gets nothing of the event."""

from __future__ import annotations

import json
import secrets
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
from firmware_host.events.desk import EventDesk
from firmware_host.events.session import EventSession
from firmware_host.web.auth import hash_password
from firmware_host.wire.duplicate import players_body
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS
from laws.competition.event_spec import EventKind, EventSpec
from tests.club.conftest import _need
from tests.events.test_event_service import TABLES, Seatings, Tables, _round1_but_one

NAME = "Winter Swiss"


class Club:
    """Broker, the director's server carrying the event, the four tables and a seating watcher."""

    def __init__(self, tmp: Path) -> None:
        from firmware_host.club.dashboard import Dashboard, serve

        self.passwords = {t: secrets.token_urlsafe(9) for t in TABLES} | {DASHBOARD_USER: "dash-pw-1",
                                                                          "watcher": "w-pw-1"}
        self.broker = LocalBroker(tmp / "broker", self.passwords, dashboards=(DASHBOARD_USER, "watcher"))
        self.broker.start()
        spec = EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2, name=NAME)
        self.session = EventSession.create(tmp / "event", spec, TABLES, synchronous="NORMAL")
        self.desk = EventDesk(self.session)
        self.dash = Dashboard("127.0.0.1", self.broker.port, DASHBOARD_USER, self.passwords[DASHBOARD_USER],
                              {"director": hash_password("table-talk-1")}, event=self.desk)
        self.port = free_port()
        self.server = serve(self.dash, "127.0.0.1", self.port)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.seatings = Seatings(self.broker.port, self.passwords["watcher"])
        assert self.seatings.wait(lambda last: all("page" in last.get(t, {}) for t in TABLES))
        self.tables = Tables(self.broker.port, self.passwords)
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the director's server did not start"
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.seatings.client.disconnect()
        stop_loop(self.seatings.client)
        self.tables.close()
        self.server.should_exit = True
        self.thread.join(5)
        self.broker.stop()
        self.session.close()


@pytest.fixture
def club(tmp_path: Path) -> Any:
    _need("mosquitto", "mosquitto")
    c = Club(tmp_path)
    yield c
    c.stop()


def _text(driver: Any, element_id: str) -> str:
    return str(driver.execute_script(
        f"const e = document.getElementById({element_id!r}); return e ? e.textContent : '';"))


def _never_complete_undrawn(driver: Any) -> None:
    seen = driver.execute_script("return window.cardtableEventSeen;")
    assert seen, "the page was sent no view"
    for view in seen:   # the director's views: a round complete is never the last drawn while rounds remain
        if view["complete"] and view["round"] <= 3:
            assert not view["complete"][-1], f"a view with round {len(view['complete'])} complete and undrawn"


def test_the_next_draw_is_on_the_director_s_and_a_table_s_page_on_the_director_s_server(club: Club) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import chromium, missing

    if missing():
        pytest.skip(missing())
    _round1_but_one(club.tables)
    assert club.seatings.wait(lambda last: len(last.get("t-c", {}).get("answers", [])) == 2)
    page = club.seatings.last["t-b"]["page"]
    assert page.startswith("/event/table/t-b?key=")
    with tempfile.TemporaryDirectory() as pa, tempfile.TemporaryDirectory() as pb:
        director, table = chromium(pa), chromium(pb)
        try:
            director.get(club.url + "/event")
            assert director.current_url.endswith("/login?next=/event")          # the login first
            director.find_element(By.ID, "username").send_keys("director")
            director.find_element(By.ID, "password").send_keys("table-talk-1")
            director.find_element(By.ID, "login").click()
            WebDriverWait(director, 20).until(lambda d: "/login" not in d.current_url)
            director.get(club.url + "/event")
            table.get(club.url + page)                               # the table's key, no login
            WebDriverWait(director, 30).until(lambda d: _text(d, "round").startswith("Round 1 of 3"))
            WebDriverWait(table, 30).until(lambda d: _text(d, "round").startswith("Round 1 of 3"))
            assert "team 1" in _text(director, "standings") or "team 3" in _text(director, "standings")
            club.tables.send("t-d", 1, 2, "1NT", "N", 8)             # round 1's last result
            WebDriverWait(director, 30).until(lambda d: _text(d, "round").startswith("Round 2 of 3"))
            WebDriverWait(table, 30).until(lambda d: _text(d, "round").startswith("Round 2 of 3"))
            drawn = club.session.event.draws[2]
            shown = _text(director, "draw")
            for a, b in drawn.matches:
                assert f"{a} v {b}" in shown
            seat = next(t for t in drawn.tables if t.table == 2)
            assert (f"N {seat.north.number} S {seat.south.number} E {seat.east.number} W {seat.west.number}"
                    in _text(table, "seats"))
            _never_complete_undrawn(director)
            # the director's forms: a correction and a name, each on the page from the next update
            form = director.find_element(By.ID, "correct-form")
            for field, value in (("round", "1"), ("table", "1"), ("board", "1"), ("assigned", "+600"),
                                 ("why", "slow play")):
                form.find_element(By.NAME, field).send_keys(value)
            form.find_element(By.TAG_NAME, "button").click()
            WebDriverWait(director, 30).until(lambda d: "assigned +600 to North-South" in _text(d, "adjustments"))
            assert club.session.event.results[(1, 1, 1)].assigned == 600
            form = director.find_element(By.ID, "names-form")
            for field, value in (("competitor", "2"), ("name", "Hearts"), ("players", "Ann Lee, Bo Kim")):
                form.find_element(By.NAME, field).send_keys(value)
            form.find_element(By.TAG_NAME, "button").click()
            WebDriverWait(director, 30).until(lambda d: "Hearts (Ann Lee, Bo Kim)" in _text(d, "standings"))
            form = director.find_element(By.ID, "correct-form")                 # refused: the reason shown
            for field in form.find_elements(By.TAG_NAME, "input"):
                field.clear()
            for field, value in (("round", "3"), ("table", "1"), ("board", "5"), ("contract", "4S"),
                                 ("declarer", "N"), ("tricks", "10"), ("why", "x")):
                form.find_element(By.NAME, field).send_keys(value)
            form.find_element(By.TAG_NAME, "button").click()
            WebDriverWait(director, 30).until(lambda d: "round 3 is not drawn yet" in _text(d, "answer"))
            assert table.find_elements(By.ID, "correct-form") == []             # no forms on a table's page
        finally:
            director.quit()
            table.quit()


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.geturl(), r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, url, exc.read().decode()


def test_a_page_without_login_or_key_gets_nothing_of_the_event(club: Club) -> None:
    from tests.browser import chromium, missing

    key = club.seatings.last["t-a"]["page"].split("key=")[1]
    wrong = ("1" if key[0] == "0" else "0") + key[1:]
    for path in ("/api/event/state", "/event/events", "/event/table/t-a", "/event/table/t-a/events",
                 "/api/event/table/t-a", f"/event/table/t-a?key={wrong}", f"/event/table/t-b?key={key}",
                 f"/api/event/table/t-b?key={key}", "/event/table/nowhere?key=x"):
        status, _, body = _get(club.url + path)
        assert status in (401, 404), (path, status)
        assert NAME not in body and "draws" not in body and "seat" not in body, path
    status, where, body = _get(club.url + "/event")
    assert where.endswith("/login?next=/event") and NAME not in body
    status, _, body = _get(club.url + f"/api/event/table/t-a?key={key}")   # the right key: its own table
    assert status == 200 and json.loads(body)["table"] == "t-a"
    if missing():
        pytest.skip(missing())
    with tempfile.TemporaryDirectory() as pa:
        browser = chromium(pa)
        try:
            browser.get(club.url + "/event")
            assert browser.current_url.endswith("/login?next=/event") and NAME not in browser.page_source
            browser.get(club.url + "/event/table/t-a")
            assert NAME not in browser.page_source and "No such table page" in browser.page_source
        finally:
            browser.quit()


def _play_round(club: Club, rnd: int) -> None:
    """Every table's every board of round ``rnd``: the same 4S by North making 10 in both rooms."""
    draw = club.session.event.draws[rnd]
    for t in draw.tables:
        for board in draw.boards:
            club.tables.send(TABLES[t.table - 1], rnd, board, "4S", "N", 10)


def test_a_table_s_page_shows_its_results_in_its_boards_imps_its_refusals_and_the_end(club: Club) -> None:
    """Audit 69 F2: a table's page showed its round, boards, seats and names only, never the results it
    had sent, a board's IMPs once both rooms had played it, a refusal with its reason, nor that the event
    had finished ("Round 3 of 3: boards 5, 6" ever after)."""
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import chromium, missing
    from tests.events.test_event_screens import _at_width

    if missing():
        pytest.skip(missing())
    club.tables.send("t-a", 1, 1, "4S", "N", 10)       # t-a is match 1's open room, t-b its closed room
    club.tables.send("t-b", 1, 1, "4S", "N", 9)
    club.tables.send("t-a", 1, 2, "3NT", "N", 9, number=3)     # refused: t-a is table 1
    # its member cards naming table 3: refused too, and labelled so on the page (it read as a result's)
    cards = players_body(section="A", table_number=3, round=1, side="ns", pair="1", members=["1021", "1045"])
    env = {"table": "t-a", "kind": "players", "seq": 3, "prev": 2, "deal": 0, "secret": False, "t": time.time(),
           "body": cards}
    club.tables.seq["t-a"] = 3
    club.tables.clients["t-a"].publish(TOPICS.table("t-a", "players"), json.dumps(env), qos=1).wait_for_publish(10)
    assert club.seatings.wait(lambda last: len(last.get("t-a", {}).get("answers", [])) == 3)
    with tempfile.TemporaryDirectory() as folder:
        table = chromium(folder)
        try:
            _at_width(table, 360)
            table.get(club.url + club.seatings.last["t-a"]["page"])
            WebDriverWait(table, 30).until(lambda d: _text(d, "entered") != "")
            assert _text(table, "round") == "Round 1 of 3: boards 1, 2"
            assert _text(table, "entered") == "Results in: boards 1"
            assert _text(table, "released") == "Board 1: home 10 IMPs, away -10 IMPs"   # 420 v -50
            answers = _text(table, "answers")
            assert "t-a:1, board 1: taken" in answers
            assert "t-a:2, board 2: refused: t-a:2: the result names table 3, but t-a is table 1" in answers, answers
            assert "t-a:3, member cards: refused: t-a:3: the players name table 3, but t-a is table 1" in answers, answers
            over = table.execute_script("return document.documentElement.scrollWidth;") - 360
            assert over <= 0, f"the table's page scrolls sideways by {over} px at 360 px"
            club.tables.send("t-a", 1, 2, "3NT", "N", 9)
            club.tables.send("t-b", 1, 2, "3NT", "N", 9)
            club.tables.send("t-c", 1, 1, "4S", "N", 10)
            club.tables.send("t-c", 1, 2, "4S", "N", 10)
            club.tables.send("t-d", 1, 1, "4S", "N", 10)
            club.tables.send("t-d", 1, 2, "4S", "N", 10)
            assert club.seatings.wait(lambda last: last.get("t-a", {}).get("round") == 2)
            _play_round(club, 2)
            assert club.seatings.wait(lambda last: last.get("t-a", {}).get("round") == 3)
            _play_round(club, 3)
            WebDriverWait(table, 30).until(lambda d: _text(d, "round").startswith("Finished"))
            assert _text(table, "round") == ("Finished: all 3 rounds are complete (the last, round 3: boards "
                                             + ", ".join(map(str, club.session.event.draws[3].boards)) + ")")
            assert _text(table, "entered") == "Results in: boards " + ", ".join(
                map(str, club.session.event.draws[3].boards))
        finally:
            table.quit()
