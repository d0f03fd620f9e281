"""The boards in the room of a simulated evening (``firmware_host.evening.boards``): a misboarded copy is
the record with exactly the change it says (two cards in each other's pockets, or two hands swapped), the
players hold it from its round on (every table after it when it travels, only its table when each has its
own), and the world never chooses a misboarding nobody would play a card of."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from firmware_host.evening.boards import BoardRoom, choose_misboardings, moved, played_out, swapped
from firmware_host.players import hcp
from laws.cards import SEATS, full_pack
from laws.duplicate.deal import Board, Deal
from laws.session.duplicate.spec import build_movement


def records(count: int, seed: int = 1) -> dict[int, Board]:
    rng = random.Random(seed)
    out = {}
    for n in range(1, count + 1):
        seats = [SEATS[k % 4] for k in range(52)]
        rng.shuffle(seats)
        out[n] = Board.numbered(n, Deal(tuple(seats)))
    return out


def flat(number: int) -> Board:
    """A board nobody opens: every hand one ace, one king, one queen and one knave (ten points each)."""
    deal = Deal(tuple(SEATS[i % 4] for i in range(52)))    # a suit's 13 cards: its A K Q J to four seats
    assert all(hcp(deal.hand(s)) == 10 for s in SEATS)
    return Board.numbered(number, deal)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(("moved", "swapped")))
def test_a_misboarded_copy_is_the_record_with_exactly_its_change(seed: int, kind: str) -> None:
    recs = records(1, seed)
    assume(played_out(recs[1].deal))          # a board the record passes out is never misboarded
    room = BoardRoom(recs)
    m = room.misboard(1, 2, 5, kind, random.Random(seed))
    record, copy = recs[1].deal, room.held(1, 5, 2)
    differ = [c for c in full_pack() if record.holder(c) is not copy.holder(c)]
    assert played_out(copy) and m.table == 0 and m.from_round == 2 and m.kind == kind
    if kind == "moved":
        a, b = m.cards
        assert sorted(differ) == sorted((a, b)) and copy.holder(a) is record.holder(b)
        assert copy == moved(record, a, b) and "in each other's pockets" in m.words()
    else:
        one, other = m.seats
        assert copy.hand(one) == record.hand(other) and copy.hand(other) == record.hand(one)
        assert len(differ) == 26 and copy == swapped(record, one, other) and "hands swapped" in m.words()


def test_the_players_hold_a_travelling_copy_wrong_from_its_round_and_a_tables_own_copy_only_there() -> None:
    recs = records(2)
    travelling = BoardRoom(recs)
    travelling.misboard(1, 3, 4, "moved", random.Random(1))
    assert travelling.held(1, 4, 2) == recs[1].deal                  # before its round: as the record
    assert travelling.held(1, 4, 3) != recs[1].deal
    assert travelling.held(1, 7, 5) == travelling.held(1, 4, 3)       # it travels: every table after it
    assert travelling.held(2, 4, 3) == recs[2].deal                   # another board is untouched
    own = BoardRoom(recs, per_table=True)
    m = own.misboard(1, 3, 4, "swapped", random.Random(1))
    assert m.table == 4 and own.held(1, 4, 3) != recs[1].deal
    assert own.held(1, 5, 3) == recs[1].deal                          # the next table's own copy is right
    assert "table 4's copy from round 3" in m.words()


def test_a_misboarding_nobody_would_play_is_refused_and_an_unknown_kind_named() -> None:
    room = BoardRoom({1: flat(1)})
    assert not played_out(flat(1).deal)
    with pytest.raises(ValueError, match="no swapped copy of it would be played"):
        room.misboard(1, 1, 1, "swapped", random.Random(1))          # the same four hands: still passed out
    m = room.misboard(1, 1, 1, "moved", random.Random(1))              # a card moved can make an opening
    assert played_out(room.held(1, 1, 1)) and m.kind == "moved"
    with pytest.raises(ValueError, match="one of moved, swapped, not 'turned'"):
        room.misboard(1, 1, 1, "turned", random.Random(1))


def test_the_world_chooses_boards_that_are_played_out_and_travel_from_a_round_after_their_first() -> None:
    movement = build_movement({"kind": "mitchell", "tables": 4, "boards_per_round": 2})
    recs = records(8, seed=3)
    recs[5] = flat(5)
    room = BoardRoom(recs)
    chosen = choose_misboardings(room, movement, 7, random.Random(2))
    assert sorted(m.board for m in chosen) == [1, 2, 3, 4, 6, 7, 8]    # never board 5: nobody opens it
    for m in chosen:
        first = min(s.round for s in movement.seatings if s.played and m.board in movement.boards_of(s.group))
        assert m.from_round > first and m.table == 0
    with pytest.raises(ValueError, match="--foul 8: only 7 of the session's boards would be played"):
        choose_misboardings(BoardRoom(recs), movement, 8, random.Random(2))


def test_a_barometers_misboarding_is_one_tables_own_copy_at_the_round_it_plays_it() -> None:
    movement = build_movement({"kind": "barometer", "tables": 3, "boards_per_round": 1})
    room = BoardRoom(records(3, seed=4), per_table=True)
    (m,) = choose_misboardings(room, movement, 1, random.Random(5), kinds=("swapped",))
    plays = {(s.round, s.table) for s in movement.seatings if s.played and m.board in movement.boards_of(s.group)}
    assert (m.from_round, m.table) in plays and m.kind == "swapped"
    assert [room.held(m.board, t, m.from_round) != room.records[m.board].deal for t in (1, 2, 3)].count(True) == 1
