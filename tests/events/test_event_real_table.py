"""A real duplicate table plays an event (docs/competitions.md, "Results from the tables"): through a real
Mosquitto, the event's service publishes each table's view as its seating message; the table (the same
`DuplicateProcedure` and results link a pairs session seats) reads it as its round and boards, deals and
checks each board from its own hand records, and its confirmed result is taken by the event once and
answered. Before, a table read only a pairs session's ``seating`` and sat waiting in an event."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.events.desk import EventDesk
from firmware_host.events.session import EventSession
from firmware_host.session.roster import ROSTER_FILE
from firmware_host.table.controller import SessionInput
from firmware_host.table.duplicate import seating_from_session
from firmware_host.wire.topics import TOPICS
from laws.cards import Seat
from laws.competition.event import EventState
from laws.competition.event_spec import EventKind, EventSpec, SectionSpec
from laws.competition.table_result import TableResult
from laws.games.duplicate_board import board_of
from tests.club.conftest import _need
from tests.club.test_duplicate_real_table import PASSWORDS, RealTable, _until
from tests.events.service_harness import EventService
from tests.table.duptable import bid, confirm, play, records, run, table

TABLES = ("table-01", "table-02", "table-03", "table-04")


def test_a_real_table_is_seated_by_a_teams_event_and_its_results_are_taken(tmp_path: Path) -> None:
    _need("mosquitto", "mosquitto")
    broker = LocalBroker(tmp_path / "broker", PASSWORDS | {"table-04": "t4-pw"})
    broker.start()
    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2), TABLES)
    (tmp_path / "event" / ROSTER_FILE).write_text("1021,Ann Smith\n1045,Bob Jones\n1102,Cy Young\n", encoding="utf-8")
    session.take({"type": "names", "competitor": 4, "name": "Hearts", "by": "director",
                  "players": [{"name": "Cy Young", "member": "1102", "federation": ""}]})
    service = EventService(session, "127.0.0.1", broker.port, DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], tick=0.02)
    service.start()
    recs = records(6, seed=4)
    table = None
    try:
        assert service.connected.wait(10)
        # table-02 is event table 2: match 1's closed room (team 4 North-South, team 1 East-West)
        table = RealTable(tmp_path / "table-02", broker.port, recs)
        assert _until(lambda: board_of(table.ctl.engine.state) is not None, table.ctl)
        b = board_of(table.ctl.engine.state)
        assert (b.number, b.table, b.round, b.ns, b.ew) == (1, 2, 1, "4", "1")
        rng = random.Random(5)
        for n in (1, 2):
            assert board_of(table.ctl.engine.state).number == n
            bid(table.ctl, recs[n], "1NT pass pass pass")
            play(table.ctl, recs[n].deal, rng)
            confirm(table.ctl, Seat.N, Seat.E)
            assert _until(lambda n=n: (1, 2, n) in session.state.event.results, table.ctl), f"board {n} not taken"
        assert _until(lambda: not table.results.unanswered, table.ctl)        # each answered, none sent again
        assert table.results.sent == 2
        # the players lay their member cards: North-South's name team 4 (added to the player it was named
        # with); East-West's name a member the roster does not have, refused with its reason
        for seat, member in (("N", "1021"), ("S", "1045"), ("E", "1102"), ("W", "7777")):
            table.results.on_member(seat, member)
        team4 = lambda: session.state.event.names.get(4, {}).get("players", [])  # noqa: E731
        assert _until(lambda: len(team4()) == 3, table.ctl)
        assert [p["name"] for p in team4()] == ["Cy Young", "Ann Smith", "Bob Jones"]
        assert session.state.event.names[4]["name"] == "Hearts"
        assert _until(lambda: any("7777" in str(r.body) and "refused" in r.body
                                  for r in session.journal.rows() if r.kind == "note"), table.ctl)
        assert 1 not in session.state.event.names
    finally:
        if table is not None:
            table.stop()
        service.stop()
        broker.stop()


def test_an_event_with_the_club_s_hand_records_sends_them_so_a_table_needs_no_file(tmp_path: Path) -> None:
    """Opened with the club's hand records, the event sends each seated table the records of its round's
    boards (``hand_records``, checked by the table against the commitment as a pairs session's): a table
    with no records file of its own plays its round. Only the table's topic carries them: the table's page
    does not, and no table is sent another round's boards. Before, an event sent no records and such a
    table refused every board ("board 1 is not in this table's hand records")."""
    _need("mosquitto", "mosquitto")
    broker = LocalBroker(tmp_path / "broker", PASSWORDS | {"table-04": "t4-pw"})
    broker.start()
    recs = records(6, seed=4)
    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2), TABLES,
                                  boards=tuple(recs.values()))
    service = EventService(session, "127.0.0.1", broker.port, DASHBOARD_USER, PASSWORDS[DASHBOARD_USER], tick=0.02)
    service.start()
    table = None
    try:
        assert service.connected.wait(10)
        table = RealTable(tmp_path / "table-02", broker.port, {})      # no hand records of its own
        assert _until(lambda: board_of(table.ctl.engine.state) is not None, table.ctl)
        b = board_of(table.ctl.engine.state)
        assert (b.number, b.record.fingerprint) == (1, recs[1].fingerprint)
        assert sorted(table.proc.records) == [1, 2]                      # round 1's boards, no other round's
        notes = [r.body["hand_records"] for r in table.journal.rows() if r.kind == "note" and "hand_records" in r.body]
        assert notes[-1]["taken"] == [1, 2] and notes[-1]["refused"] == []
        assert notes[-1]["commitment"] == session.state.setup.commitment
        rng = random.Random(5)
        bid(table.ctl, recs[1], "1NT pass pass pass")
        play(table.ctl, recs[1].deal, rng)
        confirm(table.ctl, Seat.N, Seat.E)
        assert _until(lambda: (1, 2, 1) in session.state.event.results, table.ctl)
        assert "hand_records" not in service.table_message("table-02")   # what the table's page is made from
    finally:
        if table is not None:
            table.stop()
        service.stop()
        broker.stop()
    reopened = EventSession.open(tmp_path / "event")                  # the records are in the journal's setup
    assert reopened.state.setup.boards == tuple(recs.values())
    reopened.close()


def _view(state: EventState, club_table: str, tables: tuple[str, ...]) -> dict[str, Any]:
    from firmware_host.events.views import table_view

    return table_view(state, tables, club_table) | {"answers": []}


@pytest.mark.parametrize("spec, tables, club_table, seated", [
    (EventSpec(EventKind.INDIVIDUAL, 8, 7, 2), TABLES[:2], "table-01", ("A", 1, 1, "8-1", "5-7", (1, 2))),
    (EventSpec(EventKind.SWISS_PAIRS, 4, 3, 2), TABLES[:2], "table-02", ("A", 2, 1, "2", "4", (1, 2))),
    (EventSpec(EventKind.SECTIONS, 12, 3, 1, sections=(SectionSpec("A", 3), SectionSpec("B", 3))),
     tuple(f"t{k}" for k in range(1, 7)), "t5", ("B", 5, 1, "2 NS", "2 EW", (2,))),
])
def test_every_kind_of_event_seats_a_table(spec: EventSpec, tables: tuple[str, ...], club_table: str,
                                           seated: tuple[Any, ...]) -> None:
    view = _view(EventState.opened(spec), club_table, tables)
    s = seating_from_session(view)
    assert (s.section, s.table, s.round, s.ns, s.ew, s.boards) == seated and s.records == ()
    # the section it sends is the one its view gives (docs/competitions.md, "The same duplicate table")
    assert view["section"] == seated[0] and seating_from_session(view | {"section": "Q"}).section == "Q"


def test_a_bye_a_table_not_used_and_a_finished_event_play_nothing() -> None:
    state = EventState.opened(EventSpec(EventKind.SWISS_TEAMS, 5, 3, 1))
    tables = ("t1", "t2", "t3", "t4", "t5", "t6")
    assert seating_from_session(_view(state, "t5", tables)).boards == ()          # the bye's table
    state = EventState.opened(EventSpec(EventKind.ROUND_ROBIN, 4, 3, 1))
    with pytest.raises(ValueError, match="usable"):
        seating_from_session(_view(state, "elsewhere", ("t1", "t2", "t3", "t4")))    # no number: not seated
    view = _view(state, "t1", ("t1", "t2", "t3", "t4")) | {"finished": True}
    assert seating_from_session(view).boards == ()
    view = _view(state, "t1", ("t1", "t2", "t3", "t4")) | {"entered": [1]}
    assert seating_from_session(view).boards == ()                                # its board has a result


def test_the_table_says_who_sits_there_from_the_event_s_names() -> None:
    """The event's seating carries the names of those seated (``names``); the table says them as it says a
    pairs session's players: a team by its name and players, an individual's players seat by seat."""
    from firmware_host.table.duplicate import event_players

    teams = EventState.opened(EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2))
    teams.names[4] = {"name": "Hearts", "players": [{"name": "Ann Lee"}, {"name": "Bo Kim"}]}
    view = _view(teams, "table-02", TABLES)
    assert event_players(view) == ["North-South 4: Hearts (Ann Lee, Bo Kim)"]      # team 1 not named
    one = EventState.opened(EventSpec(EventKind.INDIVIDUAL, 8, 7, 2))
    one.names[8] = {"players": [{"name": "Cy Young"}]}
    one.names[7] = {"players": [{"name": "Di Ross"}]}
    assert event_players(_view(one, "table-01", TABLES[:2])) == ["North 8: Cy Young", "West 7: Di Ross"]
    assert event_players(_view(one, "table-02", TABLES[:2])) == []


def _cards(table: str, number: int, side: str, members: list[str], seq: int = 5) -> tuple[str, bytes]:
    import json

    from firmware_host.wire.topics import TOPICS

    body = {"table_number": number, "round": 1, "side": side, "pair": "-", "members": members}
    return TOPICS.table(table, "players"), json.dumps({"table": table, "kind": "players", "seq": seq, "t": 1.0,
                                                       "body": body}).encode()


def test_member_cards_name_a_section_s_pair_and_an_individual_s_two_players(tmp_path: Path) -> None:
    from firmware_host.wire.duplicate import LinkError

    spec = EventSpec(EventKind.SECTIONS, 12, 3, 1, sections=(SectionSpec("A", 3), SectionSpec("B", 3)))
    tables = tuple(f"t{k}" for k in range(1, 7))
    session = EventSession.create(tmp_path / "sections", spec, tables)
    (tmp_path / "sections" / ROSTER_FILE).write_text("1021,Ann Smith\n1045,Bob Jones\n", encoding="utf-8")
    rec = session.reader()(*_cards("t5", 5, "ew", ["1021", "1045"]))       # section B's table 2, East-West
    assert (rec["section"], rec["pair"], rec["by"]) == ("B", "2EW", "t5 (member cards)")
    assert session.take(rec).status == "taken"
    assert session.take(rec).status == "repeat"                           # the same message again
    with pytest.raises(LinkError, match="the players name table 4, but t5 is table 5"):
        session.reader()(*_cards("t5", 4, "ns", ["1021", "1045"], seq=6))
    # an individual: a side's two cards name the two players the draw seats there (table 1, round 1:
    # North 8, South 1, East 5, West 7), North's card North's player, in one record
    one = EventSession.create(tmp_path / "individual", EventSpec(EventKind.INDIVIDUAL, 8, 7, 2), tables[:2])
    (tmp_path / "individual" / ROSTER_FILE).write_text("1021,Ann Smith\n1045,Bob Jones\n1102,Cy Young\n",
                                                       encoding="utf-8")
    rec = one.reader()(*_cards("t1", 1, "ns", ["1021", "1045"]))
    assert [(x["competitor"], x["players"][0]["name"]) for x in rec["each"]] == [(8, "Ann Smith"), (1, "Bob Jones")]
    assert one.take(rec).status == "taken" and one.take(rec).status == "repeat"
    assert (one.event.names[8]["players"][0]["member"], one.event.names[1]["players"][0]["member"]) == ("1021", "1045")
    # East-West's cards naming a member who already plays (as North) are refused, nothing of them taken
    again = one.take(one.reader()(*_cards("t1", 1, "ew", ["1102", "1021"], seq=6)))
    assert again.status == "refused" and "member 1021 (Ann Smith) already plays for 8" in again.why
    assert 5 not in one.event.names and 7 not in one.event.names
    reopened_names = dict(one.event.names)
    one.close()
    one = EventSession.open(tmp_path / "individual")                    # the journal replays it the same
    assert one.event.names == reopened_names
    one.close()


def test_a_names_record_of_two_players_at_once_is_an_individual_s_only() -> None:
    from laws.session.event.event_kind import each_problem

    one = EventSpec(EventKind.INDIVIDUAL, 8, 7, 2)
    ann = [{"name": "Ann Smith", "member": "1021", "federation": ""}]
    assert each_problem(one, {}, {"each": [{"competitor": 8, "players": ann},
                                           {"competitor": 1, "players": [{"name": "Bo", "member": "", "federation": ""}]}]}) == ""
    assert "names player 8 twice" in each_problem(one, {}, {"each": [{"competitor": 8, "players": ann}] * 2})
    assert "already plays for 8" in each_problem(one, {}, {"each": [{"competitor": 8, "players": ann},
                                                                   {"competitor": 1, "players": ann}]})
    assert "a list of two" in each_problem(one, {}, {"each": [{"competitor": 8, "players": ann}]})
    teams = EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2)
    assert "only an individual's" in each_problem(teams, {}, {"each": []})


class _Wire:
    """The event desk's broker connection: every message it publishes, by topic."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, topic: str, payload: str, retain: bool) -> None:
        self.sent.append((topic, json.loads(payload)))

    def last(self, topic: str) -> dict[str, Any]:
        return [m for t, m in self.sent if t == topic][-1]


def test_a_teams_table_back_after_the_director_scored_its_board_abandons_it_and_plays_on(tmp_path: Path) -> None:
    """docs/session.md, "A result without a working table", at a teams match (the closed room, event table
    2): its Pi died bidding board 1; the director gave the result of board 1 there (a ``correct``). Restarted,
    the table abandons board 1 (its note, a ``board_abandoned``) and plays board 2; then, with board 2 bid
    and the table down again, the director gives board 2 too and the other tables' results complete round 1:
    the event draws round 2, and the table abandons board 2 and plays round 2's first board."""
    session = EventSession.create(tmp_path / "event", EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2), TABLES)
    desk = EventDesk(session)
    wire = _Wire()
    desk.connect(wire)
    desk.publish_all()
    recs = records(6, seed=4)
    topic = TOPICS.seating("table-02")
    ctl, _proc, j = table(tmp_path / "t2", recs, None, source="session")
    run(ctl, SessionInput(wire.last(topic)))
    assert board_of(ctl.engine.state).number == 1
    bid(ctl, recs[1], "pass 1NT")                                    # board 1 in play; the Pi dies
    j.close()

    def scored(table_number: int, board: int) -> None:
        rec = {"type": "correct", "by": "director", "why": "the Pi failed",
               "result": TableResult(1, table_number, board, "3NT", "N", 9).to_dict()}
        assert desk.director_record(rec).status == "taken"

    def restarted() -> tuple[Any, Any]:
        ctl, _proc, j = table(tmp_path / "t2", recs, None, source="session")
        run(ctl, SessionInput(wire.last(topic)))
        while ctl.drain():
            pass
        return ctl, j

    scored(2, 1)
    ctl, j = restarted()
    b = board_of(ctl.engine.state)
    assert (b.number, b.round) == (2, 1), [r.body for r in j.rows()][-4:]
    gone = [e for e in (r.body for r in j.rows() if r.kind == "event") if e["type"] == "board_abandoned"]
    assert [(e["board"], e["round"], e["src"]) for e in gone] == [(1, 1, "session")]
    assert any(str(r.body.get("text", "")).startswith("Board 1 (table 2, round 1) was scored by the director")
               for r in j.rows() if r.kind == "note")
    out = bid(ctl, recs[2], "1NT pass pass pass")                    # the calls are board 2's
    assert [r.extra["contract"] for r in out if r.clause == "BP-22"] == ["1NT"]
    j.close()
    scored(2, 2)                                                      # the table down again: board 2 given
    for t in (1, 3, 4):
        for n in (1, 2):
            scored(t, n)
    assert session.event.current == 2
    ctl, j = restarted()
    b = board_of(ctl.engine.state)
    assert (b.number, b.round) == (session.event.boards_at(2, 2)[0], 2)
    gone = [e for e in (r.body for r in j.rows() if r.kind == "event") if e["type"] == "board_abandoned"]
    assert [(e["board"], e["round"]) for e in gone] == [(1, 1), (2, 1)]
    assert not [r for r in j.rows() if r.kind == "note" and "set_aside" in r.body]     # nothing refused
    j.close()
    session.close()
