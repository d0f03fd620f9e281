"""The director takes an option of an open claim, or records the missing-card search, on the dashboard:
shown in words, checked on the dashboard, sent as a command, checked again at the table and entered
there as the player's demand (or the search outcome) from source ``director``; pending until the table
answers, and a refusal shown with the table's reason. No browser: ``ClubState`` alone, then the HTTP
routes against a real broker and a real table (controller, journal, publisher)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import LocalBroker
from firmware_host.club.claims import ChoiceError, check_choice, check_entry, check_search
from firmware_host.club.state import ClubState
from firmware_host.config import MqttConfig
from firmware_host.live import ClubCommands
from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput, TableController
from firmware_host.tablelink.publisher import MqttPublisher
from laws.cards import Seat
from laws.events import Event
from tests.laws.streams import E, prelude

from .conftest import PASSWORDS, Watcher, csrf, login

CLAIM = {"clause": "EU-52", "law": "Euchre, law 52", "side": "EW", "options": ["call_card", "call_suit"],
         "needs": {"call_suit": "suit"}, "offender": "S", "trick": 1, "card": "hidden",
         "why": "South led a card (shown when the hand is over) out of turn."}
HANDS = {"E": ["AC", "KC", "9H", "9D", "TD"], "S": ["7C", "8S", "9S", "AS", "KS"],
         "W": ["AD", "KD", "QD", "8D", "7D"], "N": ["AH", "KH", "QH", "JH", "TH"]}


def _status(seq: int, body: dict[str, Any], **extra: Any) -> tuple[str, bytes]:
    env = {"table": "t1", "kind": "status", "seq": seq, "deal": 1, "t": 1.0,
           "body": {"table": "t1", "phase": "play", "game": "euchre", "deal": 1, "lamps": {}, **body}, **extra}
    return "cardtable/t1/status", json.dumps(env).encode()


def test_the_open_claim_in_words_and_a_choice_pending_until_the_table_answers() -> None:
    s = ClubState()
    s.ingest(*_status(1, {"claims": [CLAIM, {"options": "bad"}, 7]}), 0.0)
    view = s.tables["t1"].to_dict()
    [claim] = view["claims"]
    assert claim["side"] == "East-West" and claim["against"] == "South" and claim["trick"] == 1
    assert [o["words"] for o in claim["options"]] == ["call the exposed card", "call a suit"]
    assert [o["needs"] for o in claim["options"]] == [None, "suit"]
    assert [x["name"] for x in claim["seats"]] == ["East", "West"]
    s.sent("t1", "c1", "choose", "ann", 2.0)
    s.ingest(*_status(2, {"claims": [CLAIM]}, done=["c1"]), 3.0)   # taken in, not yet checked
    assert [p["id"] for p in s.tables["t1"].pending] == ["c1"]
    s.ingest(*_status(3, {"claims": [CLAIM], "answers": [
        {"id": "c1", "kind": "choose", "ok": False, "why": "no claim is open at the table now"}]}, done=["c1"]), 4.0)
    view = s.tables["t1"].to_dict()
    assert view["pending"] == []
    assert view["refused"] == [{"id": "c1", "kind": "choose", "by": "ann", "why": "no claim is open at the table now"}]
    s.sent("t1", "c2", "search", "ann", 5.0)
    s.ingest(*_status(4, {"claims": [], "search": {"seat": "N", "card": "hidden"},
                          "answers": [{"id": "c2", "kind": "search", "ok": True, "why": ""}]}), 6.0)
    view = s.tables["t1"].to_dict()
    assert view["pending"] == [] and len(view["refused"]) == 1 and view["claims"] == []
    assert [o["words"] for o in view["search"]["outcomes"]] == [
        "found with North's hand", "found loose", "found in East's hand", "found in South's hand",
        "found in West's hand", "found in a trick", "not found"]


@pytest.mark.parametrize(("data", "words"), [
    ({"seat": "E", "what": "win_trick"}, "not an option of the open claim (it offers: call the exposed card, "
                                         "call a suit)"),
    ({"seat": "S", "what": "call_suit", "suit": "D"}, "belongs to East-West: choose for East or West"),
    ({"seat": "E", "what": "call_suit"}, "names a suit"),
    ({"seat": "E", "what": "call_suit", "suit": "X"}, "names a suit"),
    ({"seat": "E", "what": "call_card", "card": "2C"}, "not in the pack of this game"),
    ({"seat": "E", "what": "call_suit", "suit": "D", "clause": "EU-46"}, "not an option"),
])
def test_the_dashboard_refuses_a_choice_the_open_claim_does_not_give(data: dict[str, Any], words: str) -> None:
    s = ClubState()
    s.ingest(*_status(1, {"claims": [CLAIM]}), 0.0)
    with pytest.raises(ChoiceError, match=words.replace("(", r"\(").replace(")", r"\)")):
        check_choice("euchre", s.tables["t1"].claims, data)
    assert check_choice("euchre", s.tables["t1"].claims, {"seat": "W", "what": "call_suit", "suit": "D"}) == \
        {"seat": "W", "what": "call_suit", "clause": "EU-52", "suit": "D"}
    with pytest.raises(ChoiceError, match="no search"):
        check_search(s.tables["t1"].search, {"found": "N"})


class Table:
    """A real euchre table (controller, journal, publisher, the club commands) whose inputs the test
    processes one by one, so it decides what the table has seen when a command arrives."""

    def __init__(self, port: int, folder: Path, tid: str = "t1", password: str = PASSWORDS["t1"]) -> None:
        self.journal = Journal.open(folder, synchronous="NORMAL")
        self.pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=port), tid, self.journal, password=password)
        self.ctl = TableController(game="euchre", journal=self.journal, panel=None, clock=time.time,
                                   table_id=tid, observers=[self.pub])
        self.pub.on_command(ClubCommands("euchre", self.ctl.submit))
        self.pub.start()
        assert self.pub.connected_event.wait(10)
        self.ctl.engine.state.next_dealer = Seat.N
        events: list[Event] = prelude(Seat.N) + [E("deal_start", dealer="N", pack="red")]
        for lo, hi in ((0, 2), (2, 5)):
            events += [E("card_dealt", seat=s, card=c) for s in "ESWN" for c in HANDS[s][lo:hi]]
        events += [E("deal_end"), E("trump_turned", card="7S"), E("trump_made", seat="N", suit="H")]
        self.feed(events)

    def feed(self, events: list[Event]) -> list[Any]:
        return [r for e in events for r in self.ctl.process(LawInput(e, "camera"))]

    def command(self) -> list[Any]:
        """Process the next command the club sent (waits for it to arrive)."""
        return self.ctl.process(self.ctl.queue.get(timeout=10))

    def stop(self) -> None:
        self.pub.stop()
        self.journal.close()


def _until(client: Any, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
    """Read the dashboard's state until ``pred`` holds for table t1 (polls; the broker is asynchronous)."""
    deadline = time.monotonic() + timeout
    while True:
        tables: dict[str, dict[str, Any]] = {t["table"]: t for t in client.get("/api/state").json()["tables"]}
        if "t1" in tables and pred(tables["t1"]):
            return tables["t1"]
        assert time.monotonic() < deadline, f"the dashboard never showed it: {tables.get('t1')}"
        time.sleep(0.02)


@pytest.fixture
def table(broker: LocalBroker, tmp_path: Path) -> Any:
    t = Table(broker.port, tmp_path / "t1")
    yield t
    t.stop()


def test_a_choice_on_the_dashboard_is_ruled_at_the_table(dash: Any, table: Table) -> None:  # noqa: F811
    d, client, clock = dash
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    assert [r.clause for r in table.feed([E("card_played", seat="S", card="7C")])] == ["EU-52"]
    view = _until(client, lambda t: bool(t["claims"]))
    assert [o["words"] for o in view["claims"][0]["options"]] == ["call the exposed card", "call a suit"]
    r = client.post("/api/choose", json={"table": "t1", "seat": "E", "what": "win_trick"}, headers=headers)
    assert r.status_code == 409 and "call a suit" in r.json()["error"]
    r = client.post("/api/choose", json={"table": "t1", "seat": "E", "what": "call_suit", "suit": "D",
                                         "clause": "EU-52"}, headers=headers)
    assert r.status_code == 200 and r.json()["pending"]
    cid = r.json()["command"]["id"]
    assert [p["id"] for p in client.get("/api/state").json()["tables"][0]["pending"]] == [cid]
    rulings = table.command()
    assert [(x.remedy.value, x.clause, x.extra.get("suit")) for x in rulings] == [("attention", "EU-52", "D")]
    demand = [row.body for row in table.journal.rows() if row.kind == "event"][-1]
    assert (demand["what"], demand["seat"], demand["src"], demand["command"]["id"]) == ("call_suit", "E", "director", cid)
    view = _until(client, lambda t: not t["pending"] and not t["claims"])
    assert view["refused"] == [] and view["ruling"]["clause"] == "EU-52"


def test_a_choice_the_table_no_longer_allows_is_refused_with_its_reason_on_the_page(
        dash: Any, table: Table) -> None:  # noqa: F811
    d, client, clock = dash
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    table.feed([E("card_played", seat="S", card="7C")])
    _until(client, lambda t: bool(t["claims"]))
    r = client.post("/api/choose", json={"table": "t1", "seat": "W", "what": "call_card"}, headers=headers)
    assert r.status_code == 200
    # meanwhile all three play to the false lead: the trick stands and the claim is gone (law 53)
    assert [x.clause for x in table.feed([E("card_played", seat=s, card=c)
                                          for s, c in (("W", "AD"), ("N", "AH"), ("E", "AC"))])] == ["EU-53"]
    assert table.command() == []
    rows = [row for row in table.journal.rows() if row.kind == "note"]
    assert "no claim is open" in rows[-1].body["refused"]
    view = _until(client, lambda t: not t["pending"] and bool(t["refused"]))
    assert view["refused"][0]["why"] == "no claim is open at the table now (it was taken or has lapsed)"
    assert view["refused"][0]["by"] == "director"


@pytest.mark.parametrize(("game", "phase", "kind", "data", "words"), [
    ("contract-bridge", "auction", "bid", {"seat": "E", "call": "pass"}, "that table plays contract-bridge"),
    ("euchre", "play", "bid", {"seat": "E", "call": "pass"}, "in its play phase: a bid is entered in the auction"),
    ("euchre", "auction", "bid", {"seat": "E", "call": "shout"}, "field 'call'"),
    ("euchre", "auction", "bid", {"seat": "E", "call": "name"}, "a 'name' call needs the 'suit' it names"),
    ("euchre", "auction", "bid", {"seat": "E", "call": "pass", "suit": "H"}, "a suit goes with naming a suit"),
    ("euchre", "auction", "bid", {"call": "pass"}, "missing field 'seat'"),
    ("euchre", "shuffle", "discard", {"seat": "N"}, "auction or play phase"),
    ("euchre", "play", "discard", {"seat": "N", "card": "ZZ"}, "field 'card'"),
])
def test_the_dashboard_checks_a_bid_or_discard(game: str, phase: str, kind: str, data: dict[str, Any],
                                                words: str) -> None:
    with pytest.raises(ChoiceError, match=words):
        check_entry(game, phase, kind, data)


def test_a_bid_and_a_discard_are_offered_in_their_phases_and_sent(dash: Any, watcher: Watcher) -> None:  # noqa: F811
    d, client, clock = dash
    d.state.ingest(*_status(1, {"phase": "auction"}), 0.0)
    assert [b["words"] for b in d.state.tables["t1"].to_dict()["entries"]["bid"]] == \
        ["pass", "order up (accept the turned card)", "name a suit"]
    assert check_entry("euchre", "auction", "bid", {"seat": "W", "call": "name", "suit": "C", "alone": True}) == \
        {"seat": "W", "call": "name", "suit": "C", "alone": True}
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    r = client.post("/api/bid", json={"table": "t1", "seat": "W", "call": "name"}, headers=headers)
    assert r.status_code == 409 and "a 'name' call needs the 'suit' it names" in r.json()["error"]
    r = client.post("/api/bid", json={"table": "t1", "seat": "W", "call": "name", "suit": "C"}, headers=headers)
    assert r.status_code == 200 and r.json()["command"]["call"] == "name"
    r = client.post("/api/discard", json={"table": "t1", "seat": "N", "card": "TH"}, headers=headers)
    assert r.status_code == 200
    assert watcher.wait_for(lambda ms: {t for t, _ in ms} >= {"cardtable/t1/command/bid", "cardtable/t1/command/discard"})
    assert watcher.bodies("discard")[0]["card"] == "TH" and watcher.bodies("bid")[0]["suit"] == "C"
    assert [p["kind"] for p in d.state.tables["t1"].pending] == ["bid", "discard"]
    d.state.ingest(*_status(2, {"phase": "shuffle"}), 0.0)
    assert d.state.tables["t1"].to_dict()["entries"] == {}


def test_the_feed_words_a_call_claim_and_the_directors_choice_as_the_table_display_does() -> None:
    s = ClubState()
    ruling = {"remedy": "claim_option", "law": "Euchre, law 52", "clause": "EU-52", "reason": "South led.",
              "grants": "call", "options": ["call_card", "call_suit"]}
    s.ingest("cardtable/t1/ruling", json.dumps({"table": "t1", "kind": "ruling", "seq": 5, "prev": 0, "deal": 1,
                                                "t": 1.0, "body": ruling}).encode(), 0.0)
    assert s.tables["t1"].ruling["headline"] == "A CALL MAY BE MADE"  # type: ignore[index]
    asks = {"remedy": "attention", "law": "Euchre, law 52", "clause": "EU-52", "reason": "East claims.",
            "options": ["call_card", "call_suit"]}
    s.ingest("cardtable/t1/ruling", json.dumps({"table": "t1", "kind": "ruling", "seq": 6, "prev": 5, "deal": 1,
                                                "t": 1.0, "body": asks}).encode(), 0.0)
    assert s.tables["t1"].ruling["headline"] == \
        "THE DIRECTOR CHOOSES: CALL THE EXPOSED CARD OR CALL A SUIT"  # type: ignore[index]
