"""An event's state (laws/competition/event.py) and the published discrete VP scales.

The published tables are the ACBL's 20- and 30-point Swiss scales for 6-8 and 9-11 boards as printed
on bridgehands.com ("Victory Points"), kept as our scale files in tests/data/vp; each row of the printed
table is checked here, margin by margin.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from laws.competition import vp
from laws.competition.event import EventState, RoundDraw
from laws.competition.event_spec import EventError, EventKind, EventSpec, tables_of
from laws.competition.table_result import TableResult
from laws.competitors import Competitor


def _n(value: object) -> object:
    """A draw, table or match with each team, pair or player written as its number (as the worked examples
    give them)."""
    if isinstance(value, Competitor):
        return value.number
    if isinstance(value, tuple):
        return tuple(_n(v) for v in value)
    return value

DATA = Path(__file__).resolve().parents[1] / "data" / "vp"

# The printed tables: (lowest margin, highest margin or None for "and more", winner's VPs).
ACBL_30_6TO8 = [(0, 0, 15), (1, 1, 18), (2, 2, 19), (3, 3, 20), (4, 4, 21), (5, 6, 22), (7, 8, 23), (9, 10, 24),
                (11, 13, 25), (14, 16, 26), (17, 19, 27), (20, 23, 28), (24, 27, 29), (28, None, 30)]
ACBL_20_6TO8 = [(0, 0, 10), (1, 2, 11), (3, 4, 12), (5, 7, 13), (8, 10, 14), (11, 13, 15), (14, 16, 16),
                (17, 19, 17), (20, 23, 18), (24, 27, 19), (28, None, 20)]
ACBL_20_9TO11 = [(0, 0, 10), (1, 2, 11), (3, 5, 12), (6, 9, 13), (10, 13, 14), (14, 17, 15), (18, 21, 16),
                 (22, 25, 17), (26, 30, 18), (31, 35, 19), (36, None, 20)]


@pytest.mark.parametrize("name, printed", [("acbl_30_6to8", ACBL_30_6TO8), ("acbl_20_6to8", ACBL_20_6TO8),
                                           ("acbl_20_9to11", ACBL_20_9TO11)])
def test_published_discrete_scales_row_by_row(name: str, printed: list[tuple[int, int | None, int]]) -> None:
    scale = vp.read_discrete((DATA / f"{name}.txt").read_text(), name)
    for low, high, won in printed:
        for margin in range(low, (high if high is not None else low + 10) + 1):
            assert scale.vp(margin) == won, (name, margin)
            assert scale.vp(-margin) == scale.total - won


def test_a_scale_that_could_not_jump_is_now_read() -> None:
    # Before: every step had to be one VP more than the one before, so the ACBL's 15-15 then 18-12 was
    # refused ("expected the step for 16 VPs").
    scale = vp.read_discrete("total 30\n15 0\n18 1\n", "jump")
    assert [scale.vp(m) for m in (0, 1, 5, -1)] == [15, 18, 18, 12]


# -- the event's state -----------------------------------------------------------------------------

def _play(state: EventState, tricks_at: dict[tuple[int, int], int] | None = None) -> list[object]:
    """Every result of the current round: 3NT by North, tricks from ``tricks_at[(table, board)]`` or 9."""
    d = state.draws[state.current]
    made = []
    for t in d.tables:
        for b in d.boards:
            made.append(state.apply(TableResult(d.round, t.table, b, "3NT", "N",
                                                (tricks_at or {}).get((t.table, b), 9))))
    return made


def test_teams_match_from_two_rooms_worked_example() -> None:
    # Round robin of 4 teams, 2 boards. Round 1 is 1 v 4 and 2 v 3 (the circle method). Match 1: open
    # room (table 1, team 1 North-South) board 1 3NT+1 by N = +430 (not vulnerable), closed room
    # (table 2, team 4 North-South) 3NT= = +400: team 1 +30 -> 1 IMP. Board 2 (N-S vulnerable) open
    # 3NT-1 = -100, closed 3NT+2 = +660: team 1 -760 -> 13 IMPs to team 4. Match: 1 - 13, margin -12
    # over 2 boards: blitz 21.21, so team 4 wins on the WBF scale.
    spec = EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2)
    state = EventState.opened(spec)
    assert _n(state.draws[1].matches) == ((1, 4), (2, 3))
    assert [_n((t.table, t.north, t.east, t.room)) for t in state.draws[1].tables] == [
        (1, 1, 4, "open"), (2, 4, 1, "closed"), (3, 2, 3, "open"), (4, 3, 2, "closed")]
    _play(state, {(1, 1): 10, (2, 1): 9, (1, 2): 8, (2, 2): 11})
    m = state.team_match(1, 1)
    assert [(b.board, b.home, b.away) for b in m.boards] == [(1, 1, -1), (2, -13, 13)]
    assert (m.home_imps, m.away_imps) == (1, 13)
    assert m.home_vp == vp.wbf_vp(-12, 2) and m.home_vp + m.away_vp == 20
    top = state.standings()
    assert top[0].competitor.number == 4 and top[0].vp == vp.wbf_vp(12, 2)


def test_next_draw_is_made_by_the_last_result_of_a_round_and_not_before() -> None:
    spec = EventSpec(EventKind.SWISS_TEAMS, 6, 3, 2)
    state = EventState.opened(spec)
    assert _n(state.draws[1].matches) == ((1, 4), (2, 5), (3, 6))
    made = _play(state, {(1, 1): 10, (3, 2): 10, (6, 1): 7})
    assert made[:-1] == [None] * (len(made) - 1)
    second = made[-1]
    assert second is not None and second.round == 2 and state.current == 2
    met = {frozenset(m) for m in state.draws[1].matches}
    assert not any(frozenset(m) in met for m in second.matches)
    # the standings after round 1 order the draw: the higher-placed is named first
    order = [s.competitor for s in state.standings()]
    assert all(order.index(a) < order.index(b) for a, b in second.matches)


def test_knockout_advances_the_winners_and_a_tie_goes_to_the_better_seed() -> None:
    spec = EventSpec(EventKind.KNOCKOUT, 4, 2, 1)
    state = EventState.opened(spec)
    assert _n(state.draws[1].matches) == ((1, 4), (2, 3))
    # match 1 (tables 1, 2): team 4 gains (closed room +430 v open +400); match 2 (tables 3, 4): equal.
    _play(state, {(2, 1): 10})
    assert _n(state.draws[2].matches) == ((2, 4),)
    _play(state)
    assert _n(state.knockout_winner()) == 2 and state.current == 3


def test_a_knockouts_places_follow_the_bracket_not_the_vps() -> None:
    """docs/competitions.md, "The event" and docs/scoring.md §10: the winner is first, the beaten finalist
    second, the semi-final's losers 3=. Before: the standings summed VPs, so team 1 (won its semi-final by
    24 IMPs, lost the final by 1) was placed 1 above the winner, team 3."""
    state = EventState.opened(EventSpec(EventKind.KNOCKOUT, 4, 2, 1))
    assert _n(state.draws[1].matches) == ((1, 4), (2, 3))
    # board 1, none vulnerable. Match 1: open 7NTXX by N making (+2280), closed 7NTXX by N 0 tricks
    # (-7000 with team 4 North-South): 24 IMPs to team 1. Match 2: 4S= v 4S+1 (+420, +450): 1 IMP to 3.
    for table, result in ((1, ("7NTXX", "N", 13)), (2, ("7NTXX", "N", 0)), (3, ("4S", "N", 10)),
                          (4, ("4S", "N", 11))):
        state.apply(TableResult(1, table, 1, *result))
    # after round 1 the two finalists share 1=, the two beaten teams 3=
    assert [(s.competitor.number, s.place) for s in state.standings()] == [(1, "1="), (3, "1="), (2, "3="), (4, "3=")]
    # the final (board 2, N-S vulnerable): 3NT= +600 in the open room, 3NT+1 +630 in the closed: 1 IMP to 3
    state.apply(TableResult(2, 1, 2, "3NT", "N", 9))
    state.apply(TableResult(2, 2, 2, "3NT", "N", 10))
    table = state.standings()
    assert _n(state.knockout_winner()) == 3
    assert [(s.competitor.number, s.place) for s in table] == [(3, "1"), (1, "2"), (2, "3="), (4, "3=")]
    # the beaten finalist has more VPs and is still second (docs/scoring.md §10's worked example)
    assert (table[0].vp, table[1].vp) == (Fraction(2240, 100), Fraction(2880, 100))


def test_a_tied_knockout_is_placed_by_the_better_seed_going_through() -> None:
    """Six teams, every match tied: the better seed goes through each time, so team 1 wins, team 2 is
    second, 3 and 4 (out in the semi-finals) 3=, 5 and 6 (out in round 1) 5=. Before: all 1= but 5 and 6."""
    state = EventState.opened(EventSpec(EventKind.KNOCKOUT, 6, 3, 1))
    while state.current <= 3:
        _play(state)
    assert _n(state.knockout_winner()) == 1
    assert [(s.competitor.number, s.place) for s in state.standings()] == [
        (1, "1"), (2, "2"), (3, "3="), (4, "3="), (5, "5="), (6, "5=")]


def test_a_knockout_bye_just_goes_through_scoring_no_vps() -> None:
    """docs/competitions.md, "A bye": it scores the event's bye VPs, "in a knock-out a bye just goes through".
    Five teams, three byes in round 1: each was credited the bye VPs (13) in the standings and the files."""
    spec = EventSpec(EventKind.KNOCKOUT, 5, 3, 1, bye_vp=Fraction(13))
    state = EventState.opened(spec)
    assert len(state.draws[1].byes) == 3 and spec.bye_score == 0
    _play(state)
    assert all(p.vp == 0 for p in state.played() if p.opponent is None)
    swiss = EventSpec(EventKind.SWISS_TEAMS, 5, 3, 1, bye_vp=Fraction(13))
    assert swiss.bye_score == 13


@pytest.mark.parametrize("bye, said", [(Fraction(-3), "got -3"), (Fraction(25), "got 25"),
                                       (Fraction(41, 2), "got 20.5")])
def test_a_bye_vp_out_of_range_is_quoted_as_typed(bye: Fraction, said: str) -> None:
    with pytest.raises(EventError, match=f"a bye's VPs are from 0 to 20, {said}$"):
        EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1, bye_vp=bye)


def test_swiss_pairs_margin_is_butler_over_the_round() -> None:
    # 4 pairs, one board a round: board 1 at table 1 (1 v 3) 3NT+1 = +430, table 2 (2 v 4) 3NT-1 = -50.
    # Two scores: datum (430 - 50) / 2 = 190; table 1 +240 -> 6 IMPs, table 2 -240 -> -6 IMPs.
    spec = EventSpec(EventKind.SWISS_PAIRS, 4, 3, 1)
    state = EventState.opened(spec)
    assert _n(state.draws[1].matches) == ((1, 3), (2, 4))
    _play(state, {(1, 1): 10, (2, 1): 8})
    m1, m2 = state.matches(1)
    assert _n((m1.first, m1.second, m1.first_imps, m1.first_vp)) == (1, 3, 6, vp.wbf_vp(6, 1))
    assert _n((m2.first, m2.second, m2.second_imps, m2.second_vp)) == (2, 4, 6, vp.wbf_vp(6, 1))
    assert _n(state.draws[2].matches) == ((1, 4), (2, 3)) or _n(state.draws[2].matches) == ((4, 1), (3, 2)) \
        or {frozenset(m) for m in _n(state.draws[2].matches)} == {frozenset((1, 4)), frozenset((3, 2))}


def test_individual_seats_players_per_round_and_scores_each() -> None:
    spec = EventSpec(EventKind.INDIVIDUAL, 8, 7, 1)
    state = EventState.opened(spec)
    first = state.draws[1].tables
    # the published 8-player table (docs/movements.md): round 1 is 8-1 v 5-7 and 2-6 v 4-3
    assert [_n((t.north, t.south, t.east, t.west)) for t in first] == [(8, 1, 5, 7), (2, 6, 4, 3)]
    _play(state, {(1, 1): 10})
    assert [_n((t.north, t.south, t.east, t.west)) for t in state.draws[2].tables] == [(8, 2, 6, 1), (3, 7, 5, 4)]
    # board 1: table 1 North-South (8, 1) +430 beat table 2's +400, so table 2's East-West (4, 3) beat
    # table 1's: those four have the top, the others nothing.
    tops = {p.player.number for p in state.player_standings() if p.percent == Fraction(100)}
    assert tops == {8, 1, 4, 3}


@pytest.mark.parametrize("result, words", [
    (TableResult(2, 1, 3, "3NT", "N", 9), "round 2 is not drawn yet"),
    (TableResult(1, 9, 1, "3NT", "N", 9), "round 1 has no table 9"),
    (TableResult(1, 1, 7, "3NT", "N", 9), "board 7 is not played at table 1 in round 1"),
])
def test_results_refused_name_what_and_where(result: TableResult, words: str) -> None:
    state = EventState.opened(EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2))
    assert state.check(result) == words + state.check(result)[len(words):]  # type: ignore[index]
    with pytest.raises(EventError, match=words):
        state.apply(result)


def test_a_second_result_for_a_board_is_refused_and_a_repeat_is_not() -> None:
    state = EventState.opened(EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2))
    first = TableResult(1, 1, 1, "4S", "S", 10)
    state.apply(first)
    assert state.check(first) is None
    assert "already has a result" in (state.check(TableResult(1, 1, 1, "4S", "S", 9)) or "")


@pytest.mark.parametrize("data, words", [
    ({"round": 1, "table": 1, "board": 1, "contract": "8S", "declarer": "N", "tricks": 9}, "level"),
    ({"round": 1, "table": 1, "board": 1, "contract": "3NT", "declarer": "Q", "tricks": 9}, "declarer is N"),
    ({"round": 1, "table": 1, "board": 1, "contract": "Pass", "declarer": "N"}, "passed-out"),
    ({"round": 0, "table": 1, "board": 1, "contract": "Pass"}, "round is a whole number"),
    ({"round": 1, "table": 1, "board": 1, "assigned": 55}, "multiple of 10"),
    ({"round": 1, "table": 1, "board": 1, "contract": "3NT", "declarer": "N", "tricks": 14}, "tricks"),
    ({"round": 1, "table": 1, "board": 1, "x": 1}, "no field 'x'"),
])
def test_result_from_outside_refused(data: dict[str, object], words: str) -> None:
    with pytest.raises(EventError, match=words):
        TableResult.from_dict(data)


@pytest.mark.parametrize("data, words", [
    ({"kind": "darts", "entrants": 4, "rounds": 3, "boards_per_round": 2}, "kind is one of"),
    ({"kind": "teams-round-robin", "entrants": 4, "rounds": 2, "boards_per_round": 2}, "has 3 rounds"),
    ({"kind": "teams-knockout", "entrants": 5, "rounds": 2, "boards_per_round": 2}, "has 3 rounds"),
    ({"kind": "individual", "entrants": 10, "rounds": 9, "boards_per_round": 2}, "individual is for"),
    ({"kind": "individual", "entrants": 16, "rounds": 15, "boards_per_round": 2, "individual": "published"},
     "the published individual for 16 players has 12 rounds, got 15"),
    ({"kind": "individual", "entrants": 16, "rounds": 12, "boards_per_round": 2},
     "the balanced individual for 16 players has 15 rounds, got 12"),
    ({"kind": "individual", "entrants": 8, "rounds": 7, "boards_per_round": 2, "individual": "printed"},
     "an individual's table is one of balanced, published"),
    ({"kind": "individual", "entrants": 8, "rounds": 7, "boards_per_round": 2, "individual": ["published"]},
     "an individual's table is one of balanced, published"),
    ({"kind": "swiss-teams", "entrants": 4, "rounds": 3, "boards_per_round": 2, "individual": "published"},
     "only an individual chooses its table"),
    ({"kind": "swiss-teams", "entrants": 4, "rounds": 4, "boards_per_round": 2}, "at most 3 rounds"),
    ({"kind": "swiss-teams", "entrants": 4, "rounds": 3, "boards_per_round": 2, "bye_vp": "x"}, "bye's VPs"),
])
def test_spec_refused(data: dict[str, object], words: str) -> None:
    with pytest.raises(EventError, match=words):
        EventSpec.from_dict(data)


def test_spec_round_trips_with_a_discrete_scale() -> None:
    scale = vp.read_discrete((DATA / "acbl_20_6to8.txt").read_text(), "acbl")
    spec = EventSpec(EventKind.SWISS_TEAMS, 9, 5, 7, scale, Fraction(12), "Winter Swiss")
    assert EventSpec.from_dict(spec.to_dict()) == spec


def test_odd_swiss_gives_the_bye_its_vps() -> None:
    state = EventState.opened(EventSpec(EventKind.SWISS_TEAMS, 5, 3, 1))
    assert _n(state.draws[1].byes) == (5,)
    _play(state)
    five = next(s for s in state.standings() if s.competitor.number == 5)
    assert five.vp == 12 and five.byes == 1
    assert 5 not in _n(state.draws[2].byes)


# -- pairs in sections -----------------------------------------------------------------------------

def test_sections_across_the_field_worked_example() -> None:
    # Sections A and B, each a 3-table Mitchell of one board a round (boards 1-3), scored across the
    # field. Board 1's North-South scores: A1 +420 (4S=), A3 +170 (2S+2), A2 -50 (4S-1); B1 +450 (4S+1),
    # B2 +170, B3 -50. Boards 2 and 3 are 3NT= everywhere. Across the field (North-South): B1, then A1,
    # then A3 and B2 equal, then A2 and B3 equal; within section A: A1, A3, A2.
    from laws.competition.event_sections import score_sections
    from laws.competition.event_spec import SectionSpec

    spec = EventSpec(EventKind.SECTIONS, 12, 3, 1, sections=(SectionSpec("A", 3), SectionSpec("B", 3)), across=True)
    state = EventState.opened(spec)
    assert [_n((t.table, t.section, t.north, t.east, t.boards)) for t in state.draws[1].tables] == [
        (1, "A", 1, 1, (1,)), (2, "A", 2, 2, (2,)), (3, "A", 3, 3, (3,)),
        (4, "B", 1, 1, (1,)), (5, "B", 2, 2, (2,)), (6, "B", 3, 3, (3,))]
    board1 = {("A", 1): ("4S", 10), ("A", 3): ("2S", 10), ("A", 2): ("4S", 9),
              ("B", 1): ("4S", 11), ("B", 2): ("2S", 10), ("B", 3): ("4S", 9)}
    made = []
    while state.current <= 3:
        d = state.draws[state.current]
        for t in d.tables:
            for b in t.boards:
                contract, tricks = board1[(t.section, t.north.number)] if b == 1 else ("3NT", 9)
                made.append(state.apply(TableResult(d.round, t.table, b, contract, "N", tricks)))
    assert [m.round for m in made if m is not None] == [2, 3]
    rankings = dict(score_sections(state).rankings)
    field = [(place, sp.label) for place, sp, _s in rankings["field NS"]]
    assert field == [("1", "B1 NS"), ("2", "A1 NS"), ("3=", "A3 NS"), ("3=", "B2 NS"), ("5=", "A2 NS"),
                     ("5=", "B3 NS")]
    assert [sp.label for _p, sp, _s in rankings["A NS"]] == ["A1 NS", "A3 NS", "A2 NS"]


def test_sections_refused() -> None:
    from laws.competition.event_spec import SectionSpec

    with pytest.raises(EventError, match="every section plays the event's rounds"):
        EventSpec(EventKind.SECTIONS, 18, 5, 2, sections=(SectionSpec("A", 5), SectionSpec("B", 4)))
    with pytest.raises(EventError, match="seat 20 pairs, the event has 18"):
        EventSpec(EventKind.SECTIONS, 18, 5, 2, sections=(SectionSpec("A", 5), SectionSpec("B", 5)))
    with pytest.raises(EventError, match="given twice"):
        EventSpec(EventKind.SECTIONS, 20, 5, 2, sections=(SectionSpec("A", 5), SectionSpec("A", 5)))
    with pytest.raises(EventError, match="a section's name is 1 to 8 letters or digits, got 'A!'"):
        EventSpec(EventKind.SECTIONS, 20, 5, 2, sections=(SectionSpec("A!", 5),))
    spec = EventSpec(EventKind.SECTIONS, 20, 5, 2, sections=(SectionSpec("A", 5), SectionSpec("B", 5)), across=True)
    assert EventSpec.from_dict(spec.to_dict()) == spec


def test_the_benches_run_and_report_their_figures() -> None:
    import time

    from laws.competition.bench import bench_event_draw, bench_sections, bench_swiss

    for figures in (bench_swiss(time.perf_counter, repeats=1, teams=12, cpu=time.process_time),
                    bench_event_draw(time.perf_counter, repeats=1, teams=12, cpu=time.process_time),
                    bench_sections(time.perf_counter, repeats=1, tables=3, boards=3, cpu=time.process_time)):
        assert {"median_ms", "max_ms", "cpu_median_ms", "target_ms"} <= set(figures)


def two_triangles(tricks: Callable[[int], int]) -> tuple[EventState, RoundDraw | None]:
    """Six Swiss teams whose three rounds used every match between {1, 2, 3} and {4, 5, 6} (docs/scoring.md
    section 11's worked example): what is left is two triangles, so round 4 has no draw without a repeat.
    Every round-3 result but table 6's is in, each table's declarer taking ``tricks(table)``; table 6's
    (9 tricks) is applied last. The event's state, and the round 4 that last result drew (the laws' test
    and the event's pages, tests/events/test_event_swiss_repeats.py, start from it)."""
    spec = EventSpec(EventKind.SWISS_TEAMS, 6, 5, 1)
    state = EventState(spec)
    for r, numbers in ((1, ((1, 4), (2, 5), (3, 6))), (2, ((1, 5), (2, 6), (3, 4))), (3, ((1, 6), (2, 4), (3, 5)))):
        matches = tuple((spec.entrant(a), spec.entrant(b)) for a, b in numbers)
        state.draws[r] = RoundDraw(r, matches, (), tables_of(spec, r, matches), spec.boards(r))
        for t in state.draws[r].tables:
            if (r, t.table) != (3, 6):
                state.results[(r, t.table, r)] = TableResult(r, t.table, r, "3NT", "N", tricks(t.table))
    state.recount()
    return state, state.apply(TableResult(3, 6, 3, "3NT", "N", 9))


def test_a_swiss_round_that_must_repeat_is_drawn_with_the_fewest_repeats_and_names_them() -> None:
    # The two triangles (two_triangles): before, round 3's last result raised (and a service would have
    # journaled it and stopped drawing); then round 4 was drawn in order of the standings, 1 v 2, 3 v 4,
    # 5 v 6, whatever that repeated. Now: one repeat, the fewest, the draw top down.
    state, made = two_triangles(lambda table: 9 + table % 2)
    assert made is not None and made.round == 4
    order = [s.competitor.number for s in state.standings()]
    assert order == [1, 2, 3, 4, 5, 6]                   # each match's two rooms cancel out: all equal
    assert _n(made.matches) == ((1, 2), (3, 4), (5, 6))
    assert _n(made.repeats) == ((3, 4),) and made.to_dict()["repeats"] == [[3, 4]] and made.repeated(2)


# -- the director's average-plus / average-minus awards (docs/scoring.md §5, §10) ------------------

def test_a_teams_award_is_the_board_s_imps_for_each_team_whichever_room() -> None:
    # Round robin of 4 teams, 1 board: match 1 is 1 v 4 (team 1 home: North-South in the open room,
    # table 1). The director gives the closed room (table 2, team 4 North-South) A-/A+: team 4 average-
    # minus, team 1 average-plus: one result of 3 IMPs to team 1, whatever the open room did.
    state = EventState.opened(EventSpec(EventKind.ROUND_ROBIN, 4, 3, 1))
    assert _n(state.draws[1].matches[0]) == (1, 4)
    state.apply(TableResult(1, 1, 1, "3NT", "N", 12))
    state.apply(TableResult(1, 2, 1, "", adjusted="A-/A+"))
    match = state.team_match(1, 1)
    assert (match.home_imps, match.away_imps) == (3, 0) and match.boards[0].adjusted
    # the open room may not give the board other awards for the teams
    why = state.check(TableResult(1, 1, 1, "", adjusted="A+/A+"))
    assert why is not None and "already has a result" in why
    other = EventState.opened(EventSpec(EventKind.ROUND_ROBIN, 4, 3, 1))
    other.apply(TableResult(1, 2, 1, "", adjusted="A-/A+"))
    assert "already adjusted at table 2 (home A+, away A-)" in (
        other.check(TableResult(1, 1, 1, "", adjusted="A=/A=")) or "")
    assert other.check(TableResult(1, 1, 1, "", adjusted="A+/A-")) is None   # the same awards: allowed
    # a correction may not give the other room other awards either (the open room played; the director
    # then corrects it to awards that disagree with the closed room's)
    other.apply(TableResult(1, 1, 1, "3NT", "N", 9))
    with pytest.raises(EventError, match="already adjusted at table 2"):
        other.correct(TableResult(1, 1, 1, "", adjusted="A-/A-"))
    other.correct(TableResult(1, 1, 1, "", adjusted="A+/A-"))
    assert other.team_match(1, 1).home_imps == 3


def test_a_swiss_pairs_award_is_out_of_the_datum() -> None:
    # Swiss pairs, 6 pairs, 1 board: tables 1 and 2 score +430 and -50; table 3 is given A+/A+. The
    # datum is over tables 1 and 2 only (190): table 1's North-South +6 IMPs, table 2's -6; table 3's
    # awards are +3 each, a margin of 0 (each side's own).
    state = EventState.opened(EventSpec(EventKind.SWISS_PAIRS, 6, 3, 1))
    state.apply(TableResult(1, 1, 1, "3NT", "N", 10))
    state.apply(TableResult(1, 2, 1, "3NT", "N", 8))
    state.apply(TableResult(1, 3, 1, "", adjusted="A+/A+"))
    assert state.butler_imps(1) == {(1, 1): 6, (2, 1): -6}
    assert state.adjusted_imps(1) == {(3, 1): (3, 3)}
    margins = [(m.first_imps, m.second_imps) for m in state.matches(1)]
    assert margins == [(6, 0), (0, 6), (3, 3)]
    assert [m.first_vp for m in state.matches(1)][2] == vp.wbf_vp(0, 1)


def test_a_swiss_pairs_match_gives_each_side_what_it_gained_board_by_board() -> None:
    # docs/scoring.md sections 10-11: a match's IMPs are each side's gains summed over its boards, as a
    # teams match's (the results PBN's MatchTable had only the net margin, 0-2 here, where it is 10-12).
    # 4 pairs, 3 boards: table 1 (1 v 3) gains +7 on board 1, loses 9 on board 2, A+/A+ on board 3.
    state = EventState.opened(EventSpec(EventKind.SWISS_PAIRS, 4, 3, 3))
    for table, board, contract, tricks in ((1, 1, "6NT", 12), (2, 1, "3NT", 9), (1, 2, "3NT", 9),
                                           (2, 2, "6NT", 12), (2, 3, "3NT", 9)):
        state.apply(TableResult(1, table, board, contract, "N", tricks))
    state.apply(TableResult(1, 1, 3, "", adjusted="A+/A+"))
    assert state.butler_imps(1) == {(1, 1): 7, (2, 1): -7, (1, 2): -9, (2, 2): 9, (2, 3): 0}
    m1, m2 = state.matches(1)
    assert _n((m1.first, m1.second, m1.first_imps, m1.second_imps)) == (1, 3, 7 + 3, 9 + 3)
    assert _n((m2.first, m2.second, m2.first_imps, m2.second_imps)) == (2, 4, 9, 7)
    assert (m1.first_vp, m1.second_vp) == (vp.wbf_vp(-2, 3), vp.wbf_vp(2, 3))   # the margin is unchanged
    net = {p.competitor.number: p.net_imps for p in state.standings()}
    assert net == {1: -2, 2: 2, 3: 2, 4: -2}


def test_an_individual_award_is_its_share_of_the_top() -> None:
    # 8 players, 1 board a round: table 1 plays 3NT making (+400), table 2 is given A+/A- (60 % and 40 %
    # of the top of 2 for the 2 results due): table 2's North-South 1.2, East-West 0.8; table 1's result,
    # compared with nothing, is factored to 2 results by Neuberg: (0 + 1) x 2/1 - 1 = 1 each way.
    state = EventState.opened(EventSpec(EventKind.INDIVIDUAL, 8, 7, 1))
    state.apply(TableResult(1, 1, 1, "3NT", "N", 9))
    state.apply(TableResult(1, 2, 1, "", adjusted="A+/A-"))
    points = state.individual_boards()
    assert points[(1, 2, 1)][:2] == (Fraction(6, 5), Fraction(4, 5))
    assert points[(1, 1, 1)][:2] == (Fraction(1), Fraction(1))


@pytest.mark.parametrize("data, words", [
    ({"adjusted": "A+"}, "each A+, A= or A-"),
    ({"adjusted": "A+/B"}, "each A+, A= or A-"),
    ({"adjusted": "A+/A-", "contract": "3NT"}, "with no contract"),
    ({"adjusted": "A+/A-", "assigned": 420}, "with no contract or assigned score"),
])
def test_an_award_that_is_not_one_is_refused(data: dict[str, object], words: str) -> None:
    with pytest.raises(EventError, match=re.escape(words)):
        TableResult.from_dict({"round": 1, "table": 1, "board": 1, **data})
    good = TableResult.from_dict({"round": 1, "table": 1, "board": 1, "adjusted": "A=/A-"})
    assert good.awards == ("A=", "A-") and TableResult.from_dict(good.to_dict()) == good


def test_an_individual_playing_the_published_sixteen_round_trips_and_seats_it() -> None:
    """The club chose the published 16-player card (12 rounds): the setup keeps the choice, and each round's
    tables are the card's (round 1, table 1: 16-1 v 2-7)."""
    spec = EventSpec(EventKind.INDIVIDUAL, 16, 12, 2, individual="published")
    assert spec.to_dict()["individual"] == "published" and EventSpec.from_dict(spec.to_dict()) == spec
    assert "individual" not in EventSpec(EventKind.INDIVIDUAL, 16, 15, 2).to_dict()   # as before: the default
    state = EventState.opened(spec)
    first = state.draws[1].tables[0]
    assert (first.north.number, first.south.number, first.east.number, first.west.number) == (16, 1, 2, 7)


def test_a_barometer_section_plays_the_round_s_boards_at_every_table() -> None:
    """Sections may play a barometer (every table the round's board group: ``docs/competitions.md``), beside a
    Mitchell and across the field: section A's five tables all play boards 1-2 in round 1, B's Mitchell
    passes its groups from table to table."""
    from laws.competition.event_spec import SectionSpec

    spec = EventSpec(EventKind.SECTIONS, 20, 5, 2, across=True,
                     sections=(SectionSpec("A", 5, "barometer"), SectionSpec("B", 5)))
    state = EventState.opened(spec)
    boards = {(t.section, t.table): t.boards for t in state.draws[1].tables}
    assert {boards[("A", t)] for t in range(1, 6)} == {(1, 2)}
    assert len({boards[("B", t)] for t in range(6, 11)}) == 5
    assert EventSpec.from_dict(spec.to_dict()) == spec
