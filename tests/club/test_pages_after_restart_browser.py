"""Audit m16: the director's /duplicate page across a restart of the dashboard (a kill -9 and systemd
starting it again). Logins live in the dashboard's memory, so the restarted dashboard answers the page's
stream 401; a browser's EventSource gives up for good on such an answer, and the page sat on
"reconnecting" with the results it had before the restart, for as long as it stayed open. It now goes to
the login page, as the dashboard's own page does, and once logged in the director sees the session as
it stands."""

from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.web.auth import hash_password
from tests.browser import chromium, missing
from tests.duplicate.sessionkit import make_setup

from .conftest import _need, browser_login

SPEC = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}


def _serve(broker: LocalBroker, desk: SessionDesk, port: int) -> tuple[Any, threading.Thread]:
    from firmware_host.club.dashboard import Dashboard, serve

    dash = Dashboard("127.0.0.1", broker.port, DASHBOARD_USER, "dash-pw-1",
                     {"director": hash_password("table-talk-1")}, duplicate=desk)
    server = serve(dash, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the dashboard did not start"
        time.sleep(0.05)
    return server, thread


def _stop(server: Any, thread: threading.Thread) -> None:
    server.should_exit = True
    thread.join(10)


def test_the_directors_session_page_asks_for_a_login_after_the_dashboard_restarts(tmp_path: Path) -> None:
    _need("mosquitto", "mosquitto")
    if missing():
        pytest.skip(missing())
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    broker = LocalBroker(tmp_path / "broker", {DASHBOARD_USER: "dash-pw-1"})
    broker.start()
    desk = SessionDesk(Session.create(tmp_path / "session", make_setup(SPEC, seed=8), analyse=False,
                                      synchronous="NORMAL"))
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    server, thread = _serve(broker, desk, port)
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    try:
        browser_login(driver, url)
        driver.get(url + "duplicate")
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "conn").text == "live")
        _stop(server, thread)                       # the dashboard goes down ...
        desk.session.close()
        desk = SessionDesk(Session.open(tmp_path / "session", analyse=False, synchronous="NORMAL"))
        server, thread = _serve(broker, desk, port)  # ... and comes back from its journal: every login is gone
        WebDriverWait(driver, 30).until(lambda d: d.current_url.endswith("/login"))
        browser_login(driver, url)
        driver.get(url + "duplicate")
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "conn").text == "live")
    finally:
        driver.quit()
        _stop(server, thread)
        broker.stop()
        desk.session.close()
