"""A board a table calls fouled in an event (docs/competitions.md, "Results from the tables": "A fouled
board"): the result is journaled as taken with the call, and the board is held out of every comparison it
enters (a teams match's IMPs and VPs, a Swiss pairs round's Butler datum, an individual's or a section's
matchpoints) until the director's correction decides it; the round waits like a missing result, the views
name the board, the files leave its round out. Before, the event ignored the call and compared the
fouled result with the other room's (or the field's) as if both had played the same deal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firmware_host.events.desk import EventDesk
from firmware_host.events.files import render
from firmware_host.events.session import EventSession
from firmware_host.events.views import director_view, table_view
from firmware_host.wire.topics import TOPICS
from laws.competition.event_spec import EventKind, EventSpec, SectionSpec

TEAMS = ("t-a", "t-b", "t-c", "t-d")
CALL = {"card": "7H", "played_by": "E", "record_seat": "W", "trick": 3, "seats": ["E", "W"]}
HELD_TEXT = ("board 1, table t-b, round 1: fouled at the table (first card against the record: ♥7 by East, "
             "trick 3); the director decides: a correction of the board")


def board(table: str, tables: tuple[str, ...], seq: int, rnd: int, number: int, contract: str, declarer: str,
          tricks: int, foul: dict[str, Any] | None = None) -> bytes:
    """A duplicate table's ``board`` message (docs/mqtt.md), with its fouled-board call when given."""
    body = {"section": "A", "table_number": tables.index(table) + 1, "round": rnd, "board": number, "ns": "1",
            "ew": "2", "contract": contract, "declarer": declarer or None, "lead": None, "tricks": tricks,
            "auction": [], "play": [], "record": "", "verified": False, "foul": foul,
            "confirmed": {"ns": "N", "ew": "E"}}
    return json.dumps({"table": table, "kind": "board", "seq": seq, "deal": 0, "secret": False, "t": 1.0,
                       "body": body}).encode()


def play(session: EventSession, rows: list[tuple[str, int, int, str, str, int, dict[str, Any] | None]]) -> None:
    tables = session.tables
    for seq, (table, rnd, number, contract, declarer, tricks, foul) in enumerate(rows, 1):
        taken = session.offer(table, board(table, tables, seq, rnd, number, contract, declarer, tricks, foul))
        assert taken.status == "taken", taken


def correct(session: EventSession, result: dict[str, Any]) -> str:
    return session.take({"type": "correct", "by": "td", "why": "fouled board", "result": result}).status


# Swiss teams of 4, 1 board a round: match 1 is 1 v 3 (tables 1, 2), match 2 is 2 v 4 (tables 3, 4). The
# closed room of match 1 (t-b) played another deal: 4S by N, 9 tricks (-50) against the open room's +420.
ROUND1 = [("t-a", 1, 1, "4S", "N", 10, None), ("t-b", 1, 1, "4S", "N", 9, CALL),
          ("t-c", 1, 1, "3NT", "N", 9, None), ("t-d", 1, 1, "3NT", "N", 9, None)]


def test_a_teams_board_one_room_called_fouled_is_held_named_and_scored_only_once_the_director_decides(
        tmp_path: Path) -> None:
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TEAMS)
    play(session, ROUND1)
    ev = session.event
    # before: 10 IMPs to team 1 from +420 against -50 played from another deal, and round 2 drawn on them
    first = director_view(ev, TEAMS)["draws"][0]["scored"][0]
    assert (first["first_imps"], first["second_imps"]) == (0, 0) and not ev.complete(1) and 2 not in ev.draws
    # nothing lost: the result is the event's, with the call
    assert ev.results[(1, 2, 1)].contract == "4S" and ev.fouls[(1, 2, 1)].card == "7H"
    # held: no 10 IMPs across two deals, the round waits, no round 2 drawn
    view = director_view(ev, TEAMS)
    assert [h["text"] for h in view["held"]] == [HELD_TEXT]
    assert view["held"][0]["foul"] == CALL and view["held"][0]["club_table"] == "t-b"
    match1 = view["draws"][0]["scored"][0]
    assert (match1["first_imps"], match1["second_imps"], match1["held"]) == (0, 0, [1])
    assert not view["draws"][0]["complete"] and len(view["draws"]) == 1 and view["round"] == 1
    assert all(s["vp"] == "0.00" for s in view["standings"])
    for club in ("t-a", "t-b"):      # both rooms: the board awaits the director, no IMPs released
        tv = table_view(ev, TEAMS, club)
        assert tv["held"] == [1] and tv["released"] == []
    assert "held" not in table_view(ev, TEAMS, "t-c")
    assert "<MATCH>" not in render(ev, "2026-12-06")["results.xml"].decode()   # its round is not complete
    # the director's award at the fouled room decides the board; the round completes and round 2 is drawn
    assert correct(session, {"round": 1, "table": 2, "board": 1, "adjusted": "A+/A-"}) == "taken"
    view = director_view(ev, TEAMS)
    assert view["held"] == [] and view["draws"][0]["complete"] and len(view["draws"]) == 2
    match1 = view["draws"][0]["scored"][0]
    assert (match1["first_imps"], match1["second_imps"], match1["held"]) == (0, 3, [])   # A+ to team 3
    assert table_view(ev, TEAMS, "t-a")["round"] == 2
    session.close()
    again = EventSession.open(tmp_path / "ev")     # the journal replays the call and the decision
    assert again.event.fouls == ev.fouls and director_view(again.event, TEAMS)["draws"] == view["draws"]
    again.close()


def test_a_held_board_in_a_match_is_released_by_an_assigned_score_or_the_result_kept_as_played(
        tmp_path: Path) -> None:
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TEAMS)
    play(session, ROUND1)
    assert correct(session, {"round": 1, "table": 2, "board": 1, "contract": "4S", "declarer": "N",
                             "tricks": 9}) == "taken"         # the director finds the call wrong: kept as played
    scored = director_view(session.event, TEAMS)["draws"][0]["scored"][0]
    assert (scored["first_imps"], scored["second_imps"]) == (10, 0) and session.event.complete(1)
    # the page's line says what the director did (before: '4S by N, 9 tricks corrected to 4S by N, 9 tricks')
    kept = director_view(session.event, TEAMS)["adjustments"]
    assert [a["text"] for a in kept] == ["round 1, table 2, board 1: 4S by N, 9 tricks kept as played"]
    assert correct(session, {"round": 1, "table": 2, "board": 1, "adjusted": "A-/A+"}) == "taken"
    assert director_view(session.event, TEAMS)["adjustments"][0]["text"] == (
        "round 1, table 2, board 1: 4S by N, 9 tricks kept as played, then corrected to adjusted: average-minus "
        "to North-South, average-plus to East-West")
    other = EventSession.create(tmp_path / "ev2", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TEAMS)
    play(other, ROUND1)
    assert correct(other, {"round": 1, "table": 2, "board": 1, "assigned": -420}) == "taken"
    scored = director_view(other.event, TEAMS)["draws"][0]["scored"][0]
    assert (scored["first_imps"], scored["second_imps"]) == (13, 0) and other.event.complete(1)
    session.close()
    other.close()


def test_the_other_rooms_retained_seating_says_the_board_is_held_or_released(tmp_path: Path) -> None:
    """The table's retained seating is its view as the event stands (docs/competitions.md, "The table's
    view"): a board the closed room calls fouled is `held` in the open room's message too, and a board the
    second room plays is `released` in the first room's. Before, only the table whose result was answered
    was sent its message: t-a's retained seating said nothing held and t-c's nothing released until the
    round ended, while their pages said otherwise."""
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TEAMS)
    sent: list[tuple[str, dict[str, Any]]] = []
    desk = EventDesk(session)
    desk.connect(lambda topic, text, retain: sent.append((topic, json.loads(text))))
    for seq, (table, rnd, number, contract, declarer, tricks, foul) in enumerate(ROUND1, 1):
        desk.offer(TOPICS.board(table), board(table, TEAMS, seq, rnd, number, contract, declarer, tricks, foul))
        assert desk.step()

    def last(table: str) -> dict[str, Any]:
        return [m for topic, m in sent if topic == TOPICS.seating(table)][-1]

    assert last("t-a").get("held") == [1] and last("t-a")["released"] == []
    assert last("t-b").get("held") == [1]
    assert last("t-c")["released"] == [{"board": 1, "home_imps": 0, "away_imps": 0}]
    assert last("t-c") == {**table_view(session.event, TEAMS, "t-c", session.version), "answers": last("t-c")["answers"]}
    session.close()


def test_a_swiss_pairs_board_called_fouled_holds_its_butler_datum_at_every_table(tmp_path: Path) -> None:
    tables = ("p1", "p2", "p3")
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_PAIRS, 6, 3, 2), tables)
    foul = {**CALL, "played_by": "N", "record_seat": "S", "seats": ["N", "S"]}
    play(session, [("p1", 1, 1, "4S", "N", 10, None), ("p2", 1, 1, "4S", "N", 10, None),
                   ("p3", 1, 1, "6S", "N", 12, foul), ("p1", 1, 2, "3NT", "E", 9, None),
                   ("p2", 1, 2, "3NT", "E", 10, None), ("p3", 1, 2, "3NT", "E", 9, None)])
    ev = session.event
    assert ev.butler_imps(1) == {(1, 2): 0, (2, 2): -1, (3, 2): 0}      # board 1 has no datum yet
    view = director_view(ev, tables)
    assert [h["text"] for h in view["held"]] == [
        "board 1, table p3, round 1: fouled at the table (first card against the record: ♥7 by North, trick 3); "
        "the director decides: a correction of the board"]
    assert [m["held"] for m in view["draws"][0]["scored"]] == [[1], [1], [1]] and not ev.complete(1)
    assert table_view(ev, tables, "p1")["held"] == [1]
    assert correct(session, {"round": 1, "table": 3, "board": 1, "adjusted": "A=/A="}) == "taken"
    assert ev.complete(1) and 2 in ev.draws
    assert ev.butler_imps(1)[(1, 1)] == 0 and director_view(ev, tables)["held"] == []
    session.close()


def test_an_individual_board_called_fouled_is_left_out_of_the_matchpoints_until_decided(tmp_path: Path) -> None:
    tables = ("i1", "i2")
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.INDIVIDUAL, 8, 7, 1), tables)
    play(session, [("i1", 1, 1, "4S", "N", 10, None), ("i2", 1, 1, "4S", "N", 9, CALL)])
    ev = session.event
    standings = director_view(ev, tables)["standings"]
    assert all(s["total"] == "0.00" and s["boards"] == 0 for s in standings), standings
    assert not ev.complete(1) and 2 not in ev.draws
    assert correct(session, {"round": 1, "table": 2, "board": 1, "assigned": -50}) == "taken"
    assert sorted({s["total"] for s in director_view(ev, tables)["standings"]}) == ["0.00", "2.00"]
    assert ev.complete(1) and 2 in ev.draws
    session.close()


def test_a_sections_board_called_fouled_is_held_in_its_section_or_across_the_field(tmp_path: Path) -> None:
    for across in (False, True):
        spec = EventSpec(EventKind.SECTIONS, 12, 3, 1, sections=(SectionSpec("A", 3), SectionSpec("B", 3)),
                         across=across)
        tables = ("a1", "a2", "a3", "b1", "b2", "b3")
        session = EventSession.create(tmp_path / f"ev{across}", spec, tables)
        ev = session.event
        rows = []
        for club in tables:
            number = tables.index(club) + 1
            b = ev.boards_at(1, number)[0]
            rows.append((club, 1, b, "4S", "N", 10 - (number % 2), CALL if club == "a1" else None))
        play(session, rows)
        assert not ev.complete(1) and 2 not in ev.draws      # before: complete, scored across two deals
        fouled_board = ev.boards_at(1, 1)[0]
        held = {t for (_r, t, b) in ev.held_keys()}
        want = {t for t in range(1, 7) if ev.boards_at(1, t)[0] == fouled_board and (across or t <= 3)}
        assert held == want and 1 in held and not ev.complete(1)
        assert [h["board"] for h in director_view(ev, tables)["held"]] == [fouled_board]
        assert correct(session, {"round": 1, "table": 1, "board": fouled_board, "adjusted": "A=/A="}) == "taken"
        assert ev.held_keys() == frozenset() and ev.complete(1)
        session.close()


def test_a_result_record_whose_call_cannot_be_read_is_refused_naming_it(tmp_path: Path) -> None:
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TEAMS)
    out = session.take({"type": "result", "source": "t-b:1", "table": "t-b", "board": 1,
                        "result": {"round": 1, "table": 2, "board": 1, "contract": "4S", "declarer": "N",
                                   "tricks": 9}, "foul": {**CALL, "trick": 14}})
    assert out.status == "refused"
    assert out.why == ("round 1, table 2, board 1: a fouled-board call's trick is a whole number 1 to 13, "
                       "got 14")
    session.close()
