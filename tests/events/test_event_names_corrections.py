"""Names and the director's corrections in an event: competitors named from the club's roster when the
event is opened (``cardtable event open --roster --names``) or by the director, carried into the
views, USEBIO, PBN and the published page (the outsider reads them back from the files alone, and is
shown failing when a name is changed in one file); a correction or an assigned score journaled,
reaching the standings and the files, rebuilt the same on reopening; a correction without a reason,
or for a round not drawn, refused with the reason and journaled as a refusal."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.events.desk import EventDesk
from firmware_host.events.files import render
from firmware_host.events.session import EventSession
from firmware_host.events.views import director_view
from firmware_host.web.auth import hash_password
from laws.competition.table_result import TableResult
from tests.club.conftest import _need, csrf, login
from tests.events import outsider
from tests.events.test_outsider_events import CONTRACTS

ROSTER = "member,name,federation\n1021,Ann Lee,EBU1\n1045,Bo Kim,\n1102,Cy \"Ace\" Dunn,EBU7\n1200,Di Roe,\n"
NAMES = "team,name,players\n1,Hearts,1021,1045,1102,Jane Visitor\n3,Spades & Co,1200,Ed Visitor\n"
TABLES = "t1,t2,t3,t4"


def _open(tmp: Path, names: str = NAMES, roster: str = ROSTER) -> tuple[int, Path]:
    (tmp / "roster.csv").write_text(roster)
    (tmp / "names.csv").write_text(names)
    folder = tmp / "event"
    rc = main(["event", "open", str(folder), "--kind", "swiss-teams", "--entrants", "4", "--rounds", "3",
               "--boards", "2", "--tables", TABLES, "--name", "Winter Swiss", "--roster", str(tmp / "roster.csv"),
               "--names", str(tmp / "names.csv")])
    return rc, folder


def _play(session: EventSession, rounds: int) -> None:
    k = 0
    ev = session.event
    while ev.current <= rounds:
        d = ev.draws[ev.current]
        for t in d.tables:
            for b in t.boards or d.boards:
                k += 1
                contract, declarer, tricks = CONTRACTS[(k * 7 + t.table * 3 + b) % len(CONTRACTS)]
                out = session.take({"type": "result", "source": f"{session.table_id(t.table)}:{k}", "table":
                                    session.table_id(t.table), "board": b,
                                    "result": TableResult(d.round, t.table, b, contract, declarer, tricks).to_dict()})
                assert out.status == "taken", out.why


def test_names_from_the_roster_reach_the_views_and_every_file(tmp_path: Path) -> None:
    rc, folder = _open(tmp_path)
    assert rc == 0 and (folder / "roster.csv").exists()
    session = EventSession.open(folder)
    try:
        _play(session, 3)
        view = director_view(session.event, session.tables)
        hearts = next(s for s in view["standings"] if s["competitor"] == 1)
        assert hearts["name"] == 'Hearts (Ann Lee, Bo Kim, Cy "Ace" Dunn, Jane Visitor)'
        files = render(session.event, "2026-12-02", club="Test club")
    finally:
        session.close()
    pbn, xml, page = files["results.pbn"].decode(), files["results.xml"], files["index.html"].decode()
    assert outsider.check_pbn(pbn) == [] and outsider.check_usebio(xml) == []
    assert outsider.check_names(pbn, xml, page) == []
    got = outsider.names_usebio(xml)
    assert got[1] == ("Hearts", ["Ann Lee", "Bo Kim", 'Cy "Ace" Dunn', "Jane Visitor"])
    assert got[3] == ("Spades & Co", ["Di Roe", "Ed Visitor"])
    assert got[2] == ("Team 2", []) and got[4] == ("Team 4", [])
    assert b"<NATIONAL_ID_NUMBER>EBU7</NATIONAL_ID_NUMBER>" in xml
    # the outsider fails when a name differs between the files, or is missing from the page
    bad = pbn.replace('"Spades & Co"', '"Spades and Co"', 1)
    assert any("differ" in p for p in outsider.check_names(bad, xml, page))
    assert any("Di Roe" in p for p in outsider.check_names(pbn, xml, page.replace("Di Roe", "D. Roe")))


@pytest.mark.parametrize(("names", "roster", "said"), [
    ("1,Hearts,9999\n", ROSTER, "names.csv: line 1: member number 9999 is not in the roster"),
    ("1,Hearts,1021\n2,Clubs,1021\n", ROSTER, "names.csv: line 2: competitor 2: member 1021 (Ann Lee) already plays for 1"),
    ("7,Hearts,Ann\n", ROSTER, "names.csv: line 1: competitor is a number from 1 to 4, got 7"),
    ("1,Hearts,a,b,c,d,e,f,g\n", ROSTER, "names.csv: line 1: competitor 1: players is a list of at most 6"),
    ("1,Hearts,1021\n", "1021,Ann\n1021,Bo\n", "roster.csv: line 2: member number 1021 is on line 1 too"),
    # the files join a competitor's players with " - " (PBN's Names): a name holding it could not be split back
    ("1,Hearts,1021,Jo - Ann Visitor\n", ROSTER, "names.csv: line 1: the name 'Jo - Ann Visitor' holds ' - ', which "
                                                "the results write between the players of a pair or team"),
    ("1,Hearts,1021\n", "1021,Ann & Bo\n", "roster.csv: line 1: the name 'Ann & Bo' holds ' & '"),
])
def test_a_names_file_that_cannot_be_used_is_refused_naming_the_line(tmp_path: Path, names: str, roster: str,
                                                                     said: str, capsys: Any) -> None:
    rc, folder = _open(tmp_path, names, roster)
    err = capsys.readouterr().err
    assert rc == 2 and said in err and "Traceback" not in err and err.count("\n") == 1
    assert not (folder / "session.sqlite3").exists()          # nothing was made


def test_a_correction_and_an_assigned_score_reach_the_standings_and_files_and_survive_a_restart(
        tmp_path: Path) -> None:
    rc, folder = _open(tmp_path)
    assert rc == 0
    session = EventSession.open(folder)
    desk = EventDesk(session)
    _play(session, 1)
    before = [(s.competitor, s.vp, s.net_imps) for s in session.event.standings()]
    old = session.event.results[(1, 1, 1)]
    fixed = TableResult(1, 1, 1, "7NTXX", "N", 3).to_dict()
    assert old.to_dict() != fixed
    assert desk.director_record({"type": "correct", "by": "director", "why": "wrong contract keyed",
                                 "result": fixed}).status == "taken"
    assigned = {"round": 1, "table": 2, "board": 2, "assigned": 2000}
    assert desk.director_record({"type": "correct", "by": "director", "why": "fouled board (DB-87)",
                                 "result": assigned}).status == "taken"
    # the director's average-plus / average-minus for match 2's board 1 (tables 3 and 4: its rooms),
    # given at the open room; the closed room may not then be given other awards for the teams
    awards = {"round": 1, "table": 3, "board": 1, "adjusted": "A+/A-"}
    assert desk.director_record({"type": "correct", "by": "director", "why": "board not played in time",
                                 "result": awards}).status == "taken"
    clash = desk.director_record({"type": "correct", "by": "director", "why": "x",
                                  "result": {"round": 1, "table": 4, "board": 1, "adjusted": "A=/A="}})
    assert clash.status == "refused" and "already adjusted at table 3" in clash.why
    assert session.event.team_match(1, 2).boards[0].adjusted
    after = [(s.competitor, s.vp, s.net_imps) for s in session.event.standings()]
    assert after != before
    view = desk.director()
    assert [(a["table"], a["board"]) for a in view["adjustments"]] == [(1, 1), (2, 2), (3, 1)]
    assert "corrected to 7NTXX by N, 3 tricks" in view["adjustments"][0]["text"]
    assert "assigned +2000 to North-South" in view["adjustments"][1]["text"]
    assert "adjusted: average-plus to North-South, average-minus to East-West" in view["adjustments"][2]["text"]
    # refused: no reason; a round not drawn; the same result again
    for rec, why in (({"type": "correct", "by": "director", "why": "", "result": fixed}, "says why"),
                     ({"type": "correct", "by": "director", "why": "x",
                       "result": {**fixed, "round": 3}}, "round 3 is not drawn"),
                     ({"type": "correct", "by": "director", "why": "x", "result": fixed}, "has that result already")):
        out = desk.director_record(rec)
        assert out.status == "refused" and why in out.why
    files = render(session.event, "2026-12-02")
    pbn, xml = files["results.pbn"].decode(), files["results.xml"]
    assert outsider.check_pbn(pbn) == [] and outsider.check_usebio(xml) == []
    assert "<CONTRACT>7NTXX</CONTRACT>" in xml.decode() and "<SCORE>2000</SCORE>" in xml.decode()
    assert "<ADJUSTED_SCORE>A+/A-</ADJUSTED_SCORE>" in xml.decode()
    results = dict(session.event.results)
    session.close()
    again = EventSession.open(folder)                      # rebuilt from the journal alone
    try:
        assert again.event.results == results
        assert [(s.competitor, s.vp, s.net_imps) for s in again.event.standings()] == after
        assert sum("says why" in r["why"] for r in again.refusals) == 1
    finally:
        again.close()


def test_the_director_s_records_pass_the_one_guard(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from firmware_host.club.dashboard import Dashboard

    _need("mosquitto", "mosquitto")
    passwords = {DASHBOARD_USER: secrets.token_urlsafe(9)}
    broker = LocalBroker(tmp_path / "broker", passwords)
    broker.start()
    rc, folder = _open(tmp_path)
    assert rc == 0
    desk = EventDesk(EventSession.open(folder))
    dash = Dashboard("127.0.0.1", broker.port, DASHBOARD_USER, passwords[DASHBOARD_USER],
                     {"director": hash_password("right-horse-1")}, event=desk)
    body = {"competitor": 2, "name": "Clubs", "players": ["1200", "Fay Visitor"]}
    try:
        with TestClient(dash.app, base_url="http://club.test") as client:
            assert client.post("/api/event/names", json=body).status_code == 401
            login(client)
            token = csrf(client)
            assert client.post("/api/event/names", json=body).status_code == 403              # no CSRF token
            assert client.post("/api/event/names", json=body, headers={
                "X-CSRF-Token": token, "Origin": "http://evil.test"}).status_code == 403
            assert 2 not in desk.session.event.names
            ok = {"X-CSRF-Token": token, "Origin": "http://club.test"}
            r = client.post("/api/event/names", json=body, headers=ok)      # 1200 plays for team 3 already
            assert r.status_code == 409 and "member 1200 (Di Roe) already plays for 3" in r.json()["error"]
            r = client.post("/api/event/names", json={**body, "players": ["Fay Visitor", "Gus Visitor"]}, headers=ok)
            assert r.status_code == 200 and desk.session.event.names[2]["name"] == "Clubs"
            r = client.post("/api/event/correct", json={"round": 1, "table": 1, "board": 1, "assigned": 100,
                                                        "why": "late play"}, headers=ok)
            assert r.status_code == 200 and desk.session.event.results[(1, 1, 1)].assigned == 100
            assert client.get("/api/event/state").json()["adjustments"] == []   # nothing replaced: taken
    finally:
        desk.session.close()
        broker.stop()


def test_the_dashboard_command_refuses_an_event_it_cannot_run(tmp_path: Path, capsys: Any) -> None:
    from firmware_host.web.auth import add_user

    users = tmp_path / "users"
    add_user(users, "director", "right-horse-1")
    pw = _write(tmp_path / "pw", "x\n")
    capsys.readouterr()
    base = ["club", "dashboard", "--users", str(users), "--mqtt-password-file", str(pw),
            "--heads", str(tmp_path / "heads.jsonl")]
    assert main([*base, "--event", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert "no event here" in err and "Traceback" not in err and err.count("\n") == 1
    assert main([*base, "--event", str(tmp_path), "--session", str(tmp_path)]) == 2
    assert "--session and --event both take the tables' results" in capsys.readouterr().err


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_a_correction_with_a_blank_or_mistyped_box_is_refused_quoting_what_was_typed(tmp_path: Path) -> None:
    """A corrected contract with no tricks is refused (never scored as 0 tricks), naming the tricks; a
    number typed as words or with letters is refused quoting it as typed, never as Python writes it
    (``None``, quotes, a seat's repr)."""
    rc, folder = _open(tmp_path)
    assert rc == 0
    session = EventSession.open(folder)
    desk = EventDesk(session)
    try:
        _play(session, 1)
        was = dict(session.event.results)

        def refused(result: dict[str, Any]) -> str:
            out = desk.director_record({"type": "correct", "by": "director", "why": "keyed wrong",
                                        "result": result})
            assert out.status == "refused", result
            return str(out.why)

        where = {"round": 1, "table": 1, "board": 1}
        why = refused({**where, "contract": "4S", "declarer": "N"})
        assert why == "round 1, table 1, board 1: a corrected contract needs its tricks (how many declarer took, 0 to 13)"
        assert refused({**where, "contract": "4S", "tricks": 10}).endswith("declarer is N, E, S or W, got nothing")
        assert "gives a contract (Pass for a passed-out board)" in refused({**where, "declarer": "N", "tricks": 10})
        for got in (refused({**where, "table": "table-02", "contract": "4S", "declarer": "N", "tricks": 10}),
                    refused({**where, "table": None, "contract": "4S", "declarer": "N", "tricks": 10}),
                    refused({**where, "contract": "4S", "declarer": "N", "tricks": "ten"}),
                    refused({**where, "contract": "4S", "declarer": "X", "tricks": 10}),
                    refused({**where, "assigned": "+42O"})):
            assert "None" not in got and "got '" not in got and '"' not in got and "<" not in got, got
        assert refused({**where, "table": "table-02", "contract": "4S", "declarer": "N", "tricks": 10}) \
            == "a result's table is a whole number from 1, got table-02"
        assert refused({**where, "table": None}) == "a result's table is a whole number from 1, got nothing"
        assert refused({**where, "contract": "4S", "declarer": "N", "tricks": "ten"}).endswith(
            "tricks is a whole number, got ten")
        for who, said in (("two", "got two"), (None, "got nothing")):
            out = desk.director_record({"type": "names", "competitor": who, "name": "", "players": [], "by": "director"})
            assert out.status == "refused" and out.why == f"competitor is a number from 1 to 4, {said}"
        assert session.event.results == was                   # nothing refused changed anything
        # a pass-out corrected needs no declarer or tricks
        assert desk.director_record({"type": "correct", "by": "director", "why": "passed out",
                                     "result": {**where, "contract": "Pass", "declarer": ""}}).status == "taken"
        assert session.event.results[(1, 1, 1)].ns_score == 0
    finally:
        session.close()


def test_a_correction_of_a_board_the_table_never_played_in_a_finished_round_says_so(tmp_path: Path) -> None:
    """The outside audit p4: a correction for a board a table did not play, in a round already complete,
    was refused with ``round 1 is complete``, as if a finished round could not be corrected (it can:
    docs/competitions.md, "The journal"). It names the table's boards, as a round in play does."""
    rc, folder = _open(tmp_path)
    assert rc == 0
    session = EventSession.open(folder)
    desk = EventDesk(session)
    try:
        _play(session, 1)
        assert session.event.complete(1) and session.event.current == 2
        out = desk.director_record({"type": "correct", "by": "director", "why": "wrong board",
                                    "result": {"round": 1, "table": 1, "board": 3, "assigned": 100}})
        assert out.status == "refused"
        assert out.why == "board 3 is not played at table 1 in round 1 (boards 1-2)"
        out = desk.director_record({"type": "correct", "by": "director", "why": "wrong table",
                                    "result": {"round": 1, "table": 9, "board": 1, "assigned": 100}})
        assert out.status == "refused" and out.why == "round 1 has no table 9 (it has 4)"
    finally:
        session.close()


def test_a_knock_out_correction_that_would_change_a_drawn_winner_is_refused() -> None:
    """The outside audit p4: in a knock-out, a late correction gave a semi-final to the other team after the
    final was drawn; the final's winner (``winner``, "Winner: team 2") then was not the one place 1 of the
    standings (team 6, never beaten), against docs/competitions.md ("The event": a knock-out's winner is
    the one row with place 1). A correction that keeps the winner is still taken."""
    from laws.competition.event import EventState
    from laws.competition.event_spec import EventError, EventKind, EventSpec

    state = EventState.opened(EventSpec(EventKind.KNOCKOUT, 4, 2, 1, name="Cup"))
    # round 1: 1 v 4 (tables 1-2), 2 v 3 (tables 3-4); board 1
    for res in (TableResult(1, 1, 1, "4S", "N", 10), TableResult(1, 2, 1, "4S", "N", 10),     # 1 v 4: 0-0, 1 goes on
                TableResult(1, 3, 1, "3NT", "N", 10), TableResult(1, 4, 1, "3NT", "N", 8)):  # 2 beats 3
        state.apply(res)
    assert [(a.number, b.number) for a, b in state.draws[2].matches] == [(1, 2)]
    flip = TableResult(1, 3, 1, "3NT", "N", 7)          # 3 would beat 2, who is in the final
    with pytest.raises(EventError) as err:
        state.correct(flip)
    assert str(err.value) == ("round 1, match 2: the correction would make team 3, not team 2, the winner of "
                              "2 v 3, but team 2 is already drawn in round 2 (a knock-out's draw already made "
                              "stands)")
    assert state.results[(1, 3, 1)].tricks == 10         # nothing changed
    state.correct(TableResult(1, 3, 1, "3NT", "N", 9))   # 2 still wins: taken
    for res in (TableResult(2, 1, 2, "2S", "N", 8), TableResult(2, 2, 2, "2S", "N", 7)):
        state.apply(res)
    assert state.knockout_winner() is not None and state.knockout_winner().number == 1
    first = [s for s in state.standings() if s.place == "1"]
    assert [s.competitor.number for s in first] == [1]


def test_the_director_s_knock_out_correction_that_would_change_a_drawn_winner_is_refused_not_journaled(
        tmp_path: Path) -> None:
    """The same refusal through the director's record (the page's "Correct a result"): refused with the
    reason and journaled as a refusal, never taken; the event reopens as it was."""
    from laws.competition.event_spec import EventKind, EventSpec

    session = EventSession.create(tmp_path / "ko", EventSpec(EventKind.KNOCKOUT, 4, 2, 1, name="Cup"),
                                  ("t1", "t2", "t3", "t4"))
    desk = EventDesk(session)
    try:
        for seq, (t, c, tricks) in enumerate((("t1", "4S", 10), ("t2", "4S", 10), ("t3", "3NT", 10),
                                              ("t4", "3NT", 8)), 1):
            table = int(t[1])
            out = session.take({"type": "result", "source": f"{t}:{seq}", "table": t, "board": 1, "result":
                                TableResult(1, table, 1, c, "N", tricks).to_dict()})
            assert out.status == "taken", out.why
        out = desk.director_record({"type": "correct", "by": "director", "why": "misscored", "result":
                                    {"round": 1, "table": 3, "board": 1, "contract": "3NT", "declarer": "N",
                                     "tricks": 7}})
        assert out.status == "refused" and "already drawn in round 2" in str(out.why)
        assert session.event.results[(1, 3, 1)].tricks == 10
    finally:
        session.close()
    again = EventSession.open(tmp_path / "ko")
    try:
        assert again.event.results[(1, 3, 1)].tricks == 10
    finally:
        again.close()
