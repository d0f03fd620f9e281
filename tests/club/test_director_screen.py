"""The director's screen in headless Chromium at a phone's, a tablet's and a laptop's width: calls queue
longest wait first in the table display's own words, a new call shows within a second, a call is taken
and cleared, nothing scrolls sideways, axe-core finds no serious or critical problem. Screenshots go to
tests/artifacts/ (not kept in git)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from laws.cards import Seat, Side
from laws.rulings import Remedy, Ruling
from tests.browser import chromium

from .conftest import browser_login, club_demo

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "tests" / "artifacts"
WIDTHS = (390, 800, 1366)

CALLS = {  # table index -> the ruling that makes it call (club/calls.py: it needs a director), in order
    2: Ruling(Remedy.REPLACE_PACK, "Contract Bridge, Imperfect pack", "CB-damaged", "A damaged card was dealt.",
              dealer=Seat.E),
    0: Ruling(Remedy.PENALTY, "Contract Bridge, Revoke", "CB-revoke",
              "East-West revoked; the penalty is two tricks.", side=Side.EW),
    1: Ruling(Remedy.ATTENTION, "Contract Bridge, Attention", "CB-attention",
              "South drew attention to an irregularity.", seat=Seat.S),
}
HEADLINES = {2: "REPLACE THE PACK — East deals", 0: "PENALTY", 1: "ATTENTION"}


class CallingTable:
    """A table reduced to its lamps: a ruling lights one, the director's acknowledgement puts it out. Real
    journal and publisher, so the words and the confirmations travel as from any table."""

    def __init__(self, tid: str, port: int, password: str, folder: Path) -> None:
        self.tid = tid
        self.journal = Journal.open(folder / tid, synchronous="NORMAL")
        self.pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=port), tid, self.journal, password=password)
        self.lamps = {"redeal": False, "replace_pack": False, "attention_N": False, "attention_S": False}
        self.seq = 0
        self.pub.on_command(self.command)
        self.pub.start()
        assert self.pub.connected_event.wait(10)
        self.status()

    def status(self) -> None:
        self.pub.status({"table": self.tid, "game": "contract-bridge", "phase": "dealing", "deal": 1, "dealer": "N",
                         "lamps": dict(self.lamps), "counts": {"N": 5, "E": 5, "S": 4, "W": 4}, "seq": self.seq,
                         "score": {}})

    def call(self, r: Ruling) -> None:
        self.seq = self.journal.append("ruling", r.to_dict(), time.time())
        self.pub.ruling(r.to_dict(), 1, self.seq)
        lamp = {Remedy.REPLACE_PACK: ["replace_pack"]}.get(r.remedy, ["attention_N", "attention_S"])
        self.lamps.update(dict.fromkeys(lamp, True))
        self.status()

    def command(self, kind: str, body: dict[str, Any]) -> None:
        if kind == "ack":
            self.lamps = dict.fromkeys(self.lamps, False)
            self.seq = self.journal.append("lamp", dict(self.lamps), time.time())
            self.status()

    def stop(self) -> None:
        self.pub.stop()
        self.journal.close()


@pytest.fixture
def club(tmp_path: Path) -> Any:
    with club_demo(tmp_path, 3, browser=True) as demo:
        tables = [CallingTable(tid, demo.broker.port, demo.passwords[tid], tmp_path) for tid in demo.ids]
        yield demo, tables
        for t in tables:
            t.stop()


def _axe(driver: Any) -> list[dict[str, Any]]:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make test` installs axe-core from npm")
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map("
        "(v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' '))}))));")
    return list(result)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_director_sees_who_why_and_since_when_at_every_width(club: Any, tmp_path: Path, width: int) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    demo, tables = club
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    try:
        driver.set_script_timeout(30)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
        browser_login(driver, demo.url)
        wait = WebDriverWait(driver, 20, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".conn.live"))
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".table")) == 3)
        assert driver.execute_script("return window.innerWidth") == width

        def queue() -> list[str]:
            return list(driver.execute_script(
                "return [...document.querySelectorAll('#queue li.call')].map((li) => li.dataset.table);"))

        def no_sideways_scroll() -> None:
            over = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth;")
            assert over <= 0, f"the page scrolls sideways by {over} px at {width} px"

        no_sideways_scroll()
        for i, (index, ruling) in enumerate(CALLS.items()):
            # shown live (how fast is a figure of ``cardtable bench club``, never a timed test)
            tables[index].call(ruling)
            WebDriverWait(driver, 5, poll_frequency=0.02).until(lambda d, n=i + 1: len(queue()) == n)
        ids = [t.tid for t in tables]
        assert queue() == [ids[2], ids[0], ids[1]]  # longest wait first, not table order
        assert driver.title.startswith("(3) ")
        for index, words in HEADLINES.items():
            item = driver.find_element(By.CSS_SELECTOR, f'#queue li[data-table="{ids[index]}"]')
            assert words in item.text
            assert "claim_option" not in item.text and "new_shuffle_and_cut" not in item.text
        first = driver.find_element(By.CSS_SELECTOR, f'#queue li[data-table="{ids[2]}"]')
        # the law as players read it; its id only in a detail the director opens
        assert "A damaged card was dealt." in first.text and "Contract Bridge, Imperfect pack" in first.text
        assert "CB-damaged" not in first.text
        first.find_element(By.CSS_SELECTOR, "details.clause summary").click()
        assert "CB-damaged" in first.text
        start = first.find_element(By.CSS_SELECTOR, ".wait").text
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f'#queue li[data-table="{ids[2]}"] .wait').text != start)
        no_sideways_scroll()
        # dealing: no result is due anywhere, so no result form shows
        assert not [f for f in driver.find_elements(By.CSS_SELECTOR, "form.result") if f.is_displayed()]
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"director-{width}-calls.png"))
        bad = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
        assert not bad, bad

        # take the longest-waiting call, then clear it: the table puts its lamps out and it leaves the queue
        driver.find_element(By.CSS_SELECTOR, f'#queue li[data-table="{ids[2]}"] button.take').click()
        wait.until(lambda d: "taken by director" in d.find_element(
            By.CSS_SELECTOR, f'#queue li[data-table="{ids[2]}"]').text)
        driver.find_element(By.CSS_SELECTOR, f'#queue li[data-table="{ids[2]}"] button.ack').click()
        wait.until(lambda d: queue() == [ids[0], ids[1]])
        assert driver.title.startswith("(2) ")
        # the feed says it was acknowledged, and the table's history shows it on a click
        feed = driver.find_element(By.ID, "feed").text
        assert "REPLACE THE PACK — East deals" in feed and "acknowledged by director" in feed
        def feed_shown() -> int:
            return len([li for li in driver.find_elements(By.CSS_SELECTOR, "#feed li") if li.is_displayed()])

        assert feed_shown() == 3
        driver.find_element(By.CSS_SELECTOR, '.filter button[data-filter="score"]').click()
        assert feed_shown() == 0  # no score yet: the three irregularities are filtered out
        driver.find_element(By.CSS_SELECTOR, '.filter button[data-filter="irregularity"]').click()
        assert feed_shown() == 3
        driver.find_element(By.CSS_SELECTOR, f'.table[data-table="{ids[2]}"] button.name').click()
        wait.until(lambda d: "acknowledged by director" in d.find_element(By.ID, "history-list").text)
        driver.save_screenshot(str(ARTIFACTS / f"director-{width}-history.png"))
        no_sideways_scroll()
    finally:
        driver.quit()


def test_an_open_history_takes_a_new_ruling_from_its_table_live(club: Any, tmp_path: Path) -> None:
    """Audit a11 F9: with "History of Table 2" open, a new ruling from that table showed under Rulings but
    not in the open history until the director closed and reopened it (docs/mqtt.md, "The dashboard": the
    page needs no reload). The open history takes its table's new entries, newest first, its
    acknowledgement too; another table's ruling stays out of it."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    demo, tables = club
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    try:
        browser_login(driver, demo.url)
        wait = WebDriverWait(driver, 20, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".conn.live"))
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".table")) == 3)
        ids = [t.tid for t in tables]
        tables[1].call(CALLS[1])
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#queue li.call")) == 1)
        driver.find_element(By.CSS_SELECTOR, f'.table[data-table="{ids[1]}"] button.name').click()
        wait.until(lambda d: d.find_element(By.ID, "history").is_displayed() and
                   "ATTENTION" in d.find_element(By.ID, "history-list").text)

        def history() -> list[str]:
            return [li.find_element(By.CSS_SELECTOR, ".headline").text
                    for li in driver.find_elements(By.CSS_SELECTOR, "#history-list > li")]

        assert history() == ["ATTENTION"]
        tables[1].call(CALLS[2])                     # the open history's table: a new ruling
        tables[0].call(CALLS[0])                     # another table's
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#feed > li")) == 3)
        wait.until(lambda d: history() == [HEADLINES[2], "ATTENTION"])
        # acknowledged (from behind the open history, as a second director's screen would): redrawn in it
        driver.execute_script("arguments[0].click();", driver.find_element(
            By.CSS_SELECTOR, f'#queue li[data-table="{ids[1]}"] button.ack'))
        wait.until(lambda d: "acknowledged by director" in d.find_element(By.ID, "history-list").text)
        assert history() == [HEADLINES[2], "ATTENTION"]
        driver.find_element(By.CSS_SELECTOR, "#history button").click()    # Close
        driver.find_element(By.CSS_SELECTOR, f'.table[data-table="{ids[0]}"] button.name').click()
        wait.until(lambda d: history() == ["PENALTY"])      # closed, then another table's: its own only
    finally:
        driver.quit()
