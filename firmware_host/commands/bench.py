"""``cardtable bench NAME``: the benchmarks. Each is a function ``run(args) -> int`` in a module."""

from __future__ import annotations

import argparse
import importlib

# name -> "module:function"; every benchmark prints medians and ratios measured in the same run.
BENCHES: dict[str, str] = {
    "table": "firmware_host.bench_table:run",
    "e2e": "firmware_host.bench_e2e:run",
    "journal": "firmware_host.host_bench:journal",
    "panel": "firmware_host.host_bench:panel",
    "link": "firmware_host.shoe.bench:run",
    "vision": "vision.bench:run",
    "club": "firmware_host.club.bench:club",
    "soak": "firmware_host.soak.bench:run",
}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    p.add_argument("name", choices=[*BENCHES, "all"], help="which benchmark ('all' runs every one)")
    p.add_argument("--quick", action="store_true", help="fewer repetitions (for smoke tests)")
    p.add_argument("--json", action="store_true", help="print figures as JSON")
    p.add_argument("--frames", type=int, default=None, help="frames for the main case (benchmark-specific)")
    p.add_argument("--degradations", action="store_true",
                   help="vision: single-frame recall by degradation and px/module on a second generator")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    names = list(BENCHES) if args.name == "all" else [args.name]
    rc = 0
    for name in names:
        mod, fn = BENCHES[name].split(":")
        rc |= int(getattr(importlib.import_module(mod), fn)(args) or 0)
    return rc
