"""The people at a simulated duplicate table (``firmware_host.evening.people``) against a real controller
and engine of the game ``duplicate-bridge``: they bid and play a board their way, one input at a time in
the table's own turn, confirm it from a seat of each side, and, holding a misboarded copy, get the
director, who rules it fouled when the engine finds the first card against the record; a table whose
turn is not their plan's is an error, never a guess."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from firmware_host.evening.boards import swapped
from firmware_host.evening.fouls import first_wrong
from firmware_host.evening.people import People, PeopleError
from firmware_host.table.controller import LawInput, TableController
from firmware_host.table.duplicate import TableRound
from laws.cards import Seat
from laws.events import CallMade
from laws.games.duplicate_board import board_of, played_here
from tests.table.duptable import records, table

RECS = records(2, seed=21)


def _run(ctl: TableController, people: People, limit: int = 400) -> list:
    """Let the people act until they have nothing to do; every input the table took, with its rulings."""
    took = []
    for _ in range(limit):
        ctl.drain()
        item = people.next_input(ctl.engine.state)
        if item is None:
            return took
        took.append((item, ctl.process(item)))
    raise AssertionError("the people never stopped")


def test_the_people_play_two_boards_as_the_table_asks_and_confirm_each(tmp_path: Path) -> None:
    ctl, _proc, j = table(tmp_path, RECS, TableRound("A", 3, 2, "3", "5", (1, 2)))
    people = People(lambda board, rnd: RECS[board].deal, random.Random(4))
    took = _run(ctl, people)
    assert played_here(ctl.engine.state) == [("A", 2, 1, RECS[1].fingerprint), ("A", 2, 2, RECS[2].fingerprint)]
    events = [i.event for i, _r in took if isinstance(i, LawInput)]
    assert [(e.seat, e.call) for e in events if e.TYPE == "call"] == \
        [(s, c.code) for h in people.boards for s, c in h.plan.calls]            # their calls, in the table's turn
    assert [(e.seat, e.card) for e in events if e.TYPE == "card_played"] == \
        [p for h in people.boards for p in h.plan.plays]                           # and their cards
    assert [h.dummy_shown for h in people.boards] == [h.plan.contract is not None for h in people.boards]
    assert all(i.source == "camera" for i, _r in took if isinstance(i, LawInput))
    rulings = [r for _i, rs in took for r in rs]
    assert not [r for r in rulings if r.clause == "DB-87"] and people.fouls_ruled == 0
    confirms = [r for r in rulings if r.clause == "DB-77" and (r.extra or {}).get("confirmed")]
    assert len(confirms) == 2
    assert {i.who for i, _r in took if not isinstance(i, LawInput)} <= {"N", "E", "S", "W"}
    j.close()


def test_holding_a_misboarded_copy_the_director_rules_it_fouled_at_the_engines_first_card(tmp_path: Path) -> None:
    held = swapped(RECS[1].deal, Seat.N, Seat.E)
    ctl, _proc, j = table(tmp_path, RECS, TableRound("A", 3, 2, "3", "5", (1,)))
    people = People(lambda board, rnd: held, random.Random(4))
    took = _run(ctl, people)
    db87 = [(i, r) for i, rs in took for r in rs if r.clause == "DB-87"]
    (first, at), (decided, ruled) = db87
    i, seat, card = first_wrong(RECS[1].deal, people.boards[0].plan.plays)
    assert at.remedy.value == "attention" and first.event.card == card and first.event.seat == seat
    assert decided.source == "director" and decided.event.TYPE == "foul_ruled" and ruled.remedy.value == "deal_stands"
    assert people.fouls_ruled == 1 and people.boards[0].director_acked
    assert board_of(ctl.engine.state).done and played_here(ctl.engine.state) == [("A", 2, 1, RECS[1].fingerprint)]
    j.close()


def test_a_table_whose_turn_is_not_the_plan_is_an_error(tmp_path: Path) -> None:
    ctl, _proc, j = table(tmp_path, RECS, TableRound("A", 3, 2, "3", "5", (1,)))
    people = People(lambda board, rnd: RECS[board].deal, random.Random(4))
    item = people.next_input(ctl.engine.state)          # the people plan the board
    plan = people.boards[0].plan
    assert plan.declarer is not None and item is not None
    other = plan.declarer.left                           # someone else's auction: another declarer, another leader
    seat = RECS[1].dealer
    while seat is not other:
        ctl.process(LawInput(CallMade(seat, "pass"), "camera"))
        seat = seat.left
    for call in ("1C", "pass", "pass", "pass"):
        ctl.process(LawInput(CallMade(seat, call), "camera"))
        seat = seat.left
    with pytest.raises(PeopleError, match="the table waits for .*'s card, the players' plan has"):
        people.next_input(ctl.engine.state)
    j.close()
