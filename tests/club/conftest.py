"""Fixtures and helpers for the club tests: a real Mosquitto on a free loopback port, MQTT watchers and
clients, the dashboard behind a test client (login, CSRF token), a running club demo for the browser."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.web.auth import hash_password
from firmware_host.wire.subscribed import stop_loop

PASSWORDS = {DASHBOARD_USER: "dash-pw-1", "watcher": "watch-pw-1", "t1": "t1-pw-1", "t2": "t2-pw-1"}
# A second login with the dashboard's rights, for the tests' watchers: one login is one session
# (use_username_as_clientid), so a watcher logged in as "dashboard" would knock the dashboard off.
DASHBOARDS = (DASHBOARD_USER, "watcher")


def _need(binary: str, package: str) -> None:
    if shutil.which(binary) is None and not Path(f"/usr/sbin/{binary}").exists():
        pytest.skip(f"{binary} is not installed (Debian package {package}; `make test` installs it)")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[LocalBroker]:
    _need("mosquitto", "mosquitto")
    b = LocalBroker(tmp_path / "broker", PASSWORDS, dashboards=DASHBOARDS)
    b.start()
    yield b
    b.stop()


class Watcher:
    """An MQTT client logged in with the dashboard's rights that records every message on ``#``."""

    def __init__(self, port: int, user: str = "watcher", password: str | None = None) -> None:
        import paho.mqtt.client as mqtt

        self.messages: list[tuple[str, bytes]] = []
        self.cond = threading.Condition()
        self.subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"watch-{user}")
        self.client.username_pw_set(user, password or PASSWORDS[user])
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe("#", qos=1)
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.subscribed.wait(10), "the watcher could not subscribe"

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self.cond:
            self.messages.append((msg.topic, msg.payload))
            self.cond.notify_all()

    def wait_for(self, pred: Any, timeout: float = 15.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: pred(self.messages), timeout)

    def bodies(self, kind: str) -> list[dict[str, Any]]:
        with self.cond:
            return [json.loads(p) for t, p in self.messages if t.endswith("/" + kind)]

    def close(self) -> None:
        self.client.disconnect()
        stop_loop(self.client)


@pytest.fixture
def watcher(broker: LocalBroker) -> Iterator[Watcher]:
    w = Watcher(broker.port)
    yield w
    w.close()


def mqtt_client(port: int, user: str, password: str | None = None,
                client_id: str | None = None) -> tuple[Any, Any]:
    """A paho client that tried to log in as ``user`` (password from PASSWORDS unless given), once the
    broker answered: the client (its loop running) and the reason code of the answer."""
    import paho.mqtt.client as mqtt

    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or f"c-{user}-{time.monotonic_ns()}")
    c.username_pw_set(user, password or PASSWORDS[user])
    result: dict[str, Any] = {}
    done = threading.Event()

    def on_connect(client: Any, u: Any, f: Any, rc: Any, p: Any) -> None:
        result["rc"] = rc
        done.set()

    c.on_connect = on_connect
    c.connect("127.0.0.1", port)
    c.loop_start()
    assert done.wait(10)
    return c, result["rc"]


class FakeClock:
    """An injected clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def dash(broker: LocalBroker) -> Any:
    """The dashboard on the broker with one director (password right-horse-1), a session lifetime of 600 s
    on a FakeClock: (dashboard, Starlette test client, clock)."""
    from starlette.testclient import TestClient

    from firmware_host.club.dashboard import Dashboard

    clock = FakeClock()
    d = Dashboard("127.0.0.1", broker.port, "dashboard", PASSWORDS["dashboard"],
                  {"director": hash_password("right-horse-1")}, session_ttl=600, clock=clock)
    with TestClient(d.app, base_url="http://club.test") as client:
        yield d, client, clock


def login(client: Any, password: str = "right-horse-1", name: str = "director") -> Any:
    """The dashboard's answer to a login form (redirects not followed)."""
    return client.post("/login", data={"username": name, "password": password}, follow_redirects=False)


def csrf(client: Any) -> str:
    """The CSRF token the logged-in page carries."""
    page = client.get("/").text
    return page.split('name="csrf-token" content="')[1].split('"')[0]


def browser_login(driver: Any, url: str) -> None:
    """Log club_demo's director in through the login page under ``url`` in a Selenium ``driver``."""
    from selenium.webdriver.common.by import By

    driver.get(url + "login")
    driver.find_element(By.ID, "username").send_keys("director")
    driver.find_element(By.ID, "password").send_keys("table-talk-1")
    driver.find_element(By.ID, "login").click()


@contextmanager
def club_demo(tmp_path: Path, tables: int, browser: bool) -> Iterator[Any]:
    """A running ClubDemo (broker and dashboard, no simulated tables) with director / table-talk-1;
    skipped when Mosquitto, or with ``browser`` Debian's chromium, is not installed."""
    from firmware_host.club.club_demo import ClubDemo
    from tests.browser import missing

    _need("mosquitto", "mosquitto")
    if browser and missing():
        pytest.skip(missing())
    demo = ClubDemo(tmp_path, tables, director=("director", "table-talk-1"))
    demo.start(with_tables=False)
    try:
        assert demo.wait_ready()
        yield demo
    finally:
        demo.stop()
