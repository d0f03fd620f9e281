"""Every benchmark of the house, one module per area, reached by ``cardtable bench NAME``.

``BENCHES`` names each benchmark's ``module:function``; ``run`` runs one. Each prints medians and ratios
measured side by side in the same run (``report``), never a timed assertion: the figures go in
``docs/benchmarks.md``. What a benchmark measures in another room may live there as functions (the
vision decoder's cases in ``vision.measure``); the runner and the report live here. Nothing outside
this package and the ``bench`` command imports it.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> "module:function"; every benchmark prints medians and ratios measured in the same run.
BENCHES: dict[str, str] = {
    "table": "firmware_host.bench.table:run",
    "e2e": "firmware_host.bench.e2e:run",
    "journal": "firmware_host.bench.host:journal",
    "panel": "firmware_host.bench.host:panel",
    "link": "firmware_host.bench.shoe_link:run",
    "board": "firmware_host.bench.board:run",
    "handfiles": "firmware_host.bench.handfiles:run",
    "vision": "firmware_host.bench.vision:run",
    "club": "firmware_host.bench.club:club",
    "login": "firmware_host.bench.login:run",
    "soak": "firmware_host.bench.soak:run",
    "duplicate": "firmware_host.bench.duplicate:run",
    "duplicate-live": "firmware_host.bench.duplicate_live:run",
    "duplicate-demo": "firmware_host.bench.duplicate_demo:run",
    "duplicate-records": "firmware_host.bench.duplicate_records:run",
    "federation": "firmware_host.bench.federation:run",
    "wire": "firmware_host.bench.wire:run",
    "euchre": "firmware_host.bench.euchre:run",
    "broadcast": "firmware_host.bench.broadcast:run",
}


def run(name: str, args: argparse.Namespace) -> int:
    """Run the benchmark ``name`` with the command's arguments; its exit status (1, with one line on
    stderr, when it could not measure, ``report.BenchFailed``, or what it measured fails its checks,
    ``report.ChecksFailed``)."""
    from firmware_host.bench.report import BenchFailed, ChecksFailed

    mod, fn = BENCHES[name].split(":")
    try:
        return int(getattr(importlib.import_module(mod), fn)(args) or 0)
    except BenchFailed as exc:
        how = "FAILED" if isinstance(exc, ChecksFailed) else "could not measure"
        print(f"cardtable bench {name}: {how}: {exc}", file=sys.stderr)
        return 1
