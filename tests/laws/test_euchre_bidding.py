"""Euchre laws 74-82: making the trump from the declarations the players enter (North deals; the turn-up
is the 7S; the order is East, South, West, North)."""

from __future__ import annotations

from laws.cards import Seat, Side
from laws.engine import LawEngine
from laws.rulings import Ruling
from tests.laws.streams import E, euchre_known_deal, prelude
from tests.laws.test_euchre_play_laws import HANDS, play

N, E_, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def turned() -> LawEngine:
    eng = LawEngine("euchre")
    eng.state.next_dealer = N
    assert eng.feed_all(euchre_known_deal(N, HANDS, "7S")) == []
    return eng


def bid(eng: LawEngine, *bids: str) -> list[Ruling]:
    """Bids written "E:pass", "S:order", "W:order:alone", "E:name:H"."""
    out: list[Ruling] = []
    for b in bids:
        seat, call, *rest = b.split(":")
        fields: dict = {"seat": seat, "call": call}
        if rest and rest[0] == "alone":
            fields["alone"] = True
        elif rest:
            fields["suit"] = rest[0]
        out += eng.feed(E("bid", **fields))
    return out


def said(rulings: list[Ruling]) -> list[tuple[str, str]]:
    return [(r.remedy.value, r.clause) for r in rulings]


def test_EU_74_eldest_orders_up_and_his_partner_takes_over_alone() -> None:
    eng = turned()
    assert bid(eng, "E:order") == []
    d = eng.state.deal
    assert d is not None and (d.trump_suit, d.makers) == ("S", Side.EW)
    assert bid(eng, "W:order:alone") == [] and d.alone_seat == W
    assert said(bid(eng, "N:order:alone")) == [("attention", "EU-74")]   # not his to take over


def test_EU_75_second_hand_assists_and_the_dealer_takes_over() -> None:
    eng = turned()
    assert bid(eng, "E:pass", "S:order", "N:order:alone") == []
    assert eng.state.deal.alone_seat == N  # type: ignore[union-attr]
    eng2 = turned()
    assert said(bid(eng2, "E:pass", "S:order", "W:order:alone")) == [("attention", "EU-75")]


def test_EU_76_no_suit_is_named_in_the_first_round() -> None:
    eng = turned()
    assert said(bid(eng, "E:pass", "S:pass", "W:name:H")) == [("attention", "EU-76")]
    assert bid(eng, "W:pass", "N:order") == [] and eng.state.deal.makers == Side.NS  # type: ignore[union-attr]


def test_EU_77_all_pass_twice_the_hand_is_dead() -> None:
    eng = turned()
    r = bid(eng, *(f"{s}:pass" for s in "ESWN"), *(f"{s}:pass" for s in "ESWN"))
    assert said(r) == [("attention", "EU-77")] and r[0].dealer == E_
    assert eng.feed_all(prelude(E_) + [E("deal_start", dealer="E", pack="blue")]) == []


def test_EU_78_naming_the_turned_down_suit_is_a_pass_and_naming_is_final() -> None:
    eng = turned()
    bid(eng, *(f"{s}:pass" for s in "ESWN"))
    assert said(bid(eng, "E:name:S")) == [("attention", "EU-78")]
    assert bid(eng, "S:name:H") == [] and eng.state.deal.trump_suit == "H"  # type: ignore[union-attr]
    assert said(bid(eng, "S:name:D")) == [("attention", "EU-78")]


def test_EU_80_pass_then_order_up_silences_the_partner() -> None:
    eng = turned()
    r = bid(eng, "E:pass", "E:order")
    assert said(r) == [("claim_option", "EU-80")] and r[0].side == Side.NS
    assert said(bid(eng, "S:pass", "W:order")) == [("attention", "EU-80")]   # West must pass
    r = eng.feed(E("demand", seat="N", what="hold_order"))
    assert said(r) == [("attention", "EU-80")] and eng.state.deal.makers == Side.EW  # type: ignore[union-attr]


def test_EU_80_an_unheld_late_order_lapses_at_the_lead() -> None:
    eng = turned()
    bid(eng, "E:pass", "E:order", "S:pass", "W:pass", "N:order")
    assert eng.state.deal.makers == Side.NS  # type: ignore[union-attr]
    assert said(play(eng, "E:AC")) == [("deal_stands", "EU-80")]


def test_EU_82_declaring_out_of_turn_counts_for_nothing() -> None:
    eng = turned()
    assert said(bid(eng, "W:order")) == [("attention", "EU-82")]
    assert bid(eng, "E:pass") == [] and eng.state.deal.makers is None  # type: ignore[union-attr]


def test_EU_82_the_dealer_turning_down_out_of_turn_binds_his_partner() -> None:
    eng = turned()
    assert said(bid(eng, "N:pass")) == [("attention", "EU-82")]
    assert said(bid(eng, "E:pass", "S:order")) == [("attention", "EU-82")]


# -- the dealer's discard (laws 86-89) -------------------------------------------------------------------

def taken_up(maker: str = "E", alone: bool = False) -> LawEngine:
    """North deals, the QS is turned and taken up: spades are trump."""
    eng = LawEngine("euchre")
    eng.state.next_dealer = N
    events = euchre_known_deal(N, HANDS, "QS") + [E("trump_made", seat=maker, suit="S", alone=alone)]
    assert eng.feed_all(events) == []
    return eng


def test_EU_86_a_completed_discard_cannot_be_changed() -> None:
    eng = taken_up()
    assert eng.feed(E("discard", seat="N", card="TH")) == []
    assert said(eng.feed(E("discard", seat="N", card="JH"))) == [("attention", "EU-86")]
    assert eng.state.deal.discarded.code == "TH"  # type: ignore[union-attr]


def test_EU_87_lead_before_the_discard_stands() -> None:
    eng = taken_up()
    assert play(eng, "E:AC") == []
    r = eng.feed(E("discard", seat="N", card="TH"))
    assert said(r) == [("attention", "EU-87")] and r[0].seat == N


def test_EU_88_the_trump_card_may_not_be_discarded() -> None:
    eng = taken_up()
    assert said(eng.feed(E("discard", seat="N", card="QS"))) == [("attention", "EU-88")]


def test_a_discard_when_the_dealer_took_up_no_card_is_not_ruled() -> None:
    """docs/events.md, ``discard``: a discard by another seat, or when the dealer took up no card, is not
    ruled. The turned QS was turned down and hearts named, so North holds his five cards and discards
    nothing; a ``discard`` entered all the same was ruled as if he had taken the queen up (law 88 called the
    turned-down queen "the trump card", law 86 called a card not his, or a second entry, a changed discard)
    and was kept as his discard, so his playing that card later was noted as playing his discard."""
    for cards in (["QS"], ["7C"], ["TH", "JH"]):
        eng = LawEngine("euchre")
        eng.state.next_dealer = N
        assert eng.feed_all(euchre_known_deal(N, HANDS, "QS") + [E("trump_made", seat="E", suit="H")]) == []
        for card in cards:
            assert eng.feed(E("discard", seat="N", card=card)) == [], card
        assert eng.state.deal.discarded is None  # type: ignore[union-attr]
    assert play(eng, "E:AC", "S:7C", "W:AD") == [] and play(eng, "N:TH") == []   # his own card, never a discard


def test_EU_89_lone_third_hand_may_require_the_dealers_highest() -> None:
    eng = taken_up(maker="W", alone=True)                     # West (third hand) alone; East sits out
    assert play(eng, "S:8S") == []                            # South (second hand) leads at once
    r = eng.feed(E("discard", seat="N", card="TH"))
    assert said(r) == [("claim_option", "EU-89")] and r[0].side == Side.EW
    r = eng.feed(E("demand", seat="W", what="call_highest"))
    assert said(r) == [("attention", "EU-89")] and r[0].seat == N
    assert play(eng, "W:7D") == []
    assert said(play(eng, "N:AH")) == [("attention", "EU-54")]    # his highest spade was the queen


def test_EU_89_the_demand_is_in_time_at_the_lead_before_the_discard() -> None:
    """Issue 20: South leads before North has discarded; West, alone, demands at once. The lead itself
    is the fact law 89 needs: the demand is granted, and the discard that comes after gives law 87 only."""
    eng = taken_up(maker="W", alone=True)
    assert play(eng, "S:8S") == []
    r = eng.feed(E("demand", seat="W", what="call_highest"))
    assert said(r) == [("attention", "EU-89")] and r[0].seat == N and r[0].extra["call"] == "highest"
    r = eng.feed(E("discard", seat="N", card="TH"))
    assert said(r) == [("attention", "EU-87")] and eng.state.claims == []
    assert play(eng, "W:7D") == []
    assert said(play(eng, "N:AH")) == [("attention", "EU-54")]    # his highest spade was the queen


def test_EU_89_not_in_time_once_the_discard_came_first_or_the_dealer_played() -> None:
    # the discard before the lead: no right at all
    eng = taken_up(maker="W", alone=True)
    assert eng.feed(E("discard", seat="N", card="TH")) == []
    play(eng, "S:8S")
    assert said(eng.feed(E("demand", seat="W", what="call_highest"))) == [("deal_stands", "EU-56")]
    # the claim opened at a late discard closes when the dealer plays to the trick it concerns
    eng = taken_up(maker="W", alone=True)
    play(eng, "S:8S")
    assert said(eng.feed(E("discard", seat="N", card="TH"))) == [("claim_option", "EU-89")]
    assert play(eng, "W:7D") == []
    r = play(eng, "N:QS")
    assert said(r) == [("deal_stands", "EU-89")] and eng.state.claims == []
    # an adversary of the lone hand has no such right
    eng = taken_up(maker="W", alone=True)
    play(eng, "S:8S")
    assert said(eng.feed(E("demand", seat="S", what="call_highest"))) == [("deal_stands", "EU-56")]
