"""The duplicate screens over HTTP (Starlette's test client, a real broker): the director's page and
records need a login, the CSRF token and our origin; a refused record is answered 409 with the
session's reason and changes nothing; a table's page opens only with its own key and never carries the
traveller of a board a pair seated there has still to play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.web.auth import hash_password
from tests.duplicate.sessionkit import all_results, make_setup

from .conftest import PASSWORDS, csrf, login

SPEC = {"kind": "mitchell", "tables": 5, "boards_per_round": 2}


@pytest.fixture
def dup(broker: Any, tmp_path: Path) -> Any:
    from starlette.testclient import TestClient

    from firmware_host.club.dashboard import Dashboard

    setup = make_setup(SPEC)
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"))
    d = Dashboard("127.0.0.1", broker.port, "dashboard", PASSWORDS["dashboard"],
                  {"director": hash_password("right-horse-1")}, duplicate=desk)
    with TestClient(d.app, base_url="http://club.test") as client:
        yield d, desk, client
    desk.session.close()


def _post(client: Any, path: str, body: dict[str, Any], token: str) -> Any:
    return client.post(path, json=body, headers={"X-CSRF-Token": token, "Origin": "http://club.test"})


def test_the_directors_page_and_records_need_a_login_a_token_and_our_origin(dup: Any) -> None:
    _d, desk, client = dup
    assert client.get("/duplicate", follow_redirects=False).status_code == 303
    assert client.get("/api/duplicate/state").status_code == 401
    assert client.post("/api/duplicate/round", json={"round": 2}).status_code == 401
    login(client)
    token = csrf(client)
    page = client.get("/duplicate")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
    assert client.post("/api/duplicate/round", json={"round": 2}).status_code == 403      # no CSRF token
    assert client.post("/api/duplicate/round", json={"round": 2},
                       headers={"X-CSRF-Token": token, "Origin": "http://evil.test"}).status_code == 403
    assert desk.session.state.called == 1
    state = client.get("/api/duplicate/state").json()
    assert state["session"]["movement"] == "Mitchell, 5 tables" and len(state["progress"]) == 5
    assert len(state["boards"]) == 10 and state["called"] == 1


def test_records_are_journaled_and_a_refused_one_is_answered_with_the_sessions_reason(dup: Any) -> None:
    _d, desk, client = dup
    login(client)
    token = csrf(client)
    for rec in all_results(desk.session.setup)[:5]:
        desk.offer(f"cardtable/{rec['table']}/board", b"")  # a message the link cannot read: kept as a refusal
        desk.session.take(rec)
    desk.tick()
    r = _post(client, "/api/duplicate/adjust", {"board": 3, "ns": "1 NS", "ew": "1 EW", "kind": "artificial",
                                                  "ns_value": "60", "ew_value": "40"}, token)
    assert r.status_code == 409
    assert "an adjusted score on a board not played: pairs 1 NS and 1 EW do not play board 3" in r.json()["error"]
    r = _post(client, "/api/duplicate/adjust", {"board": 1, "ns": "1 NS", "ew": "1 EW", "kind": "artificial",
                                                  "ns_value": "60", "ew_value": "40", "why": "slow play"}, token)
    assert r.status_code == 200
    assert desk.session.state.entries["1/1 NS/1 EW"].kind == "artificial"
    assert _post(client, "/api/duplicate/round", {"round": 2}, token).status_code == 200
    r = _post(client, "/api/duplicate/round", {"round": 2}, token)
    assert r.status_code == 409 and "round 2 has been called already" in r.json()["error"]
    view = client.get("/api/duplicate/state").json()
    board1 = next(b for b in view["boards"] if b["board"] == 1)
    assert any(ln["note"].startswith("artificial") for ln in board1["lines"])
    assert any("payload is not JSON" in r["why"] for r in view["refusals"])


def test_a_table_page_opens_only_with_its_key_and_never_shows_a_board_still_to_play(dup: Any) -> None:
    _d, desk, client = dup
    key = desk.table_key("table-02")
    assert client.get("/duplicate/table/table-02?key=wrong").status_code == 404
    assert client.get(f"/duplicate/table/table-03?key={key}").status_code == 404
    assert client.get(f"/duplicate/table/table-02?key={key}").status_code == 200
    st = desk.session.state
    shown_ever = set()
    for rec in all_results(desk.session.setup, seed=4):
        if rec["round"] > st.called:
            desk.director({"type": "round", "round": rec["round"], "by": "td"})
        desk.session.take(rec)
        for tid, number in st.number_of.items():
            view = client.get(f"/api/duplicate/table/{tid}?key={desk.table_key(tid)}").json()
            seated = st.movement.at(st.table_round(number), number)
            shown = {t["board"] for t in view["travellers"]}
            for p in seated.pairs:
                assert not shown & st.still_to_play(p), (tid, rec["round"], p, shown & st.still_to_play(p))
            shown_ever |= shown
    assert len(shown_ever) == 10


def test_the_tables_are_told_their_seating_on_the_dashboards_broker(dup: Any, broker: Any) -> None:
    from .conftest import Watcher

    d, desk, _client = dup
    w = Watcher(broker.port)
    try:
        assert w.wait_for(lambda msgs: any(t == "cardtable/session/table/table-04" for t, _p in msgs))
        assert any(t == "cardtable/session/round" for t, _p in w.messages)
    finally:
        w.close()


def test_a_director_sent_to_log_in_from_the_session_page_comes_back_to_it(dup: Any) -> None:
    """Audit m34: after the dashboard restarted, the director's phone on /duplicate went to /login, and
    logging in landed on the dashboard's own page, not the session's (docs/session.md, "Screens": "once
    logged in again shows the session as it stands"). The login now returns to the page that sent her,
    only ever one of the dashboard's own pages."""
    _d, _desk, client = dup
    r = client.get("/duplicate", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/duplicate"
    page = client.get("/login?next=/duplicate").text
    assert '<input type="hidden" name="next" value="/duplicate">' in page
    wrong = client.post("/login", data={"username": "director", "password": "wrong", "next": "/duplicate"},
                        follow_redirects=False)
    assert wrong.status_code == 401 and 'name="next" value="/duplicate"' in wrong.text   # kept for the retry
    for elsewhere in ("https://evil.test/", "//evil.test", "/api/state"):
        assert 'name="next"' not in client.get("/login", params={"next": elsewhere}).text
        r = client.post("/login", data={"username": "director", "password": "right-horse-1", "next": elsewhere},
                        follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/", elsewhere
    r = client.post("/login", data={"username": "director", "password": "right-horse-1", "next": "/duplicate"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/duplicate"
    assert client.get("/duplicate", follow_redirects=False).status_code == 200
