"""An outsider's audit of the duplicate scoring (issue 24): board scores, matchpoints, IMPs, rankings.

The expectations come from docs/laws.md (DB-2, DB-12, DB-77, DB-78, DB-87) and docs/scoring.md alone,
through the independent scorer in ``outsider.py`` (written without reading the scoring code or
``recompute.py``); the program is run through its documented API (``laws.scoring.score_session``) and
its documented commands. Each check is also fed a wrong answer and seen to fail.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import Seat
from laws.scoring import (
    Artificial,
    Assigned,
    Line,
    Method,
    Pair,
    Played,
    parse_contract,
    score_session,
)
from laws.scoring.session import Side
from tests.duplicate import outsider as o

METHODS = {"mp": Method.MATCHPOINTS, "mp-half": Method.MATCHPOINTS_HALF,
           "butler": Method.BUTLER, "cross": Method.CROSS_IMPS}


def ns_pair(n: int) -> Pair:
    return Pair(n, Side.NS)


def ew_pair(n: int) -> Pair:
    return Pair(n, Side.EW)


# --- one board: random lines through score_session against the outsider -------------------------

CONTRACTS = [f"{lv}{s}{x}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")
             for x in ("", "X", "XX")]


@st.composite
def board_lines(draw: st.DrawFn, method: str) -> tuple[int, int, list[o.OLine], list[Line]]:
    board = draw(st.integers(1, 48))
    count = draw(st.integers(1, 8))
    due = count + draw(st.integers(0, 2))
    percents = [40, 50, 60] if method in ("butler", "cross") else [40, 50, 60, 70]
    olines: list[o.OLine] = []
    lines: list[Line] = []
    for i in range(count):
        kind = draw(st.sampled_from(["played", "played", "played", "passed", "assigned",
                                     "split", "artificial"]))
        group = "A" if kind == "artificial" else draw(st.sampled_from("AAB"))
        if kind in ("played", "passed"):
            if kind == "passed":
                result = Played(None, None, 0)
                score = 0
            else:
                contract = draw(st.sampled_from(CONTRACTS))
                declarer = draw(st.sampled_from("NESW"))
                tricks = draw(st.integers(0, 13))
                result = Played(parse_contract(contract), Seat(declarer), tricks)
                score = o.ns_score(contract, declarer, tricks, board)
            ol = o.OLine(i + 1, i + 1, "played", score, score, group)
        elif kind == "assigned":
            score = draw(st.integers(-200, 200)) * 10
            result, ol = Assigned(score), o.OLine(i + 1, i + 1, "assigned", score, score, group)
        elif kind == "split":
            a, b = draw(st.integers(-200, 200)) * 10, draw(st.integers(-200, 200)) * 10
            result, ol = Assigned(a, b), o.OLine(i + 1, i + 1, "assigned", a, b, group)
        else:
            a, b = draw(st.sampled_from(percents)), draw(st.sampled_from(percents))
            result, ol = Artificial(a, b), o.OLine(i + 1, i + 1, "artificial", a, b, group)
        olines.append(ol)
        lines.append(Line(board, ns_pair(i + 1), ew_pair(i + 1), result, group))
    return board, due, olines, lines


def check_board(method: str, board: int, due: int, olines: list[o.OLine], lines: list[Line]) -> None:
    fields = {p: d for i in range(len(lines)) for p, d in ((ns_pair(i + 1), "NS"), (ew_pair(i + 1), "EW"))}
    result = score_session([board], lines, due, METHODS[method], fields)
    (scored,) = result.boards
    assert scored.number == board
    expected = o.score_board(olines, due, method)
    got = {(ln.ns.number, ln.ew.number): (ln.ns_points, ln.ew_points) for ln in scored.lines}
    for ol, want in zip(olines, expected):
        assert got[(ol.ns_pair, ol.ew_pair)] == want, (ol, want, got[(ol.ns_pair, ol.ew_pair)])
    if method.startswith("mp"):
        top = Fraction(due - 1) if method == "mp-half" else Fraction(2 * (due - 1))
        assert scored.top == top
        for ln in scored.lines:
            assert ln.ns_percent == (ln.ns_points / top * 100 if top else 50)
    for ln, ol in ((ln, ol) for ln in scored.lines for ol in olines if ol.ns_pair == ln.ns.number):
        if ol.kind != "artificial":
            assert ln.ns_score == ol.ns


@pytest.mark.parametrize("method", sorted(METHODS))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_board_scores_as_the_documents_say(method: str, data: st.DataObject) -> None:
    board, due, olines, lines = data.draw(board_lines(method))
    check_board(method, board, due, olines, lines)


# --- a session: totals, percentages and places -----------------------------------------------------

@st.composite
def sessions(draw: st.DrawFn, method: str) -> tuple[list[int], int, list[Line], list[o.OLine], bool]:
    pairs = draw(st.integers(2, 5))
    one_field = draw(st.booleans())
    boards = sorted(draw(st.sets(st.integers(1, 40), min_size=1, max_size=4)))
    lines: list[Line] = []
    olines: list[o.OLine] = []
    for board in boards:
        perm = draw(st.permutations(range(1, pairs + 1)))
        playing = draw(st.lists(st.booleans(), min_size=pairs, max_size=pairs))
        for i in range(pairs):
            if not playing[i] and any(playing):
                continue
            ew = perm[i]
            kind = draw(st.sampled_from(["small", "small", "artificial"]))
            if kind == "artificial":
                a = draw(st.sampled_from([40, 50, 60]))
                res: Played | Assigned | Artificial = Artificial(a, 100 - a)
                ol = o.OLine(i + 1, ew, "artificial", a, 100 - a)
            else:
                s = draw(st.sampled_from([-100, 0, 100]))  # few values: ties are common
                res, ol = Assigned(s), o.OLine(i + 1, ew, "assigned", s, s)
            lines.append(Line(board, ns_pair(i + 1), ew_pair(ew), res))
            olines.append(ol)
    return boards, pairs, lines, olines, one_field


@pytest.mark.parametrize("method", sorted(METHODS))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_session_ranks_as_the_documents_say(method: str, data: st.DataObject) -> None:
    boards, pairs, lines, olines, one_field = data.draw(sessions(method))
    field_of = (lambda d: "one field") if one_field else (lambda d: d)
    fields = {p: field_of(d) for n in range(1, pairs + 1)
              for p, d in ((ns_pair(n), "NS"), (ew_pair(n), "EW"))}
    result = score_session(boards, lines, pairs, METHODS[method], fields)
    check_session(method, boards, pairs, lines, olines, fields, result)


def check_session(method: str, boards: list[int], due: int, lines: list[Line], olines: list[o.OLine],
                  fields: dict[Pair, str], result: object) -> None:
    top = Fraction(due - 1) if method == "mp-half" else Fraction(2 * (due - 1))
    total: dict[Pair, Fraction] = {}
    tops: dict[Pair, Fraction] = {}
    played: dict[Pair, int] = {}
    for board in boards:
        idx = [i for i, ln in enumerate(lines) if ln.board == board]
        points = o.score_board([olines[i] for i in idx], due, method)
        for i, (pn, pe) in zip(idx, points):
            for pair, pts in ((lines[i].ns, pn), (lines[i].ew, pe)):
                total[pair] = total.get(pair, Fraction(0)) + pts
                tops[pair] = tops.get(pair, Fraction(0)) + top
                played[pair] = played.get(pair, 0) + 1
    want: dict[str, dict[Pair, tuple[Fraction, int, str]]] = {}
    for name in sorted(set(fields.values())):
        members = [p for p in total if fields[p] == name]
        fig = {p: (total[p] / tops[p] * 100 if method.startswith("mp") and tops[p] else
                   total[p] / played[p]) for p in members}
        place = o.places(fig)  # type: ignore[arg-type]
        want[name] = {p: (total[p], played[p], place[p]) for p in members}
    got = {r.field: {s.pair: (s.total, s.boards, s.place) for s in r.standings}
           for r in result.rankings}  # type: ignore[attr-defined]
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}
    for r in result.rankings:  # type: ignore[attr-defined]
        order = [s.pair for s in r.standings]
        figs = [(s.percent if method.startswith("mp") else s.per_board) for s in r.standings]
        assert figs == sorted(figs, reverse=True), "ranked best first"
        for a, b, fa, fb in zip(order, order[1:], figs, figs[1:]):
            if fa == fb:
                assert a.number <= b.number, "equal figures are listed by pair number"


# --- the checkers fail on wrong answers ----------------------------------------------------------

def test_the_outsider_board_checks_fail_on_a_wrong_answer() -> None:
    """Fed a wrong Neuberg factor, a wrong datum and a wrong vulnerability, the checks see it."""
    lines = [o.OLine(1, 1, "played", 420, 420), o.OLine(2, 2, "played", 450, 450),
             o.OLine(3, 3, "played", 170, 170)]
    right = o.score_board(lines, 4, "mp")
    assert right[1] == (Fraction(17, 3), Fraction(1, 3))  # docs/scoring.md §4's factoring, 3 of 4
    assert o.score_board(lines, 3, "mp") != right  # the due count matters
    # Butler, three results, 450 and 170 dropped: datum 420; 420 - 420 = 0 IMPs, 450 - 420 = 30 -> 1
    assert o.score_board(lines, 4, "butler")[0] == (Fraction(0), Fraction(0))
    assert o.score_board(lines, 4, "butler")[1] == (Fraction(1), Fraction(-1))
    with pytest.raises(AssertionError):
        check_board("mp", 1, 4, [o.OLine(1, 1, "assigned", 420, 420)],
                    [Line(1, ns_pair(1), ew_pair(1), Assigned(450))])
    assert o.vul_of(17) == "None" and o.vul_of(20) == "All" and o.dealer_of(20) == "W"


# --- DB-2, DB-77, the IMP table: every case -----------------------------------------------------

def test_every_boards_dealer_and_vulnerability() -> None:
    from laws.duplicate.boards import dealer, vulnerability
    for n in range(1, 129):
        assert (dealer(n).value, vulnerability(n).value) == (o.dealer_of(n), o.vul_of(n)), n


def test_every_contract_result_and_vulnerability_scores_as_db77() -> None:
    """All 35 contracts × 3 doublings × 14 trick counts × 4 declarers × the 16 vulnerabilities."""
    from laws.duplicate.boards import vulnerability
    from laws.scoring import board_score
    for board in range(1, 17):
        for contract in CONTRACTS:
            for declarer in "NESW":
                for tricks in range(14):
                    got = board_score(parse_contract(contract), Seat(declarer), tricks, vulnerability(board))
                    assert got == o.ns_score(contract, declarer, tricks, board), (board, contract, declarer, tricks)
    assert board_score(None, None, 0, vulnerability(1)) == 0  # a passed-out board


def test_the_imp_table_at_every_difference() -> None:
    from laws.scoring import imps
    for diff in range(-5000, 5001, 10):
        assert imps(diff) == o.imps(diff), diff
    with pytest.raises(AssertionError):  # the outsider's table fails a wrong answer
        assert o.imps(4000) == 23
