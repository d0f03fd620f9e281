"""Euchre rubber scoring: Somerset Club laws 1-7, 62-71 and 90 as paraphrased in docs/laws.md."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import Side
from laws.rulings import Remedy, Ruling
from laws.scoring import EuchreRubber, hand_points

NS, EW = Side.NS, Side.EW


def _play(r: EuchreRubber, *hands: tuple[Side, bool, int]) -> list[Ruling]:
    out: list[Ruling] = []
    for makers, alone, tricks in hands:
        out.extend(r.record(makers, alone, tricks))
    return out


def _of(rulings: list[Ruling], remedy: Remedy) -> list[Ruling]:
    return [x for x in rulings if x.remedy is remedy]


# -- points per hand ------------------------------------------------------------------------------

def test_EU_2_march_scores_two() -> None:
    (s,) = EuchreRubber().record(NS, False, 5)
    assert s.remedy is Remedy.SCORE and s.clause == "EU-2" and s.law == "Euchre, law 2"
    assert s.side is NS and s.extra["points"] == 2 and s.extra["outcome"] == "march"
    assert s.extra["score"] == {"NS": 2, "EW": 0}
    assert s.reason == "North-South took all five tricks, so North-South score 2 points."


@pytest.mark.parametrize("tricks", [3, 4])
def test_EU_2_three_or_four_tricks_score_one(tricks: int) -> None:
    (s,) = EuchreRubber().record(EW, False, tricks)
    assert s.side is EW and s.extra["points"] == 1 and s.extra["outcome"] == "made"


@pytest.mark.parametrize("tricks", [0, 1, 2])
def test_EU_2_euchred_opponents_score_two(tricks: int) -> None:
    (s,) = EuchreRubber().record(EW, False, tricks)
    assert s.side is NS and s.extra["scored_by"] == "NS" and s.extra["points"] == 2
    assert s.extra["outcome"] == "euchred" and "euchred" in s.reason


def test_EU_3_lone_march_scores_four() -> None:
    (s,) = EuchreRubber().record(NS, True, 5)
    assert s.clause == "EU-3" and s.extra["points"] == 4 and s.extra["alone"] is True


def test_EU_3_lone_three_or_four_tricks_score_one() -> None:
    assert hand_points(True, 3) == (True, 1) and hand_points(True, 4) == (True, 1)


def test_EU_3_lone_euchred_opponents_score_four() -> None:
    (s,) = EuchreRubber().record(NS, True, 2)
    assert s.side is EW and s.extra["points"] == 4 and s.clause == "EU-3"


@pytest.mark.parametrize("tricks", [-1, 6, True])
def test_tricks_checked(tricks: object) -> None:
    with pytest.raises(ValueError, match="0 to 5"):
        EuchreRubber().record(NS, False, tricks)  # type: ignore[arg-type]


# -- games, laps, the rubber ----------------------------------------------------------------------

def test_EU_7_game_is_five_points_single_game() -> None:
    r = EuchreRubber()
    rulings = _play(r, (EW, False, 3), (NS, False, 5), (NS, False, 5))
    assert not _of(rulings, Remedy.GAME_WON)
    (won,) = _of(_play(r, (NS, False, 4)), Remedy.GAME_WON)
    assert won.side is NS and won.extra["value"] == 1 and won.extra["game"] == 1
    assert won.extra["final_score"] == {"NS": 5, "EW": 1} and won.extra["lap"] == 0
    assert won.clause == "EU-7" and r.game == 2 and r.points == {NS: 0, EW: 0}


def test_EU_7_double_game_when_losers_scored_nothing() -> None:
    r = EuchreRubber()
    (won,) = _of(_play(r, (NS, False, 5), (NS, False, 5), (NS, False, 3)), Remedy.GAME_WON)
    assert won.extra["value"] == 2 and "double game" in won.reason


def test_EU_7_lap_carries_into_next_game() -> None:
    r = EuchreRubber()
    rulings = _play(r, (NS, False, 4), (NS, False, 4), (NS, False, 3), (NS, True, 5))
    (won,) = _of(rulings, Remedy.GAME_WON)
    assert won.extra["final_score"] == {"NS": 7, "EW": 0} and won.extra["lap"] == 2
    assert r.points == {NS: 2, EW: 0} and r.game == 2
    assert rulings[-2].extra["score"] == {"NS": 7, "EW": 0}   # the score ruling shows the lapped game


def test_EU_1_third_game_played_after_two_wins() -> None:
    r = EuchreRubber()
    rulings = _play(r, (NS, True, 5), (NS, False, 3), (NS, True, 5), (NS, False, 3))
    games = _of(rulings, Remedy.GAME_WON)
    assert [g.extra["game"] for g in games] == [1, 2]
    assert games[1].clause == "EU-1" and games[1].extra["next_game"] == 3
    assert "third game is still played" in games[1].reason
    assert not r.over and r.game == 3


def test_EU_1_third_game_without_lap_ends_the_rubber() -> None:
    r = EuchreRubber()
    for _ in range(3):
        _play(r, (EW, False, 5), (EW, False, 5), (EW, False, 3))
    assert r.over and len(r.results) == 3 and r.winner is EW


def test_EU_1_third_game_lap_means_fourth_game() -> None:
    r = EuchreRubber()
    _play(r, *[(EW, True, 5)] * 2)            # game 1 to EW, lap 3
    _play(r, (EW, False, 3), (NS, True, 5), (NS, False, 3))   # EW 4... NS 5: game 2 to NS
    third = _of(_play(r, (NS, False, 4), (NS, False, 4), (NS, False, 4), (NS, True, 5)), Remedy.GAME_WON)
    assert third[0].extra["game"] == 3 and third[0].extra["lap"] == 2 and third[0].extra["next_game"] == 4
    assert third[0].clause == "EU-1" and "third game lapped" in third[0].reason
    assert not r.over and r.game == 4 and r.points == {NS: 2, EW: 0}


def test_EU_1_fourth_game_lap_is_not_carried() -> None:
    r = EuchreRubber()
    # Four double games to North-South, each by lone marches; every game laps.
    rulings = _play(r, *[(NS, True, 5)] * 5)
    games = _of(rulings, Remedy.GAME_WON)
    assert [(g.extra["game"], g.extra["value"], g.extra["lap"]) for g in games] == [
        (1, 2, 3), (2, 2, 2), (3, 2, 1), (4, 2, 0)]
    assert r.over


def test_EU_7_rubber_worth_two_and_at_most_ten() -> None:
    r = EuchreRubber()
    rulings = _play(r, *[(NS, True, 5)] * 5)
    (won,) = _of(rulings, Remedy.RUBBER_WON)
    assert won.side is NS and won.extra["points"] == 2 and won.extra["totals"] == {"NS": 10, "EW": 0}
    assert won.extra["games_won"] == {"NS": 4, "EW": 0} and len(won.extra["games"]) == 4
    with pytest.raises(ValueError, match="rubber is over"):
        r.record(NS, False, 5)


def test_EU_7_best_of_three_decides_even_when_points_are_level() -> None:
    r = EuchreRubber()
    _play(r, (EW, False, 3), (NS, False, 5), (NS, False, 5), (NS, False, 4))   # game 1 NS, single
    _play(r, (EW, False, 3), (NS, False, 5), (NS, False, 5), (NS, False, 4))   # game 2 NS, single
    _play(r, (EW, True, 5), (EW, True, 5))                                     # game 3 EW double, lap 3
    rulings = _play(r, (EW, False, 5))                                          # game 4 EW double
    (won,) = _of(rulings, Remedy.RUBBER_WON)
    assert won.side is NS and won.extra["totals"] == {"NS": 4, "EW": 4}
    assert won.extra["games_won"] == {"NS": 2, "EW": 2}



def test_EU_7_a_rubber_won_names_its_players_where_known() -> None:
    r = EuchreRubber()
    rulings = [x for _ in range(5) for x in r.record(NS, True, 5, players={NS: ["Ann", "Bob"], EW: ["Cy", "Di"]})]
    (won,) = _of(rulings, Remedy.RUBBER_WON)
    assert won.extra["players"] == {"NS": ["Ann", "Bob"], "EW": ["Cy", "Di"]}
    assert won.reason.startswith("North-South (Ann and Bob) won the rubber with 4 of 4 games")
    (bare,) = _of(_play(EuchreRubber(), *[(NS, True, 5)] * 5), Remedy.RUBBER_WON)
    assert "players" not in bare.extra and bare.reason.startswith("North-South won the rubber")


def test_EU_7_an_unfinished_rubber_scores_nothing_and_says_what_each_side_had() -> None:
    """A new draw stops the rubber: nobody wins it or scores for it, not even for a game already won."""
    r = EuchreRubber()
    _play(r, (NS, True, 5), (NS, False, 3), (EW, False, 3))       # game 1 NS (double); EW 1 in game 2
    assert r.started
    (closed,) = r.unfinished({NS: ["Ann", "Bob"], EW: ["Cy", "Di"]})
    assert closed.remedy is Remedy.RUBBER_WON and closed.clause == "EU-7" and closed.side is None
    assert closed.extra["unfinished"] and closed.extra["winner"] is None and closed.extra["points"] == 0
    assert closed.extra["totals"] == {"NS": 0, "EW": 0} and closed.extra["games_won"] == {"NS": 1, "EW": 0}
    assert (closed.extra["game"], closed.extra["score"]) == (2, {"NS": 0, "EW": 1})
    assert closed.reason == ("The table drew again before the rubber was won: North-South (Ann and Bob) had "
                             "won 1 game and had no points in game 2; East-West (Cy and Di) had won no game "
                             "and had 1 point in game 2. An unfinished rubber scores nothing, so nobody wins "
                             "it or scores for it, and the new partnerships start from 0.")
    assert r.over
    with pytest.raises(ValueError, match="rubber is over"):
        r.unfinished()
    assert not EuchreRubber().started

# -- penalties ------------------------------------------------------------------------------------

def test_EU_62_revoke_penalty_three_to_the_other_side() -> None:
    (p,) = EuchreRubber().revoke(NS, against_lone=False)
    assert p.remedy is Remedy.PENALTY and p.clause == "EU-63" and p.side is NS
    assert p.extra["points"] == 3 and p.extra["scored_by"] == "EW" and p.extra["score"] == {"NS": 0, "EW": 3}


def test_EU_62_revoke_against_lone_hand_five() -> None:
    rulings = EuchreRubber().revoke(EW, against_lone=True)
    assert rulings[0].extra["points"] == 5
    assert rulings[1].remedy is Remedy.GAME_WON and rulings[1].side is NS and rulings[1].extra["value"] == 2


def test_EU_4_revoke_penalty_scored_before_the_hand() -> None:
    r = EuchreRubber()
    _play(r, (NS, False, 5), (NS, False, 3), (EW, False, 4), (EW, False, 4), (EW, False, 4), (EW, False, 4))
    assert r.points == {NS: 3, EW: 4}
    first = r.revoke(NS, against_lone=False)       # EW 7: game 1 to EW with a lap of 2
    assert _of(first, Remedy.GAME_WON)[0].side is EW
    hand = r.record(NS, False, 5)                  # the hand's own march goes into game 2
    assert hand[0].extra["game"] == 2 and r.points == {NS: 2, EW: 2}


def test_EU_90_wrong_count_forfeits_two_and_scores_nothing() -> None:
    r = EuchreRubber()
    (p,) = r.wrong_count(NS, lone=False)
    assert p.clause == "EU-90" and p.extra["points"] == 2 and p.extra["scored_by"] == "EW"
    (s,) = r.record(NS, False, 5)
    assert s.extra["voided"] is True and s.extra["points"] == 0 and s.clause == "EU-90"
    assert "score nothing" in p.reason and r.points == {NS: 0, EW: 2}
    (s,) = r.record(NS, False, 5)                  # the next hand counts again
    assert s.extra["points"] == 2 and r.points == {NS: 2, EW: 2}


def test_EU_90_wrong_count_in_lone_hand_four_and_other_side_still_scores() -> None:
    r = EuchreRubber()
    (p,) = r.wrong_count(EW, lone=True)
    assert p.extra["points"] == 4
    s = r.record(EW, True, 1)[0]                   # EW euchred: NS score 4 as usual (and win game 1)
    assert s.extra["points"] == 4 and s.extra["voided"] is False


def test_void_hand_for_is_public() -> None:
    r = EuchreRubber()
    r.void_hand_for(EW)
    assert r.snapshot()["void"] == ["EW"]
    (s,) = r.record(NS, False, 2)
    assert s.extra["points"] == 0 and r.snapshot()["void"] == []


def test_reasons_one_sentence_json_ready() -> None:
    r = EuchreRubber()
    rulings = _play(r, *[(NS, True, 5)] * 5)
    for x in rulings:
        assert x.reason.endswith(".") and ". " not in x.reason
    json.dumps([x.to_dict() for x in rulings])
    json.dumps(r.snapshot())


# -- properties -----------------------------------------------------------------------------------

actions = st.one_of(
    st.tuples(st.just("hand"), st.sampled_from([NS, EW]), st.booleans(), st.integers(0, 5)),
    st.tuples(st.just("revoke"), st.sampled_from([NS, EW]), st.booleans(), st.just(0)),
    st.tuples(st.just("count"), st.sampled_from([NS, EW]), st.booleans(), st.just(0)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(actions, min_size=1, max_size=80))
def test_EU_7_rubber_properties(seq: list[tuple[str, Side, bool, int]]) -> None:
    r = EuchreRubber()
    awarded = 0
    rulings: list[Ruling] = []
    for kind, side, flag, tricks in seq:
        if r.over:
            break
        if kind == "hand":
            got = r.record(side, flag, tricks)
        elif kind == "revoke":
            got = r.revoke(side, flag)
        else:
            got = r.wrong_count(side, flag)
        awarded += got[0].extra["points"]
        rulings.extend(got)
        assert all(v >= 0 for v in r.points.values())
        if not r.over:
            assert max(r.points.values()) < 5
    games = _of(rulings, Remedy.GAME_WON)
    for g in games:
        assert g.extra["value"] == (2 if g.extra["loser_points"] == 0 else 1)
        assert g.extra["final_score"][g.side.value] - 5 == g.extra["lap"] >= 0
    carried = sum(g.extra["lap"] for g in games if g.extra["next_game"] is not None)
    finished = sum(sum(g.extra["final_score"].values()) for g in games)
    current = 0 if r.over else sum(r.points.values())
    assert awarded == finished - carried + current
    assert len(games) <= 4 and max(r.rubber_points().values()) <= 10
    if r.over:
        (won,) = _of(rulings, Remedy.RUBBER_WON)
        totals = won.extra["totals"]
        assert totals[won.side.value] >= totals[won.side.other.value]
        assert len(games) == (4 if games[2].extra["lap"] else 3)


def test_EU_5_score_corrected_until_next_trump_turned() -> None:
    r = EuchreRubber()
    _play(r, (NS, False, 5), (NS, False, 5))
    r.trump_turned()
    rulings = _play(r, (NS, False, 3))                 # NS 5: game 1 (should have been a euchre)
    assert _of(rulings, Remedy.GAME_WON) and r.game == 2
    fixed = r.correct_last(NS, False, 2)
    assert fixed[0].clause == "EU-5" and fixed[0].extra["corrected"] is True
    assert fixed[1].extra["scored_by"] == "EW" and r.game == 1 and r.points == {NS: 4, EW: 2}
    assert r.results == [] and r.hands == 3
    again = r.correct_last(NS, False, 1)               # a correction may itself be corrected
    assert again[1].extra["points"] == 2 and r.points == {NS: 4, EW: 2}
    r.record(EW, False, 3)
    r.trump_turned()
    with pytest.raises(ValueError, match="no longer be corrected.*law 5"):
        r.correct_last(EW, False, 4)
    with pytest.raises(ValueError, match="law 5"):
        EuchreRubber().correct_last(NS, False, 3)
