"""The dashboard in headless Chromium (Debian's chromium + chromedriver via Selenium): log in, watch a
table's lamp light after an irregularity, read the ruling's law, acknowledge, and see the lamp clear."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.club_demo import ClubDemo
from firmware_host.club.simclub import SimTable, default_scenarios, load_scenario
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from tests.browser import chromium, missing

from .conftest import browser_login, club_demo


def browser(profile: str) -> Any:
    """Debian's chromium through Selenium (skipped only when the Debian packages are absent)."""
    if missing():
        pytest.skip(missing())
    return chromium(profile)


@pytest.fixture
def club(tmp_path: Path) -> Any:
    with club_demo(tmp_path, 1, browser=False) as demo:
        yield demo


def test_director_sees_a_lamp_light_reads_the_law_and_clears_it(club: ClubDemo, tmp_path: Path) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    scenario = load_scenario(next(f for f in default_scenarios() if f.name == "bridge-irregularities.jsonl"))
    journal = Journal.open(tmp_path / "t", synchronous="NORMAL")
    tid = club.ids[0]
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=club.broker.port), tid, journal,
                        password=club.passwords[tid])
    table = SimTable(tid, journal, pub, [scenario])
    pub.on_command(table.acknowledge)
    commands: list[tuple[str, dict[str, Any]]] = []
    pub.on_command(lambda kind, body: commands.append((kind, body)))
    pub.start()
    driver = browser(tempfile.mkdtemp(dir=tmp_path))
    try:
        browser_login(driver, club.url)
        # The page replaces a table's parts on every update: read text in one script call, and let the
        # waits ride over an element replaced under them.
        wait = WebDriverWait(driver, 20, ignored_exceptions=(NoSuchElementException,
                                                             StaleElementReferenceException))

        def text(selector: str) -> str:  # as it reads (a closed detail's text is not read)
            return str(driver.execute_script(
                "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", selector))

        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".conn.live"))
        for _ in range(4):  # game, packs, draw, shuffle: no irregularity yet
            table.step()
        card = f'.table[data-table="{tid}"]'
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{card} .phase"))
        assert not driver.find_elements(By.CSS_SELECTOR, f"{card} .lamp")  # only lit lamps show
        table.step()  # the cut shows a faced card: a new shuffle and cut
        assert wait.until(lambda d: text(f"{card} .lamps").startswith("SHUFFLE+CUT"))  # the terminal's label
        # and why it is lit: the ruling that says why may come in the next update, after the lamps
        assert wait.until(lambda d: "NEW SHUFFLE AND CUT" in text(f"{card} .lamps"))
        law = wait.until(lambda d: text(f"{card} .ruling .law"))
        assert "Contract Bridge" in law and "CB-cut-faced" not in law  # the law's name; its id in a detail
        assert not driver.find_elements(By.CSS_SELECTOR, "#queue li.call")  # the players settle a new shuffle
        assert "shuffle" in text(f"{card} .ruling .reason").lower()
        assert "Contract Bridge, New Shuffle and Cut" in text("#feed")
        driver.find_element(By.CSS_SELECTOR, f'{card} button.lamps-out').click()
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, f"{card} .lamp.lit"))
        assert not table.lamps["shuffle"]
        assert "acknowledged" not in text("#feed")  # not a call: nothing for a director to acknowledge
        # the director enters a hand's result: a wrong contract is named on the page, a right one reaches
        # the table through the broker
        from selenium.webdriver.support.ui import Select

        form = f"{card} form.result"
        for _ in range(300):  # play on until a deal is over: then a hand awaits its result
            if table.phase in ("auction", "play", "scoring"):
                break
            table.step()
        else:
            raise AssertionError("the simulated table never finished a deal")
        wait.until(lambda d: text(f"{card} .phase") == table.phase)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{form} input[name=contract]"))
        Select(driver.find_element(By.CSS_SELECTOR, f"{form} select[name=declarer]")).select_by_value("S")
        contract = driver.find_element(By.CSS_SELECTOR, f"{form} input[name=contract]")
        contract.send_keys("9NT")
        driver.find_element(By.CSS_SELECTOR, f"{form} input[name=tricks]").send_keys("9")
        driver.find_element(By.CSS_SELECTOR, f"{form} button").click()
        assert wait.until(lambda d: "there is no nine-level contract" in text(f"{form} .said"))
        contract.clear()
        contract.send_keys("3NT")
        driver.find_element(By.CSS_SELECTOR, f"{form} button").click()
        wait.until(lambda d: any(k == "result" for k, _ in commands))
        result = next(b for k, b in commands if k == "result")
        assert result["result"] == {"tricks": 9, "declarer": "S", "contract": "3NT"} and result["by"] == "director"
        # The form says so, until the dashboard's next update hides it (the deal's result is entered) and
        # lists the result on the card instead: either may be what a loaded machine shows first.
        assert wait.until(lambda d: text(f"{form} .said").strip() == "sent: pending until the table takes it"
                          or "on its way to the table" in text(f"{card} .results")
                          or "taken by the table" in text(f"{card} .results"))
    finally:
        driver.quit()
        pub.stop()
        journal.close()
