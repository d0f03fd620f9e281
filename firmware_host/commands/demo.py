"""``cardtable demo``: a whole simulated table (see ``firmware_host/table_demo.py``)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help="run a whole simulated table (virtual shoe, synthetic camera, mock pins)")
    p.add_argument("--out", default=None, help="folder for the journals and PBN (default: out/demo-<time>)")
    p.add_argument("--seed", type=int, default=7, help="shuffles and faults follow it")
    p.add_argument("--no-camera", action="store_true", help="leave the synthetic camera out")
    p.add_argument("--quick", action="store_true", help="a short demo: one clean deal per game, no camera")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Make the folder first, so a path that cannot be one (under a file, on a read-only disk) is one
    line naming it, exit 2, before any table is built."""
    import sys
    import time
    from pathlib import Path

    from firmware_host.table_demo import run_demo

    out = Path(args.out) if args.out else Path("out") / time.strftime("demo-%Y%m%d-%H%M%S")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = "a file is there, not a folder" if out.exists() else (exc.strerror or str(exc))
        print(f"cardtable demo: --out {out}: cannot be the demo's folder ({why})", file=sys.stderr)
        return 2
    return run_demo(out, seed=args.seed, camera=not args.no_camera, quick=args.quick)
