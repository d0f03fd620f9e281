"""What is raised at a duplicate table during and after the play, ruled under the 2017 laws (docs/laws.md
``DB-9``, ``DB-14``, ``BP-64``, ``BP-66-67``; docs/events.md, the ``demand`` row and "Duplicate bridge"),
and the bridge demands a table does not take, refused (audit a3, findings 3, 4, 5 and 10).

The deal is the PBN 2.1 standard's example game (``MIXED``) on board 1, North deals; South declares four
hearts, so West leads and North is dummy. Expected figures are worked out here from the cards."""

from __future__ import annotations

import random

import pytest

from laws.cards import Card, Seat, Side, clockwise_from
from laws.duplicate.deal import Board, Deal
from laws.engine import LawEngine
from laws.events import (
    BoardPlaced,
    CardPlayed,
    CardWithdrawn,
    ClaimAnswered,
    DemandMade,
    MissingCardReported,
    ResultConfirmed,
    RevokeCorrected,
    SurplusCardFound,
    TricksClaimed,
)
from laws.rulings import Remedy, Ruling
from laws.scoring.duplicate import board_score
from tests.laws.bridge_table import MIXED, Cards, calls, feed, play_out, said

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
AUCTION = "1D pass 1H pass 2C pass 4H pass pass pass"
BOARD = Board.numbered(1, Deal.from_hands(MIXED))


def P(seat: Seat, code: str) -> CardPlayed:
    return CardPlayed(seat, Card.parse(code))


def physical_board() -> LawEngine:
    """Board 1 from its pockets (``how: board``): the table does not know the hands held."""
    eng = LawEngine("duplicate-bridge")
    feed(eng, BoardPlaced(1, BOARD.fingerprint, BOARD.deal.pbn(), how="board"))
    [r] = feed(eng, *calls(N, AUCTION))
    assert (r.extra["contract"], r.extra["declarer"]) == ("4H", "S")
    return eng


def play(eng: LawEngine):  # type: ignore[no-untyped-def]
    return eng.state.deal.bridge.play  # type: ignore[union-attr]


def east_revokes_then_plays_out(eng: LawEngine) -> tuple[list, int]:  # type: ignore[type-arg]
    """Trick 1: West's king of spades, North the two of clubs, East the six of clubs holding five spades (a
    revoke the table cannot see), South the three of spades: West wins. Then twelve tricks of legal cards;
    East plays his spades in them, which proves the revoke. Returns the rulings and North-South's tricks."""
    out = feed(eng, P(W, "KS"), P(N, "2C"), P(E, "6C"), P(S, "3S"))
    out += play_out(eng, MIXED, random.Random(7), tricks=12)
    assert play(eng).ended and play(eng).revokes == []
    return out, play(eng).won[Side.NS]


def test_finding_4_a_revoke_found_after_play_at_a_physical_board_moves_a_trick_and_scores_again() -> None:
    """Law 64A2 (East did not win the revoke trick; his side won it): one trick moves to North-South, by the
    same transfer as a revoke seen at the card; the board is scored again, and a first side's confirmation
    of the old score no longer counts."""
    eng = physical_board()
    out, ns = east_revokes_then_plays_out(eng)
    [first] = [r for r in out if r.clause == "DB-77"]
    assert first.extra["tricks"] == ns and not [r for r in out if r.clause.startswith("BP-6")]
    assert feed(eng, ResultConfirmed(N)) == []
    rulings = feed(eng, DemandMade(S, "revoke"))
    assert said(rulings) == [("attention", "BP-63"), ("penalty", "BP-64"), ("score", "DB-77")]
    found, moved, score = rulings
    assert (found.seat, found.extra["card"], found.extra["trick"], found.extra["found"]) == (E, "6C", 1, True)
    assert (moved.law, moved.extra["tricks"], moved.extra["counted"], moved.side) == (
        "Duplicate Bridge, law 64", 1, [1], Side.NS)
    assert score.extra["tricks"] == ns + 1
    assert score.extra["score"] == board_score(play(eng).contract, S, ns + 1, BOARD.vulnerability)
    assert feed(eng, ResultConfirmed(E)) == []            # North's confirmation was of the old score
    [done] = feed(eng, ResultConfirmed(S))
    assert done.extra["tricks"] == ns + 1
    with pytest.raises(ValueError, match=r"revoke: board 1's result is confirmed by both sides"):
        eng.feed(DemandMade(S, "revoke"))


def test_finding_4_a_revoke_alleged_that_the_tricks_do_not_prove_changes_nothing() -> None:
    eng = physical_board()
    _, ns = east_revokes_then_plays_out(eng)
    [r] = feed(eng, DemandMade(E, "revoke"))              # East alleges one by North-South: none
    assert (r.remedy, r.clause, r.extra) == (Remedy.ATTENTION, "BP-64", {"alleged": "NS", "found": []})
    assert eng.state.game_state["duplicate"].result["tricks"] == ns


def test_finding_4_a_revoke_alleged_during_play_is_established_and_rectified_when_play_ends() -> None:
    """East discards on a spade at trick 1 and follows to spades at trick 2: proven, established at once
    (he has played to a later trick), rectified at the end like a revoke seen at the card."""
    eng = physical_board()
    feed(eng, P(W, "KS"), P(N, "2C"), P(E, "6C"), P(S, "3S"), P(W, "QS"), P(N, "3C"), P(E, "4S"), P(S, "7S"))
    [r] = feed(eng, DemandMade(S, "revoke"))
    assert (r.clause, r.seat, r.extra["trick"]) == ("BP-63", E, 1)
    rulings = feed(eng, TricksClaimed(S, 9), ClaimAnswered(W, True))
    [moved] = [x for x in rulings if x.clause == "BP-64"]
    # East-West won tricks 1 and 2; East did not win trick 1, so one of them (the first) moves
    assert (moved.extra["tricks"], moved.extra["counted"]) == (1, [1])
    [score] = [x for x in rulings if x.clause == "DB-77"]
    assert score.extra["tricks"] == 9 + 1


def east_fails_to_play_a_penalty_card(penalty_before: bool) -> tuple[LawEngine, list[Ruling]]:
    """East's ten of diamonds, his only diamond, becomes a penalty card (his lead out of turn taken back):
    before trick 1 (``penalty_before``) or at trick 3. Trick 1: West's king of spades, East follows. Trick 2:
    West's two of diamonds, North's ace, East the six of clubs (a revoke; the table does not know East's
    hand), South the three. Trick 3: North's king of diamonds, East the ten (which proves the revoke), South
    ruffs. Then ten tricks of legal cards. Returns the engine and the rulings from trick 2's club on."""
    eng = physical_board()
    td = Card.parse("TD")
    if penalty_before:
        feed(eng, P(E, "TD"), CardWithdrawn(E, td))
    feed(eng, P(W, "KS"), P(N, "2C"), P(E, "4S"), P(S, "3S"), P(W, "2D"), P(N, "AD"))
    out = feed(eng, P(E, "6C"), P(S, "3D"))
    if not penalty_before:
        out += feed(eng, P(E, "TD"), CardWithdrawn(E, td))    # North's lead: East's out of turn
    out += feed(eng, P(N, "KD"), P(E, "TD"), P(S, "2H"), P(W, "4D"))
    out += play_out(eng, MIXED, random.Random(1), tricks=10)
    assert play(eng).ended and play(eng).penalty_cards == []
    return eng, out


def test_50_a_penalty_card_of_the_suit_led_not_played_is_a_revoke_seen_at_the_card() -> None:
    """Law 50 (a penalty card is played at the first legal opportunity) and law 61 at a physical board: the
    table does not know East's hand, but his ten of diamonds lies on the table, so his club on the diamond
    lead is a revoke the table sees at the card (``BP-61``, naming the penalty card), established when he
    plays to trick 3 (``BP-63``) and, a failure to play a faced card, moving no trick when play ends (law
    64B3, ``BP-64``): the score stands. It used to be found only by a ``revoke`` demand after play; that
    demand now finds nothing more."""
    eng, out = east_fails_to_play_a_penalty_card(penalty_before=True)
    assert [(r.remedy.value, r.clause, r.seat) for r in out if r.clause.startswith("BP-6")] == [
        ("attention", "BP-61", E), ("attention", "BP-63", E), ("attention", "BP-64", E)]
    [seen] = [r for r in out if r.clause == "BP-61"]
    assert (seen.extra["card"], seen.extra["suit"], seen.extra["trick"], seen.extra["penalty_cards"]) == (
        "6C", "D", 2, ["TD"])
    assert "his penalty card, the ten of diamonds, lay on the table" in seen.reason and "law 50" in seen.reason
    [none] = [r for r in out if r.clause == "BP-64"]
    assert (none.extra["tricks"], none.extra["counted"]) == (0, []) and "law 64B3" in none.reason
    [score] = [r for r in out if r.clause == "DB-77"]
    assert score.extra["tricks"] == play(eng).won[Side.NS]
    assert said(feed(eng, DemandMade(S, "revoke"))) == [("attention", "BP-64")]   # found: [], nothing moves


def test_50_a_revoke_on_a_penalty_card_is_corrected_with_it_at_a_physical_board() -> None:
    """The same revoke, noticed at once: East corrects it with his penalty card (``BP-62``); the ten is played
    to trick 2 and his club becomes a penalty card, so no revoke is left to rectify."""
    eng = physical_board()
    feed(eng, P(E, "TD"), CardWithdrawn(E, Card.parse("TD")))
    feed(eng, P(W, "KS"), P(N, "2C"), P(E, "4S"), P(S, "3S"), P(W, "2D"), P(N, "AD"), P(E, "6C"))
    [r] = feed(eng, RevokeCorrected(E, Card.parse("TD")))
    assert (r.remedy.value, r.clause, r.extra["penalty_card"], r.extra["card"]) == ("penalty", "BP-62", "6C", "TD")
    assert play(eng).current.cards[E] == Card.parse("TD") and play(eng).penalty_cards == [(E, Card.parse("6C"))]


def test_64B3_a_card_that_became_a_penalty_card_only_after_the_revoke_does_not_stop_the_transfer() -> None:
    """The same cards, but East's ten of diamonds was still in his hand at trick 2 (it became a penalty
    card at trick 3): a revoke of a concealed card, so one trick East-West won at or after it moves."""
    eng, _ = east_fails_to_play_a_penalty_card(penalty_before=False)
    assert play(eng).revokes == []                          # nothing lay on the table at trick 2
    ns = play(eng).won[Side.NS]
    rulings = feed(eng, DemandMade(S, "revoke"))
    assert said(rulings) == [("attention", "BP-63"), ("penalty", "BP-64"), ("score", "DB-77")]
    assert (rulings[1].extra["tricks"], rulings[1].side) == (1, Side.NS)
    assert rulings[2].extra["tricks"] == ns + 1


def test_a_twelfth_trick_revoke_found_after_play_does_not_rule_the_earlier_transfers_again() -> None:
    """East revokes in trick 1 (alleged during play, rectified when play ends: one ``BP-64``); then an
    East-West revoke in trick 12 the table cannot see, found by a demand after play and corrected
    (``BP-62``). The correction rescores the board, but the trick-1 transfer, ruled at the end of play
    and unchanged, is not ruled a second time: one ``BP-64`` per revoke over the whole board."""
    for seed in range(100):
        rnd = random.Random(seed)
        eng = physical_board()
        p = play(eng)
        cards = Cards(MIXED)
        rulings = [r for s_, c in ((W, "KS"), (N, "2C"), (E, "6C"), (S, "3S"))
                   for r in eng.feed(cards.take(s_, Card.parse(c)))]
        while len(p.tricks) < 11:
            seat = p.to_play
            rulings += eng.feed(cards.take(seat, rnd.choice(sorted(cards.legal(seat, p.current.suit_led)))))
        leader = p.to_play
        lead = cards.left[leader][0]
        offenders = [x for x in (E, W) if x != leader and {c.suit == lead.suit for c in cards.left[x]} == {True, False}]
        if not offenders or not any(t.cards[E].suit == "S" for t in p.tricks[1:]):
            continue                                         # no revoke possible in trick 12, or trick 1's unproven
        rulings += feed(eng, DemandMade(S, "revoke"))       # during play: East's trick 1
        for seat in clockwise_from(leader):
            mine = cards.left[seat]
            pick = (next(c for c in mine if c.suit != lead.suit) if seat == offenders[0] else
                    lead if seat == leader else sorted(cards.legal(seat, lead.suit))[0])
            rulings += eng.feed(cards.take(seat, pick))
        while not p.ended:
            rulings += eng.feed(cards.take(p.to_play, cards.left[p.to_play][0]))
        found = feed(eng, DemandMade(S, "revoke"))
        assert said(found) == [("attention", "BP-63"), ("attention", "BP-62")] and found[0].extra["trick"] == 12
        right = p.tricks[12].cards[offenders[0]]
        corrected = feed(eng, RevokeCorrected(offenders[0], right))
        assert said(corrected) == [("deal_stands", "BP-62"), ("score", "DB-77")]
        transfers = [r.extra["revoke_trick"] for r in rulings + found + corrected if r.clause == "BP-64"]
        assert transfers == [1]
        assert corrected[1].extra["tricks"] == play(eng).result().declarer_tricks
        return
    raise AssertionError("no seed gives a revoke in trick 1 proven before trick 12 and one in trick 12")


def test_a_transfer_a_later_found_revoke_changes_is_ruled_again_with_its_new_figure() -> None:
    """East's revoke in trick 1 moves a trick, ruled when South alleges it after play; East then alleges
    South's revoke in trick 2: both sides revoked, so (law 64B7) neither moves a trick, and East's
    transfer, which no longer moves one, is ruled again with what it moves now, beside South's."""
    eng = physical_board()
    feed(eng, P(W, "KS"), P(N, "2C"), P(E, "6C"), P(S, "3S"), P(W, "QS"), P(N, "3C"), P(E, "4S"), P(S, "4C"),
         P(W, "TS"), P(N, "7C"), P(E, "5S"), P(S, "7S"))
    play_out(eng, MIXED, random.Random(1), tricks=10)
    ns = play(eng).won[Side.NS]
    first = feed(eng, DemandMade(S, "revoke"))
    assert [(r.extra["revoke_trick"], r.extra["tricks"]) for r in first if r.clause == "BP-64"] == [(1, 1)]
    second = feed(eng, DemandMade(E, "revoke"))
    assert said(second) == [("attention", "BP-63"), ("attention", "BP-64"), ("attention", "BP-64"), ("score", "DB-77")]
    assert [(r.extra["revoke_trick"], r.extra["tricks"]) for r in second if r.clause == "BP-64"] == [(1, 0), (2, 0)]
    assert all("law 64B7" in r.reason for r in second if r.clause == "BP-64")
    assert second[-1].extra["tricks"] == ns


def test_finding_3_drawing_attention_at_a_duplicate_table_cites_law_9_and_dummy_may_not_during_play() -> None:
    eng = physical_board()
    [r] = feed(eng, DemandMade(W, "attention"))            # in the auction's end, before the lead: anyone
    assert (r.clause, r.law, r.extra) == ("DB-9", "Duplicate Bridge, drawing attention to an irregularity "
                                          "(law 9)", {})
    feed(eng, P(W, "KS"), P(N, "2C"), P(E, "4S"), P(S, "3S"))
    [d] = feed(eng, DemandMade(N, "attention"))
    assert (d.clause, d.seat, d.extra["dummy"]) == ("DB-9", N, True)
    assert "dummy may not draw attention" in d.reason and "Contract Bridge" not in d.law
    [s] = feed(eng, DemandMade(S, "attention"))
    assert s.clause == "DB-9" and "dummy" not in s.extra


@pytest.mark.parametrize("what", ["search_tricks", "place_cards", "call_card", "redeal", "new_shuffle",
                                  "new_cards", "restore_pack"])
def test_finding_10_a_demand_a_duplicate_table_does_not_take_is_refused(what: str) -> None:
    eng = physical_board()
    feed(eng, P(W, "KS"))
    with pytest.raises(ValueError, match=f"demand: '{what}' is not a demand a duplicate table takes"):
        eng.feed(DemandMade(E, what))


@pytest.mark.parametrize("what", ["search_tricks", "place_cards", "revoke", "play_out", "call_highest"])
def test_finding_10_a_demand_a_rubber_table_does_not_take_is_refused(what: str) -> None:
    from tests.laws.bridge_table import table
    eng = table(MIXED)
    feed(eng, *calls(N, AUCTION), P(W, "KS"))
    with pytest.raises(ValueError, match=f"demand: '{what}' is not a demand a rubber bridge table takes"):
        eng.feed(DemandMade(E, what))


def test_finding_5_a_missing_card_found_after_the_lead_at_a_duplicate_table() -> None:
    """Law 14B: East's four of spades, missing, turns up loose after he discarded on a spade lead: it goes
    back to his hand and that discard is an established revoke, rectified when play ends."""
    eng = physical_board()
    feed(eng, P(W, "KS"), P(N, "2C"), P(E, "6C"), P(S, "3S"), P(W, "AH"))
    rulings = feed(eng, MissingCardReported(Card.parse("4S"), E, "loose"))
    assert said(rulings) == [("deemed_to_belong", "DB-14"), ("attention", "BP-63")]
    assert (rulings[1].seat, rulings[1].extra["trick"]) == (E, 1)
    [t] = feed(eng, MissingCardReported(Card.parse("5S"), E, "trick"))
    assert (t.remedy, t.clause) == (Remedy.DEFECTIVE_TRICK, "DB-14")
    for cause in ("play", "trick"):
        [x] = feed(eng, SurplusCardFound(E, cause))
        assert (x.remedy, x.clause, x.law) == (Remedy.DEFECTIVE_TRICK, "BP-66-67", "Duplicate Bridge, law 67")
    [y] = feed(eng, SurplusCardFound(E, "deal"))
    assert (y.remedy, y.clause) == (Remedy.ATTENTION, "DB-13")
