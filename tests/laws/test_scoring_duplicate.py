"""DB-77: the duplicate score of one board.

The golden figures were worked out by hand from docs/laws.md's DB-77 row and the rubber figures (trick
points, overtricks, undertricks), not computed by the code under test; the working is in each comment.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import Seat, Side
from laws.duplicate.boards import Vulnerability
from laws.scoring import Contract, RubberScore, parse_contract
from laws.scoring.duplicate import ScoreInputError, board_score, declarer_score

NONE, ALL, NS, EW = Vulnerability.NONE, Vulnerability.ALL, Vulnerability.NS, Vulnerability.EW

# (contract, declarer, tricks, vulnerability, NS score) -- the hand working after each line.
GOLDEN = [
    ("4S", Seat.N, 10, NONE, 420),      # 120 + 300 game
    ("4S", Seat.S, 10, ALL, 620),       # 120 + 500 game
    ("3NT", Seat.N, 10, NONE, 430),     # 100 + 30 overtrick + 300
    ("1NT", Seat.S, 7, NONE, 90),       # 40 + 50 part score
    ("1S", Seat.N, 7, NONE, 80),        # 30 + 50
    ("2H", Seat.N, 10, NONE, 170),      # 60 + 2 x 30 + 50
    ("3S", Seat.N, 10, NS, 170),        # 90 + 30 + 50: overtricks undoubled are not worth more vulnerable
    ("1C", Seat.N, 13, NONE, 190),      # 20 + 6 x 20 + 50
    ("7NTXX", Seat.N, 13, ALL, 2980),   # 220 x 4 = 880 + 500 game + 1500 grand + 100 redoubled
    ("6HX", Seat.N, 11, ALL, -200),     # one down doubled vulnerable
    ("2SX", Seat.N, 8, NONE, 470),      # 120 doubled is a game: 120 + 300 + 50
    ("1NTX", Seat.N, 7, NONE, 180),     # 80 + 50 part score + 50 doubled
    ("2CX", Seat.S, 8, ALL, 180),       # 80 + 50 + 50 (still a part score)
    ("1NTXX", Seat.N, 8, NONE, 760),    # 160 (game) + 300 + 100 redoubled + 200 one overtrick
    ("4HX", Seat.N, 11, NS, 990),       # 240 + 500 + 50 + 200 one overtrick doubled vulnerable
    ("5DX", Seat.N, 11, NONE, 550),     # 200 + 300 + 50
    ("6NT", Seat.N, 12, NONE, 990),     # 190 + 300 + 500 small slam
    ("6NT", Seat.N, 12, NS, 1440),      # 190 + 500 + 750
    ("7C", Seat.S, 13, NONE, 1440),     # 140 + 300 + 1000 grand
    ("3NT", Seat.N, 8, NS, -100),       # one down vulnerable undoubled
    ("3NTX", Seat.N, 6, NONE, -500),    # doubled not vulnerable: 100 + 200 + 200
    ("3NTX", Seat.N, 5, NONE, -800),    # ... + 300 for the fourth
    ("4SXX", Seat.N, 8, ALL, -1000),    # (200 + 300) x 2
    ("7NTXX", Seat.N, 0, ALL, -7600),   # (200 + 12 x 300) x 2
    ("4S", Seat.E, 10, NONE, -420),     # East declares: the same 420, to East-West
    ("4S", Seat.W, 10, EW, -620),       # West vulnerable
    ("4S", Seat.E, 10, NS, -420),       # North-South's vulnerability does not matter to East
    ("4S", Seat.E, 9, ALL, 100),        # East one down vulnerable: North-South score
    ("6HX", Seat.W, 11, NS, 100),       # West not vulnerable, one down doubled
]


@pytest.mark.parametrize("text,declarer,tricks,vul,expected", GOLDEN)
def test_DB_77_golden_scores(text: str, declarer: Seat, tricks: int, vul: Vulnerability,
                             expected: int) -> None:
    assert board_score(parse_contract(text), declarer, tricks, vul) == expected


def test_DB_77_declarer_view() -> None:
    assert declarer_score(parse_contract("4S"), 10, vulnerable=True) == 620
    assert declarer_score(parse_contract("4S"), 9, vulnerable=False) == -50
    assert declarer_score(parse_contract("6HX"), 11, vulnerable=True) == -200


def test_DB_77_passed_out_is_zero() -> None:
    assert board_score(None, None, 0, ALL) == 0


@pytest.mark.parametrize("args,words", [
    ((parse_contract("4S"), None, 10, NONE), "needs a declarer"),
    ((parse_contract("4S"), "N", 10, NONE), "needs a declarer"),
    ((None, Seat.N, 0, NONE), "no declarer"),
    ((None, None, 7, NONE), "no tricks"),
    ((parse_contract("4S"), Seat.N, 14, NONE), "0 to 13"),
    ((parse_contract("4S"), Seat.N, -1, NONE), "0 to 13"),
    ((parse_contract("4S"), Seat.N, True, NONE), "0 to 13"),
    ((parse_contract("4S"), Seat.N, 10.0, NONE), "0 to 13"),
    ((parse_contract("4S"), Seat.N, 10, "None"), "Vulnerability"),
    (("4S", Seat.N, 10, NONE), "Contract"),
])
def test_DB_77_bad_input_is_named(args: tuple[object, ...], words: str) -> None:
    with pytest.raises(ScoreInputError, match=words):
        board_score(*args)  # type: ignore[arg-type]


def test_DB_77_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        declarer_score(parse_contract("1C"), 20, False)


# -- the duplicate score ties to the rubber code -------------------------------------------------

contracts = st.builds(lambda lv, s, d: parse_contract(f"{lv}{s}{'X' * d}"),
                      st.integers(1, 7), st.sampled_from(["C", "D", "H", "S", "NT"]), st.integers(0, 2))


def _rubber_hand(declarer: Seat, vulnerable: bool, text: str, tricks: int) -> tuple[int, int, int]:
    """Score one hand in a rubber in which declarer's side is (or is not) vulnerable. Returns the hand's
    points for declarer's side and for the defenders (below plus above the line, the rubber bonus left
    out), and declarer's trick points below the line."""
    rubber = RubberScore()
    if vulnerable:   # declarer's side wins a first game, so it is vulnerable on the next hand
        rubber.record(declarer, parse_contract("3NT"), 9)
    assert rubber.vulnerable(declarer.side) is vulnerable
    hand = rubber.hands + 1
    rubber.record(declarer, parse_contract(text), tricks)
    side = declarer.side
    entries = [e for e in rubber.entries if e.hand == hand and e.item != "rubber"]
    mine = sum(e.points for e in entries if e.side is side)
    theirs = sum(e.points for e in entries if e.side is side.other)
    below = sum(e.points for e in entries if e.side is side and e.line == "below")
    return mine, theirs, below


@settings(max_examples=300, deadline=None)
@given(contract=contracts, declarer=st.sampled_from(list(Seat)), tricks=st.integers(0, 13),
       vul=st.sampled_from(list(Vulnerability)))
def test_DB_77_equals_rubber_points_plus_duplicate_bonus(contract: Contract, declarer: Seat, tricks: int,
                                                         vul: Vulnerability) -> None:
    side = declarer.side
    vulnerable = vul.of(side)
    mine, theirs, below = _rubber_hand(declarer, vulnerable, contract.code, tricks)
    # The part-score or game bonus is what duplicate adds in place of the rubber's games.
    bonus = 0 if tricks < contract.needed else (500 if vulnerable else 300) if below >= 100 else 50
    expected = mine - theirs + bonus
    assert board_score(contract, declarer, tricks, vul) == (expected if side is Side.NS else -expected)
