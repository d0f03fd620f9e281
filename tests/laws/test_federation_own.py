"""A club's own ranking on the boards it has finished, at the field's matchpoints (laws/federation/own.py).

The worked example of docs/federation.md ("A club's own ranking"): two clubs of three tables (pairs 1-3
each way, 3 results of a board due at each club, 6 across the field). Board 1 (none vulnerable), every
table of both clubs (the example of "The end"):

    club  NS EW  contract        NS score  field mp NS / EW (top 10)
    c1     1  3  3NT S  9 tricks   +400        5 / 5
    c1     2  1  4S  N  8 tricks   -100        2 / 8
    c1     3  2  4S  N 11 tricks   +450       10 / 0
    c2     1  3  3NT S  9 tricks   +400        5 / 5
    c2     2  1  4S  N 10 tricks   +420        8 / 2
    c2     3  2  4S  N  7 tricks   -150        0 / 10

Board 2: c1's three tables (1 v 2, 2 v 3, 3 v 1) and c2's first (1 v 2), all 4S by N making 10: four
results of the six due, all equal; each 3 of 6 matchpoints, Neuberg to the top of 10:
(3 + 1) x 6 / 4 - 1 = 5 each way.

c1 has finished boards 1 and 2; c2 only board 1 (one result of its three on board 2).
"""

from __future__ import annotations

from fractions import Fraction

from laws.cards import Seat
from laws.competition.sections import SPAN, Across, score_event
from laws.federation.field import ClubEntry, Field
from laws.federation.own import by_club, own_rankings
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Line, Method, Pair, Played, Ranking


def _line(board: int, ns: int, ew: int, contract: str, declarer: Seat, tricks: int) -> Line:
    return Line(board, Pair(ns, "NS"), Pair(ew, "EW"), Played(parse_contract(contract), declarer, tricks))


def _field() -> Field:
    clubs = {c: ClubEntry(c, {Pair(i, d): d for i in (1, 2, 3) for d in ("NS", "EW")}, 3) for c in ("c1", "c2")}
    f = Field((1, 2), clubs)
    for club, lines in {
        "c1": [(1, 1, 3, "3NT", Seat.S, 9), (1, 2, 1, "4S", Seat.N, 8), (1, 3, 2, "4S", Seat.N, 11),
               (2, 1, 2, "4S", Seat.N, 10), (2, 2, 3, "4S", Seat.N, 10), (2, 3, 1, "4S", Seat.N, 10)],
        "c2": [(1, 1, 3, "3NT", Seat.S, 9), (1, 2, 1, "4S", Seat.N, 10), (1, 3, 2, "4S", Seat.N, 7),
               (2, 1, 2, "4S", Seat.N, 10)],
    }.items():
        for b, ns, ew, contract, declarer, tricks in lines:
            f.apply(club, _line(b, ns, ew, contract, declarer, tricks))
    return f


def _rows(f: Field, rankings: tuple[Ranking, ...]) -> dict[str, list[tuple[str, str, Fraction, Fraction | None]]]:
    """The rankings with each pair by its club's own number."""
    return {r.field: [(st.place, f.local(st.pair).pair.label, st.total, st.percent) for st in r.standings]
            for r in rankings}


def test_the_worked_example() -> None:
    f = _field()
    assert _rows(f, f.own("c2", [1])) == {            # board 2 left out: c2 has not finished it
        "c2 EW": [("1", "2 EW", Fraction(10), Fraction(100)), ("2", "3 EW", Fraction(5), Fraction(50)),
                  ("3", "1 EW", Fraction(2), Fraction(20))],
        "c2 NS": [("1", "2 NS", Fraction(8), Fraction(80)), ("2", "1 NS", Fraction(5), Fraction(50)),
                  ("3", "3 NS", Fraction(0), Fraction(0))]}
    assert _rows(f, f.own("c1", [1, 2])) == {         # board 2 at the field's Neuberg: 5 each way
        "c1 EW": [("1", "1 EW", Fraction(13), Fraction(65)), ("2", "3 EW", Fraction(10), Fraction(50)),
                  ("3", "2 EW", Fraction(5), Fraction(25))],
        "c1 NS": [("1", "3 NS", Fraction(15), Fraction(75)), ("2", "1 NS", Fraction(10), Fraction(50)),
                  ("3", "2 NS", Fraction(7), Fraction(35))]}


def test_a_club_ranking_counts_the_fields_matchpoints_not_the_clubs_own() -> None:
    f = _field()
    mine = _rows(f, f.own("c1", [1]))
    # within c1 alone 4, 2 and 0 of 4; across the field 10, 5 and 2 of 10 (-100 beat c2's -150)
    assert mine["c1 NS"] == [("1", "3 NS", Fraction(10), Fraction(100)), ("2", "1 NS", Fraction(5), Fraction(50)),
                             ("3", "2 NS", Fraction(2), Fraction(20))]


def test_a_clubs_ranking_equals_its_ranking_in_a_whole_rescore_of_its_boards() -> None:
    f = _field()
    for club, boards in (("c1", (1, 2)), ("c2", (1,)), ("c1", (1,)), ("c2", (1, 2))):
        whole = score_event({c: (boards, e.due, e.fields) for c, e in f.clubs.items()},
                            [sl for sl in f.all_lines() if sl.line.board in boards], Method.MATCHPOINTS, Across.YES)
        expect = {name: [(place, f"{sp.pair.label}", st.total, st.percent) for place, sp, st in rows]
                  for name, rows in whole.rankings if name.startswith(club + " ")}
        assert _rows(f, f.own(club, boards)) == expect


def test_the_pure_function_takes_only_the_clubs_lines() -> None:
    f = _field()
    boards = [f.board(1), f.board(2)]
    mine = own_rankings("c2", boards, lambda p: f.local(p).section, f.method, f.club_fields())
    assert {st.pair.number // SPAN for r in mine for st in r.standings} == {1}    # the second club's pairs
    assert {r.field for r in mine} == {"c2 NS", "c2 EW"}


def test_a_board_split_by_club_ranks_each_club_the_same() -> None:
    f = _field()
    parts = [by_club(f.board(b), lambda p: f.local(p).section) for b in (1, 2)]
    assert {c: len(parts[1][c].lines) for c in parts[1]} == {"c1": 3, "c2": 1}
    assert all(p[c].top == f.board(1).top for p in parts[:1] for c in p)
    for club, boards in (("c1", (1, 2)), ("c2", (1,))):
        mine = [p[club] for p in parts if p[club].number in boards]
        assert own_rankings(club, mine, lambda p: f.local(p).section, f.method, f.club_fields()) == f.own(club, boards)
