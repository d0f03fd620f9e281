"""One or more tests per Contract Bridge clause of docs/laws.md, named after the clause id."""

from __future__ import annotations

import random

import pytest

from laws.cards import Card, Seat
from laws.engine import LawEngine
from laws.rulings import Remedy, Ruling
from laws.state import Phase
from tests.laws.streams import (
    BRIDGE_PACK,
    E,
    bridge_deal,
    bridge_hands,
    bridge_play,
    law_table,
    only,
    prelude,
    shuffled,
)

N, E_, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def table(dealer: Seat = N) -> LawEngine:
    return law_table("contract-bridge", dealer)


def cards(seed: int = 1) -> list[Card]:
    return shuffled(BRIDGE_PACK, random.Random(seed))


def run(eng: LawEngine, events: list) -> list[Ruling]:
    return eng.feed_all(events)


def test_clean_deal_makes_no_ruling() -> None:
    eng = table()
    assert run(eng, prelude(N) + bridge_deal(N, cards())) == []
    assert eng.state.phase == Phase.AUCTION
    assert eng.state.next_dealer == E_


def test_CB_shuffle_demand_before_first_card() -> None:
    eng = table()
    run(eng, prelude(N))
    r = only(eng.feed(E("demand", seat="W", what="new_shuffle")))
    assert (r.remedy, r.clause) == (Remedy.NEW_SHUFFLE_AND_CUT, "CB-shuffle-demand")
    assert eng.state.phase == Phase.SHUFFLE and not eng.state.cut_done


def test_CB_shuffle_demand_too_late_after_first_card() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards())[:3])
    r = only(eng.feed(E("demand", seat="W", what="new_shuffle")))
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "CB-shuffle-demand")


def test_CB_cut_faced_from_cut_event_and_from_camera() -> None:
    eng = table()
    run(eng, prelude(N)[:2])
    r = only(eng.feed(E("cut", seat="W", faced=True, top=20, bottom=32)))
    assert (r.remedy, r.clause) == (Remedy.NEW_SHUFFLE_AND_CUT, "CB-cut-faced")
    eng2 = table()
    run(eng2, prelude(N))
    r2 = only(eng2.feed(E("card_faced", card="QH", where="cut")))
    assert (r2.remedy, r2.clause) == (Remedy.NEW_SHUFFLE_AND_CUT, "CB-cut-faced")
    assert "queen of hearts" in r2.reason


def test_CB_cut_practice_wrong_seat_and_small_packet() -> None:
    eng = table()
    r = only(eng.feed(E("cut", seat="E", top=26, bottom=26)))
    assert (r.remedy, r.clause) == (Remedy.NEW_CUT, "CB-cut-practice")
    r = only(eng.feed(E("cut", seat="W", top=3, bottom=49)))
    assert r.remedy is Remedy.NEW_CUT and "3 cards" in r.reason


def test_CB_pack_damaged_between_deals() -> None:
    eng = table()
    r = only(eng.feed(E("damaged_card", card="7C", pack="red")))
    assert (r.remedy, r.clause, r.pack) == (Remedy.REPLACE_PACK, "CB-pack-damaged", "red")


def test_CB_pack_damaged_unknown_card_seen_by_the_camera() -> None:
    r = only(table().feed(E("damaged_card", card=None, pack="red")))
    assert r.remedy is Remedy.REPLACE_PACK and r.reason.startswith("An unreadable card of pack red"), r.reason


def test_CB_pack_damaged_undistinguishable_needs_nothing() -> None:
    assert table().feed(E("damaged_card", card="7C", pack="red", distinguishable=False)) == []


def test_CB_pack_damaged_unreadable_card_from_shoe_during_deal() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards())[:5])
    r = only(eng.feed(E("card_dealt", seat="E", card=None)))
    assert (r.remedy, r.clause, r.dealer, r.pack) == (Remedy.REPLACE_PACK, "CB-pack-damaged", N, "red")
    assert eng.state.deal is not None and eng.state.deal.void
    # the rest of the voided deal is ignored
    assert run(eng, bridge_deal(N, cards())[6:]) == []


def test_CB_pack_reclaim() -> None:
    eng = table()
    r = only(eng.feed(E("demand", seat="E", what="restore_pack")))
    assert (r.remedy, r.clause, r.pack, r.side) == (Remedy.RESTORE_PACK, "CB-pack-reclaim", "blue", E_.side)


def test_CB_redeal_out_of_turn_demanded_in_time() -> None:
    eng = table(dealer=N)
    run(eng, prelude(N))
    r = only(eng.feed(E("deal_start", dealer="E", pack="red")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.CLAIM_OPTION, "CB-redeal-out-of-turn", N)
    run(eng, [E("card_dealt", seat="S", card="AS")])
    r = only(eng.feed(E("demand", seat="W", what="redeal")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "CB-redeal-out-of-turn", N)


def test_CB_redeal_out_of_turn_too_late_deal_stands() -> None:
    eng = table(dealer=N)
    run(eng, prelude(N))
    deal = bridge_deal(E_, cards())
    assert only(eng.feed(deal[0])).remedy is Remedy.CLAIM_OPTION
    rulings = run(eng, deal[1:])
    r = only(rulings)  # the claim lapses with the last card
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "CB-redeal-out-of-turn")
    r = only(eng.feed(E("demand", seat="W", what="redeal")))
    assert r.remedy is Remedy.DEAL_STANDS
    assert eng.state.next_dealer == S  # the rotation passes on from the player who dealt


def test_CB_redeal_out_of_turn_stands_names_who_deals_next() -> None:
    # docs/laws.md CB-redeal-out-of-turn, docs/events.md `lapse`: the rotation moved (North loses his turn),
    # so the sentence the players read names the next dealer, the same seat as the ruling's ``dealer``
    eng = table(dealer=N)
    run(eng, prelude(N))
    deal = bridge_deal(E_, cards())
    claim = only(eng.feed(deal[0]))
    r = only(run(eng, deal[1:]))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.DEAL_STANDS, "CB-redeal-out-of-turn", S)
    assert r.reason == ("No redeal was demanded in time, so the deal stands ("
                        f"{claim.reason.rstrip('.')}); the rotation goes on from East, so South deals next.")


def test_CB_redeal_out_of_turn_and_uncut_both_lapses_name_who_deals_next() -> None:
    # an uncut pack dealt out of turn: both claims lapse with the last card, and both say South deals next
    eng = table(dealer=N)
    run(eng, prelude(N)[:-1])                          # no cut
    deal = bridge_deal(E_, cards())
    assert {r.clause for r in eng.feed(deal[0])} == {"CB-redeal-out-of-turn", "CB-redeal-uncut"}
    rulings = run(eng, deal[1:])
    assert {r.clause for r in rulings} == {"CB-redeal-out-of-turn", "CB-redeal-uncut"}
    for r in rulings:
        assert (r.remedy, r.dealer) == (Remedy.DEAL_STANDS, S)
        assert r.reason.endswith("; the rotation goes on from East, so South deals next.")


def test_CB_redeal_out_of_turn_voided_by_its_last_card_names_no_next_dealer() -> None:
    # the last card, a second copy, both ends the claim and voids the deal: the redeal names its dealer,
    # so the lapse does not name another
    eng = table(dealer=N)
    run(eng, prelude(N))
    deal = bridge_deal(E_, cards())
    last = next(i for i in range(len(deal) - 1, -1, -1) if deal[i].TYPE == "card_dealt")
    deal[last] = E("card_dealt", seat=deal[last].seat.value, card=deal[last - 1].card.code)
    rulings = run(eng, deal)
    stands = [r for r in rulings if r.remedy is Remedy.DEAL_STANDS]
    assert [r.remedy for r in rulings][-1] is Remedy.REDEAL and len(stands) == 1
    assert "deals next" not in stands[0].reason


def test_CB_redeal_uncut() -> None:
    eng = table()
    run(eng, prelude(N)[:2])
    r = only(eng.feed(E("deal_start", dealer="N", pack="red")))
    assert (r.remedy, r.clause) == (Remedy.CLAIM_OPTION, "CB-redeal-uncut")
    r = only(eng.feed(E("demand", seat="E", what="redeal")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "CB-redeal-uncut", N)


def test_CB_redeal_incorrect_two_cards_in_a_row() -> None:
    eng = table()
    deal = bridge_deal(N, cards())
    run(eng, prelude(N) + deal[:3])  # E, S
    r = only(eng.feed(E("card_dealt", seat="S", card=deal[3].card.code)))  # type: ignore[attr-defined]
    assert (r.remedy, r.clause, r.dealer, r.seat) == (Remedy.REDEAL, "CB-redeal-incorrect", N, S)
    assert "second card in a row" in r.reason


def test_CB_redeal_incorrect_not_from_dealers_left() -> None:
    eng = table()
    run(eng, prelude(N) + [E("deal_start", dealer="N", pack="red")])
    r = only(eng.feed(E("card_dealt", seat="N", card="AS")))
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "CB-redeal-incorrect")


def test_CB_redeal_faced_in_pack_from_shoe() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards())[:8])
    r = only(eng.feed(E("card_dealt", seat="N", card="9D", face_up=True)))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "CB-redeal-faced", N)


def test_CB_redeal_faced_seen_by_camera_during_deal() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards())[:8])
    r = only(eng.feed(E("card_faced", card="9D", where="deal", by="N")))
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "CB-redeal-faced")


def test_CB_redeal_faced_before_deal_only_needs_shuffle() -> None:
    eng = table()
    r = only(eng.feed(E("card_faced", card="9D", where="pack")))
    assert (r.remedy, r.clause) == (Remedy.NEW_SHUFFLE_AND_CUT, "CB-redeal-faced")


def test_CB_redeal_faced_a_card_nobody_named_is_a_card_not_an_unreadable_one() -> None:
    """The director enters a card faced in the pack without naming it (`card` null): the display said "An
    unreadable card was faced in the pack", as if the shoe had failed to read a code."""
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards())[:8])
    r = only(eng.feed(E("card_faced", card=None, where="pack")))
    assert (r.remedy, r.clause, r.reason) == (Remedy.REDEAL, "CB-redeal-faced", "A card was faced in the pack.")
    eng = table()
    r = only(eng.feed(E("card_faced", card=None, where="pack")))
    assert r.reason.startswith("A card was seen faced in the pack before the deal")


def test_CB_redeal_faced_and_camera_sighting_of_same_card_is_one_ruling() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards())[:8])
    rulings = run(eng, [E("card_dealt", seat="N", card="9D", face_up=True),
                        E("card_faced", card="9D", where="deal")])
    assert [r.remedy for r in rulings] == [Remedy.REDEAL]


def test_CB_redeal_wrong_hand_looked() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    r = only(eng.feed(E("wrong_hand", seat="E", looked=True)))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "CB-redeal-wrong-hand", N)
    assert eng.state.next_dealer == N


def test_CB_redeal_wrong_hand_not_looked_stands() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    assert only(eng.feed(E("wrong_hand", seat="E", looked=False))).remedy is Remedy.DEAL_STANDS


def test_CB_redeal_miscount_fourteen_and_twelve() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    r = only(eng.feed(E("hand_count", seat="S", count=14)))
    assert r.remedy is Remedy.ATTENTION
    r = only(eng.feed(E("hand_count", seat="W", count=12)))
    assert (r.remedy, r.clause, r.seat, r.dealer) == (Remedy.REDEAL, "CB-redeal-miscount", S, N)


def test_CB_redeal_miscount_counts_cards_played() -> None:
    eng = table()
    c = cards()
    run(eng, prelude(N) + bridge_deal(N, c))
    plays = bridge_play(bridge_hands(N, c), E_, random.Random(2))[:8]  # two tricks
    assert run(eng, plays) == []
    assert run(eng, [E("hand_count", seat="S", count=11)]) == []


def test_CB_redeal_miscount_after_play_ended_stands() -> None:
    eng = table()
    c = cards()
    run(eng, prelude(N) + bridge_deal(N, c) + bridge_play(bridge_hands(N, c), E_, random.Random(2)))
    eng.feed(E("play_end"))
    r = only(eng.feed(E("hand_count", seat="S", count=1)))
    assert (r.remedy, r.clause) == (Remedy.DEAL_STANDS, "CB-redeal-miscount")


def test_CB_missing_found_loose() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    r = only(eng.feed(E("missing_card", card="2C", seat="S", found="loose")))
    assert (r.remedy, r.clause, r.seat) == (Remedy.DEEMED_TO_BELONG, "CB-missing-found", S)


def test_CB_missing_other_hand() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    r = only(eng.feed(E("missing_card", card="2C", seat="S", found="E")))
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "CB-missing-other-hand")


def test_CB_missing_trick() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    r = only(eng.feed(E("missing_card", card="2C", seat="S", found="trick")))
    assert (r.remedy, r.clause) == (Remedy.DEFECTIVE_TRICK, "CB-missing-trick")


def test_CB_missing_not_found_reported() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    r = only(eng.feed(E("missing_card", card="2C", seat="S", found=None)))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "CB-missing-not-found", N)


def test_CB_surplus_deal_duplicate_card() -> None:
    eng = table()
    c = cards()
    deal = bridge_deal(N, c)
    run(eng, prelude(N) + deal[:10])
    r = only(eng.feed(E("card_dealt", seat=deal[10].seat.value, card=c[0].code)))  # type: ignore[attr-defined]
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "CB-surplus-deal")


def test_CB_surplus_deal_foreign_pack_card() -> None:
    eng = table()
    deal = bridge_deal(N, cards())
    run(eng, prelude(N) + deal[:10])
    r = only(eng.feed(E("card_dealt", seat=deal[10].seat.value, card="AS", pack="blue")))  # type: ignore[attr-defined]
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "CB-surplus-deal")
    assert "pack blue" in r.reason


def test_CB_surplus_deal_reported() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    r = only(eng.feed(E("surplus_card", seat="E", cause="deal")))
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "CB-surplus-deal")


def test_CB_surplus_deal_a_card_left_in_the_shoe_after_all_52() -> None:
    """All 52 cards dealt and the shoe says a card is still in its well (DEAL_FINISHED ``left_in_shoe``):
    the pack held 53, so the deal is void and the same dealer deals the same pack again, once the card is
    taken out. Before, the table began the auction over a pack a card too many."""
    eng = table()
    deal = bridge_deal(N, cards())
    run(eng, prelude(N) + deal[:-1])
    r = only(eng.feed(E("deal_end", left_in_shoe=True)))
    assert (r.remedy, r.clause, r.law, r.dealer, r.pack) == (Remedy.REDEAL, "CB-surplus-deal",
                                                             "Contract Bridge, Surplus Card", N, "red")
    assert "left in the shoe" in r.reason and "take the card left in the shoe out" in r.reason.lower(), r.reason
    assert eng.state.deal is not None and eng.state.deal.void
    assert eng.state.phase == Phase.SHUFFLE and eng.state.next_dealer == N


def test_CB_surplus_deal_no_ruling_for_a_short_or_lost_deal_left_in_the_shoe() -> None:
    """The flag alone rules nothing on a deal the table did not see whole: 51 cards is the search for the
    missing card, and a deal whose cards the link lost is the redeal that says so."""
    eng = table()
    deal = bridge_deal(N, cards())
    run(eng, prelude(N) + deal[:-2])
    r = only(eng.feed(E("deal_end", left_in_shoe=True)))
    assert r.clause == "CB-missing-search"
    eng = table()
    run(eng, prelude(N) + deal[:30])
    r = only(eng.feed(E("deal_end", left_in_shoe=True, lost=True)))
    assert r.clause == "CB-redeal-incorrect" and r.extra.get("lost") is True


def test_CB_surplus_play() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    r = only(eng.feed(E("surplus_card", seat="E", cause="play")))
    assert (r.remedy, r.clause) == (Remedy.DEFECTIVE_TRICK, "CB-surplus-play")


def test_CB_attention() -> None:
    eng = table()
    r = only(eng.feed(E("demand", seat="S", what="attention")))
    assert (r.remedy, r.clause, r.seat) == (Remedy.ATTENTION, "CB-attention", S)


def test_CB_redeal_how_same_dealer_same_pack() -> None:
    eng = table(dealer=W)
    run(eng, prelude(W, "blue") + bridge_deal(W, cards(), pack="blue")[:20])
    r = only(eng.feed(E("card_faced", card="KS", where="deal")))
    assert r.dealer == W
    assert eng.state.phase == Phase.SHUFFLE and eng.state.next_dealer == W


def test_CB_redeal_how_out_of_turn_deal_goes_to_correct_dealer() -> None:
    eng = table(dealer=N)
    run(eng, prelude(N))
    assert only(eng.feed(E("deal_start", dealer="S", pack="red"))).remedy is Remedy.CLAIM_OPTION
    r = only(eng.feed(E("card_dealt", seat="W", card="5H", face_up=True)))
    assert (r.clause, r.dealer) == ("CB-redeal-faced", N)


def test_redeal_demand_without_ground_stands() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards())[:10])
    r = only(eng.feed(E("demand", seat="E", what="redeal")))
    assert r.remedy is Remedy.DEAL_STANDS


@pytest.mark.parametrize("seed", range(3))
def test_rulings_never_accuse(seed: int) -> None:
    """CB-scope: reasons state facts and never speak of intent."""
    eng = table()
    deal = bridge_deal(N, cards(seed))
    rulings = run(eng, prelude(N) + deal[:5] + [E("card_dealt", seat="N", card=None, face_up=True)])
    for r in rulings:
        low = r.reason.lower()
        assert not any(w in low for w in ("cheat", "deliberate", "intent", "dishonest"))


def test_CB_surplus_deal_pack_unknown_until_first_card() -> None:
    eng = table()
    rulings = run(eng, prelude(N) + [E("deal_start", dealer="N", pack="unknown"),
                                     E("card_dealt", seat="E", card="AS", pack="A"),
                                     E("card_dealt", seat="S", card="KS", pack="A")])
    assert rulings == [] and eng.state.deal is not None and eng.state.deal.pack == "A"
    r = only(eng.feed(E("card_dealt", seat="W", card="QS", pack="B")))
    assert (r.remedy, r.clause) == (Remedy.REDEAL, "CB-surplus-deal")


def test_CB_pack_damaged_in_the_pack_not_in_use_leaves_the_deal_alone() -> None:
    """Issue 20: North deals the red pack; a damaged card is found in the blue one, which is not in use.
    The blue pack is replaced; the sound deal goes on, and East's next deal is in turn."""
    eng = table()
    deal = bridge_deal(N, cards())
    run(eng, prelude(N) + deal[:20])
    r = only(eng.feed(E("damaged_card", card="7C", pack="blue")))
    assert (r.remedy, r.clause, r.pack, r.dealer) == (Remedy.REPLACE_PACK, "CB-pack-damaged", "blue", None)
    assert "blue" in r.reason and "goes on" in r.reason
    assert eng.state.deal is not None and not eng.state.deal.void
    assert run(eng, deal[20:]) == [] and eng.state.phase == Phase.AUCTION
    assert eng.state.next_dealer == E_
    rnd = random.Random(3)
    hands = bridge_hands(N, cards())
    run(eng, bridge_play(hands, E_, rnd) + [E("play_end"), E("result", declarer="N", contract="1NT", tricks=7)])
    assert run(eng, prelude(E_, "blue") + bridge_deal(E_, cards(2), pack="blue")) == []


def test_CB_pack_damaged_in_the_pack_in_use_still_stops_the_deal() -> None:
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards())[:20])
    r = only(eng.feed(E("damaged_card", card="7C", pack="red")))
    assert (r.remedy, r.dealer) == (Remedy.REPLACE_PACK, N) and eng.state.deal.void  # type: ignore[union-attr]


def test_CB_surplus_card_words_match_the_cause() -> None:
    """Issue 20: cause ``trick`` is a card too many on a trick (the hand is a card short); cause ``play``
    is a trick left short (the hand has a card too many)."""
    eng = table()
    run(eng, prelude(N) + bridge_deal(N, cards()))
    trick = only(eng.feed(E("surplus_card", seat="W", cause="trick")))
    assert trick.remedy is Remedy.DEFECTIVE_TRICK
    assert "too many on a trick" in trick.reason and "left short" not in trick.reason, trick.reason
    play_ = only(eng.feed(E("surplus_card", seat="E", cause="play")))
    assert "left short" in play_.reason and "card too many" in play_.reason, play_.reason
