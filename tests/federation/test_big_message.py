"""A club's message over 64 KiB is answered, not dropped (docs/federation.md, "Nothing lost, nothing
twice"). Found by an audit: payloads of 60,000-65,400 bytes were answered `conflict`, but at 65,600 and
over the federation's Mosquitto (max_packet_size 65536) dropped the club's connection, its QoS 1 client
sent the message again on every reconnect, and the club was never told; and a message nested more than
12 deep was answered with number 0, not its own."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from firmware_host.federation.brokers import FEDERATION_MAX_PACKET, federation_broker
from firmware_host.federation.service import EventSetup, FederationService, create_event
from firmware_host.federation.topics import SERVICE_USER, EventTopics
from firmware_host.federation.uplink import MAX_MESSAGE, ClubUplink
from firmware_host.wire.subscribed import stop_loop

ENTRY = {"op": "entry", "club": "c1", "number": 1, "pairs": [[1, "NS"], [1, "EW"]], "due": 1}


def _padded(size: int, number: int) -> bytes:
    m = {"op": "line", "club": "c1", "number": number, "pad": ""}
    m["pad"] = "x" * (size - len(json.dumps(m)))
    return json.dumps(m).encode()


def test_a_message_of_64_to_256_kib_reaches_the_service_and_is_answered_with_its_number(tmp_path: Path) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    import paho.mqtt.client as mqtt

    topics = EventTopics("big")
    fed = federation_broker(tmp_path / "fed", {"c1": "a", SERVICE_USER: "f"}, topics.acl(["c1"]))
    fed.start()
    create_event(tmp_path / "event", EventSetup("big", (1,), ("c1",)))
    service = None
    answers: list[dict[str, Any]] = []
    heard, dropped, ready, subscribed = (threading.Event() for _ in range(4))
    club = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="c1")
    try:
        assert f"max_packet_size {FEDERATION_MAX_PACKET}\n" in fed.conf_path.read_text(encoding="utf-8")
        club.username_pw_set("c1", "a")

        def on_message(c: Any, u: Any, msg: Any) -> None:
            got = json.loads(msg.payload)
            if got["verdict"] == "gap":         # the service's hello: it has subscribed
                ready.set()
            else:
                answers.append(got)
                heard.set()
        club.on_message = on_message
        club.on_subscribe = lambda *a: subscribed.set()
        club.on_disconnect = lambda *a: dropped.set()
        club.connect("127.0.0.1", fed.port)
        club.subscribe(topics.answer("c1"), qos=1)
        club.loop_start()
        assert subscribed.wait(20)
        service = FederationService(tmp_path / "event", "127.0.0.1", fed.local_port, "f").start()
        assert ready.wait(20)
        for size, number in ((100_000, 1), (FEDERATION_MAX_PACKET - 1000, 1)):
            heard.clear()
            club.publish(topics.result("c1"), _padded(size, number), qos=1)
            assert heard.wait(20), f"no answer to a message of {size} bytes"
            assert answers[-1] == {"verdict": "conflict", "number": number, "expect": 1,
                                   "why": f"a message of {size} bytes (at most 65536)"}
        assert not dropped.is_set()                 # the club's connection stands
    finally:
        stop_loop(club)
        club.disconnect()
        if service is not None:
            service.stop()
        fed.stop()


def test_a_message_nested_too_deep_is_answered_with_its_number(tmp_path: Path) -> None:
    create_event(tmp_path / "e", EventSetup("deep", (1,), ("c1",)))
    s = FederationService(tmp_path / "e", "127.0.0.1", 1, "unused")
    try:
        deep: Any = 1
        for _ in range(13):
            deep = [deep]
        answer = s.receive(s.topics.result("c1"), json.dumps(ENTRY | {"number": 4, "deep": deep}).encode())
        assert answer is not None and (answer.number, answer.why) == (
            4, "a message nested more than 12 deep (at most 12)")
        nothing = s.receive(s.topics.result("c1"), b'{"number": 4, "x": ' + b"[" * 40 + b"]" * 40 + b"}")
        assert nothing is not None and nothing.number == 0      # too deep for even the reader's own limit
    finally:
        s.stop()


def test_the_uplink_never_sends_a_message_over_64_kib() -> None:
    """The club's own broker would drop the uplink's connection for it, and the uplink would send it again
    on every reconnect: it stops at it instead, saying why (an entry of over about 1,200 tables)."""
    pairs = [[n, d] for n in range(1, 3001) for d in ("NS", "EW")]
    entry = {"op": "entry", "club": "c1", "number": 1, "pairs": pairs, "due": 1,
             "fields": {f"{n}{d}": d for n, d in pairs}}
    uplink = ClubUplink("c1", EventTopics("big"), lambda: [entry], "127.0.0.1", 1, "uplink", "pw")
    uplink.messages = [entry]
    assert uplink.pump(0.0) == 0
    size = len(json.dumps(entry, sort_keys=True).encode())
    assert size > MAX_MESSAGE and uplink.stopped_here
    assert uplink.stopped_for == f"message 1 is {size} bytes, over the 65536 a message may have: not sent"
