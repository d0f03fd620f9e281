"""Issue 29, items 3 and 4, over HTTP (Starlette's test client, a real broker): a result entered by hand
on the director's page or on a table's own page, held against the table's own result when that comes
later; forms read as people type them; a line taken off marked for the director; a round's call undone;
the exports downloaded from the page; the director's own refused entries listed apart from the
tables'; the dashboard's link to /duplicate."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.web.auth import hash_password
from tests.duplicate.sessionkit import all_results, make_setup, result

from .conftest import PASSWORDS, csrf, login

SPEC = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}


@pytest.fixture
def dup(broker: Any, tmp_path: Path) -> Any:
    from starlette.testclient import TestClient

    from firmware_host.club.dashboard import Dashboard

    setup = make_setup(SPEC)
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"))
    d = Dashboard("127.0.0.1", broker.port, "dashboard", PASSWORDS["dashboard"],
                  {"director": hash_password("right-horse-1")}, duplicate=desk)
    with TestClient(d.app, base_url="http://club.test") as client:
        login(client)
        yield desk, client, csrf(client)
    desk.session.close()


def _post(client: Any, path: str, body: dict[str, Any], token: str) -> Any:
    return client.post(path, json=body, headers={"X-CSRF-Token": token, "Origin": "http://club.test"})


def _view(client: Any) -> dict[str, Any]:
    return client.get("/api/duplicate/state").json()


def _line(view: dict[str, Any], key: str) -> dict[str, Any]:
    board = int(key.split("/")[0])
    return next(ln for b in view["boards"] if b["board"] == board for ln in b["lines"] if ln["key"] == key)


def test_a_result_entered_by_hand_as_typed_is_marked_and_the_tables_own_is_held_as_a_conflict(dup: Any) -> None:
    desk, client, token = dup
    r = _post(client, "/api/duplicate/enter", {"key": "1 1NS 1EW", "contract": "4s", "declarer": "S",
                                               "lead": "♥A", "tricks": "10", "why": "the Pi at table 1 failed"}, token)
    assert r.status_code == 200, r.text
    assert r.json()["key"] == "1/1 NS/1 EW"
    line = _line(_view(client), "1/1 NS/1 EW")
    assert (line["contract"], line["lead"], line["hand"]) == ("4♠", "♥A", True)
    assert line["note"] == "entered by hand by director (the Pi at table 1 failed)"
    theirs = result(desk.session.setup, 1, 1, 1, random.Random(3))
    desk.offer("cardtable/table-01/board", b"")     # the table's own message would come over the link
    desk.session.take(theirs)
    desk.tick()
    view = _view(client)
    assert [c["key"] for c in view["conflicts"]] == ["1/1 NS/1 EW"]
    board1 = next(b for b in view["boards"] if b["board"] == 1)
    assert [ln["key"] for ln in board1["lines"]].count("1/1 NS/1 EW") == 1      # scored once, the hand-entered
    assert _line(view, "1/1 NS/1 EW")["hand"]
    assert not view["finished"]
    r = _post(client, "/api/duplicate/resolve", {"key": "1/1NS/1EW", "keep": "table"}, token)
    assert r.status_code == 200, r.text
    assert _view(client)["conflicts"] == [] and not _line(_view(client), "1/1 NS/1 EW")["hand"]


def test_a_tables_own_page_enters_its_own_lines_with_its_key_only(dup: Any) -> None:
    desk, client, token = dup
    key = desk.table_key("table-02")
    page = client.get(f"/api/duplicate/table/table-02?key={key}").json()
    assert page["enterable"] == ["3/2 NS/2 EW", "4/2 NS/2 EW"]
    body = {"key": "3/2 NS/2 EW", "contract": "3NT", "declarer": "N", "lead": "S4", "tricks": 9}
    assert client.post("/api/duplicate/table/table-02/enter", json=body,
                       headers={"X-Table-Key": "wrong"}).status_code == 404
    assert client.post("/api/duplicate/table/table-02/enter", json=body,
                       headers={"X-Table-Key": key, "Origin": "http://evil.test"}).status_code == 403
    # from our own origin: its Origin (a browser sends one with every POST), else a Referer of ours; a POST
    # that names neither was taken (docs/session.md), as was one whose Referer is another site's
    for other in ({}, {"Referer": "http://evil.test/page"}, {"Origin": "null"},
                  {"Origin": "http://evil.test", "Referer": "http://club.test/duplicate/table/table-02"}):
        r = client.post("/api/duplicate/table/table-02/enter", json=body, headers={"X-Table-Key": key, **other})
        assert (r.status_code, r.json()) == (403, {"error": "cross-origin request"}), other
    assert "3/2 NS/2 EW" not in desk.session.state.entries
    own = {"X-Table-Key": key, "Origin": "http://club.test"}
    r = client.post("/api/duplicate/table/table-02/enter", json={**body, "key": "1/1 NS/1 EW"}, headers=own)
    assert r.status_code == 409 and "this page is table table-02's" in r.json()["error"]
    r = client.post("/api/duplicate/table/table-02/enter", json=body,
                    headers={"X-Table-Key": key, "Referer": f"http://club.test/duplicate/table/table-02?key={key}"})
    assert r.status_code == 200, r.text
    e = desk.session.state.entries["3/2 NS/2 EW"]
    assert e.hand and e.by == "table-02's page" and e.lead == "4S"
    view = _view(client)
    assert any("this page is table table-02's" in x["why"] for x in view["refusals"])   # the tables' list
    assert not any("this page is table" in x["why"] for x in view["mine"])
    assert client.get(f"/api/duplicate/table/table-02?key={key}").json()["enterable"] == ["4/2 NS/2 EW"]
    _post(client, "/api/duplicate/cancel", {"key": "3/2 NS/2 EW", "then": "replay"}, token)
    assert client.get(f"/api/duplicate/table/table-02?key={key}").json()["enterable"] == ["3/2 NS/2 EW", "4/2 NS/2 EW"]


def test_a_refusal_names_its_board_once(dup: Any) -> None:
    """Audit a11 #8: "Your entries refused" read "alice, board 2: board 2: an assigned score is ...", and a
    table page's refused entry "table-02's page: the lead 'XX' is a card ..." named no board although its
    line did. The list puts ``by``, the table and ``board`` (when not 0) before the reason."""
    desk, client, token = dup
    r = _post(client, "/api/duplicate/adjust", {"board": 2, "ns": "1 NS", "ew": "1 EW", "kind": "assigned",
                                                "ns_value": "425", "why": "x"}, token)
    assert r.status_code == 409 and r.json()["error"].startswith("board 2: an assigned score")
    r = _post(client, "/api/duplicate/correct", {"key": "1/1 NS/1 EW", "contract": "4S"}, token)
    assert r.status_code == 409
    mine = _view(client)["mine"]
    assert mine[0]["why"].startswith("no traveller line 1/1 NS/1 EW")
    assert [(m["what"], m["board"]) for m in mine] == [("correct", 0), ("adjust", 0)]   # 0: the reason names it
    key = desk.table_key("table-02")
    r = client.post("/api/duplicate/table/table-02/enter", json={"key": "3 2 2", "contract": "3NT", "declarer": "N",
                                                                 "lead": "XX", "tricks": 9},
                    headers={"X-Table-Key": key, "Origin": "http://club.test"})
    assert r.status_code == 409 and r.json()["error"].startswith("the lead 'XX' is a card")
    row = _view(client)["refusals"][0]
    assert (row["by"], row["board"], row["why"]) == ("table-02's page", 3, r.json()["error"])


def test_correct_on_a_missing_line_says_how_to_enter_it(dup: Any) -> None:
    """On main: 409 "no traveller line '1/1 NS/1 EW' (a line is board/NS pair/EW pair, e.g. '5/3 NS/4 EW')",
    and '1/1NS/1EW' was not read at all."""
    _desk, client, token = dup
    r = _post(client, "/api/duplicate/correct", {"key": "1/1NS/1EW", "tricks": 9}, token)
    assert r.status_code == 409
    assert r.json()["error"] == ("no traveller line 1/1 NS/1 EW (table 1, round 1): no result has reached the "
                                 "session for it yet; enter the result by hand (contract, declarer, lead, tricks) "
                                 "or give an adjusted score")
    view = _view(client)
    assert view["mine"][0]["why"] == r.json()["error"] and view["refusals"] == []


def test_artificial_scores_as_words_and_a_split_score_as_each_sides_own(dup: Any) -> None:
    desk, client, token = dup
    r = _post(client, "/api/duplicate/adjust", {"board": 1, "ns": "1NS", "ew": "1EW", "kind": "artificial",
                                                "ns_value": "A+", "ew_value": "A-"}, token)
    assert r.status_code == 200, r.text
    assert desk.session.state.entries["1/1 NS/1 EW"].adjusted == ("60", "40")
    r = _post(client, "/api/duplicate/adjust", {"board": 2, "ns": "1 NS", "ew": "1 EW", "kind": "assigned",
                                                "ns_own": "420", "ew_own": "-140"}, token)
    assert r.status_code == 200, r.text
    assert desk.session.state.entries["2/1 NS/1 EW"].adjusted == ("420", "140")
    r = _post(client, "/api/duplicate/adjust", {"board": 2, "ns": "1 NS", "ew": "1 EW", "kind": "assigned",
                                                "ns_own": "420", "ew_own": "minus"}, token)
    assert r.status_code == 409 and "East-West's own score must be a whole number" in r.json()["error"]
    assert "East-West's own score" in _view(client)["mine"][0]["why"]


def test_an_adjusted_score_takes_a_mitchells_plain_pair_numbers(dup: Any) -> None:
    """Audit a11 #3: the form's "NS pair" 1 and "EW pair" 1 (who meet on board 1) were refused 409 "pairs
    1 and 1 do not play board 1 against each other"."""
    desk, client, token = dup
    r = _post(client, "/api/duplicate/adjust", {"board": "1", "ns": "1", "ew": "1", "kind": "artificial",
                                                "ns_value": "A+", "ew_value": "A-", "why": "slow play"}, token)
    assert r.status_code == 200, r.text
    assert desk.session.state.entries["1/1 NS/1 EW"].adjusted == ("60", "40")


def test_a_line_taken_off_for_the_director_and_a_round_call_undone(dup: Any) -> None:
    desk, client, token = dup
    st = desk.session.state
    for b in (1, 2):
        desk.session.take(result(st.setup, 1, 1, b, random.Random(b)))
    r = _post(client, "/api/duplicate/cancel", {"key": "1/1 NS/1 EW", "then": "director", "why": "misboarded"}, token)
    assert r.status_code == 200, r.text
    assert _view(client)["progress"][0]["taken_off"] == {"replay": [], "director": [1]}
    assert _post(client, "/api/duplicate/round", {"round": 2}, token).status_code == 200
    assert _view(client)["undo"]
    assert _post(client, "/api/duplicate/uncall", {"round": 2}, token).status_code == 200
    assert st.called == 1 and not _view(client)["undo"]
    assert _post(client, "/api/duplicate/round", {"round": 2}, token).status_code == 200
    assert desk.session.take(result(st.setup, 2, 1, 3, random.Random(5))).taken
    r = _post(client, "/api/duplicate/uncall", {"round": 2}, token)
    assert r.status_code == 409 and "round 2 cannot be undone: a result of round 2 is in" in r.json()["error"]


def test_the_exports_are_downloaded_from_the_page_and_the_dashboard_links_to_it(dup: Any) -> None:
    _desk, client, _token = dup
    r = client.get("/duplicate/export/pbn")
    assert r.status_code == 200 and r.headers["content-disposition"] == 'attachment; filename="results.pbn"'
    assert b"[Event " in r.content
    assert client.get("/duplicate/export/usebio").content.startswith(b"<?xml")
    assert client.get("/duplicate/export/doc").status_code == 404
    assert 'href="/duplicate"' in client.get("/").text
    client.cookies.clear()
    assert client.get("/duplicate/export/pbn").status_code == 401


def test_a_correction_with_its_lead_and_a_regroup_as_typed(dup: Any) -> None:
    """On main '1/1NS/1EW' was "no traveller line", a lead could not be given on the page's form and a
    contract had to be typed as the record writes it."""
    desk, client, token = dup
    st = desk.session.state
    desk.session.take(result(st.setup, 1, 1, 1, random.Random(1)))
    r = _post(client, "/api/duplicate/correct", {"key": "1/1NS/1EW", "contract": "3ntx", "declarer": "n",
                                                 "lead": "s10", "tricks": "8", "why": "misheard"}, token)
    assert r.status_code == 200, r.text
    e = st.entries["1/1 NS/1 EW"]
    assert (e.contract, e.declarer, e.lead, e.tricks, e.by) == ("3NTX", "N", "TS", 8, "director")
    r = _post(client, "/api/duplicate/regroup", {"key": "1 1ns 1ew", "group": "B"}, token)
    assert r.status_code == 200, r.text
    assert st.regroups == {"1/1 NS/1 EW": "B"}
    r = _post(client, "/api/duplicate/correct", {"key": "1/1 NS/1 EW", "contract": "9Z"}, token)
    assert r.status_code == 409 and "the contract '9Z' is a level 1-7" in r.json()["error"]


def test_a_group_typed_in_lower_case_is_the_capital_group(dup: Any) -> None:
    """Audit a11 #2: "b" was journaled as a group of its own beside "B" and board 1 scored in both."""
    desk, client, token = dup
    st = desk.session.state
    for rec in all_results(st.setup, fouled={1: 2}):
        if rec["board"] == 1:
            assert desk.session.take(rec).taken
    first = next(k for k, g in st.board_groups(1).items() if g == "A")
    r = _post(client, "/api/duplicate/regroup", {"key": first, "group": "b"}, token)
    assert r.status_code == 200, r.text
    assert st.regroups == {first: "B"} and set(st.board_groups(1).values()) == {"B"}
    r = _post(client, "/api/duplicate/regroup", {"key": first, "group": "bb"}, token)
    assert r.status_code == 409 and "a fouled-board group is one letter, not 'bb'" in r.json()["error"]


def test_a_regroup_on_a_board_no_table_called_fouled_is_listed_under_fouled_boards(dup: Any) -> None:
    """Audit a11 #11: 1/1 NS/1 EW put in group C split board 1 into groups A and C (matchpoints changed)
    and "Fouled boards" said nothing of board 1. Taken (a table without a camera calls nothing), and
    listed with its group."""
    desk, client, token = dup
    st = desk.session.state
    for rec in all_results(st.setup):
        if rec["board"] == 1:
            assert desk.session.take(rec).taken and not rec["foul"]
    assert _view(client)["fouls"] == []
    r = _post(client, "/api/duplicate/regroup", {"key": "1/1 NS/1 EW", "group": "C"}, token)
    assert r.status_code == 200, r.text
    listed = _view(client)["fouls"]
    assert [(f["board"], f["key"], f["group"]) for f in listed] == [(1, "1/1 NS/1 EW", "C")]
    assert listed[0]["said"] == "No table called it fouled; the director put line 1/1 NS/1 EW in group C."


def test_a_correction_to_a_pass_out_drops_the_declarer_tricks_and_lead(dup: Any) -> None:
    """Audit 15 F4: the page's Correct form, its declarer left "as entered", sends only the contract
    ``pass``; on main it was refused "a passed-out board has no declarer, got <Seat.N: 'N'>" (the line's
    declarer carried over), so no result could be corrected to a pass-out."""
    desk, client, token = dup
    st = desk.session.state
    desk.session.take(result(st.setup, 1, 1, 1, random.Random(1)))
    key = "1/1 NS/1 EW"
    r = _post(client, "/api/duplicate/correct", {"key": key, "contract": "4s", "declarer": "N", "lead": "SA",
                                                 "tricks": "10", "why": "misheard"}, token)
    assert r.status_code == 200, r.text
    r = _post(client, "/api/duplicate/correct", {"key": key, "contract": "pass", "declarer": "E", "why": "x"}, token)
    assert r.status_code == 409 and r.json()["error"] == f"line {key}: a passed-out board has no declarer, got E"
    r = _post(client, "/api/duplicate/correct", {"key": key, "contract": "pass", "why": "it was passed out"}, token)
    assert r.status_code == 200, r.text
    e = st.entries[key]
    assert (e.contract, e.declarer, e.tricks, e.lead) == ("Pass", "", 0, "")
    line = _line(_view(client), key)
    assert (line["contract"], line["declarer"], line["lead"], line["tricks"]) == ("Passed out", "", "", 0), line
    r = _post(client, "/api/duplicate/enter", {"key": "2/1NS/1EW", "contract": "4s", "tricks": "10"}, token)
    assert r.status_code == 409 and "None" not in r.json()["error"] and "<" not in r.json()["error"], r.json()


def test_a_pass_out_entered_by_hand_with_a_declarer_or_tricks_is_refused_as_correct_refuses_it(dup: Any) -> None:
    """Audit a11 #6: "Enter a result by hand" took a pass-out with declarer N (journaled null, the N dropped
    unsaid) where "Correct" refused the same input 409."""
    desk, client, token = dup
    key = "1/1 NS/1 EW"
    r = _post(client, "/api/duplicate/enter", {"key": "1 1 1", "contract": "pass", "declarer": "N", "lead": "",
                                               "tricks": "0", "why": "t"}, token)
    assert r.status_code == 409 and r.json()["error"] == f"line {key}: a passed-out board has no declarer, got N"
    r = _post(client, "/api/duplicate/enter", {"key": "1 1 1", "contract": "pass", "declarer": "",
                                               "tricks": "9", "why": "t"}, token)
    assert r.status_code == 409 and r.json()["error"] == f"line {key}: a passed-out board has no tricks, got 9"
    assert key not in desk.session.state.entries
    r = _post(client, "/api/duplicate/enter", {"key": "1 1 1", "contract": "pass", "declarer": "", "lead": "",
                                               "tricks": "", "why": "t"}, token)
    assert r.status_code == 200, r.text
    e = desk.session.state.entries[key]
    assert (e.contract, e.declarer, e.tricks) == ("Pass", "", 0)


def test_a_pass_out_with_an_opening_lead_is_refused_entered_by_hand_or_corrected(dup: Any) -> None:
    """A pass-out entered by hand with lead SA was taken with the lead dropped unsaid (journaled null),
    and "Correct" to a pass-out with lead SA kept the lead on a board nobody played. A passed-out board
    has no lead: both are refused in the words a declarer given with it is refused in."""
    desk, client, token = dup
    st = desk.session.state
    key = "1/1 NS/1 EW"
    r = _post(client, "/api/duplicate/enter", {"key": "1 1 1", "contract": "pass", "declarer": "", "lead": "SA",
                                               "tricks": "", "why": "t"}, token)
    assert r.status_code == 409 and r.json()["error"] == f"line {key}: a passed-out board has no lead, got AS"
    r = _post(client, "/api/duplicate/enter", {"key": "1 1 1", "contract": "pass", "lead": "x9", "why": "t"}, token)
    assert r.status_code == 409 and r.json()["error"] == f"line {key}: a passed-out board has no lead, got x9"
    assert key not in st.entries
    desk.session.take(result(st.setup, 1, 1, 1, random.Random(1)))
    before = (st.entries[key].contract, st.entries[key].lead)
    r = _post(client, "/api/duplicate/correct", {"key": key, "contract": "pass", "lead": "SA", "why": "x"}, token)
    assert r.status_code == 409 and r.json()["error"] == f"line {key}: a passed-out board has no lead, got AS"
    assert (st.entries[key].contract, st.entries[key].lead) == before
    r = _post(client, "/api/duplicate/correct", {"key": key, "contract": "pass", "why": "it was passed out"}, token)
    assert r.status_code == 200, r.text
    r = _post(client, "/api/duplicate/correct", {"key": key, "lead": "HK", "why": "x"}, token)
    assert r.status_code == 409 and r.json()["error"] == f"line {key}: a passed-out board has no lead, got KH"
    assert st.entries[key].lead == ""


def test_enter_and_correct_on_a_line_holding_an_adjusted_score_say_the_same(dup: Any) -> None:
    """Audit 15 F7: "Enter" on a line holding the director's adjusted score said "has a result already
    (from table 1 in round 1): correct it instead", though no table sent one, and "Correct" then said
    "holds an adjusted score: adjust it again or cancel it"."""
    _desk, client, token = dup
    r = _post(client, "/api/duplicate/adjust", {"board": 1, "ns": "1NS", "ew": "1EW", "kind": "artificial",
                                                "ns_value": "A+", "ew_value": "A-", "why": "slow play"}, token)
    assert r.status_code == 200, r.text
    said = "line 1/1 NS/1 EW holds an adjusted score: adjust it again or cancel it"
    r = _post(client, "/api/duplicate/enter", {"key": "1 1ns 1ew", "contract": "4s", "declarer": "S",
                                               "tricks": "10", "why": "late"}, token)
    assert r.status_code == 409 and r.json()["error"] == said
    r = _post(client, "/api/duplicate/correct", {"key": "1 1ns 1ew", "contract": "4s", "why": "late"}, token)
    assert r.status_code == 409 and r.json()["error"] == said


def test_the_same_result_entered_twice_on_a_tables_page_is_taken_already_not_refused(dup: Any) -> None:
    """Audit 65 F8: a second press of "Enter the result" (the first on its way) was answered 409 "line
    3/2 NS/2 EW has a result already ... correct it instead", which replaced the page's success. The same
    entry again, as it stands, is 200 with ``already``; nothing more is journaled. Another result for
    the line is still refused."""
    desk, client, _token = dup
    key = desk.table_key("table-02")
    own = {"X-Table-Key": key, "Origin": "http://club.test"}
    body = {"key": "3/2 NS/2 EW", "contract": "3NT", "declarer": "N", "lead": "S4", "tricks": 9}
    first = client.post("/api/duplicate/table/table-02/enter", json=body, headers=own)
    assert first.status_code == 200 and "already" not in first.json(), first.text
    version = desk.session.version
    again = client.post("/api/duplicate/table/table-02/enter", json=body, headers=own)
    assert (again.status_code, again.json()["already"], again.json()["key"]) == (200, True, "3/2 NS/2 EW"), again.text
    assert desk.session.version == version
    other = client.post("/api/duplicate/table/table-02/enter", json={**body, "tricks": 8}, headers=own)
    assert other.status_code == 409 and "has a result already" in other.json()["error"]


@pytest.mark.parametrize("raw, why", [
    (b"\xff\xfe{}", "the request is refused: "),
    (b'{"key": "\\ud800"}', "the request is refused: field 'key' holds a lone surrogate escape"),
    (b"[1, 2]", "the request is not a JSON object"),
])
def test_a_malformed_body_on_a_tables_page_is_answered_as_the_directors_forms_answer_it(
        dup: Any, raw: bytes, why: str) -> None:
    """Audit 65 F9: the table's enter route answered such bodies 409 "the request is not a JSON object of
    at most 4096 bytes" whatever was wrong; the director's /api/duplicate/enter answers 400 with the
    reader's reason. The same reader now answers both, and the refusal is journaled."""
    desk, client, token = dup
    key = desk.table_key("table-02")
    headers = {"Content-Type": "application/json", "Origin": "http://club.test"}
    director = client.post("/api/duplicate/enter", content=raw, headers={**headers, "X-CSRF-Token": token})
    table = client.post("/api/duplicate/table/table-02/enter", content=raw, headers={**headers, "X-Table-Key": key})
    assert director.status_code == table.status_code == 400
    assert table.json() == director.json() and table.json()["error"].startswith(why), table.text
    assert any(x["why"] == table.json()["error"] for x in _view(client)["refusals"])


def _fill_disk(desk: Any) -> None:
    """The session's folder is full: SQLite may not grow its journal by one page (the real SQLITE_FULL)."""
    from firmware_host.session.duplicate_session import SessionFileError

    conn = desk.session.journal._conn   # noqa: SLF001 - the real SQLite limit on the journal's own connection
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
    for _ in range(100):   # the last page's room taken by refusals, until not one more fits
        try:
            desk.session.refuse([({"type": "form", "form": "enter", "by": "test"}, "filler")])
        except SessionFileError:
            return
    raise AssertionError("the journal never filled")


def test_a_form_refused_while_the_journal_cannot_be_written_is_answered_with_its_reason(dup: Any) -> None:
    """Audit m16: with the session's folder full, a director's form that could not be read (a line typed
    wrong, a body that is no JSON object), a table page's, or a pair's players the roster does not know,
    was answered 500 Internal Server Error with a traceback in the log: its refusal could not be journaled
    and nobody learned what was wrong with what they typed. Each is answered with its reason, saying it
    is not journaled; once the disk has room the refusals are journaled again."""
    desk, client, token = dup
    _fill_disk(desk)
    key = desk.table_key("table-02")
    headers = {"Origin": "http://club.test"}
    wrong = "x" * 100
    answers = [
        _post(client, "/api/duplicate/correct", {"key": wrong, "contract": "3NT"}, token),
        client.post("/api/duplicate/enter", content=b"[1]", headers={**headers, "X-CSRF-Token": token,
                                                                       "Content-Type": "application/json"}),
        client.post("/api/duplicate/table/table-02/enter", json={"key": wrong},
                    headers={**headers, "X-Table-Key": key}),
        _post(client, "/api/duplicate/players", {"pair": "1 NS", "players": [wrong, "nobody"]}, token),
    ]
    for r in answers:
        assert r.status_code in (400, 409), r.text
        assert "not journaled: the session's journal cannot be written now" in r.json()["error"], r.text
    assert "line" in answers[0].json()["error"] and "JSON" in answers[1].json()["error"]
    desk.session.journal._conn.execute("PRAGMA max_page_count = 1073741823")   # noqa: SLF001 - room again
    r = _post(client, "/api/duplicate/correct", {"key": wrong, "contract": "3NT"}, token)
    assert r.status_code == 409 and "not journaled" not in r.json()["error"]

    view = _view(client)
    assert any(x["why"] == r.json()["error"] for x in view["refusals"] + view["mine"])
