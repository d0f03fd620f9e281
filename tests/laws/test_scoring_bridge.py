"""Rubber-bridge scoring (clause CB-rubber and the rubber scoring paragraph of docs/laws.md).

The expected figures were worked out by hand from the scoring paragraph, not computed by the code.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import Seat, Side
from laws.rulings import Remedy, Ruling
from laws.scoring import (
    Contract,
    RubberScore,
    overtrick_points,
    parse_contract,
    slam_bonus,
    trick_points,
    undertrick_points,
)


def _vulnerable_ns() -> RubberScore:
    """A rubber in which North-South have just won a game (4S bid and made, 120)."""
    r = RubberScore()
    r.record(Seat.N, parse_contract("4S"), 10)
    assert r.vulnerable(Side.NS) and not r.vulnerable(Side.EW)
    return r


def _score(rulings: list[Ruling]) -> Ruling:
    assert rulings[0].remedy is Remedy.SCORE
    return rulings[0]


# -- contracts ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,level,strain,doubled", [
    ("4S", 4, "S", 0), ("3NT", 3, "NT", 0), ("6HX", 6, "H", 1), ("7NTXX", 7, "NT", 2),
    ("1c", 1, "C", 0), ("2N", 2, "NT", 0), (" 5DX ", 5, "D", 1),
])
def test_parse_contract(text: str, level: int, strain: str, doubled: int) -> None:
    assert parse_contract(text) == Contract(level, strain, doubled)


@pytest.mark.parametrize("text,words", [
    ("", "want level"), ("8S", "level"), ("0NT", "level"), ("4Z", "strain"), ("4SXXX", "'X'"),
    ("S4", "level"), ("4", "strain"),
])
def test_parse_contract_names_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_contract(text)


@pytest.mark.parametrize("args,words", [((0, "S", 0), "level"), ((3, "X", 0), "strain"),
                                        ((3, "S", 3), "doubled")])
def test_contract_checked(args: tuple[int, str, int], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Contract(*args)


def test_contract_code_and_description() -> None:
    c = parse_contract("6HX")
    assert c.code == "6HX" and str(c) == "6HX" and c.describe() == "6♥ doubled" and c.needed == 12
    assert parse_contract("7NTXX").describe() == "7NT redoubled"


# -- trick points and premiums --------------------------------------------------------------------

@pytest.mark.parametrize("text,points", [
    ("1C", 20), ("3D", 60), ("5C", 100), ("1H", 30), ("4S", 120), ("1NT", 40), ("3NT", 100),
    ("7NT", 220), ("2HX", 120), ("1NTX", 80), ("1NTXX", 160), ("2CXX", 160), ("4SX", 240),
])
def test_CB_rubber_trick_points(text: str, points: int) -> None:
    assert trick_points(parse_contract(text)) == points


def test_CB_rubber_overtricks() -> None:
    assert overtrick_points(parse_contract("2C"), 2, False) == 40
    assert overtrick_points(parse_contract("3NT"), 2, True) == 60
    assert overtrick_points(parse_contract("3NTX"), 2, False) == 200
    assert overtrick_points(parse_contract("3NTX"), 2, True) == 400
    assert overtrick_points(parse_contract("1CXX"), 1, False) == 200
    assert overtrick_points(parse_contract("1CXX"), 1, True) == 400


@pytest.mark.parametrize("text,down,vul,points", [
    ("4S", 1, False, 50), ("4S", 3, False, 150), ("4S", 2, True, 200),
    ("4SX", 1, False, 100), ("4SX", 2, False, 300), ("4SX", 3, False, 500), ("4SX", 4, False, 800),
    ("4SX", 5, False, 1100), ("4SX", 1, True, 200), ("4SX", 2, True, 500), ("4SX", 3, True, 800),
    ("4SX", 4, True, 1100), ("4SXX", 1, False, 200), ("4SXX", 3, False, 1000), ("4SXX", 1, True, 400),
    ("4SXX", 2, True, 1000), ("7NTX", 13, False, 3500),
])
def test_CB_rubber_undertricks(text: str, down: int, vul: bool, points: int) -> None:
    assert undertrick_points(parse_contract(text), down, vul) == points


def test_CB_rubber_slam_bonus() -> None:
    assert slam_bonus(parse_contract("6H"), False) == 500
    assert slam_bonus(parse_contract("6NT"), True) == 750
    assert slam_bonus(parse_contract("7C"), False) == 1000
    assert slam_bonus(parse_contract("7S"), True) == 1500
    assert slam_bonus(parse_contract("5D"), True) == 0


# -- worked hands ---------------------------------------------------------------------------------

def test_CB_rubber_doubled_made_vulnerable_with_overtrick() -> None:
    # 4S doubled, vulnerable, 11 tricks: 240 below, 50 insult, 200 for the doubled overtrick.
    r = _vulnerable_ns()
    s = _score(r.record(Seat.S, parse_contract("4SX"), 11))
    assert s.extra["below"] == {"NS": 240, "EW": 0}
    assert s.extra["above"] == {"NS": 250, "EW": 0}
    assert s.extra["made"] is True and s.extra["overtricks"] == 1 and s.extra["vulnerable"] is True
    assert {(i["item"], i["points"]) for i in s.extra["items"]} == {
        ("tricks", 240), ("insult", 50), ("overtricks", 200)}


def test_CB_rubber_reason_names_the_facts() -> None:
    s = _score(RubberScore().record(Seat.S, parse_contract("4SX"), 11))
    assert s.reason == "South made 4♠ doubled with one overtrick: 240 below, 50 for the insult, 100 for the overtrick."
    assert s.law == "Contract Bridge, rubber scoring" and s.clause == "CB-rubber"
    assert s.seat is Seat.S and s.side is Side.NS
    down = _score(RubberScore().record(Seat.W, parse_contract("3NTX"), 7))
    assert down.reason == "West went two down in 3NT doubled: 300 for the undertricks to North-South."


def test_CB_rubber_redoubled_insult_and_overtricks() -> None:
    # 2H redoubled, not vulnerable, 10 tricks: 240 below (game), 100 insult, 2 x 200 overtricks.
    rulings = RubberScore().record(Seat.E, parse_contract("2HXX"), 10)
    s = _score(rulings)
    assert s.extra["below"] == {"NS": 0, "EW": 240} and s.extra["above"] == {"NS": 0, "EW": 500}
    assert rulings[1].remedy is Remedy.GAME_WON and rulings[1].side is Side.EW


def test_CB_rubber_undertricks_go_to_defenders_with_honours_to_the_named_side() -> None:
    r = _vulnerable_ns()
    s = _score(r.record(Seat.N, parse_contract("6SX"), 9, honours=(Side.NS, 100)))
    # doubled vulnerable 3 down = 200 + 300 + 300 = 800 to EW; honours stay with NS though they went down.
    assert s.extra["above"] == {"NS": 100, "EW": 800}
    assert s.extra["undertricks"] == 3 and s.extra["made"] is False
    assert s.extra["below"] == {"NS": 0, "EW": 0}


def test_CB_rubber_honours_150_to_defenders() -> None:
    s = _score(RubberScore().record(Seat.N, parse_contract("3NT"), 9, honours=(Side.EW, 150)))
    assert s.extra["above"] == {"NS": 0, "EW": 150}
    assert "150 for honours to East-West" in s.reason


def test_CB_rubber_honours_value_checked() -> None:
    r = RubberScore()
    with pytest.raises(ValueError, match="100 or 150"):
        r.record(Seat.N, parse_contract("3NT"), 9, honours=(Side.EW, 120))
    with pytest.raises(ValueError, match="four aces"):
        r.record(Seat.N, parse_contract("3NT"), 9, honours=(Side.EW, 100))
    assert r.hands == 0 and r.entries == []          # refused input leaves the score as it was


def test_CB_rubber_small_slam_vulnerable() -> None:
    r = _vulnerable_ns()
    s = _score(r.record(Seat.N, parse_contract("6NT"), 12))
    assert s.extra["below"]["NS"] == 190 and s.extra["above"]["NS"] == 750


def test_CB_rubber_grand_slam_not_vulnerable_and_failed_slam_scores_no_bonus() -> None:
    s = _score(RubberScore().record(Seat.W, parse_contract("7C"), 13))
    assert s.extra["below"]["EW"] == 140 and s.extra["above"]["EW"] == 1000
    s = _score(RubberScore().record(Seat.W, parse_contract("6C"), 11))
    assert s.extra["above"] == {"NS": 50, "EW": 0}


def test_CB_rubber_part_scores_add_up_to_game() -> None:
    r = RubberScore()
    assert len(r.record(Seat.N, parse_contract("2S"), 8)) == 1
    rulings = r.record(Seat.S, parse_contract("2D"), 8)
    assert [x.remedy for x in rulings] == [Remedy.SCORE, Remedy.GAME_WON]
    assert rulings[1].extra["points"] == 100 and rulings[1].extra["game"] == 1
    assert rulings[1].extra["value"] == 1 and rulings[1].extra["games"] == {"NS": 1, "EW": 0}


def test_CB_rubber_part_score_does_not_carry_after_opponents_game() -> None:
    r = RubberScore()
    r.record(Seat.N, parse_contract("3C"), 9)        # NS 60 towards game 1
    r.record(Seat.E, parse_contract("4H"), 10)       # EW 120: game 1 to EW
    assert r.below == {Side.NS: 0, Side.EW: 0} and r.game == 2
    r.record(Seat.N, parse_contract("2C"), 8)        # 40 only: the old 60 no longer counts
    assert r.below[Side.NS] == 40 and r.games == {Side.NS: 0, Side.EW: 1}
    assert r.totals == {Side.NS: 100, Side.EW: 120}
    assert r.snapshot()["below_by_game"] == [{"NS": 60, "EW": 120}, {"NS": 40, "EW": 0}]


def test_CB_rubber_vulnerability_changes_undertricks() -> None:
    r = _vulnerable_ns()
    assert _score(r.record(Seat.N, parse_contract("4H"), 8)).extra["above"]["EW"] == 200
    assert _score(r.record(Seat.E, parse_contract("4H"), 8)).extra["above"]["NS"] == 100


def test_CB_rubber_premium_700() -> None:
    r = _vulnerable_ns()
    rulings = r.record(Seat.S, parse_contract("3NT"), 9)
    assert [x.remedy for x in rulings] == [Remedy.SCORE, Remedy.GAME_WON, Remedy.RUBBER_WON]
    won = rulings[2]
    assert won.side is Side.NS and won.extra["premium"] == 700
    assert won.extra["totals"] == {"NS": 920, "EW": 0} and won.extra["winner"] == "NS"
    assert won.extra["games"] == {"NS": 2, "EW": 0} and r.over
    assert "700 rubber premium" in won.reason and "new draw" in won.reason


def test_CB_rubber_premium_500() -> None:
    r = _vulnerable_ns()
    r.record(Seat.E, parse_contract("5D"), 11)      # EW game: 100
    won = r.record(Seat.N, parse_contract("1NT"), 7)
    assert not any(x.remedy is Remedy.RUBBER_WON for x in won)
    won = r.record(Seat.N, parse_contract("2NT"), 8)
    assert won[-1].remedy is Remedy.RUBBER_WON and won[-1].extra["premium"] == 500
    # NS: 120 + 40 + 70 + 500 = 730; EW: 100
    assert won[-1].extra["totals"] == {"NS": 730, "EW": 100} and won[-1].extra["margin"] == 630


def test_CB_rubber_totals_decide_winner_not_games() -> None:
    r = _vulnerable_ns()                              # NS 120 below, game 1
    r.record(Seat.N, parse_contract("7NTX"), 6)      # doubled vulnerable 7 down: 200 + 6 x 300 = 2000 EW
    rulings = r.record(Seat.N, parse_contract("3NT"), 9)
    won = rulings[-1]
    assert won.side is Side.NS and won.extra["premium"] == 700
    assert won.extra["totals"] == {"NS": 920, "EW": 2000}
    assert won.extra["winner"] == "EW" and r.winner is Side.EW and r.premium_side is Side.NS
    assert "East-West wins the rubber on points" in won.reason


def test_CB_rubber_over_refuses_more_hands() -> None:
    r = _vulnerable_ns()
    r.record(Seat.N, parse_contract("3NT"), 9)
    with pytest.raises(ValueError, match="rubber is over"):
        r.record(Seat.N, parse_contract("1C"), 7)
    with pytest.raises(ValueError, match="already over"):
        r.unfinished()


@pytest.mark.parametrize("tricks", [-1, 14, True, 7.0])
def test_CB_rubber_tricks_checked(tricks: object) -> None:
    with pytest.raises(ValueError, match="0 to 13"):
        RubberScore().record(Seat.N, parse_contract("1C"), tricks)  # type: ignore[arg-type]


def test_CB_rubber_unfinished_game_and_part_scores() -> None:
    r = _vulnerable_ns()                              # NS game (120)
    r.record(Seat.S, parse_contract("2H"), 8)        # NS 60 part score
    r.record(Seat.W, parse_contract("1NT"), 7)       # EW 40 part score
    (final,) = r.unfinished()
    assert final.remedy is Remedy.RUBBER_WON and final.extra["unfinished"] is True
    assert final.extra["premium"] == 0
    assert final.extra["awards"] == {"NS": {"game": 300, "part_score": 50}, "EW": {"part_score": 50}}
    assert final.extra["totals"] == {"NS": 530, "EW": 90} and final.side is Side.NS and r.over


def test_CB_rubber_unfinished_nothing_scored_is_level() -> None:
    (final,) = RubberScore().unfinished()
    assert final.side is None and final.extra["winner"] is None and "level" in final.reason


def test_CB_scope_reasons_never_accuse() -> None:
    r = _vulnerable_ns()
    reasons = [x.reason for x in r.record(Seat.N, parse_contract("7NTX"), 0, honours=(Side.EW, 150))]
    reasons += [x.reason for x in r.record(Seat.N, parse_contract("3NT"), 9)]
    for text in reasons:
        assert text.endswith(".") and text.count(". ") == 0
        for word in ("cheat", "fault", "blame", "illegal", "wrong"):
            assert word not in text.lower()


def test_snapshot_and_rulings_are_json_ready() -> None:
    r = _vulnerable_ns()
    rulings = r.record(Seat.E, parse_contract("4HX"), 8)
    json.dumps([x.to_dict() for x in rulings])
    snap = json.loads(json.dumps(r.snapshot()))
    assert snap["games"] == {"NS": 1, "EW": 0} and snap["vulnerable"] == {"NS": True, "EW": False}
    assert snap["totals"] == {"NS": 420, "EW": 0} and snap["over"] is False  # EW two down doubled: 300


# -- properties -----------------------------------------------------------------------------------

hands = st.tuples(
    st.sampled_from(list(Seat)),
    st.builds(Contract, st.integers(1, 7), st.sampled_from(["C", "D", "H", "S", "NT"]), st.integers(0, 2)),
    st.integers(0, 13),
    st.none() | st.tuples(st.sampled_from(list(Side)), st.sampled_from([100, 150])),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(hands, min_size=1, max_size=60), st.booleans())
def test_CB_rubber_properties(seq: list[tuple[Seat, Contract, int, tuple[Side, int] | None]],
                              stop_early: bool) -> None:
    r = RubberScore()
    written = {"NS": 0, "EW": 0}
    games_won = 0
    for declarer, contract, tricks, honours in seq:
        if r.over:
            break
        if honours is not None and contract.strain == "NT":
            honours = (honours[0], 150)                  # at notrump only four aces count
        rulings = r.record(declarer, contract, tricks, honours)
        for x in rulings:
            for item in x.extra.get("items", []):
                assert item["points"] > 0
                written[item["side"]] += item["points"]
            if x.remedy is Remedy.GAME_WON:
                games_won += 1
            if x.remedy is Remedy.RUBBER_WON:
                loser_games = x.extra["games"][x.side.other.value]
                assert x.extra["premium"] == (700 if loser_games == 0 else 500)
                written[x.side.value] += x.extra["premium"]
        assert _score(rulings).extra["totals"]["NS"] <= r.totals[Side.NS]
        if not r.over:
            assert max(r.below.values()) < 100 and max(r.games.values()) < 2
        assert games_won <= 3
    if stop_early and not r.over:
        for side, got in r.unfinished()[0].extra["awards"].items():
            written[side] += sum(got.values())
    assert {s.value: v for s, v in r.totals.items()} == written
    assert sum(e.points for e in r.entries) == sum(r.totals.values())
    assert r.over or not stop_early


def _items(declarer: Seat, contract: str, tricks: int, honours: tuple[Side, int] | None = None,
           vulnerable: bool = False) -> dict[str, int]:
    """One hand's points per side (the rubber premium left out), the declaring side vulnerable or not."""
    r = RubberScore()
    if vulnerable:
        r.record(declarer, parse_contract("4S"), 10)
    before = len(r.entries)
    r.record(declarer, parse_contract(contract), tricks, honours)
    got = {"NS": 0, "EW": 0}
    for e in r.entries[before:]:
        if e.item != "rubber":
            got[e.side.value] += e.points
    return got


def test_docs_scoring_rubber_worked_examples() -> None:
    """docs/scoring.md section 15's table, row by row (the unfinished rubber: tests/laws/test_rubber_draw.py)."""
    r = RubberScore()
    r.record(Seat.N, parse_contract("4S"), 10)
    *_, won = r.record(Seat.N, parse_contract("3NT"), 9)
    assert won.extra["premium"] == 700 and won.extra["totals"] == {"NS": 920, "EW": 0}
    assert _items(Seat.N, "4SX", 11, vulnerable=True) == {"NS": 490, "EW": 0}
    assert _items(Seat.E, "3NTX", 5) == {"NS": 800, "EW": 0}
    assert _items(Seat.S, "6H", 12, (Side.NS, 100)) == {"NS": 780, "EW": 0}
    assert _items(Seat.W, "2SXX", 9, vulnerable=True) == {"NS": 0, "EW": 740}
    assert _items(Seat.N, "1NT", 7, (Side.EW, 150)) == {"NS": 40, "EW": 150}
