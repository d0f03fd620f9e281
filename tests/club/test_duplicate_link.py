"""The duplicate link end to end through a real Mosquitto: a table (real journal, outbox and publisher)
gets its seating, confirms a board, and the session takes it and answers; a resent message is taken
once; a result sent while the broker is down arrives when it is back (nothing lost); the broker's ACL
keeps a table to its own board topic and its own seating."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.session.broker_client import SessionService
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.wire.duplicate import seating_topic
from firmware_host.wire.subscribed import stop_loop
from tests.club.simduplicate import BoardRoom, SimDuplicateTable
from tests.duplicate.sessionkit import make_setup

from .conftest import _need, mqtt_client

SPEC = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}
PASSWORDS = {DASHBOARD_USER: "dash-pw-1", "table-01": "t1-pw", "table-02": "t2-pw", "table-03": "t3-pw"}


def _until(pred: Any, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def club(tmp_path: Path) -> Any:
    _need("mosquitto", "mosquitto")
    broker = LocalBroker(tmp_path / "broker", PASSWORDS)
    broker.start()
    setup = make_setup(SPEC)
    desk = SessionDesk(Session.create(tmp_path / "session", setup, analyse=False, synchronous="NORMAL"))
    service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], tick=0.02)
    service.start()
    assert service.connected.wait(10)
    room = BoardRoom({b.number: b for b in setup.boards})
    tables = []
    for tid in ("table-01", "table-02", "table-03"):
        j = Journal.open(tmp_path / tid, synchronous="NORMAL")
        pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), tid, j, password=PASSWORDS[tid])
        t = SimDuplicateTable(tid, j, pub, room, random.Random(7))
        t.start()
        tables.append(t)
    yield broker, desk, service, tables
    for t in tables:
        t.stop()
    service.stop()
    broker.stop()


def test_a_table_gets_its_seating_confirms_a_board_and_the_session_answers(club: Any) -> None:
    broker, desk, service, tables = club
    t2 = tables[1]
    assert _until(lambda: t2.seating is not None and t2.seating["round"] == 1)
    assert (t2.seating["ns"], t2.seating["ew"], [b["board"] for b in t2.seating["boards"]]) == ("2 NS", "2 EW", [3, 4])
    assert t2.step()
    assert _until(lambda: "3/2 NS/2 EW" in desk.session.state.entries)
    assert _until(lambda: any(a["status"] == "taken" and a["board"] == 3 for a in (t2.seating or {}).get("answers", [])))
    assert t2.seating["left"] == [4]


def test_a_resent_board_message_is_taken_once(club: Any) -> None:
    broker, desk, service, tables = club
    t1 = tables[0]
    assert _until(lambda: t1.seating is not None)
    assert t1.step()
    assert _until(lambda: len(desk.session.state.entries) == 1)
    # after an outage the outbox sends again what the broker may already have delivered
    row = [r for r in t1.journal.rows() if r.kind == "note" and "board_result" in r.body][-1]
    payload = json.dumps({"table": "table-01", "kind": "board", "seq": row.seq, "prev": 0, "deal": 1, "secret": False,
                          "t": time.time(), "body": row.body["board_result"]})
    t1.publisher.client.publish("cardtable/table-01/board", payload, qos=1).wait_for_publish(5)
    assert _until(lambda: any(a["status"] == "repeat" for a in desk.answers.get("table-01", ())))
    assert len(desk.session.state.entries) == 1 and desk.refused == 0


def test_a_result_confirmed_while_the_broker_is_down_arrives_when_it_is_back(club: Any) -> None:
    broker, desk, service, tables = club
    t3 = tables[2]
    assert _until(lambda: t3.seating is not None)
    broker.stop()
    assert t3.step()      # journaled and in the outbox; the broker is away
    assert t3.publisher.pending() >= 1
    broker.start()       # without persistence: what it acknowledged before the session resubscribed may be gone
    key = next(iter(t3.unanswered))

    def answered() -> bool:
        t3._answered()   # what the table's step does first: forget what was answered, send again what was not
        return not t3.unanswered

    assert _until(answered, timeout=30), (t3.unanswered, t3.seating)
    assert f"{key[1]}/3 NS/3 EW" in desk.session.state.entries
    assert _until(lambda: t3.publisher.pending() == 0, timeout=30)


def test_the_broker_keeps_a_table_to_its_own_board_topic_and_its_own_seating(club: Any) -> None:
    broker, desk, service, tables = club
    intruder, _rc = mqtt_client(broker.port, "table-01", PASSWORDS["table-01"])
    got: list[str] = []
    intruder.on_message = lambda c, u, m: got.append(m.topic)
    intruder.subscribe([(seating_topic("table-02"), 1), (seating_topic("table-01"), 1)])
    assert _until(lambda: seating_topic("table-01") in got)
    time.sleep(0.3)
    assert seating_topic("table-02") not in got
    rec = {"table": "table-02", "kind": "board", "seq": 1, "prev": 0, "deal": 1, "secret": False, "t": time.time(),
           "body": {"section": "A", "table_number": 2, "round": 1, "board": 3, "ns": "2 NS", "ew": "2 EW",
                    "contract": "Pass", "declarer": None, "lead": None, "tricks": 0, "record": "", "verified": False,
                    "foul": None}}
    intruder.publish("cardtable/table-02/board", json.dumps(rec), qos=1)
    time.sleep(0.5)
    assert desk.session.state.entries == {}   # dropped by the broker: table-01 may not write table-02's topic
    intruder.disconnect()
    stop_loop(intruder)


class _Wire:
    """A publisher stand-in that records what a table sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[dict[str, Any], int]] = []
        self.session: Any = None

    def on_session(self, cb: Any) -> None:
        self.session = cb

    def board_result(self, body: dict[str, Any], seq: int, deal: int = 0) -> None:
        self.sent.append((body, seq))


def test_a_table_sends_again_a_result_its_seating_does_not_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.club.simduplicate as sim

    setup = make_setup(SPEC)
    wire = _Wire()
    table = SimDuplicateTable("table-02", Journal.open(tmp_path / "t2", synchronous="NORMAL"), wire,  # type: ignore[arg-type]
                              BoardRoom({b.number: b for b in setup.boards}), random.Random(1))
    seating = {"kind": "seating", "table": "table-02", "table_number": 2, "round": 1, "ns": "2 NS", "ew": "2 EW",
               "boards": [{"board": 3}, {"board": 4}], "left": [3, 4], "sit_out": False, "answers": []}
    wire.session(seating)
    assert table.step() and len(wire.sent) == 1 and wire.sent[0][0]["board"] == 3
    monkeypatch.setattr(sim, "RESEND_AFTER", 0.0)
    table._answered()
    assert [b["board"] for b, _s in wire.sent] == [3, 3] and table.resent == 1   # still left, unanswered: again
    assert wire.sent[1][1] > wire.sent[0][1]                                      # journaled again, a new row
    wire.session({**seating, "left": [4], "answers": [{"board": 3, "status": "taken"}]})
    table._answered()
    assert len(wire.sent) == 2 and not table.unanswered
