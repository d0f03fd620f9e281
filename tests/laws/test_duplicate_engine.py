"""Duplicate bridge in the law engine (laws.games.duplicate_bridge): a board from its record, the auction
and play as bridge plays them, every card played against the record (the first wrong card ruled once, with
table, round, board and seats, whatever the misboarding), the director's decision, the board checked when
play ends, the duplicate score and its confirmation; a board the table's shoe deals; restarts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws import snapshot
from laws.cards import SEATS, Card, Seat, full_pack
from laws.duplicate.boards import vulnerability
from laws.duplicate.deal import Board, Deal
from laws.engine import LawEngine
from laws.events import (
    BoardPlaced,
    BoardShort,
    CardDealt,
    CardPlayed,
    DealEnded,
    DealStarted,
    FoulRuled,
    HandCounted,
    ResultConfirmed,
    event_from_dict,
    event_to_dict,
)
from laws.rulings import Remedy, Ruling
from laws.scoring.bridge import parse_contract
from laws.scoring.duplicate import board_score
from tests.laws.bridge_table import calls, feed, play_out

PACK = full_pack()


def _deal(seed: int) -> Deal:
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(seed).shuffle(seats)
    return Deal(tuple(seats))


def placed(board: Board, how: str = "board", table: int = 3, rnd: int = 2) -> BoardPlaced:
    return BoardPlaced(board.number, board.fingerprint, board.deal.pbn(), how=how, section="A", table=table,
                       round=rnd, ns="1", ew="11")


def hands_of(deal: Deal) -> dict[Seat, list[Card]]:
    return {s: list(deal.hand(s)) for s in SEATS}


def bid_3nt(eng: LawEngine, board: Board) -> list[Ruling]:
    return feed(eng, *calls(board.dealer, "3NT pass pass pass"))


def _one(rulings: list[Ruling], clause: str) -> list[Ruling]:
    return [r for r in rulings if r.clause == clause]


def test_DB_77_a_board_as_its_record_is_played_checked_scored_and_confirmed() -> None:
    board = Board.numbered(7, _deal(1))
    eng = LawEngine("duplicate-bridge")
    assert feed(eng, placed(board)) == []
    assert eng.state.phase.value == "auction" and eng.state.deal is not None
    assert eng.state.deal.dealer is board.dealer                     # DB-2: board 7 is dealt by South
    out = bid_3nt(eng, board) + play_out(eng, hands_of(board.deal), random.Random(2))
    assert not _one(out, "DB-87") and not [r for r in out if r.clause == "BP-61"]
    (checked,) = _one(out, "DB-7")
    assert checked.remedy is Remedy.CHECKED and checked.extra["verified"] is True
    assert checked.extra["record"] == board.fingerprint and checked.extra["table"] == 3
    (score,) = _one(out, "DB-77")
    tricks = score.extra["tricks"]
    want = board_score(parse_contract("3NT"), board.dealer, tricks, vulnerability(7))
    assert score.remedy is Remedy.SCORE and score.extra["score"] == want
    assert score.extra["contract"] == "3NT" and score.extra["declarer"] == board.dealer.value
    nxt = Board.numbered(8, _deal(2))
    with pytest.raises(ValueError, match="result is not confirmed"):
        eng.feed(placed(nxt))
    assert eng.feed(ResultConfirmed(Seat.S)) == []
    assert eng.feed(ResultConfirmed(Seat.N)) == []                    # one of each side: North-South done
    (done,) = eng.feed(ResultConfirmed(Seat.W))
    assert done.extra["confirmed"] == {"ns": "S", "ew": "W"} and done.extra["verified"] is True
    assert done.extra["ns"] == "1" and done.extra["score"] == want
    with pytest.raises(ValueError, match="confirmed already"):
        eng.feed(ResultConfirmed(Seat.E))
    assert feed(eng, placed(nxt)) == [] and eng.state.deal.dealer is Seat.W


def _fouled(deal: Deal, form: str, rng: random.Random) -> Deal:
    seats = list(deal.assignment())
    if form == "swapped":
        a, b = rng.sample(SEATS, 2)
        seats = [b if s is a else a if s is b else s for s in seats]
    elif form == "turned":
        k = rng.choice((1, 2, 3))
        seats = [SEATS[(SEATS.index(s) - k) % 4] for s in seats]
    else:
        i = rng.randrange(52)
        j = rng.choice([x for x in range(52) if seats[x] is not seats[i]])
        seats[i], seats[j] = seats[j], seats[i]
    return Deal(tuple(seats))


@settings(max_examples=60)
@given(st.integers(0, 10**6), st.sampled_from(("swapped", "turned", "moved")), st.integers(0, 10**6))
def test_DB_87_a_misboarded_board_is_ruled_at_its_first_wrong_card_and_only_there(seed: int, form: str, pseed: int) -> None:
    board = Board.numbered(5, _deal(seed))
    held = _fouled(board.deal, form, random.Random(seed + 1))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board, table=4, rnd=3))
    bid_3nt(eng, board)
    out = play_out(eng, hands_of(held), random.Random(pseed))      # the cards as held, legally
    plays = eng.state.deal.plays                                   # type: ignore[union-attr]
    first = next(i for i, (s, c) in enumerate(plays) if board.deal.holder(c) is not s)
    fouls = _one(out, "DB-87")
    assert len(fouls) == 1
    assert not [r for r in out if r.clause.startswith("BP-6")]     # a legal card of the hands as held: no revoke
    f = fouls[0]
    assert (f.extra["card"], f.extra["played_by"]) == (plays[first][1].code, plays[first][0].value)
    assert f.extra["record_seat"] == board.deal.holder(plays[first][1]).value
    assert (f.extra["board"], f.extra["table"], f.extra["round"]) == (5, 4, 3) and f.remedy is Remedy.ATTENTION
    assert set(f.extra["seats"]) == {f.extra["played_by"], f.extra["record_seat"]}
    assert f.extra["trick"] == first // 4 + 1
    (checked,) = _one(out, "DB-7")
    assert checked.extra["verified"] is False and form in checked.extra["forms"]
    assert len(plays) == 52 and _one(out, "DB-77")                 # no card refused, the board is scored


def test_DB_15_the_directors_decision_is_journaled_as_the_group_boundary_or_cancels_the_play() -> None:
    board = Board.numbered(2, _deal(3))
    held = _fouled(board.deal, "swapped", random.Random(4))
    for decision in ("fouled", "wrong_board"):
        eng = LawEngine("duplicate-bridge")
        eng.feed(placed(board))
        bid_3nt(eng, board)
        with pytest.raises(ValueError, match="no card"):
            eng.feed(FoulRuled(decision))
        out: list[Ruling] = []
        rng = random.Random(5)
        while not _one(out, "DB-87"):
            out += _continue(eng, held, rng)
        (ruled,) = eng.feed(FoulRuled(decision))
        assert ruled.extra["group_boundary"] is True and ruled.extra["board"] == 2 and ruled.extra["round"] == 2
        if decision == "fouled":
            assert (ruled.clause, ruled.remedy) == ("DB-87", Remedy.DEAL_STANDS)
        else:
            assert (ruled.clause, ruled.remedy) == ("DB-15", Remedy.REDEAL)
            assert eng.state.deal.void and eng.state.phase.value == "shuffle"      # type: ignore[union-attr]
            assert feed(eng, placed(board)) == [] and eng.state.phase.value == "auction"


def _continue(eng: LawEngine, held: Deal, rng: random.Random) -> list[Ruling]:
    """One more card, legal for the hands as held."""
    play = eng.state.deal.bridge.play                               # type: ignore[union-attr]
    seat = play.turn
    left = [c for c in held.hand(seat) if c not in play.played_by]
    led = play.current.suit_led
    options = [c for c in left if c.suit == led] or left
    return eng.feed(CardPlayed(seat, rng.choice(sorted(options))))


def test_DB_77_a_passed_out_board_scores_nothing_and_is_confirmed() -> None:
    board = Board.numbered(1, _deal(6))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board))
    out = feed(eng, *calls(board.dealer, "pass pass pass pass"))
    (score,) = _one(out, "DB-77")
    assert score.extra["contract"] == "Pass" and score.extra["score"] == 0
    eng.feed(ResultConfirmed(Seat.N))
    (done,) = eng.feed(ResultConfirmed(Seat.E))
    assert done.extra["contract"] == "Pass" and done.extra["verified"] is False


def test_DB_6_a_board_the_shoe_deals_is_checked_card_by_card() -> None:
    board = Board.numbered(3, _deal(7))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board, how="shoe"))
    assert eng.state.phase.value != "auction"
    out = feed(eng, DealStarted(board.dealer, "A1"))
    for card in PACK[:20]:
        out += eng.feed(CardDealt(board.deal.holder(card), card, False, "A1"))
    (short,) = eng.feed(BoardShort(tuple(PACK[20:])))
    assert short.clause == "DB-14" and short.extra["missing"][0] == PACK[20].code and len(short.extra["missing"]) == 32
    assert eng.state.phase.value == "dealing"
    for card in PACK[20:]:
        out += eng.feed(CardDealt(board.deal.holder(card), card, False, "A1"))
    out += eng.feed(DealEnded())
    assert out == [] and eng.state.phase.value == "auction"
    out = bid_3nt(eng, board) + play_out(eng, hands_of(board.deal), random.Random(8))
    assert _one(out, "DB-7")[0].extra["verified"] is True

    wrong = LawEngine("duplicate-bridge")
    wrong.feed(placed(board, how="shoe"))
    wrong.feed(DealStarted(board.dealer, "A1"))
    card = PACK[0]
    other = SEATS[(SEATS.index(board.deal.holder(card)) + 1) % 4]
    (remake,) = wrong.feed(CardDealt(other, card, False, "A1"))
    assert (remake.clause, remake.remedy) == ("DB-6", Remedy.REDEAL) and wrong.state.deal.void   # type: ignore[union-attr]


def test_DB_13_a_wrong_count_in_a_pocket_calls_the_director() -> None:
    board = Board.numbered(4, _deal(9))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board))
    assert eng.feed(HandCounted(Seat.N, 13)) == []
    (r,) = eng.feed(HandCounted(Seat.E, 12))
    assert (r.clause, r.remedy, r.seat) == ("DB-13", Remedy.ATTENTION, Seat.E) and r.extra["count"] == 12


def test_a_restart_mid_play_goes_on_to_the_same_end() -> None:
    board = Board.numbered(6, _deal(10))
    held = _fouled(board.deal, "moved", random.Random(11))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board))
    bid_3nt(eng, board)
    rng = random.Random(12)
    for _ in range(17):
        _continue(eng, held, rng)
    again = LawEngine("duplicate-bridge")
    again.restore(snapshot.loads(snapshot.dumps(eng.snapshot())))
    rest_a, rest_b = random.Random(13), random.Random(13)
    a = [r.to_dict() for _ in range(35) for r in _continue(eng, held, rest_a)]
    b = [r.to_dict() for _ in range(35) for r in _continue(again, held, rest_b)]
    assert a == b and any(r["clause"] == "DB-77" for r in a)


def test_duplicate_events_are_refused_elsewhere_and_round_trip_the_format() -> None:
    board = Board.numbered(9, _deal(14))
    with pytest.raises(ValueError, match="an event of duplicate bridge; this table plays Contract Bridge"):
        LawEngine("contract-bridge").feed(placed(board))
    for e in (placed(board), BoardShort((PACK[0], PACK[51])), FoulRuled("fouled"), ResultConfirmed(Seat.W)):
        assert event_from_dict(event_to_dict(e)) == e
    bad = event_to_dict(placed(board)) | {"record": "0" * 64}
    with pytest.raises(ValueError, match="not the fingerprint of its 'deal'"):
        event_from_dict(bad)


def test_DB_2_the_number_names_dealer_and_vulnerability_and_a_board_in_play_is_not_replaced() -> None:
    eng = LawEngine("duplicate-bridge")
    for n, dealer in ((1, Seat.N), (2, Seat.E), (3, Seat.S), (4, Seat.W), (5, Seat.N)):
        board = Board.numbered(n, _deal(n))
        assert eng.feed(placed(board)) == []                       # nothing called yet: may be replaced
        assert eng.state.deal.dealer is dealer and eng.state.deal.bridge.auction.dealer is dealer  # type: ignore[union-attr]
    eng.feed(calls(Seat.N, "pass")[0])
    with pytest.raises(ValueError, match="still in play"):
        eng.feed(placed(Board.numbered(6, _deal(6))))


def test_DB_14_a_shoe_that_stops_short_names_the_cards_not_placed() -> None:
    board = Board.numbered(11, _deal(15))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board, how="shoe"))
    eng.feed(DealStarted(board.dealer, "B1"))
    for card in PACK[:51]:
        eng.feed(CardDealt(board.deal.holder(card), card, False, "B1"))
    (r,) = eng.feed(DealEnded())                                   # a deal_end with a card short
    assert (r.clause, r.remedy) == ("DB-14", Remedy.ATTENTION) and r.extra["missing"] == [PACK[51].code]
    assert "the two of clubs is not in the pockets and no hand is too long" in r.reason


def test_DB_7_a_claim_leaves_cards_unseen_and_the_board_is_not_verified() -> None:
    from laws.events import ClaimAnswered, TricksClaimed

    board = Board.numbered(12, _deal(16))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board))
    bid_3nt(eng, board)
    play_out(eng, hands_of(board.deal), random.Random(17), tricks=3)
    declarer = board.dealer
    out = feed(eng, TricksClaimed(declarer, 5), ClaimAnswered(declarer.left, True))
    (checked,) = _one(out, "DB-7")
    assert checked.extra == checked.extra | {"verified": False, "seen": 12, "wrong": 0}
    assert "12 cards were seen, all from their record's seats, 40 not played" in checked.reason


def test_DB_6_a_board_short_naming_no_card_is_remade_from_its_record() -> None:
    """The shoe said the board is not whole but named no card missing: the pockets are not known
    (hardware/shoe/PROTOCOL.md 7.2), so it is dealt again from empty pockets, never finished from them."""
    board = Board.numbered(3, _deal(7))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board, how="shoe"))
    feed(eng, DealStarted(board.dealer, "A1"))
    for card in PACK[:30]:
        eng.feed(CardDealt(board.deal.holder(card), card, False, "A1"))
    (redeal,) = eng.feed(BoardShort(None))
    assert (redeal.clause, redeal.remedy.value, redeal.dealer) == ("DB-6", "redeal", board.dealer)
    assert eng.state.deal is not None and eng.state.deal.void and eng.state.phase.value == "shuffle"
    assert event_from_dict({"type": "board_short"}) == BoardShort(None) == event_from_dict(event_to_dict(BoardShort(None)))


@pytest.mark.parametrize("cards", [0, 1])
def test_DB_7_a_typed_result_is_checked_before_it_is_scored_with_or_without_a_card_played(cards: int) -> None:
    """docs/events.md (duplicate, "When play ends"): a typed ``result`` gives ``checked`` ``DB-7`` and then
    ``score`` ``DB-77``. With a card played the result ended play and the check came; with none (the table
    still in its auction phase after the close) only the score came, and the confirmed board's
    ``verified`` was never said."""
    board = Board.numbered(1, _deal(3))
    eng = LawEngine("duplicate-bridge")
    feed(eng, placed(board))
    bid_3nt(eng, board)
    leader = board.dealer.left
    if cards:
        feed(eng, CardPlayed(leader, board.deal.hand(leader)[0]))
    out = eng.feed(event_from_dict({"type": "result", "tricks": 9}))
    assert [(r.remedy, r.clause) for r in out] == [(Remedy.CHECKED, "DB-7"), (Remedy.SCORE, "DB-77")]
    checked = out[0]
    assert checked.extra["verified"] is False and checked.extra["seen"] == cards and checked.extra["wrong"] == 0


def test_DB_7_a_refused_typed_result_checks_nothing() -> None:
    """A typed result the engine refuses (no auction recorded, no contract named) leaves the board unchecked."""
    board = Board.numbered(1, _deal(3))
    eng = LawEngine("duplicate-bridge")
    feed(eng, placed(board))
    with pytest.raises(ValueError, match="needs declarer and contract"):
        eng.feed(event_from_dict({"type": "result", "tricks": 9}))
    out = eng.feed(event_from_dict({"type": "result", "tricks": 9, "declarer": "N", "contract": "3NT"}))
    assert [(r.remedy, r.clause) for r in out] == [(Remedy.CHECKED, "DB-7"), (Remedy.SCORE, "DB-77")]
