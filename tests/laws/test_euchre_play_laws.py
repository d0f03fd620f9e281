"""Euchre laws of play 46-61, with hands chosen so every play is known (North deals; hearts trump)."""

from __future__ import annotations

from laws.cards import Seat
from laws.engine import LawEngine
from laws.rulings import Remedy, Ruling
from tests.laws.streams import E, euchre_known_deal, prelude

N, E_, S, W = Seat.N, Seat.E, Seat.S, Seat.W
HANDS = {  # dealt 2-2-2-2 then 3-3-3-3; the turn-up 7S is turned down and hearts named
    E_: ["AC", "KC", "9H", "9D", "TD"],
    S: ["7C", "8S", "9S", "AS", "KS"],
    W: ["AD", "KD", "QD", "8D", "7D"],
    N: ["AH", "KH", "QH", "JH", "TH"],
}


def dealt(maker: str = "N", alone: bool = False, hands: dict[Seat, list[str]] = HANDS) -> LawEngine:
    eng = LawEngine("euchre")
    eng.state.next_dealer = N
    events = euchre_known_deal(N, hands, "7S") + [E("trump_made", seat=maker, suit="H", alone=alone)]
    assert eng.feed_all(events) == []
    return eng


def play(eng: LawEngine, *plays: str) -> list[Ruling]:
    """Plays written "E:AC"."""
    out: list[Ruling] = []
    for p in plays:
        seat, card = p.split(":")
        out += eng.feed(E("card_played", seat=seat, card=card))
    return out


def said(rulings: list[Ruling]) -> list[tuple[str, str]]:
    return [(r.remedy.value, r.clause) for r in rulings]


def penalties(eng: LawEngine) -> list[tuple[Seat | None, int]]:
    from laws.cards import Side
    out = [r for r in eng.feed(E("play_end")) if r.remedy is Remedy.PENALTY]
    return [(Seat.N if r.side is Side.NS else Seat.E, r.extra["points"]) for r in out]


def test_legal_hand_makes_no_play_ruling() -> None:
    eng = dealt()
    assert play(eng, "E:AC", "S:7C", "W:AD", "N:AH", "N:KH", "E:9H", "S:8S", "W:7D") == []


# -- exposed cards (46, 48, 49) and calls (54-57) -------------------------------------------------------

def test_EU_46_two_cards_at_once_the_second_is_exposed_and_callable() -> None:
    eng = dealt()
    r = play(eng, "E:AC", "E:KC")
    assert said(r) == [("claim_option", "EU-46")] and r[0].side == N.side
    assert eng.state.deal.played[E_] == 1  # type: ignore[union-attr]  # the KC is not played to the trick
    assert play(eng, "S:7C", "W:AD", "N:AH") == []            # North wins and leads
    r = eng.feed(E("demand", seat="S", what="call_card", card="KC"))
    assert said(r) == [("attention", "EU-46")] and r[0].extra["call"] == "card"
    assert said(play(eng, "N:KH", "E:9H")) == [("attention", "EU-55")]   # following suit comes first
    assert play(eng, "S:8S", "W:7D") == []
    assert said(play(eng, "N:QH", "E:9D")) == [("attention", "EU-54")]   # void in hearts: KC was due
    assert penalties(eng) == [(E_, 3)]


def test_EU_56_the_call_stays_until_the_card_is_played() -> None:
    eng = dealt()
    play(eng, "E:AC", "E:KC", "S:7C", "W:AD", "N:AH")
    eng.feed(E("demand", seat="N", what="call_card", card="KC"))
    play(eng, "N:KH", "E:9H", "S:8S", "W:7D")
    assert play(eng, "N:QH", "E:KC") == []                   # the called card is played: the call is met
    assert eng.state.deal.calls == []  # type: ignore[union-attr]


def test_EU_46_card_shown_on_the_table_in_play() -> None:
    eng = dealt()
    r = eng.feed(E("card_faced", card="QD", where="table", by="W"))
    assert said(r) == [("claim_option", "EU-46")] and r[0].seat == W
    # the owner is known from the deal when the camera cannot tell whose zone it was
    eng2 = dealt()
    assert eng2.feed(E("card_faced", card="QD", where="table"))[0].seat == W
    # the turn-up lying on the table is no exposure
    assert dealt().feed(E("card_faced", card="7S", where="table", by="N")) == []


def test_EU_46_a_call_nobody_may_make_stands_refused() -> None:
    eng = dealt()
    r = eng.feed(E("demand", seat="S", what="call_card", card="KC"))
    assert said(r) == [("deal_stands", "EU-56")]


def test_EU_48_hand_laid_down_exposes_every_card() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:7C", "W:AD", "N:AH")
    r = eng.feed(E("card_faced", card=None, where="hand", by="W"))
    assert said(r) == [("claim_option", "EU-48")]
    assert set(c.code for c in eng.state.deal.exposed[W]) == {"KD", "QD", "8D", "7D"}  # type: ignore[union-attr]
    r = eng.feed(E("demand", seat="N", what="call_card", card="QD"))
    assert said(r) == [("attention", "EU-48")]


def test_EU_49_all_four_hands_down_are_abandoned() -> None:
    eng = dealt()
    rulings: list[Ruling] = []
    for seat in "ESWN":
        rulings += eng.feed(E("card_faced", card=None, where="hand", by=seat))
    assert said(rulings)[-1] == ("attention", "EU-49")


def test_EU_50_lone_hand_abandoned_scores_five() -> None:
    eng = dealt(maker="N", alone=True)
    r = eng.feed(E("card_faced", card=None, where="hand", by="W"))
    assert said(r)[:2] == [("attention", "EU-50"), ("penalty", "EU-50")]
    assert r[1].extra["points"] == 5 and r[1].extra["scored_by"] == "NS"
    score = eng.feed(E("result", makers="NS", alone=True, tricks=3))
    assert score[0].extra["points"] == 0 and score[0].clause == "EU-50"


def test_EU_50_lone_hand_adversary_misses_a_trick() -> None:
    eng = dealt(maker="N", alone=True)
    r = eng.feed(E("surplus_card", seat="E", cause="play"))
    assert said(r)[:2] == [("attention", "EU-50"), ("penalty", "EU-50")]


# -- playing ahead (47), lead out of turn (52-53), out of order (58-59) ---------------------------------

def test_EU_47_playing_ahead_of_partner() -> None:
    hands = HANDS | {S: ["7C", "QC", "8H", "AS", "JD"]}       # South holds two trumps, the left bower one
    eng = dealt(hands=hands)
    assert play(eng, "E:AC", "S:7C", "W:AD", "N:TH") == []    # North ruffs and leads
    r = play(eng, "N:AH", "N:KH")                             # and leads a winner again before South plays
    assert said(r) == [("claim_option", "EU-47")] and r[0].extra["target"] == S and r[0].side == E_.side
    r = eng.feed(E("demand", seat="E", what="win_trick"))
    assert said(r) == [("attention", "EU-47")] and r[0].seat == S
    assert play(eng, "E:9H") == []
    assert said(play(eng, "S:8H")) == [("attention", "EU-54")]   # South could have won with the left bower
    # the card played ahead is still exposed and may be called
    assert said(eng.feed(E("demand", seat="W", what="call_card", card="KH"))) == [("attention", "EU-47")]


def test_EU_47_a_card_that_is_no_sure_winner_is_only_exposed() -> None:
    eng = dealt()
    assert said(play(eng, "E:TD", "E:KC")) == [("claim_option", "EU-46")]  # North could ruff the king


def test_EU_52_lead_out_of_turn_call_a_suit() -> None:
    eng = dealt()
    r = play(eng, "S:7C")                                    # East has the lead
    assert said(r) == [("claim_option", "EU-52")] and r[0].side == E_.side
    assert r[0].extra["options"] == ["call_card", "call_suit"]
    r = eng.feed(E("demand", seat="E", what="call_suit", suit="D"))
    assert said(r) == [("attention", "EU-52")]
    assert eng.state.deal.plays == []  # type: ignore[union-attr]   # the false lead went back (law 53)
    assert play(eng, "E:AC", "S:7C", "W:AD", "N:AH") == []
    assert said(play(eng, "N:KH")) == [("attention", "EU-57")]        # North holds no diamonds


def test_EU_52_lead_out_of_turn_call_the_card() -> None:
    eng = dealt()
    play(eng, "S:8S")
    eng.feed(E("demand", seat="W", what="call_card"))
    assert play(eng, "E:AC") == []
    r = play(eng, "S:7C")                                    # must follow clubs: the call waits (law 55)
    assert said(r) == [("attention", "EU-55")]
    play(eng, "W:AD", "N:AH", "N:KH")
    assert said(play(eng, "E:9H", "S:9S")) == [("attention", "EU-54")]   # void in hearts: 8S was due


def test_EU_53_false_lead_followed_by_all_three_stands() -> None:
    """East's call after the trick stood was refused with "no irregularity open to his side allows": untrue,
    South had led out of turn; the call was too late because law 53 let the trick stand, and it says so."""
    eng = dealt()
    assert said(play(eng, "S:7C")) == [("claim_option", "EU-52")]
    assert play(eng, "W:AD", "N:AH") == []
    assert said(play(eng, "E:AC")) == [("deal_stands", "EU-53")]
    for what in ({"what": "call_suit", "suit": "S"}, {"what": "call_card", "card": "7C"}):
        [r] = eng.feed(E("demand", seat="E", **what))
        assert (r.remedy, r.law, r.clause, r.seat) == (Remedy.DEAL_STANDS, "Euchre, law 53", "EU-53", E_)
        assert r.reason == ("East made a call, but everyone had played to South's lead out of turn in trick 1, so "
                            "that trick stands as played and a call for it comes too late; play goes on.")
    [r] = eng.feed(E("demand", seat="N", what="call_suit", suit="S"))   # the offender's side never had it
    assert (r.clause, r.reason) == ("EU-56", "North made a call no irregularity open to his side allows; play "
                                    "goes on.")


def test_EU_58_third_before_second_frees_the_fourth() -> None:
    eng = dealt()
    assert said(play(eng, "E:AC", "W:AD")) == [("attention", "EU-58")]
    assert play(eng, "N:AH", "S:7C") == []


def test_EU_59_fourth_before_second_win_or_lose() -> None:
    eng = dealt()
    r = play(eng, "E:AC", "N:AH")
    assert said(r) == [("claim_option", "EU-59")] and r[0].side == E_.side and r[0].seat == S
    assert said(play(eng, "S:7C")) == [("deal_stands", "EU-59")]   # no demand before South played
    eng2 = dealt()
    play(eng2, "E:AC", "N:AH")
    r = eng2.feed(E("demand", seat="W", what="lose_trick"))
    assert said(r) == [("attention", "EU-59")] and r[0].seat == S
    assert play(eng2, "S:7C") == []                          # South cannot win it anyway


# -- a trick missed, two cards to a trick (60-61) --------------------------------------------------------

def test_EU_60_trick_missed_new_deal_may_be_claimed() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:7C", "W:AD", "N:AH")
    r = eng.feed(E("surplus_card", seat="E", cause="play"))
    assert said(r) == [("claim_option", "EU-60")] and r[0].side == N.side
    r = eng.feed(E("demand", seat="S", what="new_deal"))
    assert said(r) == [("redeal", "EU-60")] and r[0].dealer == N


def test_EU_60_unclaimed_the_deal_stands_at_the_result() -> None:
    eng = dealt()
    eng.feed(E("surplus_card", seat="E", cause="play"))
    r = eng.feed(E("result", makers="NS", tricks=3))
    assert said(r)[0] == ("deal_stands", "EU-60")


def test_EU_61_card_too_many_in_a_trick() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:7C", "W:AD", "N:AH")
    r = eng.feed(E("surplus_card", seat="W", cause="trick"))
    assert said(r) == [("attention", "EU-61")] and "handed back" in r[0].reason


def test_EU_52_a_claim_button_with_a_choice_asks_the_director() -> None:
    """The table's claim button sends a plain new-deal demand; where the law gives a choice of calls the
    engine says so and waits for the director's entry."""
    eng = dealt()
    play(eng, "S:7C")
    r = eng.feed(E("demand", seat="E", what="new_deal"))
    assert said(r) == [("attention", "EU-52")] and r[0].extra["options"] == ["call_card", "call_suit"]


def test_EU_27_a_claim_button_takes_the_reshuffle() -> None:
    eng = LawEngine("euchre")
    eng.state.next_dealer = N
    eng.feed_all([E("shuffle", seat="N"), E("card_faced", card="JH", where="pack")])
    assert said(eng.feed(E("demand", seat="W", what="redeal"))) == [("reshuffle", "EU-27")]


# -- calls named after their laws (54-57), detached card (51), placing the cards (84) -------------------

def test_EU_54_failing_a_suit_call_while_holding_the_suit() -> None:
    eng = dealt()
    assert said(play(eng, "W:AD")) == [("claim_option", "EU-52")]  # West leads in East's turn
    eng.feed(E("demand", seat="N", what="call_suit", suit="C"))
    assert said(play(eng, "E:9D")) == [("attention", "EU-54")]     # East, his partner, holds clubs
    play(eng, "S:7C", "W:AD", "N:AH")
    assert penalties(eng) == [(E_, 3)]


def test_EU_55_a_call_never_forces_a_revoke() -> None:
    eng = dealt()
    play(eng, "E:AC", "E:KC", "S:7C", "W:AD", "N:AH")
    eng.feed(E("demand", seat="N", what="call_card", card="KC"))
    assert said(play(eng, "N:KH", "E:9H")) == [("attention", "EU-55")]


def test_EU_57_a_suit_call_on_a_void_player_is_satisfied() -> None:
    eng = dealt()
    play(eng, "S:7C")
    eng.feed(E("demand", seat="E", what="call_suit", suit="S"))
    play(eng, "E:AC", "S:7C", "W:AD", "N:AH")
    assert said(play(eng, "N:KH")) == [("attention", "EU-57")]


def test_EU_51_detached_card_named() -> None:
    eng = dealt()
    r = eng.feed(E("demand", seat="N", what="name_card", card="KC"))
    assert said(r) == [("attention", "EU-51")] and r[0].seat == E_
    r = eng.feed(E("demand", seat="N", what="name_card", card="QC"))   # nobody holds it
    assert said(r) == [("claim_option", "EU-51")] and r[0].side == E_.side and r[0].seat == N
    assert said(eng.feed(E("demand", seat="E", what="call_suit", suit="C"))) == [("attention", "EU-51")]


def test_EU_84_cards_placed_before_their_players() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:7C")
    r = eng.feed(E("demand", seat="W", what="place_cards"))
    assert said(r) == [("attention", "EU-84")] and r[0].extra["placed"] == [["E", "AC"], ["S", "7C"]]


# -- revokes: established (64), claims and the record (66-68), corrected (69), played out (70) ------------

def test_EU_64_revoke_established_when_the_next_trick_is_played_to() -> None:
    eng = dealt()
    assert play(eng, "E:AC", "S:8S", "W:AD", "N:AH") == []
    assert said(play(eng, "N:KH")) == [("attention", "EU-64")]


def test_EU_66_the_tricks_may_be_examined() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:7C", "W:AD", "N:AH")
    eng.feed(E("play_end"))                                   # once the hand is over
    r = eng.feed(E("demand", seat="E", what="search_tricks"))
    assert said(r) == [("attention", "EU-66")] and r[0].extra["tricks"] == [[["E", "AC"], ["S", "7C"],
                                                                          ["W", "AD"], ["N", "AH"]]]


def test_EU_67_a_revoke_claim_is_judged_from_the_record() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:8S", "W:AD", "N:AH", "N:KH")
    r = eng.feed(E("demand", seat="E", what="revoke"))
    assert said(r) == [("attention", "EU-67")] and r[0].extra["revokes"] == [["S", 1]]
    assert said(eng.feed(E("demand", seat="S", what="revoke"))) == [("attention", "EU-66")]  # none by E-W


def test_EU_68_revoke_claims_end_at_the_next_cut() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:8S", "W:AD", "N:AH", "N:KH")
    eng.feed_all([E("play_end"), E("result", makers="NS", tricks=3)] + prelude(E_))
    assert said(eng.feed(E("demand", seat="E", what="revoke"))) == [("deal_stands", "EU-68")]


def test_EU_68_a_revoke_claim_once_the_next_deal_began_is_too_late() -> None:
    """East alleged South's revoke once the next deal had begun (cut, or from an uncut pack): the claim
    was judged on the new deal, which has no card played, and answered that the record 'shows none by
    the other side', though South revoked and paid for it."""
    nxt = {E_: HANDS[S], S: HANDS[W], W: HANDS[N], N: HANDS[E_]}
    for cut in (True, False):
        eng = dealt()
        play(eng, "E:AC", "S:8S", "W:AD", "N:AH", "N:KH")
        deal = euchre_known_deal(E_, nxt, "7S")
        if not cut:
            deal = [e for e in deal if e.TYPE not in ("shuffle", "cut")]
        eng.feed_all([E("play_end"), E("result", makers="NS", tricks=3)] + deal[:-3])   # dealing
        r = eng.feed(E("demand", seat="E", what="revoke"))
        assert said(r) == [("deal_stands", "EU-68")], cut
        assert r[0].reason == ("East alleged a revoke after the next deal began; that is too late, as the cut for "
                               "the next deal ends the time for revoke claims (a deal from an uncut pack ends it "
                               "as well).")
        eng.feed_all(deal[-3:])                                                          # trump turned
        assert said(eng.feed(E("demand", seat="E", what="search_tricks"))) == [("deal_stands", "EU-68")]


def test_a_call_refused_says_whose_right_is_open_or_which_card_it_calls() -> None:
    """West called East's exposed king (North-South's right, law 46) and North called the queen though the
    king is the card exposed: both were told 'no irregularity open to his side allows', which was false for
    North and gave West no reason."""
    eng = dealt()
    play(eng, "E:AC", "E:KC")
    [r] = eng.feed(E("demand", seat="W", what="call_card", card="KC"))
    assert said([r]) == [("deal_stands", "EU-56")]
    assert r.reason.startswith("West made a call, but the call open now is North-South's (East played a second "
                               "card to trick 1: the king of clubs is exposed")
    [r] = eng.feed(E("demand", seat="N", what="call_card", card="QC"))
    assert said([r]) == [("deal_stands", "EU-56")]
    assert r.reason.startswith("North called the queen of clubs, but the card his side may call is the king of "
                               "clubs (East played a second card")


def test_EU_69_revoke_corrected_in_time() -> None:
    eng = dealt()
    play(eng, "E:AC")
    assert play(eng, "S:8S") == []                             # South revokes, holding the 7C
    r = play(eng, "S:7C")                                      # and corrects it before anyone plays on
    assert said(r) == [("claim_option", "EU-69")] and r[0].to_dict()["card"] == "8S"
    assert [c.code for _, c in eng.state.deal.plays] == ["AC", "7C"]  # type: ignore[union-attr]
    play(eng, "W:AD", "N:AH", "N:KH")
    assert penalties(eng) == []                                # no revoke remains


def test_EU_70_the_side_that_revoked_plays_the_hand_out() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:8S", "W:AD", "N:AH", "N:KH")       # South kept his 7C: North-South revoked
    assert said(eng.feed(E("demand", seat="S", what="play_out"))) == [("attention", "EU-70")]


def test_EU_70_the_partner_sitting_out_does_not_choose_to_play_out() -> None:
    """South played alone and revoked; North, sitting out, asked to play the hand out and was granted it,
    though he has no part in the hand (EU-lone-partner): the choice is South's."""
    eng = dealt(maker="S", alone=True)
    play(eng, "E:AC", "S:8S", "W:AD", "E:KC", "S:7C")          # South kept his 7C: a revoke, established
    [r] = eng.feed(E("demand", seat="N", what="play_out"))
    assert said([r]) == [("deal_stands", "EU-70")]
    assert r.reason == ("North sits out for South's lone hand and takes no part in it; whether to play it out is "
                        "the lone player's choice.")
    assert said(eng.feed(E("demand", seat="S", what="play_out"))) == [("attention", "EU-70")]


def test_EU_84_the_partner_sitting_out_does_not_ask_that_the_cards_be_placed() -> None:
    """North alone; South, who sits out and plays to no trick, asked who played each card of the trick and
    was answered as a player of it. Law 84's demand is for those who play to the trick (EU-lone-partner)."""
    eng = dealt(maker="N", alone=True)
    play(eng, "E:AC", "W:AD")
    [r] = eng.feed(E("demand", seat="S", what="place_cards"))
    assert said([r]) == [("deal_stands", "EU-84")]
    assert r.reason == ("South sits out for North's lone hand and plays to no trick; asking that the cards be "
                        "placed is for the players of the trick.")
    for seat in ("N", "W"):                                   # the lone player and an adversary keep it
        r = eng.feed(E("demand", seat=seat, what="place_cards"))
        assert said(r) == [("attention", "EU-84")] and r[0].extra["placed"] == [["E", "AC"], ["W", "AD"]]


def test_EU_66_the_partner_sitting_out_alleges_a_revoke_only_once_the_hand_is_over() -> None:
    """North alone; East revoked in trick 2. South, who sits out, alleged it while the hand was played and
    was answered as a player: he takes no part in the hand while it is played. Once it is over the claim,
    and the search of the tricks, are his side's, so his too (docs/laws.md, EU-66)."""
    eng = dealt(maker="N", alone=True)
    play(eng, "E:AC", "W:AD", "N:TH", "N:JH", "E:KC", "W:7D")   # East kept his 9H: a revoke
    assert said(play(eng, "N:AH", "E:9H")) == [("attention", "EU-64")]
    [r] = eng.feed(E("demand", seat="S", what="revoke"))
    assert said([r]) == [("deal_stands", "EU-66")]
    assert r.reason == ("South alleged a revoke, but he sits out for North's lone hand and takes no part in it "
                        "while it is played; once the hand is over he may allege one for his side.")
    eng.feed(E("play_end"))
    [r] = eng.feed(E("demand", seat="S", what="revoke"))
    assert said([r]) == [("attention", "EU-67")] and r.extra["revokes"] == [["E", 2]]
    [r] = eng.feed(E("demand", seat="S", what="search_tricks"))
    assert said([r]) == [("attention", "EU-66")] and r.extra["tricks"][1] == [["N", "JH"], ["E", "KC"], ["W", "7D"]]


def test_EU_71_equal_revokes_offset_by_their_own_law() -> None:
    eng = dealt()
    play(eng, "E:AC", "S:8S", "W:AD", "N:AH", "N:KH", "E:9D", "S:7C", "W:7D", "N:QH")
    r = eng.feed(E("play_end"))
    assert said(r) == [("attention", "EU-71")]


def test_EU_88_the_dealer_discarded_the_trump_card() -> None:
    hands = {E_: ["AC", "KC", "9H", "9D", "TD"], S: ["7C", "8S", "9S", "AS", "KS"],
             W: ["AD", "KD", "QD", "8D", "7D"], N: ["AH", "KH", "QH", "JH", "TH"]}
    eng = LawEngine("euchre")
    eng.state.next_dealer = N
    events = prelude(N) + [E("deal_start", dealer="N", pack="red")]
    for lo, hi in ((0, 2), (2, 5)):
        events += [E("card_dealt", seat=s.value, card=c) for s in (E_, S, W, N) for c in hands[s][lo:hi]]
    events += [E("deal_end"), E("trump_turned", card="8H"), E("trump_made", seat="E", suit="H")]
    eng.feed_all(events)                                       # North takes up the 8H and keeps his five
    play(eng, "E:AC", "S:7C", "W:AD", "N:TH", "N:AH", "E:9H", "S:8S", "W:7D", "N:KH", "E:KC", "S:9S",
         "W:8D", "N:QH", "E:9D", "S:AS", "W:QD", "N:JH", "E:TD", "S:KS", "W:KD")
    r = [x for x in eng.feed(E("play_end")) if x.clause == "EU-88"]
    assert len(r) == 1 and r[0].seat == N


def test_EU_73_torn_card_between_deals_replaced() -> None:
    eng = LawEngine("euchre")
    r = eng.feed(E("damaged_card", card="9S", pack="red"))
    assert said(r) == [("replace_pack", "EU-73")]


def test_EU_46_a_card_exposed_before_trump_is_made_is_callable() -> None:
    eng = LawEngine("euchre")
    eng.state.next_dealer = N
    eng.feed_all(euchre_known_deal(N, HANDS, "7S"))
    r = eng.feed(E("card_faced", card="KD", where="table", by="W"))
    assert said(r) == [("claim_option", "EU-46")] and r[0].side == N.side


def test_EU_69_a_called_card_once_played_leaves_no_call_to_lapse() -> None:
    """Issue 20: after the revoking card was called and then played, the claim is spent; play_end must
    not say that a call still open lapses."""
    eng = dealt()
    play(eng, "E:AC", "S:8S")
    assert said(play(eng, "S:7C")) == [("claim_option", "EU-69")]
    assert said(eng.feed(E("demand", seat="W", what="call_card"))) == [("attention", "EU-69")]
    assert play(eng, "W:AD", "N:AH") == []
    assert play(eng, "N:KH", "E:9H", "S:8S", "W:7D") == []      # South cannot follow: the called card
    assert eng.state.claims == [] and eng.state.deal is not None and eng.state.deal.calls == []
    rest = play(eng, "N:QH", "E:9D", "S:9S", "W:8D", "N:JH", "E:TD", "S:AS", "W:QD",
                "N:TH", "E:KC", "S:KS", "W:KD")
    assert rest == []
    assert said(eng.feed(E("play_end"))) == []


def test_EU_69_an_uncalled_card_still_lapses_at_the_end() -> None:
    """The claim nobody took lapses at the end of play, as before (the call was open and unused)."""
    eng = dealt()
    play(eng, "E:AC", "S:8S")
    assert said(play(eng, "S:7C")) == [("claim_option", "EU-69")]
    play(eng, "W:AD", "N:AH")
    assert said(eng.feed(E("play_end"))) == [("deal_stands", "EU-69")]


def test_EU_73_a_torn_card_of_the_pack_not_in_use_leaves_the_hand_alone() -> None:
    """As CB-pack-damaged (issue 20): the deal is of the red pack; a torn card of the blue one imperfects
    nothing being dealt or played (law 33 is about the pack in play), so that pack is replaced (73)."""
    eng = dealt()
    r = eng.feed(E("damaged_card", card="9S", pack="blue"))
    assert said(r) == [("replace_pack", "EU-73")] and r[0].dealer is None
    assert eng.state.deal is not None and not eng.state.deal.void
    r = eng.feed(E("damaged_card", card="9S", pack="red"))
    assert said(r) == [("replace_pack", "EU-33")] and eng.state.deal.void
