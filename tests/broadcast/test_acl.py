"""The broker's ACL for the broadcast, against a real Mosquitto and a real table publisher: the tables'
play (cards of open deals) reaches the broadcast login and no other (not the dashboard, not a
spectator); a spectator can write nothing, nor pass for a table or for the broadcast."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import LocalBroker
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.tablelink.secrecy import names_a_card
from firmware_host.wire.subscribed import stop_loop

PASSWORDS = {"dashboard": "d-pw-1", "broadcast": "b-pw-1", "spectator": "s-pw-1", "t1": "t1-pw-1"}


class Watcher:
    def __init__(self, port: int, user: str) -> None:
        import paho.mqtt.client as mqtt

        self.messages: list[tuple[str, bytes]] = []
        self.subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"w-{user}")
        self.client.username_pw_set(user, PASSWORDS[user])
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe("#", qos=1)
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, m.payload))
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.subscribed.wait(10)

    def topics(self) -> set[str]:
        return {t for t, _p in self.messages}

    def close(self) -> None:
        self.client.disconnect()
        stop_loop(self.client)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[LocalBroker]:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    b = LocalBroker(tmp_path / "broker", PASSWORDS)
    b.start()
    yield b
    b.stop()


def _wait(pred: Any, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return False


def test_play_reaches_the_broadcast_login_alone(broker: LocalBroker, tmp_path: Path) -> None:
    watchers = {u: Watcher(broker.port, u) for u in ("dashboard", "broadcast", "spectator")}
    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal, password=PASSWORDS["t1"])
    pub.start()
    try:
        assert pub.connected_event.wait(10)
        pub.event({"type": "call", "seat": "N", "call": "1S"}, 1, 4)
        pub.event({"type": "card_played", "seat": "E", "card": "QH"}, 1, 5)
        pub.ruling({"clause": "BP-27", "law": "x", "reason": "East led the queen of hearts out of turn",
                    "remedy": "accept"}, 1, 6)
        assert _wait(lambda: len([t for t in watchers["broadcast"].topics() if t.endswith("/play")]) >= 1)
        assert _wait(lambda: sum(t.endswith("/ruling") for t, _ in watchers["dashboard"].messages) >= 1)
        time.sleep(0.5)
        plays = [json.loads(p) for t, p in watchers["broadcast"].messages if t == "cardtable/t1/play"]
        assert [m["seq"] for m in plays] == [4, 5, 6] and plays[1]["body"]["body"]["card"] == "QH"
        assert watchers["broadcast"].topics() <= {"cardtable/t1/play"}
        dash = watchers["dashboard"].messages
        assert not [t for t, _ in dash if t.endswith("/play")]
        assert not any(names_a_card(p.decode(), ["QH"]) for _t, p in dash), "the dashboard saw an open deal's card"
        assert watchers["spectator"].messages == []
    finally:
        pub.stop()
        journal.close()
        for w in watchers.values():
            w.close()


def test_a_spectator_writes_nothing(broker: LocalBroker) -> None:
    watchers = {u: Watcher(broker.port, u) for u in ("dashboard", "broadcast")}
    spy = Watcher(broker.port, "spectator")
    try:
        fake = json.dumps({"table": "t1", "kind": "play", "seq": 1, "t": 1.0,
                           "body": {"row": "event", "body": {"type": "card_played", "seat": "N", "card": "AS"}}})
        for topic in ("cardtable/t1/play", "cardtable/spectator/play", "cardtable/spectator/event",
                      "cardtable/spectate/table/1/board/1", "cardtable/spectate/event", "cardtable/session/round"):
            spy.client.publish(topic, fake, qos=1).wait_for_publish(5)
        # the broadcast may write the released topics: this marker comes after anything let through above
        watchers["broadcast"].client.publish("cardtable/spectate/marker", "{}", qos=1).wait_for_publish(5)
        assert _wait(lambda: "cardtable/spectate/marker" in spy.topics())
        time.sleep(0.3)
        for w in (*watchers.values(), spy):
            assert w.topics() <= {"cardtable/spectate/marker"}, w.topics()
        # the dashboard may not write the released topics either
        watchers["dashboard"].client.publish("cardtable/spectate/table/1/board/1", "{}", qos=1).wait_for_publish(5)
        time.sleep(0.3)
        assert spy.topics() == {"cardtable/spectate/marker"}
    finally:
        for w in (*watchers.values(), spy):
            w.close()


def test_rows_committed_but_never_queued_are_sent_on_play_at_the_next_start(broker: LocalBroker,
                                                                            tmp_path: Path) -> None:
    """A table stopped between a commit and its outbox (a kill): the next start sends those rows' play."""
    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal, password=PASSWORDS["t1"])
    seq = journal.append("event", {"type": "call", "seat": "N", "call": "1S"}, 1.0)
    pub.event({"type": "call", "seat": "N", "call": "1S"}, 1, seq)
    pub.stop()
    # committed, never told to the publisher: the process died in between
    lost = journal.append("event", {"type": "card_played", "seat": "E", "card": "QH"}, 2.0)
    journal.append("note", {"text": "not a play row"}, 2.1)
    watcher = Watcher(broker.port, "broadcast")
    again = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal, password=PASSWORDS["t1"])
    again.start()
    try:
        assert _wait(lambda: any(json.loads(p)["seq"] == lost for t, p in watcher.messages if t == "cardtable/t1/play"))
        time.sleep(0.3)
        seqs = [json.loads(p)["seq"] for t, p in watcher.messages if t == "cardtable/t1/play"]
        assert seqs.count(lost) == 1
        body = next(json.loads(p)["body"] for t, p in watcher.messages if json.loads(p)["seq"] == lost)
        assert body == {"row": "event", "body": {"type": "card_played", "seat": "E", "card": "QH"}}
    finally:
        again.stop()
        journal.close()
        watcher.close()


def _puback(port: int, user: str, topic: str) -> int:
    """Publish at QoS 1 as ``user`` over MQTT 5 and return the broker's PUBACK reason code (0 delivered,
    135 not authorized): the broker's own answer, so nothing waits on a guess."""
    import paho.mqtt.client as mqtt

    done: dict[str, int] = {}
    acked = threading.Event()
    connected = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"p-{user}", protocol=mqtt.MQTTv5)
    client.username_pw_set(user, PASSWORDS[user])
    client.on_connect = lambda c, u, f, rc, p: connected.set()

    def on_publish(c: Any, u: Any, mid: int, rc: Any, props: Any) -> None:
        done["rc"] = rc.value
        acked.set()

    client.on_publish = on_publish
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        assert connected.wait(10)
        client.publish(topic, "{}", qos=1)
        assert acked.wait(10), f"no PUBACK for {topic}"
        return done["rc"]
    finally:
        client.disconnect()
        stop_loop(client)


def test_the_dashboards_command_rule_does_not_reach_the_spectators_feed(broker: LocalBroker) -> None:
    """`topic write cardtable/+/command/+` matched cardtable/spectate/command/ack as well, so the
    dashboard could publish into what spectators read (audit 64, F6); only the broadcast login may."""
    spy = Watcher(broker.port, "spectator")
    table = Watcher(broker.port, "t1")
    try:
        for topic in ("cardtable/spectate/command/ack", "cardtable/spectate/command/result",
                      "cardtable/spectate/event", "cardtable/spectate/table/1/board/1"):
            assert _puback(broker.port, "dashboard", topic) == 135, topic
        # the dashboard's commands to a table still go through, and the broadcast still writes spectate/
        assert _puback(broker.port, "dashboard", "cardtable/t1/command/ack") == 0
        assert _puback(broker.port, "broadcast", "cardtable/spectate/marker") == 0
        assert _wait(lambda: "cardtable/spectate/marker" in spy.topics())
        assert _wait(lambda: "cardtable/t1/command/ack" in table.topics())
        assert spy.topics() == {"cardtable/spectate/marker"}, spy.topics()
    finally:
        spy.close()
        table.close()


def test_a_viewer_of_its_own_has_a_login_of_its_own_and_leaves_the_page_connected(tmp_path: Path) -> None:
    """The only spectator login `cardtable club broker` made was `spectator`, the spectators' page's: one
    login is one connection (``use_username_as_clientid``), so a vugraph relay reading the documented feed
    with it knocked the page's server off, and each took the other's place about once a second (the page's
    ``/health`` said ``"broker": false`` half the time). ``--viewer NAME`` makes a login with a spectator's
    rights for such a program."""
    import subprocess
    import sys

    import paho.mqtt.client as mqtt

    from firmware_host.club.broker import free_port

    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    cli = [sys.executable, "-m", "firmware_host.cli", "club", "broker", "--dir", str(tmp_path / "b"), "--tables", "1"]
    for bad in ("spectator", "table-01", "a/b"):
        done = subprocess.run([*cli, "--viewer", bad], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and f"--viewer {bad!r} is not allowed" in done.stderr, done.stderr
    port = free_port()
    proc = subprocess.Popen([*cli, "--viewer", "vugraph", "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    clients: list[mqtt.Client] = []
    try:
        assert proc.stdout is not None and "mosquitto listening" in proc.stdout.readline()
        pw = {u: (tmp_path / "b" / "passwords" / f"{u}.password").read_text().strip()
              for u in ("broadcast", "spectator", "vugraph")}
        got: dict[str, list[str]] = {"spectator": [], "vugraph": []}
        gone: list[str] = []
        subscribed = threading.Semaphore(0)

        def login(user: str) -> mqtt.Client:
            c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{user}-own-id", protocol=mqtt.MQTTv5)
            c.username_pw_set(user, pw[user])
            if user in got:
                c.on_connect = lambda cl, u, f, rc, p: cl.subscribe("cardtable/spectate/#", qos=1)
                c.on_subscribe = lambda *a: subscribed.release()
                c.on_message = lambda cl, u, m: got[user].append(m.topic)
                c.on_disconnect = lambda *a: gone.append(user)
            c.connect("127.0.0.1", port)
            c.loop_start()
            clients.append(c)
            return c

        login("spectator")      # the page's server
        login("vugraph")        # the relay
        assert subscribed.acquire(timeout=10) and subscribed.acquire(timeout=10)
        # the relay may not write what spectators read; the broadcast's marker comes after anything let through
        clients[1].publish("cardtable/spectate/table/9/board/9", "{}", qos=1).wait_for_publish(5)
        login("broadcast").publish("cardtable/spectate/table/1/board/1", "{}", qos=1).wait_for_publish(5)
        assert _wait(lambda: all(got.values()), 30), got
        assert got == {"spectator": ["cardtable/spectate/table/1/board/1"],
                       "vugraph": ["cardtable/spectate/table/1/board/1"]} and gone == []
    finally:
        for c in clients:
            c.loop_stop()
            c.disconnect()
        proc.terminate()
        proc.wait(20)
