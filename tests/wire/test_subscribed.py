"""``wire/subscribed.py:when_subscribed``: the event is set when the broker granted every subscription,
not when it refused one (a broker whose access list refuses subscriptions answers with a failure code;
Mosquitto with an ``acl_file`` grants them and filters deliveries instead)."""

from __future__ import annotations

import logging
import threading

import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from firmware_host.wire.subscribed import when_subscribed

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
