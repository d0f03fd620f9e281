"""A duplicate table through the controller and a real journal: boards placed from its seating one after
another, each played, checked and scored, confirmed by a seat button of each side, the next board then;
a misboarded board ruled at its first wrong card; a restart at any point goes on; a session's seating
journaled and used; a record that is not the table's refused; the hand record never leaves the table."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import pytest

from firmware_host.duplicate import forms
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.table.controller import LawInput, SessionInput
from firmware_host.table.duplicate import TableRound
from firmware_host.tablelink.secrecy import SecrecyFilter
from firmware_host.wire.duplicate import seating_topic
from laws.cards import Seat, clockwise_from
from laws.events import CallMade, FoulRuled
from laws.games.duplicate_board import board_of
from tests.duplicate.sessionkit import make_setup
from tests.table.duptable import bid, confirm, play, records, run, swapped, table

RECS = records(4, seed=3)
SEATING = TableRound("A", 3, 1, "5", "15", (1, 2, 3))


def _on_table(ctl) -> int | None:  # type: ignore[no-untyped-def]
    b = board_of(ctl.engine.state)
    return b.number if b is not None else None


def _events(j) -> list[dict]:  # type: ignore[no-untyped-def]
    return [r.body for r in j.rows() if r.kind == "event"]


def test_boards_one_after_another_each_confirmed_by_a_button_of_each_side(tmp_path: Path) -> None:
    ctl, _proc, j = table(tmp_path, RECS, SEATING)
    rng = random.Random(1)
    for n in (1, 2, 3):
        assert _on_table(ctl) == n
        board = RECS[n]
        out = bid(ctl, board) + play(ctl, board.deal, rng)
        said = {(r.remedy.value, r.clause) for r in out}
        assert ("checked", "DB-7") in said and ("score", "DB-77") in said and not any(c == "DB-87" for _, c in said)
        assert run(ctl, LawInput(FoulRuled("fouled"), "director")) == []          # refused: nothing to decide
        done = confirm(ctl, Seat.S, Seat.N, Seat.W)       # North's press after South's: his attention
        assert [(r.clause, r.seat) for r in done if r.clause != "DB-77"] == [("DB-9", Seat.N)]   # law 9
        assert [r.extra["confirmed"] for r in done if r.clause == "DB-77"] == [{"ns": "S", "ew": "W"}]
    assert _on_table(ctl) == 3 and board_of(ctl.engine.state).done     # the round is over: nothing more
    shown = ctl.snapshot()["duplicate"]
    assert shown == shown | {"board": 3, "dealer": "S", "vulnerable": "EW", "table": 3, "round": 1, "ns": "5",
                             "stage": "confirmed", "confirmed": ["ew", "ns"], "foul": False}
    assert RECS[3].deal.pbn() not in str(ctl.snapshot())                # the record stays at the table
    boards = [e for e in _events(j) if e["type"] == "board"]
    assert [(e["board"], e["table"], e["round"], e["ns"], e["src"]) for e in boards] == \
        [(1, 3, 1, "5", "config"), (2, 3, 1, "5", "config"), (3, 3, 1, "5", "config")]
    confirms = [e for e in _events(j) if e["type"] == "confirm"]
    assert [(e["seat"], e["src"]) for e in confirms] == [("S", "button"), ("W", "button")] * 3
    assert len([e for e in _events(j) if e["type"] == "demand"]) == 3
    j.close()


def test_a_misboarded_board_at_the_table_and_a_restart_at_every_step(tmp_path: Path) -> None:
    ctl, _proc, j = table(tmp_path, RECS, SEATING)
    board = RECS[1]
    held = swapped(board.deal, Seat.E, Seat.W)
    rng = random.Random(2)
    out = bid(ctl, board) + play(ctl, held, rng, cards=6)
    fouls = [r for r in out if r.clause == "DB-87"]
    assert len(fouls) == 1 and fouls[0].extra["seats"] == ["E", "W"] and fouls[0].extra["table"] == 3
    j.close()
    ctl, _proc, j = table(tmp_path, RECS, SEATING)                   # restarted mid-play
    assert _on_table(ctl) == 1
    (ruled,) = run(ctl, LawInput(FoulRuled("fouled"), "director"))
    assert ruled.extra["group_boundary"] is True
    out = play(ctl, held, rng)
    assert not [r for r in out if r.clause == "DB-87"]               # ruled once, at the first card
    (checked,) = [r for r in out if r.clause == "DB-7"]
    assert checked.extra["verified"] is False and "swapped" in checked.extra["forms"]
    confirm(ctl, Seat.N)
    j.close()
    ctl, _proc, j = table(tmp_path, RECS, SEATING)                   # restarted between the confirmations
    assert _on_table(ctl) == 1
    (done,) = confirm(ctl, Seat.E)
    assert done.extra["foul"]["played_by"] in ("E", "W") and done.extra["foul"]["decision"] == "fouled"
    assert done.extra["verified"] is False and len(done.extra["play"]) == 52
    assert _on_table(ctl) == 2
    j.close()
    ctl, _proc, j = table(tmp_path, RECS, SEATING)                   # restarted with board 2 on the table
    assert _on_table(ctl) == 2 and len([e for e in _events(j) if e["type"] == "board"]) == 2
    j.close()


def test_the_sessions_seating_is_journaled_and_a_record_not_the_tables_is_refused(tmp_path: Path) -> None:
    ctl, proc, j = table(tmp_path, RECS, None, source="session")
    assert _on_table(ctl) is None                                    # no seating yet: nothing placed
    seating = {"kind": "seating", "table": "t3", "section": "A", "table_number": 3, "round": 2, "called": 2,
               "rounds": 3, "seq": 1, "t": 0.0, "ns": "7",
               "ew": "17", "boards": [{"board": 4, "record": "0" * 64}, {"board": 2, "record": RECS[2].fingerprint}]}
    run(ctl, SessionInput(seating))
    assert _on_table(ctl) == 2                                       # board 4's record is not this table's
    notes = [r.body for r in j.rows() if r.kind == "note"]
    assert any(n.get("session") == seating for n in notes)
    assert any("board 4: the session's record" in str(n.get("text")) for n in notes)
    j.close()
    ctl, proc, j = table(tmp_path, RECS, None, source="session")     # restarted, the broker away
    assert proc.seating is not None and proc.seating.round == 2 and _on_table(ctl) == 2
    j.close()


def test_a_boards_record_never_leaves_the_table() -> None:
    board = RECS[1]
    body = {"type": "board", "board": 1, "record": board.fingerprint, "deal": board.deal.pbn(), "src": "config"}
    for deal in (0, 1, 5):                                           # before its deal, during, a closed one
        f = SecrecyFilter()
        f.deal_over(5)
        out = f.event(dict(body), deal, 9)
        assert out["deal"] == "hidden" and out["record"] == board.fingerprint
    assert SecrecyFilter(reveal=True).event(dict(body), 1, 9)["deal"] == board.deal.pbn()


def test_the_sessions_ordinary_notes_are_not_warnings_but_a_refusal_is(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Who plays here and where to go after a round are what a table tells as it should: ``cardtable
    duplicate demo`` printed 112 ``WARNING ... session: Playing here: ...`` lines for an evening that went
    right. They are logged at INFO; a board the table will not play stays a warning."""
    ctl, _proc, j = table(tmp_path, RECS, None, source="session")
    seating = {"kind": "seating", "table": "t3", "section": "A", "table_number": 3, "round": 2, "called": 2,
               "rounds": 3, "seq": 1, "t": 0.0, "ns": "7", "ew": "17",
               "players": {"ns": [{"name": "Ann"}, {"name": "Bob"}], "ew": [{"name": "Cy"}, {"name": "Di"}]},
               "boards": [{"board": 4, "record": "0" * 64}, {"board": 2, "record": RECS[2].fingerprint}]}
    with caplog.at_level(logging.INFO, logger="firmware_host.table.controller"):
        run(ctl, SessionInput(seating))
    said = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "firmware_host.table.controller"]
    assert ("INFO", "session: Playing here: North-South 7: Ann & Bob; East-West 17: Cy & Di") in said, said
    refused = [level for level, text in said if "board 4: the session's record" in text]
    assert refused == ["WARNING"], said
    assert not [text for level, text in said if level == "WARNING" and "Playing here" in text]
    notes = [r.body.get("text") for r in j.rows() if r.kind == "note"]
    assert any(str(n).startswith("Playing here") for n in notes)          # journaled as before
    j.close()


def _seating(rnd: int, boards: tuple[int, ...], left: tuple[int, ...], seq: int) -> dict:
    return {"kind": "seating", "table": "t3", "section": "A", "table_number": 3, "round": rnd, "called": rnd,
            "rounds": 3, "seq": seq, "t": 0.0, "ns": "7", "ew": "17", "left": list(left),
            "boards": [{"board": n, "record": RECS[n].fingerprint} for n in boards]}


def test_a_table_back_after_its_board_was_scored_by_hand_abandons_it_and_plays_its_round(tmp_path: Path) -> None:
    """A club night: table 3 bid board 2 and its Pi was killed; the director entered boards 1 and 2 by hand
    and called round 2. Restarted, the table was given round 2's seating (boards 3-4) but refused board 3,
    because board 2 was "still in play": it kept showing board 2, the players' calls for board 3 went into
    board 2, and the table sat idle after that. The session holds board 2's result: the table abandons it,
    says so, and plays board 3."""
    ctl, _proc, j = table(tmp_path, RECS, None, source="session")
    run(ctl, SessionInput(_seating(1, (1, 2), (1, 2), 1)))
    rng = random.Random(5)
    bid(ctl, RECS[1])
    play(ctl, RECS[1].deal, rng)
    confirm(ctl, Seat.N, Seat.E)
    assert _on_table(ctl) == 2
    bid(ctl, RECS[2], "pass 1NT")                                     # board 2 in play: then the Pi dies
    j.close()
    ctl, _proc, j = table(tmp_path, RECS, None, source="session")     # restarted, still on board 2
    assert _on_table(ctl) == 2
    run(ctl, SessionInput(_seating(2, (3, 4), (3, 4), 9)))           # board 2 was entered by hand
    while ctl.drain():                                                # what the table did in reply, in turn
        pass
    assert _on_table(ctl) == 3, [r.body for r in j.rows()][-4:]
    rows = [(r.kind, r.body) for r in j.rows()]
    assert not [b for k, b in rows if k == "note" and "set_aside" in b]          # nothing refused
    (gone,) = [b for k, b in rows if k == "event" and b["type"] == "board_abandoned"]
    assert (gone["board"], gone["round"], gone["src"]) == (2, 1, "session")
    said = [str(b.get("text")) for k, b in rows if k == "note"]
    assert "Board 2 (table 3, round 1) was scored by the director (the session holds its result): its play " \
           "here is abandoned and nothing of it is sent; next: board 3." in said
    out = bid(ctl, RECS[3], "3NT pass pass pass")                     # the calls are board 3's
    assert [r.extra["contract"] for r in out if r.clause == "BP-22"] == ["3NT"]
    assert board_of(ctl.engine.state).number == 3
    j.close()
    ctl, _proc, j = table(tmp_path, RECS, None, source="session")     # a restart replays it the same way
    assert _on_table(ctl) == 3 and [b for b in _events(j) if b["type"] == "board"][-1]["board"] == 3
    j.close()


def test_a_table_back_with_seatings_queued_abandons_its_board_by_the_newest_and_names_the_right_next(
        tmp_path: Path) -> None:
    """Audit m34: table 2's Pi was killed on board 5; the director entered boards 5 and 6 by hand and called
    round 3. Restarted, the table got every seating its broker had kept for it at once and acted on the
    oldest: "Board 5 ... abandoned ...; next: board 6." on its display, then dealt board 7. It now acts on
    the newest seating waiting, and names the board it then plays."""
    ctl, _proc, j = table(tmp_path, RECS, None, source="session")
    run(ctl, SessionInput(_seating(1, (1, 2), (2,), 1)))             # board 1 already in: board 2 is placed
    bid(ctl, RECS[2], "pass 1NT")                                     # board 2 in play: then the Pi dies
    j.close()
    ctl, _proc, j = table(tmp_path, RECS, None, source="session")     # restarted, still on board 2
    assert _on_table(ctl) == 2
    ctl.submit(SessionInput(_seating(1, (1, 2), (), 5)))              # what the broker kept: board 2 by hand,
    ctl.submit(SessionInput(_seating(2, (3, 4), (3, 4), 9)))          # then round 2 called, both at once
    while ctl.drain():
        pass
    assert _on_table(ctl) == 3
    said = [str(r.body.get("text")) for r in j.rows() if r.kind == "note" and "was scored by the director" in
            str(r.body.get("text"))]
    assert said == ["Board 2 (table 3, round 1) was scored by the director (the session holds its result): its "
                    "play here is abandoned and nothing of it is sent; next: board 3."], said
    j.close()


def test_next_weeks_session_plays_its_boards_though_the_table_played_the_same_numbers_last_week(
        tmp_path: Path) -> None:
    """Audit m34: table 1 played boards 1-2 in round 1 of Monday's Mitchell; Tuesday's Howell seated it in
    round 1 with boards 1-3 (other deals, another commitment) and the same table, its configuration
    unchanged (hardware/SETUP.md 5b), dealt board 3: boards 1 and 2 counted as played here, since the table
    knew a board played only by its section, round and number. A board is played here only when its
    record is the one the seating names."""
    ctl, _proc, j = table(tmp_path, RECS, None, source="session")
    run(ctl, SessionInput(_seating(1, (1, 2), (1, 2), 1)))
    rng = random.Random(5)
    for n in (1, 2):
        bid(ctl, RECS[n])
        play(ctl, RECS[n].deal, rng)
        confirm(ctl, Seat.N, Seat.E)
    j.close()
    week2 = records(4, seed=11)
    assert all(week2[n].fingerprint != RECS[n].fingerprint for n in (1, 2, 3))
    ctl, _proc, j = table(tmp_path, week2, None, source="session")    # the same table, the same journal
    seating = dict(_seating(1, (1, 2, 3), (1, 2, 3), 1),
                   boards=[{"board": n, "record": week2[n].fingerprint} for n in (1, 2, 3)])
    run(ctl, SessionInput(seating))
    assert _on_table(ctl) == 1
    assert board_of(ctl.engine.state).record.fingerprint == week2[1].fingerprint
    j.close()


def test_a_board_scored_by_the_director_while_the_table_has_nothing_next_is_abandoned_all_the_same(
        tmp_path: Path) -> None:
    """The session holds board 2's result and the table's pair sits out the round called: board 2 stops
    being played here (its calls are no longer taken for it), the display says the director scored it."""
    ctl, _proc, j = table(tmp_path, RECS, None, source="session")
    run(ctl, SessionInput(_seating(1, (1, 2), (2,), 1)))             # board 1 already in: board 2 is placed
    bid(ctl, RECS[2], "pass")
    run(ctl, SessionInput(_seating(1, (1, 2), (), 2)))               # board 2 entered by hand meanwhile
    while ctl.drain():
        pass
    shown = ctl.snapshot()["duplicate"]
    assert (shown["board"], shown["stage"]) == (2, "abandoned")
    assert any("board 2 (table 3, round 1) was scored by the director" in str(r.body.get("text")).lower() and
               "no board is left to play here now" in str(r.body.get("text")) for r in j.rows() if r.kind == "note")
    assert run(ctl, LawInput(CallMade(Seat.S, "1NT"), "camera")) == []   # not taken for board 2
    assert board_of(ctl.engine.state).result is None
    j.close()


def test_a_board_the_engine_refused_is_placed_once_the_table_can_take_it(tmp_path: Path) -> None:
    """The procedure asked for a board the engine refused (set aside). It used to wait for that board to
    reach the table for ever: the table sat idle until it was restarted. It asks again once the table has
    changed (here: the board before is confirmed), and never again at once (no loop of refusals)."""
    ctl, proc, j = table(tmp_path, RECS, SEATING)
    rng = random.Random(7)
    bid(ctl, RECS[1])
    proc.seating = TableRound("A", 3, 2, "5", "15", (2, 3))           # round 2 while board 1 is in play:
    proc._place(None)                                                 # board 2 is asked for, and refused
    while ctl.drain():
        pass
    asides = [r.body for r in j.rows() if r.kind == "note" and "set_aside" in r.body]
    assert len(asides) == 1 and _on_table(ctl) == 1
    play(ctl, RECS[1].deal, rng)
    confirm(ctl, Seat.N, Seat.E)
    while ctl.drain():
        pass
    assert _on_table(ctl) == 2
    j.close()


def test_two_presses_in_a_duplicate_auction_are_the_seats_pass(tmp_path: Path) -> None:
    """hardware/WIRING.md: at a bridge table, two presses in the auction are that seat's pass. A duplicate
    table is one: its button made a shuffle demand there, which a duplicate table refuses."""
    from firmware_host.table.controller import ButtonInput

    ctl, _proc, j = table(tmp_path, RECS, SEATING)
    dealer = RECS[1].dealer.value
    ctl.process(ButtonInput(dealer, "new_shuffle"))
    last = _events(j)[-1]
    assert (last["type"], last["seat"], last["call"], last["src"]) == ("call", dealer, "pass", "button")
    j.close()


class _Wire:
    """The session desk's broker connection: every message it publishes, by topic."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    def __call__(self, topic: str, payload: str, retain: bool) -> None:
        self.sent.append((topic, json.loads(payload)))

    def last(self, topic: str) -> dict:
        return [m for t, m in self.sent if t == topic][-1]


def test_a_board_taken_off_to_be_replayed_while_its_table_was_down_is_played_not_abandoned(tmp_path: Path) -> None:
    """A club night, table 2 of a 3-table Mitchell: its Pi died bidding board 4. The director entered board
    4 by hand, then took the line off "to be replayed" (the table would be back) and called round 2.
    Restarted, the table abandoned board 4 as a board the session holds (its round moved on, the board not
    in ``left``): the session waited for a replay the table had thrown away. The seating names the boards
    taken off to be replayed (``replay``): the table plays board 4 on, then round 2's boards."""
    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2})
    recs = {b.number: b for b in setup.boards}
    wire = _Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"), wire)
    desk.publish_all()
    st = desk.session.state

    def by_hand(key: str) -> None:
        assert desk.director(forms.enter({"key": key, "contract": "4S", "declarer": "S", "lead": "HA",
                                          "tricks": 10}, "td", st)).taken

    topic = seating_topic("table-02")
    by_hand("3/2NS/2EW")                                              # board 3 in (the table's link was down)
    ctl, _proc, j = table(tmp_path / "t2", recs, None, source="session")
    run(ctl, SessionInput(wire.last(topic)))
    assert _on_table(ctl) == 4
    bid(ctl, recs[4], "pass 1NT")                                     # board 4 in play: then the Pi dies
    j.close()
    by_hand("4/2NS/2EW")
    assert desk.director({"type": "cancel", "key": "4/2 NS/2 EW", "by": "td", "why": "the table is back",
                          "then": "replay"}).taken
    assert desk.director({"type": "round", "round": 2, "by": "td"}).taken
    seating = wire.last(topic)
    assert (seating["round"], seating["left"]) == (2, [5, 6])
    ctl, _proc, j = table(tmp_path / "t2", recs, None, source="session")   # restarted, on board 4
    run(ctl, SessionInput(seating))
    while ctl.drain():
        pass
    assert not [b for b in _events(j) if b["type"] == "board_abandoned"]
    assert seating["replay"] == [{"round": 1, "board": 4}]
    b = board_of(ctl.engine.state)
    assert (b.number, b.round, b.abandoned) == (4, 1, False)
    seats = clockwise_from(recs[4].dealer)[2:] + clockwise_from(recs[4].dealer)[:1]
    out = [r for seat in seats for r in run(ctl, LawInput(CallMade(seat, "pass"), "camera"))]   # the auction goes on
    assert [r.extra["contract"] for r in out if r.clause == "BP-22"] == ["1NT"]
    play(ctl, recs[4].deal, random.Random(3))
    confirm(ctl, Seat.N, Seat.E)
    assert [(e["board"], e["round"]) for e in _events(j) if e["type"] == "board"][-1] == \
        (st.movement.boards_of(st.movement.at(2, 2).group)[0], 2)      # then round 2's first board
    j.close()
    desk.session.close()


class _Statuses:
    """An observer that keeps every status the table publishes (the panel reads each)."""

    def __init__(self) -> None:
        self.seen: list[dict] = []

    def status(self, snapshot: dict) -> None:
        self.seen.append(snapshot)

    def event(self, *args: object) -> None: ...
    def ruling(self, *args: object) -> None: ...
    def deal_over(self, *args: object) -> None: ...
    def pack_health(self, *args: object) -> None: ...


def test_the_panel_says_the_round_is_over_once_its_last_board_is_confirmed(tmp_path: Path) -> None:
    """Both sides confirmed board 3, the round's last board here: the panel said "the next board comes to
    the table", and the players waited for a board that was not coming. The status names the board that
    comes next (``next``), and the panel says it, or that the round is over here and to wait for the move."""
    from firmware_host.devices.table_view import game_lines

    ctl, _proc, j = table(tmp_path, RECS, TableRound("A", 3, 1, "5", "15", (1, 3)))
    watch = _Statuses()
    ctl.out.observers.append(watch)
    rng = random.Random(2)
    said = []
    for n in (1, 3):
        bid(ctl, RECS[n])
        play(ctl, RECS[n].deal, rng)
        confirm(ctl, Seat.N, Seat.E)
        done = [s for s in watch.seen if (s["duplicate"] or {}).get("stage") == "confirmed"]
        assert done[-1]["duplicate"]["board"] == n
        said.append([x for x in game_lines(done[-1]) if x.startswith("Confirmed")])
    assert said == [["Confirmed by both sides: board 3 comes to the table next."],
                    ["Confirmed by both sides. Round 1 is over at this table: wait for the move."]]
    assert ctl.snapshot()["duplicate"]["next"] is None
    j.close()
