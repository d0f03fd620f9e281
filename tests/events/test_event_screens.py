"""The event's pages on the director's server in headless Chromium at a phone's, a tablet's and a wide
screen's width (390, 800 and 1920 px): the director's page (behind the login) and a table's page (its
key) show the round, nothing scrolls sideways, and axe-core finds no serious or critical problem.
Screenshots go to tests/artifacts/ (not kept in git), as tests/club/test_director_screen.py does for the
dashboard."""

from __future__ import annotations

import tempfile
from typing import Any

import pytest

from tests.club.test_director_screen import ARTIFACTS, _axe
from tests.events.test_event_director_server import Club, _text, club  # noqa: F401 - the fixture

WIDTHS = (390, 800, 1920)


def _at_width(driver: Any, width: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})


def _checked(driver: Any, name: str, width: int) -> None:
    over = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth;")
    assert over <= 0, f"{name} at {width} px scrolls sideways by {over} px"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"event-{name}-{width}.png"))
    bad = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
    assert bad == [], f"{name} at {width} px: {bad}"


def test_the_event_pages_at_every_width_pass_axe(club: Club) -> None:  # noqa: F811 - the fixture
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import chromium, missing

    if missing():
        pytest.skip(missing())
    assert club.seatings.wait(lambda last: "page" in last.get("t-b", {}))
    page = club.seatings.last["t-b"]["page"]
    with tempfile.TemporaryDirectory() as pa, tempfile.TemporaryDirectory() as pb:
        director, table = chromium(pa), chromium(pb)
        try:
            director.get(club.url + "/event")
            director.find_element(By.ID, "username").send_keys("director")
            director.find_element(By.ID, "password").send_keys("table-talk-1")
            director.find_element(By.ID, "login").click()
            WebDriverWait(director, 20).until(lambda d: "/login" not in d.current_url)
            director.get(club.url + "/event")
            table.get(club.url + page)
            for width in WIDTHS:
                for driver, name in ((director, "director"), (table, "table")):
                    _at_width(driver, width)
                    assert driver.execute_script("return window.innerWidth") == width
                    WebDriverWait(driver, 30).until(lambda d: _text(d, "round").startswith("Round 1 of 3"))
                    _checked(driver, name, width)
        finally:
            director.quit()
            table.quit()


def test_a_tables_page_names_its_scored_boards_before_a_held_one(club: Club) -> None:  # noqa: F811
    """docs/competitions.md: a table's page shows the boards it has a result for, each board released,
    then each board held. A fouled board held for the director ("Board 2: awaits the director ...") came
    before the boards already scored; the page now follows the document's order."""
    import json
    import time

    from selenium.webdriver.support.ui import WebDriverWait

    from firmware_host.wire.topics import TOPICS
    from tests.browser import chromium, missing
    from tests.events.test_event_fouled import CALL
    from tests.events.test_event_service import TABLES

    if missing():
        pytest.skip(missing())
    club.tables.send("t-a", 1, 1, "4S", "N", 10)
    club.tables.send("t-b", 1, 1, "4S", "N", 9)
    club.tables.send("t-a", 1, 2, "3NT", "S", 9)
    body = {"section": "A", "table_number": TABLES.index("t-b") + 1, "round": 1, "board": 2, "ns": "home",
            "ew": "away", "contract": "3NT", "declarer": "S", "lead": None, "tricks": 8, "auction": [], "play": [],
            "record": "", "verified": False, "foul": CALL, "confirmed": {"ns": "N", "ew": "E"}}
    club.tables.seq["t-b"] += 1
    env = {"table": "t-b", "kind": "board", "seq": club.tables.seq["t-b"], "deal": 0, "secret": False,
           "t": time.time(), "body": body}
    club.tables.clients["t-b"].publish(TOPICS.board("t-b"), json.dumps(env), qos=1).wait_for_publish(10)
    assert club.seatings.wait(lambda last: "page" in last.get("t-a", {}))
    page = club.seatings.last["t-a"]["page"]
    with tempfile.TemporaryDirectory() as folder:
        table = chromium(folder)
        try:
            table.get(club.url + page)
            WebDriverWait(table, 60).until(lambda d: "awaits the director" in _text(d, "held")
                                           and "Board 1" in _text(d, "released"),
                                           "the page never showed board 1 released and board 2 held")
            order = table.execute_script(
                "return Array.from(document.getElementById('view').children).map(e => e.id);")
            assert [x for x in order if x in ("entered", "released", "held", "answers")][:3] == \
                ["entered", "released", "held"], order
            assert _text(table, "held") == ("Board 2: awaits the director (fouled at a table): no score until "
                                            "he decides")
        finally:
            table.quit()
