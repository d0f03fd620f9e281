"""The auction as the engine rules it (docs/laws.md BP-17 to BP-39): a scenario per row, each through
``LawEngine.feed`` with the events a table sends. The expected rulings are written from docs/laws.md and the
2017 laws the auction model follows, not read back from the engine."""

from __future__ import annotations

import pytest

from laws.bridge.verdicts import REST
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import CallMade, CardPlayed, IrregularityAccepted, PlayerBarred, event_from_dict
from laws.rulings import Remedy
from laws.state import Phase
from tests.laws.bridge_table import MIXED, calls, feed, said, table
from tests.laws.test_code_governs import duplicate_table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def call(seat: Seat, text: str) -> CallMade:
    return CallMade(seat, event_from_dict({"type": "call", "seat": "N", "call": text}).call)  # type: ignore[attr-defined]


def test_BP_17_calls_go_round_from_the_dealer() -> None:
    eng = table()
    assert feed(eng, *calls(N, "1S pass 2S pass")) == []
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert [c.seat for c in a.calls] == [N, E, S, W] and a.turn is N


def test_BP_17_a_call_before_the_deal_has_ended_is_not_ruled() -> None:
    eng = LawEngine("contract-bridge")
    assert eng.feed(CallMade(N, "1S")) == [] and eng.ignored == 1  # the forming phase: journaled, ignored


def test_BP_22_the_contract_and_the_declarer_first_to_name_the_strain() -> None:
    eng = table()
    rulings = feed(eng, *calls(N, "1H pass 1S pass 2S pass pass pass"))
    assert said(rulings) == [("contract", "BP-22")]
    x = rulings[0].extra
    # South named spades first for North-South, so South declares and West leads.
    assert (x["contract"], x["declarer"], x["dummy"], x["opening_leader"]) == ("2S", "S", "N", "W")
    assert eng.state.phase is Phase.AUCTION and rulings[0].remedy is Remedy.CONTRACT
    assert not rulings[0].is_irregularity


def test_BP_22_doubled_and_redoubled_contract() -> None:
    eng = table()
    x = feed(eng, *calls(N, "1S double redouble pass pass pass"))[0].extra
    assert x["contract"] == "1SXX" and x["declarer"] == "N"


def test_BP_22_four_passes_pass_the_deal_out() -> None:
    eng = table()
    rulings = feed(eng, *calls(N, "pass pass pass pass"))
    assert said(rulings) == [("contract", "BP-22")]
    assert rulings[0].extra["passed_out"] is True and rulings[0].dealer is E
    assert eng.state.phase is Phase.SHUFFLE and eng.state.next_dealer is E
    assert eng.state.game_state["score"].snapshot()["hands"] == 0      # rubber: no score
    assert eng.feed(CallMade(N, "1S")) == [] and eng.ignored == 1       # nothing more to call


def test_BP_27_insufficient_bid_waits_for_the_next_player() -> None:
    eng = table()
    feed(eng, CallMade(N, "1S"))
    [r] = feed(eng, CallMade(E, "1H"))
    assert (r.remedy, r.clause, r.seat) == (Remedy.ATTENTION, "BP-27", S)   # South may accept
    assert r.extra["options"] == ["accept", "lowest_sufficient", "comparable", "other"]
    assert {"code": "lowest_sufficient", "call": "2H"}.items() <= r.extra["choices"][1].items()
    assert r.law == "Rubber Bridge, law 27" and "two hearts" in r.reason
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert [c.call.code for c in a.calls] == ["1S"] and a.turn is E   # nothing applied yet


def test_BP_27_accepted_by_an_accept_entry() -> None:
    eng = table()
    feed(eng, CallMade(N, "1S"), CallMade(E, "1H"))
    assert said(feed(eng, IrregularityAccepted(S))) == [("deal_stands", "BP-27")]
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert [c.call.code for c in a.calls] == ["1S", "1H"] and a.turn is S
    assert feed(eng, CallMade(S, "1NT")) == []   # the accepted 1H is the bid to beat now (law 27A)


def test_BP_27_accepted_by_calling_over_it() -> None:
    eng = table()
    feed(eng, CallMade(N, "1S"), CallMade(E, "1H"))
    assert said(feed(eng, CallMade(S, "pass"))) == [("deal_stands", "BP-27")]
    assert [c.call.code for c in eng.state.deal.bridge.auction.calls] == ["1S", "1H", "pass"]  # type: ignore[union-attr]


def test_BP_27_the_lowest_sufficient_bid_brings_nothing_more() -> None:
    eng = table()
    feed(eng, CallMade(N, "1S"), CallMade(E, "1H"))
    assert said(feed(eng, CallMade(E, "2H"))) == [("deal_stands", "BP-27")]   # cancelled, replaced
    assert feed(eng, CallMade(S, "pass"), CallMade(W, "3H")) == []             # West is free to bid


def test_BP_27_any_other_replacement_is_the_directors_then_his_bar() -> None:
    eng2 = table()
    feed(eng2, CallMade(N, "1S"), CallMade(E, "1H"))
    [cancel, judge] = feed(eng2, CallMade(E, "3H"))   # not the lowest sufficient bid: comparable?
    assert said([cancel, judge]) == [("deal_stands", "BP-27"), ("attention", "BP-27")]
    assert judge.extra["options"] == ["comparable", "bar"] and judge.extra["bars"] == [["W", "rest"]]
    [bar] = feed(eng2, PlayerBarred(W, "rest"))
    assert (bar.remedy, bar.clause, bar.extra["bars"]) == (Remedy.PENALTY, "BP-27", [["W", "rest"]])
    feed(eng2, CallMade(S, "pass"))
    [r2] = feed(eng2, CallMade(W, "4H"))         # barred: must pass
    assert (r2.clause, r2.extra["detail"]) == ("BP-35-36", "must_pass")


def test_BP_28_32_call_out_of_rotation_cancelled_by_the_player_in_turn() -> None:
    eng = table()
    [r] = feed(eng, CallMade(E, "1H"))           # North deals and calls first
    assert (r.clause, r.seat, r.extra["detail"]) == ("BP-28-32", S, "bid_at_rho")
    rulings = feed(eng, CallMade(N, "1S"))       # North calls: not accepted
    assert said(rulings) == [("deal_stands", "BP-28-32")]
    assert said(feed(eng, CallMade(E, "2H"))) == [("attention", "BP-28-32")]   # not the same call
    eng2 = table()
    feed(eng2, CallMade(E, "1H"), CallMade(N, "pass"))
    assert feed(eng2, CallMade(E, "1H")) == []   # the same call again: nothing more (law 31A)


def test_BP_28_32_accepted_by_the_offenders_left_hand_opponent() -> None:
    eng = table()
    feed(eng, CallMade(E, "1H"))
    assert said(feed(eng, CallMade(S, "pass"))) == [("deal_stands", "BP-28-32")]
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert [(c.seat, c.call.code) for c in a.calls] == [(E, "1H"), (S, "pass")]
    assert a.calls[0].skipped == (N,) and a.turn is W


def test_BP_28_32_pass_out_of_turn_bars_the_offender_once() -> None:
    eng = table()
    feed(eng, CallMade(E, "pass"))                          # at North's turn (East's RHO)
    [r] = feed(eng, CallMade(N, "1S"))
    assert (r.remedy, r.clause, r.extra["bars"]) == (Remedy.PENALTY, "BP-28-32", [["E", 1]])
    [bad] = feed(eng, CallMade(E, "2H"))
    assert (bad.clause, bad.extra["detail"]) == ("BP-35-36", "must_pass")


def test_BP_28_32_change_of_call_is_the_directors() -> None:
    eng = table()
    feed(eng, CallMade(N, "1S"))
    [r] = feed(eng, CallMade(N, "2S"))
    assert (r.remedy, r.clause, r.extra["detail"], r.extra["options"]) == (
        Remedy.ATTENTION, "BP-28-32", "change_of_call", ["change_of_call"])
    assert [c.call.code for c in eng.state.deal.bridge.auction.calls] == ["1S"]  # type: ignore[union-attr]


def test_BP_35_36_inadmissible_double_is_cancelled_and_bars_the_partner() -> None:
    eng = table()
    feed(eng, *calls(N, "1S pass"))
    [r] = feed(eng, CallMade(S, "double"))       # South doubles his own side's bid
    assert (r.remedy, r.clause, r.extra["detail"]) == (Remedy.PENALTY, "BP-35-36", "double_own_side")
    assert r.extra["bars"] == [["N", "rest"]]
    assert feed(eng, CallMade(S, "2S")) == []    # South calls again, legally
    feed(eng, CallMade(W, "pass"))
    assert said(feed(eng, CallMade(N, "4S"))) == [("penalty", "BP-35-36")]   # North must pass


def test_BP_35_36_redouble_without_a_double() -> None:
    eng = table()
    feed(eng, *calls(N, "1S pass"))
    [r] = feed(eng, CallMade(S, "redouble"))
    assert r.extra["detail"] == "redouble_not_doubled"


def test_BP_39_call_after_the_close_is_cancelled() -> None:
    eng = table()
    feed(eng, *calls(N, "1S pass pass pass"))
    [quiet] = feed(eng, CallMade(E, "pass"))     # a defender's pass: nothing more
    assert (quiet.remedy, quiet.clause) == (Remedy.DEAL_STANDS, "BP-39")
    [loud] = feed(eng, CallMade(W, "2C"))        # a defender's bid: lead restrictions may follow
    assert (loud.remedy, loud.clause) == (Remedy.ATTENTION, "BP-39")
    assert eng.state.deal.bridge.play.contract.code == "1S"  # type: ignore[union-attr]


def test_BP_bar_needs_an_irregularity_and_an_open_auction() -> None:
    eng = table()
    with pytest.raises(ValueError, match="no irregularity"):
        eng.feed(PlayerBarred(S, 1))


def test_accept_with_nothing_waiting_or_by_the_wrong_player_is_refused() -> None:
    eng = table()
    with pytest.raises(ValueError, match="no irregular call or card"):
        eng.feed(IrregularityAccepted(S))
    feed(eng, CallMade(N, "1S"), CallMade(E, "1H"))
    with pytest.raises(ValueError, match="South may"):
        eng.feed(IrregularityAccepted(W))
    assert eng.state.deal.bridge.pending is not None   # type: ignore[union-attr]   nothing lost


def test_a_card_while_the_auction_is_open_is_refused() -> None:
    eng = table(MIXED)
    feed(eng, CallMade(N, "1D"))
    with pytest.raises(ValueError, match="auction has not closed"):
        eng.feed(CardPlayed(E, MIXED[E][0]))
    assert eng.state.deal.plays == []   # type: ignore[union-attr]


def test_a_bridge_event_at_a_euchre_table_is_refused() -> None:
    with pytest.raises(ValueError, match="plays Euchre"):
        LawEngine("euchre").feed(CallMade(N, "1S"))


def test_a_bad_call_is_malformed() -> None:
    from laws.events import EventFormatError
    for bad in ("0S", "100S", "X", "Pass", "1Z", 3):
        with pytest.raises(EventFormatError):
            event_from_dict({"type": "call", "seat": "N", "call": bad})
    assert call(N, "3n").call == "3NT"


def test_BP_28_32_bid_at_partners_turn_not_accepted_bars_partner_for_the_rest_of_the_auction() -> None:
    """docs/laws.md BP-28-32: South opens at North's (the dealer's) turn; West does not accept (North calls):
    the bid is cancelled and North must pass for the rest of the auction, not only at his next turn."""
    eng = table()
    [r] = feed(eng, CallMade(S, "1S"))
    assert (r.clause, r.extra["detail"], r.extra["options"]) == ("BP-28-32", "bid_at_partner",
                                                                 ["accept", "partner_rest"])
    [cancel] = feed(eng, CallMade(N, "pass"))    # North calls at his turn: South's bid is cancelled
    assert (cancel.remedy, cancel.clause, cancel.extra["bars"]) == (Remedy.PENALTY, "BP-28-32", [["N", "rest"]])
    feed(eng, CallMade(E, "1H"), CallMade(S, "1S"), CallMade(W, "pass"))
    [bad] = feed(eng, CallMade(N, "2S"))         # barred for the rest: must pass
    assert (bad.clause, bad.extra["detail"]) == ("BP-35-36", "must_pass")
    assert eng.state.deal.bridge.auction.bars[N] == REST  # type: ignore[union-attr]  # still, after a turn


def test_BP_28_32_at_the_lho_s_turn_the_director_s_bar_declines_the_call() -> None:
    """West bids at North's turn (North deals): North himself may accept, and his own call does (law 29A),
    so only the director can enter that it is not accepted. His bar (at a rubber table the one the law
    makes: East for the rest of the auction) cancels West's bid: it is not also recorded as accepted, and
    North then calls in his own turn, over nothing."""
    eng = table()
    [wait] = feed(eng, call(W, "1S"))
    assert (wait.clause, wait.seat, wait.extra["options"]) == ("BP-28-32", N, ["accept", "partner_rest"])
    rulings = feed(eng, PlayerBarred(E, "rest"))
    assert said(rulings) == [("penalty", "BP-28-32")]
    assert rulings[0].extra["cancelled"] is True and rulings[0].extra["bars"] == [["E", "rest"]]
    assert "accepted" not in rulings[0].extra
    assert feed(eng, call(N, "1D")) == []       # in turn; one spade does not stand, so one diamond is sufficient
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert [(c.seat, c.call.code) for c in a.calls] == [(N, "1D")] and a.bars == {E: REST}


def test_BP_28_32_a_pass_at_the_lho_s_turn_declined_by_the_director_s_bar() -> None:
    """West passes at North's turn before anyone bid: not accepted, West must pass at his next turn (the
    rubber code); the director's bar of West for one turn declines it."""
    eng = table()
    feed(eng, call(W, "pass"))
    [cancel] = feed(eng, PlayerBarred(W, 1))
    assert (cancel.remedy, cancel.extra["cancelled"], cancel.extra["bars"]) == (Remedy.PENALTY, True, [["W", 1]])
    assert feed(eng, *calls(N, "1D pass 1H")) == []
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert [c.seat for c in a.calls] == [N, E, S] and a.turn is W and a.bars == {W: 1}


def test_BP_28_32_at_a_duplicate_table_the_director_s_bar_declines_it_too() -> None:
    """The same bid at a duplicate table: a bar the director enters while it waits is his ruling that it is
    not accepted, so the one spade is cancelled and never recorded as accepted."""

    eng = duplicate_table()
    feed(eng, call(W, "1S"))
    rulings = feed(eng, PlayerBarred(E, 1))
    assert [r.extra.get("accepted") for r in rulings] == [None, None]
    assert said(rulings) == [("deal_stands", "BP-28-32"), ("penalty", "BP-28-32")]
    assert rulings[0].extra["cancelled"] is True
    assert feed(eng, call(N, "1D")) == []
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert [c.seat for c in a.calls] == [N]


def test_BP_28_32_a_decline_by_the_acceptor_at_his_own_turn_cancels_the_call() -> None:
    """West bids at North's turn: North declines (a ``decline``), so the one spade is cancelled with what the
    rubber code makes of it at once (East must pass for the rest of the auction), and North calls in his turn."""
    eng = table()
    feed(eng, call(W, "1S"))
    [cancel] = feed(eng, event_from_dict({"type": "decline", "seat": "N"}))
    assert (cancel.remedy, cancel.clause, cancel.extra["cancelled"]) == (Remedy.PENALTY, "BP-28-32", True)
    assert cancel.extra["bars"] == [["E", "rest"]] and "accepted" not in cancel.extra
    assert cancel.reason.startswith("North does not accept West's")
    assert feed(eng, call(N, "1D")) == []
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert [(c.seat, c.call.code) for c in a.calls] == [(N, "1D")] and a.bars == {E: REST}


@pytest.mark.parametrize("duplicate", [False, True], ids=["rubber", "duplicate"])
def test_BP_28_32_the_ruling_at_the_acceptor_s_own_turn_names_the_decline(duplicate: bool) -> None:
    """Audit a3, finding 8: West passes at North's turn; the ruling's words must not say that only the
    director can rule the pass not accepted, since North's own ``decline`` does it (docs/events.md)."""

    eng = duplicate_table() if duplicate else table()
    [r] = feed(eng, call(W, "pass"))
    assert r.clause == "BP-28-32" and "only the director" not in r.reason
    assert "he may instead decline it" in r.reason


def test_BP_28_32_at_a_duplicate_table_a_decline_needs_no_bar() -> None:
    """At a duplicate table declining bars nobody at once (2017 laws 30-32): the call is cancelled and the
    offender's next call is then what the director judges, as when another player calls over it."""

    eng = duplicate_table()
    feed(eng, call(W, "1S"))
    [cancel] = feed(eng, event_from_dict({"type": "decline", "seat": "N"}))
    assert (cancel.remedy, cancel.clause, cancel.extra["cancelled"]) == (Remedy.DEAL_STANDS, "BP-28-32", True)
    assert "bars" not in cancel.extra and "accepted" not in cancel.extra
    assert feed(eng, call(N, "1D"), call(E, "pass")) == []
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert [c.seat for c in a.calls] == [N, E] and a.turn is S


def test_BP_27_an_insufficient_bid_declined() -> None:
    eng = table()
    feed(eng, *calls(N, "1S"))
    feed(eng, call(E, "1H"))                    # insufficient: South may accept
    [cancel] = feed(eng, event_from_dict({"type": "decline", "seat": "S"}))
    assert (cancel.clause, cancel.extra["cancelled"]) == ("BP-27", True)
    assert eng.state.deal.bridge.auction.turn is E  # type: ignore[union-attr]  # East calls again


@pytest.mark.parametrize("events, says", [
    ([], "no irregular call is waiting"),
    (["W 1S"], "East may not accept West's"),
])
def test_a_decline_with_nothing_waiting_or_by_another_is_refused(events: list[str], says: str) -> None:
    eng = table()
    for text in events:
        seat, bid = text.split()
        feed(eng, call(Seat(seat), bid))
    with pytest.raises(ValueError, match=says):
        eng.feed(event_from_dict({"type": "decline", "seat": "E"}))


@pytest.mark.parametrize("game,law", [("contract-bridge", "Rubber Bridge, law 34"),
                                      ("duplicate-bridge", "Duplicate Bridge, law 17")])
def test_BP_22_a_pass_out_of_rotation_that_cost_a_turn_does_not_close_the_auction(game: str, law: str) -> None:
    """North opens one spade, East and South pass, and North passes again at West's turn; East passes
    over it, which accepts it. Three passes follow one spade, but West lost his turn: the auction goes
    back to him and East's pass after North's is cancelled (2017 law 17E2, the rubber code's law 34).
    It was ruled closed, East's pass a call after the close (BP-39), and West never called."""
    eng = table() if game == "contract-bridge" else duplicate_table()
    feed(eng, *calls(N, "1S pass pass"), CallMade(N, "pass"))
    rulings = feed(eng, CallMade(E, "pass"))
    assert said(rulings) == [("deal_stands", "BP-28-32"), ("deal_stands", "BP-22")]
    r = rulings[1]
    assert (r.law, r.seat, r.extra["cancelled"]) == (law, W, ["pass"])
    assert "West" in r.reason and "does not close" in r.reason
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert a.turn is W
    [c] = feed(eng, CallMade(W, "pass"))
    assert (c.remedy, c.clause, c.extra["contract"], c.extra["declarer"]) == (Remedy.CONTRACT, "BP-22", "1S", "N")


def test_BP_35_36_an_inadmissible_double_out_of_turn_leaves_the_turn_where_it_was() -> None:
    """South doubles his partner's one spade at East's turn: cancelled, North barred (law 36), and it is
    East's turn. The ruling said "South calls again", and South doing so was then ruled a pass out of
    rotation; East's call is the one that follows."""
    eng = table()
    [r] = feed(eng, CallMade(N, "1S"), CallMade(S, "double"))
    assert (r.remedy, r.clause, r.extra["bars"]) == (Remedy.PENALTY, "BP-35-36", [["N", "rest"]])
    assert "South calls again" not in r.reason and "It is East's turn to call" in r.reason, r.reason
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert a.turn is E
    assert feed(eng, CallMade(E, "pass"), CallMade(S, "pass")) == []


def test_BP_35_36_a_player_barred_for_the_rest_bids_out_of_turn_and_it_cannot_be_accepted() -> None:
    """West must pass for the rest of the auction (the director's bar after East's insufficient bid) and
    bids four hearts at South's turn. It was ruled a bid out of rotation that North could accept (and
    West "must repeat" it if South passed); a player who must pass for the rest of the auction makes no
    other call, in turn or not: cancelled, East-West pass for the rest (law 37), and it is South's turn."""
    eng = table()
    feed(eng, *calls(N, "1S 1H"), CallMade(E, "3H"), PlayerBarred(W, "rest"))
    [r] = feed(eng, CallMade(W, "4H"))
    assert (r.remedy, r.clause, r.extra["detail"]) == (Remedy.PENALTY, "BP-35-36", "must_pass"), said([r])
    assert r.extra["bars"] == [["W", "rest"], ["E", "rest"]] and "South's turn" in r.reason, r.reason
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert a.turn is S and [c.call.code for c in a.calls] == ["1S", "3H"]
