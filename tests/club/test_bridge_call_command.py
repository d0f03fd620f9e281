"""A bridge call entered on the dashboard (``POST /api/call`` -> ``command/call``): offered in words during
a bridge table's auction and play, checked on the dashboard and again at the table only as far as the
event format goes, journaled there from source ``director``, pending on the page until the table
answers. No browser: ``ClubState`` and the HTTP routes against a real broker and a real table."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import LocalBroker
from firmware_host.club.claims import ChoiceError, check_entry, entries
from firmware_host.club.state import CHECKED, ClubState
from firmware_host.config import MqttConfig
from firmware_host.live import ClubCommands
from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput, TableController
from firmware_host.tablelink.checks import COMMANDS
from firmware_host.tablelink.publisher import MqttPublisher
from laws.cards import Seat
from tests.laws.streams import BRIDGE_PACK, bridge_deal, prelude, shuffled

from .conftest import PASSWORDS, Watcher, csrf, login


def test_every_call_is_offered_in_words_in_a_bridge_auction_only() -> None:
    offered = entries("contract-bridge", "auction")["call"]
    assert len(offered) == 38 + 5    # and the five bids of eight, which the laws rule inadmissible
    assert offered[0] == {"call": "1C", "words": "one club"} and offered[4] == {"call": "1NT", "words": "one notrump"}
    assert offered[34:38] == [{"call": "7NT", "words": "seven notrump"}, {"call": "pass", "words": "pass"},
                              {"call": "double", "words": "double"}, {"call": "redouble", "words": "redouble"}]
    assert offered[-1] == {"call": "8NT", "words": "eight notrump (above seven)"}
    for game, phase in (("contract-bridge", "play"), ("contract-bridge", "shuffle"), ("contract-bridge", "dealing"), ("euchre", "auction"),
                        ("contract-bridge", "scoring"), ("", "auction")):
        assert "call" not in entries(game, phase), (game, phase)
    assert "call" in COMMANDS and "call" in CHECKED


@pytest.mark.parametrize(("game", "phase", "data", "words"), [
    ("euchre", "auction", {"seat": "E", "call": "pass"}, "a call is entered at a bridge table, and that table "
                                                         "plays euchre"),
    ("contract-bridge", "shuffle", {"seat": "E", "call": "pass"}, "in its shuffle phase: a call is entered in the "
                                                                  "auction or play phase"),
    ("contract-bridge", "auction", {"seat": "E", "call": "0NT"}, "field 'call'"),
    ("contract-bridge", "auction", {"seat": "E", "call": "XX"}, "field 'call'"),
    ("contract-bridge", "auction", {"call": "pass"}, "missing field 'seat'"),
    ("contract-bridge", "auction", {"seat": "north", "call": "pass"}, "field 'seat'"),
])
def test_the_dashboard_checks_a_call(game: str, phase: str, data: dict[str, Any], words: str) -> None:
    with pytest.raises(ChoiceError, match=words):
        check_entry(game, phase, "call", data)


def test_the_dashboard_sends_a_call_in_the_event_formats_spelling() -> None:
    assert check_entry("contract-bridge", "auction", "call", {"seat": "W", "call": "3N", "table": "t9"}) == \
        {"seat": "W", "call": "3NT"}
    # in the play the page offers no form, but a call sent is taken (one after the auction closed: BP-39)
    assert check_entry("contract-bridge", "play", "call", {"seat": "N", "call": "pass"}) == {"seat": "N", "call": "pass"}


class BridgeTable:
    """A real bridge table in its auction (controller, journal, publisher, the club commands), whose
    inputs the test processes one by one."""

    def __init__(self, port: int, folder: Path, tid: str = "t1", password: str = PASSWORDS["t1"]) -> None:
        self.journal = Journal.open(folder, synchronous="NORMAL")
        self.pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=port), tid, self.journal, password=password)
        self.ctl = TableController(game="contract-bridge", journal=self.journal, panel=None, clock=time.time,
                                   table_id=tid, observers=[self.pub])
        self.pub.on_command(ClubCommands("contract-bridge", self.ctl.submit))
        self.pub.start()
        assert self.pub.connected_event.wait(10)
        self.ctl.engine.state.next_dealer = Seat.N
        for e in prelude(Seat.N) + bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(5))):
            self.ctl.process(LawInput(e, "shoe"))

    def command(self) -> list[Any]:
        return self.ctl.process(self.ctl.queue.get(timeout=10))

    def stop(self) -> None:
        self.pub.stop()
        self.journal.close()


@pytest.fixture
def table(broker: LocalBroker, tmp_path: Path) -> Any:
    t = BridgeTable(broker.port, tmp_path / "t1")
    yield t
    t.stop()


def _until(client: Any, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        tables = {t["table"]: t for t in client.get("/api/state").json()["tables"]}
        if "t1" in tables and pred(tables["t1"]):
            return tables["t1"]
        assert time.monotonic() < deadline, f"the dashboard never showed it: {tables.get('t1')}"
        time.sleep(0.02)


def test_a_call_entered_on_the_dashboard_is_journaled_at_the_table(dash: Any, table: BridgeTable,
                                                                   watcher: Watcher) -> None:
    d, client, clock = dash
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    view = _until(client, lambda t: t["phase"] == "auction" and "call" in t["entries"])
    assert len(view["entries"]["call"]) == 38 + 5
    r = client.post("/api/call", json={"table": "t1", "seat": "N", "call": "0C"}, headers=headers)
    assert r.status_code == 409 and "field 'call'" in r.json()["error"]
    r = client.post("/api/call", json={"table": "t1", "seat": "E", "call": "2N"}, headers=headers)  # not E's turn
    assert r.status_code == 200 and r.json()["pending"]
    cid = r.json()["command"]["id"]
    assert r.json()["command"]["call"] == "2NT" and r.json()["command"]["seat"] == "E"
    assert watcher.wait_for(lambda ms: "cardtable/t1/command/call" in {t for t, _ in ms})
    assert [p["kind"] for p in client.get("/api/state").json()["tables"][0]["pending"]] == ["call"]
    table.command()
    event = [row.body for row in table.journal.rows() if row.kind == "event"][-1]
    assert (event["type"], event["seat"], event["call"], event["src"], event["command"]["id"]) == \
        ("call", "E", "2NT", "director", cid)
    view = _until(client, lambda t: not t["pending"])
    assert view["refused"] == []


def test_the_club_state_holds_a_call_pending_until_the_table_answers() -> None:
    s = ClubState()

    def status(seq: int, **extra: Any) -> tuple[str, bytes]:
        env = {"table": "t1", "kind": "status", "seq": seq, "deal": 1, "t": 1.0,
               "body": {"table": "t1", "phase": "auction", "game": "contract-bridge", "deal": 1, "lamps": {},
                        **extra.pop("body", {})}, **extra}
        return "cardtable/t1/status", json.dumps(env).encode()

    s.ingest(*status(1), 0.0)
    s.sent("t1", "k1", "call", "ann", 1.0)
    s.ingest(*status(2, done=["k1"]), 2.0)  # taken in, not yet checked: still pending
    assert [p["id"] for p in s.tables["t1"].pending] == ["k1"]
    s.ingest(*status(3, done=["k1"], body={"answers": [{"id": "k1", "kind": "call", "ok": False,
                                                         "why": "a call is entered once the deal is complete"}]}), 3.0)
    view = s.tables["t1"].to_dict()
    assert view["pending"] == [] and view["refused"][0]["why"] == "a call is entered once the deal is complete"
