"""``cardtable bench NAME``: the benchmarks of ``firmware_host.bench``, by name, or all of them.

An option is taken only by the benchmarks named in ``TAKEN_BY``; given to another it is refused (one
line, exit 2), never ignored: ``bench club --scale 0`` ran the club's benchmark as if nothing were wrong.
``all`` takes every option, each going to the benchmarks that take it.
"""

from __future__ import annotations

import argparse
import sys

from firmware_host import bench
from firmware_host.bench import BENCHES
from firmware_host.commands.guard import whole

#: option (its ``dest``) -> the benchmarks that take it, and the value it has when not given
TAKEN_BY: dict[str, tuple[tuple[str, ...], object]] = {
    "director_server": (("euchre",), False),
    "frames": (("vision",), None),
    "degradations": (("vision",), False),
    "bidding": (("vision",), False),
    "outsider": (("vision",), False),
    "seed": (("vision",), 2026),
    "against": (("vision",), "today"),
    "repeats": (("vision",), 1),
    "scale": (("federation",), None),
    "outages": (("federation",), 20),
}

def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    p.add_argument("name", choices=[*BENCHES, "all"], help="which benchmark ('all' runs every one)")
    p.add_argument("--quick", action="store_true", help="fewer repetitions (for smoke tests)")
    p.add_argument("--json", action="store_true", help="print figures as JSON")
    p.add_argument("--director-server", action="store_true",
                   help="euchre: the night on the club's director's server (its /euchre page, logged in)")
    p.add_argument("--frames", type=whole(1, 10_000), default=None,
                   help="frames for the main case (benchmark-specific; 1 to 10000)")
    p.add_argument("--degradations", action="store_true",
                   help="vision: single-frame recall by degradation and px/module on a second generator")
    p.add_argument("--bidding", action="store_true",
                   help="vision: bidding cards beside playing cards (calls read per frame, the decoder's time with "
                        "and without them), as players lay them (stacks, fans, rows, hands), and the outsider's "
                        "table (vision/measure_outsider.py: playing and bidding cards at 720p and 1080p), each "
                        "beside today's decoder on the same frames")
    p.add_argument("--outsider", action="store_true",
                   help="vision: only the outsider's table (vision/measure_outsider.py), --frames frames of playing "
                        "cards and of each layout of bidding cards (default 20; 1 with --quick), at 720p and 1080p, "
                        "beside today's decoder on the same frames, with the time ratio")
    p.add_argument("--seed", type=int, default=None,
                   help="vision --bidding/--outsider: the outsider's table's seed (default 2026, the one the "
                        "decoder's constants were chosen on until issue 37's fourth round)")
    p.add_argument("--against", choices=("today", "filed"), default=None,
                   help="vision --outsider: the decoder the one as it is is set beside: 'today' (before the last "
                        "round of issue 37, the default) or 'filed' (every remedy issue 37 added turned off: the "
                        "decoder as it was when the issue was filed)")
    p.add_argument("--repeats", type=whole(1, 100), default=None,
                   help="vision --outsider: read each frame this many times by each decoder in turn and keep the "
                        "fastest time (1 to 100, default 1; 3 on a shared machine)")
    p.add_argument("--scale", type=whole(1, 10_000), nargs="?", const=1000, default=None, metavar="TABLES",
                   help="federation: the simultaneous at scale (12 club brokers, 3 of them real sessions, TABLES tables, "
                        "1 to 10000, default 1000; 20 outages, the first link cut 10 minutes, 1 with --quick)")
    p.add_argument("--outages", type=whole(0, 1000), default=None, metavar="N",
                   help="federation --scale: how many forced outages (0 to 1000, default 20; 0: the field's pace "
                        "alone, no outage)")
    p.set_defaults(func=_run)


def _not_taken(args: argparse.Namespace) -> str:
    """The first option given that the benchmark named does not take ("" when none); the options not
    given are then set to their values."""
    given = [dest for dest in TAKEN_BY if getattr(args, dest) is not None and getattr(args, dest) is not False]
    for dest in given:
        areas = TAKEN_BY[dest][0]
        if args.name != "all" and args.name not in areas:
            return (f"--{dest.replace('_', '-')} is for bench {' or '.join(areas)}, not bench {args.name}: "
                    "leave it out")
    if "outages" in given and "scale" not in given:
        return "--outages goes with --scale (the simultaneous at scale): give --scale or leave --outages out"
    for dest, (_areas, value) in TAKEN_BY.items():
        if dest not in given:
            setattr(args, dest, value)
    return ""


def _run(args: argparse.Namespace) -> int:
    problem = _not_taken(args)
    if problem:
        print(f"cardtable bench: {problem}", file=sys.stderr)
        return 2
    names = list(BENCHES) if args.name == "all" else [args.name]
    rc = 0
    for name in names:
        rc |= bench.run(name, args)
    return rc
