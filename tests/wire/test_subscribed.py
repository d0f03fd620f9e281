"""``wire/subscribed.py:when_subscribed``: the event is set when the broker granted every subscription,
not when it refused one (a broker whose access list refuses subscriptions answers with a failure code;
Mosquitto with an ``acl_file`` grants them and filters deliveries instead). ``stop_loop``: a service stops
its client's network thread cleanly even when the thread ends as paho's ``loop_stop`` looks at it, and
nothing shipped calls ``loop_stop`` but it."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from firmware_host.wire.subscribed import when_subscribed
from tests.wire.paho_race import Ending

log = logging.getLogger("tests.wire.subscribed")


def _codes(*names: str) -> list[ReasonCode]:
    return [ReasonCode(PacketTypes.SUBACK, name) for name in names]


def test_every_subscription_granted_sets_the_event() -> None:
    ev = threading.Event()
    when_subscribed(ev, "the session", log)(None, None, 1, _codes("Granted QoS 1", "Granted QoS 0"), None)
    assert ev.is_set()


def test_one_refused_subscription_leaves_it_unset_and_names_the_service(caplog: pytest.LogCaptureFixture) -> None:
    ev = threading.Event()
    with caplog.at_level(logging.ERROR, logger=log.name):
        when_subscribed(ev, "the session", log)(None, None, 1, _codes("Granted QoS 1", "Not authorized"), None)
    assert not ev.is_set()
    assert "the session: the broker refused a subscription (Not authorized)" in caplog.text


def test_a_euchre_night_whose_network_thread_ends_as_it_stops_stops_cleanly(tmp_path: Path) -> None:
    """The euchre night's service stopped with paho's loop_stop alone, which raised AttributeError
    ('NoneType' object has no attribute 'join') when its thread ended between loop_stop's two looks at it
    (the federation's did, af59b9c); every service now stops through ``stop_loop``."""
    from firmware_host.euchre_night.service import NightService
    from firmware_host.euchre_night.session import NightSession
    from tests.euchre_night.test_session import setup

    session = NightSession.create(tmp_path / "night", setup())
    try:
        service = NightService(session, "127.0.0.1", 1, "dashboard", "x")   # never started
        service.client._thread = Ending(service.client)  # type: ignore[attr-defined]
        service.stop()
        assert service.client._thread is None  # type: ignore[attr-defined]
    finally:
        session.close()


def test_nothing_shipped_stops_a_network_thread_with_paho_s_loop_stop_alone() -> None:
    """About fifteen places (the club's dashboard, the sessions, the euchre night, the table's publisher,
    the broadcast, soak, bench, doctor) called paho's loop_stop directly, each exposed to the race above;
    ``wire/subscribed.py:stop_loop`` is the one place that may."""
    root = Path(__file__).resolve().parents[2] / "firmware_host"
    direct = [f"{path.relative_to(root.parent)}:{n}" for path in sorted(root.rglob("*.py"))
              if path != root / "wire" / "subscribed.py"
              for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if ".loop_stop" in line]
    assert direct == [], direct
