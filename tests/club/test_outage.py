"""Broker outage in the middle of a deal: the table keeps working, queues in its journal, and everything
arrives afterwards, in order, once (as the dashboard shows it)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.club.state import ClubState
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.tablelink.secrecy import HIDDEN_IN_WORDS
from firmware_host.wire.subscribed import stop_loop

from .conftest import PASSWORDS, _need


class PersistentWatcher:
    """A dashboard-user client with a persistent session: the broker keeps its subscription and queues
    its messages across a restart, so it misses nothing the table sends."""

    def __init__(self, port: int) -> None:
        import paho.mqtt.client as mqtt

        self.messages: list[tuple[str, bytes]] = []
        self.cond = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="outage-watcher",
                                  clean_session=False)
        self.client.username_pw_set(DASHBOARD_USER, PASSWORDS[DASHBOARD_USER])
        self.client.reconnect_delay_set(1, 2)
        self.subscribed = threading.Event()
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe("cardtable/+/event", qos=1)
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.subscribed.wait(10)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self.cond:
            self.messages.append((msg.topic, msg.payload))
            self.cond.notify_all()

    def wait_for_seq(self, seq: int, timeout: float = 30.0) -> bool:
        with self.cond:
            return self.cond.wait_for(
                lambda: any(json.loads(p)["seq"] == seq for _, p in self.messages), timeout)


def _deal_events(n: int, start: int) -> list[dict[str, Any]]:
    seats = "NESW"
    return [{"type": "card_dealt", "seat": seats[i % 4], "card": None} for i in range(start, start + n)]


def test_outage_mid_deal_delivers_everything_in_order_once(tmp_path: Path) -> None:
    _need("mosquitto", "mosquitto")
    broker = LocalBroker(tmp_path / "broker", PASSWORDS, persistence=True)
    broker.start()
    watcher = PersistentWatcher(broker.port)
    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    cfg = MqttConfig(host="127.0.0.1", port=broker.port)
    pub = MqttPublisher(cfg, "t1", journal, password=PASSWORDS["t1"])
    pub.start()
    try:
        assert pub.connected_event.wait(10)
        sent: list[int] = []

        def play(p: MqttPublisher, events: list[dict[str, Any]]) -> None:
            for ev in events:
                seq = journal.append("event", ev, time.time())
                p.event(ev, 1, seq)
                sent.append(seq)

        play(pub, [{"type": "deal_start", "dealer": "N", "pack": "red"}, *_deal_events(9, 0)])
        assert watcher.wait_for_seq(sent[-1])

        broker.stop()  # the broker goes away mid-deal
        play(pub, _deal_events(10, 9))  # the table keeps working: these calls return at once
        assert pub.pending() >= 10

        pub.stop()  # the table is even restarted while the broker is away
        pub = MqttPublisher(cfg, "t1", journal, password=PASSWORDS["t1"])
        pub.start()
        play(pub, _deal_events(10, 19))
        assert pub.pending() >= 20

        broker.start()  # same port, same persistent session for the watcher
        assert watcher.wait_for_seq(sent[-1]), "the queued events never arrived"
        assert pub.connected_event.wait(10)

        state = ClubState()
        shown: list[int] = []
        with watcher.cond:
            received = list(watcher.messages)
        for topic, payload in received:
            if state.ingest(topic, payload, 0.0):
                shown.append(json.loads(payload)["seq"])
        assert shown == sent, "the dashboard must show every event once, in the table's order"
        assert state.tables["t1"].events == len(sent)
        assert all(json.loads(p)["body"].get("card") is None for _, p in received)
    finally:
        pub.stop()
        watcher.client.disconnect()
        stop_loop(watcher.client)
        broker.stop()
        journal.close()
    again = Journal.open(tmp_path / "t1")
    assert again.verify().ok, "the outbox must not disturb the journal's hash chain"
    again.close()


def test_an_unreachable_broker_never_blocks_the_table(tmp_path: Path) -> None:
    from firmware_host.club.broker import free_port

    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=free_port()), "t1", journal, password="x")
    pub.start()
    try:
        for i in range(50):
            seq = journal.append("event", {"type": "shuffle", "seat": "N"}, float(i))
            pub.event({"type": "shuffle", "seat": "N"}, 0, seq)
        pub.status({"table": "t1", "phase": "dealing", "lamps": {}, "hands": {"N": ["AS"]},
                    "ruling": {"reason": "The ace of spades was faced.", "extra": {"cards": ["KH"]}}})
        assert pub.pending() == 50 and not pub.connected
        payload = pub._status_msg or ""
        assert '"kind":"status"' in payload and "hands" not in payload
        assert "ace of spades" not in payload and "KH" not in payload and HIDDEN_IN_WORDS[1:] in payload  # capital or not
    finally:
        pub.stop()
        journal.close()


def test_a_table_id_that_cannot_be_a_topic_is_refused(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j")
    with pytest.raises(ValueError, match="topic level"):
        MqttPublisher(MqttConfig(), "t/1#", journal)
    journal.close()


def test_a_club_outbox_that_cannot_be_written_loses_nothing(tmp_path: Path,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    """A full disk refuses the outbox's writes for a while (the soak found it): the messages the table
    committed meanwhile wait in memory and go out afterwards, in order, once; the failure is said once,
    with no traceback."""
    import sqlite3

    _need("mosquitto", "mosquitto")
    broker = LocalBroker(tmp_path / "broker", PASSWORDS, persistence=True)
    broker.start()
    watcher = PersistentWatcher(broker.port)
    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal, password=PASSWORDS["t1"])
    real_put = pub.outbox.put
    full = threading.Event()

    def put(seq: int, t: str, payload: str) -> int:
        if full.is_set():
            raise sqlite3.OperationalError("database or disk is full")
        return real_put(seq, t, payload)

    pub.outbox.put = put  # type: ignore[method-assign]
    pub.start()
    try:
        assert pub.connected_event.wait(10)
        sent: list[int] = []
        for i, ev in enumerate([{"type": "deal_start", "dealer": "N", "pack": "red"}, *_deal_events(12, 0)]):
            if i == 4:
                full.set()
            if i == 9:
                full.clear()
            seq = journal.append("event", ev, time.time())
            with caplog.at_level("WARNING"):
                pub.event(ev, 1, seq)
            sent.append(seq)
        assert watcher.wait_for_seq(sent[-1]), "what waited in memory never arrived"
        state = ClubState()
        with watcher.cond:
            received = list(watcher.messages)
        shown = [json.loads(p)["seq"] for t, p in received if state.ingest(t, p, 0.0)]
        assert shown == sent
        said = [r for r in caplog.records if "outbox cannot be written" in r.getMessage()]
        assert len(said) == 1 and said[0].exc_info is None
    finally:
        pub.stop()
        watcher.client.disconnect()
        stop_loop(watcher.client)
        broker.stop()
