"""An event broadcast with no operator (``laws/broadcast/event_field.py``): the tables that play each board,
the rooms of a teams match and the names at each side, checked against the event itself: every round of
each kind played out through ``EventState`` (so the knock-out's and the Swiss's later draws are really
made), the tables each board was played at are the ones ``board_tables`` gave before any was played."""

from __future__ import annotations

import random

import pytest

from laws.broadcast.event_field import board_tables, event_rooms, matches_in, side_names
from laws.competition.event import EventState
from laws.competition.event_spec import EventKind, EventSpec, SectionSpec, section_numbers
from laws.competition.table_result import TableResult

SPECS = [
    EventSpec(EventKind.ROUND_ROBIN, 5, 5, 2),
    EventSpec(EventKind.KNOCKOUT, 6, 3, 3),
    EventSpec(EventKind.KNOCKOUT, 8, 3, 1),
    EventSpec(EventKind.SWISS_TEAMS, 7, 4, 2),
    EventSpec(EventKind.SWISS_PAIRS, 9, 4, 2),
    EventSpec(EventKind.INDIVIDUAL, 8, 7, 2),
    EventSpec(EventKind.SECTIONS, 16, 5, 3, sections=(SectionSpec("A", 5), SectionSpec("B", 3, "howell"))),
    EventSpec(EventKind.SECTIONS, 10, 5, 1, sections=(SectionSpec("A", 5, "barometer"),)),
]


def played(spec: EventSpec, seed: int = 1) -> dict[int, set[int]]:
    """Board -> the event tables it was really played at, every round played out with random results."""
    rng = random.Random(seed)
    state = EventState.opened(spec)
    out: dict[int, set[int]] = {}
    for r in range(1, spec.rounds + 1):
        for seat in state.draws[r].tables:
            for b in state.boards_at(r, seat.table):
                out.setdefault(b, set()).add(seat.table)
                tricks = rng.randint(5, 12)
                state.apply(TableResult(r, seat.table, b, "3NT", "N", tricks))
    return out


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.kind.value}-{s.entrants}")
def test_the_tables_of_each_board_are_those_the_event_really_seats(spec: EventSpec) -> None:
    assert {b: set(t) for b, t in board_tables(spec).items()} == played(spec)


def test_a_checker_that_is_wrong_is_caught() -> None:
    """The comparison above can fail: a knock-out taken as seating every table in every round is not what
    the event plays (round 2 of 8 teams is 2 matches, not 4)."""
    spec = EventSpec(EventKind.KNOCKOUT, 8, 3, 1)
    every = {b: set(range(1, 9)) for b in range(1, 4)}
    assert every != played(spec)
    assert [matches_in(spec, r) for r in (1, 2, 3)] == [4, 2, 1]
    assert [matches_in(EventSpec(EventKind.KNOCKOUT, 6, 3, 1), r) for r in (1, 2, 3)] == [2, 2, 1]


def test_a_teams_event_s_rooms_pair_its_tables() -> None:
    room, other = event_rooms(EventSpec(EventKind.SWISS_TEAMS, 7, 4, 2))
    assert room == {1: "o", 2: "c", 3: "o", 4: "c", 5: "o", 6: "c"}
    assert other == {1: 2, 2: 1, 3: 4, 4: 3, 5: 6, 6: 5}
    assert event_rooms(EventSpec(EventKind.SWISS_PAIRS, 8, 3, 2)) == ({}, {})


def test_the_names_at_each_side_are_keyed_as_the_tables_journal_their_sides() -> None:
    teams = EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2)
    named = {4: {"name": "Hearts", "players": [{"name": "Ann Lee"}, {"name": "Bo Kim"}]},
             2: {"name": "", "players": [{"name": "Cy Young"}]}}
    assert side_names(teams, named) == {"4": ("Hearts", "Hearts"), "2": ("Cy Young", "Cy Young")}
    pairs = EventSpec(EventKind.SWISS_PAIRS, 8, 3, 2)
    assert side_names(pairs, {3: {"players": [{"name": "Di Ross"}, {"name": "Ed Wu"}]}}) == {"3": ("Di Ross", "Ed Wu")}
    one = EventSpec(EventKind.INDIVIDUAL, 8, 7, 2)
    got = side_names(one, {8: {"players": [{"name": "Fay"}]}, 1: {"players": [{"name": "Gus"}]}})
    assert got["8-1"] == ("Fay", "Gus") and all("Fay" in v or "Gus" in v for v in got.values())
    section = EventSpec(EventKind.SECTIONS, 10, 5, 1, sections=(SectionSpec("A", 5),))
    assert side_names(section, {1: {"players": [{"name": "Hal"}, {"name": "Ivy"}]}}) == {"1 NS": ("Hal", "Ivy")}
    two = EventSpec(EventKind.SECTIONS, 16, 5, 3, sections=(SectionSpec("A", 5), SectionSpec("B", 3, "howell")))
    numbers = section_numbers(two)
    b3 = next(n for (sec, pair), n in numbers.items() if sec == "B" and pair.label.startswith("3"))
    a1 = next(n for (sec, pair), n in numbers.items() if sec == "A" and pair.label == "1 NS")
    got = side_names(two, {a1: {"players": [{"name": "Hal"}, {"name": "Ivy"}]},
                           b3: {"players": [{"name": "Jo"}, {"name": "Kay"}]}})
    label_b3 = next(pair.label for (sec, pair), n in numbers.items() if n == b3)
    assert got == {"A 1 NS": ("Hal", "Ivy"), f"B {label_b3}": ("Jo", "Kay")}
