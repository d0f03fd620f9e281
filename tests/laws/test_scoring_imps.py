"""DB-78 (IMPs, Butler, cross-IMPs) and DB-12 (artificial scores at IMPs).

The golden examples come from published worked examples, each cited where it is used; the IMP table
is written out from docs/laws.md's ranges by hand, not derived from the code's list of edges.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.scoring.comparison import Entry, Kind
from laws.scoring.imps import (
    ImpMethod,
    artificial_imps,
    butler,
    butler_datum,
    butler_drop,
    cross_imp_sums,
    cross_imps,
    imp_board,
    imps,
    round_to_ten,
)

# docs/laws.md's IMP table, range by range: (lowest difference, highest difference, IMPs).
TABLE = [(0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5), (220, 260, 6),
         (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10), (500, 590, 11), (600, 740, 12),
         (750, 890, 13), (900, 1090, 14), (1100, 1290, 15), (1300, 1490, 16), (1500, 1740, 17),
         (1750, 1990, 18), (2000, 2240, 19), (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22),
         (3500, 3990, 23)]


@pytest.mark.parametrize("low,high,value", TABLE)
def test_DB_78_imp_table_edges(low: int, high: int, value: int) -> None:
    assert imps(low) == value and imps(high) == value
    assert imps(-low) == -value and imps(-high) == -value
    assert imps(high + 10) == value + 1 and imps(-high - 10) == -value - 1


def test_DB_78_imp_table_top_and_between_tens() -> None:
    assert imps(4000) == 24 and imps(7600) == 24 and imps(-4000) == -24
    assert imps(15) == 0 and imps(45) == 1 and imps(-45) == -1   # stated rule for a non-multiple of 10


@pytest.mark.parametrize("bad", [1.5, "20", True, None])
def test_DB_78_imps_refuse_non_numbers(bad: object) -> None:
    with pytest.raises(ValueError, match="whole number"):
        imps(bad)  # type: ignore[arg-type]


# -- Butler ---------------------------------------------------------------------------------------

# Bridge Base Online forums, "Bermuda Bowl 2011 universal thread" (post explaining Butler rankings):
# 22 tables, 3 x +980, 11 x +480, 7 x +450, 1 x -50, all kept; mean 514.55 gives datum +510 and the
# four scores get +10, -1, -2 and -11 IMPs for North-South.
BBO_BOARD = [980] * 3 + [480] * 11 + [450] * 7 + [-50]


def test_DB_78_butler_golden_bbo_forum_example() -> None:
    assert butler_datum(BBO_BOARD, drop=0) == 510
    by_score = dict(zip(BBO_BOARD, butler(BBO_BOARD, drop=0)))
    assert by_score == {980: 10, 480: -1, 450: -2, -50: -11}


def test_DB_78_butler_default_drops_one_each_end_from_three_results() -> None:
    # The same board with DB-78's rule: 980 and -50 dropped, (11320 - 980 + 50) / 20 = 519.5 -> 520.
    assert butler_drop(22) == 1 and butler_drop(3) == 1 and butler_drop(2) == 0 and butler_drop(1) == 0
    assert butler_datum(BBO_BOARD) == 520
    assert butler_datum([100, 200, 300, 400]) == 250            # four: (200 + 300) / 2
    assert butler_datum([100, 200, 900, 400]) == 300            # four: 100 and 900 go, (200 + 400) / 2
    assert butler_datum([-2000, 100, 200, 300, 5000]) == 200    # five: the extremes go
    assert butler_datum([-600, 420, 1430]) == 420               # three: the middle one
    assert butler_datum([420, 450]) == 440                      # two: nothing can go, 435 -> 440


def test_DB_78_datum_rounds_halves_to_the_even_ten() -> None:
    # ACBLscore manual, "IMP scoring methods" page (computed datum): a datum ending in 5 goes to the
    # even ten, 425 -> 420 and 435 -> 440.
    assert round_to_ten(Fraction(425)) == 420 and round_to_ten(Fraction(435)) == 440
    assert round_to_ten(Fraction(-425)) == -420 and round_to_ten(Fraction(-435)) == -440
    assert round_to_ten(Fraction(4251, 10)) == 430 and round_to_ten(Fraction(-4249, 10)) == -420
    assert butler_datum([420, 430]) == 420 and butler_datum([430, 440]) == 440


def test_DB_78_butler_refuses_impossible_drops() -> None:
    with pytest.raises(ValueError, match="keep one"):
        butler_datum([100, 200], drop=1)
    with pytest.raises(ValueError, match="keep one"):
        butler_datum([])


# -- cross-IMPs -----------------------------------------------------------------------------------

def test_DB_78_cross_imps_golden_bridge55_example() -> None:
    # bridge55.fi, "Butler Scoring / Cross-Imp Scoring (Imp Pairs)": North-South +420 on a board
    # played six times scores -1, +11, +12, +1, -5 against the other five tables, 18 in all, 18/5 = 3.6.
    # (The stored copy lost its minus signs; the other North-South scores that give those IMPs are
    # +450, -100, -200, +400, +590.)
    board = [420, 450, -100, -200, 400, 590]
    assert cross_imp_sums(board)[0] == 18
    assert cross_imps(board)[0] == Fraction(18, 5)


def test_DB_78_cross_imps_golden_pjms_overtrick_example() -> None:
    # pjms.nl, "De balans bij cross-IMPs scoring": five tables, four make 3NT for +600 and one +630;
    # the +630 wins 1 IMP against each of the four (4 in all), each +600 loses 1.
    board = [600, 600, 600, 630, 600]
    assert cross_imp_sums(board) == (-1, -1, -1, 4, -1)
    assert cross_imps(board) == (Fraction(-1, 4),) * 3 + (Fraction(1),) + (Fraction(-1, 4),)


def test_DB_78_cross_imps_divide_by_the_comparisons_made() -> None:
    # DB-78: eight results (of ten due, say): each is compared with the seven others and divided by 7.
    board = [600, 600, 600, 630, 600, 600, 600, 600]
    assert cross_imps(board)[3] == Fraction(7, 7) and cross_imps(board)[0] == Fraction(-1, 7)
    entries = [Entry.real(s) for s in board]
    assert imp_board(entries, due=10, method=ImpMethod.CROSS).points[3].ns == 1  # the due count does not scale it
    assert cross_imps([420]) == (0,) and cross_imps([]) == ()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-300, 300).map(lambda k: 10 * k), min_size=1, max_size=12))
def test_DB_78_cross_imps_sum_to_zero_and_are_symmetric(scores: list[int]) -> None:
    got = cross_imps(scores)
    assert sum(got) == 0
    assert cross_imps([-s for s in scores]) == tuple(-g for g in got)


# -- artificial scores and boards -----------------------------------------------------------------

def test_DB_12_artificial_imps() -> None:
    assert (artificial_imps(60), artificial_imps(50), artificial_imps(40)) == (3, 0, -3)
    with pytest.raises(ValueError, match="no IMP value"):
        artificial_imps(70)


def test_DB_78_butler_board_with_adjustment_and_split_score() -> None:
    entries = [Entry.real(420), Entry.real(450), Entry.real(170), Entry.adjusted(60, 40),
               Entry.split(420, -50)]
    board = imp_board(entries, due=5, method=ImpMethod.BUTLER)
    # North-South column 420, 450, 170, 420 (450 and 170 dropped): 840 / 2 = 420.
    # East-West column 420, 450, 170, -50 (450 and -50 dropped): 590 / 2 = 295 -> 300 (half to even).
    assert [(d.ns, d.ew) for d in board.datums] == [(420, 300)]
    ns = [p.ns for p in board.points]
    ew = [p.ew for p in board.points]
    assert ns == [0, 1, -6, 3, 0]        # 0, +30, -250 against 420; the artificial 60 % is +3
    assert ew == [-3, -4, 4, -3, 8]      # 120, 150, -130, -350 against 300, turned to East-West's view
    assert board.points[3].kind is Kind.ARTIFICIAL


def test_DB_87_fouled_board_at_imps_groups_apart_and_small_group_average_plus() -> None:
    # Ten due: group A has 7 results, group B 2 (under three and under a third of ten), and the tenth
    # line is the director's artificial 50/50.
    a = [Entry.real(s, "A") for s in (620, 620, 170, 650, 620, -100, 620)]
    b = [Entry.real(s, "B") for s in (-500, -470)]
    entries = a + b + [Entry.adjusted(50, 50)]
    board = imp_board(entries, due=10, method=ImpMethod.CROSS)
    assert [p.kind for p in board.points[7:9]] == [Kind.SMALL_GROUP] * 2
    assert all(p.ns == 3 and p.ew == 3 for p in board.points[7:9])
    sums = cross_imp_sums([620, 620, 170, 650, 620, -100, 620])
    assert [p.ns for p in board.points[:7]] == [s * Fraction(1, 6) for s in sums]  # group A: 6 comparisons
    assert board.points[9].ns == 0 and board.points[9].ew == 0


def test_DB_78_imp_board_checks_due() -> None:
    with pytest.raises(ValueError, match="at least as many due"):
        imp_board([Entry.real(100), Entry.real(200)], due=1, method=ImpMethod.CROSS)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-400, 400).map(lambda k: 5 * k), min_size=1, max_size=12))
def test_DB_78_butler_datum_is_symmetric_for_negatives(scores: list[int]) -> None:
    datum = butler_datum(scores)
    assert datum % 10 == 0 and butler_datum([-s for s in scores]) == -datum
