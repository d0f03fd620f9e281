"""``cardtable bench duplicate``: a duplicate session's scoring and its hand records' analysis.

- **Full rescore**: ``laws.scoring.session_bench.bench_session`` on a 30-table Mitchell of 27 boards
  (810 results), matchpoints and Butler IMPs, medians of repeats (target under 50 ms).
- **A Swiss round's draw** for 60 teams after eight rounds, and **a two-section event's whole rescore**
  (two 25-table Mitchells of 27 boards across the field): ``laws.competition.bench`` (targets under
  100 ms each).
- **Every page of a two-section event** (two 25-table Mitchells, one board a round, section A's arrows
  switched in the last round, every pair named, 1,250 results): the director's view and all 50 tables'
  views (``firmware_host.events.views``), as the event service makes them after a change.
- **Double dummy and par for 36 boards**: ``firmware_host.session.analysis.analyse`` against endplay
  called directly on the same deals (``calc_all_tables`` then ``par`` per board), the two alternating
  run by run so that neither always meets a warm cache (ours with the process's solved deals, ``SOLVED``,
  forgotten before each run, so that it solves too); the overhead is the ratio of the medians (target at
  most 1.10).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from firmware_host.bench.report import report
from laws.cards import SEATS


def _boards(n: int, seed: int) -> list[Any]:
    from laws.duplicate.deal import Board, Deal

    rng = random.Random(seed)  # a benchmark's deals, not a tournament's: a seeded shuffle is enough here
    out = []
    for number in range(1, n + 1):
        seats = [s for s in SEATS for _ in range(13)]
        rng.shuffle(seats)
        out.append(Board.numbered(number, Deal.from_assignment(seats)))
    return out


def analysis_figures(boards: int = 36, repeats: int = 5, seed: int = 7) -> dict[str, Any]:
    """Median seconds of our analysis and of endplay alone on the same ``boards`` deals."""
    import endplay.dds as dds
    from endplay.types import Deal, Player, Vul

    from firmware_host.session.analysis import SOLVED, analyse

    records = _boards(boards, seed)
    vul = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    player = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}

    def direct() -> None:
        tables = dds.calc_all_tables([Deal(b.deal.pbn()) for b in records])
        for b, table in zip(records, tables):
            dds.par(table, vul[b.vulnerability.value], player[b.dealer.value])

    ours: list[float] = []
    theirs: list[float] = []

    def solved() -> None:
        SOLVED.clear()      # a solve each run, as endplay's: not the process's cache answering
        analyse(records)

    runs = [(solved, ours), (direct, theirs)]
    for r in range(repeats):
        for fn, into in (runs if r % 2 == 0 else runs[::-1]):
            t0 = time.perf_counter()
            fn()
            into.append(time.perf_counter() - t0)
    med_o, med_t = statistics.median(ours), statistics.median(theirs)
    return {"boards": boards, "repeats": repeats, "ours_median_s": round(med_o, 4),
            "endplay_median_s": round(med_t, 4), "overhead_ratio": round(med_o / med_t, 4),
            "target_ratio": 1.10}


def scratch_figures(boards: int = 12, repeats: int = 6, seed: int = 7) -> dict[str, Any]:
    """Median wall and CPU seconds of the same ``calc_all_tables`` call in the caller's thread and in
    ``analysis.in_scratch_folder`` (a thread with a scratch working folder of its own, so a DDS dump
    never lands in the user's folder), alternating run by run."""
    import endplay.dds as dds
    from endplay.types import Deal

    from firmware_host.session.analysis import in_scratch_folder

    records = _boards(boards, seed)

    def direct() -> object:
        return list(dds.calc_all_tables([Deal(b.deal.pbn()) for b in records]))

    runs: dict[str, tuple[list[float], list[float]]] = {"caller": ([], []), "scratch": ([], [])}
    order = [("caller", direct), ("scratch", lambda: in_scratch_folder(direct))]
    for r in range(repeats):
        for name, fn in (order if r % 2 == 0 else order[::-1]):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            runs[name][0].append(time.perf_counter() - t0)
            runs[name][1].append(time.process_time() - c0)
    out: dict[str, Any] = {"boards": boards, "repeats": repeats}
    for name, (wall, cpu) in runs.items():
        out[f"{name}_median_s"] = round(statistics.median(wall), 3)
        out[f"{name}_cpu_median_s"] = round(statistics.median(cpu), 3)
    return out


def section_pages_figures(repeats: int = 5, tables: int = 25) -> dict[str, Any]:
    """Median time of the director's view and every table's view of a played two-section event."""
    from firmware_host.events.views import director_view, table_view
    from laws.competition.event import EventState
    from laws.competition.event_spec import EventKind, EventSpec, SectionSpec, pair_id, section_pairs
    from laws.competition.table_result import TableResult

    spec = EventSpec(EventKind.SECTIONS, 4 * tables, tables, 1, name="bench", sections=(
        SectionSpec("A", tables, "mitchell", (tables,)), SectionSpec("B", tables, "mitchell")))
    state = EventState.opened(spec)
    for k, (section, pair) in enumerate(section_pairs(spec), 1):
        state.names[k] = {"name": "", "players": [{"name": f"Player {section}{pair_id(pair)}a", "member": "",
                                                   "federation": ""}]}
    contracts = (("4S", "N", 10), ("3NT", "E", 9), ("2H", "S", 8), ("4H", "W", 9))
    k = 0
    while state.current <= spec.rounds:
        d = state.draws[state.current]
        for t in d.tables:
            for b in t.boards:
                k += 1
                contract, declarer, tricks = contracts[(k * 7 + t.table) % len(contracts)]
                state.apply(TableResult(d.round, t.table, b, contract, declarer, tricks + (k * 3 + b) % 3 - 1))
    club = tuple(f"t{n}" for n in range(1, 2 * tables + 1))
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        director_view(state, club)
        for t in club:
            table_view(state, club, t)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return {"tables": 2 * tables, "results": len(state.results), "repeats": repeats,
            "median_ms": round(statistics.median(wall) * 1000, 1), "max_ms": round(max(wall) * 1000, 1),
            "cpu_median_ms": round(statistics.median(cpu) * 1000, 1)}


def run(args: argparse.Namespace) -> int:
    from laws.scoring import Method
    from laws.scoring.session_bench import bench_session

    quick = bool(getattr(args, "quick", False))
    figures: dict[str, Any] = {}
    for method in (Method.MATCHPOINTS, Method.BUTLER):
        figures[f"full rescore, {method.value}"] = bench_session(time.perf_counter, repeats=3 if quick else 15,
                                                                 method=method)
    from laws.competition.bench import bench_event_draw, bench_sections, bench_swiss

    cpu = time.process_time   # beside the wall clock: the machine is shared, the CPU time says what is ours
    figures["Swiss draw, 60 teams, round 9"] = bench_swiss(time.perf_counter, repeats=3 if quick else 15, cpu=cpu)
    figures["Swiss teams event, 60 teams: round 8's last result to round 9's draw"] = bench_event_draw(
        time.perf_counter, repeats=3 if quick else 15, cpu=cpu)
    figures["two sections across the field, 50 tables"] = bench_sections(time.perf_counter,
                                                                          repeats=2 if quick else 5, cpu=cpu)
    figures["every page of a two-section event, 50 tables"] = section_pages_figures(repeats=2 if quick else 5)
    figures["double dummy and par"] = analysis_figures(boards=4 if quick else 36, repeats=1 if quick else 5)
    figures["DDS in a scratch folder"] = scratch_figures(boards=1 if quick else 12, repeats=1 if quick else 6)
    report("duplicate: scoring a session and analysing its boards", figures, args)
    return 0
