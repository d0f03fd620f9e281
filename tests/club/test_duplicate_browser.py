"""The duplicate screens in headless Chromium at a phone's, a tablet's and a laptop's width: the director
sees the tables' progress, the travellers and the ranking fill in as the tables confirm, calls the next
round, sees the fouled-board call with its group, enters an adjusted score; a table's page shows its
pairs and only the travellers both its pairs may see (never one a pair seated there has still to play).
Nothing scrolls sideways; axe-core finds no serious or critical problem. Screenshots go to
tests/artifacts/ (not kept in git)."""

from __future__ import annotations

import random
import secrets
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.web.auth import hash_password
from tests.browser import chromium, missing
from tests.club.simduplicate import BoardRoom, SimDuplicateTable
from tests.duplicate.sessionkit import make_setup

from .conftest import _need
from .test_director_screen import ARTIFACTS, _axe

WIDTHS = (390, 800, 1366)
SPEC = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}


class Club:
    """Broker, the dashboard with a session, three simulated duplicate tables stepped by the test."""

    def __init__(self, tmp: Path) -> None:
        from firmware_host.club.dashboard import Dashboard, serve

        self.setup = make_setup(SPEC, seed=8)
        ids = list(self.setup.tables)
        self.passwords = {tid: secrets.token_urlsafe(9) for tid in ids} | {DASHBOARD_USER: "dash-pw-1"}
        self.broker = LocalBroker(tmp / "broker", self.passwords)
        self.broker.start()
        self.desk = SessionDesk(Session.create(tmp / "session", self.setup, analyse=True, synchronous="NORMAL"))
        self.dash = Dashboard("127.0.0.1", self.broker.port, DASHBOARD_USER, self.passwords[DASHBOARD_USER],
                              {"director": hash_password("table-talk-1")}, duplicate=self.desk)
        self.port = free_port()
        self.server = serve(self.dash, "127.0.0.1", self.port)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.room = BoardRoom({b.number: b for b in self.setup.boards})
        self.room.misboard(1, 2, 0, random.Random(3))   # board 1's copy is misboarded from round 2
        self.tables = []
        for i, tid in enumerate(ids):
            j = Journal.open(tmp / tid, synchronous="NORMAL")
            pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=self.broker.port), tid, j,
                                password=self.passwords[tid])
            t = SimDuplicateTable(tid, j, pub, self.room, random.Random(40 + i))
            t.start()
            self.tables.append(t)
        deadline = time.monotonic() + 20
        while not (self.server.started and all(t.seating for t in self.tables)):
            assert time.monotonic() < deadline, "the club did not start"
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def play_round(self, r: int) -> None:
        st = self.desk.session.state
        deadline = time.monotonic() + 20
        while not all(t.seating and t.seating["round"] == r for t in self.tables):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        while any(t.step() for t in self.tables):
            pass
        while any(st.movement.at(r, n) and st.unplayed_at(st.movement.at(r, n)) for n in range(1, 4)):
            assert time.monotonic() < deadline, "the results did not reach the session"
            time.sleep(0.02)

    def stop(self) -> None:
        for t in self.tables:
            t.stop()
        self.server.should_exit = True
        self.thread.join(5)
        self.broker.stop()
        self.desk.session.close()


@pytest.fixture
def club(tmp_path: Path) -> Any:
    _need("mosquitto", "mosquitto")
    if missing():
        pytest.skip(missing())
    c = Club(tmp_path)
    yield c
    c.stop()


def _browser(tmp_path: Path, width: int) -> Any:
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    driver.set_script_timeout(30)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


def _no_sideways_scroll(driver: Any, width: int) -> None:
    over = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth;")
    assert over <= 0, f"the page scrolls sideways by {over} px at {width} px"


def _table_page_leaks(club: Club, driver: Any, tid: str) -> list[int]:
    st = club.desk.session.state
    shown = set(driver.execute_script("return window.cardtableShownBoards;"))
    n = st.number_of[tid]
    seated = st.movement.at(st.table_round(n), n)
    return sorted(b for p in seated.pairs for b in shown & st.still_to_play(p))


def test_the_director_and_a_table_see_the_session_at_every_width(club: Club, tmp_path: Path) -> None:
    """The evening played at a phone's width (the narrowest, where most goes wrong), then both pages looked
    at again at each wider width: no sideways scroll, axe-core clean, a screenshot."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    width = WIDTHS[0]
    director, players = _browser(tmp_path, width), _browser(tmp_path, width)
    ignored = (NoSuchElementException, StaleElementReferenceException)
    try:
        director.get(club.url + "login")
        director.find_element(By.ID, "username").send_keys("director")
        director.find_element(By.ID, "password").send_keys("table-talk-1")
        director.find_element(By.ID, "login").click()
        wait = WebDriverWait(director, 20, ignored_exceptions=ignored)
        wait.until(lambda d: d.current_url == club.url and d.find_elements(By.ID, "queue"))  # logged in
        director.get(club.url + "duplicate")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#progress") and d.find_elements(By.CSS_SELECTOR, "#conn.live"))
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#progress li")) == 3)
        assert "Mitchell, 3 tables" in director.find_element(By.ID, "session-words").text
        tid = "table-02"
        players.get(club.url + f"duplicate/table/{tid}?key={club.desk.table_key(tid)}")
        pw = WebDriverWait(players, 20, ignored_exceptions=ignored)
        pw.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live"))
        assert "2 NS (A2 NS & B2 NS) v 2 EW (A2 EW & B2 EW)" in players.find_element(By.ID, "here").text   # names

        for r in (1, 2, 3):
            if r > 1:
                director.find_element(By.ID, "move").click()      # asks first
                director.find_element(By.ID, "move-yes").click()
                wait.until(lambda d, r=r: f"Round {r} of 3 called" in d.find_element(By.ID, "round-words").text)
            club.play_round(r)
            wait.until(lambda d: int(d.execute_script("return window.cardtableDupVersion;")) ==
                       club.desk.session.version)
            pw.until(lambda d, r=r: f"round {r} of" in d.find_element(By.ID, "title").text)
            time.sleep(0.3)  # the page's last update
            assert _table_page_leaks(club, players, tid) == []
        # docs/session.md: the director's page shows the session journal's head beside the commitment (it
        # was sent with the page's state but never shown)
        wait.until(lambda d: d.find_element(By.ID, "journal-head").text == club.desk.session.journal.read_head())
        shown = players.execute_script("return window.cardtableShownBoards;")
        assert shown, "after three rounds the table's pairs have played boards they may see"
        assert players.find_elements(By.CSS_SELECTOR, "#standing tr")

        # every traveller and the ranking; the fouled board's call with its group
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#travellers details.board")) == 6)
        assert len(director.find_elements(By.CSS_SELECTOR, "#rankings table")) == 2
        fouls = director.find_element(By.ID, "fouls").text
        assert "Board 1" in fouls and "Scored in group B" in fouls
        # an adjusted score entered on the page
        form = director.find_element(By.ID, "adjust")
        for name, value in (("board", "3"), ("ns", "1 NS"), ("ew", "3 EW"), ("ns_value", "60"), ("ew_value", "40"),
                            ("why", "slow play")):
            form.find_element(By.NAME, name).send_keys(value)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: d.find_element(By.ID, "entry-answer").text != "")
        assert director.find_element(By.ID, "entry-answer").text == "Done: line 3/1 NS/3 EW.", \
            director.find_element(By.ID, "entry-answer").text
        assert club.desk.session.state.entries["3/1 NS/3 EW"].kind == "artificial"
        ARTIFACTS.mkdir(exist_ok=True)
        for width in WIDTHS:
            for name, d in (("director", director), ("table", players)):
                if width != WIDTHS[0]:
                    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                      {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
                    d.refresh()
                    WebDriverWait(d, 20, ignored_exceptions=ignored).until(
                        lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live"))
                    time.sleep(0.3)  # the page's first update
                assert d.execute_script("return window.innerWidth") == width
                _no_sideways_scroll(d, width)
                d.save_screenshot(str(ARTIFACTS / f"duplicate-{width}-{name}.png"))
                bad = [v for v in _axe(d) if v["impact"] in ("serious", "critical")]
                assert not bad, (name, width, bad)
        assert _table_page_leaks(club, players, tid) == []
        # "Log out" sends the login's CSRF token in the form (docs/session.md): the director is logged out
        director.find_element(By.CSS_SELECTOR, "form[action='/logout'] button[type=submit]").click()
        wait.until(lambda d: d.current_url == club.url + "login")
        director.get(club.url + "duplicate")
        wait.until(lambda d: d.current_url.startswith(club.url + "login"))
    finally:
        director.quit()
        players.quit()
