"""Issue 29, item 1: players named by the table's camera from their member cards, through a real
Mosquitto: the member cards read at North and South (as ``CameraFeeder`` submits them) are journaled at
the table, sent on its ``players`` topic and named in the session from the roster; an unknown member
number and a pair not seated there are refused by the session (journaled), and another table's login
cannot name anyone at this table."""

from __future__ import annotations

import json
from pathlib import Path

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.session.broker_client import SessionService
from firmware_host.table.inputs import MemberSeen
from firmware_host.wire.duplicate import players_body
from laws.games.duplicate_board import board_of

from .test_session_records import PASSWORDS, Client, Table, _desk, _until
from .test_session_records import broker as broker  # noqa: F401  (the fixture)

ROSTER = "member,name\n1021,Ann Smith\n1045,Bob Jones\n1102,Cy Young\n"


def test_member_cards_at_the_table_name_the_pair_in_the_session(broker: LocalBroker, tmp_path: Path) -> None:
    desk = _desk(tmp_path, "session")
    (tmp_path / "session" / "roster.csv").write_text(ROSTER, encoding="utf-8")
    service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], tick=0.02)
    service.start()
    t = Table(tmp_path / "table-02", broker.port)
    try:
        assert _until(lambda: board_of(t.ctl.engine.state) is not None, t.ctl)   # its seating is in
        t.ctl.submit(MemberSeen("N", "1021"))
        t.ctl.submit(MemberSeen("S", "1045"))
        assert _until(lambda: desk.session.state.players.get("2 NS") is not None, t.ctl)
        named = desk.session.state.players_of("2 NS")
        assert [p["name"] for p in named] == ["Ann Smith", "Bob Jones"]
        rows = [r.body for r in t.journal.rows() if r.kind == "note"]
        assert {"member_card": {"seat": "N", "member": "1021"}} in rows
        assert any(r.get("players_seen", {}).get("members") == ["1021", "1045"] for r in rows)
        # the table is told its players' names back in its seating
        assert _until(lambda: any(r.body.get("session", {}).get("players", {}).get("ns", [{}])[0].get("name")
                                  == "Ann Smith" for r in t.journal.rows() if r.kind == "note"), t.ctl)
        t.ctl.submit(MemberSeen("E", "1102"))
        t.ctl.submit(MemberSeen("W", "9999"))                                    # not in the roster
        assert _until(lambda: any("9999" in r["why"] for r in desk.session.refusals), t.ctl)
        assert "member number 9999 is not in the roster" in desk.session.refusals[-1]["why"]
        assert _until(lambda: any(str(r.body.get("text", "")).startswith("member cards refused: table-02's member "
                                  "cards: member number 9999") for r in t.journal.rows() if r.kind == "note"), t.ctl)
        assert desk.session.state.players.get("2 EW") is None
    finally:
        t.stop()
        service.stop()


def test_another_tables_login_names_nobody_and_a_wrong_pair_is_refused(broker: LocalBroker, tmp_path: Path) -> None:
    desk = _desk(tmp_path, "session")
    (tmp_path / "session" / "roster.csv").write_text(ROSTER, encoding="utf-8")
    service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], tick=0.02)
    service.start()
    assert service.connected.wait(10)
    body = players_body(section="A", table_number=2, round=1, side="ns", pair="2 NS", members=["1021", "1045"])
    other = Client(broker.port, "table-01")
    try:
        env = {"table": "table-02", "kind": "players", "seq": 5, "prev": 4, "deal": 0, "t": 1.0, "body": body}
        other.c.publish("cardtable/table-02/players", json.dumps(env), qos=1).wait_for_publish(5)  # dropped
        env1 = {**env, "table": "table-01", "body": {**body, "table_number": 1}}
        other.c.publish("cardtable/table-01/players", json.dumps(env1), qos=1).wait_for_publish(5)  # its own,
        assert _until(lambda: any("name pair 2 NS, but 1 NS sits NS at table 1" in r["why"]  # but a wrong pair
                                  for r in desk.session.refusals))
        assert desk.session.state.players == {}
    finally:
        other.stop()
        service.stop()
