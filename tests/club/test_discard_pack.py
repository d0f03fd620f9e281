"""A euchre discard of a card outside the 32-card pack (issue 20, item 5): the dashboard refuses to send
it (409, naming the card) and the table refuses it if it comes anyway (a journal note, the answer)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.claims import ChoiceError, check_entry
from firmware_host.records.journal import Journal
from firmware_host.table.controller import DirectorCommand, LawInput, TableController
from laws.cards import Seat
from tests.club.conftest import Watcher, csrf, login
from tests.laws.streams import euchre_known_deal
from tests.table.fakes import Clock
from tests.table.test_choices import HANDS


@pytest.mark.parametrize("card", ["2C", "6H", "3S"])
def test_the_page_refuses_a_discard_outside_the_euchre_pack(card: str) -> None:
    with pytest.raises(ChoiceError, match="not in the pack of this game"):
        check_entry("euchre", "auction", "discard", {"seat": "N", "card": card})
    assert check_entry("euchre", "auction", "discard", {"seat": "N", "card": "7C"}) == {"seat": "N", "card": "7C"}


def test_the_dashboard_answers_409_for_it(dash: Any, watcher: Watcher) -> None:
    d, client, clock = dash
    d.state.ingest("cardtable/t1/status", json.dumps({
        "table": "t1", "kind": "status", "seq": 1, "deal": 1, "t": 1.0,
        "body": {"phase": "auction", "game": "euchre", "deal": 1, "lamps": {}}}).encode(), 1.0)
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    r = client.post("/api/discard", json={"table": "t1", "seat": "N", "card": "2C"}, headers=headers)
    assert r.status_code == 409 and r.json()["error"] == "the two of clubs is not in the pack of this game"


def test_the_table_refuses_it_when_it_comes_anyway(tmp_path: Path) -> None:
    j = Journal.open(tmp_path, synchronous="NORMAL")
    try:
        ctl = TableController(game="euchre", journal=j, panel=None, clock=Clock())
        ctl.engine.state.next_dealer = Seat.N
        for e in euchre_known_deal(Seat.N, HANDS, "7S"):  # type: ignore[arg-type]
            ctl.process(LawInput(e, "script"))
        assert ctl.process(DirectorCommand("discard", "d1", "ann", {"seat": "N", "card": "2C"})) == []
        assert ctl.snapshot()["answers"][-1] == {"id": "d1", "kind": "discard", "ok": False,
                                                "why": "the two of clubs is not in the pack of this game"}
        assert not any(r.kind == "event" and r.body["type"] == "discard" for r in j.rows())
    finally:
        j.close()
