"""Every card of a board against its record (laws.duplicate.check): the first wrong card of every kind of
misboarding, in whatever order the cards are seen; no foul from a board as its record says; the board
verified only with all 52 seen where the record puts them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import SEATS, Card, Seat, full_pack
from laws.duplicate.check import RecordCheck, first_foul
from laws.duplicate.deal import Board, Deal, card_index

PACK = full_pack()


def _deal(seed: int) -> Deal:
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(seed).shuffle(seats)
    return Deal(tuple(seats))


def _held(deal: Deal, form: str, rng: random.Random) -> Deal:
    """A copy of ``deal`` as a misboarded board holds it (the test's own transformations)."""
    seats = list(deal.assignment())
    if form == "swapped":
        a, b = rng.sample(SEATS, 2)
        seats = [b if s is a else a if s is b else s for s in seats]
    elif form == "turned":
        k = rng.choice((1, 2, 3))
        seats = [SEATS[(SEATS.index(s) - k) % 4] for s in seats]   # seat p now holds record seat p + k
    elif form == "moved":
        i = rng.randrange(52)
        j = rng.choice([x for x in range(52) if seats[x] is not seats[i]])
        seats[i], seats[j] = seats[j], seats[i]
    return Deal(tuple(seats))


def _order(deal: Deal, rng: random.Random) -> list[tuple[Seat, Card]]:
    cards = [(deal.holder(c), c) for c in PACK]
    rng.shuffle(cards)
    return cards


@settings(max_examples=150)
@given(st.integers(0, 10**6), st.sampled_from(("swapped", "turned", "moved")), st.integers(0, 10**6))
def test_every_misboarding_is_caught_at_its_first_wrong_card(seed: int, form: str, order_seed: int) -> None:
    rng = random.Random(order_seed)
    board = Board.numbered(7, _deal(seed))
    held = _held(board.deal, form, rng)
    cards = _order(held, rng)
    want = next(i for i, (seat, card) in enumerate(cards) if board.deal.holder(card) is not seat)
    check = RecordCheck(board)
    fouls = [(i, f) for i, (seat, card) in enumerate(cards) if (f := check.see(seat, card)) is not None]
    assert [i for i, _ in fouls] == [want]                          # ruled once, at the first wrong card
    foul = fouls[0][1]
    assert (foul.card, foul.seen_at) == (cards[want][1], cards[want][0])
    assert foul.record_seat is board.deal.holder(foul.card) and foul.index == want + 1
    assert set(foul.seats) == {foul.seen_at, foul.record_seat}
    assert not check.verified() and form in check.forms()
    assert check.played_deal() == held and check.played_deal().fingerprint != board.fingerprint


@settings(max_examples=50)
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_a_board_as_its_record_gives_no_foul_and_verifies_only_when_whole(seed: int, order_seed: int) -> None:
    board = Board.numbered(3, _deal(seed))
    cards = _order(board.deal, random.Random(order_seed))
    check = RecordCheck(board)
    for n, (seat, card) in enumerate(cards, 1):
        assert check.see(seat, card) is None
        assert check.verified() is (n == 52)
    assert check.forms() == () and check.played_deal() == board.deal
    assert check.summary() == "the cards agree with the hand record"


def test_swapped_hands_and_a_turned_board_are_told_apart_once_the_cards_show_it() -> None:
    board = Board.numbered(1, _deal(5))
    d = board.deal
    ns_swapped = Deal(tuple({Seat.N: Seat.S, Seat.S: Seat.N}.get(s, s) for s in d.assignment()))
    check = RecordCheck(board)
    for seat in SEATS:
        for card in ns_swapped.hand(seat):
            check.see(seat, card)
    # North and South swapped is also the board turned by two quarters... but East and West kept theirs
    assert check.swapped_pair() == (Seat.N, Seat.S) and check.turn() is None
    assert check.summary() == "North and South hold each other's hands"
    assert check.differing() == (Seat.N, Seat.S)

    turned = Deal(tuple(SEATS[(SEATS.index(s) + 2) % 4] for s in d.assignment()))
    t = RecordCheck(board)
    for seat in SEATS:
        for card in turned.hand(seat):
            t.see(seat, card)
    assert t.turn() == 2 and t.swapped_pair() is None and t.differing() == SEATS
    assert t.summary().startswith("the board was turned round (North holds South's hand")


def test_one_card_moved_names_both_seats_and_only_those() -> None:
    board = Board.numbered(9, _deal(8))
    d = board.deal
    a = next(c for c in PACK if d.holder(c) is Seat.E)
    b = next(c for c in PACK if d.holder(c) is Seat.W)
    seats = list(d.assignment())
    seats[card_index(a)], seats[card_index(b)] = Seat.W, Seat.E
    held = Deal(tuple(seats))
    cards = [(held.holder(c), c) for c in PACK]
    foul = first_foul(board, cards)
    assert foul is not None and foul.card == a and foul.seen_at is Seat.W and foul.record_seat is Seat.E
    assert foul.seats == (Seat.E, Seat.W) and foul.trick == (foul.index - 1) // 4 + 1
    assert foul.words == f"Board 9: West played the {a.name}, which the hand record gives to East"


def test_a_card_seen_twice_is_counted_apart_and_never_verifies() -> None:
    board = Board.numbered(2, _deal(1))
    check = RecordCheck(board)
    card = PACK[0]
    assert check.see(board.deal.holder(card), card) is None
    assert check.see(board.deal.holder(card), card) is None
    assert check.again == 1 and len(check.seen) == 1 and not check.verified()


@pytest.mark.parametrize("broken", ["swap_two_cards", "drop_a_card"])
def test_the_check_fails_on_a_broken_board(broken: str) -> None:
    """The checker shown to fail: a board whose cards differ from its record never verifies."""
    board = Board.numbered(4, _deal(2))
    cards = [(board.deal.holder(c), c) for c in PACK]
    if broken == "swap_two_cards":
        i = next(k for k in range(52) if cards[k][0] is not cards[0][0])
        cards[0], cards[i] = (cards[i][0], cards[0][1]), (cards[0][0], cards[i][1])
    else:
        cards.pop(17)
    check = RecordCheck(board)
    for seat, card in cards:
        check.see(seat, card)
    assert not check.verified()
    assert (check.foul is not None) is (broken == "swap_two_cards")
