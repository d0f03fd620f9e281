"""A club service on the broker says it is connected only once the broker has taken its subscriptions.

The session's ``connected`` was set at the broker's CONNACK, before its SUBACK: a table message published
the moment a test (or a caller) saw it connected could reach nobody, and
``test_member_cards.py::test_another_tables_login_names_nobody_and_a_wrong_pair_is_refused`` failed in
CI for it. The five services (the duplicate session, an event, a euchre night, the broadcast, the
spectator page) now set it in ``wire/subscribed.py:when_subscribed``. Here each is given a client whose
subscriptions never reach the broker (its ``subscribe`` sends nothing): before the fix each said it was
connected anyway. A page whose broker went away no longer says on ``/health`` that it has one. (A
refused subscription, which Mosquitto with an ``acl_file`` never sends, is in ``tests/wire``.)
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.broadcast.live import Releaser
from firmware_host.broadcast.page import SpectatorPage, serve
from firmware_host.broadcast.service import BroadcastService
from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
from firmware_host.euchre_night.service import NightService
from firmware_host.euchre_night.session import NightSession
from firmware_host.events.session import EventSession
from firmware_host.session.broker_client import SessionService
from firmware_host.wire.duplicate import players_body
from laws.broadcast.release import Release, Rule
from laws.competition.event_spec import EventKind, EventSpec
from tests.events.service_harness import EventService

from ..euchre_night.test_session import setup as night_setup
from .test_session_records import Client, _desk, _need, _until

USERS = {DASHBOARD_USER: "dash-pw", "broadcast": "b-pw", "spectator": "s-pw", "table-01": "t1-pw",
         "table-02": "t2-pw"}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[LocalBroker]:
    _need("mosquitto", "mosquitto")
    b = LocalBroker(tmp_path / "broker", USERS)
    b.start()
    yield b
    b.stop()


class _Page:
    """The spectator page served by uvicorn in a thread, as ``cardtable broadcast page`` serves it."""

    def __init__(self, port: int) -> None:
        self.page = SpectatorPage("127.0.0.1", port, USERS["spectator"])
        self.connected = self.page.connected
        self.client = self.page.client
        self.http = free_port()
        self.server = serve(self.page, "127.0.0.1", self.http)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def _services(tmp: Path, port: int) -> dict[str, Callable[[], Any]]:
    dash = USERS[DASHBOARD_USER]
    return {
        "session": lambda: SessionService(_desk(tmp, "session"), "127.0.0.1", port, DASHBOARD_USER, dash, tick=0.02),
        "event": lambda: EventService(EventSession.create(tmp / "event", EventSpec(EventKind.INDIVIDUAL, 8, 7, 2),
                                                          ("x1", "x2")), "127.0.0.1", port, DASHBOARD_USER, dash),
        "euchre night": lambda: NightService(NightSession.create(tmp / "night", night_setup()), "127.0.0.1", port,
                                             DASHBOARD_USER, dash),
        "broadcast": lambda: BroadcastService(Releaser(Release(Rule.AFTER_FIELD), {"table-01": 1}, {}),
                                              "127.0.0.1", port, USERS["broadcast"]),
        "spectator page": lambda: _Page(port),
    }


KINDS = ("session", "event", "euchre night", "broadcast", "spectator page")


@pytest.mark.parametrize("kind", KINDS)
def test_a_service_whose_subscriptions_are_not_taken_does_not_say_it_is_connected(
        kind: str, broker: LocalBroker, tmp_path: Path) -> None:
    service = _services(tmp_path, broker.port)[kind]()
    sent: list[Any] = []
    service.client.subscribe = lambda *a, **k: sent.append(a)      # nothing reaches the broker
    service.start()
    try:
        assert _until(lambda: bool(sent), timeout=15)                  # the login was accepted ...
        assert not service.connected.wait(1.0)                         # ... but nothing is subscribed
    finally:
        service.stop()


@pytest.mark.parametrize("kind", KINDS)
def test_a_service_says_it_is_connected_once_subscribed(kind: str, broker: LocalBroker, tmp_path: Path) -> None:
    service = _services(tmp_path, broker.port)[kind]()
    service.start()
    try:
        assert service.connected.wait(15)
    finally:
        service.stop()


def test_a_table_message_sent_the_moment_the_session_is_connected_reaches_it(
        broker: LocalBroker, tmp_path: Path) -> None:
    """What the CI failure needed: once ``connected`` is set, a message reaches the session. Repeated on
    fresh sessions, since the gap it closes is short."""
    other = Client(broker.port, "table-01")
    try:
        for k in range(5):
            desk = _desk(tmp_path, f"session-{k}")
            service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, USERS[DASHBOARD_USER],
                                     tick=0.02)
            service.start()
            try:
                assert service.connected.wait(10)
                body = players_body(section="A", table_number=1, round=1, side="ns", pair="2 NS", members=["1", "2"])
                env = {"table": "table-01", "kind": "players", "seq": 5, "prev": 4, "deal": 0, "t": 1.0,
                       "body": body}
                other.c.publish("cardtable/table-01/players", json.dumps(env), qos=1).wait_for_publish(5)
                assert _until(lambda d=desk: len(d.session.refusals) > 0, timeout=10), k
            finally:
                service.stop()
    finally:
        other.stop()


def test_the_pages_health_says_when_its_broker_is_gone(broker: LocalBroker) -> None:
    import httpx  # not on a Pi that runs only the hardware tests (tests/install/test_hardware_step.py)

    page = _Page(broker.port)
    page.start()
    try:
        assert page.connected.wait(15)
        url = f"http://127.0.0.1:{page.http}/health"
        assert httpx.get(url, timeout=5).json()["broker"] is True
        broker.stop()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and httpx.get(url, timeout=5).json()["broker"]:
            time.sleep(0.05)
        assert httpx.get(url, timeout=5).json()["broker"] is False
    finally:
        page.stop()


def test_the_broadcast_bench_s_listener_is_ready_only_once_subscribed(broker: LocalBroker,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The broadcast bench's listeners (the spectator's and the attackers' logins its audit reads) said they
    were connected at the CONNACK too: what was published before their subscription was taken was never
    seen, so a leak in that moment would have gone unnoticed. A refused login still says so at once."""
    import paho.mqtt.client as mqtt

    from firmware_host.bench.broadcast_run import Listener

    with monkeypatch.context() as m:
        sent: list[Any] = []
        m.setattr(mqtt.Client, "subscribe", lambda self, *a, **k: sent.append(a))   # nothing reaches the broker
        quiet = Listener(broker.port, "spectator", USERS["spectator"], "listener-quiet")
        try:
            assert _until(lambda: bool(sent), timeout=15)
            assert not quiet.connected.wait(1.0)
        finally:
            quiet.close()
    ready = Listener(broker.port, "spectator", USERS["spectator"], "listener-ready")
    wrong = Listener(broker.port, "spectator", "not-the-password", "listener-wrong")
    try:
        assert ready.connected.wait(15) and not ready.refused
        assert wrong.connected.wait(15) and wrong.refused
    finally:
        ready.close()
        wrong.close()
