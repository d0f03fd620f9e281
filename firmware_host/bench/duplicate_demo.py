"""``cardtable bench duplicate-demo``: what a whole evening of real tables costs (``cardtable duplicate demo``).

Cases: the issue's session (an 8-table Mitchell of 24 boards, 2 misboarded: 168 results at eight real
tables), repeated ``runs`` times with the same seed; a 4-table Howell of 14 boards and a 4-table barometer
of 8 boards (each table's virtual shoe dealing every board), once each. For each: the wall time of the
run and of its parts (``DemoResult.phases``: setting up with the tables started, playing, the tables
stopped, the results written and checked), this process's CPU (every table, its people, publisher, panel
and virtual shoe, and the session: everything but the Mosquitto broker, a process of its own), the
inputs the people entered, and per result confirmed: CPU and wall. Medians over the runs; no timing is
asserted (``docs/benchmarks.md`` has the figures). ``--quick``: a 3-table Mitchell of 6 boards, once.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_host.bench.report import report

CASES = (("mitchell", 8, 24, 2), ("howell", 4, 14, 2), ("barometer", 4, 8, 2))
SEED = 20251130


def measure(movement: str, tables: int, boards: int, foul: int, runs: int = 1, seed: int = SEED,
            analyse: bool = True) -> dict[str, Any]:
    """Median figures of ``runs`` demos of that size (each in a fresh folder)."""
    from firmware_host.evening.duplicate_evening import DuplicateDemo

    walls, cpus, played, inputs, results, problems = [], [], [], [], 0, 0
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="cardtable-bench-evening-") as tmp:
            demo = DuplicateDemo(Path(tmp) / "out", tables, boards, movement, foul=foul, seed=seed, analyse=analyse)
            c0 = time.process_time()
            r = demo.run()
            cpus.append(time.process_time() - c0)
            walls.append(r.seconds)
            played.append(r.phases.get("played", 0.0))
            inputs.append(r.inputs)
            results = sum(len(demo.movement.boards_of(s.group)) for s in demo.movement.seatings if s.played)
            problems += len(r.problems)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    return {"runs": runs, "results": results, "inputs": int(statistics.median(inputs)),
            "wall_s": round(wall, 2), "played_s": round(statistics.median(played), 2), "cpu_s": round(cpu, 2),
            "cpu_per_result_ms": round(1000 * cpu / results, 1), "wall_per_result_ms": round(1000 * wall / results, 1),
            "inputs_per_s": round(statistics.median(inputs) / statistics.median(played), 0),
            "fouls_not_checking_out": problems}


def run(args: argparse.Namespace) -> int:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        report("duplicate-demo: an evening of real tables", {"skipped": "mosquitto is not installed"}, args)
        return 0
    quick = bool(getattr(args, "quick", False))
    figures: dict[str, Any] = {}
    cases = (("mitchell", 3, 6, 1),) if quick else CASES
    for i, (movement, tables, boards, foul) in enumerate(cases):
        runs = 3 if i == 0 and not quick else 1
        figures[f"{movement} {tables}x{boards}"] = measure(movement, tables, boards, foul, runs=runs,
                                                          analyse=not quick)
    report("duplicate-demo: an evening of real tables", figures, args)
    return 0
