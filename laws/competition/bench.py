"""What ``cardtable bench duplicate`` measures of the events beyond one pairs field (the clock passed in).

* a Swiss round's draw for 60 teams after eight rounds (the standings and the draw; target under 100 ms);
* a whole rescore of a two-section event of 50 tables (two Mitchells of 25 tables, 27 boards, scored
  across the field and ranked in each section and the field; target under 100 ms);
* the event's path (``laws.competition.event``): in a 60-team Swiss teams event of 4 boards a round,
  the last result of round 8 taken, which scores every match of the eight rounds from the rooms'
  results, makes the standings and draws round 9 (target under 100 ms).

The results are made up by a fixed arithmetic rule, not at random, so every run measures the same work.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from laws.competition.event import EventState
from laws.competition.event_spec import EventKind, EventSpec
from laws.competition.sections import Across, SectionLine, score_event
from laws.competition.swiss import Played, draw, standings
from laws.competition.table_result import TableResult
from laws.competition.vp import wbf_vp
from laws.competitors import Competitor, team
from laws.scoring.session_bench import sample_mitchell
from laws.scoring.session_values import Method

TARGET_MS = 100.0


def entrants_of(teams: int) -> list[Competitor]:
    """Teams 1 to ``teams``."""
    return [team(n) for n in range(1, teams + 1)]


def swiss_history(teams: int = 60, rounds: int = 8, entrants: list[Competitor] | None = None) -> list[Played]:
    """``rounds`` rounds of a Swiss of ``teams`` teams (``entrants``, or teams 1 to ``teams``), drawn by
    :func:`draw`, with made-up margins."""
    entrants = entrants_of(teams) if entrants is None else entrants
    played: list[Played] = []
    for r in range(1, rounds + 1):
        d = draw(r, standings(entrants, played))
        for k, (a, b) in enumerate(d.matches):
            m = (a.number * 7 + b.number * 13 + r * 5 + k) % 61 - 30
            played += [Played(r, a, b, wbf_vp(m, 8), max(m, 0), max(-m, 0)),
                       Played(r, b, a, wbf_vp(-m, 8), max(-m, 0), max(m, 0))]
        if d.bye is not None:
            played.append(Played(r, d.bye, None, Fraction(12)))
    return played


def _timed(clock: Callable[[], float], cpu: Callable[[], float] | None, work: Callable[[], object],
           repeats: int, prepare: Callable[[], object] | None = None) -> dict[str, Any]:
    """Medians (and the wall clock's max) of ``work`` timed ``repeats`` times, wall and, given ``cpu``, CPU."""
    wall, used = [], []
    for _ in range(repeats):
        if prepare is not None:
            prepare()
        t0, c0 = clock(), cpu() if cpu else 0.0
        work()
        wall.append((clock() - t0) * 1000)
        used.append(((cpu() if cpu else 0.0) - c0) * 1000)
    out = {"repeats": repeats, "median_ms": round(statistics.median(wall), 2), "max_ms": round(max(wall), 2)}
    if cpu is not None:
        out["cpu_median_ms"] = round(statistics.median(used), 2)
    return out | {"target_ms": TARGET_MS}


def bench_swiss(clock: Callable[[], float], repeats: int = 15, teams: int = 60,
                cpu: Callable[[], float] | None = None) -> dict[str, Any]:
    """The median time of the ninth round's standings and draw of a ``teams``-team Swiss."""
    entrants = entrants_of(teams)    # the same values the history holds, as an event's spec gives them
    played = swiss_history(teams, entrants=entrants)
    return {"teams": teams, "round": 9} | _timed(clock, cpu, lambda: draw(9, standings(entrants, played)), repeats)


def bench_sections(clock: Callable[[], float], repeats: int = 5, tables: int = 25, boards: int = 27,
                   cpu: Callable[[], float] | None = None) -> dict[str, Any]:
    """The median time of a whole rescore of two ``tables``-table sections scored across the field."""
    numbers, lines, fields = sample_mitchell(tables, boards)
    spec = {s: (numbers, tables, fields) for s in ("A", "B")}
    all_lines = [SectionLine(s, ln) for s in ("A", "B") for ln in lines]
    return {"sections": 2, "tables": 2 * tables, "boards": boards, "results": len(all_lines)} | _timed(
        clock, cpu, lambda: score_event(spec, all_lines, Method.MATCHPOINTS, Across.YES), repeats)


_CONTRACTS = (("4S", "N", 10), ("3NT", "E", 9), ("2H", "S", 8), ("4H", "W", 9), ("1NT", "N", 8), ("5D", "E", 11))


def swiss_event(teams: int = 60, rounds: int = 8, boards: int = 4) -> tuple[EventState, TableResult]:
    """A Swiss teams event played up to the last result of round ``rounds``, and that result."""
    state = EventState.opened(EventSpec(EventKind.SWISS_TEAMS, teams, rounds + 1, boards))
    k = 0
    last: TableResult | None = None
    for r in range(1, rounds + 1):
        d = state.draws[r]
        todo = []
        for t in d.tables:
            for b in d.boards:
                k += 1
                contract, declarer, tricks = _CONTRACTS[(k * 7 + t.table) % len(_CONTRACTS)]
                todo.append(TableResult(r, t.table, b, contract, declarer, tricks + (k * 3 + b) % 3 - 1))
        for res in todo[:-1] if r == rounds else todo:
            state.apply(res)
        last = todo[-1]
    assert last is not None
    return state, last


def _copy(state: EventState) -> EventState:
    out = EventState(state.spec)
    out.draws, out.results = dict(state.draws), dict(state.results)
    out.recount()
    return out


def bench_event_draw(clock: Callable[[], float], repeats: int = 15, teams: int = 60,
                     cpu: Callable[[], float] | None = None) -> dict[str, Any]:
    """The median time from the round's last result taken to the next round drawn, in a Swiss teams event."""
    state, last = swiss_event(teams)
    fresh: list[EventState] = []

    def prepare() -> None:
        fresh[:] = [_copy(state)]

    def work() -> None:
        made = fresh[0].apply(last)
        assert made is not None and made.round == 9

    return {"teams": teams, "rounds_scored": 8, "boards_per_round": 4} | _timed(clock, cpu, work, repeats, prepare)
