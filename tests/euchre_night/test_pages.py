"""The night on a real Mosquitto with its pages: a table's hand over the broker reaches the pages' event
stream, the table's retained seating answers it, the next round's seats are there the moment a round
ends, the director's call needs his token, and the pages draw in a real headless Chromium."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.euchre_night.pages import NightPages
from firmware_host.euchre_night.service import NightService
from firmware_host.euchre_night.session import NightSession
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS
from tests.club.conftest import _need
from tests.euchre_night.test_session import hand, setup

USERS = {DASHBOARD_USER: "dash-pw", "table-01": "t1-pw", "table-02": "t2-pw"}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[dict[str, Any]]:
    _need("mosquitto", "mosquitto")
    broker = LocalBroker(tmp_path / "broker", USERS)
    broker.start()
    session = NightSession.create(tmp_path / "night", setup())
    service = NightService(session, "127.0.0.1", broker.port, DASHBOARD_USER, USERS[DASHBOARD_USER])
    pages = NightPages(service, token="tok-123")
    pages.start()
    service.page = pages.address
    service.start()
    assert service.connected.wait(10)
    try:
        yield {"broker": broker, "session": session, "service": service, "pages": pages}
    finally:
        pages.stop()
        service.stop()
        session.close()
        broker.stop()


class Table:
    """An MQTT client with a table's login: publishes hands, reads its own seating."""

    def __init__(self, port: int, tid: str) -> None:
        import paho.mqtt.client as mqtt

        self.tid = tid
        self.seatings: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=tid)
        self.client.username_pw_set(tid, USERS[tid])
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(TOPICS.seating(tid), qos=1)
        self.client.on_message = self._on
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on(self, client: Any, userdata: Any, msg: Any) -> None:
        with self.cond:
            self.seatings.append(json.loads(msg.payload))
            self.cond.notify_all()

    def send(self, body: dict[str, Any], seq: int) -> None:
        env = {"table": self.tid, "kind": "hand", "seq": seq, "deal": 1, "secret": False, "t": time.time(), "body": body}
        self.client.publish(TOPICS.table(self.tid, "hand"), json.dumps(env), qos=1)

    def wait(self, pred: Any, timeout: float = 30.0) -> dict[str, Any]:
        """The latest seating that satisfies ``pred``, once one has come (``timeout``: a bound on a wedged
        night, not a guess at its speed); failing, what the table had been told."""
        with self.cond:
            assert self.cond.wait_for(lambda: any(pred(s) for s in self.seatings), timeout), self.said()
            return next(s for s in reversed(self.seatings) if pred(s))

    def said(self) -> str:
        """What the table has been told so far, for a failure's message."""
        with self.cond:
            if not self.seatings:
                return f"{self.tid}: no seating came (the night's client never published one)"
            last = self.seatings[-1]
            answers = [(a.get("source"), a.get("status")) for a in last.get("answers", [])]
            return (f"{self.tid}: {len(self.seatings)} seating(s) came, the last: round {last.get('round')}, "
                    f"called {last.get('called')}, answers {answers}")

    def send_until(self, body: dict[str, Any], seq: int, pred: Any, timeout: float = 60.0) -> dict[str, Any]:
        """Send a hand as a table does, again (the same ``seq``: a repeat) until a seating satisfies ``pred``:
        the director's server publishes its seatings as it connects, before its subscription to the
        tables' hands is in place, so a hand sent as the first seating arrives can be lost."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                self.send(body, seq)
                if self.cond.wait_for(lambda: any(pred(s) for s in self.seatings),
                                      min(5.0, max(0.0, deadline - time.monotonic()))):
                    return next(s for s in reversed(self.seatings) if pred(s))
                assert time.monotonic() < deadline, f"{self.tid}:{seq} sent until {timeout} s: {self.said()}"

    def close(self) -> None:
        stop_loop(self.client)
        self.client.disconnect()


def events(url: str, want: Any, timeout: float = 10.0) -> dict[str, Any]:
    """Read the pages' event stream until a view satisfies ``want``."""
    deadline = time.monotonic() + timeout
    with urllib.request.urlopen(url + "/events", timeout=timeout) as r:
        while time.monotonic() < deadline:
            line = r.readline().decode()
            if line.startswith("data: "):
                view = json.loads(line[6:])
                if want(view):
                    return view
    raise AssertionError("the stream never showed it")


def test_a_hand_over_the_broker_reaches_the_pages_and_is_answered(live: dict[str, Any]) -> None:
    n = live["session"].night
    url = live["pages"].address
    t1, t2 = Table(live["broker"].port, "table-01"), Table(live["broker"].port, "table-02")
    try:
        first = t1.wait(lambda s: s["round"] == 1)
        assert first["seats"]["N"] == {"player": 1, "name": "P1"} and first["page"] == f"{url}/table/table-01"
        t1.send(hand(n, 1, 1, tricks=5), 1)
        view = events(url, lambda v: v["hands_taken"] == 1)
        assert view["tables"][0]["ns"] == 2 and view["standings"][0]["points"] == "2"
        seating = t1.wait(lambda s: any(a["source"] == "table-01:1" for a in s["answers"]))
        assert seating["answers"][-1]["status"] == "taken"
        t1.send(hand(n, 1, 2), 2)
        t2.send(hand(n, 2, 1, makers="EW", tricks=5), 1)
        t2.send(hand(n, 2, 2, makers="EW", tricks=4), 2)
        view = events(url, lambda v: v["round"] == 2)
        assert [t["seats"]["N"]["player"] for t in view["tables"]] == [1, 5]   # the winners stay at the head; the foot's losers stay
        assert view["previous"][1]["ew"] == 3
        t2.wait(lambda s: s["round"] == 2 and s["seats"]["N"]["player"] == 5)
    finally:
        t1.close()
        t2.close()


def test_the_call_needs_the_directors_token(live: dict[str, Any]) -> None:
    url = live["pages"].address

    def post(token: str | None) -> tuple[int, str]:
        req = urllib.request.Request(url + "/call", method="POST", data=b"",
                                     headers={"X-Director-Token": token} if token else {})
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    assert post(None)[0] == 403 and post("wrong")[0] == 403
    assert post("tok-123") == (200, "called\n")
    assert post("tok-123") == (409, "round 1 has been called already\n")
    assert events(url, lambda v: v["called"])["called"] is True
    with urllib.request.urlopen(url + "/sheet.html", timeout=5) as r:
        assert "P8" in r.read().decode()
    with urllib.request.urlopen(url + "/standings.json", timeout=5) as r:
        assert json.loads(r.read())["format"] == "cardtable-euchre-standings/1"
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(url + "/nothing", timeout=5)


def test_the_pages_draw_in_a_real_browser(live: dict[str, Any], tmp_path: Path) -> None:
    from tests.browser import chromium, missing

    if missing():
        pytest.skip(missing())
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    n = live["session"].night
    url = live["pages"].address
    t1 = Table(live["broker"].port, "table-01")
    driver = chromium(str(tmp_path / "profile"))
    try:
        driver.get(url + "/")
        WebDriverWait(driver, 15).until(lambda d: "P8" in d.find_element(By.ID, "standings").text)
        t1.send(hand(n, 1, 1, tricks=5), 1)
        WebDriverWait(driver, 15).until(lambda d: "1/2" in d.find_element(By.ID, "tables").text)
        assert "2.00" in driver.find_element(By.ID, "standings").text
        driver.get(url + "/table/table-02")
        WebDriverWait(driver, 15).until(lambda d: "N: P5" in d.find_element(By.ID, "tables").text)
        assert "N: P1" not in driver.find_element(By.ID, "tables").text
    finally:
        driver.quit()
        t1.close()


MARKUP = "<img src=x onerror=alert(77)>"


def test_every_value_is_drawn_as_text_under_a_policy_that_runs_only_our_own_script(live: dict[str, Any],
                                                                                 tmp_path: Path) -> None:
    """A renege's trick holding markup reached the pages, which built their tables with innerHTML and sent
    no Content-Security-Policy: Chromium ran the table's script on ``/`` and ``/table/table-01``. The pages
    now put every value with textContent, from our own script and style only (the night's check refuses
    such a hand; this draws a view carrying markup in every text field, as if one had got past it)."""
    from tests.browser import chromium, missing

    url = live["pages"].address
    for path in ("/", "/table/table-01", "/sheet.html", "/events"):
        req = urllib.request.urlopen(url + path, timeout=5)
        assert "script-src 'self'; style-src 'self'" in req.headers["Content-Security-Policy"], path
        if path != "/events":
            text = req.read().decode()
            assert "<style" not in text and all(' src=' in t for t in text.split("<script")[1:]), path
        req.close()
    with urllib.request.urlopen(url + "/static/sheet.css", timeout=5) as r:
        assert r.headers["Content-Type"].startswith("text/css") and b".n{text-align:right}" in r.read()
    if missing():
        pytest.skip(missing())
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chromium(str(tmp_path / "profile"))
    try:
        for path in ("/", "/table/table-01"):
            driver.get(url + path)
            WebDriverWait(driver, 15).until(lambda d: "P8" in d.find_element(By.ID, "standings").text)
            driver.execute_script("""
                const v = JSON.parse(arguments[0]), m = arguments[1];
                v.tables[0].reneges = [{hand: 1, seat: m, trick: m, law: m}];
                v.tables[0].seats.N.name = m; v.standings[0].shown = m; v.standings[0].place = m;
                v.out = [{name: m}];
                window.euchreNight.draw(v, document.body.dataset.table);""",
                json.dumps(json.loads(urllib.request.urlopen(url + "/state.json", timeout=5).read())), MARKUP)
            assert driver.find_elements(By.CSS_SELECTOR, "img") == []
            tables = driver.find_element(By.ID, "tables").text
            assert f"trick {MARKUP} ({MARKUP})" in tables and f"N: {MARKUP}" in tables and MARKUP in tables
            assert driver.find_element(By.ID, "standings").text.count(MARKUP) == 2
            renege = driver.find_element(By.CSS_SELECTOR, "#tables td.renege")
            assert renege.value_of_css_property("color") == "rgba(170, 0, 0, 1)"   # our stylesheet applies
        driver.get(url + "/sheet.html")
        cell = driver.find_element(By.CSS_SELECTOR, "td.n")
        assert cell.value_of_css_property("text-align") == "right"      # the sheet keeps its style
    finally:
        driver.quit()


LONG = "Bartholomew Alexander Fitzgerald-Worthingtonshire"       # a long name: 49 characters, one hyphen


def test_a_table_s_page_fits_a_phone_links_its_exports_and_says_when_its_server_is_gone(tmp_path: Path) -> None:
    """Audit 69 F4-F6: at 360 and 390 px the table's page scrolled sideways (the journal head's hash, the
    table, a long name); its three links were relative (``/table/sheet.html``: 404) and under 40 px tall;
    and nothing on it said when its server had gone away."""
    from dataclasses import replace

    from laws.euchre_night.night import Player
    from tests.browser import chromium, missing
    from tests.events.test_event_screens import _at_width

    if missing():
        pytest.skip(missing())
    from selenium.webdriver.support.ui import WebDriverWait

    _need("mosquitto", "mosquitto")
    broker = LocalBroker(tmp_path / "broker", USERS)
    broker.start()
    night = setup()
    night = replace(night, players=(Player(1, LONG),) + night.players[1:])
    session = NightSession.create(tmp_path / "night", night)
    service = NightService(session, "127.0.0.1", broker.port, DASHBOARD_USER, USERS[DASHBOARD_USER])
    pages = NightPages(service, token="tok-123")
    pages.start()
    service.start()
    url = pages.address
    driver = chromium(str(tmp_path / "profile"))
    try:
        assert service.connected.wait(10)
        for width in (360, 390):
            _at_width(driver, width)
            driver.get(url + "/table/table-01")
            WebDriverWait(driver, 15).until(lambda d: LONG in d.execute_script(
                "return document.getElementById('tables').textContent;"))
            assert "journal head " in driver.execute_script("return document.getElementById('head').textContent;")
            over = driver.execute_script("return document.documentElement.scrollWidth;") - width
            assert over <= 0, f"the table's page scrolls sideways by {over} px at {width} px"
            broken = driver.execute_script("""return [...document.querySelectorAll('th')].filter(th => {
                const r = document.createRange(); r.selectNodeContents(th); return r.getClientRects().length > 1;
            }).map(th => th.textContent);""")
            assert broken == [], f"column names broken over lines at {width} px: {broken}"
            links = driver.execute_script("""return [...document.querySelectorAll('#exports a')].map(a =>
                [a.href, a.getBoundingClientRect().height]);""")
            assert [h for h, _ in links] == [url + "/sheet.html", url + "/standings.json", url + "/hands.json"]
            assert all(height >= 40 for _, height in links), links
            WebDriverWait(driver, 15).until(lambda d: d.execute_script(
                "return document.getElementById('conn')?.textContent;") == "live")
        for href in (url + "/sheet.html", url + "/standings.json", url + "/hands.json"):
            with urllib.request.urlopen(href, timeout=5) as r:
                assert r.status == 200
        pages.stop()                                           # the server goes away: the page says so
        WebDriverWait(driver, 30).until(lambda d: d.execute_script(
            "return document.getElementById('conn').textContent;") == "reconnecting")
    finally:
        driver.quit()
        pages.stop()
        service.stop()
        session.close()
        broker.stop()


def test_idle_connections_from_one_address_hold_a_few_places_and_the_pages_still_answer(tmp_path: Path) -> None:
    """Attack p11: the night's pages need no login, and the standard library's server gave every connection
    a thread and a file for as long as the peer stayed; connections opened and left idle took every file of
    the process the night's journal lives in. One address now holds a few places and the rest are closed at
    once (``web.bounded``)."""
    import socket

    from firmware_host.web.bounded import PER_ADDRESS
    from tests.federation.test_page_attacks import _closed_by_server

    session = NightSession.create(tmp_path / "night", setup())
    service = NightService(session, "127.0.0.1", 9, DASHBOARD_USER, "x")     # never started: no broker needed
    pages = NightPages(service, token="tok-123")
    pages.start()
    port = int(pages.server.server_address[1])
    attacker = [socket.create_connection(("127.0.0.1", port)) for _ in range(PER_ADDRESS + 40)]
    try:
        assert _closed_by_server(attacker, 40) >= 40
        reader = socket.socket()
        reader.bind(("127.0.0.2", 0))
        reader.settimeout(30)
        reader.connect(("127.0.0.1", port))
        reader.sendall(b"GET /standings.json HTTP/1.0\r\n\r\n")
        got = b""
        while chunk := reader.recv(4096):
            got += chunk
        reader.close()
        assert got.startswith(b"HTTP/1.0 200"), got[:80]
    finally:
        for s in attacker:
            s.close()
        pages.stop()
