"""The club link loses nothing (against a real Mosquitto): a login cannot take over another client's
session, a command sent to a table that is down reaches it when it returns (and the dashboard shows it
pending until then), a gap in a table's messages makes the dashboard read the table's retained state
again, and `club broker` shows Mosquitto's own log at normal verbosity."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import LocalBroker
from firmware_host.club.dashboard import Dashboard
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.web.auth import hash_password
from firmware_host.wire.subscribed import stop_loop

from .conftest import PASSWORDS, Watcher, mqtt_client


def _until(pred: Callable[[], bool], timeout: float = 15.0) -> bool:
    """Wait for something another process does (the broker, paho's thread)."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            return False
        threading.Event().wait(0.02)
    return True


def _table(broker: LocalBroker, journal: Journal, commands: list[tuple[str, dict[str, Any]]]) -> MqttPublisher:
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal, password=PASSWORDS["t1"])
    pub.on_command(lambda kind, body: commands.append((kind, body)))
    pub.start()
    assert pub.connected_event.wait(10)
    return pub


def test_a_login_cannot_take_over_another_clients_session(broker: LocalBroker, watcher: Watcher,
                                                         tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    pub = _table(broker, journal, [])
    try:
        with caplog.at_level(logging.WARNING):
            for stolen in ("t1", "cardtable-t1", "dashboard", "watcher"):
                evil, rc = mqtt_client(broker.port, "t2", client_id=stolen)  # t2's login, another's client id
                assert not rc.is_failure
                evil.disconnect()
                stop_loop(evil)
            seq = journal.append("event", {"type": "shuffle", "seat": "N"}, time.time())
            pub.event({"type": "shuffle", "seat": "N"}, 0, seq)
            assert watcher.wait_for(lambda ms: any(t == "cardtable/t1/event" for t, _ in ms))
        assert pub.connected and "lost the broker" not in caplog.text, broker.log_lines  # never knocked off
        assert not any("already connected" in line for line in broker.log_lines), broker.log_lines
    finally:
        pub.stop()
        journal.close()


def _dashboard(broker: LocalBroker) -> Any:
    from starlette.testclient import TestClient

    d = Dashboard("127.0.0.1", broker.port, "dashboard", PASSWORDS["dashboard"],
                  {"director": hash_password("right-horse-1")})
    return d, TestClient(d.app, base_url="http://club.test")


def _director(client: Any) -> dict[str, str]:
    r = client.post("/login", data={"username": "director", "password": "right-horse-1"}, follow_redirects=False)
    assert r.status_code == 303
    token = client.get("/").text.split('name="csrf-token" content="')[1].split('"')[0]
    return {"X-CSRF-Token": token, "Origin": "http://club.test"}


def test_a_command_sent_to_a_table_that_is_down_reaches_it_after_its_restart(broker: LocalBroker,
                                                                            tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    d, client = _dashboard(broker)
    commands: list[tuple[str, dict[str, Any]]] = []
    snapshot = {"table": "t1", "phase": "dealing", "game": "contract-bridge", "deal": 1, "dealer": "N",
                "lamps": {"replace_pack": True}, "seq": 1,  # a fresh pack: a call (club/calls.py)
                "ruling": {"remedy": "replace_pack", "law": "Contract Bridge, Imperfect pack", "clause": "CB-damaged",
                           "reason": "A damaged card was dealt."}}
    with client:
        headers = _director(client)
        pub = _table(broker, journal, commands)
        pub.status(snapshot)
        assert _until(lambda: d.state.tables.get("t1") is not None and d.state.tables["t1"].call is not None)
        pub.stop()  # the table goes down (restarting, unplugged)
        r = client.post("/api/ack", json={"table": "t1"}, headers=headers)
        assert r.status_code == 200 and r.json()["pending"]
        cid = r.json()["command"]["id"]
        assert [p["id"] for p in d.state.tables["t1"].pending] == [cid]
        assert not commands
        # the table comes back: a new process, same login; its controller obeys and tells its status
        pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal,
                            password=PASSWORDS["t1"])

        def obey(kind: str, body: dict[str, Any]) -> None:
            commands.append((kind, body))
            pub.status({**snapshot, "lamps": {"replace_pack": False}, "seq": 2})

        pub.on_command(obey)
        pub.start()
        try:
            assert _until(lambda: bool(commands)), "the command sent while the table was down never arrived"
            assert commands[0][0] == "ack" and commands[0][1]["id"] == cid
            # the dashboard shows it pending until the table's status says it is done; then the call is cleared
            assert _until(lambda: not d.state.tables["t1"].pending)
            assert d.state.tables["t1"].call is None
        finally:
            pub.stop()
            journal.close()


class _TableT2:
    """Table t2 as a raw MQTT client on ``broker``, with every topic ``d``'s hub is handed recorded in
    ``seen`` (in order; the hub still gets each): the gap tests send t2's messages themselves, gaps and
    retained topics included, and watch what the dashboard reads again."""

    def __init__(self, broker: LocalBroker, d: Any) -> None:
        self.seen: list[str] = []
        put = d.hub.put

        def record(topic: str, payload: bytes) -> None:
            self.seen.append(topic)
            put(topic, payload)

        d.hub.put = record
        self.client, _ = mqtt_client(broker.port, "t2", client_id="t2")

    def send(self, kind: str, seq: int, body: dict[str, Any], retain: bool = False, topic: str | None = None,
             **extra: Any) -> None:
        """One message of t2's (its envelope with ``extra``) on ``topic``, by default ``cardtable/t2/<kind>``."""
        env = {"table": "t2", "kind": kind, "seq": seq, "deal": 1, "t": time.time(), "body": body, **extra}
        self.client.publish(topic or f"cardtable/t2/{kind}", json.dumps(env), qos=1,
                            retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        stop_loop(self.client)


def test_a_gap_in_a_tables_messages_is_filled_from_its_retained_status(broker: LocalBroker) -> None:
    d, client = _dashboard(broker)
    t2 = _TableT2(broker, d)
    seen, send = t2.seen, t2.send
    with client:
        _director(client)
        send("status", 4, {"phase": "dealing", "deal": 1, "lamps": {"replace_pack": True},
                           "ruling": {"remedy": "replace_pack", "law": "Contract Bridge, Imperfect pack",
                                      "clause": "CB-damaged", "reason": "A damaged card was dealt."}}, retain=True)
        send("event", 1, {"type": "shuffle"}, prev=0)
        assert _until(lambda: d.state.tables.get("t2") is not None and d.state.tables["t2"].events == 1)
        statuses = seen.count("cardtable/t2/status")
        send("event", 9, {"type": "cut"}, prev=6)  # 2 to 6 were lost on the way
        assert _until(lambda: seen.count("cardtable/t2/status") > statuses), "no resync from the retained status"
        assert d.state.tables["t2"].resyncs == 1 and d.state.tables["t2"].call is not None
        assert d.state.feed[0]["headline"] == "MESSAGES MISSED"
    t2.close()


def test_a_resync_never_has_every_retained_pack_of_a_table_sent_again(broker: LocalBroker) -> None:
    """A live attack: a table login left 2,000 retained ``pack/<name>`` topics on the broker, then sent
    ordered messages with gaps; each gap subscribed the dashboard again to ``pack/+``, the broker sent all
    2,000 again each time, and another table's status reached the director 14 s late. A re-read asks for the
    status and the packs shown (``ClubState.resync_topics``), at most PACKS_SHOWN."""
    from firmware_host.club.state import PACKS_SHOWN

    d, client = _dashboard(broker)
    t2 = _TableT2(broker, d)
    seen, send = t2.seen, t2.send
    packs = PACKS_SHOWN + 20
    with client:
        _director(client)
        send("status", 4, {"phase": "dealing", "deal": 1, "lamps": {}}, retain=True)
        for k in range(packs):
            send("pack", 5, {"pack": f"P{k}", "unreadable": 0, "damaged": 0, "deals": 1}, retain=True,
                 topic=f"cardtable/t2/pack/P{k}")
        send("event", 1, {"type": "shuffle"}, prev=0)
        assert _until(lambda: d.state.tables.get("t2") is not None and d.state.tables["t2"].events == 1)
        assert _until(lambda: len([t for t in seen if "/pack/" in t]) == packs)
        before, statuses = len(seen), seen.count("cardtable/t2/status")
        send("event", 9, {"type": "cut"}, prev=6)  # a gap: the table is read again
        assert _until(lambda: seen.count("cardtable/t2/status") > statuses), "no resync from the retained status"
        # what the re-read's subscription brought is queued before a message sent after it came: a marker
        send("event", 10, {"type": "deal_start"}, prev=9)
        assert _until(lambda: d.state.tables["t2"].events == 3)
        again = [t for t in seen[before:] if "/pack/" in t]
        assert len(again) == PACKS_SHOWN and set(again) == {f"cardtable/t2/pack/P{k}" for k in range(PACKS_SHOWN)}
    t2.close()


def test_club_broker_shows_mosquittos_log_at_normal_verbosity(tmp_path: Path) -> None:
    import subprocess
    import sys

    from firmware_host.club.broker import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "club", "broker", "--dir",
                             str(tmp_path / "b"), "--port", str(port), "--table", "t1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        lines: list[str] = []
        threading.Thread(target=lambda: lines.extend(proc.stderr or []), daemon=True).start()
        assert _until(lambda: any(" running" in line for line in lines), 20), lines
        import paho.mqtt.client as mqtt

        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="x")
        c.username_pw_set("t1", "a wrong password")
        c.connect("127.0.0.1", port)
        c.loop_start()
        assert _until(lambda: any("not authorised" in line.lower() for line in lines), 20), "\n".join(lines)
        stop_loop(c)
    finally:
        proc.terminate()
        proc.wait(10)
