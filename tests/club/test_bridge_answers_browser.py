"""The director settles a bridge deal's irregularities and claim on the page, in headless Chromium at a
phone's, a tablet's and a laptop's width: an insufficient bid accepted, a lead out of turn taken back, a
claim made, disputed and ruled. Each answer shows on the table's card only while the table's status makes
it meaningful, in words (no code name on the screen), reaches a real table (controller, journal, publisher)
through the broker and is judged by its engine; nothing scrolls sideways, and axe-core finds no serious or
critical problem."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.club_demo import ClubDemo
from firmware_host.table.controller import LawInput
from laws.cards import Seat
from laws.events import CallMade, CardPlayed
from tests.browser import chromium

from .conftest import browser_login, club_demo
from .test_bridge_call_command import BridgeTable
from .test_director_screen import ARTIFACTS, WIDTHS, _axe

CODES = ("insufficient_bid", "lead_out_of_turn", "claim_reply", "claim_ruled", "correct_revoke", "accept_by",
         "withdraw", "BP-", "hidden")


@pytest.fixture
def club(tmp_path: Path) -> Any:
    with club_demo(tmp_path, 1, browser=True) as demo:
        yield demo


@pytest.mark.parametrize("width", WIDTHS)
def test_the_director_settles_the_bridge_irregularities_on_the_page(club: ClubDemo, tmp_path: Path,
                                                                     width: int) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    tid = club.ids[0]
    card_sel = f'.table[data-table="{tid}"]'
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    table = None
    try:
        driver.set_script_timeout(30)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
        browser_login(driver, club.url)
        wait = WebDriverWait(driver, 20, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".conn.live"))
        table = BridgeTable(club.broker.port, tmp_path / tid, tid, club.passwords[tid])
        hands = table.ctl.engine.state.deal.hands  # type: ignore[union-attr]

        def shown() -> str:  # the card as a person reads it (a closed detail's law id is not read)
            return str(driver.find_element(By.CSS_SELECTOR, card_sel).text)

        def forms() -> list[str]:
            return list(driver.execute_script(
                "return [...document.querySelectorAll(arguments[0] + ' form.answer')].map((f) => f.classList[1]);",
                card_sel))

        def check_screen(name: str) -> None:
            over = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth;")
            assert over <= 0, f"the page scrolls sideways by {over} px at {width} px"
            text = shown()
            for code in CODES:
                assert code not in text, f"code name {code} on the screen"
            driver.execute_script("arguments[0].scrollIntoView()", driver.find_element(By.CSS_SELECTOR, card_sel))
            ARTIFACTS.mkdir(exist_ok=True)
            driver.save_screenshot(str(ARTIFACTS / f"director-{width}-bridge-{name}.png"))

        def answer(kind: str, picks: dict[str, str]) -> None:
            form = f"{card_sel} form.answer.{kind}"
            for name, words in picks.items():
                Select(driver.find_element(By.CSS_SELECTOR, f"{form} select[name={name}]")).select_by_visible_text(words)
            driver.find_element(By.CSS_SELECTOR, f"{form} button").click()
            wait.until(lambda d: "pending until the table confirms" in d.find_element(By.CSS_SELECTOR, f"{form} .said").text)
            assert table is not None
            table.command()

        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{card_sel} form.bridge-call"))
        assert forms() == []  # an ordinary auction: nothing to answer
        for call in (CallMade(Seat.N, "1S"), CallMade(Seat.E, "1H")):  # insufficient: South may accept
            table.ctl.process(LawInput(call, "camera"))
        wait.until(lambda d: forms() == ["accept", "decline"])
        assert "Waiting for a ruling: East's one heart: an insufficient bid." in shown()
        assert "South may accept East's one heart" in shown() and "Rubber Bridge, law 27" in shown()
        check_screen("accept")
        bad = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
        assert not bad, bad
        answer("accept", {"seat": "South"})
        wait.until(lambda d: forms() == [])
        h = table.ctl.engine.state.deal.bridge  # type: ignore[union-attr]
        assert [c.call.code for c in h.auction.calls] == ["1S", "1H"]
        # South's one diamond is insufficient too: West does not accept it, so it is cancelled and South calls again
        table.ctl.process(LawInput(CallMade(Seat.S, "1D"), "camera"))
        wait.until(lambda d: forms() == ["accept", "decline"])
        answer("decline", {"seat": "West"})
        wait.until(lambda d: forms() == [])
        assert [c.call.code for c in h.auction.calls] == ["1S", "1H"] and h.auction.turn is Seat.S
        assert [r.body.get("cancelled") for r in table.journal.rows() if r.kind == "ruling"][-1] is True

        for seat, call in (("S", "pass"), ("W", "pass"), ("N", "pass")):  # one heart by East; South leads
            table.ctl.process(LawInput(CallMade(Seat(seat), call), "camera"))
        led = hands[Seat.N][0]
        table.ctl.process(LawInput(CardPlayed(Seat.N, led), "camera"))  # North leads out of turn
        wait.until(lambda d: sorted(forms()) == ["accept", "spread", "withdraw"])  # spread: a defender's opening lead
        assert "Waiting for a ruling: North's card: a lead out of turn." in shown()
        assert "East, declarer, spreads his hand and becomes dummy" in shown()
        check_screen("lead")
        answer("withdraw", {})
        wait.until(lambda d: forms() == [] or forms() == ["claim"])
        assert [r.body["card"] for r in table.journal.rows() if r.kind == "event" and
                r.body["type"] == "withdraw"] == [led.code]  # the table named the card the page did not know
        table.ctl.process(LawInput(CardPlayed(Seat.S, hands[Seat.S][0]), "camera"))  # South leads, as he should
        wait.until(lambda d: forms() == ["claim"])
        answer("claim", {"seat": "East", "tricks": "13"})
        wait.until(lambda d: forms() == ["claim_reply"])
        assert "East claims 13 of the last 13 tricks — waiting for the other side's answer" in shown()
        picks = [o.text for o in Select(driver.find_element(
            By.CSS_SELECTOR, f"{card_sel} form.answer.claim_reply select[name=seat]")).options]
        assert picks == ["North", "South"]
        check_screen("claim")
        bad = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
        assert not bad, bad
        answer("claim_reply", {"seat": "North", "agree": "disputes"})
        wait.until(lambda d: forms() == ["claim_ruled"])
        answer("claim_ruled", {"tricks": "9"})
        wait.until(lambda d: forms() == [])
        p = table.ctl.engine.state.deal.bridge.play  # type: ignore[union-attr]
        assert p.ended and p.claim_state.ruled == 9
        wait.until(lambda d: "ruling on the claim" not in d.find_element(By.CSS_SELECTOR, f"{card_sel} .pending").text)
        check_screen("ruled")
    finally:
        driver.quit()
        if table is not None:
            table.stop()

