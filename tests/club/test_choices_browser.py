"""The director takes a claim's option on the page in headless Chromium: the claim shows in words only, the
suit picker appears for a suit call, the choice reaches a real table (controller, journal, publisher)
through the broker and is ruled there, and the claim leaves the page; axe-core finds no serious or
critical problem in the claim's control."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.club_demo import ClubDemo
from laws.events import event_from_dict
from tests.browser import chromium

from .conftest import browser_login, club_demo
from .test_choices import Table
from .test_director_screen import ARTIFACTS, _axe


@pytest.fixture
def club(tmp_path: Path) -> Any:
    with club_demo(tmp_path, 1, browser=True) as demo:
        yield demo


def test_the_director_chooses_a_suit_call_on_the_page(club: ClubDemo, tmp_path: Path) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    tid = club.ids[0]
    table = Table(club.broker.port, tmp_path / tid, tid, club.passwords[tid])
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    try:
        browser_login(driver, club.url)
        wait = WebDriverWait(driver, 20, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))

        def text(selector: str) -> str:
            return str(driver.execute_script(
                "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", selector))

        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".conn.live"))
        table.feed([event_from_dict({"type": "card_played", "seat": "S", "card": "7C"})])  # East had the lead
        form = f'.table[data-table="{tid}"] form.claim'
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, form))
        shown = text(form)
        assert "Choice for East-West against South (trick 1)" in shown and "call a suit" in shown
        for code in ("call_suit", "call_card", "claim_option", "EW"):
            assert code not in shown, f"code name {code} on the page"
        suit = driver.find_element(By.CSS_SELECTOR, f"{form} select[name=suit]")
        assert not suit.is_displayed()  # the first option names no suit
        Select(driver.find_element(By.CSS_SELECTOR, f"{form} select[name=what]")).select_by_visible_text("call a suit")
        assert suit.is_displayed()
        Select(driver.find_element(By.CSS_SELECTOR, f"{form} select[name=seat]")).select_by_visible_text("West")
        Select(suit).select_by_visible_text("diamonds")
        driver.execute_script("arguments[0].scrollIntoView()", driver.find_element(By.CSS_SELECTOR, form))
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "director-claim-choice.png"))
        bad = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
        assert not bad, bad
        driver.find_element(By.CSS_SELECTOR, f"{form} button").click()
        rulings = table.command()
        assert [(r.clause, r.extra.get("call"), r.extra.get("suit"), r.seat.value if r.seat else None)
                for r in rulings] == [("EU-52", "suit", "D", "S")]
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, form))  # taken: the claim has gone
        assert wait.until(lambda d: "EU-52" in text(f'.table[data-table="{tid}"] .ruling .law'))
        assert "pending" not in text(f'.table[data-table="{tid}"] .pending')
    finally:
        driver.quit()
        table.stop()
