"""The auction model (laws/bridge/calls.py, auction.py, pbn.py) against docs/laws.md's BP- rows of the auction:
each test is named after the row it checks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws import snapshot
from laws.bridge.auction import Auction, AuctionError
from laws.bridge.calls import (
    DOUBLE,
    PASS,
    REDOUBLE,
    BidAboveSeven,
    Call,
    CallError,
    bid,
    bid_of_rank,
    lowest_sufficient,
    parse_call,
)
from laws.bridge.pbn import read_auction
from laws.bridge.verdicts import REST, CallIrregularity
from laws.cards import Seat
from laws.scoring.bridge import Contract
from tests.laws.bridge_deals import SCHIPHOL_AUCTION

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def run(dealer: Seat, *calls: str, rubber: bool = False) -> Auction:
    """An auction of legal calls in rotation from ``dealer`` (a rubber table's when ``rubber``)."""
    a = Auction(dealer, rubber=rubber)
    for text in calls:
        seat = a.turn
        assert seat is not None, "the auction closed early"
        a.add(seat, parse_call(text))
    return a


# -- calls ----------------------------------------------------------------------------------------

def test_parse_call_reads_event_and_pbn_spellings() -> None:
    assert parse_call("1C") == bid(1, "C")
    assert parse_call("7NT") == parse_call("7N") == bid(7, "NT")
    assert parse_call("pass") == parse_call("Pass") == PASS
    assert parse_call("double") == parse_call("X") == DOUBLE
    assert parse_call("redouble") == parse_call("XX") == REDOUBLE
    assert [c.pbn for c in (bid(3, "NT"), PASS, DOUBLE, REDOUBLE)] == ["3NT", "Pass", "X", "XX"]
    assert [c.code for c in (bid(3, "NT"), PASS, DOUBLE, REDOUBLE)] == ["3NT", "pass", "double", "redouble"]
    assert bid(1, "H").words == "one heart" and bid(4, "S").words == "four spades"


def test_parse_call_refuses_in_players_words() -> None:
    with pytest.raises(BidAboveSeven, match="there is no eight-level contract"):
        parse_call("8C")
    with pytest.raises(CallError, match="zero-level"):
        parse_call("0S")
    with pytest.raises(CallError, match="not a call"):
        parse_call("1Z")
    with pytest.raises(CallError, match="all pass"):
        parse_call("AP")
    with pytest.raises(CallError):
        Call(PASS.kind, 1, "C")


def test_BP_18_bids_rank_by_level_then_strain() -> None:
    bids = [bid_of_rank(r) for r in range(35)]
    assert [b.code for b in bids[:6]] == ["1C", "1D", "1H", "1S", "1NT", "2C"]
    assert all(parse_call(b.code).rank == i for i, b in enumerate(bids))
    assert lowest_sufficient("C", bid(1, "H")) == bid(2, "C")
    assert lowest_sufficient("S", bid(1, "H")) == bid(1, "S")
    assert lowest_sufficient("H", bid(7, "NT")) is None


# -- rotation and the close -------------------------------------------------------------------------

def test_BP_17_dealer_calls_first_then_clockwise() -> None:
    a = Auction(S)
    seen = []
    for text in ("pass", "1H", "pass"):
        seen.append(a.turn)
        a.add(a.turn or S, parse_call(text))
    assert seen == [S, W, N] and a.turn == E


def test_BP_22_four_passes_pass_the_board_out() -> None:
    a = run(E, "pass", "pass", "pass")
    assert not a.closed and a.turn == N
    a.add(N, PASS)
    assert a.closed and a.passed_out and a.contract() is None
    assert a.declarer is None and a.turn is None


def test_BP_22_a_turn_lost_to_a_pass_out_of_rotation_keeps_the_auction_open() -> None:
    """North's pass at West's turn, accepted, is the third pass after one spade, but West lost his turn to
    it: the auction does not close, it goes back to West (2017 law 17E2; the rubber code's law 34)."""
    for rubber in (False, True):
        a = run(N, "1S", "pass", "pass")
        a.accept(N, PASS)                       # at West's turn (North's right-hand opponent)
        assert not a.closed and a.turn == W, rubber
        assert a.reopened is not None and (a.reopened.offender, a.reopened.deprived) == (N, W)
        a.add(W, PASS)
        assert a.closed and a.contract() == Contract(1, "S") and a.declarer == N


def test_pbn_a_turn_given_back_keeps_each_call_in_its_callers_column() -> None:
    """After law 17E2 gives West his turn back, West's pass is written in West's column (the columns it
    went back past are ``^S``), and PBN reads the same auction back."""
    a = run(N, "1S", "pass", "pass")
    a.accept(N, PASS)
    a.add(W, PASS)
    lines = a.pbn_lines()
    assert lines[1:] == ["1S Pass Pass ^S", "Pass ^S ^S Pass"]
    back = read_auction("\n".join(lines[1:]), N)
    assert [(c.seat, c.call.code) for c in back.calls] == [(c.seat, c.call.code) for c in a.calls]
    assert back.closed and back.declarer == N


def test_BP_22_four_passes_with_one_out_of_rotation_do_not_pass_the_board_out() -> None:
    """West passes at South's turn and North's pass accepts it: four passes, but South never called. The
    auction goes back to South and North's pass after West's is cancelled (law 17E2)."""
    a = run(N, "pass", "pass")
    a.accept(W, PASS)
    assert not a.closed and a.turn == N
    a.add(N, PASS)
    assert not a.closed and a.turn == S and [c.seat for c in a.calls] == [N, E, W]
    assert a.reopened is not None and a.reopened.cancelled == [(N, "pass")]
    a.add(S, parse_call("1C"))
    assert a.turn == W and not a.closed


def test_BP_22_one_club_and_three_passes_dealer_declares() -> None:
    a = run(N, "1C", "pass", "pass", "pass")
    assert a.contract() == Contract(1, "C") and a.declarer == N
    assert a.dummy == S and a.opening_leader == E


def test_BP_22_declarer_is_first_of_the_side_to_name_the_strain() -> None:
    a = run(N, "1H", "pass", "4H", "pass", "pass", "pass")
    assert a.declarer == N and a.contract() == Contract(4, "H")
    b = run(N, "1C", "1H", "pass", "2H", "pass", "4H", "pass", "pass", "pass")
    assert b.declarer == E                         # West raised East's hearts: East named them first


def test_BP_22_doubling_of_the_final_contract() -> None:
    assert run(N, "1H", "double", "redouble", "pass", "pass", "pass").contract() == Contract(1, "H", 2)
    assert run(N, "1H", "double", "2H", "pass", "pass", "pass").contract() == Contract(2, "H", 0)
    assert run(N, "1H", "pass", "pass", "double", "pass", "pass", "pass").contract() == Contract(1, "H", 1)


def test_BP_22_the_contract_is_asked_only_after_the_close() -> None:
    with pytest.raises(AuctionError, match="not over"):
        run(N, "1H").contract()


def test_BP_19_double_and_redouble_when_allowed() -> None:
    a = run(N, "1H", "pass", "pass")
    assert a.judge(W, DOUBLE).legal                # an opponent of the bidder, passes between
    a.add(W, DOUBLE)
    assert a.judge(N, REDOUBLE).legal              # the doubled side redoubles
    assert not a.judge(N, DOUBLE).legal


# -- BP-27 insufficient bid -------------------------------------------------------------------------

def test_BP_27_insufficient_bid_names_the_lowest_sufficient_bid() -> None:
    a = run(N, "1H")
    v = a.judge(E, bid(1, "C"))
    assert v.kind is CallIrregularity.INSUFFICIENT and v.clause == "BP-27"
    assert v.lowest_sufficient == bid(2, "C")
    assert "the lowest sufficient bid in clubs is two clubs" in v.reason
    assert v.accept_by == S
    codes = {o.code: o for o in v.options}
    assert list(codes) == ["accept", "lowest_sufficient", "comparable", "other"]
    assert codes["lowest_sufficient"].call == bid(2, "C") and codes["lowest_sufficient"].bars == ()
    assert codes["other"].bars == ((W, REST),) and codes["other"].lead_restrictions
    assert len(a.calls) == 1 and a.turn == E       # judging changed nothing


def test_BP_27_accepted_insufficient_bid_is_the_bid_to_beat() -> None:
    a = run(N, "1H")
    a.accept(E, bid(1, "C"))
    assert a.turn == S and a.calls[-1].accepted is CallIrregularity.INSUFFICIENT
    assert a.judge(S, bid(1, "D")).legal            # one diamond beats the accepted one club
    a.add(S, bid(1, "D"))
    assert a.pbn_lines()[1] == "1H ^I 1C 1D +"


def test_BP_27_cancelled_the_offender_calls_again_and_partner_is_barred() -> None:
    a = run(N, "1H")
    v = a.cancel(E, bid(1, "C"))
    assert a.turn == E and len(a.calls) == 1 and a.cancelled == [(E, "1C", "BP-27")]
    a.add(E, bid(2, "D"))                         # not the lowest in clubs: "other" -> partner barred
    a.bar(W, "rest")
    assert v.options[-1].bars == ((W, REST),)
    a.add(S, PASS)
    barred = a.judge(W, bid(2, "S"))
    assert barred.kind is CallIrregularity.INADMISSIBLE and barred.detail == "must_pass"
    a.add(W, PASS)
    a.add(N, bid(3, "H"))
    a.add(E, PASS)
    a.add(S, PASS)
    assert not a.judge(W, DOUBLE).legal and a.bars == {W: REST}


def test_BP_27_no_sufficient_bid_in_the_strain() -> None:
    v = run(N, "7NT").judge(E, bid(7, "S"))
    assert v.lowest_sufficient is None and "no bid in spades is high enough" in v.reason
    assert [o.code for o in v.options] == ["accept", "comparable", "other"]


# -- BP-28-32 calls out of rotation ---------------------------------------------------------------

def test_BP_28_32_pass_out_of_rotation_at_rho_turn() -> None:
    a = run(N, "1H")                               # East to call; South passes at his RHO's turn
    v = a.judge(S, PASS)
    assert v.kind is CallIrregularity.OUT_OF_ROTATION and v.clause == "BP-28-32"
    assert (v.detail, v.position, v.turn, v.accept_by) == ("pass_at_rho", "rho", E, W)
    assert [o.code for o in v.options] == ["accept", "pass_next"]
    assert v.options[1].bars == ((S, 1),)
    a.cancel(S, PASS)
    assert a.turn == E                             # reverts to the player whose turn it was
    a.bar(S, 1)
    a.add(E, PASS)
    assert a.judge(S, bid(2, "H")).detail == "must_pass"
    a.add(S, PASS)
    assert S not in a.bars                         # one turn passed: the bar is spent


def test_BP_28_32_bid_out_of_rotation_at_partner_turn_rubber() -> None:
    a = Auction(N, rubber=True)                     # the rubber code's law 31: the partner barred
    v = a.judge(S, bid(1, "S"))                     # North deals; South opens
    assert (v.detail, v.position, v.accept_by) == ("bid_at_partner", "partner", W)
    assert [o.code for o in v.options] == ["accept", "partner_rest"]
    assert v.options[1].bars == ((N, REST),) and v.options[1].lead_restrictions  # docs/laws.md BP-28-32
    assert "North must pass for the rest of the auction" in v.options[1].text


def test_BP_28_32_double_out_of_rotation_at_partner_turn_bars_partner_for_the_rest() -> None:
    a = run(N, "1H", rubber=True)                   # East to call; West doubles at his partner's turn
    v = a.judge(W, DOUBLE)
    assert (v.detail, v.position) == ("double_at_partner", "partner")
    assert [o.code for o in v.options] == ["accept", "partner_rest"] and v.options[1].bars == ((E, REST),)


def test_BP_28_32_pass_out_of_rotation_at_partner_turn_after_a_bid_bars_the_offender_for_the_rest() -> None:
    a = run(N, "1H", rubber=True)                   # East to call; West passes at his partner's turn
    v = a.judge(W, PASS)
    assert (v.detail, v.position) == ("pass_at_partner", "partner")
    assert [o.code for o in v.options] == ["accept", "pass_rest"] and v.options[1].bars == ((W, REST),)
    b = Auction(N, rubber=True)                     # nobody has bid: the offender passes at his next turn
    v = b.judge(S, PASS)
    assert [o.code for o in v.options] == ["accept", "pass_next"] and v.options[1].bars == ((S, 1),)
    v = Auction(N, rubber=True).judge(W, PASS)      # at the dealer's turn, West's LHO, before anyone called
    assert (v.position, [o.code for o in v.options]) == ("lho", ["accept", "pass_next"])


def test_BP_28_32_double_out_of_rotation_at_rho_turn_must_be_repeated() -> None:
    a = run(N, "1H")                               # East to call; South cannot double his side's bid
    a2 = run(N, "1H", "pass")                      # South to call; West doubles at his RHO's turn
    assert a.judge(S, DOUBLE).kind is CallIrregularity.INADMISSIBLE
    v = a2.judge(W, DOUBLE)
    assert (v.detail, v.position) == ("double_at_rho", "rho")
    repeat = next(o for o in v.options if o.code == "repeat")
    assert repeat.call == DOUBLE and repeat.by == W


def test_BP_28_32_first_call_by_the_dealers_rho() -> None:
    v = Auction(N).judge(W, bid(1, "NT"))           # at West's LHO's turn, West not having called
    assert (v.detail, v.position, v.offender_had_called, v.accept_by) == ("bid_at_lho", "lho", False, N)


def test_BP_28_32_second_call_at_lho_turn_is_a_change_of_call() -> None:
    a = run(N, "1H")
    v = a.judge(N, bid(2, "H"))
    assert v.detail == "change_of_call" and v.accept_by is None
    with pytest.raises(AuctionError, match="cannot be accepted"):
        a.accept(N, bid(2, "H"))


def test_BP_28_32_accepted_call_moves_the_rotation_on_from_the_caller() -> None:
    a = Auction(W)
    a.add(W, bid(1, "D"))
    a.accept(E, bid(2, "D"))                        # PBN 3.9 example (B): East bids at North's turn
    assert a.turn == S and a.calls[-1].skipped == (N,)
    a.add(S, PASS)
    assert a.pbn_lines() == ['[Auction "W"]', "1D ^S 2D Pass", "+"]
    back = read_auction("\n".join(a.pbn_lines()[1:]), W)
    assert back.calls == a.calls and back.turn == W


def test_BP_28_32_out_of_rotation_insufficient_bid_is_out_of_rotation() -> None:
    a = run(W, "1D")
    v = a.judge(S, bid(1, "C"))                     # law 27A2: law 31 applies
    assert v.kind is CallIrregularity.OUT_OF_ROTATION and "insufficient" in v.reason
    a.accept(S, bid(1, "C"))
    assert a.pbn_lines()[1] == "1D ^S ^S ^I 1C"      # PBN 3.9 example (B), last line


# -- BP-35-36 inadmissible calls --------------------------------------------------------------------

@pytest.mark.parametrize(("calls", "seat", "call", "detail"), [
    ((), N, DOUBLE, "double_no_bid"),
    (("1H", "pass"), S, DOUBLE, "double_own_side"),
    (("1H", "double"), W, DOUBLE, "double_doubled"),
    (("1H",), E, REDOUBLE, "redouble_not_doubled"),
    (("1H", "double"), W, REDOUBLE, "redouble_not_doubled"),
    (("1H", "double", "redouble"), W, REDOUBLE, "redouble_redoubled"),
])
def test_BP_35_36_inadmissible_double_or_redouble(calls: tuple[str, ...], seat: Seat, call: Call,
                                                  detail: str) -> None:
    a = run(N, *calls)
    v = a.judge(seat, call)
    assert (v.kind, v.detail, v.clause, v.accept_by) == (CallIrregularity.INADMISSIBLE, detail, "BP-35-36",
                                                         None)
    assert v.options[0].code == "substitute" and v.options[0].bars == ((seat.partner, REST),)
    with pytest.raises(AuctionError):
        a.accept(seat, call)


def test_BP_35_36_bid_above_seven_bars_the_offending_side() -> None:
    a = run(N, "1H")
    v = a.judge_text(E, "8C")
    assert (v.kind, v.detail, v.call) == (CallIrregularity.INADMISSIBLE, "above_seven", None)
    assert "there is no eight-level contract" in v.reason
    assert v.options[0].bars == ((E, REST), (W, REST))
    a.cancel(E, "8C")
    assert a.cancelled == [(E, "8C", "BP-35-36")] and a.turn == E
    with pytest.raises(CallError):
        a.judge_text(E, "banana")


def test_BP_35_36_call_by_a_player_who_must_pass() -> None:
    a = run(N, "1H")
    a.bar(E, "rest")
    v = a.judge(E, bid(1, "S"))
    assert v.detail == "must_pass" and v.options[0].bars == ((E, REST), (W, REST))
    assert a.judge(E, PASS).legal


def test_BP_35_36_inadmissible_double_out_of_rotation_is_inadmissible() -> None:
    v = run(N, "1H").judge(N, DOUBLE)               # law 32: an inadmissible double is never accepted
    assert v.kind is CallIrregularity.INADMISSIBLE and v.detail == "double_own_side"


# -- BP-39 after the close ----------------------------------------------------------------------------

def test_BP_39_call_after_the_auction_closed_is_cancelled() -> None:
    a = run(N, "1C", "pass", "pass", "pass")
    quiet = a.judge(E, PASS)
    loud = a.judge(E, bid(1, "S"))
    by_declarer_side = a.judge(S, bid(2, "C"))
    assert quiet.kind is loud.kind is CallIrregularity.AFTER_CLOSE and quiet.clause == "BP-39"
    assert not quiet.options[0].lead_restrictions and not by_declarer_side.options[0].lead_restrictions
    assert loud.options[0].lead_restrictions
    assert a.judge_text(E, "8S").kind is CallIrregularity.AFTER_CLOSE
    with pytest.raises(AuctionError):
        a.add(E, PASS)


# -- PBN ---------------------------------------------------------------------------------------------

def test_pbn_example_auction_reads_and_writes_back() -> None:
    # PBN 2.1 standard, section 1.2 "Example game": the auction of board 1 (dealer North), ending in five
    # hearts doubled by South ([Declarer "S"], [Contract "5HX"]); notes =1= =2= are in the source lines.
    source = "1D      1S   3H =1= 4S\n4NT =2= X    Pass   Pass\n5C      X    5H     X\nPass    Pass Pass"
    a = read_auction(source, N)
    assert a.contract() == Contract(5, "H", 1) and a.declarer == S
    assert a.pbn_lines() == ['[Auction "N"]'] + SCHIPHOL_AUCTION


def test_pbn_all_pass_and_import_columns() -> None:
    assert read_auction("1S Pass 2S AP", N).contract() == Contract(2, "S")
    assert read_auction("AP", E).passed_out
    a = read_auction("- 1H Pass 2H\nAP", W, dealer=N)   # columns from West; North deals
    assert a.dealer == N and a.declarer == N and a.contract() == Contract(2, "H")
    with pytest.raises(ValueError, match="1C"):
        read_auction("1H 1C", N)                        # insufficient without ^I: refused
    with pytest.raises(ValueError, match="closed"):
        read_auction("Pass Pass Pass Pass 1C", N)


# -- state, snapshots and properties --------------------------------------------------------------

def test_auction_snapshot_goes_on_the_same() -> None:
    a = run(N, "1H")
    a.accept(W, bid(1, "S"))                       # out of rotation, accepted
    a.bar(S, "rest")
    b = snapshot.loads(snapshot.dumps(a))
    assert b == a
    for x in (a, b):
        x.add(N, bid(2, "H"))
        x.add(E, PASS)
    assert b == a and b.judge(S, bid(3, "H")).detail == "must_pass"


def legal_calls(a: Auction) -> list[Call]:
    seat = a.turn
    assert seat is not None
    every = [PASS, DOUBLE, REDOUBLE] + [bid_of_rank(r) for r in range(35)]
    return [c for c in every if a.judge(seat, c).legal]


def first_namer(a: Auction) -> Seat:
    """Naive declarer: scan every call of the last bidder's side for the final strain."""
    bids = [(c.seat, c.call) for c in a.calls if c.call.is_bid]
    last_seat, last = bids[-1]
    return next(s for s, c in bids if c.strain == last.strain and s.side is last_seat.side)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.sampled_from(list(Seat)))
def test_random_legal_auction_always_ends_with_a_proper_contract(seed: int, dealer: Seat) -> None:
    rnd = random.Random(seed)
    a = Auction(dealer)
    for _ in range(400):
        if a.closed:
            break
        options = legal_calls(a)
        passing = rnd.random() < 0.55
        a.add(a.turn or dealer, PASS if passing else rnd.choice(options))
    assert a.closed
    c = a.contract()
    if c is None:
        assert a.passed_out and len(a.calls) == 4
        return
    assert 1 <= c.level <= 7 and a.declarer is not None
    last = a.last_bid
    assert last is not None and a.declarer.side is last.seat.side
    assert a.declarer == first_namer(a)
    assert read_auction("\n".join(a.pbn_lines()[1:]), dealer).calls == a.calls


def test_naive_declarer_check_can_fail() -> None:
    """The property compares the model's declarer with first_namer; a model that answered "the last
    bidder" would fail it on this auction."""
    a = run(N, "1H", "pass", "4H", "pass", "pass", "pass")
    assert a.last_bid is not None and a.last_bid.seat == S
    assert first_namer(a) == N != a.last_bid.seat


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_judge_never_changes_the_auction(seed: int) -> None:
    rnd = random.Random(seed)
    a = Auction(rnd.choice(list(Seat)))
    every = [PASS, DOUBLE, REDOUBLE] + [bid_of_rank(r) for r in range(35)]
    for _ in range(12):
        if a.closed:
            break
        before = snapshot.dumps(a)
        for seat in Seat:
            for call in rnd.sample(every, 6):
                v = a.judge(seat, call)
                assert v.legal or v.reason
        assert snapshot.dumps(a) == before
        a.add(a.turn or Seat.N, rnd.choice(legal_calls(a)) if rnd.random() < 0.5 else PASS)


def test_BP_28_32_the_ruling_cites_the_code_whose_bar_it_gives() -> None:
    """The rest-of-the-auction bar at the partner's turn is the rubber code's, given at a rubber table;
    a duplicate table follows and cites the 2017 code (laws/bridge/verdicts.py)."""
    assert Auction(N, rubber=True).judge(S, bid(1, "S")).law == "Rubber Bridge, law 31"
    assert Auction(N).judge(S, bid(1, "S")).law == "Duplicate Bridge, law 31"
    assert run(N, "1H").judge(S, PASS).law == "Duplicate Bridge, law 30"


@pytest.mark.parametrize(("calls", "seat", "call", "law"), [
    ((), S, bid(1, "S"), "law 31"),                 # a bid at the partner's (the dealer's) turn: 31B
    ((), W, bid(1, "NT"), "law 31"),                # at the LHO's turn, the offender not having called
    (("1H",), W, DOUBLE, "law 32"),                 # a double at the partner's turn: 32B
    (("1H",), W, PASS, "law 30"),                   # a pass at the partner's turn after a bid: 30B
])
def test_BP_28_32_duplicate_table_follows_2017_at_partners_turn(calls: tuple[str, ...], seat: Seat, call: Call,
                                                                 law: str) -> None:
    """The 2017 laws 30B, 31B and 32B: not accepted, the call is cancelled and nobody is barred at once
    (the partner calls as he likes); the offender's later call, if not comparable, bars his partner at
    the next turn only, not for the rest of the auction."""
    a = run(N, *calls)
    v = a.judge(seat, call)
    assert v.law == f"Duplicate Bridge, {law}"
    assert [o.code for o in v.options] == ["accept", "comparable", "other"]
    assert all(o.by == seat for o in v.options[1:])          # nothing follows from the law itself
    assert v.options[2].bars == ((seat.partner, 1),) and v.options[2].lead_restrictions
    assert "for the rest of the auction" not in " ".join(o.text for o in v.options)
