"""Euchre laws an outside audit (a8) found misapplied, each played on the table of docs/events.md's worked
examples: North deals, the ``JH`` turned, North ``9H TH 8H 7H AS``, East ``AC KC QC JC TC``, South
``7C 8C 9C AD KD``, West ``AH KH QH JD TD``. Each test fails on the engine before its fix."""

from __future__ import annotations

from laws.cards import Seat
from laws.engine import LawEngine
from laws.rulings import Remedy
from tests.laws.streams import E, euchre_known_deal, only, prelude
from tests.laws.test_euchre_play_laws import play, said

N, E_, S, W = Seat.N, Seat.E, Seat.S, Seat.W
HANDS = {N: ["9H", "TH", "8H", "7H", "AS"], E_: ["AC", "KC", "QC", "JC", "TC"],
         S: ["7C", "8C", "9C", "AD", "KD"], W: ["AH", "KH", "QH", "JD", "TD"]}


def dealt(*after: object) -> LawEngine:
    """The worked examples' deal, the trump card turned, then ``after`` (events)."""
    eng = LawEngine("euchre")
    eng.state.next_dealer = N
    eng.feed_all(euchre_known_deal(N, HANDS, "JH"))
    eng.feed_all(list(after))  # type: ignore[arg-type]
    return eng




# -- 1: in a lone hand the partner sits out ------------------------------------------------------------

def lone_south() -> LawEngine:
    return dealt(E("trump_made", seat="S", suit="H", alone=True))


def test_the_sitting_out_partners_card_is_in_no_trick_and_charges_nobody() -> None:
    """South alone; North puts the AS down in trick 1. It was counted in the trick (E AC, N AS, S 7C), so
    West's TD was ruled a lead out of turn (EU-52) against West, who had done nothing wrong."""
    eng = lone_south()
    assert play(eng, "E:AC") == []
    r = only(play(eng, "N:AS"))
    assert (r.remedy, r.clause, r.seat) == (Remedy.ATTENTION, "EU-lone-partner", N)
    assert play(eng, "S:7C", "W:TD") == []
    d = eng.state.deal
    assert d is not None and [(st.value, c.code) for st, c in d.plays] == [("E", "AC"), ("S", "7C"), ("W", "TD")]
    search = only(eng.feed_all([E("play_end"), E("demand", seat="E", what="search_tricks")]))
    assert search.extra["tricks"] == [[["E", "AC"], ["S", "7C"], ["W", "TD"]]]


def test_the_sitting_out_partner_leading_is_no_lead_out_of_turn() -> None:
    """North led: the engine opened EU-52 against him, and a call_suit bound 'North or his partner', the
    lone player."""
    eng = lone_south()
    play(eng, "E:AC", "S:7C", "W:TD")
    assert said(play(eng, "N:AS")) == [("attention", "EU-lone-partner")]
    assert eng.state.claims == []
    assert said(eng.feed(E("demand", seat="E", what="call_suit", suit="D"))) == [("deal_stands", "EU-56")]


def test_what_the_sitting_out_partner_shows_is_no_exposed_card() -> None:
    """A card he shows, or his hand laid face up, opened EU-46 / EU-48 calls on a player who plays no card."""
    shown = only(lone_south().feed(E("card_faced", card="AS", where="table", by="N")))
    assert (shown.remedy, shown.clause, shown.seat) == (Remedy.ATTENTION, "EU-lone-partner", N)
    unnamed = only(lone_south().feed(E("card_faced", card="AS", where="table")))   # the deal says whose
    assert unnamed.clause == "EU-lone-partner"
    eng = lone_south()
    play(eng, "E:AC", "S:7C", "W:TD")
    laid = only(eng.feed(E("card_faced", card=None, where="hand", by="N")))
    assert (laid.remedy, laid.clause) == (Remedy.ATTENTION, "EU-lone-partner")
    assert eng.state.claims == [] and eng.state.deal is not None and eng.state.deal.exposed[N] == []


# -- 2, 3: a misdeal costs the deal of the one whose deal it was (laws 40, 41, 45) ---------------------

def in_norths_turn(dealer: str, **kw: str) -> LawEngine:
    from tests.laws.streams import law_table, prelude
    eng = law_table("euchre", N)
    eng.feed_all(prelude(N) + [E("deal_start", dealer=dealer, pack="red", **kw)])
    return eng


def test_EU_45_south_dealing_in_norths_turn_misdeals_without_saying_for_whom() -> None:
    """Law 45 was applied only when the deal_start said ``on_behalf_of``: a plain deal by South in North's
    turn that misdealt passed the deal to West (law 41) instead of East."""
    eng = in_norths_turn("S")
    r = only(eng.feed(E("card_dealt", seat="N", card="AC")))   # South's left is West: a packet to North
    assert (r.remedy, r.clause, r.dealer) == (Remedy.MISDEAL, "EU-45", E_)
    assert eng.state.next_dealer == E_
    said_so = in_norths_turn("S", on_behalf_of="N")
    assert (only(said_so.feed(E("card_dealt", seat="N", card="AC"))).dealer) == E_


def test_EU_40_a_misdeal_in_a_deal_out_of_turn_costs_the_rightful_dealer_nothing() -> None:
    """East dealt in North's turn and misdealt before the turn-up: 'East loses the deal to South', so North
    never dealt, and the open EU-40 claim vanished unsaid. The deal was never East's (law 40): North deals."""
    eng = in_norths_turn("E")
    r = only(eng.feed(E("card_dealt", seat="N", card="AC")))   # East's left is South
    assert (r.remedy, r.clause, r.dealer, r.seat) == (Remedy.MISDEAL, "EU-40", N, E_)
    assert "North" in r.reason and "no claim" in r.reason
    assert eng.state.next_dealer == N and eng.state.claims == []


# -- 4: touching in reply to the dealer's touch (laws 35-36) -------------------------------------------

def test_EU_36_touching_in_reply_to_the_dealers_touch_keeps_the_claim() -> None:
    """North (dealing) touched his cards, East touched his in reply, then North exposed a card: the claim
    was refused ("East had touched his cards") because the dealer's touch was not counted at all."""
    eng = in_norths_turn("N")
    eng.feed_all([E("card_dealt", seat="E", card="AC"), E("deal_interrupted", seat="N", how="touched"),
                  E("deal_interrupted", seat="E", how="touched")])
    r = only(eng.feed(E("card_faced", card="KC", where="deal", by="N")))
    assert (r.remedy, r.clause, r.side) == (Remedy.CLAIM_OPTION, "EU-35", E_.side)
    r = only(eng.feed(E("demand", seat="E", what="new_deal")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-35", N)


def test_EU_35_the_dealers_own_touch_still_bars_nobody_of_his_side() -> None:
    eng = in_norths_turn("N")
    eng.feed_all([E("card_dealt", seat="E", card="AC"), E("deal_interrupted", seat="N", how="touched")])
    r = only(eng.feed(E("card_faced", card="KC", where="deal", by="E")))
    assert (r.remedy, r.clause, r.side) == (Remedy.CLAIM_OPTION, "EU-35", N.side)


# -- 7: a typed result is checked against the hand the table recorded (EU-result-check) -----------------

PLAYED_OUT = ("E:AC", "S:7C", "W:TD", "N:AS", "E:KC", "S:8C", "W:JD", "N:7H", "W:AH", "N:8H", "E:QC", "S:9C",
              "W:KH", "N:TH", "E:JC", "S:AD", "W:QH", "N:JH", "E:TC", "S:KD")   # North-South take one trick


def played_out(alone: bool = False) -> LawEngine:
    eng = dealt(E("trump_made", seat="S", suit="H", alone=alone), E("discard", seat="N", card="9H"))
    plays = PLAYED_OUT if not alone else tuple(p for p in PLAYED_OUT if not p.startswith("N:"))
    assert play(eng, *plays) == []
    return eng


def test_a_typed_result_equal_to_the_cards_is_scored_without_a_word() -> None:
    [score] = played_out().feed(E("result", makers="NS", tricks=1))
    assert (score.remedy, score.extra["scored_by"], score.extra["points"]) == (Remedy.SCORE, "EW", 2)


def test_a_typed_result_that_differs_is_named_and_the_cards_are_scored() -> None:
    """'5 tricks' typed for a hand the cards give North-South one trick of: scored as a march, no word."""
    check, score = played_out().feed(E("result", makers="NS", tricks=5))
    assert (check.remedy, check.clause, check.extra["differs"]) == (Remedy.ATTENTION, "EU-result-check", ["tricks"])
    assert check.extra["entered"]["tricks"] == 5 and check.extra["derived"]["tricks"] == 1
    assert (score.extra["scored_by"], score.extra["points"], score.extra["tricks"]) == ("EW", 2, 1)


def test_the_makers_and_the_lone_hand_are_the_recorded_ones() -> None:
    """Makers East-West typed though South made trump were scored for East-West; a lone hand typed without
    ``alone`` was scored as a partners' hand (while its renege was charged as a lone hand's)."""
    check, score = dealt(E("trump_made", seat="S", suit="H")).feed(E("result", makers="EW", tricks=3))
    assert check.clause == "EU-result-check" and check.extra["differs"] == ["makers"]
    assert (score.extra["makers"], score.extra["scored_by"], score.extra["points"]) == ("NS", "NS", 1)
    check, score = played_out(alone=True).feed(E("result", makers="NS", tricks=0))   # alone, South takes none
    assert check.extra["differs"] == ["alone"] and "a lone hand" in check.reason
    assert (score.extra["alone"], score.extra["scored_by"], score.extra["points"]) == (True, "EW", 4)


# -- 5: rights granted only to whom the law gives them (laws 35, 70, 89) ---------------------------------

def test_EU_89_the_demand_is_the_lone_players_not_his_partners() -> None:
    """West alone (the third hand), South leads before the dealer discards: East, who sits out, demanded
    North's lowest card and was granted it."""
    eng = LawEngine("euchre")
    eng.state.next_dealer = N
    eng.feed_all(euchre_known_deal(N, HANDS | {S: ["7C", "8C", "9C", "AD", "KS"]}, "JH"))
    eng.feed_all([E("trump_made", seat="W", suit="H", alone=True), E("card_played", seat="S", card="KS")])
    r = only(eng.feed(E("demand", seat="E", what="call_lowest")))
    assert (r.remedy, r.seat) == (Remedy.DEAL_STANDS, E_) and "lone player" in r.reason
    r = only(eng.feed(E("demand", seat="W", what="call_lowest")))
    assert (r.remedy, r.clause, r.extra["call"]) == (Remedy.ATTENTION, "EU-89", "lowest")


def test_EU_70_playing_out_is_the_revoking_sides_choice() -> None:
    """East-West had not revoked; East's play_out was granted all the same."""
    eng = dealt(E("trump_made", seat="S", suit="H"))
    play(eng, "E:AC", "S:AD", "W:TD", "N:AS", "E:KC")        # South kept his clubs: a revoke, established
    r = only(eng.feed(E("demand", seat="E", what="play_out")))
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "EU-70") and "East-West have not revoked" in r.reason
    assert said(eng.feed(E("demand", seat="S", what="play_out"))) == [("attention", "EU-70")]


def test_EU_35_after_an_adversarys_exposure_the_claim_is_the_dealers() -> None:
    """East exposed a card in dealing: the claim was offered to North-South and South's was granted."""
    eng = in_norths_turn("N")
    eng.feed(E("card_dealt", seat="E", card="AC"))
    offer = only(eng.feed(E("card_faced", card="KC", where="deal", by="E")))
    assert "the dealer, North" in offer.reason
    r = only(eng.feed(E("demand", seat="S", what="new_deal")))
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "EU-35") and "dealer's" in r.reason
    r = only(eng.feed(E("demand", seat="N", what="new_deal")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-35", N)


# -- 6: a refusal gives its true reason (laws 60, 80) --------------------------------------------------

def test_EU_60_the_wrong_sides_claim_is_refused_for_being_the_other_sides() -> None:
    """West missed a trick; East's claim was refused 'but the trump card has been turned' while North's, at
    the same moment, was granted."""
    eng = dealt(E("trump_made", seat="S", suit="H"))
    play(eng, "E:AC", "S:7C", "N:AS")
    eng.feed(E("surplus_card", seat="W", cause="play"))
    r = only(eng.feed(E("demand", seat="E", what="new_deal")))
    assert r.remedy is Remedy.DEAL_STANDS and "North-South's to claim" in r.reason
    assert only(eng.feed(E("demand", seat="N", what="new_deal"))).remedy is Remedy.REDEAL


def test_EU_80_the_offending_side_cannot_hold_its_own_late_order() -> None:
    """East passed then ordered up; West asked to hold it and was told 'there is none to hold'."""
    eng = dealt(E("bid", seat="E", call="pass"), E("bid", seat="S", call="pass"), E("bid", seat="E", call="order"))
    r = only(eng.feed(E("demand", seat="W", what="hold_order")))
    assert r.remedy is Remedy.DEAL_STANDS and "his own side's" in r.reason and "none to hold" not in r.reason



def test_the_sitting_out_partner_names_no_card_held_apart() -> None:
    """North, sitting out for South, named the KC as held apart by East, and East's KC was called: a naming
    is a call (law 51), and his side's calls are the lone player's."""
    eng = lone_south()
    r = only(eng.feed(E("demand", seat="N", what="name_card", card="KC")))
    assert (r.remedy, r.clause, r.seat) == (Remedy.DEAL_STANDS, "EU-51", N) and "lone player's" in r.reason
    assert eng.state.deal is not None and eng.state.deal.calls == [] and eng.state.deal.exposed[E_] == []
    r = only(eng.feed(E("demand", seat="S", what="name_card", card="KC")))
    assert (r.remedy, r.seat, r.extra["call"]) == (Remedy.ATTENTION, E_, "card")

# -- 6 (c): law 68 is said only of what it is about --------------------------------------------------------

def test_EU_68_a_search_after_the_next_cut_is_refused_as_a_search() -> None:
    """A search_tricks after the next cut was answered 'East alleged a revoke ... too late': East had
    alleged nothing, he asked to see the tricks."""
    eng = dealt(E("trump_made", seat="S", suit="H"))
    play(eng, "E:AC", "S:AD", "W:TD", "N:AS", "E:KC")
    eng.feed_all([E("play_end"), E("result", makers="NS", tricks=0)] + prelude(E_))
    r = only(eng.feed(E("demand", seat="E", what="search_tricks")))
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "EU-68")
    assert "asks to examine the tricks after the pack was cut" in r.reason and "alleged" not in r.reason
    r = only(eng.feed(E("demand", seat="E", what="revoke")))
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "EU-68") and "alleged a revoke after the pack" in r.reason


def test_a_revoke_claim_after_a_misdeal_says_the_deal_was_set_aside_not_that_a_cut_came() -> None:
    """North's deal stopped with no card dealt (a misdeal, law 41) and nobody cut again; a revoke demand
    was answered 'after the pack was cut for the next deal', which had not happened."""
    eng = LawEngine("euchre")
    eng.state.next_dealer = N
    assert said(eng.feed_all(prelude(N) + [E("deal_start", dealer="N", pack="red"), E("deal_end")])) == \
        [("misdeal", "EU-41")]
    r = only(eng.feed(E("demand", seat="E", what="revoke")))
    assert (r.remedy, r.clause, r.seat) == (Remedy.ATTENTION, "EU-66", E_)
    assert "set aside by the ruling under Euchre, law 41" in r.reason and "cut" not in r.reason


def test_a_search_after_a_dead_hand_says_the_hand_was_dead_law_77() -> None:
    """All four passed twice (law 77): the search names that ruling, not a cut that never came."""
    passes = [E("bid", seat=st.value, call="pass") for _ in range(2) for st in (E_, S, W, N)]
    eng = dealt()
    assert said(eng.feed_all(passes)) == [("attention", "EU-77")]
    r = only(eng.feed(E("demand", seat="S", what="search_tricks")))
    assert r.remedy is Remedy.ATTENTION and "Euchre, law 77" in r.reason and "cut" not in r.reason


def test_a_revoke_claim_before_any_deal_says_there_is_none() -> None:
    r = only(LawEngine("euchre").feed(E("demand", seat="W", what="revoke")))
    assert r.remedy is Remedy.ATTENTION and "no deal has been dealt yet" in r.reason
