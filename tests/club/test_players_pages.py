"""Issue 29, item 1 on the club's pages (Starlette's test client, a real broker): the director names a
pair from the roster on /duplicate; the players at a table name themselves on its page, a member number
shown back as a name before it is journaled; an unknown member number, one player at two tables, a name
with a control character and another table's pair are refused with one message each (journaled)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.web.auth import hash_password
from tests.duplicate.sessionkit import make_setup

from .conftest import PASSWORDS, csrf, login

SPEC = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}
ROSTER = "member,name,federation\n1021,Ann Smith,EBU-77\n1045,Bob Jones,\n1102,Cy Young,\n"


@pytest.fixture
def dup(broker: Any, tmp_path: Path) -> Any:
    from starlette.testclient import TestClient

    from firmware_host.club.dashboard import Dashboard

    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(SPEC, names=False), analyse=False,
                                      synchronous="NORMAL"))
    (tmp_path / "s" / "roster.csv").write_text(ROSTER, encoding="utf-8")
    d = Dashboard("127.0.0.1", broker.port, "dashboard", PASSWORDS["dashboard"],
                  {"director": hash_password("right-horse-1")}, duplicate=desk)
    with TestClient(d.app, base_url="http://club.test") as client:
        yield desk, client
    desk.session.close()


def test_the_director_names_a_pair_from_the_roster(dup: Any) -> None:
    desk, client = dup
    assert client.post("/api/duplicate/players", json={"pair": "1 NS", "players": ["1021", "x"]}).status_code == 401
    login(client)
    token = csrf(client)
    head = {"X-CSRF-Token": token, "Origin": "http://club.test"}
    r = client.post("/api/duplicate/players", json={"pair": "1NS", "players": ["1021", "Jane Visitor"]}, headers=head)
    assert r.status_code == 200 and desk.session.state.players_of("1 NS")[0]["federation"] == "EBU-77"
    for body, why in (({"pair": "2 EW", "players": ["9999", "Jane"]}, "member number 9999 is not in the roster"),
                      ({"pair": "2 EW", "players": ["1021", "Cy"]}, "member 1021 (Ann Smith) already plays in pair 1 NS"),
                      ({"pair": "2 EW", "players": ["Cy\u0007", "Di"]}, "holds a control character (U+0007)")):
        r = client.post("/api/duplicate/players", json=body, headers=head)
        assert r.status_code == 409 and why in r.json()["error"]
    assert len([x for x in desk.session.refusals if x["record"].get("type") == "players"]) == 3
    state = client.get("/api/duplicate/state").json()
    assert {"pair": "1 NS", "players": [{"name": "Ann Smith", "member": "1021", "federation": "EBU-77"},
                                        {"name": "Jane Visitor", "member": "", "federation": ""}]} in state["players"]


def test_the_players_forms_pair_is_read_as_people_type_it(dup: Any) -> None:
    """Audit m9: the Players form refused '2ns' and '3 ew' ("'2ns' is not a pair (want a number, and NS or
    EW in a Mitchell: '3 NS')") while the adjusted score's pair fields take '3 ns' and a players file
    '3NS' (docs/session.md, "The director's forms": fields read as people type them)."""
    desk, client = dup
    login(client)
    head = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    for typed, pair in (("2ns", "2 NS"), ("3 ew", "3 EW"), (" 1 Ns ", "1 NS")):
        r = client.post("/api/duplicate/players", json={"pair": typed, "players": ["Jo " + pair, "Al " + pair]},
                        headers=head)
        assert r.status_code == 200 and r.json()["pair"] == pair, (typed, r.json())
        assert desk.session.state.players_of(pair)[0]["name"] == "Jo " + pair
    r = client.post("/api/duplicate/players", json={"pair": "3 sw", "players": ["Jo", "Al"]}, headers=head)
    assert r.status_code == 409 and r.json()["error"].startswith("'3 sw' is not a pair"), r.json()


def test_players_name_themselves_at_their_table(dup: Any) -> None:
    desk, client = dup
    key = desk.table_key("table-02")
    url = f"/api/duplicate/table/table-02/players?key={key}"
    assert client.post("/api/duplicate/table/table-02/players?key=bad", json={}).status_code == 404
    # from our own origin only: a POST with neither an Origin nor a Referer of ours was taken
    for other in ({}, {"Referer": "http://evil.test/"}, {"Origin": "null"}):
        r = client.post(url, json={"side": "ew", "players": ["1045", "1102"], "confirm": True}, headers=other)
        assert r.status_code == 403, other
    assert desk.session.state.players_of("2 EW") == []
    client.headers["Origin"] = "http://club.test"     # as a browser sends it with every POST
    r = client.post(url, json={"side": "ew", "players": ["1045", "1102"]})
    assert r.status_code == 200 and r.json()["pair"] == "2 EW" and "confirm" in r.json()
    assert [p["name"] for p in r.json()["players"]] == ["Bob Jones", "Cy Young"]
    assert desk.session.state.players_of("2 EW") == []                  # shown back only: nothing journaled
    r = client.post(url, json={"side": "ew", "players": ["1045", "1102"], "confirm": True})
    assert r.status_code == 200 and desk.session.state.players_of("2 EW")[1]["member"] == "1102"
    assert client.get(f"/api/duplicate/table/table-02?key={key}").json()["ew_names"] == "Bob Jones (1045) & Cy Young (1102)"
    r = client.post(url, json={"side": "ns", "players": ["1045", "Jane"], "confirm": True})
    assert r.status_code == 409 and "member 1045 (Bob Jones) already plays in pair 2 EW" in r.json()["error"]
    r = client.post(url, json={"side": "ns", "players": ["4242", "Jane"], "confirm": True})
    assert r.status_code == 409 and r.json()["error"].startswith("member number 4242 is not in the roster")
    r = client.post(url, json={"side": "up", "players": ["Jane", "Joe"], "confirm": True})
    assert r.status_code == 409 and "side is 'ns' or 'ew'" in r.json()["error"]
    r = client.post(url, json={"side": "ns", "players": ["Jane", "Joe"]}, headers={"Origin": "http://evil.test"})
    assert r.status_code == 403
