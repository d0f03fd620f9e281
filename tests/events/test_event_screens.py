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
