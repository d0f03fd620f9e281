"""The table's page shows the game as the table's own screen does (issue 30, section 1): the club keeps
the lines ``devices.table_view`` makes of each table's latest status, and a duplicate table's page (the
session's table number) carries them, its cards hidden while the deal is open as everywhere off the
table. A malformed status gives no lines, never an error."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.state import ClubState
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.table.controller import LawInput
from firmware_host.table.duplicate import TableRound
from firmware_host.tablelink.secrecy import SecrecyFilter
from firmware_host.web.auth import hash_password
from laws.cards import clockwise_from
from laws.events import CallMade, CardPlayed
from tests.duplicate.sessionkit import make_setup
from tests.table.duptable import records, table

from .conftest import PASSWORDS


@contextlib.contextmanager
def _page(broker: Any, tmp_path: Path) -> Iterator[tuple[Any, SessionDesk, Any]]:
    """A 5-table Mitchell's dashboard on the test broker, and a client of its pages."""
    from starlette.testclient import TestClient

    from firmware_host.club.dashboard import Dashboard

    desk = SessionDesk(Session.create(tmp_path / "s", make_setup({"kind": "mitchell", "tables": 5,
                                                                  "boards_per_round": 2}),
                                      analyse=False, synchronous="NORMAL"))
    d = Dashboard("127.0.0.1", broker.port, "dashboard", PASSWORDS["dashboard"],
                  {"director": hash_password("right-horse-1")}, duplicate=desk)
    try:
        with TestClient(d.app, base_url="http://club.test") as client:
            yield d, desk, client
    finally:
        desk.session.close()


def _status_of_a_table_in_play(folder: Path, number: int) -> dict[str, Any]:
    """A real duplicate table (table ``number``) after 1NT-3NT and the opening lead, as it publishes its
    status (cards hidden while the deal is open)."""
    recs = records(2)
    ctl, _, _ = table(folder, recs, TableRound("A", number, 1, "1", "11", (1, 2)))
    dealer = recs[1].dealer
    for i, call in enumerate(["1NT", "pass", "3NT", "pass", "pass", "pass"]):
        ctl.process(LawInput(CallMade(clockwise_from(dealer)[i % 4], call), "camera"))
    leader = dealer.left
    ctl.process(LawInput(CardPlayed(leader, sorted(recs[1].deal.hand(leader))[0]), "camera"))
    body = SecrecyFilter().body(json.loads(json.dumps(ctl.snapshot())), deal=1)
    return {"table": "t9", "kind": "status", "seq": 5, "deal": 1, "t": 1.0, "body": body}


def test_the_club_keeps_the_tables_game_lines(tmp_path: Path) -> None:
    s = ClubState()
    s.ingest("cardtable/t9/status", json.dumps(_status_of_a_table_in_play(tmp_path, 2)).encode(), 0.0)
    v = s.tables["t9"]
    assert v.board_at == ("A", 2)
    text = "\n".join(v.game_lines)
    assert "Board 1   Dealer North" in text and "Contract: 3NT by North" in text
    assert "On the table: East" in text and "The play: South to play." in text
    assert "hidden" not in text


@pytest.mark.parametrize("bridge", [{"calls": "x", "dealer": "N"}, {"calls": [[1]], "dealer": "W"}, 7, "x"])
def test_a_malformed_status_gives_no_lines_and_no_error(bridge: Any) -> None:
    s = ClubState()
    env = {"table": "t9", "kind": "status", "seq": 1, "deal": 1, "t": 1.0,
           "body": {"phase": "auction", "game": "duplicate-bridge", "bridge": bridge,
                    "duplicate": {"board": 1, "table": True}}}
    s.ingest("cardtable/t9/status", json.dumps(env).encode(), 0.0)
    assert s.tables["t9"].board_at is None and s.tables["t9"].game_lines == []


def test_the_table_page_carries_the_game(broker: Any, tmp_path: Path) -> None:
    with _page(broker, tmp_path) as (d, desk, client):
        tid = next(t for t, n in desk.session.state.number_of.items() if n == 2)
        view = client.get(f"/api/duplicate/table/{tid}?key={desk.table_key(tid)}").json()
        assert view["game"] == {}                         # no status from that table yet
        d.state.ingest("cardtable/t9/status",
                       json.dumps(_status_of_a_table_in_play(tmp_path / "t", 2)).encode(), 0.0)
        game = client.get(f"/api/duplicate/table/{tid}?key={desk.table_key(tid)}").json()["game"]
        assert game["head"][0].startswith("Board 1   Dealer North")
        assert game["auction"][:2] == [["West", "North", "East", "South"], ["", "1NT", "Pass", "3NT"]]
        assert game["status"] == "The play: South to play." and game["online"] is True
        page = client.get(f"/duplicate/table/{tid}?key={desk.table_key(tid)}").text
        assert 'id="game"' in page


def _status_with_an_insufficient_bid(folder: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """A real duplicate table (table 2) after North's 1NT and East's insufficient 1C: its ruling message
    and its status, as it publishes them (cards hidden while the deal is open)."""
    recs = records(2)
    ctl, _, _ = table(folder, recs, TableRound("A", 2, 1, "1", "11", (1, 2)))
    seats = clockwise_from(recs[1].dealer)
    ctl.process(LawInput(CallMade(seats[0], "1NT"), "camera"))
    ctl.process(LawInput(CallMade(seats[1], "1C"), "camera"))
    hide = SecrecyFilter()
    body = hide.body(json.loads(json.dumps(ctl.snapshot())), deal=1)
    ruling = hide.body(json.loads(json.dumps(ctl.last_ruling)), deal=1)
    return ({"table": "t9", "kind": "ruling", "seq": 4, "prev": 3, "deal": 1, "t": 1.0, "body": ruling},
            {"table": "t9", "kind": "status", "seq": 5, "deal": 1, "t": 1.0, "body": body})


@pytest.mark.parametrize("away", [False, True])
def test_the_table_page_shows_the_ruling_waiting_with_its_law_and_lamp(broker: Any, tmp_path: Path,
                                                                        away: bool) -> None:
    """Audit 65 F1: the page said only "An irregularity waits for a ruling (above); the director is
    called." with nothing above: no ruling, no law, no lamp, where the terminal shows each ruling with its
    words, law and clause and lights the ATTENTION lamp. ``away``: the dashboard never saw the ruling
    message; the status's own latest ruling says it. Never a hand."""
    with _page(broker, tmp_path) as (d, desk, client):
        tid = next(t for t, n in desk.session.state.number_of.items() if n == 2)
        ruling, status = _status_with_an_insufficient_bid(tmp_path / "t")
        if not away:
            d.state.ingest("cardtable/t9/ruling", json.dumps(ruling).encode(), 0.0)
        d.state.ingest("cardtable/t9/status", json.dumps(status).encode(), 0.0)
        game = client.get(f"/api/duplicate/table/{tid}?key={desk.table_key(tid)}").json()["game"]
        said = game["ruling"]
        assert said["headline"] == "INSUFFICIENT BID" and said["law"] == "Duplicate Bridge, law 27"
        assert said["clause"] == "BP-27" and said["reason"].startswith("East bid one club, which does not beat")
        assert game["lamps"] == ["ATTENTION South"]
        assert game["status"] == "An irregularity waits for a ruling (above); the director is called."
        assert "hidden" not in json.dumps(game) and "hand" not in game


def test_the_table_page_says_when_the_tables_device_is_offline(broker: Any, tmp_path: Path) -> None:
    """Audit 65 F7: the table's ``cardtable run`` stopped (its broker will says ``online`` false) and its
    page still showed the last game as if live. The page is told the device is offline."""
    with _page(broker, tmp_path) as (d, desk, client):
        tid = next(t for t, n in desk.session.state.number_of.items() if n == 2)
        url = f"/api/duplicate/table/{tid}?key={desk.table_key(tid)}"
        d.state.ingest("cardtable/t9/status", json.dumps(_status_of_a_table_in_play(tmp_path / "t", 2)).encode(), 0.0)
        assert client.get(url).json()["game"]["online"] is True
        d.state.ingest("cardtable/t9/online", json.dumps({"table": "t9", "online": False}).encode(), 1.0)
        assert client.get(url).json()["game"]["online"] is False
