"""DB-78 (matchpoints, Neuberg), DB-12 (adjusted scores) and DB-87 (fouled boards) at matchpoints.

Golden values are from published worked examples, each cited where it is used; the other expected
figures were worked by hand in the comments.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.scoring.comparison import Entry, Kind, is_small_group
from laws.scoring.matchpoints import (
    Scale,
    artificial_points,
    matchpoint_board,
    matchpoints,
    neuberg,
    percentage,
    top,
)

F = Fraction


def test_DB_78_matchpoints_golden_ebu_frequency_table() -> None:
    # EBU forum, "Factoring manually": ten tables, top 18; 3NT= +400 twice gets 17, 1NT+2 +150 once 14,
    # 1NT+1 +120 three times 10, 3NT-1 -50 four times 3; 90 matchpoints in all (ten times the average 9).
    board = [400, 400, 150, 120, 120, 120, -50, -50, -50, -50]
    got = matchpoints(board)
    assert dict(zip(board, got)) == {400: 17, 150: 14, 120: 10, -50: 3}
    assert sum(got) == 90 and top(10) == 18


def test_DB_78_half_point_scale_is_half() -> None:
    board = [400, 400, 150, 120, 120, 120, -50, -50, -50, -50]
    got = matchpoints(board, Scale.ONE)
    assert dict(zip(board, got)) == {400: F(17, 2), 150: 7, 120: 5, -50: F(3, 2)}
    assert top(10, Scale.ONE) == 9


def test_DB_78_neuberg_golden_ebu_principle_example() -> None:
    # EBU Laws & Ethics articles, "The Neuberg Formula - the Principle": ten results where eleven were
    # due, each factored 1.1 times: +520 gets 19.9 of a top of 20, then 17.7, 15.5, ... down to 0.1.
    board = [520, 500, 490, 480, 460, 450, 430, 420, 400, -50]
    got = [neuberg(mp, 10, 11) for mp in matchpoints(board)]
    assert got == [F(199, 10), F(177, 10), F(155, 10), F(133, 10), F(111, 10), F(89, 10), F(67, 10),
                   F(45, 10), F(23, 10), F(1, 10)]
    assert top(11) == 20


def test_DB_78_neuberg_golden_encyclopedia_example() -> None:
    # "Neuberg formula" (encyclopedia article): played 6 times, 7 due; 4 of 10 becomes 4.8333 of 12
    # and 9 of 10 becomes 10.6667.
    assert neuberg(4, 6, 7) == F(29, 6) and neuberg(9, 6, 7) == F(32, 3)


def test_DB_78_neuberg_golden_pjms_made_easy() -> None:
    # pjms.nl, "Neuberg made easy": three tables 430 / 400 / -50 score 4, 2, 0 of 4; six tables with each
    # score twice score 9, 5, 1 of 10 (90, 50, 10 %); Neuberg from 3 to 6 gives the six-table figures.
    three = matchpoints([430, 400, -50])
    assert three == (4, 2, 0)
    assert matchpoints([430, 430, 400, 400, -50, -50])[::2] == (9, 5, 1)
    assert [neuberg(mp, 3, 6) for mp in three] == [9, 5, 1]
    assert [percentage(neuberg(mp, 3, 6), top(6)) for mp in three] == [90, 50, 10]


def test_DB_87_fouled_board_golden_pjms_manual_method() -> None:
    # pjms.nl, "The manual method": a fouled board of 7 scores split into groups of 3 and 4; with
    # Neuberg the top of the 3-group is 88.9 % and of the 4-group 93.8 %.
    entries = [Entry.real(s, "A") for s in (100, 50, 0)] + [Entry.real(s, "B") for s in (-90, -200, -300, -400)]
    points = matchpoint_board(entries, due=7)
    assert percentage(points[0].ns, top(7)) == F(800, 9)          # 88.89 %
    assert percentage(points[3].ns, top(7)) == F(375, 4)          # 93.75 %
    assert all(p.ns + p.ew == top(7) for p in points)


def test_DB_78_neuberg_half_scale_form() -> None:
    # On the 1-scale: (MP + 1/2) * N / n - 1/2, exactly half the 2-scale figure.
    assert neuberg(F(2), 6, 7, Scale.ONE) == (F(2) + F(1, 2)) * F(7, 6) - F(1, 2) == neuberg(4, 6, 7) / 2


def test_DB_78_neuberg_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="results <= due"):
        neuberg(3, 5, 4)
    with pytest.raises(ValueError, match="results <= due"):
        neuberg(0, 0, 4)
    with pytest.raises(ValueError, match="at least one result"):
        top(0)


def test_DB_12_artificial_scores_each_side_apart_and_real_results_factored() -> None:
    # Five due, four real results and one artificial 60/40: top 8, so 4.8 and 3.2; the four real ones
    # are matchpointed among themselves (top 6) and factored to five: (MP + 1) * 5/4 - 1.
    entries = [Entry.real(s) for s in (420, 450, 170, 420)] + [Entry.adjusted(60, 40)]
    points = matchpoint_board(entries, due=5)
    assert (points[4].ns, points[4].ew, points[4].kind) == (F(24, 5), F(16, 5), Kind.ARTIFICIAL)
    assert [p.ns for p in points[:4]] == [F(3 + 1) * F(5, 4) - 1, F(6 + 1) * F(5, 4) - 1, F(1) * F(5, 4) - 1,
                                          F(3 + 1) * F(5, 4) - 1]
    assert artificial_points(50, 5, Scale.ONE) == 2


def test_DB_12_split_assigned_score_is_compared_per_direction() -> None:
    # North-South column 420, 450, 170, 420 -> 3, 6, 0, 3. East-West see -420, -450, -170, +50 -> 2, 0, 4, 6.
    entries = [Entry.real(420), Entry.real(450), Entry.real(170), Entry.split(420, -50)]
    points = matchpoint_board(entries, due=4)
    assert [(p.ns, p.ew) for p in points] == [(3, 2), (6, 0), (0, 4), (3, 6)]


def test_DB_87_small_group_gets_average_plus_both_sides() -> None:
    assert is_small_group(2, 7) and not is_small_group(2, 6) and not is_small_group(3, 30)
    entries = [Entry.real(s, "A") for s in (400, 430, 400, 420, -50)] + [Entry.real(-100, "B"),
                                                                          Entry.real(-130, "B")]
    points = matchpoint_board(entries, due=7)
    plus = F(60, 100) * 12
    assert [(p.ns, p.ew, p.kind) for p in points[5:]] == [(plus, plus, Kind.SMALL_GROUP)] * 2
    assert [p.ns for p in points[:5]] == [neuberg(mp, 5, 7) for mp in matchpoints([400, 430, 400, 420, -50])]


def test_DB_87_one_group_is_never_a_small_group() -> None:
    points = matchpoint_board([Entry.real(100), Entry.real(200)], due=9)
    assert [p.kind for p in points] == [Kind.COMPARED] * 2
    assert [p.ns for p in points] == [neuberg(0, 2, 9), neuberg(2, 2, 9)]


def test_DB_78_board_checks_due_and_entries() -> None:
    with pytest.raises(ValueError, match="at least as many due"):
        matchpoint_board([Entry.real(1), Entry.real(2)], due=1)
    with pytest.raises(ValueError, match="percentage 0 to 100"):
        Entry.adjusted(120, 40)
    with pytest.raises(ValueError, match="whole-number"):
        Entry(None, 10)


# -- properties -----------------------------------------------------------------------------------

scores = st.lists(st.integers(-150, 150).map(lambda k: 10 * k), min_size=1, max_size=14)


@settings(max_examples=200, deadline=None)
@given(scores, st.integers(0, 6), st.sampled_from(list(Scale)))
def test_DB_78_ns_and_ew_add_to_the_top(board: list[int], missing: int, scale: Scale) -> None:
    due = len(board) + missing
    points = matchpoint_board([Entry.real(s) for s in board], due, scale)
    assert all(p.ns + p.ew == top(due, scale) for p in points)
    # Neuberg keeps the board's total: n results share n halves of the top, whatever the due count.
    assert sum(p.ns for p in points) == len(board) * top(due, scale) / 2


@settings(max_examples=200, deadline=None)
@given(scores, st.sampled_from(list(Scale)))
def test_DB_78_neuberg_with_all_results_is_the_identity(board: list[int], scale: Scale) -> None:
    n = len(board)
    assert all(neuberg(mp, n, n, scale) == mp for mp in matchpoints(board, scale))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-60, 60).map(lambda k: 10 * k), st.sampled_from("AB")),
                min_size=1, max_size=10), st.randoms(use_true_random=False), st.integers(0, 4))
def test_DB_78_board_invariant_under_reordering(lines: list[tuple[int, str]], rnd: random.Random,
                                                missing: int) -> None:
    entries = [Entry.real(s, g) for s, g in lines]
    due = len(entries) + missing
    order = list(range(len(entries)))
    rnd.shuffle(order)
    before = matchpoint_board(entries, due)
    after = matchpoint_board([entries[i] for i in order], due)
    assert [after[k] for k in range(len(order))] == [before[i] for i in order]


def test_DB_78_matchpoint_edges() -> None:
    # One result: top 0, nothing to beat, 50 % by our rule; factored to N it is exactly half the top.
    assert matchpoints([420]) == (0,) and top(1) == 0 and percentage(F(0), top(1)) == 50
    assert neuberg(0, 1, 9) == 8 == top(9) / 2
    # Everyone tied: each gets n - 1, half the top; a sole top and bottom get the top and 0.
    assert matchpoints([100] * 5) == (4,) * 5 and matchpoints([100] * 5, Scale.ONE) == (2,) * 5
    assert matchpoints([-50, 400, 100]) == (0, 4, 2)
    assert percentage(F(4), top(3)) == 100 and percentage(F(0), top(3)) == 0
