"""Issue 29, item 2: hand records sent by the session to the tables through a real Mosquitto, checked at
the table against the session's commitment. A table with no hand records file plays the boards the session
sends; another table's login and a spectator read none of them; a record altered in flight and one from an
older session are refused (journaled, and the director sees why), never placed."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.session.broker_client import SessionService
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.table.controller import TableController
from firmware_host.table.duplicate import DuplicateProcedure
from firmware_host.tablelink.duplicate_results import DuplicateResults, connect
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.wire.duplicate import ROUND_TOPIC, seating_topic
from firmware_host.wire.subscribed import stop_loop
from laws.cards import Seat
from laws.duplicate.deal import Deal
from laws.games.duplicate_board import board_of
from tests.duplicate.sessionkit import make_setup
from tests.table.duptable import swapped
from tests.table.test_controller import Clock

from .conftest import _need

SPEC = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}
PASSWORDS = {DASHBOARD_USER: "dash-pw-1", "table-01": "t1-pw", "table-02": "t2-pw", "table-03": "t3-pw",
             "spectator": "sp-pw"}


def _until(pred: Any, ctl: TableController | None = None, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ctl is not None:
            ctl.drain()
        if pred():
            return True
        time.sleep(0.02)
    return False


class Table:
    """A real duplicate table with no hand records of its own (its config has no ``records``)."""

    def __init__(self, folder: Path, port: int, commitment: str = "") -> None:
        self.journal = Journal.open(folder, synchronous="NORMAL")
        self.ctl = TableController(game="duplicate-bridge", journal=self.journal, panel=None, clock=Clock(),
                                   table_id="table-02")
        self.pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=port), "table-02", self.journal,
                                 password=PASSWORDS["table-02"])
        self.results = connect(DuplicateResults(self.ctl, self.pub), self.ctl, self.pub)
        self.proc = DuplicateProcedure(self.ctl, {}, None, "board", source="session", commitment=commitment)
        self.proc.resume()
        self.pub.start()

    def verdicts(self) -> list[dict[str, Any]]:
        return [r.body["hand_records"] for r in self.journal.rows() if r.kind == "note" and "hand_records" in r.body]

    def stop(self) -> None:
        self.pub.stop()
        self.journal.close()


class Client:
    """A plain MQTT login that records everything it is delivered."""

    def __init__(self, port: int, user: str, subscribe: tuple[str, ...] = ()) -> None:
        import paho.mqtt.client as mqtt

        self.got: list[tuple[str, bytes]] = []
        self.ready = threading.Event()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
        self.c.username_pw_set(user, PASSWORDS[user])
        self.c.on_message = lambda c, u, m: self.got.append((m.topic, bytes(m.payload)))
        self.c.on_subscribe = lambda *a: self.ready.set()
        self.c.on_connect = lambda c, *a: c.subscribe([(t, 1) for t in subscribe]) if subscribe else self.ready.set()
        self.c.connect("127.0.0.1", port)
        self.c.loop_start()
        assert self.ready.wait(10)

    def publish(self, topic: str, msg: dict[str, Any]) -> None:
        self.c.publish(topic, json.dumps(msg), qos=1, retain=True).wait_for_publish(5)

    def stop(self) -> None:
        self.c.disconnect()
        stop_loop(self.c)


@pytest.fixture
def broker(tmp_path: Path) -> Any:
    _need("mosquitto", "mosquitto")
    b = LocalBroker(tmp_path / "broker", PASSWORDS)
    b.start()
    yield b
    b.stop()


def _desk(tmp_path: Path, name: str, seed: int = 1) -> SessionDesk:
    return SessionDesk(Session.create(tmp_path / name, make_setup(SPEC, seed=seed), analyse=False,
                                      synchronous="NORMAL"))


def _messages(desk: SessionDesk) -> dict[str, dict[str, Any]]:
    return dict(desk.messages())


def test_a_table_without_records_plays_the_boards_the_session_sends(broker: LocalBroker, tmp_path: Path) -> None:
    desk = _desk(tmp_path, "session")
    service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], tick=0.02)
    service.start()
    assert service.connected.wait(10)
    t = Table(tmp_path / "table-02", broker.port)
    try:
        assert _until(lambda: board_of(t.ctl.engine.state) is not None, t.ctl)
        b = board_of(t.ctl.engine.state)
        record = desk.session.state.records[3]
        assert (b.number, b.round, b.record) == (3, 1, record)          # the session's record, checked
        assert t.verdicts()[-1] == {"commitment": desk.session.state.commitment, "matched": "session", "taken": [3, 4],
                                    "refused": []}
        assert "records" not in t.ctl.offline
        seating = [r.body["session"] for r in t.journal.rows() if r.kind == "note"
                   and r.body.get("session", {}).get("kind") == "seating"][-1]
        assert [d["board"] for d in seating["hand_records"]["deals"]] == [3, 4]   # only its own boards
        assert seating["players"] == {"ns": [{"name": "A2 NS", "member": ""}, {"name": "B2 NS", "member": ""}],
                                      "ew": [{"name": "A2 EW", "member": ""}, {"name": "B2 EW", "member": ""}]}
        t.stop()
        t = Table(tmp_path / "table-02", broker.port)                   # restarted mid-round
        assert board_of(t.ctl.engine.state).number == 3                 # from its journal at once
        before = len(t.verdicts())
        assert _until(lambda: len(t.verdicts()) > before, t.ctl)        # and sent its records again
        assert t.verdicts()[-1]["taken"] == [3, 4]
    finally:
        t.stop()
        service.stop()


def test_another_tables_login_and_a_spectator_read_no_record(broker: LocalBroker, tmp_path: Path) -> None:
    other = Client(broker.port, "table-01", ("cardtable/#", "cardtable/session/table/table-02", "$SYS/#"))
    spectator = Client(broker.port, "spectator", ("cardtable/#", "#"))
    desk = _desk(tmp_path, "session")
    service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], tick=0.02)
    service.start()
    t = Table(tmp_path / "table-02", broker.port)
    try:
        assert _until(lambda: board_of(t.ctl.engine.state) is not None, t.ctl)   # table-02 has them
        desk.director({"type": "round", "round": 2, "by": "td"})                 # and round 2's
        assert _until(lambda: 2 in [v.get("round") for v in [r.body.get("session", {}) for r in t.journal.rows()
                                                               if r.kind == "note"]], t.ctl)
        other_deals = {desk.session.state.records[n].deal.pbn() for n in (1, 2, 3, 4, 5, 6)}
        time.sleep(0.3)                                                          # anything in flight lands
        for who in (other, spectator):
            topics = {topic for topic, _ in who.got}
            assert seating_topic("table-02") not in topics and seating_topic("table-03") not in topics
            text = b"".join(p for _, p in who.got).decode()
            assert not any(d in text for d in other_deals if d not in _own_deals(desk, who))
        assert {topic for topic, _ in spectator.got} <= {ROUND_TOPIC}            # the round called and the public
        assert all("hand_records" not in json.loads(p) for _, p in spectator.got)   # commitment, nothing more
        assert seating_topic("table-01") in {topic for topic, _ in other.got}    # its own, and only its own
    finally:
        t.stop()
        service.stop()
        other.stop()
        spectator.stop()


def _own_deals(desk: SessionDesk, who: Client) -> set[str]:
    if who.c._client_id != b"table-01":
        return set()
    return {d["deal"] for _, msg in desk.messages() if msg.get("table") == "table-01"
            for d in msg["hand_records"]["deals"]} | {d["deal"] for topic, p in who.got
                                                      if topic == seating_topic("table-01")
                                                      for d in json.loads(p)["hand_records"]["deals"]}


def test_a_record_altered_in_flight_is_refused_and_never_placed(broker: LocalBroker, tmp_path: Path) -> None:
    desk = _desk(tmp_path, "session")
    msgs = _messages(desk)
    seating = msgs[seating_topic("table-02")]
    altered = json.loads(json.dumps(seating))
    deal3 = Deal.from_pbn(altered["hand_records"]["deals"][0]["deal"])
    altered["hand_records"]["deals"][0]["deal"] = swapped(deal3, Seat.N, Seat.E).pbn()   # two hands swapped
    # another table's login cannot even put it on table-02's topic: the broker drops it
    intruder = Client(broker.port, "table-01")
    intruder.publish(seating_topic("table-02"), altered)
    # the session's own login (a compromised path between the session and the broker) can: the table refuses it
    session = Client(broker.port, DASHBOARD_USER)
    session.publish(ROUND_TOPIC, msgs[ROUND_TOPIC])
    session.publish(seating_topic("table-02"), altered)
    t = Table(tmp_path / "table-02", broker.port)
    try:
        assert _until(lambda: t.verdicts() != [], t.ctl)
        assert _until(lambda: board_of(t.ctl.engine.state) is not None, t.ctl, timeout=2.0) is False
        v = t.verdicts()
        assert len(v) == 1 and v[0]["taken"] == [4]
        assert v[0]["refused"] == [{"board": 3, "why": "the record does not match the commitment (its hash is not "
                                                         "the index's)"}]
        assert _until(lambda: "records" in t.ctl.offline, t.ctl)
        assert t.ctl.offline["records"] == ("hand records refused: board 3: the record does not match the "
                                            "commitment (its hash is not the index's)")
        # the session sends the true record again: taken, placed, and the director's warning cleared
        session.publish(seating_topic("table-02"), {**seating, "seq": seating["seq"] + 1})
        assert _until(lambda: board_of(t.ctl.engine.state) is not None, t.ctl)
        assert board_of(t.ctl.engine.state).record == desk.session.state.records[3]
        assert _until(lambda: "records" not in t.ctl.offline, t.ctl)
    finally:
        t.stop()
        intruder.stop()
        session.stop()


def test_records_from_an_older_session_are_refused(broker: LocalBroker, tmp_path: Path) -> None:
    old, new = _desk(tmp_path, "last-week", seed=7), _desk(tmp_path, "tonight", seed=8)
    old_msgs, new_msgs = _messages(old), _messages(new)
    assert old.session.state.commitment != new.session.state.commitment
    session = Client(broker.port, DASHBOARD_USER)
    session.publish(ROUND_TOPIC, new_msgs[ROUND_TOPIC])                          # tonight's session
    session.publish(seating_topic("table-02"), old_msgs[seating_topic("table-02")])   # last week's, left retained
    t = Table(tmp_path / "table-02", broker.port)
    try:
        assert _until(lambda: t.verdicts() != [], t.ctl)
        v = t.verdicts()[-1]
        assert v["taken"] == [] and v["commitment"] == old.session.state.commitment
        assert "records of another session" in v["refused"][0]["why"]
        # one old record slipped into tonight's message: its hash is not tonight's board 3's
        mixed = json.loads(json.dumps(new_msgs[seating_topic("table-02")]))
        mixed["hand_records"]["deals"][0]["deal"] = old.session.state.records[3].deal.pbn()
        session.publish(seating_topic("table-02"), mixed)
        assert _until(lambda: len(t.verdicts()) == 2, t.ctl)
        assert t.verdicts()[-1]["taken"] == [4] and t.verdicts()[-1]["refused"][0]["board"] == 3
        assert _until(lambda: board_of(t.ctl.engine.state) is not None, t.ctl, timeout=1.0) is False
    finally:
        t.stop()
        session.stop()


def test_a_table_pinned_to_the_published_commitment_refuses_another(broker: LocalBroker, tmp_path: Path) -> None:
    """``[duplicate] commitment``: even a whole consistent session's messages are refused when they are not
    the one published for tonight."""
    other, tonight = _desk(tmp_path, "other", seed=3), _desk(tmp_path, "tonight", seed=4)
    msgs = _messages(other)
    session = Client(broker.port, DASHBOARD_USER)
    session.publish(ROUND_TOPIC, msgs[ROUND_TOPIC])
    session.publish(seating_topic("table-02"), msgs[seating_topic("table-02")])
    t = Table(tmp_path / "table-02", broker.port, commitment=tonight.session.state.commitment)
    try:
        assert _until(lambda: t.verdicts() != [], t.ctl)
        assert t.verdicts()[-1]["taken"] == [] and "another session" in t.verdicts()[-1]["refused"][0]["why"]
        assert board_of(t.ctl.engine.state) is None
    finally:
        t.stop()
        session.stop()
