"""The director's bridge answers from the dashboard to a real table (controller, journal, publisher, the club
commands, a real Mosquitto): offered on the table's card only while the status makes them meaningful, sent
as ``command/<kind>``, journaled at the table from source ``director`` and judged by its engine **once**, by
the command's id, however often the broker delivers it (and after a restart); an answer the engine does
not take comes back refused with its reason. Also a deal's result corrected over the broker, which the
table refused as an unknown command before."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import LocalBroker
from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput, TableController
from laws.cards import Seat
from laws.events import CallMade

from .conftest import Watcher, csrf, login
from .test_bridge_call_command import BridgeTable, _until


@pytest.fixture
def table(broker: LocalBroker, tmp_path: Path) -> Any:
    t = BridgeTable(broker.port, tmp_path / "t1")
    yield t
    t.stop()


def _kinds(view: dict[str, Any]) -> list[str]:
    return [o["kind"] for o in (view.get("bridge") or {}).get("offers", [])]


def _events(journal: Journal, etype: str) -> list[dict[str, Any]]:
    return [row.body for row in journal.rows() if row.kind == "event" and row.body.get("type") == etype]


def test_an_acceptance_reaches_the_engine_once_by_its_id(dash: Any, table: BridgeTable, watcher: Watcher,
                                                          tmp_path: Path) -> None:
    d, client, clock = dash
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    assert _kinds(_until(client, lambda t: t["phase"] == "auction")) == []  # nothing waits: no answer
    for call in (CallMade(Seat.N, "1S"), CallMade(Seat.E, "1H")):  # an insufficient bid: South may accept
        table.ctl.process(LawInput(call, "camera"))
    view = _until(client, lambda t: "accept" in _kinds(t))
    offer = next(o for o in view["bridge"]["offers"] if o["kind"] == "accept")
    assert [s["seat"] for s in offer["seats"]] == ["S"] and "insufficient bid" in offer["title"]
    r = client.post("/api/accept", json={"table": "t1", "seat": "S"}, headers=headers)
    assert r.status_code == 200 and r.json()["pending"]
    cmd = r.json()["command"]
    assert watcher.wait_for(lambda ms: "cardtable/t1/command/accept" in {t for t, _ in ms})
    watcher.client.publish("cardtable/t1/command/accept", json.dumps(cmd), qos=1)  # delivered twice
    table.command()
    table.command()
    accepts = _events(table.journal, "accept")
    assert len(accepts) == 1 and accepts[0]["command"]["id"] == cmd["id"] and accepts[0]["src"] == "director"
    h = table.ctl.engine.state.deal.bridge  # type: ignore[union-attr]
    assert h.pending is None and [c.call.code for c in h.auction.calls] == ["1S", "1H"]  # it stands, once
    view = _until(client, lambda t: not t["pending"] and "accept" not in _kinds(t))
    assert view["refused"] == []
    # nothing waits now: an acceptance sent all the same (a page that was behind) is judged and refused
    r = client.post("/api/accept", json={"table": "t1", "seat": "S"}, headers=headers)
    table.command()
    view = _until(client, lambda t: t["refused"])
    assert "no irregular call or card is waiting to be accepted" in view["refused"][0]["why"]
    assert len(_events(table.journal, "accept")) == 2  # journaled (nothing lost), not applied
    assert len(table.ctl.engine.state.deal.bridge.auction.calls) == 2  # type: ignore[union-attr]

    # a restart: the broker's third delivery of the first answer is answered, not done again
    table.pub.stop()
    again = TableController(game="contract-bridge", journal=table.journal, panel=None, clock=time.time,
                            table_id="t1")
    assert cmd["id"] in again.commands_seen
    from firmware_host.live import ClubCommands

    ClubCommands("contract-bridge", again.submit)("accept", dict(cmd))
    again.process(again.queue.get(timeout=5))
    assert len(_events(table.journal, "accept")) == 2
    assert [c.call.code for c in again.engine.state.deal.bridge.auction.calls] == ["1S", "1H"]  # type: ignore[union-attr]


def test_a_withdraw_from_the_page_takes_back_the_card_waiting(dash: Any, table: BridgeTable,
                                                              watcher: Watcher) -> None:
    d, client, clock = dash
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    for seat, call in zip("NESW" * 2, "1S pass pass pass".split(), strict=False):
        table.ctl.process(LawInput(CallMade(Seat(seat), call), "camera"))
    hands = table.ctl.engine.state.deal.hands  # type: ignore[union-attr]
    card = hands[Seat.W][0]  # North declares; East leads: West leads out of turn
    from laws.events import CardPlayed

    table.ctl.process(LawInput(CardPlayed(Seat.W, card), "camera"))
    view = _until(client, lambda t: "withdraw" in _kinds(t))
    assert set(_kinds(view)) == {"accept", "withdraw", "spread"} and "hidden" not in json.dumps(view["bridge"]["offers"])
    r = client.post("/api/withdraw", json={"table": "t1", "seat": "W"}, headers=headers)
    assert r.status_code == 200 and "card" not in r.json()["command"]  # the page does not know the card
    table.command()
    withdrawn = _events(table.journal, "withdraw")
    assert len(withdrawn) == 1 and withdrawn[0]["card"] == card.code  # the table names it
    assert table.ctl.engine.state.deal.bridge.pending is None  # type: ignore[union-attr]
    _until(client, lambda t: not t["pending"] and "withdraw" not in _kinds(t) and t["refused"] == [])


def test_a_result_corrected_on_the_dashboard_is_journaled_at_the_table(dash: Any, table: BridgeTable,
                                                                       watcher: Watcher) -> None:
    """``command/correct`` was not among the commands a table takes: over the broker it was refused as
    unknown, so no correction from the dashboard ever reached a real table's journal."""
    d, client, clock = dash
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    _until(client, lambda t: t["deal"] == 1)
    r = client.post("/api/correct", json={"table": "t1", "deal": 1, "result": {
        "declarer": "S", "contract": "4H", "tricks": 9}}, headers=headers)
    assert r.status_code == 200
    table.command()
    notes = [row.body for row in table.journal.rows() if row.kind == "note"]
    assert any(n.get("correction", {}).get("deal") == 1 and n["command"]["id"] == r.json()["command"]["id"]
               for n in notes), notes
