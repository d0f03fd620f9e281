"""Fixtures for the club tests: a real Mosquitto on a free loopback port, MQTT watchers, a browser."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker

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
        self.client.loop_stop()


@pytest.fixture
def watcher(broker: LocalBroker) -> Iterator[Watcher]:
    w = Watcher(broker.port)
    yield w
    w.close()
