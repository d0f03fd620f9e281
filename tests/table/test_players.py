"""The simulated bridge players (``firmware_host.players``): the bidding policy on hands of known points and
shape, and, for any deal, a hand whose every call stands, whose declarer is the first of his side to name
the strain, whose every card was held and followed suit, and whose result is the tricks its play gives:
all worked out here independently of the laws' models. The PBN sections rebuilt from a journal's events
read back as the same hand."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.players import (
    balanced,
    choose_call,
    hcp,
    opening,
    plan_hand,
    side_contract,
)
from laws.bridge.auction import Auction
from laws.bridge.calls import PASS, bid
from laws.cards import Card, Seat, clockwise_from, full_pack

RANKS = "23456789TJQKA"


def hand(text: str) -> list[Card]:
    """``"AKQ2.J5.T98.7654"``: spades, hearts, diamonds, clubs."""
    out = []
    for suit, ranks in zip("SHDC", text.split(".")):
        out += [Card(r, suit) for r in ranks]
    assert len(out) == 13, text
    return out


def deal_of(seed: int) -> dict[Seat, list[Card]]:
    cards = list(full_pack())
    random.Random(seed).shuffle(cards)
    order = clockwise_from(Seat.N.left)
    return {s: [c for i, c in enumerate(cards) if order[i % 4] == s] for s in Seat}


def test_points_shape_and_the_opening_bid() -> None:
    assert hcp(hand("AKQJ.432.432.432")) == 10 and hcp(hand("A432.K54.Q32.J32")) == 10
    assert balanced(hand("AK32.Q54.K32.J32")) and balanced(hand("AK432.Q5.K32.Q32"))
    assert not balanced(hand("AK432.Q54.KJ32.2")) and not balanced(hand("AK32.Q5.K3.J5432"))  # a singleton; two doubletons
    assert opening(hand("AK32.Q54.K32.K32")) == bid(1, "NT")         # 15, balanced
    assert opening(hand("AK432.Q5.K32.Q32")) == bid(1, "S")          # 14: one of the longest suit
    assert opening(hand("AKQ2.AK32.AK2.32")) == bid(1, "S")          # 23: four-four, the higher-ranking
    assert opening(hand("32.AK32.AK2.AK32")) == bid(1, "H")          # four hearts, four clubs: hearts
    assert opening(hand("A432.K54.Q32.J32")) is None                  # 10: pass
    assert opening(hand("A432.K54.Q32.K32")) == bid(1, "S")          # 12: the least that opens


@pytest.mark.parametrize("ours, partners, points, want", [
    ("AK432.Q5.K32.Q32", "QJ65.K432.A4.K54", 27, bid(4, "S")),    # nine spades: a major game
    ("AK432.Q5.K32.Q32", "QJ65.K432.A4.654", 24, bid(3, "S")),    # 23-24: three of the major
    ("AK432.Q5.K32.Q32", "Q765.876.J54.654", 17, None),           # under twenty: no contract
    ("AK32.Q54.K32.K32", "QJ5.K76.QJ54.A54", 28, bid(3, "NT")),   # no eight-card fit: notrump game
    ("A2.K54.AK32.KJ32", "43.AQ.QJ654.AQ54", 33, bid(6, "D")),   # nine diamonds over eight clubs: slam
    ("A2.K54.AK32.KJ32", "43.A2.Q9654.Q654", 26, bid(3, "NT")),  # 25-28 with a minor fit: three notrump
    ("A2.K54.AK32.KJ32", "43.A6.QJ654.A654", 29, bid(5, "D")),   # 29-32: the minor-suit game
    ("AKQ.AKQ.AKQJ.AKQ", "J32.J32.32.J5432", 40, bid(7, "C")),   # everything, eight clubs: a grand slam
])
def test_the_side_places_its_contract_by_points_and_fit(ours: str, partners: str, points: int, want: Any) -> None:
    a, b = hand(ours), hand(partners)
    assert hcp(a) + hcp(b) == points
    assert side_contract(a, b) == want


def test_only_the_openers_partner_speaks_after_the_opening() -> None:
    hands = deal_of(0)
    auction = Auction(Seat.N)
    auction.add(Seat.N, bid(1, "H"))
    assert choose_call(auction, Seat.E, hands) == PASS     # the other side passes throughout
    call = choose_call(auction, Seat.S, hands)             # partner places the contract (or passes)
    auction.add(Seat.E, PASS)
    auction.add(Seat.S, call)
    auction.add(Seat.W, PASS)
    assert choose_call(auction, Seat.N, hands) == PASS     # opener leaves it there


# -- any deal: checked here, independently of the models ---------------------------------------------

def _declarer_from(calls: list[tuple[Seat, Any]]) -> tuple[Any, Seat] | None:
    bids = [(s, c) for s, c in calls if c.is_bid]
    if not bids:
        return None
    seat, last = bids[-1]
    first = next(s for s, c in bids if s in (seat, seat.partner) and c.strain == last.strain)
    return last, first


def _tricks(plays: list[tuple[Seat, Card]], hands: dict[Seat, list[Card]], trump: str | None,
            leader: Seat, declarer: Seat) -> int:
    held = {s: set(h) for s, h in hands.items()}
    won = 0
    for t in range(13):
        trick = plays[4 * t:4 * t + 4]
        assert [s for s, _ in trick] == list(clockwise_from(leader)), f"trick {t + 1} out of rotation"
        led = trick[0][1].suit
        for s, c in trick:
            assert c in held[s], f"{s} plays {c} he does not hold"
            assert c.suit == led or not any(x.suit == led for x in held[s]), f"{s} revokes"
            held[s].remove(c)
        leader = max(trick, key=lambda sc: (sc[1].suit == trump, sc[1].suit == led, RANKS.index(sc[1].rank)))[0]
        won += leader in (declarer, declarer.partner)
    return won


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(list(Seat)), st.one_of(st.none(), st.integers(0, 2**31)))
def test_every_hand_is_one_the_cards_allow(seed: int, dealer: Seat, stray: int | None) -> None:
    """Also for players who stray (``rng``): every call and card still one the laws allow."""
    hands = deal_of(seed)
    plan = plan_hand(dealer, hands, None if stray is None else random.Random(stray))
    calls = list(plan.calls)
    assert [s for s, _ in calls] == [clockwise_from(dealer)[i % 4] for i in range(len(calls))]
    trailing = len(calls) - max((i for i, (_, c) in enumerate(calls) if c.is_bid), default=-1) - 1
    got = _declarer_from(calls)
    if got is None:
        assert len(calls) == 4 and plan.contract is None and plan.plays == ()  # passed out
        return
    assert trailing == 3
    last, declarer = got
    ranks = [c.rank for _, c in calls if c.is_bid]
    assert ranks == sorted(set(ranks)), "each bid higher than the last"
    assert plan.declarer == declarer
    assert (plan.contract.level, plan.contract.strain, plan.contract.doubled) == (last.level, last.strain, 0)
    trump = None if last.strain == "NT" else last.strain
    assert plan.tricks == _tricks(list(plan.plays), hands, trump, declarer.left, declarer)


def test_players_who_stray_get_different_results_from_the_same_cards_and_repeat_with_their_seed() -> None:
    """The duplicate demo's tables hold the same cards: without straying every table would score the same."""
    hands = deal_of(11)
    steady = plan_hand(Seat.N, hands)
    assert plan_hand(Seat.N, hands) == steady                                     # the policy alone: one hand
    strayed = [plan_hand(Seat.N, hands, random.Random(k)) for k in range(40)]
    assert plan_hand(Seat.N, hands, random.Random(7)) == strayed[7]               # repeated by its seed
    assert len({(p.contract, p.tricks) for p in strayed}) >= 3
    assert sum(p.plays != steady.plays for p in strayed) >= 30                    # one card in ten strays
    assert any(p.contract != steady.contract for p in strayed)                    # one placing bid in five


def test_the_independent_check_can_fail() -> None:
    hands = deal_of(3)
    plan = plan_hand(Seat.N, hands)
    assert plan.declarer is not None and plan.contract is not None
    plays = list(plan.plays)
    trump = None if plan.contract.strain == "NT" else plan.contract.strain
    swapped = plays[:1] + [plays[2], plays[1]] + plays[3:]
    with pytest.raises(AssertionError):
        _tricks(swapped, hands, trump, plan.declarer.left, plan.declarer)
    with pytest.raises(AssertionError):
        _tricks(plays, hands, trump, plan.declarer, plan.declarer)  # the wrong opening leader


# -- the PBN sections from a journal's events ----------------------------------------------------------

