"""Audit m16: the director's pages across a restart of the dashboard (a kill -9 and the unit starting it
again): a pairs session's /duplicate, an event's /event, a euchre night's /euchre. Logins live in the
dashboard's memory, so the restarted dashboard answers a page's stream 401; a browser's EventSource gives
up for good on such an answer, and the page sat on "reconnecting" with what it showed before the
restart, for as long as it stayed open. It now goes to the login page, as the dashboard's own page does,
and once logged in the director is back on that page (not on the dashboard's, hunting for it) and sees
the session as it stands. A table's page the director opened with his login (no key) does the same: the
event's and the euchre night's (a pairs session's table page is opened by its key alone)."""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
from firmware_host.web.auth import hash_password
from tests.browser import chromium, missing

from .conftest import _need, browser_login


def _duplicate(tmp: Path, again: bool) -> tuple[Any, dict[str, Any], Callable[[], None]]:
    from firmware_host.session.duplicate_session import Session, SessionDesk
    from tests.duplicate.sessionkit import make_setup

    if again:
        session = Session.open(tmp / "session", analyse=False, synchronous="NORMAL")
    else:
        session = Session.create(tmp / "session", make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2},
                                                             seed=8), analyse=False, synchronous="NORMAL")
    return SessionDesk(session), {"duplicate": None}, session.close


def _event(tmp: Path, again: bool) -> tuple[Any, dict[str, Any], Callable[[], None]]:
    from firmware_host.events.desk import EventDesk
    from firmware_host.events.session import EventSession
    from laws.competition.event_spec import EventKind, EventSpec
    from tests.events.test_event_service import TABLES

    if again:
        session = EventSession.open(tmp / "event", synchronous="NORMAL")
    else:
        session = EventSession.create(tmp / "event", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2, name="Cup"), TABLES,
                                      synchronous="NORMAL")
    return EventDesk(session), {"event": None}, session.close


def _euchre(tmp: Path, again: bool) -> tuple[Any, dict[str, Any], Callable[[], None]]:
    from firmware_host.euchre_night.desk import NightDesk
    from firmware_host.euchre_night.session import NightSession
    from tests.euchre_night.test_session import setup

    session = NightSession.open(tmp / "night") if again else NightSession.create(tmp / "night", setup())
    return NightDesk(session), {}, session.close


KINDS = {"duplicate": _duplicate, "event": _event, "euchre": _euchre}
HASH = hash_password("table-talk-1")


def _serve(broker: LocalBroker, tmp: Path, kind: str, again: bool, port: int,
           logins: Path | None = None) -> tuple[Any, threading.Thread, Callable[[], None]]:
    from firmware_host.club.dashboard import Dashboard, serve

    desk, where, close = KINDS[kind](tmp, again)
    dash = Dashboard("127.0.0.1", broker.port, DASHBOARD_USER, "dash-pw-1",
                     {"director": HASH}, logins=logins, **{k: desk for k in where})
    if kind == "euchre":
        from firmware_host.euchre_night.screens import mount

        mount(dash, desk)
    server = serve(dash, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the dashboard did not start"
        time.sleep(0.05)
    return server, thread, close


def _stop(server: Any, thread: threading.Thread, close: Callable[[], None]) -> None:
    server.should_exit = True
    thread.join(10)
    close()


@pytest.mark.parametrize(("kind", "page"), [(k, k) for k in sorted(KINDS)] + [
    ("event", "event/table/t-a"), ("euchre", "euchre/table/table-01")])
def test_the_directors_page_asks_for_a_login_after_the_dashboard_restarts(tmp_path: Path, kind: str,
                                                                          page: str) -> None:
    _need("mosquitto", "mosquitto")
    if missing():
        pytest.skip(missing())
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    broker = LocalBroker(tmp_path / "broker", {DASHBOARD_USER: "dash-pw-1"})
    broker.start()
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    server, thread, close = _serve(broker, tmp_path, kind, False, port)
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    try:
        browser_login(driver, url)
        WebDriverWait(driver, 20).until(lambda d: "/login" not in d.current_url)
        driver.get(url + page)
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "conn").text == "live")
        _stop(server, thread, close)                                   # the dashboard goes down ...
        server, thread, close = _serve(broker, tmp_path, kind, True, port)  # ... and back: every login gone
        WebDriverWait(driver, 30).until(lambda d: "/login" in d.current_url,
                                        f"the {page} page stayed on {driver.current_url}")
        driver.find_element(By.ID, "username").send_keys("director")    # the login page it was sent to
        driver.find_element(By.ID, "password").send_keys("table-talk-1")
        driver.find_element(By.ID, "login").click()
        WebDriverWait(driver, 20).until(lambda d: "/login" not in d.current_url)
        assert driver.current_url == url + page, f"the login sent the director to {driver.current_url}"
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "conn").text == "live")
    finally:
        driver.quit()
        _stop(server, thread, close)
        broker.stop()


def test_a_login_kept_beside_the_users_file_outlives_the_restart(tmp_path: Path) -> None:
    """`club dashboard` keeps the logins in `<users>.logins`: a restart (a crash, the unit starting it again)
    left every director logged out mid-evening, on a phone, to type his password again. Now the page's
    stream comes back by itself, on the same page, and its forms still carry a CSRF token the server knows."""
    _need("mosquitto", "mosquitto")
    if missing():
        pytest.skip(missing())
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    broker = LocalBroker(tmp_path / "broker", {DASHBOARD_USER: "dash-pw-1"})
    broker.start()
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    logins = tmp_path / "users.logins"
    server, thread, close = _serve(broker, tmp_path, "duplicate", False, port, logins)
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    try:
        browser_login(driver, url)
        WebDriverWait(driver, 20).until(lambda d: "/login" not in d.current_url)
        driver.get(url + "duplicate")
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "conn").text == "live")
        assert logins.stat().st_mode & 0o777 == 0o600
        _stop(server, thread, close)                                   # the dashboard goes down ...
        server, thread, close = _serve(broker, tmp_path, "duplicate", True, port, logins)   # ... and back
        status = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const csrf = document.querySelector('meta[name="csrf-token"]').content;
            fetch('/api/duplicate/round', {method: 'POST', credentials: 'same-origin',
                  headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
                  body: JSON.stringify({round: 2})}).then(r => done(r.status));""")
        assert status == 200, status                                    # the page's token is still the login's
        # the page's stream came back by itself: the call made after the restart reaches it, on the same page
        WebDriverWait(driver, 30).until(lambda d: "Round 2 of" in d.find_element(By.ID, "round-words").text,
                                        f"the page is on {driver.current_url}")
        assert driver.current_url == url + "duplicate"
    finally:
        driver.quit()
        _stop(server, thread, close)
        broker.stop()
