"""Names in an event of pairs in sections: a names file ``section,pair,player,player`` read against the
roster when the event is opened (``cardtable event open --names``), journaled as ``names`` records,
carried into the views, USEBIO, PBN and the published page, read back by the outsider from the files
alone (and shown failing on a changed name); a names file that cannot be used refused with one line
naming the file and the line, exit 2, nothing made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.events.files import render
from firmware_host.events.session import EventSession
from firmware_host.events.views import director_view, table_view
from tests.events import outsider
from tests.events.test_event_names_corrections import ROSTER, _play

NAMES = ("section,pair,players\nA,1NS,1021,1045\nA,3EW,Jane Visitor,1102\nB,2,1200,Ed Visitor\n")
TABLES = "t1,t2,t3,t4,t5,t6,t7,t8"


def _open(tmp: Path, names: str = NAMES, roster: str = ROSTER) -> tuple[int, Path]:
    (tmp / "roster.csv").write_text(roster)
    (tmp / "names.csv").write_text(names)
    folder = tmp / "event"
    rc = main(["event", "open", str(folder), "--kind", "pairs-sections", "--entrants", "16", "--rounds", "5",
               "--boards", "3", "--tables", TABLES, "--sections", "A:5:mitchell,B:3:howell", "--name", "Two rooms",
               "--roster", str(tmp / "roster.csv"), "--names", str(tmp / "names.csv")])
    return rc, folder


def test_section_names_reach_the_journal_views_and_every_file(tmp_path: Path) -> None:
    rc, folder = _open(tmp_path)
    assert rc == 0
    session = EventSession.open(folder)          # the names come back from the journal
    try:
        named = {(r["section"], r["pair"]): [p["name"] for p in r["players"]]
                 for r in (row.body for row in session.journal.rows() if row.kind == "event") if r.get("type") == "names"}
        assert named == {("A", "1NS"): ["Ann Lee", "Bo Kim"], ("A", "3EW"): ["Jane Visitor", 'Cy "Ace" Dunn'],
                         ("B", "2"): ["Di Roe", "Ed Visitor"]}
        table = table_view(session.event, session.tables, "t1")   # section A table 1, round 1: 1 NS v 1 EW
        assert table["names"] == {"A 1 NS": "Ann Lee, Bo Kim"}
        _play(session, 5)
        view = director_view(session.event, session.tables)
        rows = {(s["field"], s["pair"]): s["name"] for s in view["standings"]}
        assert rows[("A NS", "A1 NS")] == "Ann Lee, Bo Kim" and rows[("B one field", "B2")] == "Di Roe, Ed Visitor"
        assert rows[("A EW", "A1 EW")] == ""
        files = render(session.event, "2026-12-02", club="Test club")
    finally:
        session.close()
    pbn, xml, page = files["results.pbn"].decode(), files["results.xml"], files["index.html"].decode()
    assert outsider.check_pbn(pbn) == [] and outsider.check_usebio(xml) == []
    assert outsider.check_names(pbn, xml, page) == []
    got = outsider.names_usebio(xml)
    assert got["A 1NS"] == ("", ["Ann Lee", "Bo Kim"]) and got["B 2"] == ("", ["Di Roe", "Ed Visitor"])
    assert got["A 3EW"] == ("", ["Jane Visitor", 'Cy "Ace" Dunn']) and got["A 2NS"] == ("", [])
    assert outsider.names_pbn(pbn) == got
    assert b"<NATIONAL_ID_NUMBER>EBU7</NATIONAL_ID_NUMBER>" in xml
    bad = pbn.replace('"Di Roe - Ed Visitor"', '"Di Roe - Ed Visiter"', 1)
    assert bad != pbn and any("differ" in p for p in outsider.check_names(bad, xml, page))
    assert any("Jane Visitor" in p for p in outsider.check_names(pbn, xml, page.replace("Jane Visitor", "J V")))


@pytest.mark.parametrize(("names", "said"), [
    ("A,1NS,9999\n", "names.csv: line 1: member number 9999 is not in the roster"),
    ("A,1NS,1021\nB,3,1021\n", "names.csv: line 2: pair B 3: member 1021 (Ann Lee) already plays for A 1NS"),
    ("C,1NS,Ann\n", "names.csv: line 1: there is no section 'C' (the sections are A, B)"),
    ("A,7NS,Ann\n", "names.csv: line 1: section A has no pair '7NS' (its pairs are 1NS-5NS, 1EW-5EW)"),
    ("B,2NS,Ann\n", "names.csv: line 1: section B has no pair '2NS' (its pairs are 1-6)"),
    ("A,1NS,a,b,c\n", "names.csv: line 1: pair A 1NS: players is a list of at most 2"),
    ("A,1NS,Ann\nA,1NS,Bo\n", "names.csv: line 2: pair A 1NS is named twice"),
    ("A\n", "names.csv: line 1: a section's pair is named as section,pair,player,player"),
])
def test_a_section_names_file_that_cannot_be_used_is_refused_naming_the_line(tmp_path: Path, names: str, said: str,
                                                                             capsys: Any) -> None:
    rc, folder = _open(tmp_path, names)
    err = capsys.readouterr().err
    assert rc == 2 and said in err and "Traceback" not in err and err.count("\n") == 1, err
    assert not (folder / "session.sqlite3").exists()          # nothing was made


def test_the_director_names_a_section_s_pair_by_section_and_pair(tmp_path: Path) -> None:
    import secrets

    from starlette.testclient import TestClient

    from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
    from firmware_host.club.dashboard import Dashboard
    from firmware_host.events.desk import EventDesk
    from firmware_host.web.auth import hash_password
    from tests.club.conftest import _need, csrf, login

    _need("mosquitto", "mosquitto")
    passwords = {DASHBOARD_USER: secrets.token_urlsafe(9)}
    broker = LocalBroker(tmp_path / "broker", passwords)
    broker.start()
    rc, folder = _open(tmp_path)
    assert rc == 0
    desk = EventDesk(EventSession.open(folder))
    dash = Dashboard("127.0.0.1", broker.port, DASHBOARD_USER, passwords[DASHBOARD_USER],
                     {"director": hash_password("right-horse-1")}, event=desk)
    try:
        with TestClient(dash.app, base_url="http://club.test") as client:
            login(client)
            ok = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
            r = client.post("/api/event/names", json={"section": "B", "pair": "4", "players": ["1021"]}, headers=ok)
            assert r.status_code == 409 and "member 1021 (Ann Lee) already plays for A 1NS" in r.json()["error"]
            r = client.post("/api/event/names", json={"section": "B", "pair": "9", "players": ["Fay"]}, headers=ok)
            assert r.status_code == 409 and "section B has no pair '9' (its pairs are 1-6)" in r.json()["error"]
            r = client.post("/api/event/names", json={"section": "B", "pair": "4", "players": ["Fay Visitor"]},
                            headers=ok)
            assert r.status_code == 200
            assert desk.session.event.names[14]["players"][0]["name"] == "Fay Visitor"     # B 4 is pair 14
    finally:
        desk.session.close()
        broker.stop()
