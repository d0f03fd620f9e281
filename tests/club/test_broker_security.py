"""Against a real Mosquitto: ACL, wrong passwords, forged commands, malformed messages, and secrecy seen
from a client subscribed to everything."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import LocalBroker
from firmware_host.club.simclub import SimTable, default_scenarios, load_scenario
from firmware_host.club.state import ClubState
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.tablelink.secrecy import names_a_card
from firmware_host.wire.subscribed import stop_loop

from .conftest import PASSWORDS, Watcher, mqtt_client


@pytest.fixture
def table(broker: LocalBroker, tmp_path: Path) -> Any:
    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal, password=PASSWORDS["t1"])
    commands: list[tuple[str, dict[str, Any]]] = []
    got = threading.Event()

    def on_command(kind: str, body: dict[str, Any]) -> None:
        commands.append((kind, body))
        got.set()

    pub.on_command(on_command)
    pub.start()
    assert pub.connected_event.wait(10)
    yield pub, commands, got
    pub.stop()
    journal.close()


def test_a_wrong_password_is_refused(broker: LocalBroker) -> None:
    c, rc = mqtt_client(broker.port, "t1", "not-the-password")
    assert rc.is_failure
    stop_loop(c)


def test_a_table_cannot_write_under_another_tables_id_nor_forge_an_ack(broker: LocalBroker, watcher: Watcher,
                                                                       table: Any) -> None:
    pub, commands, got = table
    evil, _ = mqtt_client(broker.port, "t2")
    fake = json.dumps({"table": "t1", "kind": "ruling", "seq": 999, "deal": 1, "t": 1.0,
                       "body": {"remedy": "redeal", "law": "x", "clause": "y", "reason": "forged"}})
    evil.publish("cardtable/t1/ruling", fake, qos=1).wait_for_publish(5)
    evil.publish("cardtable/t1/command/ack", json.dumps({"table": "t1", "by": "t2"}), qos=1).wait_for_publish(5)
    # t2 may write its own topics: this marker arrives after anything the broker let through above
    evil.publish("cardtable/t2/heartbeat", json.dumps({"table": "t2", "t": 1.0}), qos=1).wait_for_publish(5)
    assert watcher.wait_for(lambda ms: any(t == "cardtable/t2/heartbeat" for t, _ in ms))
    assert not any(t == "cardtable/t1/ruling" for t, _ in watcher.messages)
    assert not any(t.startswith("cardtable/t1/command") for t, _ in watcher.messages)
    # the real dashboard's ack does arrive, after the forged one would have
    dash, _ = mqtt_client(broker.port, "dashboard")
    dash.publish("cardtable/t1/command/ack", json.dumps({"table": "t1", "by": "director"}), qos=1)
    assert got.wait(10)
    assert commands == [("ack", {"table": "t1", "by": "director"})]
    stop_loop(evil)
    stop_loop(dash)


def test_malformed_commands_are_refused_and_logged(broker: LocalBroker, table: Any,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    pub, commands, got = table
    dash, _ = mqtt_client(broker.port, "dashboard")
    with caplog.at_level(logging.WARNING):
        dash.publish("cardtable/t1/command/ack", b"\xff not json", qos=1)
        dash.publish("cardtable/t1/command/ack", b"x" * 5000, qos=1)
        dash.publish("cardtable/t1/command/ack", json.dumps({"table": "t2"}), qos=1)
        dash.publish("cardtable/t1/command/launch", json.dumps({"table": "t1"}), qos=1)
        dash.publish("cardtable/t1/command/ack", json.dumps({"table": "t1", "by": "d"}), qos=1)
        assert got.wait(10)
    assert commands == [("ack", {"table": "t1", "by": "d"})]
    assert pub.refused_commands == 4
    text = caplog.text
    assert "not JSON" in text and "limit" in text and "not this table" in text and "unknown command" in text
    stop_loop(dash)


def test_no_card_of_an_unfinished_deal_leaves_the_table(broker: LocalBroker, watcher: Watcher,
                                                        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    files = [f for f in default_scenarios() if f.name.startswith("bridge-irregularities")]
    scenario = load_scenario(files[0])
    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal, password=PASSWORDS["t1"])
    dealt: dict[int, set[str]] = {}  # the cards of each deal, as the table itself knew them

    class Recorder:
        def __getattr__(self, name: str) -> Any:
            return getattr(pub, name)

        def event(self, event: dict[str, Any], deal: int, seq: int) -> None:
            if deal > 0 and isinstance(event.get("card"), str):
                dealt.setdefault(deal, set()).add(event["card"])
            pub.event(event, deal, seq)

    sim = SimTable("t1", journal, Recorder(), [scenario])  # type: ignore[arg-type]
    pub.start()
    caplog.set_level(logging.INFO)
    try:
        assert pub.connected_event.wait(10)
        for _ in scenario:
            sim.step()
        sim._end_deal()
        last = sim.deal
        assert last >= 3, "the scenario should hold several deals"
        assert watcher.wait_for(lambda ms: sum(1 for t, p in ms if t.endswith("/deal")
                                               and json.loads(p)["deal"] == last) == 1)
    finally:
        pub.stop()
        journal.close()
    with watcher.cond:
        received = list(watcher.messages)
    # Once a deal's play has ended, the table releases its cards.
    released: dict[int, set[str]] = {}
    for t, p in received:
        if t.endswith("/deal"):
            m = json.loads(p)
            released[m["deal"]] = {e["card"] for e in m["body"]["revealed"] if isinstance(e.get("card"), str)}
    assert released == {d: c for d, c in dealt.items() if c}
    assert sum(len(c) for c in dealt.values()) > 40, "the deals should have named many cards"
    checked = 0
    for t, p in received:
        m = json.loads(p)
        if t.endswith("/deal"):
            continue
        deal = m.get("deal") or 0
        # Events and rulings of a deal are only ever tagged with it while it is open; a status says whether
        # its deal was still open when it was written (a later status may show a finished deal's ruling).
        if deal > 0 and (m["kind"] != "status" or m["secret"]):
            checked += 1
            assert not names_a_card(p.decode(), dealt.get(deal, set())), f"card of open deal {deal} in {p!r}"
    assert checked > 50
    # and nothing at INFO names a card of any deal
    every_card = set().union(*dealt.values())
    assert not names_a_card(caplog.text, every_card)


def test_the_dashboard_state_refuses_bad_messages(caplog: pytest.LogCaptureFixture) -> None:
    s = ClubState()
    ok = json.dumps({"table": "t1", "kind": "event", "seq": 1, "deal": 1, "t": 1.0,
                     "body": {"type": "shuffle", "seat": "N"}}).encode()
    assert s.ingest("cardtable/t1/event", ok, 0.0)
    assert s.ingest("cardtable/t1/event", ok, 0.0) == []  # a repeat
    assert s.ingest("cardtable/t1/command/ack", b"{}", 0.0) == [] and s.refused == 0  # our own commands
    bad = [("cardtable/t1/bogus", ok), ("elsewhere/t1/event", ok), ("cardtable/t2/event", ok),
           ("cardtable/t1/event", b"{" * 10), ("cardtable/t1/event", b"[1]"),
           ("cardtable/t1/event", b" " * 70000), ("cardtable/t1/ruling", ok),
           ("cardtable/t1/event", json.dumps({"table": "t1", "kind": "event", "seq": -1, "t": 1,
                                              "body": {}}).encode()),
           # the bounds of the wire's one reader (wire.messages.Envelope), as the session holds them
           ("cardtable/t1/event", json.dumps({"table": "t1", "kind": "event", "seq": 2**70, "t": 1,
                                              "body": {}}).encode()),
           ("cardtable/t1/event", b'{"table": "t1", "kind": "event", "seq": 5, "t": 1e400, "body": {}}')]
    with caplog.at_level(logging.WARNING):
        for topic, payload in bad:
            assert s.ingest(topic, payload, 0.0) == []
    assert s.refused == len(bad) and s.tables["t1"].events == 1 and "t2" not in s.tables
    assert "names table 't1' on table 't2'" in caplog.text and "unknown topic" in caplog.text


def test_oversized_and_malformed_table_messages_harm_no_other_table(broker: LocalBroker, watcher: Watcher,
                                                                    table: Any,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    pub, commands, got = table
    evil, _ = mqtt_client(broker.port, "t2")
    evil.publish("cardtable/t2/event", b"x" * 100_000, qos=1)  # over the broker's packet limit
    noisy, _ = mqtt_client(broker.port, "t2")
    noisy.publish("cardtable/t2/event", b"{not json", qos=1).wait_for_publish(5)
    noisy.publish("cardtable/t2/status", json.dumps({"table": "t1", "kind": "status"}), qos=1).wait_for_publish(5)
    # t1 carries on
    journal_seq = 1
    pub.event({"type": "shuffle", "seat": "N"}, 0, journal_seq)
    assert watcher.wait_for(lambda ms: any(t == "cardtable/t1/event" for t, _ in ms))
    assert not any(len(p) > 65536 for _, p in watcher.messages)
    state = ClubState()
    with caplog.at_level(logging.WARNING):
        for topic, payload in list(watcher.messages):
            state.ingest(topic, payload, 0.0)
    assert state.tables["t1"].events == 1
    assert state.refused == 2 and "not JSON" in caplog.text and "on table 't2'" in caplog.text
    stop_loop(evil)
    stop_loop(noisy)
