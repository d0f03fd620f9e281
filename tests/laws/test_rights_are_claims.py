"""docs/laws.md, "Rights are claims", law by law for Euchre (Somerset Club, 1888).

For each law that gives a player or a side a choice (24, 25, 27, 35, 38, 40, 44, 47, 48, 51, 52, 56, 58,
59, 60, 66, 69, 70, 72, 80, 84, 89) the fact alone offers the right (a ``claim_option``, or nothing where
the right needs no fact: shuffling, new cards, searching the tricks...; an ``attention`` for law 58, whose
right the fourth hand takes by playing) and changes nothing on the table; the remedy comes only with the
``demand`` that takes it. For each law that applies by itself (10, 29, 31,
33, 34, 39, 41, 64, 67, 90) the remedy comes with the fact and no demand. Laws 6 and 32 say "should": no
penalty attaches, so no clause cites them and a hand played through gives no penalty.
"""

from __future__ import annotations

import json
from pathlib import Path

from laws.cards import Seat, Side
from laws.engine import LawEngine
from laws.events import event_from_dict
from laws.games.euchre import RULES
from laws.rulings import Remedy, Ruling
from tests.laws.streams import E, euchre_deal, only, prelude
from tests.laws.test_euchre_bidding import bid, taken_up, turned
from tests.laws.test_euchre_play_laws import dealt, penalties, play
from tests.laws.test_euchre_rights import cards, table

N, E_, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def said(rulings: list[Ruling]) -> list[tuple[str, str]]:
    return [(r.remedy.value, r.clause) for r in rulings]


def offered(rulings: list[Ruling], clause: str, side: Side | None) -> Ruling:
    """The fact gives exactly one ruling: the claim, for ``side``, and no remedy."""
    assert said(rulings) == [("claim_option", clause)], [r.to_dict() for r in rulings]
    assert rulings[0].side is side
    return rulings[0]


def dealing(upto: int, dealer: Seat = N) -> tuple[LawEngine, list]:
    """North deals a legal euchre deal; the first ``upto`` events of it (``deal_start`` first) are in."""
    eng = table(dealer)
    events, _, _ = euchre_deal(dealer, cards())
    assert eng.feed_all(prelude(dealer) + events[:upto]) == []
    return eng, events


def demand(eng: LawEngine, seat: Seat, what: str, **kw: str) -> list[Ruling]:
    return eng.feed(E("demand", seat=seat.value, what=what, **kw))


# == rights: offered, then acted on only when claimed ===================================================

def test_EU_24_the_right_to_shuffle_is_taken_by_asking_once() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(N, cards())
    # a right, not a duty: nobody shuffling before a proper cut and deal is no irregularity
    assert eng.feed_all([E("cut", seat="W", top=16, bottom=16)] + events) == []
    eng = table(N)
    r = demand(eng, E_, "new_shuffle")
    assert said(r) == [("reshuffle", "EU-24")] and r[0].seat == E_
    eng.feed(E("shuffle", seat="E"))
    # once only: East has used his right; the dealer's last shuffle (law 27) is the only repeat
    r = demand(eng, E_, "new_shuffle")
    assert said(r) == [("attention", "EU-24")] and eng.state.phase.value == "shuffle"
    assert said(demand(eng, N, "new_shuffle")) == [("reshuffle", "EU-24")]
    # a false cut (law 29) gives every player the right again
    eng.feed(E("shuffle", seat="N"))
    assert said(eng.feed(E("card_faced", card="9D", where="cut"))) == [("new_cut", "EU-29")]
    assert eng.feed(E("shuffle", seat="E")) == []


def test_EU_25_the_dealers_partner_shuffles_first_only_if_he_claims_it() -> None:
    eng = table(N)
    # an adversary shuffling before the dealer's partner costs nothing by itself
    assert eng.feed(E("shuffle", seat="E")) == []
    r = demand(eng, S, "new_shuffle")
    assert said(r) == [("reshuffle", "EU-24")] and r[0].seat == S
    assert eng.feed_all([E("shuffle", seat="S"), E("shuffle", seat="N"), E("cut", seat="W", top=16, bottom=16)]) == []


def test_EU_27_a_card_seen_in_the_dealers_shuffle_is_the_adversaries_claim() -> None:
    eng = table(N)
    eng.feed(E("shuffle", seat="N"))
    offered(eng.feed(E("card_faced", card="JH", where="pack")), "EU-27", Side.EW)
    assert eng.state.phase.value == "shuffle" and eng.state.shuffles == [N]   # nothing done yet
    r = demand(eng, W, "new_shuffle")
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.RESHUFFLE, "EU-27", N)


def test_EU_35_a_card_exposed_in_dealing_is_a_claim_for_a_new_deal() -> None:
    eng, events = dealing(6)
    offered(eng.feed(E("card_faced", card="KD", where="deal", by="N")), "EU-35", Side.EW)
    assert eng.feed_all(events[6:8]) == []                   # the deal goes on until the claim
    assert eng.state.deal is not None and not eng.state.deal.void
    r = demand(eng, E_, "new_deal")
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.REDEAL, "EU-35", N)
    assert eng.state.deal.void


def test_EU_38_the_adversaries_pack_is_a_claim_for_a_new_deal() -> None:
    eng = table(N)
    eng.feed(E("packs", owners={"NS": "red", "EW": "blue"}))
    events, _, _ = euchre_deal(N, cards(), pack="blue")
    eng.feed_all(prelude(N))
    offered(eng.feed(events[0]), "EU-38", Side.EW)
    assert eng.feed_all(events[1:5]) == [] and eng.state.next_dealer is N
    r = demand(eng, W, "redeal")
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.REDEAL, "EU-38", N)
    # the owners may have their pack back, on asking (law 38's second half)
    assert said(demand(eng, E_, "restore_pack")) == [("restore_pack", "EU-attention")]


def test_EU_40_a_deal_out_of_turn_is_stopped_only_on_a_claim() -> None:
    eng = table(N)
    events, _, _ = euchre_deal(E_, cards(), pack="blue")     # East's own pack: only the turn is wrong
    eng.feed_all(prelude(N))
    r = offered(eng.feed(events[0]), "EU-40", None)
    assert r.dealer is N
    assert eng.feed_all(events[1:5]) == []                   # East deals on until someone claims
    r = demand(eng, S, "redeal")
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.REDEAL, "EU-40", N)


def test_EU_44_the_dealer_wrongly_interrupted_may_claim_to_deal_again() -> None:
    eng, events = dealing(3)
    eng.feed(E("deal_interrupted", seat="W", how="interrupted"))
    # a misdeal: after East's first packet the next goes to West, passing South by (law 42)
    r = offered(eng.feed(E("card_dealt", seat="W", card=cards()[2].code)), "EU-44", Side.NS)
    assert r.dealer is N and r.extra["otherwise"] == "E"
    assert eng.state.deal is not None and eng.state.deal.void      # the misdeal voids the cards at once
    assert eng.state.next_dealer is E_                             # and, unclaimed, costs the deal (law 41)
    assert demand(eng, E_, "new_deal")[0].remedy is Remedy.DEAL_STANDS   # not the adversaries' right
    # the open claim survives a checkpoint and restart (laws/snapshot.py)
    eng2 = LawEngine("euchre")
    eng2.restore(json.loads(json.dumps(eng.snapshot())))
    assert eng2.state.claims == eng.state.claims and eng2.state.claims[0].otherwise is E_
    eng = eng2
    r = demand(eng, S, "new_deal")
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.REDEAL, "EU-44", N)
    assert eng.state.next_dealer is N
    # unclaimed, the right lapses when the next deal starts, dealt by the player on the left
    eng, _ = dealing(3)
    eng.feed_all([E("deal_interrupted", seat="W", how="interrupted"),
                  E("card_dealt", seat="W", card=cards()[2].code)])
    lapse = eng.feed_all(prelude(E_) + [E("deal_start", dealer="E", pack="blue")])
    assert said(lapse) == [("deal_stands", "EU-44")] and lapse[0].dealer is E_


def test_EU_44_an_interruption_that_was_right_gives_no_claim() -> None:
    """Law 44 needs the adversaries to be wrong: to a deal out of turn, "it is not his deal" is right."""
    eng = table(N)
    events, _, _ = euchre_deal(E_, cards(), pack="blue")
    eng.feed_all(prelude(N))
    offered(eng.feed(events[0]), "EU-40", None)
    eng.feed_all(events[1:3] + [E("deal_interrupted", seat="N", how="interrupted")])
    r = eng.feed(E("card_dealt", seat="N", card=cards()[2].code))       # West passed by: a misdeal
    # no claim; the misdeal is ruled as usual for a deal out of turn: it was never East's (law 40), North deals
    assert [(x.remedy, x.clause, x.dealer) for x in r] == [(Remedy.MISDEAL, "EU-40", N)]


def test_EU_47_playing_ahead_of_partner_gives_the_adversaries_a_choice() -> None:
    from tests.laws.test_euchre_play_laws import HANDS
    eng = dealt(hands=HANDS | {S: ["7C", "QC", "8H", "AS", "JD"]})
    play(eng, "E:AC", "S:7C", "W:AD", "N:TH")
    r = play(eng, "N:AH", "N:KH")
    offered(r, "EU-47", Side.EW)
    assert eng.state.deal is not None and eng.state.deal.calls == []    # nobody is bound yet
    r = demand(eng, E_, "win_trick")
    assert said(r) == [("attention", "EU-47")] and r[0].seat == S and eng.state.deal.calls != []


def test_EU_48_a_hand_thrown_down_may_be_called_card_by_card() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:7C", "W:AD", "N:AH")
    offered(eng.feed(E("card_faced", card=None, where="hand", by="W")), "EU-48", Side.NS)
    assert eng.state.deal is not None and eng.state.deal.calls == []
    r = demand(eng, N, "call_card", card="QD")
    assert said(r) == [("attention", "EU-48")] and eng.state.deal.calls != []


def test_EU_51_a_detached_card_is_called_only_by_naming_it() -> None:
    eng = dealt()
    # detaching is not seen: nothing happens until an adversary names the card
    r = demand(eng, N, "name_card", card="KC")
    assert said(r) == [("attention", "EU-51")] and r[0].seat == E_
    # a wrong name makes the namer's side liable to a suit call, if the other side claims it
    offered(demand(eng, N, "name_card", card="QC"), "EU-51", Side.EW)
    calls_before = list(eng.state.deal.calls)  # type: ignore[union-attr]
    assert said(demand(eng, E_, "call_suit", suit="C")) == [("attention", "EU-51")]
    assert eng.state.deal.calls != calls_before  # type: ignore[union-attr]


def test_EU_52_a_lead_out_of_turn_waits_for_the_adversaries_choice() -> None:
    eng = dealt()
    r = offered(play(eng, "S:7C"), "EU-52", Side.EW)
    assert r.extra["options"] == ["call_card", "call_suit"]
    assert eng.state.deal is not None and eng.state.deal.calls == []
    assert said(demand(eng, E_, "call_suit", suit="D")) == [("attention", "EU-52")]
    assert eng.state.deal.calls != []


def test_EU_56_a_call_is_renewed_only_when_made_again() -> None:
    eng = dealt()
    offered(play(eng, "E:AC", "E:KC"), "EU-46", Side.NS)
    play(eng, "S:7C", "W:AD", "N:AH")
    assert said(demand(eng, S, "call_card", card="KC")) == [("attention", "EU-46")]
    play(eng, "N:KH", "E:9H", "S:8S", "W:7D")
    # the card is still unplayed: the call may be made again (and is in force until the card is played)
    r = demand(eng, N, "call_card", card="KC")
    assert said(r) == [("attention", "EU-46")] and r[0].extra["call"] == "card"
    assert play(eng, "N:QH", "E:KC") == [] and eng.state.deal.calls == []  # type: ignore[union-attr]


def test_EU_58_the_fourth_hand_may_play_ahead_after_the_third_did() -> None:
    eng = dealt()
    r = play(eng, "E:AC", "W:AD")                             # third hand before second
    assert said(r) == [("attention", "EU-58")]                 # noted: no penalty, no claim against anyone
    assert play(eng, "N:AH", "S:7C") == []                     # the fourth takes his right by playing
    assert eng.state.deal is not None and eng.state.deal.calls == [] and eng.state.claims == []


def test_EU_59_the_fourth_before_the_second_binds_the_partner_only_on_demand() -> None:
    eng = dealt()
    offered(play(eng, "E:AC", "N:AH"), "EU-59", Side.EW)
    assert eng.state.deal is not None and eng.state.deal.calls == []
    r = demand(eng, W, "lose_trick")
    assert said(r) == [("attention", "EU-59")] and r[0].seat == S


def test_EU_60_a_missed_trick_is_a_claim_for_a_new_deal() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:7C", "W:AD", "N:AH")
    offered(eng.feed(E("surplus_card", seat="E", cause="play")), "EU-60", Side.NS)
    assert eng.state.deal is not None and not eng.state.deal.void
    r = demand(eng, N, "new_deal")
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.REDEAL, "EU-60", N)


def test_EU_66_the_tricks_are_searched_when_a_side_asks() -> None:
    eng = dealt()
    assert play(eng, "E:AC", "S:7C", "W:AD", "N:AH") == []    # the record is kept, but not shown unasked
    r = demand(eng, E_, "search_tricks")                       # nor while the hand is played
    assert said(r) == [("attention", "EU-66")] and "tricks" not in r[0].extra
    assert eng.feed(E("play_end")) == []                       # the hand is over (law 66's moment)
    r = demand(eng, E_, "search_tricks")
    assert said(r) == [("attention", "EU-66")] and len(r[0].extra["tricks"]) == 1


def test_EU_69_a_revoke_corrected_in_time_gives_a_call_on_the_card() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:8S")
    r = offered(play(eng, "S:7C"), "EU-69", Side.EW)
    assert r.to_dict()["card"] == "8S"
    assert eng.state.deal is not None and eng.state.deal.calls == []
    assert said(demand(eng, W, "call_card")) == [("attention", "EU-69")]
    assert eng.state.deal.calls != []
    # the players who followed the revoke, his partner excepted, may take back their cards (their right):
    # a card played instead is no second card, and the one taken back is not exposed
    eng = dealt()
    play(eng, "E:AC", "S:8S", "W:AD")
    offered(play(eng, "S:7C"), "EU-69", Side.EW)
    r = play(eng, "W:KD")
    assert said(r) == [("attention", "EU-69")] and r[0].seat == W
    d = eng.state.deal
    assert [(st.value, x.code) for st, x in d.plays] == [("E", "AC"), ("S", "7C"), ("W", "KD")]
    assert d.exposed[W] == [] and [cl.clause for cl in eng.state.claims] == ["EU-69"]
    assert play(eng, "N:AH") == []
    assert said(play(eng, "W:7D")) == [("claim_option", "EU-52")]   # once is all: North leads now


def test_EU_70_the_revoking_side_plays_out_on_its_own_choice() -> None:
    eng = dealt()
    assert said(play(eng, "E:AC", "S:8S", "W:AD", "N:AH", "N:KH")) == [("attention", "EU-64")]
    # the revoke does not stop the hand by itself; the revoking side's choice is only recorded
    assert eng.state.phase.value == "play"
    assert said(demand(eng, S, "play_out")) == [("attention", "EU-70")]


def test_EU_72_fresh_cards_come_only_on_a_call_before_the_cut() -> None:
    eng = table(N)
    assert eng.feed(E("shuffle", seat="S")) == []
    assert said(demand(eng, W, "new_cards")) == [("new_cards", "EU-72")]
    eng.feed_all([E("shuffle", seat="N"), E("cut", seat="W", top=16, bottom=16)])
    assert said(demand(eng, W, "new_cards")) == [("deal_stands", "EU-72")]


def test_EU_80_a_late_order_holds_only_if_the_adversaries_elect_it() -> None:
    eng = turned()
    offered(bid(eng, "E:pass", "E:order"), "EU-80", Side.NS)
    assert eng.state.deal is not None and eng.state.deal.makers is None
    r = demand(eng, N, "hold_order")
    assert said(r) == [("attention", "EU-80")] and eng.state.deal.makers is Side.EW


def test_EU_84_cards_are_placed_before_their_players_on_demand() -> None:
    eng = dealt()
    assert play(eng, "E:AC", "S:7C") == []
    r = demand(eng, W, "place_cards")
    assert said(r) == [("attention", "EU-84")] and r[0].extra["placed"] == [["E", "AC"], ["S", "7C"]]


def test_EU_89_the_lone_third_hand_chooses_what_the_dealer_must_play() -> None:
    eng = taken_up(maker="W", alone=True)
    play(eng, "S:8S")
    offered(eng.feed(E("discard", seat="N", card="TH")), "EU-89", Side.EW)
    assert eng.state.deal is not None and eng.state.deal.calls == []
    r = demand(eng, W, "call_highest")
    assert said(r) == [("attention", "EU-89")] and r[0].seat == N


# == laws that apply by themselves: the remedy comes with the fact =====================================

def test_EU_10_two_cards_shown_in_the_cut_cut_again() -> None:
    eng = LawEngine("euchre")
    r = eng.feed(E("draw", cuts=[["A", "AS"], ["B", "JD"], ["C", "KH"], ["D", "7C"]], exposed={"C": 2}))
    assert said(r) == [("cut_again", "EU-10")] and r[0].extra["who"] == ["C"]


def test_EU_29_a_card_exposed_in_the_cut_means_a_fresh_cut() -> None:
    eng = table(N)
    eng.feed_all([E("shuffle", seat="S"), E("shuffle", seat="N")])
    assert said(eng.feed(E("card_faced", card="9D", where="cut"))) == [("new_cut", "EU-29")]


def test_EU_31_the_dealer_reshuffling_after_the_cut_loses_the_deal() -> None:
    eng = table(N)
    eng.feed_all(prelude(N))
    r = eng.feed(E("shuffle", seat="N"))
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.LOSE_DEAL, "EU-31", E_)
    assert eng.state.next_dealer is E_


def test_EU_33_an_incorrect_pack_is_dealt_again_at_once() -> None:
    eng, events = dealing(3)
    r = eng.feed(E("card_dealt", seat="E", card=cards()[0].code))     # a card seen twice
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.REDEAL, "EU-33", N)
    assert eng.state.deal is not None and eng.state.deal.void


def test_EU_34_a_card_faced_in_the_pack_is_dealt_again_at_once() -> None:
    eng, _ = dealing(3)
    r = eng.feed(E("card_dealt", seat="E", card=cards()[2].code, face_up=True))
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.REDEAL, "EU-34", N)


def test_EU_39_a_second_card_exposed_turning_trump_is_dealt_again() -> None:
    eng, events = dealing(22)                                  # the deal is complete, the trump not turned
    r = eng.feed(E("card_faced", card="9S", where="trump"))
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.REDEAL, "EU-39", N)


def test_EU_41_a_misdeal_loses_the_deal_without_a_claim() -> None:
    eng, _ = dealing(3)
    r = eng.feed(E("card_dealt", seat="W", card=cards()[2].code))
    assert (r[0].remedy, r[0].clause, r[0].dealer) == (Remedy.MISDEAL, "EU-41", E_)
    assert eng.state.next_dealer is E_ and eng.state.claims == []


def test_EU_64_an_established_revoke_is_scored_without_a_claim() -> None:
    eng = dealt()
    assert said(play(eng, "E:AC", "S:8S", "W:AD", "N:AH", "N:KH")) == [("attention", "EU-64")]
    play(eng, "E:9H", "S:9S", "W:7D")
    assert penalties(eng) == [(N, 3)]


def test_EU_67_an_alleged_revoke_stands_on_the_record() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:8S", "W:AD", "N:AH", "N:KH")
    r = demand(eng, E_, "revoke")
    assert said(r) == [("attention", "EU-67")] and r[0].extra["revokes"] == [["S", 1]]
    # no second step is needed (the cards cannot be jumbled out of the record): scored at play end
    assert penalties(eng) == [(N, 3)]


def test_EU_90_a_wrong_count_in_play_costs_points_without_a_claim() -> None:
    eng = dealt()
    r = eng.feed(E("hand_count", seat="E", count=6))
    assert said(r) == [("deal_stands", "EU-90"), ("penalty", "EU-90")]
    assert r[1].extra["points"] == 2


# == "should": no penalty ===============================================================================

def test_EU_6_and_EU_32_should_carries_no_penalty() -> None:
    cited = {c.law for c in RULES.clauses}
    assert not any(law.endswith((" 6", " 32")) or " 6 " in law or " 32 " in law for law in cited), cited
    # a deal whose rest of the pack nobody places, and points nobody announces, make no ruling but the score
    eng = dealt()
    rulings = play(eng, "E:AC", "S:7C", "W:AD", "N:AH", "N:KH", "E:9H", "S:8S", "W:7D")
    rulings += play(eng, "N:QH", "E:9D", "S:9S", "W:8D", "N:JH", "E:TD", "S:AS", "W:QD",
                    "N:TH", "E:KC", "S:KS", "W:KD")
    rulings += eng.feed_all([E("play_end"), E("result", makers="NS", tricks=5)])
    assert {r.remedy for r in rulings} <= {Remedy.SCORE, Remedy.GAME_WON}, [r.to_dict() for r in rulings]
    assert not any(r.remedy is Remedy.PENALTY for r in rulings)


def test_EU_44_the_worked_example_in_docs_events_md() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "events.md").read_text(encoding="utf-8")
    block = doc.split("A misdeal after a wrong interruption (law 44)", 1)[1].split("```json\n", 1)[1]
    lines = [json.loads(x) for x in block.split("```", 1)[0].strip().splitlines()]
    eng = table(N)
    eng.feed_all(prelude(N))
    rulings = [r.to_dict() for r in eng.feed_all([event_from_dict(x) for x in lines])]
    assert [(r["remedy"], r["clause"], r["dealer"]) for r in rulings] == [
        ("claim_option", "EU-44", "N"), ("redeal", "EU-44", "N")]
    assert (rulings[0]["side"], rulings[0]["until"], rulings[0]["otherwise"]) == ("NS", "deal_start", "E")
    eng = table(N)
    eng.feed_all(prelude(N) + [event_from_dict(x) for x in lines[:-1]])
    assert demand(eng, W, "new_deal")[0].remedy is Remedy.DEAL_STANDS
    lapse = eng.feed_all(prelude(E_) + [E("deal_start", dealer="E", pack="blue")])
    assert [(r.remedy, r.clause, r.dealer) for r in lapse] == [(Remedy.DEAL_STANDS, "EU-44", E_)]


def test_EU_33_after_a_deal_out_of_turn_stood_the_same_dealer_is_the_one_who_dealt() -> None:
    """East dealt North's deal; nobody stopped it before the trump card (law 40: it stands, South deals
    next). A damaged card then stops the hand: "the same dealer" is East, who dealt it. The ruling
    named North, the dealer the rotation had expected, as if the claim were still open (audit 70)."""
    eng = table(N)
    events, _, _ = euchre_deal(E_, cards(), pack="blue")
    eng.feed_all(prelude(N))
    offered(eng.feed(events[0]), "EU-40", None)
    stands = eng.feed_all(events[1:])
    assert [(r.remedy, r.clause, r.dealer) for r in stands if r.clause == "EU-40"] == \
        [(Remedy.DEAL_STANDS, "EU-40", S)]
    r = only(eng.feed(E("damaged_card", card=cards()[0].code, pack="blue")))
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REPLACE_PACK, "EU-33", E_)


def test_EU_33_while_a_deal_out_of_turn_can_still_be_stopped_the_rightful_dealer_deals() -> None:
    """Before the trump card the deal out of turn is not East's yet: a new deal goes to North."""
    eng = table(N)
    events, _, _ = euchre_deal(E_, cards(), pack="blue")
    eng.feed_all(prelude(N) + events[:3])
    r = only(eng.feed(E("card_dealt", seat="S", card=cards()[0].code)))     # a card twice
    assert (r.remedy, r.clause, r.dealer) == (Remedy.REDEAL, "EU-33", N)
