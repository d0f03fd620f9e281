"""The federation's live page in headless Chromium (Debian's chromium + chromedriver): the field's and
each club's ranking drawn from the service's published view, updated live as messages are taken, only
the boards every club has finished until then, and readable at a phone's width."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.federation.brokers import EventBroker
from firmware_host.federation.page import POLL_MS, FieldPage
from firmware_host.federation.service import EventSetup, FederationService, create_event
from firmware_host.federation.topics import SERVICE_USER, EventTopics
from tests.browser import chromium, missing

from .test_audit import _messages

EVENT = "sim9"


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[FederationService, FieldPage]]:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    if missing():
        pytest.skip(missing())
    topics = EventTopics(EVENT)
    fed = EventBroker(tmp_path / "fed", {"c1": "a", "c2": "b", SERVICE_USER: "f"}, topics.acl(["c1", "c2"]))
    fed.start()
    create_event(tmp_path / "event", EventSetup(EVENT, (1, 2), ("c1", "c2")))
    service = FederationService(tmp_path / "event", "127.0.0.1", fed.port, "f", publish_every=0.05).start()
    page = FieldPage(lambda: service.last_view, EVENT).start()
    try:
        yield service, page
    finally:
        page.stop()
        service.stop()
        fed.stop()


def _send(service: FederationService, club: str, messages: list[dict[str, Any]]) -> None:
    for m in messages:
        answer = service.receive(EventTopics(EVENT).result(club), json.dumps(m).encode())
        assert answer is not None and answer.verdict.value == "taken", answer


def _wait(driver: Any, script: str, timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {script}")


def test_the_page_shows_the_released_field_live_and_fits_a_phone(served: tuple[FederationService, FieldPage],
                                                                  tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    service, page = served
    url = f"http://127.0.0.1:{page.port}/"
    c1, c2 = _messages("c1"), _messages("c2", bias=2)
    _send(service, "c1", c1)                       # c1 has played both boards
    _send(service, "c2", c2[:5])                   # c2 only board 1 (its entry, three tables, a correction)
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    try:
        driver.get(url)
        _wait(driver, "return document.body.dataset.taken === '13';")
        state = driver.find_element(By.ID, "state").text
        assert state.startswith("boards 1 (finished by every club)"), state
        data = json.loads(urllib.request.urlopen(url + "standings.json", timeout=5).read())
        assert data["boards"] == [1] and data == service.last_view    # board 2 is not public yet
        names = driver.execute_script("return [...document.querySelectorAll('section')].map(s => s.dataset.ranking);")
        assert names == ["field EW", "field NS", "c1 EW", "c1 NS", "c2 EW", "c2 NS"]
        # nothing changed: later polls leave the page as it is drawn (a phone's scroll and selection stay)
        driver.execute_script("window.firstSection = document.querySelector('section');")
        time.sleep(2.5 * POLL_MS / 1000)
        assert driver.execute_script("return document.querySelector('section') === window.firstSection;"), \
            "the page was drawn again though the view had not changed"
        first = driver.find_element(By.CSS_SELECTOR, "section[data-ranking='field NS'] tr:nth-child(2)").text
        top = service.last_view["rankings"]["field NS"][0]
        assert first.split()[:3] == [str(top["place"]), top["club"], top["pair"].split()[0]]

        _send(service, "c2", c2[5:])               # c2 finishes: the page follows without a reload
        _wait(driver, "return document.body.dataset.taken === '16';")
        assert driver.find_element(By.ID, "state").text.startswith("boards 1, 2 (finished by every club)")
        assert driver.execute_script("return document.querySelector('section') !== window.firstSection;")

        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        driver.get(url)
        _wait(driver, "return document.body.dataset.taken === '16';")
        over = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth;")
        assert over <= 0, f"the page scrolls sideways by {over} px at 390 px"
        shot = Path(os.environ.get("CARDTABLE_SHOTS", str(tmp_path))) / "federation-page-390.png"
        assert driver.save_screenshot(str(shot))
    finally:
        driver.quit()
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(url + "../federation.sqlite3", timeout=5)
    assert err.value.code == 404
