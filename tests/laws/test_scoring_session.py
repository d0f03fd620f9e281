"""A session scored as a whole (DB-77, DB-78, DB-12, DB-87): travellers, rankings, errors, properties.

The small sessions here were scored by hand; the working is in the comments.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import Card, Seat, Side
from laws.scoring import session_bench
from laws.scoring.bridge import parse_contract
from laws.scoring.render import present, render_session
from laws.scoring.session import (
    Artificial,
    Assigned,
    Line,
    Method,
    Pair,
    Played,
    SessionError,
    places,
    score_session,
)
from laws.scoring.session_bench import bench_session, sample_mitchell

F = Fraction


def ns(n: int) -> Pair:
    return Pair(n, Side.NS)


def ew(n: int) -> Pair:
    return Pair(n, Side.EW)


def played(text: str | None, declarer: Seat | None, tricks: int, lead: str | None = None) -> Played:
    return Played(None if text is None else parse_contract(text), declarer, tricks,
                  None if lead is None else Card.parse(lead))


MITCHELL = {**{ns(i): "NS" for i in range(1, 5)}, **{ew(i): "EW" for i in range(1, 5)}}

# Board 1 (dealer N, nobody vulnerable): 420, 450, 170, -50. Board 2 (dealer E, North-South
# vulnerable): East declares 3NT at three tables, -400, -430, +50; the fourth table gets 60/40.
LINES = [
    Line(1, ns(1), ew(1), played("4S", Seat.N, 10, "AH")),
    Line(1, ns(2), ew(2), played("4S", Seat.N, 11)),
    Line(1, ns(3), ew(3), played("2S", Seat.N, 10)),
    Line(1, ns(4), ew(4), played("4S", Seat.N, 9)),
    Line(2, ns(1), ew(2), played("3NT", Seat.E, 9)),
    Line(2, ns(2), ew(3), played("3NT", Seat.E, 10)),
    Line(2, ns(3), ew(4), played("3NT", Seat.E, 8)),
    Line(2, ns(4), ew(1), Artificial(60, 40)),
]


def _session(method: Method = Method.MATCHPOINTS, lines: list[Line] | None = None) -> object:
    return score_session([1, 2], LINES if lines is None else lines, 4, method, MITCHELL)


def test_DB_78_mitchell_at_matchpoints_by_hand() -> None:
    result = score_session([1, 2], LINES, 4, Method.MATCHPOINTS, MITCHELL)
    b1, b2 = result.boards
    assert [ln.ns_score for ln in b1.lines] == [420, 450, 170, -50]
    assert [(ln.ns_points, ln.ew_points) for ln in b1.lines] == [(4, 2), (6, 0), (2, 4), (0, 6)]
    assert b1.lines[0].lead == "AH" and b1.top == 6
    # Board 2: three real results, top 4 among themselves, factored to four due: (MP + 1) * 4/3 - 1.
    # +50 -> 4 -> 17/3; -400 -> 2 -> 3; -430 -> 0 -> 1/3. The artificial line: 60 % and 40 % of 6.
    assert [ln.ns_score for ln in b2.lines] == [-400, -430, 50, None]
    assert [(ln.ns_points, ln.ew_points) for ln in b2.lines] == [(3, 3), (F(1, 3), F(17, 3)),
                                                                 (F(17, 3), F(1, 3)), (F(18, 5), F(12, 5))]
    assert b2.lines[3].note == "artificial 60/40" and b2.lines[3].contract == ""
    by_field = {r.field: r for r in result.rankings}
    # North-South: 3 -> 2 + 17/3 = 23/3 (63.89 %), 1 -> 4 + 3 = 7 (58.33 %), 2 -> 6 + 1/3 (52.78 %),
    # 4 -> 0 + 3.6 (30 %); every pair had two tops of 6 available.
    got = [(s.place, s.pair, s.total, s.percent) for s in by_field["NS"].standings]
    assert got == [("1", ns(3), F(23, 3), F(23, 3) / 12 * 100), ("2", ns(1), F(7), F(7) / 12 * 100),
                   ("3", ns(2), F(19, 3), F(19, 3) / 12 * 100), ("4", ns(4), F(18, 5), F(30))]
    # East-West: 3 -> 4 + 17/3, 4 -> 6 + 1/3, 1 -> 2 + 2.4, 2 -> 0 + 3.
    got = [(s.place, s.pair, s.total) for s in by_field["EW"].standings]
    assert got == [("1", ew(3), F(29, 3)), ("2", ew(4), F(19, 3)), ("3", ew(1), F(22, 5)), ("4", ew(2), F(3))]
    assert all(s.boards == 2 and s.tops == 12 for r in result.rankings for s in r.standings)


def test_DB_78_half_scale_halves_every_figure() -> None:
    two = score_session([1, 2], LINES, 4, Method.MATCHPOINTS, MITCHELL)
    one = score_session([1, 2], LINES, 4, Method.MATCHPOINTS_HALF, MITCHELL)
    for a, b in zip(two.boards, one.boards):
        assert [(x.ns_points / 2, x.ew_points / 2, x.ns_percent) for x in a.lines] == \
               [(y.ns_points, y.ew_points, y.ns_percent) for y in b.lines]
    assert [s.percent for s in two.rankings[0].standings] == [s.percent for s in one.rankings[0].standings]


def test_DB_78_butler_session_by_hand() -> None:
    result = score_session([1, 2], LINES, 4, Method.BUTLER, MITCHELL)
    b1 = result.boards[0]
    # 420, 450, 170, -50: 450 and -50 dropped (DB-78), 590 / 2 = 295 -> 300 (half to the even ten).
    assert [(d.ns, d.ew) for d in b1.datums] == [(300, 300)]
    assert [(ln.ns_points, ln.ew_points) for ln in b1.lines] == [(3, -3), (4, -4), (-4, 4), (-8, 8)]
    assert b1.top is None and b1.lines[0].ns_percent is None
    # Board 2: -400, -430, +50: -430 and +50 dropped, datum -400; 0 -> 0, -30 -> -1, +450 -> +10; the
    # 60/40 -> +3/-3.
    assert [ln.ns_points for ln in result.boards[1].lines] == [0, -1, 10, 3]
    ranking = {r.field: r for r in result.rankings}["NS"]
    # NS 1: 3 + 0 = 3; 2: 4 - 1 = 3; 3: -4 + 10 = 6; 4: -8 + 3 = -5 (ranked on IMPs per board).
    assert [(s.pair.number, s.total, s.per_board, s.percent, s.place) for s in ranking.standings] == [
        (3, 6, 3, None, "1"), (1, 3, F(3, 2), None, "2="), (2, 3, F(3, 2), None, "2="), (4, -5, F(-5, 2), None, "4")]


def test_the_documents_worked_butler_session_is_the_codes() -> None:
    """docs/scoring.md's worked session gave Butler datums 250 and -260 (means with nothing dropped), against
    its own section 7; its figures are now the ones computed above, and this keeps them so."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "scoring.md").read_text(encoding="utf-8")
    text = " ".join(doc.split("At Butler (section 7) the same session gives", 1)[1].split("## 10.", 1)[0].split())
    result = score_session([1, 2], LINES, 4, Method.BUTLER, MITCHELL)
    assert text.startswith(f"datums {result.boards[0].datums[0].ns} (")
    assert f"and {result.boards[1].datums[0].ns} (".replace("-", "\u2212") in text
    ns = {r.field: r for r in result.rankings}["NS"].standings
    for b, board in enumerate(result.boards, 1):
        figures = ", ".join(f"{'+' if v > 0 else ''}{v}".replace("-", "\u2212") for v in (ln.ns_points for ln in board.lines))
        assert f"{figures} (the artificial 60 %) on board 2" in text if b == 2 else f"{figures} on board 1" in text
    assert f"3 NS {ns[0].total} IMPs ({float(ns[0].per_board):.2f} a board)" in text and "4 NS \u22125." in text


def test_DB_78_cross_imps_session_by_hand() -> None:
    result = score_session([1], LINES[:4], 4, Method.CROSS_IMPS, MITCHELL)
    # 420 against 450, 170, -50: -1 + 6 + 10 = 15, over 3 comparisons = 5.
    assert result.boards[0].lines[0].ns_points == 5
    assert sum(ln.ns_points for ln in result.boards[0].lines) == 0


def test_DB_12_assigned_and_split_scores_in_a_session() -> None:
    lines = LINES[:3] + [Line(1, ns(4), ew(4), Assigned(420, 140))]
    board = score_session([1], lines, 4, Method.MATCHPOINTS, MITCHELL).boards[0]
    # North-South compare 420, 450, 170, 420 -> 3, 6, 0, 3; East-West see -420, -450, -170, -140 -> 2, 0, 4, 6.
    assert [(ln.ns_points, ln.ew_points) for ln in board.lines] == [(3, 2), (6, 0), (0, 4), (3, 6)]
    assert (board.lines[3].ns_score, board.lines[3].ew_score, board.lines[3].note) == (420, 140, "assigned, split")
    plain = score_session([1], LINES[:3] + [Line(1, ns(4), ew(4), Assigned(420))], 4, Method.MATCHPOINTS,
                          MITCHELL).boards[0]
    assert plain.lines[3].note == "assigned" and plain.lines[3].ns_points == 3


def test_DB_87_fouled_board_in_a_session() -> None:
    fields = {**{ns(i): "NS" for i in range(1, 8)}, **{ew(i): "EW" for i in range(1, 8)}}
    scores = [(10, "A"), (10, "A"), (9, "A"), (11, "A"), (10, "A"), (8, "B"), (9, "B")]
    lines = [Line(1, ns(i), ew(i), played("4S", Seat.N, t), group=g) for i, (t, g) in enumerate(scores, 1)]
    board = score_session([1], lines, 7, Method.MATCHPOINTS, fields).boards[0]
    # Group B (two results of seven due: under three, under a third) -> 60 % of 12 each side.
    assert [(ln.ns_points, ln.ew_points) for ln in board.lines[5:]] == [(F(36, 5), F(36, 5))] * 2
    assert board.lines[5].note.startswith("fouled board: group B")
    # Group A: 420, 420, -50, 450, 420 -> 4, 4, 0, 8, 4 of 8, factored (MP + 1) * 7/5 - 1.
    assert [ln.ns_points for ln in board.lines[:5]] == [F(6), F(6), F(2, 5), F(58, 5), F(6)]
    assert "[group B]" in render_session(score_session([1], lines, 7, Method.MATCHPOINTS, fields))


def test_howell_one_field_and_shared_places() -> None:
    fields = {Pair(n): "Howell" for n in range(1, 5)}
    lines = [Line(1, Pair(1), Pair(2), played("4S", Seat.N, 10)),
             Line(1, Pair(3), Pair(4), played("4S", Seat.S, 10)),
             Line(2, Pair(2), Pair(3), played(None, None, 0)),
             Line(2, Pair(4), Pair(1), played(None, None, 0))]
    result = score_session([1, 2], lines, None, Method.MATCHPOINTS, fields)
    (ranking,) = result.rankings
    assert [s.place for s in ranking.standings] == ["1="] * 4
    assert [s.pair.number for s in ranking.standings] == [1, 2, 3, 4]
    assert result.boards[1].lines[0].contract == "Pass" and result.boards[1].lines[0].ns_score == 0


def test_places_show_ties_as_scorers_do() -> None:
    assert places([F(5), F(4), F(4), F(3)]) == ["1", "2=", "2=", "4"]
    assert places([F(1), F(1)]) == ["1=", "1="] and places([F(2), F(1), F(1)]) == ["1", "2=", "2="]
    assert places([]) == []


def test_present_rounds_halves_away_from_zero() -> None:
    assert present(F(12345, 1000)) == "12.35" and present(F(-125, 1000)) == "-0.13"
    assert present(F(1, 3)) == "0.33" and present(F(-1, 1000)) == "0.00" and present(7) == "7.00"
    assert present(F(2, 3), 0) == "1"


# -- errors ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("change,words", [
    (lambda ls: ls + [Line(1, ns(3), ew(1), played("1NT", Seat.N, 7))], r"board 1: a second result for pair 3 NS"),
    (lambda ls: ls + [Line(9, ns(1), ew(1), Artificial(60, 40))], r"board 9: an adjusted score on a board not played"),
    (lambda ls: ls + [Line(9, ns(1), ew(1), played("1NT", Seat.N, 7))], r"board 9: a result on a board not in"),
    (lambda ls: ls[:3] + [Line(1, ns(4), ns(1), played("4S", Seat.N, 9))],
     r"board 1: result for pair 1 NS which the board's traveller lists twice \(line 1 as North-South, line 4"),
    (lambda ls: ls + [Line(2, ns(5), ew(4), played("1NT", Seat.N, 7))], r"board 2: pair 5 NS is in no field"),
    (lambda ls: ls[:3] + [Line(1, ns(4), ew(4), played("4S", None, 9))], r"board 1, line 4: .*needs a declarer"),
    (lambda ls: ls[:3] + [Line(1, ns(4), ew(4), played("4S", Seat.N, 14))], r"board 1, line 4: tricks"),
    (lambda ls: ls[:3] + [Line(1, ns(4), ew(4), Assigned(425))], r"board 1, line 4: .*multiple of 10"),
    (lambda ls: ls[:3] + [Line(1, ns(4), ew(4), Artificial(120, 40))], r"board 1, line 4: .*percentage"),
    (lambda ls: ls[:3] + [Line(1, ns(4), ew(4), "4S=")], r"board 1, line 4: the result must be"),  # type: ignore[arg-type]
    (lambda ls: ls[:3] + [Line(1, ns(4), ew(4), played("4S", Seat.N, 9), group="")], r"group must be a name"),
    (lambda ls: ls[:3] + [Line(1, ns(4), ew(4), Played(parse_contract("4S"), Seat.N, 9, "HA"))],  # type: ignore[arg-type]
     r"the lead must be a Card"),
    (lambda ls: ls + ["not a line"], r"line 9: not a traveller line"),
])
def test_bad_sessions_are_named(change, words) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SessionError, match=words):
        score_session([1, 2], change(list(LINES)), 4, Method.MATCHPOINTS, MITCHELL)


@pytest.mark.parametrize("kwargs,words", [
    ({"boards": [1, 1, 2]}, "board 1 is listed twice"),
    ({"boards": []}, "at least one board"),
    ({"boards": [0, 1, 2]}, "board number"),
    ({"due": 3}, "board 1: 4 results but only 3 due"),
    ({"due": {1: 4}}, "board 2: no number of results due"),
    ({"due": {1: 4, 2: 0}}, "board 2: results due must be a whole number"),
    ({"method": "mp"}, "method must be one of"),
    ({"fields": {**MITCHELL, ns(1): ""}}, "pair 1 NS needs a field name"),
])
def test_bad_session_settings_are_named(kwargs: dict[str, object], words: str) -> None:
    args: dict[str, object] = {"boards": [1, 2], "lines": LINES, "due": 4, "method": Method.MATCHPOINTS,
                               "fields": MITCHELL}
    args.update(kwargs)
    with pytest.raises(SessionError, match=words):
        score_session(**args)  # type: ignore[arg-type]


def test_artificial_percentages_without_imp_value_refused_at_imps() -> None:
    lines = LINES[:4] + [Line(2, ns(1), ew(2), Artificial(70, 30))]
    with pytest.raises(SessionError, match=r"board 2, line 5: an artificial 70% has no IMP value"):
        score_session([1, 2], lines, 4, Method.BUTLER, MITCHELL)
    assert score_session([1, 2], lines, 4, Method.MATCHPOINTS, MITCHELL).boards[1].lines[0].ns_points == F(21, 5)


def test_pairs_are_checked() -> None:
    with pytest.raises(SessionError, match="pair number"):
        Pair(0)
    with pytest.raises(SessionError, match="direction"):
        Pair(3, "N")  # type: ignore[arg-type]
    assert Pair(3, "NS") == ns(3) and ns(3).label == "3 NS" and Pair(5).label == "5"  # type: ignore[arg-type]


# -- properties -----------------------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(list(Method)))
def test_scoring_is_invariant_under_reordering_of_lines(rnd: random.Random, method: Method) -> None:
    lines = list(LINES) + [Line(1, ns(5), ew(5), Assigned(420, 140))]
    fields = {**MITCHELL, ns(5): "NS", ew(5): "EW"}
    first = score_session([2, 1], lines, 5, method, fields)
    rnd.shuffle(lines)
    again = score_session([1, 2], lines, 5, method, fields)
    assert again == first
    assert render_session(again).encode() == render_session(first).encode()


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 9), st.integers(1, 5), st.integers(0, 3))
def test_DB_78_ns_and_ew_add_to_the_top_on_every_line(tables: int, boards: int, missing: int) -> None:
    numbers, lines, fields = sample_mitchell(tables, boards)
    result = score_session(numbers, lines, tables + missing, Method.MATCHPOINTS, fields)
    for board in result.boards:
        assert board.top == 2 * (tables + missing - 1)
        assert all(ln.ns_points + ln.ew_points == board.top for ln in board.lines)


def test_same_session_twice_is_equal_and_renders_the_same_bytes() -> None:
    numbers, lines, fields = sample_mitchell(6, 4)
    a = score_session(numbers, lines, 6, Method.CROSS_IMPS, fields)
    b = score_session(numbers, list(lines), 6, Method.CROSS_IMPS, dict(fields))
    assert a == b and render_session(a).encode("utf-8") == render_session(b).encode("utf-8")
    text = render_session(score_session(numbers, lines, 6, Method.BUTLER, fields))
    assert "datum" in text and "Field EW" in text and "Field NS" in text


# -- the bench ------------------------------------------------------------------------------------

def test_bench_session_reports_figures_from_the_injected_clock() -> None:
    ticks = iter(range(1000))
    figures = bench_session(lambda: float(next(ticks)) / 1000, repeats=3, tables=4, boards=3)
    assert figures["lines"] == 12 and figures["repeats"] == 3
    assert figures["score_median_ms"] == 1.0 and figures["render_median_ms"] == 1.0
    assert figures["within_target"] is True


def test_bench_session_fails_when_a_rescore_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    real = session_bench.score_session
    calls = iter(range(100))

    def drifting(*args, **kwargs):  # type: ignore[no-untyped-def]
        lines = list(args[1])
        return real(args[0], lines[:-1] if next(calls) else lines, *args[2:], **kwargs)

    monkeypatch.setattr(session_bench, "score_session", drifting)
    with pytest.raises(AssertionError, match="different results"):
        bench_session(lambda: 0.0, repeats=2, tables=4, boards=2)


def test_arrow_switched_mitchell_is_one_field_and_pairs_keep_their_numbers() -> None:
    # On board 2 the East-West pairs sit North-South (the arrow switched); everyone is in one field.
    fields = {p: "All" for p in (ns(1), ns(2), ew(1), ew(2))}
    lines = [Line(1, ns(1), ew(1), played("4S", Seat.N, 10)), Line(1, ns(2), ew(2), played("4S", Seat.N, 9)),
             Line(2, ew(1), ns(2), played("1NT", Seat.N, 7)), Line(2, ew(2), ns(1), played("1NT", Seat.N, 8))]
    (ranking,) = score_session([1, 2], lines, None, Method.MATCHPOINTS, fields).rankings
    # Board 1: 420 and -50, so 1 NS 2, 1 EW 0, 2 NS 0, 2 EW 2. Board 2 (NS vulnerable): 90 and 120 in
    # the North-South seats, so 2 EW (sitting NS, +120) gets 2 and 2 NS (sitting EW against +90) gets 2.
    assert [(s.place, s.pair, s.total, s.percent) for s in ranking.standings] == [
        ("1", ew(2), 4, 100), ("2=", ns(1), 2, 50), ("2=", ns(2), 2, 50), ("4", ew(1), 0, 0)]
    assert score_session(
        [1], [Line(1, ns(1), ew(1), Artificial(F(121, 2), 40))], 2, Method.MATCHPOINTS, fields
    ).boards[0].lines[0].note == "artificial 60.5/40"


def test_butler_drop_too_large_for_a_board_is_named() -> None:
    with pytest.raises(SessionError, match=r"board 1: cannot drop 2 at each end of 4 scores"):
        score_session([1, 2], LINES, 4, Method.BUTLER, MITCHELL, butler_drop=1 + 1)
    assert score_session([1, 2], LINES, 4, Method.BUTLER, MITCHELL, butler_drop=1).boards[0].datums[0].ns == 300  # (170 + 420) / 2 = 295 -> 300 (even ten)
