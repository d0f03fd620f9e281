"""Euchre laws where a right is not a duty, and the exact law numbers (issue 12): 23-31, 35-37, 42-43,
63, 90 and a rubber with no draw on record. Each test fails on the engine before issue 12."""

from __future__ import annotations

import random

from laws.cards import Card, Seat
from laws.engine import LawEngine
from laws.rulings import Remedy, Ruling
from tests.laws.streams import EUCHRE_PACK, E, euchre_deal, law_table, only, prelude, shuffled

N, E_, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def table(dealer: Seat = N) -> LawEngine:
    return law_table("euchre", dealer)


def cards(seed: int = 1) -> list[Card]:
    return shuffled(EUCHRE_PACK, random.Random(seed))


def said(rulings: list[Ruling]) -> list[tuple[str, str]]:
    return [(r.remedy.value, r.clause) for r in rulings]


# -- shuffling and the cut (laws 22-31) --------------------------------------------------------------

def test_EU_27_the_dealer_need_not_shuffle_last() -> None:
    """Law 27 gives the dealer a right to shuffle last, not a duty: a partner's shuffle then a proper cut
    and deal make no ruling at all (no reshuffle, no 'uncut pack' claim)."""
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    assert eng.feed_all([E("shuffle", seat="S"), E("cut", seat="W", top=16, bottom=16)] + events) == []


def test_EU_27_card_seen_while_the_dealer_shuffles_is_a_claim_not_a_reshuffle() -> None:
    eng = table(N)
    eng.feed(E("shuffle", seat="N"))
    r = only(eng.feed(E("card_faced", card="JH", where="pack")))
    assert (r.remedy, r.clause, r.side) == (Remedy.CLAIM_OPTION, "EU-27", E_.side)
    # the dealer's own side has no such demand; an adversary's demand compels the reshuffle
    assert only(eng.feed(E("demand", seat="S", what="new_shuffle"))).clause != "EU-27"
    r = only(eng.feed(E("demand", seat="E", what="new_shuffle")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.RESHUFFLE, "EU-27", N)


def test_EU_27_unclaimed_sighting_lapses_when_the_deal_starts() -> None:
    eng = table(N)
    eng.feed_all([E("shuffle", seat="N"), E("card_faced", card="JH", where="pack"),
                  E("cut", seat="W", top=16, bottom=16)])
    events, _, _ = euchre_deal(N, cards())
    rulings = eng.feed_all(events)
    assert said(rulings) == [("deal_stands", "EU-27")]   # no 'uncut pack' claim after it


def test_EU_24_the_dealer_does_not_shuffle_twice_in_a_row() -> None:
    """North, the dealer, shuffled and shuffled again, and asked for a third: nothing was said, as if law
    27's "shuffle last" were a second shuffle. His one shuffle may be the last (law 24's exception): he
    shuffles again only after another player's shuffle, or when his adversaries compel it."""
    once = ("each player shuffles once, and the dealer again only to be last after another player's shuffle, or "
            "when his adversaries compel it (law 27).")
    eng = table(N)
    assert eng.feed(E("shuffle", seat="N")) == []
    r = only(eng.feed(E("shuffle", seat="N")))
    assert (r.remedy, r.clause, r.seat) == (Remedy.ATTENTION, "EU-24", N)
    assert r.reason == "North shuffled a second time; " + once
    r = only(eng.feed(E("demand", seat="N", what="new_shuffle")))
    assert (r.remedy, r.clause, r.reason) == (Remedy.ATTENTION, "EU-24", "North asked to shuffle again; " + once)
    assert eng.feed_all([E("shuffle", seat="S"), E("shuffle", seat="N")]) == []   # last, after South's


def test_EU_27_a_compelled_reshuffle_is_no_second_shuffle() -> None:
    eng = table(N)
    eng.feed_all([E("shuffle", seat="N"), E("card_faced", card="JH", where="pack")])
    assert only(eng.feed(E("demand", seat="E", what="new_shuffle"))).remedy is Remedy.RESHUFFLE
    assert eng.feed(E("shuffle", seat="N")) == []                     # the reshuffle East compelled
    assert said(eng.feed(E("shuffle", seat="N"))) == [("attention", "EU-24")]   # one more is his own
    events, _, _ = euchre_deal(N, cards())
    assert eng.feed_all([E("cut", seat="W", top=16, bottom=16)] + events) == []


def test_EU_22_face_shown_by_another_player_shuffling_is_only_noted() -> None:
    eng = table(N)
    eng.feed(E("shuffle", seat="S"))
    r = only(eng.feed(E("card_faced", card="9C", where="pack", by="S")))
    assert (r.remedy, r.clause) == (Remedy.ATTENTION, "EU-22")


def test_EU_23_no_shuffle_while_a_hand_is_played() -> None:
    eng = table(N)
    events, hands, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events)
    eng.feed(E("card_played", seat="E", card=hands[E_][0].code))
    assert said(eng.feed(E("shuffle", seat="S"))) == [("attention", "EU-23")]


def test_EU_23_the_hand_goes_on_after_a_shuffle_in_play() -> None:
    """The shuffle is only noted: the cards stay as they are. It moved the table to its shuffle, so every later
    card was ignored, a revoke went unruled and the hand's result was dropped ("no hand awaits a result")."""
    from laws.state import Phase

    eng = table(N)
    events, hands, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events)
    eng.feed(E("card_played", seat="E", card=hands[E_][0].code))
    eng.feed(E("shuffle", seat="W"))
    assert eng.state.phase is Phase.PLAY and eng.state.deal is not None
    before = eng.ignored
    eng.feed_all([E("card_played", seat="S", card=hands[S][0].code), E("card_played", seat="W", card=hands[W][0].code)])
    assert eng.ignored == before and eng.state.phase is Phase.PLAY      # the cards count


def test_EU_24_each_player_shuffles_once() -> None:
    eng = table(N)
    eng.feed(E("shuffle", seat="S"))
    assert said(eng.feed(E("shuffle", seat="S"))) == [("attention", "EU-24")]


def test_EU_29_card_exposed_in_the_cut_means_a_fresh_cut() -> None:
    eng = table(N)
    eng.feed_all([E("shuffle", seat="S"), E("shuffle", seat="N")])
    assert said(eng.feed(E("cut", seat="W", top=16, bottom=16, exposed=1))) == [("new_cut", "EU-29")]


def test_EU_30_the_cut_is_final() -> None:
    eng = table(N)
    eng.feed_all(prelude(N))
    assert said(eng.feed(E("cut", seat="W", top=10, bottom=22))) == [("deal_stands", "EU-30")]


def test_EU_31_dealer_who_shuffles_after_the_cut_forfeits_the_deal() -> None:
    eng = table(N)
    eng.feed_all(prelude(N))
    r = only(eng.feed(E("shuffle", seat="N")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.LOSE_DEAL, "EU-31", E_)


# -- exposure in dealing (laws 35-37) ----------------------------------------------------------------

def _dealing(upto: int) -> tuple[LawEngine, list]:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:upto])
    return eng, events


def test_EU_35_adversaries_who_touched_their_cards_cannot_claim() -> None:
    eng, _ = _dealing(6)
    eng.feed(E("deal_interrupted", seat="W", how="touched"))
    r = only(eng.feed(E("card_faced", card="KD", where="deal", by="N")))
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "EU-35")
    assert only(eng.feed(E("demand", seat="E", what="new_deal"))).remedy is Remedy.DEAL_STANDS


def test_EU_35_touching_after_the_exposure_ends_the_claim() -> None:
    eng, _ = _dealing(6)
    assert only(eng.feed(E("card_faced", card="KD", where="deal", by="N"))).remedy is Remedy.CLAIM_OPTION
    eng.feed(E("deal_interrupted", seat="E", how="touched"))
    r = only(eng.feed(E("demand", seat="W", what="new_deal")))
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "EU-35")


def test_EU_35_dealer_may_claim_unless_his_partner_touched() -> None:
    eng, _ = _dealing(6)
    eng.feed(E("card_faced", card="KD", where="deal", by="E"))
    eng.feed(E("deal_interrupted", seat="S", how="touched"))
    assert only(eng.feed(E("demand", seat="N", what="new_deal"))).remedy is Remedy.DEAL_STANDS
    eng2, _ = _dealing(6)
    eng2.feed(E("card_faced", card="KD", where="deal", by="E"))
    r = only(eng2.feed(E("demand", seat="N", what="new_deal")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-35", N)


def test_EU_36_touching_in_reply_keeps_the_claim() -> None:
    eng, _ = _dealing(6)
    eng.feed_all([E("deal_interrupted", seat="S", how="touched"), E("deal_interrupted", seat="E", how="touched")])
    assert only(eng.feed(E("card_faced", card="KD", where="deal", by="N"))).remedy is Remedy.CLAIM_OPTION
    r = only(eng.feed(E("demand", seat="E", what="new_deal")))
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "EU-35")


def test_EU_37_trump_turned_at_once_after_a_late_exposure_keeps_the_claim() -> None:
    eng, events = _dealing(19)                       # one card of the last packet still to come
    r = only(eng.feed(E("card_faced", card="KD", where="deal", by="N")))
    assert (r.remedy, r.clause) == (Remedy.CLAIM_OPTION, "EU-37")
    assert eng.feed_all(events[19:]) == []           # last card, deal end, trump turned: claim still open
    r = only(eng.feed(E("demand", seat="E", what="new_deal")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-37", N)


def test_EU_37_late_claim_lapses_at_the_first_lead() -> None:
    eng, events = _dealing(19)
    eng.feed(E("card_faced", card="KD", where="deal", by="N"))
    eng.feed_all(events[19:])
    lead = eng.state.deal.hands[E_][0]  # type: ignore[union-attr]
    assert said(eng.feed(E("card_played", seat="E", card=lead.code))) == [("deal_stands", "EU-37")]


# -- misdeal (laws 41-43) ------------------------------------------------------------------------------

def test_EU_42_a_round_of_mixed_packets_is_a_misdeal() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards(), first=(2, 3, 2, 3))
    rulings = eng.feed_all(prelude(N) + events)
    r = only(rulings)
    assert (r.remedy, r.clause, r.dealer) == (Remedy.MISDEAL, "EU-41", E_)
    assert "round" in r.reason


def test_EU_42_all_threes_then_all_twos_is_correct() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards(), first=(3, 3, 3, 3))
    assert eng.feed_all(prelude(N) + events) == []


def test_EU_43_dealers_partner_touched_first_the_deal_is_lost() -> None:
    eng = table(N)
    eng.feed_all(prelude(N) + [E("deal_start", dealer="N", pack="red"),
                               E("deal_interrupted", seat="S", how="touched"),
                               E("deal_interrupted", seat="E", how="touched")])
    c = cards()
    eng.feed(E("card_dealt", seat="E", card=c[0].code))
    r = only(eng.feed(E("card_dealt", seat="S", card=c[1].code)))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.MISDEAL, "EU-43", E_)


# -- the lone-hand figure (laws 63, 90) ----------------------------------------------------------------

HANDS = {  # North deals 2-2-2-2 then 3-3-3-3; every play below is known
    E_: ["AC", "KC", "9H", "9D", "TD"],
    S: ["7C", "8S", "9S", "AS", "KS"],
    W: ["AD", "KD", "QD", "8D", "7D"],
    N: ["AH", "KH", "QH", "JH", "TH"],
}


def known_deal(maker: str, alone: bool) -> LawEngine:
    eng = table(N)
    events = prelude(N) + [E("deal_start", dealer="N", pack="red")]
    order = [E_, S, W, N]
    for lo, hi in ((0, 2), (2, 5)):
        events += [E("card_dealt", seat=s.value, card=c) for s in order for c in HANDS[s][lo:hi]]
    events += [E("deal_end"), E("trump_turned", card="7S"), E("trump_made", seat=maker, suit="H", alone=alone)]
    assert eng.feed_all(events) == []
    return eng


def test_EU_63_a_revoke_by_the_lone_players_side_costs_five() -> None:
    eng = known_deal("S", alone=True)            # South alone; North sits out
    for seat, card in (("E", "AC"), ("S", "8S"), ("W", "AD")):  # South revokes, holding 7C
        eng.feed(E("card_played", seat=seat, card=card))
    eng.feed(E("card_played", seat="E", card="KC"))            # East leads again (the revoke is established)
    pen = [r for r in eng.feed(E("play_end")) if r.remedy is Remedy.PENALTY]
    assert [(p.side, p.extra["points"]) for p in pen] == [(S.side, 5)]


def taken_up() -> LawEngine:
    """North deals, turns the 8H and East orders it up: North takes the turned card into his hand."""
    eng = table(N)
    events = prelude(N) + [E("deal_start", dealer="N", pack="red")]
    order = [E_, S, W, N]
    for lo, hi in ((0, 2), (2, 5)):
        events += [E("card_dealt", seat=s.value, card=c) for s in order for c in HANDS[s][lo:hi]]
    events += [E("deal_end"), E("trump_turned", card="8H"), E("bid", seat="E", call="order"),
               E("trump_made", seat="E", suit="H", alone=False)]
    eng.feed_all(events)
    return eng


def test_EU_90_six_cards_before_the_discard_are_lawful() -> None:
    """Laws 86-87: the dealer holds six cards from taking up the turned card until he discards. A count of six
    then was penalised as a wrong number of cards; five (a discard the table did not record) is taken too."""
    eng = taken_up()
    assert eng.feed(E("hand_count", seat="N", count=6)) == []
    assert eng.feed(E("hand_count", seat="N", count=5)) == []
    assert said(eng.feed(E("hand_count", seat="N", count=7)))[0] == ("deal_stands", "EU-90")


def test_EU_90_the_dealer_who_plays_before_discarding() -> None:
    """Law 90's second case: a discard recorded after the dealer's own card. It was only noted under law 87
    (the option to exchange after the eldest's lead), with no forfeit."""
    eng = taken_up()
    for seat, card in (("E", "AC"), ("S", "7C"), ("W", "AD"), ("N", "AH")):
        eng.feed(E("card_played", seat=seat, card=card))
    rulings = eng.feed(E("discard", seat="N", card="TH"))
    assert said(rulings)[:2] == [("deal_stands", "EU-90"), ("penalty", "EU-90")]
    pen = [r for r in rulings if r.remedy is Remedy.PENALTY]
    assert [(p.side, p.extra["points"]) for p in pen] == [(N.side, 2)]


def test_EU_87_a_discard_after_the_eldests_lead_but_before_the_dealers_card_is_only_noted() -> None:
    eng = taken_up()
    eng.feed(E("card_played", seat="E", card="AC"))
    assert said(eng.feed(E("discard", seat="N", card="TH"))) == [("attention", "EU-87")]


def test_EU_90_lone_hand_figure_whichever_side_is_at_fault() -> None:
    eng = known_deal("N", alone=True)
    rulings = eng.feed(E("hand_count", seat="E", count=4))
    pen = [r for r in rulings if r.remedy is Remedy.PENALTY]
    assert [(p.side, p.extra["points"]) for p in pen] == [(E_.side, 4)]


# -- a rubber with no draw on record (laws 1, 15) ------------------------------------------------------

def test_EU_1_rubber_without_a_draw_on_record_ends_cleanly() -> None:
    eng = LawEngine("euchre")
    rnd = random.Random(7)
    dealer = N
    rulings: list[Ruling] = []
    for _ in range(12):                        # marches by North-South until the rubber is won (law 1)
        events, _, _ = euchre_deal(dealer, shuffled(EUCHRE_PACK, rnd))
        rulings += eng.feed_all(prelude(dealer) + events + [E("trump_made", seat="N", suit="H"),
                                                            E("result", makers="NS", tricks=5)])
        dealer = dealer.left
        if any(r.remedy is Remedy.RUBBER_WON for r in rulings):
            break
    won = [r for r in rulings if r.remedy is Remedy.RUBBER_WON]
    assert len(won) == 1 and won[0].side == N.side


def test_a_lapsed_claims_dealer_is_who_deals_next() -> None:
    """docs/events.md: a ruling's ``dealer`` is who deals next. A claim that lapsed (the deal stands) named who
    would have dealt had it been made: at bridge, North, whose deal East took, while South deals next."""
    from tests.laws.streams import bridge_deal

    eng = law_table("contract-bridge", N)
    deck = shuffled([Card(r, s) for s in "CDHS" for r in "23456789TJQKA"], random.Random(3))
    rulings = eng.feed_all(prelude(N) + bridge_deal(E_, deck))
    lapse = [r for r in rulings if r.remedy is Remedy.DEAL_STANDS]
    assert [(r.clause, r.dealer) for r in lapse] == [("CB-redeal-out-of-turn", S)]
