"""A retained message the federation publishes while a club's bridge is up stays retained at the club.

The club's machine reads the federation's retained topics from its own broker, later: ``cardtable club
records`` the hand records days ahead, a club's screens its ``in/field`` and ``in/board/<n>``. MQTT
clears the retain flag of a message sent to a subscriber that was already subscribed, so unless the
federation's broker knows the club's bridge for a bridge (Mosquitto's ``try_private``) the club's broker
gets the message as a live one and does not keep it: a subscriber at the club gets nothing until the
bridge connects again (the small scale run waited a minute for its records).
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

from firmware_host.federation.brokers import EventBroker
from firmware_host.federation.topics import SERVICE_USER, EventTopics
from firmware_host.wire.subscribed import stop_loop


def test_the_records_published_while_the_bridge_is_up_are_kept_at_the_club(tmp_path: Path) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    import paho.mqtt.client as mqtt

    topics = EventTopics("kept")
    fed = EventBroker(tmp_path / "fed", {"c1": "p", SERVICE_USER: "f"}, topics.acl(["c1"]))
    club = EventBroker(tmp_path / "c1", {"uplink": "u"}, topics.club_acl("c1", "uplink"),
                       extra=topics.bridge("c1", "127.0.0.1", fed.port, "p"))
    clients: list[mqtt.Client] = []

    def client(user: str, password: str, port: int, on_message: object = None) -> mqtt.Client:
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{user}-test{len(clients)}")
        c.username_pw_set(user, password)
        if on_message is not None:
            c.on_message = on_message
        c.connect("127.0.0.1", port)
        c.loop_start()
        clients.append(c)
        return c

    try:
        fed.start()
        club.start()
        through = threading.Event()                 # the bridge is up: a club's message reaches the federation
        service = client(SERVICE_USER, "f", fed.port, lambda *_: through.set())
        service.subscribe(topics.all_results, qos=1)
        uplink = client("uplink", "u", club.port)
        end = time.monotonic() + 20
        while not through.wait(0.3) and time.monotonic() < end:
            uplink.publish(topics.result("c1"), "{}", qos=1)
        assert through.is_set(), "the bridge never came up"
        live, subscribed = threading.Event(), threading.Event()
        first = client("uplink", "u", club.port, lambda *_: live.set())
        first.on_subscribe = lambda *_: subscribed.set()
        first.subscribe(topics.records("c1"), qos=1)
        assert subscribed.wait(10)
        service.publish(topics.records("c1"), "the records", qos=1, retain=True).wait_for_publish(10)
        assert live.wait(10)                        # the live copy crossed the bridge to a reader there
        kept = threading.Event()                    # a reader that subscribes afterwards gets the kept one
        later = client("uplink", "u", club.port, lambda *_: kept.set())
        later.subscribe(topics.records("c1"), qos=1)
        assert kept.wait(10), "the club's broker did not keep the federation's retained message"
    finally:
        for c in clients:
            stop_loop(c)
            c.disconnect()
        club.stop()
        fed.stop()
