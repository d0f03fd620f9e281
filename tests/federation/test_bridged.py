"""A simultaneous through real Mosquitto processes: a federation broker and club brokers bridged to it,
each club's uplink sending its real session's results, the federation's service taking each exactly once
through outages (a club broker killed, the federation's broker restarted, the service killed), and the
ACL tried as an attacker would."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import pytest

from firmware_host.federation.brokers import EventBroker
from firmware_host.federation.service import EventSetup, FederationService, create_event, open_event
from firmware_host.federation.topics import SERVICE_USER, EventTopics
from firmware_host.federation.uplink import ClubUplink, club_messages, read_session
from firmware_host.wire.subscribed import stop_loop

EVENT = "sim1"


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two clubs' finished sessions on the same boards (the demo with different players' seeds)."""
    _need_mosquitto()
    from firmware_host.evening.duplicate_evening import DuplicateDemo

    out = {}
    for k, club in enumerate(("c1", "c2"), 1):
        folder = tmp_path_factory.mktemp(club) / "s"
        DuplicateDemo(folder, 3, 3, "mitchell", seed=10 + k, analyse=False).run(timeout=180)
        out[club] = folder / "session" / "session.sqlite3"
    return out


def _wait(what, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if what():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def test_messages_are_numbered_the_same_from_the_journal_alone(sessions: dict[str, Path]) -> None:
    rows = read_session(sessions["c1"])
    first, again = club_messages("c1", rows), club_messages("c1", rows)
    assert first == again and [m["number"] for m in first] == list(range(1, len(first) + 1))
    assert first[0]["op"] == "entry" and sum(1 for m in first if m["op"] == "line") == 9


def test_bridged_clubs_every_result_exactly_once_through_outages(sessions: dict[str, Path], tmp_path: Path) -> None:
    _need_mosquitto()
    topics = EventTopics(EVENT)
    clubs = sorted(sessions)
    passwords = {c: f"pw-{c}" for c in clubs} | {SERVICE_USER: "pw-fed"}
    fed = EventBroker(tmp_path / "fed", passwords, topics.acl(clubs), persistence=True)
    fed.start()
    club_brokers = {}
    for c in clubs:
        b = EventBroker(tmp_path / c, {"uplink": "up"}, topics.club_acl(c, "uplink"),
                        extra=topics.bridge(c, "127.0.0.1", fed.port, passwords[c]), persistence=True)
        b.start()
        club_brokers[c] = b
    boards = tuple(range(1, 4))
    create_event(tmp_path / "event", EventSetup(EVENT, boards, tuple(clubs)))
    service = FederationService(tmp_path / "event", "127.0.0.1", fed.port, "pw-fed").start()
    uplinks = {c: ClubUplink(c, topics, sessions[c], "127.0.0.1", club_brokers[c].port, "uplink", "up",
                             resend=0.5, poll=0.2).start() for c in clubs}
    try:
        time.sleep(0.3)
        club_brokers["c1"].kill()                               # a club's broker dies mid-send
        time.sleep(0.5)
        club_brokers["c1"].start()
        fed.stop()                                              # the federation's broker restarts
        time.sleep(0.5)
        fed.start()
        _wait(lambda: all(u.done for u in uplinks.values()), 60)
        service.stop()                                          # the service is killed and comes back
        service = FederationService(tmp_path / "event", "127.0.0.1", fed.port, "pw-fed").start()
        for u in uplinks.values():                              # every club sends everything again
            with u._lock:
                u.expect, u._sent_upto = 1, 0
        _wait(lambda: all(u.done for u in uplinks.values()), 60)
    finally:
        for u in uplinks.values():
            u.stop()
        service.stop()
        for b in club_brokers.values():
            b.stop()
        fed.stop()
    journal, state = open_event(tmp_path / "event")
    rows = [(r.body["club"], r.body["number"]) for r in journal.rows() if r.body.get("type") == "message"]
    journal.close()
    assert len(rows) == len(set(rows))                          # no message journaled twice
    for c in clubs:
        expected = club_messages(c, read_session(sessions[c]))
        assert state.ledger.state()[c] == len(expected)         # each taken once, none twice
    assert all(n == 9 for per in state.results.values() for n in [sum(per.values())])
    assert state.finished() == {c: frozenset(boards) for c in clubs}


def test_a_clubs_login_reads_and_writes_only_its_own(tmp_path: Path) -> None:
    _need_mosquitto()
    import paho.mqtt.client as mqtt

    topics = EventTopics(EVENT)
    fed = EventBroker(tmp_path / "fed", {"c1": "a", "c2": "b", SERVICE_USER: "f"}, topics.acl(["c1", "c2"]))
    fed.start()
    got: list[str] = []
    seen = threading.Event()
    try:
        spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="c2")
        spy.username_pw_set("c2", "b")
        spy.on_message = lambda c, u, m: (got.append(m.topic), seen.set())
        spy.connect("127.0.0.1", fed.port)
        spy.subscribe("#", qos=1)                               # c2 asks for everything
        spy.loop_start()
        svc = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=SERVICE_USER)
        svc.username_pw_set(SERVICE_USER, "f")
        svc.connect("127.0.0.1", fed.port)
        svc.loop_start()
        time.sleep(0.3)
        svc.publish(topics.answer("c1"), json.dumps({"verdict": "taken"}), qos=1).wait_for_publish(5)
        svc.publish(topics.answer("c2"), json.dumps({"verdict": "taken"}), qos=1).wait_for_publish(5)
        c1 = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="c1")
        c1.username_pw_set("c1", "a")
        c1.connect("127.0.0.1", fed.port)
        c1.loop_start()
        c1.publish(topics.result("c2"), "{}", qos=1).wait_for_publish(5)   # c1 pretends to be c2
        seen.wait(5)
        time.sleep(0.5)
        for client in (spy, svc, c1):
            stop_loop(client)
            client.disconnect()
    finally:
        fed.stop()
    assert got == [topics.answer("c2")], got


def test_the_service_on_connecting_tells_every_club_where_to_send_from(tmp_path: Path) -> None:
    """After an outage of the federation (its broker or its process), each club hears at once the number
    to send from (an answer ``gap`` numbered 0) instead of waiting out its back-off."""
    _need_mosquitto()
    import paho.mqtt.client as mqtt

    topics = EventTopics(EVENT)
    fed = EventBroker(tmp_path / "fed", {"c1": "a", "c2": "b", SERVICE_USER: "f"}, topics.acl(["c1", "c2"]))
    fed.start()
    create_event(tmp_path / "event", EventSetup(EVENT, (1,), ("c1", "c2")))
    got: list[dict[str, object]] = []
    heard = threading.Event()
    spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="c1-spy")
    spy.username_pw_set("c1", "a")
    spy.on_connect = lambda client, *_: client.subscribe(topics.answer("c1"), qos=1)
    spy.on_message = lambda c, u, m: (got.append(json.loads(m.payload)), heard.set())
    spy.connect("127.0.0.1", fed.port)
    spy.loop_start()
    service = None
    try:
        time.sleep(0.3)
        service = FederationService(tmp_path / "event", "127.0.0.1", fed.port, "f").start()
        assert heard.wait(10)
        assert got[0] == {"verdict": "gap", "number": 0, "expect": 1, "why": "the federation is back: send from 1"}
    finally:
        if service is not None:
            service.stop()
        stop_loop(spy)
        spy.disconnect()
        fed.stop()


def test_clubs_bridge_to_the_federation_over_tls_and_a_wrong_ca_gets_nothing_through(
        sessions: dict[str, Path], tmp_path: Path) -> None:
    """The federation's broker speaks only TLS to the clubs (``federation serve --certfile --keyfile``): a
    club whose bridge checks the federation's certificate against its CA (``club federate --cafile``) sends
    every result and hears every answer; a club given another CA never connects, and a client that does
    not speak TLS is not let in. The service uses the broker's loopback listener beside it."""
    _need_mosquitto()
    import paho.mqtt.client as mqtt

    from firmware_host.club.certs import make_broker_cert, make_club_ca
    from firmware_host.federation.brokers import federation_broker

    ca = make_club_ca(tmp_path / "fed-ca")
    cert, key = make_broker_cert(tmp_path / "fed-ca", ["127.0.0.1"])
    wrong_ca = make_club_ca(tmp_path / "other-ca")
    topics = EventTopics(EVENT)
    clubs = sorted(sessions)
    passwords = {c: f"pw-{c}" for c in clubs} | {SERVICE_USER: "pw-fed"}
    fed = federation_broker(tmp_path / "fed", passwords, topics.acl(clubs), tls=(cert, key))
    assert fed.local_port != fed.port
    fed.start()
    trusted = {"c1": ca, "c2": wrong_ca}
    club_brokers = {c: EventBroker(tmp_path / c, {"uplink": "up"}, topics.club_acl(c, "uplink"),
                                   extra=topics.bridge(c, "127.0.0.1", fed.port, passwords[c], cafile=trusted[c],
                                                       restart=(1, 2)))
                    for c in clubs}
    create_event(tmp_path / "event", EventSetup(EVENT, tuple(range(1, 4)), tuple(clubs)))
    service = uplinks = None
    try:
        for b in club_brokers.values():
            b.start()
        service = FederationService(tmp_path / "event", "127.0.0.1", fed.local_port, "pw-fed").start()
        uplinks = {c: ClubUplink(c, topics, sessions[c], "127.0.0.1", club_brokers[c].port, "uplink", "up",
                                 resend=0.5, poll=0.2).start() for c in clubs}
        _wait(lambda: uplinks["c1"].done, 60)
        time.sleep(3)                               # c2's bridge has tried (restart 1-2 s) and failed
        assert not uplinks["c2"].done and uplinks["c2"].expect == 1
        def plain_login(port: int) -> bool:         # MQTT without TLS, with a good login: let in?
            # c2's login: its bridge is not connected, so this one takes over no one's session (the
            # broker makes a login its client id)
            plain = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"c2-plain-{port}")
            plain.username_pw_set("c2", passwords["c2"])
            try:
                plain.connect("127.0.0.1", port, keepalive=5)
                end = time.monotonic() + 5
                while not plain.is_connected() and time.monotonic() < end:
                    if plain.loop(timeout=0.2) != mqtt.MQTT_ERR_SUCCESS:
                        return False
                return plain.is_connected()
            except OSError:
                return False
            finally:
                plain.disconnect()

        assert plain_login(fed.local_port)          # the check can say yes: the loopback listener
        assert not plain_login(fed.port)            # the clubs' listener speaks TLS only
    finally:
        for u in (uplinks or {}).values():
            u.stop()
        if service is not None:
            service.stop()
        for b in club_brokers.values():
            b.stop()
        fed.stop()
    journal, state = open_event(tmp_path / "event")
    journal.close()
    assert state.ledger.state()["c1"] == len(club_messages("c1", read_session(sessions["c1"])))
    assert state.ledger.state().get("c2", 0) == 0
    assert any("certificate verify failed" in line or "tls" in line.lower()
               for line in club_brokers["c2"].log_lines), club_brokers["c2"].log_lines[-5:]
