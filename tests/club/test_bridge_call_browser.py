"""The director enters a bridge call on the page in headless Chromium: a bridge table in its auction shows
the call form with every call in words, the call reaches a real table (controller, journal, publisher)
through the broker and is journaled there from source ``director``, and the page stops showing it pending;
axe-core finds no serious or critical problem in the form."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.club_demo import ClubDemo
from tests.browser import chromium

from .conftest import browser_login, club_demo
from .test_bridge_call_command import BridgeTable
from .test_director_screen import ARTIFACTS, _axe


@pytest.fixture
def club(tmp_path: Path) -> Any:
    with club_demo(tmp_path, 1, browser=True) as demo:
        yield demo


def test_the_director_enters_a_call_on_the_page(club: ClubDemo, tmp_path: Path) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    tid = club.ids[0]
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    table = None
    try:
        browser_login(driver, club.url)
        wait = WebDriverWait(driver, 20, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))

        def text(selector: str) -> str:
            return str(driver.execute_script(
                "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", selector))

        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".conn.live"))
        table = BridgeTable(club.broker.port, tmp_path / tid, tid, club.passwords[tid])  # dealt: the auction
        form = f'.table[data-table="{tid}"] form.bridge-call'
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, form))
        assert "Enter a call for a player" in text(form)
        calls = Select(driver.find_element(By.CSS_SELECTOR, f"{form} select[name=call]"))
        words = [o.text for o in calls.options]
        assert len(words) == 38 + 5 and words[:2] == ["one club", "one diamond"] and words[35:38] == \
            ["pass", "double", "redouble"] and words[-1] == "eight notrump (above seven)"   # a bid above seven
        Select(driver.find_element(By.CSS_SELECTOR, f"{form} select[name=seat]")).select_by_visible_text("South")
        calls.select_by_visible_text("two notrump")
        driver.execute_script("arguments[0].scrollIntoView()", driver.find_element(By.CSS_SELECTOR, form))
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "director-bridge-call.png"))
        bad = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
        assert not bad, bad
        driver.find_element(By.CSS_SELECTOR, f"{form} button").click()
        assert wait.until(lambda d: "pending until the table confirms" in text(f"{form} .said"))
        table.command()
        event = [row.body for row in table.journal.rows() if row.kind == "event"][-1]
        assert (event["type"], event["seat"], event["call"], event["src"]) == ("call", "S", "2NT", "director")
        assert wait.until(lambda d: "bridge call" not in text(f'.table[data-table="{tid}"] .pending'))
    finally:
        driver.quit()
        if table is not None:
            table.stop()
