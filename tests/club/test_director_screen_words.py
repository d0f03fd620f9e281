"""The director's screen as people read it (issue 21), in headless Chromium at 390, 800 and 1366 px:
tables by their names, every lit lamp with its reason, the score in words, no clause id on the page
(only in a detail a director opens), a euchre table's entry forms inside their card, a result error that
goes once it is fixed; and the login boxes lined up on a phone. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from laws.cards import Seat
from laws.rulings import Remedy, Ruling
from tests.browser import chromium

from .conftest import browser_login, club_demo
from .test_director_screen import _axe

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
WIDTHS = (390, 800, 1366)
CLAUSE_ID = re.compile(r"\b(?:CB|EU|DB|BP)-[A-Za-z0-9-]+")
NAMES = ("Window table", "Table by the fire", "Euchre corner")
BRIDGE_SCORE = {"game": 2, "below": {"NS": 40, "EW": 0}, "totals": {"NS": 540, "EW": 50},
                "games": {"NS": 1, "EW": 0}, "vulnerable": {"NS": True, "EW": False}}


class Table:
    """A table reduced to what it publishes: rulings (journaled first) and statuses it is told to send."""

    def __init__(self, tid: str, name: str, port: int, password: str, folder: Path) -> None:
        self.tid, self.name = tid, name
        self.journal = Journal.open(folder / tid, synchronous="NORMAL")
        self.pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=port), tid, self.journal, password=password)
        self.pub.start()
        assert self.pub.connected_event.wait(10)
        self.seq = 0

    def ruling(self, r: Ruling) -> None:
        self.seq = self.journal.append("ruling", r.to_dict(), time.time())
        self.pub.ruling(r.to_dict(), 1, self.seq)

    def status(self, **body: Any) -> None:
        self.pub.status({"table": self.tid, "name": self.name, "deal": 1, "dealer": "N", "seq": self.seq,
                         "counts": {}, **body})

    def stop(self) -> None:
        self.pub.stop()
        self.journal.close()


@pytest.fixture
def club(tmp_path: Path) -> Any:
    with club_demo(tmp_path, 3, browser=True) as demo:
        tables = [Table(tid, name, demo.broker.port, demo.passwords[tid], tmp_path)
                  for tid, name in zip(demo.ids, NAMES)]
        bridge, fire, euchre = tables
        # four lamps lit at one table, by three rulings and a camera that is missing
        bridge.ruling(Ruling(Remedy.NEW_SHUFFLE_AND_CUT, "Contract Bridge, New Shuffle and Cut", "CB-new-shuffle",
                             "North asked for a new shuffle.", dealer=Seat.N))
        bridge.ruling(Ruling(Remedy.REPLACE_PACK, "Contract Bridge, Imperfect pack", "CB-damaged",
                             "A damaged card was dealt.", dealer=Seat.N))
        bridge.ruling(Ruling(Remedy.CLAIM_OPTION, "Contract Bridge, Redeal", "CB-claim-exposed",
                             "A card was exposed; the side not at fault may demand a new deal.", seat=Seat.S))
        bridge.status(game="contract-bridge", phase="dealing", score=BRIDGE_SCORE,
                      lamps={"shuffle": True, "replace_pack": True, "attention_S": True, "camera_offline": True},
                      offline={"camera": "picamera2 is not installed"})
        fire.status(game="contract-bridge", phase="scoring", lamps={}, score={})
        euchre.status(game="euchre", phase="auction", lamps={}, score={"game": 1, "score": {"NS": 3, "EW": 2},
                                                                        "games_won": {"NS": 0, "EW": 1}})
        yield demo, tables
        for t in tables:
            t.stop()


def _driver(tmp_path: Path, width: int) -> Any:
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


@pytest.mark.parametrize("width", WIDTHS)
def test_tables_read_in_words_at_every_width(club: Any, tmp_path: Path, width: int) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    demo, tables = club
    driver = _driver(tmp_path, width)
    try:
        browser_login(driver, demo.url)
        wait = WebDriverWait(driver, 20, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".table .lit-item")) == 4)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".table form.bid"))
        card = driver.find_element(By.CSS_SELECTOR, f'.table[data-table="{tables[0].tid}"]')
        # its name, not its id
        names = [b.text for b in driver.find_elements(By.CSS_SELECTOR, ".table button.name")]
        assert sorted(names) == sorted(NAMES) and not any(n.startswith("table-") for n in names)
        # every lamp lit, each with its reason
        lit = [li.text for li in card.find_elements(By.CSS_SELECTOR, ".lit-item")]
        assert any(x.startswith("SHUFFLE+CUT") and "North asked for a new shuffle." in x for x in lit), lit
        assert any(x.startswith("NEW PACK") and "A damaged card was dealt." in x for x in lit), lit
        assert any(x.startswith("ATTENTION South") and "A REDEAL MAY BE CLAIMED" in x for x in lit), lit
        assert any(x.startswith("NO CAMERA") and "picamera2 is not installed" in x for x in lit), lit
        # the score in words
        score = card.find_element(By.CSS_SELECTOR, ".score").text
        assert "North-South 540" in score and "North-South vulnerable" in score and "below 0-0" not in score
        # the fresh pack calls the director; the shuffle and the claim alone would not
        wait.until(lambda d: [li.get_attribute("data-table") for li in d.find_elements(By.CSS_SELECTOR, "#queue li.call")]
                   == [tables[0].tid])
        # no clause id anywhere on the page as it reads
        text = driver.execute_script("return document.body.innerText")
        assert not CLAUSE_ID.findall(text), CLAUSE_ID.findall(text)
        assert "[hidden card]" not in text
        wait.until(lambda d: not re.search(r"table-0\d", d.execute_script("return document.body.innerText")))
        # nothing in a card is wider than the card (the euchre call's long option at 1366 px)
        over = driver.execute_script("""
            const out = [];
            for (const c of document.querySelectorAll('.table')) {
              const box = c.getBoundingClientRect();
              for (const e of c.querySelectorAll('form, select, input, label, button')) {
                const r = e.getBoundingClientRect();
                if (r.width && (r.right > box.right + 0.5 || r.left < box.left - 0.5))
                  out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.width) + ' px in ' + Math.round(box.width));
              }
            }
            return out;""")
        assert not over, over
        assert driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth") <= 0
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"director-{width}-words.png"))
        bad = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
        assert not bad, bad

        # a result with an error, then fixed: the error goes
        fire = driver.find_element(By.CSS_SELECTOR, f'.table[data-table="{tables[1].tid}"]')
        form = fire.find_element(By.CSS_SELECTOR, "form.result")
        form.find_element(By.NAME, "contract").send_keys("8S")
        form.find_element(By.NAME, "tricks").send_keys("10")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: "there is no eight-level contract" in form.find_element(By.CSS_SELECTOR, ".said").text)
        box = form.find_element(By.NAME, "contract")
        box.clear()
        box.send_keys("4S")
        assert form.find_element(By.CSS_SELECTOR, ".said").text == ""
    finally:
        driver.quit()


def test_login_boxes_line_up_on_a_phone(club: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    demo, _ = club
    driver = _driver(tmp_path, 390)
    try:
        driver.get(demo.url + "login")
        user, password = (driver.find_element(By.ID, i).rect for i in ("username", "password"))
        assert abs(user["x"] - password["x"]) < 1 and abs(user["width"] - password["width"]) < 1, (user, password)
        assert user["x"] + user["width"] <= 390
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "login-390.png"))
    finally:
        driver.quit()
