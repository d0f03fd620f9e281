"""Tests for the Euchre clauses (Somerset laws 22-45, 72, 90 and revokes 62-71), named after the law."""

from __future__ import annotations

import random

from laws.cards import Card, Seat
from laws.engine import LawEngine
from laws.games.euchre_deal import pattern_fault
from laws.rulings import Remedy
from laws.state import Phase
from tests.laws.streams import EUCHRE_PACK, E, euchre_deal, law_table, only, prelude, shuffled

N, E_, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def table(dealer: Seat = N) -> LawEngine:
    return law_table("euchre", dealer)


def cards(seed: int = 1) -> list[Card]:
    return shuffled(EUCHRE_PACK, random.Random(seed))


def dealt(dealer: Seat = N, seed: int = 1, first: tuple[int, int, int, int] = (2, 2, 2, 2)) -> LawEngine:
    eng = table(dealer)
    events, _, _ = euchre_deal(dealer, cards(seed), first)
    assert eng.feed_all(prelude(dealer) + events) == []
    return eng


def test_clean_deal_both_patterns() -> None:
    for first in ((2, 2, 2, 2), (3, 3, 3, 3)):
        eng = dealt(first=first)
        assert eng.state.phase == Phase.AUCTION


def test_the_kitty_left_in_the_shoe_is_no_surplus_card() -> None:
    """A euchre deal always ends with the kitty in the shoe's well (DEAL_FINISHED ``left_in_shoe`` 1):
    nothing to rule, unlike bridge's 53rd card (CB-surplus-deal)."""
    eng = table()
    events, _, _ = euchre_deal(N, cards())
    events = [E("deal_end", left_in_shoe=True) if e.TYPE == "deal_end" else e for e in events]
    assert eng.feed_all(prelude(N) + events) == []
    assert eng.state.phase == Phase.AUCTION


def test_pattern_fault_checker() -> None:
    seats = [E_, E_, S, S, W, W, N, N, E_, E_, E_, S, S, S, W, W, W, N, N, N]
    assert pattern_fault(N, seats, complete=True) is None
    assert "packet of 1" in (pattern_fault(N, [E_, S], complete=False) or "")
    assert "4 cards" in (pattern_fault(N, [E_] * 4, complete=False) or "")
    assert "stopped after" in (pattern_fault(N, seats[:-3], complete=True) or "")
    assert "second round" in (pattern_fault(N, [E_, E_, S, S, W, W, N, N, E_, E_, S], complete=False) or "")
    assert "first round" in (pattern_fault(N, [E_, E_, S, S, S], complete=False) or "")


def test_EU_29_right_hand_opponent_cuts() -> None:
    eng = table(N)
    eng.feed_all([E("shuffle", seat="S"), E("shuffle", seat="N")])
    r = only(eng.feed(E("cut", seat="E", top=16, bottom=16)))
    assert (r.remedy, r.clause) == (Remedy.NEW_CUT, "EU-29")


def test_EU_29_packets_of_four() -> None:
    eng = table(N)
    eng.feed_all([E("shuffle", seat="S"), E("shuffle", seat="N")])
    r = only(eng.feed(E("cut", seat="W", top=3, bottom=29)))
    assert (r.remedy, r.clause) == (Remedy.NEW_CUT, "EU-29")


def test_EU_29_card_exposed_in_cut_from_the_camera() -> None:
    eng2 = table(N)
    eng2.feed_all(prelude(N))
    r = only(eng2.feed(E("card_faced", card="AD", where="cut")))
    assert (r.remedy, r.clause) == (Remedy.NEW_CUT, "EU-29")


def test_EU_72_new_cards_before_cut() -> None:
    eng = table(N)
    r = only(eng.feed(E("demand", seat="E", what="new_cards")))
    assert (r.remedy, r.clause) == (Remedy.NEW_CARDS, "EU-72")
    eng.feed_all(prelude(N))
    assert only(eng.feed(E("demand", seat="E", what="new_cards"))).remedy is Remedy.DEAL_STANDS


def test_EU_24_shuffle_demand() -> None:
    eng = table(N)
    assert only(eng.feed(E("demand", seat="E", what="new_shuffle"))).remedy is Remedy.RESHUFFLE
    eng.feed_all(prelude(N))
    r = only(eng.feed(E("demand", seat="E", what="new_shuffle")))
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "EU-30")


def test_EU_33_duplicate_card_new_deal_same_dealer() -> None:
    eng = table(N)
    events, hands, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:3])
    r = only(eng.feed(E("card_dealt", seat="S", card=hands[E_][0].code)))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-33", N)


def test_EU_33_unreadable_and_foreign_and_non_euchre_cards() -> None:
    """A card of the other pack is dealt again from the pack put right; an unreadable card or a card no
    euchre pack holds (a bridge pack in the shoe) stays in the pack, so the same dealer deals again with
    a replacement pack (docs/events.md, "Packs: replaced and restored"): dealing the same pack again
    stopped at the same card, deal after deal (113 redeals in a run), and NEW PACK never lit."""
    for card, pack, remedy in ((None, None, Remedy.REPLACE_PACK), ("AS", "blue", Remedy.REDEAL),
                               ("2C", None, Remedy.REPLACE_PACK), ("2C", "blue", Remedy.REPLACE_PACK)):
        eng = table(N)
        events, _, _ = euchre_deal(N, cards(5))
        eng.feed_all(prelude(N) + events[:3])
        fields = {"seat": "S", "card": card} | ({"pack": pack} if pack else {})
        r = only(eng.feed(E("card_dealt", **fields)))
        assert (r.remedy, r.clause, r.dealer) == (remedy, "EU-33", N), card
        assert eng.state.deal is not None and eng.state.deal.void, card


def test_EU_33_damaged_card_in_play_and_between_deals() -> None:
    eng = dealt()
    r = only(eng.feed(E("damaged_card", card="9S", pack="red")))
    assert (r.remedy, r.clause, r.dealer, r.pack) == (Remedy.REPLACE_PACK, "EU-33", N, "red")
    assert "replacement pack" in r.reason and eng.state.deal is not None and eng.state.deal.void
    eng2 = table()
    assert only(eng2.feed(E("damaged_card", card="9S", pack="red"))).remedy is Remedy.REPLACE_PACK
    # the camera saw a card shape whose code never reads: the sentence still reads as English
    r = only(dealt().feed(E("damaged_card", card=None, pack="red")))
    assert r.reason.startswith("An unreadable card of pack red is damaged"), r.reason


def test_EU_34_card_faced_in_pack() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:5])
    r = only(eng.feed(E("card_dealt", seat=events[5].seat.value, card=events[5].card.code,  # type: ignore[attr-defined]
                        face_up=True)))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-34", N)


def test_EU_34_faced_in_rest_of_pack_before_lead() -> None:
    eng = dealt()
    r = only(eng.feed(E("card_faced", card="8C", where="pack")))
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "EU-34")


def test_EU_35_exposed_by_dealer_opponents_may_claim() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:6])
    r = only(eng.feed(E("card_faced", card="KD", where="deal", by="N")))
    assert (r.remedy, r.clause, r.side) == (Remedy.CLAIM_OPTION, "EU-35", E_.side)
    # the dealer's own side cannot claim
    assert only(eng.feed(E("demand", seat="S", what="new_deal"))).remedy is Remedy.DEAL_STANDS
    r = only(eng.feed(E("demand", seat="W", what="new_deal")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-35", N)


def test_EU_36_exposed_by_opponent_dealer_side_may_claim() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:6])
    r = only(eng.feed(E("card_faced", card="KD", where="deal", by="E")))
    assert (r.remedy, r.side) == (Remedy.CLAIM_OPTION, N.side)


def test_EU_37_unclaimed_exposure_lapses_at_trump() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:6])
    eng.feed(E("card_faced", card="KD", where="deal", by="N"))
    rulings = eng.feed_all(events[6:])
    r = only(rulings)
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "EU-35")
    assert only(eng.feed(E("demand", seat="E", what="new_deal"))).remedy is Remedy.DEAL_STANDS


def test_EU_38_wrong_pack() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards(), pack="blue")
    eng.feed_all(prelude(N))
    r = only(eng.feed(events[0]))
    assert (r.remedy, r.clause, r.side) == (Remedy.CLAIM_OPTION, "EU-38", E_.side)
    eng.feed_all(events[1:4])
    r = only(eng.feed(E("demand", seat="E", what="new_deal")))
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "EU-38")


def test_EU_38_wrong_pack_stands_after_trump() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards(), pack="blue")
    eng.feed_all(prelude(N))
    rulings = eng.feed_all(events)
    assert [r.remedy for r in rulings] == [Remedy.CLAIM_OPTION, Remedy.DEAL_STANDS]


def test_EU_39_exposed_while_turning_trump() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:-1])
    r = only(eng.feed(E("card_faced", card="7S", where="trump")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-39", N)


def test_EU_40_out_of_turn_stopped_before_trump() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(S, cards())
    eng.feed_all(prelude(N))
    r = only(eng.feed(events[0]))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.CLAIM_OPTION, "EU-40", N)
    eng.feed_all(events[1:10])
    r = only(eng.feed(E("demand", seat="N", what="new_deal")))
    assert (r.remedy, r.dealer) == (Remedy.REDEAL, N)


def test_EU_40_out_of_turn_stands_after_trump() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(S, cards())
    eng.feed_all(prelude(N))
    rulings = eng.feed_all(events)
    assert [r.remedy for r in rulings] == [Remedy.CLAIM_OPTION, Remedy.DEAL_STANDS]


def test_EU_40_out_of_turn_stands_names_who_deals_next() -> None:
    # docs/laws.md EU-40, docs/events.md `lapse`: once the trump card is turned the deal is South's and the
    # rotation goes on from him, so the sentence names West, the ruling's ``dealer``, not North's left
    eng = table(N)
    events, _, _ = euchre_deal(S, cards())
    eng.feed_all(prelude(N))
    claim, r = eng.feed_all(events)
    assert (r.remedy, r.clause, r.dealer) == (Remedy.DEAL_STANDS, "EU-40", W)
    assert r.reason == ("No redeal was demanded in time, so the deal stands ("
                        f"{claim.reason.rstrip('.')}); the rotation goes on from South, so West deals next.")
    assert eng.state.next_dealer == W


def test_EU_41_misdeal_wrong_packet_loses_deal() -> None:
    eng = table(N)
    eng.feed_all(prelude(N) + [E("deal_start", dealer="N", pack="red")])
    c = cards()
    eng.feed_all([E("card_dealt", seat="E", card=c[0].code)])
    r = only(eng.feed(E("card_dealt", seat="S", card=c[1].code)))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.MISDEAL, "EU-41", E_)
    assert eng.state.next_dealer == E_


def test_EU_42_misdeal_short_deal_found_at_end() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:19])
    r = only(eng.feed(events[21]))  # deal_end after 18 cards
    assert (r.remedy, r.clause) == (Remedy.MISDEAL, "EU-41")


def test_EU_43_opponent_touched_cards_no_loss_of_deal() -> None:
    eng = table(N)
    eng.feed_all(prelude(N) + [E("deal_start", dealer="N", pack="red"),
                               E("deal_interrupted", seat="E", how="touched")])
    c = cards()
    eng.feed(E("card_dealt", seat="E", card=c[0].code))
    r = only(eng.feed(E("card_dealt", seat="S", card=c[1].code)))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-43", N)


def test_EU_44_dealer_interrupted_may_claim_no_loss_of_deal() -> None:
    eng = table(N)
    eng.feed_all(prelude(N) + [E("deal_start", dealer="N", pack="red"),
                               E("deal_interrupted", seat="W", how="interrupted")])
    c = cards()
    r = only(eng.feed(E("card_dealt", seat="S", card=c[1].code)))
    assert (r.remedy, r.clause, r.dealer, r.side) == (Remedy.CLAIM_OPTION, "EU-44", N, N.side)
    r = only(eng.feed(E("demand", seat="S", what="new_deal")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-44", N)


def test_EU_45_dealing_for_partner_next_opponent_deals() -> None:
    eng = table(N)
    eng.feed_all(prelude(N))
    assert eng.feed(E("deal_start", dealer="S", pack="red", on_behalf_of="N")) == []
    c = cards()
    r = only(eng.feed(E("card_dealt", seat="E", card=c[0].code)))  # S deals: his left is W
    assert (r.remedy, r.clause, r.dealer) == (Remedy.MISDEAL, "EU-45", E_)


def test_EU_90_wrong_count_in_play_deal_holds() -> None:
    eng = dealt()
    eng.feed(E("trump_made", seat="E", suit="H"))
    rulings = eng.feed(E("hand_count", seat="S", count=4))
    assert rulings[0].remedy is Remedy.DEAL_STANDS and rulings[0].clause == "EU-90"
    assert any(r.remedy is Remedy.PENALTY for r in rulings)


def test_EU_41_wrong_count_before_trump_is_misdeal() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:-1])  # dealt, trump not yet turned
    r = only(eng.feed(E("hand_count", seat="S", count=6)))
    assert (r.remedy, r.clause) == (Remedy.MISDEAL, "EU-41")


def test_EU_62_revoke_established_and_penalised() -> None:
    eng = table(N)
    events, hands, trump_card = euchre_deal(N, cards(3))
    eng.feed_all(prelude(N) + events)
    trump = next(s for s in "SHDC" if s != trump_card.suit)
    eng.feed(E("trump_made", seat="E", suit=trump))
    # find a lead suit that South holds, and make South discard something else
    lead_card = hands[E_][0]
    led = lead_card.suit if not (lead_card.rank == "J") else lead_card.suit
    from laws.games.euchre_hands import effective_suit
    led = effective_suit(lead_card, trump)
    south_has = [c for c in hands[S] if effective_suit(c, trump) == led]
    south_other = [c for c in hands[S] if effective_suit(c, trump) != led]
    if not south_has or not south_other:
        return _revoke_fallback()
    assert eng.feed(E("card_played", seat="E", card=lead_card.code)) == []
    assert eng.feed(E("card_played", seat="S", card=south_other[0].code)) == []  # revoke, not yet established
    def follow(seat: Seat) -> Card:
        same = [c for c in hands[seat] if effective_suit(c, trump) == led]
        return (same or hands[seat])[0]
    w, n = follow(W), follow(N)
    eng.feed_all([E("card_played", seat="W", card=w.code), E("card_played", seat="N", card=n.code)])
    from laws.games.euchre_hands import power
    trick = [(E_, lead_card), (S, south_other[0]), (W, w), (N, n)]
    winner = max(trick, key=lambda p: power(p[1], trump, led))[0]   # the winner leads the next trick
    nxt = [c for c in hands[winner] if c not in (lead_card, south_other[0], w, n)][0]
    r = only(eng.feed(E("card_played", seat=winner.value, card=nxt.code)))
    assert (r.remedy, r.clause, r.seat) == (Remedy.ATTENTION, "EU-64", S)
    rulings = eng.feed(E("play_end"))
    pen = [r for r in rulings if r.remedy is Remedy.PENALTY]
    assert pen and pen[0].side == S.side


def _revoke_fallback() -> None:
    raise AssertionError("seed 3 must give South both a card of the led suit and another card")


def test_EU_41_trump_turned_before_deal_end_message() -> None:
    """A shoe may report the turned-up trump before it reports the end of the deal."""
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    reordered = events[:-2] + [events[-1], events[-2]]
    assert eng.feed_all(prelude(N) + reordered) == []
    assert eng.state.phase == Phase.AUCTION and eng.state.next_dealer == E_


def test_EU_41_misdeal_text_cites_the_law_its_footer_cites() -> None:
    """The sentence a player reads and the citation under it name the same law (issue 30: the text said
    law 42 while the footer said law 41)."""
    import re
    eng = table(N)
    eng.feed_all(prelude(N) + [E("deal_start", dealer="N", pack="red")])
    c = cards()
    eng.feed_all([E("card_dealt", seat="E", card=c[0].code)])
    r = only(eng.feed(E("card_dealt", seat="S", card=c[1].code)))
    assert r.law == "Euchre, law 41"
    assert re.findall(r"\blaws? (\d+)", r.reason) == ["41"], r.reason


def test_EU_42_a_deal_lost_on_the_shoes_link_is_dealt_again_by_the_same_dealer() -> None:
    """Audit a4, finding 4: cards lost between the shoe and the table are no dealer's fault: a new deal
    by the same dealer that says why, not a misdeal that costs him the deal."""
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    eng.feed_all(prelude(N) + events[:11])
    r = only(eng.feed(E("deal_end", lost=True)))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-42", N)
    assert "lost on the link from the shoe after the 10 the table saw" in r.reason
