"""Hand records as values: a deal, a board checked against DB-2, the fingerprint and the commitment."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws.cards import SEATS, Card, Seat, full_pack
from laws.duplicate.boards import Vulnerability
from laws.duplicate.deal import (
    COMMITMENT_HEADER,
    Board,
    Deal,
    board_hash,
    board_index,
    card_index,
    check_board,
    check_index,
    commitment,
    commitment_text,
    verify_commitment,
)

# Big Deal 1.2's output of two boards (richardschneider/pbn, test/sample/big-deal.pbn: the same two
# boards it also writes as BRI and DUP; the host tests use those layouts).
BOARD_1 = "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84"
BOARD_2 = "N:AKQ984.KQT7..Q83 7.J63.AJT82.A754 532.854.Q43.KT62 JT6.A92.K9765.J9"
# Worked out with coreutils, independently of this code (docs/handrecords.md shows the commands):
# printf '%s' "$BOARD_1" | sha256sum, and the two-board commitment text through sha256sum.
FINGERPRINT_1 = "66f31073e14ab3126bdac8b8708495578402357394fdf15c6c33d9a30d5f3de8"
FINGERPRINT_2 = "4e0a2a8155a0a93b1fa0d2b26379c487313316fc1481fc653896108a256b2886"
COMMITMENT_1_2 = "4c0b4246d4014d891cabe18807a6f496fc4fb5bcba54f608d28c8d2fcbed174e"
# printf '%s' "1 N None $BOARD_1" | sha256sum (board 1's entry in the commitment's index)
HASH_1 = "0e3b78a8d968b25bc6612bb96a19317537da6057cb4304bcc33a614c2f00e730"
HASH_2 = "adf2b6aba322745c92ece59fde5f1fbc3dc3969a66b4453eb020f69d69ffe0ee"

deals = st.permutations(list(SEATS) * 13).map(Deal.from_assignment)


def test_card_numbers_are_duplimates() -> None:
    # Duplimate numbers the ace of spades 01 and the two of clubs 52, suits S, H, D, C.
    assert card_index(Card("A", "S")) == 0
    assert card_index(Card("2", "S")) == 12
    assert card_index(Card("A", "H")) == 13
    assert card_index(Card("2", "C")) == 51
    assert [card_index(c) for c in full_pack()] == list(range(52))


def test_a_known_deal() -> None:
    d = Deal.from_pbn(BOARD_1)
    assert d.hand(Seat.N)[:3] == (Card("A", "S"), Card("J", "S"), Card("9", "S"))
    assert d.holder(Card("K", "S")) is Seat.E
    assert d.holder(Card("Q", "S")) is Seat.S
    assert d.holder(Card("2", "C")) is Seat.S
    assert d.holder(Card("4", "C")) is Seat.W
    assert d.pbn() == BOARD_1
    assert d.pbn(Seat.S) == "S:QT6543.AT.JT.T62 872.83.A542.QJ84 AJ9.K9542.Q.AK93 K.QJ76.K98763.75"
    assert Deal.from_pbn(d.pbn(Seat.W)) == d
    assert d.pbn_hand(Seat.N) == "AJ9.K9542.Q.AK93"
    assert Deal.from_pbn(BOARD_2).pbn_hand(Seat.N) == "AKQ984.KQT7..Q83"  # a void


def test_fingerprint_is_sha256_of_the_pbn_from_north() -> None:
    assert Deal.from_pbn(BOARD_1).fingerprint == FINGERPRINT_1
    assert Deal.from_pbn(BOARD_2).fingerprint == FINGERPRINT_2
    assert Board.numbered(1, Deal.from_pbn(BOARD_1)).fingerprint == FINGERPRINT_1


@given(deals)
def test_every_view_of_a_deal_agrees(d: Deal) -> None:
    for seat in SEATS:
        hand = d.hand(seat)
        assert len(hand) == 13
        assert all(d.holder(c) is seat for c in hand)
        assert list(hand) == sorted(hand, key=card_index)
        assert Deal.from_pbn(d.pbn(seat)) == d
    assert Deal.from_assignment(d.assignment()) == d
    assert Deal.from_hands({s: d.hand(s) for s in SEATS}) == d
    assert d.fingerprint == hashlib.sha256(d.pbn().encode()).hexdigest()


@given(deals, deals)
def test_different_deals_have_different_fingerprints(a: Deal, b: Deal) -> None:
    assert (a == b) == (a.fingerprint == b.fingerprint)


@pytest.mark.parametrize("text, message", [
    ("N:AJ9.K9542.Q.AK9 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84", "North holds 12 cards"),
    ("N:AJ9.K9542.Q.AK93 A.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84",
     "the ace of spades is in North's and East's hands"),
    ("N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84 AK.Q.J.T", "5 hands"),
    ("N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 -", "West's hand is '-'"),
    ("N:AJ9.K9542.QAK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84", "North's hand 'AJ9.K9542.QAK93' has 3 suits"),
    ("N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ8X", "'X' is not a rank"),
    ("AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84", "first seat and a colon"),
    ("N:AAJ.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84",
     "the ace of spades is 2 times in North's hand"),
])
def test_refused_deals_name_the_seat(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        Deal.from_pbn(text)


def test_the_missing_card_is_named() -> None:
    with pytest.raises(ValueError, match="the three of clubs is in no hand"):
        Deal.from_pbn("N:AJ9.K9542.Q.AK9 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84")


def test_assignments_are_checked() -> None:
    with pytest.raises(ValueError, match="North holds 14 cards; East holds 12 cards"):
        Deal.from_assignment([Seat.N] * 14 + [Seat.E] * 12 + [Seat.S] * 13 + [Seat.W] * 13)
    with pytest.raises(ValueError, match="52 cards, got 51"):
        Deal.from_assignment([Seat.N] * 13 + [Seat.E] * 13 + [Seat.S] * 13 + [Seat.W] * 12)
    with pytest.raises(ValueError, match="'X' is not a seat"):
        Deal.from_assignment(["X"] + ["N"] * 51)
    assert Deal.from_assignment("NESW" * 13).holder(Card("K", "S")) is Seat.E


def test_boards_agree_with_db2() -> None:
    d = Deal.from_pbn(BOARD_1)
    assert Board(5, Seat.N, Vulnerability.NS, d).vulnerability is Vulnerability.NS
    assert Board(6, "E", "EW", d).dealer is Seat.E  # type: ignore[arg-type]  # strings are read too
    with pytest.raises(ValueError, match=r"board 5 is dealt by N \(Duplicate Bridge, law 2\), not S"):
        Board(5, Seat.S, Vulnerability.NS, d)
    with pytest.raises(ValueError, match=r"board 5 has North-South vulnerable \(Duplicate Bridge, law 2\), not EW"):
        Board(5, Seat.N, Vulnerability.EW, d)
    with pytest.raises(ValueError, match="board number"):
        Board.numbered(0, d)
    with pytest.raises(ValueError, match="'Q' is not a seat"):
        Board(1, "Q", Vulnerability.NONE, d)  # type: ignore[arg-type]


def test_commitment_worked_example() -> None:
    boards = [Board.numbered(2, Deal.from_pbn(BOARD_2)), Board.numbered(1, Deal.from_pbn(BOARD_1))]
    text = commitment_text(boards)
    assert COMMITMENT_HEADER == "cardtable hand records 2"
    assert [b.commitment_line() for b in sorted(boards, key=lambda b: b.number)] == [
        f"1 N None {BOARD_1}", f"2 E NS {BOARD_2}"]
    assert board_index(boards) == ((1, HASH_1), (2, HASH_2))
    assert text == f"{COMMITMENT_HEADER}\n1 {HASH_1}\n2 {HASH_2}\n" and len(text) == 159
    assert commitment(boards) == COMMITMENT_1_2
    assert verify_commitment(boards, COMMITMENT_1_2)
    assert verify_commitment(list(reversed(boards)), "  " + COMMITMENT_1_2.upper() + "\n")
    assert not verify_commitment(boards[:1], COMMITMENT_1_2)
    assert not verify_commitment(boards, "0" * 64)
    assert not verify_commitment(boards, None)  # type: ignore[arg-type]


@given(deals, st.integers(0, 51), st.sampled_from(SEATS))
def test_moving_one_card_changes_the_commitment(d: Deal, i: int, seat: Seat) -> None:
    seats = list(d.assignment())
    j = next(k for k, s in enumerate(seats) if s is not seats[i]) if seat is seats[i] else \
        next(k for k, s in enumerate(seats) if s is seat)
    seats[i], seats[j] = seats[j], seats[i]  # swap two cards between two hands
    other = Deal.from_assignment(seats)
    assert commitment([Board.numbered(1, other)]) != commitment([Board.numbered(1, d)])
    assert not verify_commitment([Board.numbered(1, other)], commitment([Board.numbered(1, d)]))


def test_each_board_checks_alone_against_the_commitment() -> None:
    b1, b2 = Board.numbered(1, Deal.from_pbn(BOARD_1)), Board.numbered(2, Deal.from_pbn(BOARD_2))
    index = board_index([b1, b2])
    assert check_board(b1, index, COMMITMENT_1_2) == "" and check_board(b2, index, COMMITMENT_1_2) == ""
    # the checker fails on broken inputs: a board altered, another number, an index or a root altered
    swapped = Deal.from_pbn("N:K.QJ76.K98763.75 AJ9.K9542.Q.AK93 QT6543.AT.JT.T62 872.83.A542.QJ84")
    assert "does not match the commitment" in check_board(Board.numbered(1, swapped), index, COMMITMENT_1_2)
    assert "does not match" in check_board(Board.numbered(2, Deal.from_pbn(BOARD_1)), index, COMMITMENT_1_2)
    assert "not in the committed boards" in check_board(Board.numbered(3, swapped), index, COMMITMENT_1_2)
    forged = ((1, HASH_1), (2, board_hash(Board.numbered(2, swapped))))
    assert "does not hash to the commitment" in check_board(b1, forged, COMMITMENT_1_2)
    assert "does not hash" in check_board(b1, index, "0" * 64)
    assert "do not rise" in check_index(((2, HASH_2), (1, HASH_1)), COMMITMENT_1_2)
    assert "not a SHA-256" in check_index(((1, HASH_1.upper()), (2, HASH_2)), COMMITMENT_1_2)


def test_commitment_refuses_a_board_twice_and_no_boards() -> None:
    b = Board.numbered(3, Deal.from_pbn(BOARD_1))
    with pytest.raises(ValueError, match="board 3 appears twice"):
        commitment([b, b])
    with pytest.raises(ValueError, match="no boards"):
        commitment([])
