"""The play model (laws/bridge/play.py, tricks.py, revokes.py) against docs/laws.md's BP- rows of the play:
each test is named after the row it checks. Most scenarios use the deal of the PBN 2.1 example game
(tests/laws/bridge_deals.py), declarer South in five hearts doubled:

    North  S -      H 63     D AKQ987  C A9732      (dummy)
    East   S A8654  H KQ5    D T       C QJT6
    South  S J973   H J98742 D 3       C K4         (declarer)
    West   S KQT2   H AT     D J6542   C 85         (opening leader)
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws import snapshot
from laws.bridge.pbn import play_lines
from laws.bridge.play import Play
from laws.bridge.revokes import proven, transfers
from laws.bridge.tricks import (
    ClaimStatus,
    PenaltyCard,
    PlayError,
    PlayIrregularity,
    Revoke,
    RevokeStatus,
    Trick,
    penalty_card_words,
    trick_winner,
)
from laws.cards import Card, Seat, Side
from laws.scoring.bridge import Contract
from tests.laws.bridge_deals import (
    SCHIPHOL_DEAL,
    SCHIPHOL_PLAY,
    deal,
    naive_winner,
    play_pbn_line,
    random_card,
    random_hands,
)

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
P = PlayIrregularity


def C(code: str) -> Card:
    return Card.parse(code)


def schiphol(hands: bool = True) -> Play:
    return Play(Contract(5, "H", 1), S, deal(SCHIPHOL_DEAL) if hands else None)


def tricks(p: Play, *lines: str) -> Play:
    """Play tricks given as 'seat:card' in the order played, e.g. 'W:KS N:3H E:4S S:3S'."""
    for line in lines:
        for item in line.split():
            seat, _, code = item.partition(":")
            p.play(Seat(seat), C(code))
    return p


TRICK_1 = "W:KS N:3H E:4S S:3S"                    # North ruffs the spade lead and leads next


# -- BP-41, BP-44 ----------------------------------------------------------------------------------

def test_BP_41_opening_lead_from_declarers_left_and_dummy() -> None:
    p = schiphol()
    assert (p.opening_leader, p.turn, p.dummy, p.trump) == (W, W, N, "H")
    assert p.judge(W, C("KS")).legal and p.judge(W, C("KS")).clause == "BP-44"


def test_BP_44_highest_trump_else_highest_of_the_suit_led() -> None:
    cards = {W: C("KS"), N: C("3H"), E: C("AS"), S: C("3S")}
    assert trick_winner(cards, W, "H") == N
    assert trick_winner(cards, W, None) == E                 # notrump: the ace of the suit led
    assert trick_winner({W: C("2C"), N: C("AD"), E: C("3C"), S: C("KH")}, W, "S") == E


def test_BP_44_pbn_example_game_play_and_claim() -> None:
    # PBN 2.1 standard, section 1.2 "Example game": seven tricks played (the last only led), then a
    # claim; [Result "9"].
    p = schiphol()
    for line in SCHIPHOL_PLAY[:-1]:
        play_pbn_line(p, line)
    assert p.won == {Side.NS: 6, Side.EW: 0} and p.to_play == W
    p.claim(S, 3)
    p.agree_claim()
    assert p.result().declarer_tricks == 9
    assert play_lines(p) == ['[Play "W"]'] + SCHIPHOL_PLAY


def test_pbn_play_lines_while_play_goes_on() -> None:
    p = tricks(schiphol(), TRICK_1, "N:2C")
    assert play_lines(p) == ['[Play "W"]', "SK H3 S4 S3", "- C2 + -"]


# -- bad input -------------------------------------------------------------------------------------

def test_a_card_the_seat_cannot_hold_is_refused_not_judged() -> None:
    p = schiphol()
    with pytest.raises(PlayError, match="does not hold"):
        p.judge(W, C("AS"))
    tricks(p, TRICK_1)
    with pytest.raises(PlayError, match="already played"):
        p.judge(N, C("3H"))
    q = schiphol(hands=False)
    q.play(W, C("KS"))
    q.dummy_faced(deal(SCHIPHOL_DEAL)[N])
    with pytest.raises(PlayError, match="North's hand"):
        q.judge(E, C("AD"))
    with pytest.raises(PlayError):
        q.dummy_faced([C("AD")])


# -- BP-53-56 lead out of turn ----------------------------------------------------------------------

def test_BP_53_56_opening_lead_out_of_turn_accepted() -> None:
    p = schiphol()
    v = p.judge(E, C("AS"))
    assert (v.kind, v.clause, v.detail) == (P.LEAD_OUT_OF_TURN, "BP-53-56", "by_defender_opening")
    assert v.accept_by == (S,) and v.penalty_card and v.turn == W
    p.accept(E, C("AS"))
    assert p.current.leader == E and p.turn == S           # rotation goes on from the offender
    tricks(p, "S:3S W:2S N:3H")
    assert p.tricks[0].winner == N
    assert play_lines(p)[1] == "S2 H3 ^L SA S3"


def test_BP_53_56_lead_out_of_turn_taken_back_is_a_penalty_card() -> None:
    p = schiphol()
    p.withdraw(E, C("AS"))
    assert p.penalty_cards == [(E, C("AS"))] and p.turn == W
    tricks(p, "W:KS N:3H E:AS")
    assert p.penalty_cards == []                            # played: no longer a penalty card


def test_BP_53_56_declarer_leads_from_the_wrong_hand() -> None:
    p = tricks(schiphol(), TRICK_1)
    v = p.judge(S, C("KC"))                                 # the lead is dummy's
    assert v.kind is P.LEAD_OUT_OF_TURN and v.detail == "by_declarer" and v.accept_by == (W, E)
    assert not v.penalty_card


# -- BP-57 premature play, and other cards out of turn ---------------------------------------------

def test_BP_57_defender_plays_before_his_partner() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD")
    v = p.judge(W, C("2D"))                                 # East's turn
    assert (v.kind, v.clause, v.detail, v.penalty_card) == (P.PREMATURE_PLAY, "BP-57", "play", True)
    with pytest.raises(PlayError, match="cannot be accepted"):
        p.accept(W, C("2D"))
    p.withdraw(W, C("2D"))
    assert p.penalty_cards == [(W, C("2D"))] and p.turn == E


def test_BP_57_defender_leads_to_the_next_trick_before_partner_played() -> None:
    p = tricks(schiphol(), "W:KS N:3H")
    v = p.judge(W, C("QS"))
    assert v.kind is P.PREMATURE_PLAY and v.detail == "lead_to_next_trick"


def test_BP_57_other_cards_out_of_turn_declarers_side_and_a_defender_at_rho() -> None:
    p = tricks(schiphol(), "W:KS")
    v = p.judge(S, C("3S"))                                 # North's turn
    assert (v.kind, v.clause, v.detail, v.stands) == (P.PLAY_OUT_OF_TURN, "BP-57", "by_declarer_side", True)
    p.accept(S, C("3S"))
    assert p.turn == N                                      # the first player after South still to play
    tricks(p, "N:3H E:4S")
    assert p.tricks[0].winner == N and p.turn == N
    q = tricks(schiphol(), TRICK_1, "N:AD E:TD")
    w = q.judge(W, C("2D"))                                 # South's turn; West's partner has played
    assert w.kind is P.PLAY_OUT_OF_TURN and w.detail == "by_defender_at_rho" and not w.penalty_card
    assert q.judge(W, C("8C")).penalty_card                 # not playable legally at his turn (57D)
    with pytest.raises(PlayError, match="cannot be accepted"):
        q.accept(W, C("2D"))


def test_BP_57_after_declarer_s_side_plays_early_the_skipped_player_still_plays() -> None:
    """Law 57C: a card declarer's side plays early stands, but it does not move the turn past the player
    whose turn it was. North leads, South plays before East: East is still to play, then West."""
    p = tricks(schiphol(), TRICK_1, "N:AD")
    p.accept(S, C("3D"))                                    # East's turn: South's card stands
    assert p.turn == E
    assert p.judge(E, C("TD")).legal
    tricks(p, "E:TD")
    assert p.turn == W and p.judge(W, C("2D")).legal
    tricks(p, "W:2D")
    assert p.tricks[1].winner == N and p.penalty_cards == []
    # South leads, dummy plays before West: West is still to play, then East
    q = tricks(schiphol(), "W:2S N:2C E:4S S:JS", "S:3D")
    q.accept(N, C("AD"))                                    # West's turn: dummy's card stands
    assert q.turn == W and q.judge(W, C("2D")).legal
    tricks(q, "W:2D")
    assert q.turn == E and q.judge(E, C("TD")).legal


# -- BP-66-67 -----------------------------------------------------------------------------------------

def test_BP_66_67_second_card_into_a_trick_is_never_played() -> None:
    p = tricks(schiphol(), "W:KS N:3H E:4S")
    v = p.judge(E, C("5S"))
    assert v.kind is P.SECOND_CARD and v.clause == "BP-66-67"
    with pytest.raises(PlayError):
        p.play(E, C("5S"))
    p.withdraw(E, C("5S"))
    assert p.penalty_cards == [] and p.current.cards == {W: C("KS"), N: C("3H"), E: C("4S")}


# -- BP-61, BP-62, BP-63 revokes ---------------------------------------------------------------------

def test_BP_61_revoke_detected_at_the_card_from_known_hands() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D")
    v = p.judge(W, C("8C"))                                 # West holds five diamonds
    assert (v.kind, v.clause, v.suit_led) == (P.REVOKE, "BP-61", "D")
    assert p.judge(W, C("2D")).legal
    p.play(W, C("8C"))
    assert p.revokes == [Revoke(W, 2, C("8C"), "D")]
    unknown = tricks(schiphol(hands=False), TRICK_1, "N:AD E:TD S:3D")
    assert unknown.judge(W, C("8C")).legal                  # hands unknown: nothing to tell


def test_BP_61_revoke_from_dummy_once_it_is_faced() -> None:
    p = schiphol(hands=False)
    p.play(W, C("2D"))
    p.dummy_faced(deal(SCHIPHOL_DEAL)[N])
    v = p.judge(N, C("2C"))
    assert v.kind is P.REVOKE and v.detail == "by_dummy"


def test_BP_62_revoke_corrected_before_it_is_established() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C")
    assert p.tricks[1].winner == N
    with pytest.raises(PlayError, match="suit led"):
        p.correct(W, C("5C"))
    r = p.correct(W, C("2D"))
    assert r.status is RevokeStatus.CORRECTED
    assert p.tricks[1].cards[W] == C("2D") and C("8C") in (p.holds(W) or [])
    assert p.penalty_cards == [(W, C("8C"))]              # a defender's revoking card
    assert p.turn == N and p.revokes[0].status is RevokeStatus.CORRECTED


def test_BP_62_correction_changes_the_winner_and_takes_back_the_next_lead() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:AH")  # West ruffs while holding diamonds
    assert p.tricks[1].winner == W and p.won[Side.EW] == 1
    p.correct(W, C("2D"))
    assert p.tricks[1].winner == N and p.won == {Side.NS: 2, Side.EW: 0} and p.turn == N
    q = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C", "N:KD")  # North, not offending, led on
    q.correct(W, C("2D"))
    assert q.current.cards == {} and q.turn == N and C("KD") in (q.holds(N) or [])


def test_BP_63_established_when_the_offending_side_plays_to_a_later_trick() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C", "N:KD")
    assert p.revokes[0].status is RevokeStatus.OPEN         # only North has played to trick 3
    p.play(E, C("6C"))                                      # the revoker's partner plays on
    assert p.revokes[0].status is RevokeStatus.ESTABLISHED
    with pytest.raises(PlayError, match="no revoke that can be corrected"):
        p.correct(W, C("2D"))


def test_BP_63_established_by_a_claim_or_agreeing_to_one() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C")
    p.claim(E, 0)                                           # the revoker's side concedes
    assert p.revokes[0].status is RevokeStatus.ESTABLISHED
    q = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C")
    q.claim(S, 11)
    assert q.revokes[0].status is RevokeStatus.OPEN
    q.agree_claim()                                         # the revoker's side agrees
    assert q.revokes[0].status is RevokeStatus.ESTABLISHED


def _twelfth_trick_revoke() -> tuple[Play, Seat]:
    """A random legal play to trick 12 where the player in turn can revoke; he does, then all 52 cards
    are played. Deterministic: seeds are tried in order."""
    for seed in range(500):
        rnd = random.Random(seed)
        p = Play(Contract(4, "S"), Seat.S, random_hands(rnd))
        while p.trick_number < 12:
            p.play(*random_card(p, rnd))
        for _ in range(4):
            seat = p.to_play
            legal = p.legal_cards(seat) or []
            off = [c for c in p.holds(seat) or [] if c not in legal]
            if p.current.cards and off:
                p.play(seat, off[0])
                while not p.ended:
                    p.play(*random_card(p, rnd))
                return p, seat
            p.play(*random_card(p, rnd))
    raise AssertionError("no twelfth-trick revoke found")


def test_BP_62_twelfth_trick_revoke_is_corrected_even_when_established() -> None:
    p, seat = _twelfth_trick_revoke()
    r = p.revokes[0]
    assert r.trick == 12 and r.status is RevokeStatus.ESTABLISHED and p.ended
    last = p.tricks[12].cards[seat]
    p.correct(seat, last)
    t12, t13 = p.tricks[11], p.tricks[12]
    assert t12.cards[seat] == last and t13.cards[seat] == r.card and r.status is RevokeStatus.CORRECTED
    assert t13.leader == t12.winner
    for t in (t12, t13):
        assert t.winner == naive_winner(list(t.cards.items()), "S")
    assert p.rectification() == [] and sum(p.won.values()) == 13


# -- BP-64 rectification ----------------------------------------------------------------------------

def _after(p: Play, claimer: Seat = S) -> Play:
    p.claim(claimer, p.tricks_left)
    p.agree_claim()
    return p


def test_BP_64_revoker_won_the_trick_and_a_later_one_two_tricks() -> None:
    p = _after(tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:AH", "W:QS N:2C E:AS S:7S"))
    (t,) = p.rectification()
    assert (t.tricks, t.to_side, t.counted) == (2, Side.NS, (2, 3))
    res = p.result()
    assert res.table_tricks == 11 and res.declarer_tricks == 13
    assert play_lines(p)[2:4] == ["^R HA DA DT D3", "SQ C2 SA S7"]   # PBN 3.9 (C): the revoke marked


def test_BP_64_revoker_won_the_trick_and_no_later_one_one_trick() -> None:
    p = _after(tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:AH", "W:QS N:6H E:AS S:7S"))
    (t,) = p.rectification()
    assert t.tricks == 1 and t.counted == (2,) and p.result().declarer_tricks == 13


def test_BP_64_partner_won_the_revoke_trick_one_trick() -> None:
    p = _after(tricks(schiphol(), TRICK_1, "N:7D E:TD S:3D W:8C", "E:QC S:4C W:5C N:AC"))
    (t,) = p.rectification()
    assert t.tricks == 1 and t.counted == (2,)


def test_BP_64_offending_side_won_nothing_no_transfer() -> None:
    p = _after(tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C", "N:KD E:6C S:2H W:2D"))
    (t,) = p.rectification()
    assert t.tricks == 0 and p.result().declarer_tricks == p.result().table_tricks == 13


def test_BP_64_second_revoke_in_the_same_suit_by_the_same_player() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C", "N:KD E:6C S:2H W:5C",
               "S:JS W:QS N:7C E:AS")
    first, second = _after(p).rectification()
    assert (first.tricks, first.counted) == (1, (4,))
    assert second.tricks == 0 and "second revoke" in second.reason


def test_BP_64_two_revokes_in_different_suits_each_move_a_trick_once() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C", "N:AC E:5S S:4C W:5C",
               "N:2C E:QC S:KC W:TH", "W:QS N:3C E:AS S:7S")
    west, east = _after(p).rectification()
    assert (west.revoke.seat, west.counted) == (W, (4,))
    assert (east.revoke.seat, east.counted) == (E, (5,))
    assert p.result().declarer_tricks == p.result().table_tricks + 2


def test_BP_64_revoke_by_dummy_moves_no_trick() -> None:
    p = _after(tricks(schiphol(), TRICK_1, "N:2C E:6C S:KC W:5C", "S:3D W:2D N:3C E:TD",
                      "E:AS S:7S W:2S N:6H"))
    (t,) = p.rectification()
    assert t.revoke.by_dummy and t.tricks == 0


def test_BP_64_rules_on_the_trick_record() -> None:
    """The transfer rules on synthetic records (West's side EW offends): a trick is never moved twice."""
    def rec(winners: str) -> list[Trick]:
        return [Trick(i + 1, N, {}, Seat(w)) for i, w in enumerate(winners)]

    est = RevokeStatus.ESTABLISHED
    one = Revoke(W, 3, C("2C"), "D", est)
    two = Revoke(E, 4, C("2S"), "H", est)
    # West and East revoke in tricks 3 and 4; EW win only trick 6 after them: one trick moves in all.
    moved = transfers(rec("NNNSSWSSSSSSS"), [one, two], {})
    assert [m.counted for m in moved] == [(6,), ()]
    # A claim's tricks count as later tricks: EW won none at the table but one by the claim.
    (claimed,) = transfers(rec("NNNS"), [one], {Side.EW: 1, Side.NS: 8})
    assert claimed.tricks == 1 and claimed.counted[0] > 13
    # A corrected or open revoke moves nothing; a twelfth-trick revoke neither.
    late = Revoke(W, 12, C("2C"), "D", est)
    assert transfers(rec("NNNNNNNNNNNWW"), [late], {})[0].tricks == 0
    assert transfers(rec("WWW"), [Revoke(W, 3, C("2C"), "D")], {}) == []


def test_BP_64_two_revokes_in_one_trick_are_worked_out_in_the_order_they_were_played() -> None:
    """docs/laws.md BP-64: revokes are worked out "in the order they happened", and in one trick that is the
    order of the cards. East (second to play) and West (fourth) both revoke in trick 3, West's recorded
    first (seen at the card) and East's later (found in the tricks): East's moves EW's first later trick.
    The transfer once followed the order of recording, naming trick 6 for East and 5 for West."""
    cards = {N: C("2D"), E: C("2C"), S: C("3D"), W: C("2S")}
    record = [Trick(i + 1, N, cards if i == 2 else {}, Seat(w)) for i, w in enumerate("NNNNEENWNNNNN")]
    est = RevokeStatus.ESTABLISHED
    west, east = Revoke(W, 3, C("2S"), "D", est), Revoke(E, 3, C("2C"), "D", est)
    moved = {t.revoke.seat: t.counted for t in transfers(record, [west, east], {}, rubber=True)}
    assert moved == {E: (5,), W: (6,)}


def test_BP_64_director_may_restore_equity() -> None:
    p = _after(tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C", "N:KD E:6C S:2H W:2D"))
    p.enter_result(12, "equity: the revoke cost declarer a trick the transfer does not give back")
    res = p.result()
    assert res.declarer_tricks == 12 and res.director_entry


# -- BP-68-71 claims ---------------------------------------------------------------------------------

def test_BP_68_71_claim_for_more_tricks_than_remain_is_refused() -> None:
    p = tricks(schiphol(), TRICK_1)
    with pytest.raises(PlayError, match="only 12 remain"):
        p.claim(S, 13)
    with pytest.raises(PlayError, match="dummy"):
        p.claim(N, 1)
    assert p.claim_state is None


def test_BP_68_71_claim_stops_play_agreed_disputed_or_withdrawn() -> None:
    p = tricks(schiphol(), TRICK_1)
    p.claim(S, 10)
    assert p.turn is None
    with pytest.raises(PlayError, match="claim"):
        p.judge(N, C("AD"))
    p.dispute_claim()
    p.rule_claim(9)
    assert p.claim_state is not None and p.claim_state.status is ClaimStatus.RULED
    assert p.result().declarer_tricks == 10 and play_lines(p)[-1] == "*"
    q = tricks(schiphol(), TRICK_1)
    q.claim(W, 12)                                          # a defender claims the rest
    q.withdraw_claim()
    assert q.turn == N and q.claim_state is None
    q.claim(W, 0)                                           # ... or concedes them
    q.agree_claim()
    assert q.result().declarer_tricks == 13


def test_result_waits_for_the_end_of_play() -> None:
    with pytest.raises(PlayError, match="ended"):
        tricks(schiphol(), TRICK_1).result()


# -- state, snapshots and properties ----------------------------------------------------------------

def test_play_snapshot_goes_on_the_same() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C", "N:KD")
    p.withdraw(W, C("QS"))
    q = snapshot.loads(snapshot.dumps(p))
    assert q == p
    for x in (p, q):
        tricks(x, "E:6C S:2H W:2D")
        _after(x)
    assert q == p and q.result() == p.result()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), level=st.integers(1, 7), strain=st.sampled_from(["C", "D", "H", "S", "NT"]),
       declarer=st.sampled_from(list(Seat)))
def test_random_legal_play_of_a_random_deal(seed: int, level: int, strain: str, declarer: Seat) -> None:
    rnd = random.Random(seed)
    hands = random_hands(rnd)
    p = Play(Contract(level, strain), declarer, hands)
    trump = None if strain == "NT" else strain
    order: list[list[tuple[Seat, Card]]] = [[]]
    while not p.ended:
        seat, card = random_card(p, rnd)
        assert p.judge(seat, card).legal
        p.play(seat, card)
        order[-1].append((seat, card))
        if len(order[-1]) == 4:
            order.append([])
        for s, cards in p.remaining.items():                # the counts follow the cards held
            assert p.counts[s] == {x: sum(1 for c in cards if c.suit == x) for x in "SHDC"}
    assert len(p.tricks) == 13 and not p.revokes
    assert sorted(c for t in p.tricks for c in t.cards.values()) == sorted(c for h in hands.values() for c in h)
    for t, played in zip(p.tricks, order, strict=False):
        assert t.winner == naive_winner(played, trump)
        assert {s: c for s, c in played} == t.cards
    assert p.result().declarer_tricks == sum(t.winner.side is declarer.side for t in p.tricks if t.winner)
    assert len(play_lines(p)) == 14


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), at=st.integers(1, 40))
def test_a_forced_revoke_is_detected(seed: int, at: int) -> None:
    rnd = random.Random(seed)
    p = Play(Contract(3, "NT"), Seat.N, random_hands(rnd))
    for _ in range(at):
        seat = p.to_play
        off = [c for c in p.holds(seat) or [] if c not in (p.legal_cards(seat) or [])]
        if p.current.cards and off:
            v = p.judge(seat, off[0])
            assert v.kind is P.REVOKE
            p.play(seat, off[0])
            assert p.revokes[-1].seat == seat and p.revokes[-1].status is RevokeStatus.OPEN
            return
        p.play(*random_card(p, rnd))


def test_naive_winner_check_can_fail() -> None:
    """The property compares the model's winners with naive_winner: it catches a wrong winner."""
    played = [(W, C("KS")), (N, C("3H")), (E, C("AS")), (S, C("3S"))]
    assert naive_winner(played, "H") == N and naive_winner(played, None) == E
    assert naive_winner(played, "H") != trick_winner(dict(played), W, None)   # a wrong trump is caught


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_judge_never_changes_the_play(seed: int) -> None:
    rnd = random.Random(seed)
    p = Play(Contract(2, "D"), Seat.E, random_hands(rnd))
    pack = [c for h in random_hands(rnd).values() for c in h]
    while not p.ended:
        before = snapshot.dumps(p)
        for _ in range(4):
            try:
                v = p.judge(rnd.choice(list(Seat)), rnd.choice(pack))
                assert v.legal or v.reason
            except PlayError:
                pass
        assert snapshot.dumps(p) == before
        p.play(*random_card(p, rnd))


def test_models_survive_an_engine_checkpoint() -> None:
    """The engine snapshots TableState.game_state: an auction and a play kept there come back equal."""
    from laws.bridge.auction import Auction
    from laws.engine import LawEngine

    eng = LawEngine("contract-bridge")
    auction = Auction(N)
    play = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C")
    eng.state.game_state.update(auction=auction, play=play)
    again = LawEngine("contract-bridge")
    again.restore(eng.snapshot())
    assert again.state.game_state["auction"] == auction and again.state.game_state["play"] == play


def test_BP_62_a_refused_correction_changes_nothing() -> None:
    p = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C", "N:KD")
    before = snapshot.dumps(p)
    with pytest.raises(PlayError):
        p.correct(W, C("KD"))                               # not his card
    assert snapshot.dumps(p) == before


def test_BP_64_a_revoke_by_failing_to_play_a_penalty_card_moves_no_trick() -> None:
    """Law 64B3: East's only diamond, the ten, became a penalty card (his lead out of turn, taken back);
    on North's diamond lead East discards a spade instead: a revoke, established when East plays to the
    next trick, but made by failing to play a card faced on the table, so no trick moves, although
    East-West win a trick after it (by the claim), which would otherwise move one."""
    p = schiphol()
    assert p.judge(E, C("TD")).kind is P.LEAD_OUT_OF_TURN
    p.withdraw(E, C("TD"))
    assert p.penalty_cards == [(E, C("TD"))]
    tricks(p, TRICK_1, "N:AD E:5S S:3D W:2D", "N:AC E:6C S:4C W:5C")
    [r] = p.revokes
    assert (r.seat, r.trick, r.status, r.faced) == (E, 2, RevokeStatus.ESTABLISHED, True)
    p.claim(S, 9)
    p.agree_claim()
    [t] = p.rectification()
    assert (t.tricks, t.counted) == (0, ()) and "law 64B3" in t.reason
    assert t.reason == ("East did not play his penalty card, the ten of diamonds, which lay faced on the table, "
                        "and held no other diamond: a revoke by failing to play a faced card moves no trick "
                        "(law 64B3).")


def test_BP_61_no_revoke_in_trick_13_a_penalty_card_is_its_players_last_card() -> None:
    """At a table that does not know the hands, West's lead out of turn to trick 13, taken back, is his
    penalty card and his last card (law 50). Another card from him, or his penalty card from anyone else,
    is a card the seat cannot hold: refused. (Taken, West's queen of clubs made a revoke in trick 13 that
    no later play could establish and that was left open, "the director, who ruled the claim", with no
    claim; and East could then play West's ten.)"""
    p = schiphol(hands=False)
    p.play(W, C("2D"))
    p.dummy_faced(deal(SCHIPHOL_DEAL)[N])
    tricks(p, "N:AD E:TD S:3D", "N:7D E:KH S:4H W:5D", "E:TC S:KC W:5C N:AC", "N:9D E:5H S:9H W:6D",
           "S:9S W:TS N:8D E:AS", "E:4S S:JS W:KS N:3H", "N:7C E:JC S:4C W:8C", "E:8S S:3S W:QS N:6H",
           "N:2C E:6C S:7H W:JD", "S:8H W:AH N:3C E:QH", "W:4D N:KD E:6S S:JH", "S:7S W:2S N:QD E:5S")
    p.withdraw(W, C("TH"))                                  # South's lead: West's ten is a penalty card
    p.play(S, C("2H"))
    before = snapshot.dumps(p)
    with pytest.raises(PlayError, match="^West's only card left is his penalty card, the ten of hearts, on the "
                                        "table: he cannot hold the queen of clubs$"):
        p.play(W, C("QC"))
    with pytest.raises(PlayError, match="^the ten of hearts lies on the table as West's penalty card, not "
                                        "East's$"):
        p.judge(E, C("TH"))
    assert snapshot.dumps(p) == before
    tricks(p, "W:TH N:9C E:QC")
    assert p.ended and p.revokes == [] and p.penalty_cards == []


def test_BP_61_a_card_of_the_suit_that_corrects_a_later_revoke_shows_he_held_it() -> None:
    """At a table that does not know the hands, East fails to play his penalty card, the ten of clubs, in
    trick 2: a failure to play a faced card unless a later club of his, not lying on the table then, shows
    he held another (docs/laws.md BP-61). His queen of clubs does: led out of turn to trick 4 and taken
    back, it corrects his next revoke there. So the trick-2 revoke moves a trick (East-West won trick 4).
    Before, a card that reached a trick by a correction was not looked at, and no trick moved."""
    p = schiphol(hands=False)
    p.play(W, C("KS"))
    p.dummy_faced(deal(SCHIPHOL_DEAL)[N])
    tricks(p, "N:3H E:4S S:3S")
    p.withdraw(E, C("TC"))                                  # North's lead: a penalty card
    tricks(p, "N:2C E:5S S:KC W:5C", "S:3D W:2D N:AD E:TD")
    p.withdraw(E, C("QC"))                                  # North's lead again
    tricks(p, "N:3C E:6S")
    p.correct(E, C("QC"))
    tricks(p, "S:4C W:8C")
    first = p.revokes[0]
    assert (first.trick, first.status, first.faced) == (2, RevokeStatus.ESTABLISHED, False)
    p.claim(E, 0)
    p.agree_claim()
    assert [(t.revoke.trick, t.tricks, t.counted) for t in p.rectification()] == [(2, 1, (4,))]


def test_penalty_cards_are_counted_in_words_one_way() -> None:
    """One card is "his penalty card", never "penalty cards"; two or more are named in rank order."""
    assert penalty_card_words([C("TD")]) == "his penalty card, the ten of diamonds"
    assert penalty_card_words([C("4D"), C("TD")]) == "his penalty cards, the ten and the four of diamonds"
    assert penalty_card_words([C("2D"), C("AS"), C("TD")]) == ("his penalty cards, the ace of spades, the ten of "
                                                              "diamonds and the two of diamonds")
    with pytest.raises(ValueError):
        penalty_card_words([])


def test_BP_64_a_revoke_holding_the_suit_in_hand_still_moves_a_trick() -> None:
    """The control: West's diamonds are in his hand, none faced; his revoke moves a trick as usual."""
    p = schiphol()
    tricks(p, TRICK_1)
    p.play(N, C("AD"))
    p.play(E, C("TD"))
    p.play(S, C("3D"))
    p.play(W, C("8C"))                                # a revoke: West holds diamonds in his hand
    tricks(p, "N:AC E:6C S:4C W:5C")
    [r] = p.revokes
    assert (r.seat, r.faced, r.status) == (W, False, RevokeStatus.ESTABLISHED)
    p.claim(S, 9)
    p.agree_claim()
    [t] = p.rectification()
    assert t.tricks == 1


def test_BP_61_a_penalty_card_of_the_suit_led_not_played_is_a_revoke_seen_at_the_card() -> None:
    """Law 50 (a penalty card is played at the first legal opportunity) with law 61: the table does not know
    East's hand, but his ten of diamonds lies on the table as a penalty card, so he holds a diamond and his
    club on North's diamond lead is a revoke, seen at the card (it used to be found only by a ``revoke``
    demand after play), made by failing to play a faced card (64B3): the tricks show no other diamond of his.
    With East's ace of spades a penalty card his club on the spade lead is one too, until he plays a spade
    that lay in his hand: then it was not only that. A defender's card at his right-hand opponent's turn
    that would revoke so cannot be played legally at his own turn (57D): a penalty card."""
    p = schiphol(hands=False)
    p.withdraw(E, C("TD"))                                  # his lead out of turn, taken back
    tricks(p, TRICK_1, "N:AD")
    assert p.judge(E, C("6C")).kind is P.REVOKE and p.judge(E, C("TD")).legal and p.judge(E, C("9D")).legal
    tricks(p, "E:6C S:3D W:2D", "N:KD E:TD S:2H W:4D")
    [r] = p.revokes
    assert (r.seat, r.trick, r.suit, r.faced, r.status) == (E, 2, "D", True, RevokeStatus.ESTABLISHED)
    assert p.penalties == [PenaltyCard(E, C("TD"), 1, played=3)] and p.find_revokes(Side.EW) == []
    q = schiphol(hands=False)
    q.withdraw(E, C("AS"))
    tricks(q, "W:KS")
    assert q.judge(E, C("6C")).penalty_card                 # at North's turn: it could not follow at his
    tricks(q, "N:3H E:6C S:3S")
    assert [(r.seat, r.trick, r.faced) for r in q.revokes] == [(E, 1, True)]
    tricks(q, "N:6H E:5H S:7H W:TH", "W:QS N:2C E:4S S:7S")
    assert [(r.seat, r.trick, r.faced) for r in q.revokes] == [(E, 1, False)]   # the four was in his hand


def test_BP_64_a_revoke_found_in_the_tricks_knows_which_cards_lay_there_as_penalty_cards() -> None:
    """Law 64B3 for a revoke found in the trick record (``revokes.proven``, law 66D): East's ten of diamonds
    lay on the table as a penalty card from trick 1 to trick 3, when he played it, so his discard on the
    diamond lead of trick 2 was a failure to play it (faced). With East's ace of spades a penalty card and
    a concealed spade played later, his revoke in spades was not only that."""
    p = schiphol(hands=False)
    p.withdraw(E, C("TD"))
    tricks(p, TRICK_1, "N:AD E:6C S:3D W:2D", "N:KD E:TD S:2H W:4D")
    [r] = proven(p.tricks, [E], p.penalties)
    assert (r.seat, r.trick, r.suit, r.faced) == (E, 2, "D", True)
    q = schiphol(hands=False)
    q.withdraw(E, C("AS"))
    tricks(q, "W:KS N:3H E:6C S:3S", "N:6H E:5H S:7H W:TH", "W:QS N:2C E:4S S:7S")
    [r] = proven(q.tricks, [E], q.penalties)
    assert (r.seat, r.trick, r.suit, r.faced) == (E, 1, "S", False)   # the four of spades was in his hand


def test_BP_62_a_revoke_corrected_with_the_penalty_card_plays_it() -> None:
    """East's only diamond, the ten, is a penalty card; he revokes on the diamond lead and corrects with the
    ten: it is played to the trick, so it no longer lies on the table, and his revoking card becomes the
    penalty card. The same with East's hand unknown, where the ten on the table is the card the table knows
    he may correct with (a card already played is refused)."""
    for hands in (True, False):
        p = schiphol(hands=hands)
        p.withdraw(E, C("TD"))
        tricks(p, TRICK_1, "N:AD E:5S")
        with pytest.raises(PlayError):
            p.correct(E, C("AD"))                           # North's, played
        p.correct(E, C("TD"))
        assert p.current.cards[E] == C("TD") and p.penalty_cards == [(E, C("5S"))], hands
        assert p.penalties == [PenaltyCard(E, C("TD"), 1, played=2), PenaltyCard(E, C("5S"), 3)]
        tricks(p, "S:3D W:2D", "N:KD")
        assert p.judge(E, C("6C")).legal                    # no penalty diamond lies there any more


def test_penalty_cards_keep_the_tricks_they_lay_on_the_table_for() -> None:
    """A premature play's card and a corrected revoking card lie there from the next trick (their player
    has played to this one); a penalty card played to a trick that a correction takes back lies there
    again (it was South's revoke: East's lead to trick 2 goes back to him, still a penalty card)."""
    p = tricks(schiphol(), "W:KS N:3H")
    p.withdraw(W, C("QS"))                                  # led to trick 2 before East played to trick 1
    assert p.penalties == [PenaltyCard(W, C("QS"), 2)]
    q = tricks(schiphol(), TRICK_1, "N:AD E:TD S:3D W:8C")
    q.correct(W, C("2D"))
    assert q.penalties == [PenaltyCard(W, C("8C"), 3)]
    r = schiphol()
    r.withdraw(E, C("TD"))
    tricks(r, "W:KS N:2C E:AS S:4C", "E:TD")              # South revokes; East wins and leads his ten
    assert r.penalty_cards == [] and r.penalties == [PenaltyCard(E, C("TD"), 1, played=2)]
    r.correct(S, C("3S"))
    assert r.penalty_cards == [(E, C("TD"))] and r.penalties == [PenaltyCard(E, C("TD"), 1)]
    assert r.turn == E and C("TD") in (r.holds(E) or [])
