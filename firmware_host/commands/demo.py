"""``cardtable demo``: a whole simulated table (see ``firmware_host/demo.py``)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help="run a simulated table and show its rulings")
    p.add_argument("--scenarios", default="tests/data",
                   help="folder of example event logs to replay (default: tests/data)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from firmware_host.display_text import ruling_text
    from firmware_host.replay import LogError, game_of, read_events
    from laws.engine import LawEngine

    files = sorted(Path(args.scenarios).glob("*.jsonl"))
    if not files:
        print(f"{args.scenarios}: no example scenarios (*.jsonl) found", file=sys.stderr)
        return 2
    for path in files:
        print(f"\n=== {path.name} ===")
        engine = None
        try:
            with open(path, encoding="utf-8") as f:
                for item in read_events(f, str(path)):
                    if engine is None:
                        engine = LawEngine(game_of(item.event, None) or "contract-bridge")
                    for r in engine.feed(item.event):
                        print(ruling_text(r, line=item.line))
        except LogError as exc:
            print(str(exc), file=sys.stderr)
            return 2
    return 0
