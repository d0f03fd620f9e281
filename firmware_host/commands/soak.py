"""``cardtable soak``: an evening at a real table, measured (``firmware_host/soak``)."""

from __future__ import annotations

import argparse
from pathlib import Path

GAME_NAMES = {"bridge": "contract-bridge", "contract-bridge": "contract-bridge", "euchre": "euchre"}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("soak", help="play rubbers through a real `cardtable run` under faults and check "
                                    "every ruling and every card (--duplicate: a duplicate evening)")
    add_arguments(p, deals=40, faults=8)
    p.set_defaults(func=run)


def add_arguments(p: argparse.ArgumentParser, *, deals: int, faults: int) -> None:
    from firmware_host.soak.schedule import FAULT_KINDS

    p.add_argument("--deals", type=int, default=deals, help=f"shoe deals in all, shared by the games "
                   f"(default {deals})")
    p.add_argument("--rubbers", type=int, default=0, metavar="N", help="end each game once N rubbers are "
                   "won (at most --deals deals; faults due after that do not happen)")
    p.add_argument("--faults", type=int, default=faults, help=f"faults in all (default {faults})")
    p.add_argument("--fault-kinds", default=",".join(FAULT_KINDS), metavar="K1,K2",
                   help=f"which faults (default all: {','.join(FAULT_KINDS)})")
    p.add_argument("--games", default="bridge,euchre", help="games, one after the other (default "
                   "bridge,euchre)")
    p.add_argument("--seed", type=int, default=1, help="everything follows it (default 1)")
    p.add_argument("--mistake-rate", type=float, default=0.3, metavar="P",
                   help="share of deals with an irregularity (default 0.3)")
    p.add_argument("--broker", action="store_true", help="the table publishes to a real Mosquitto and a "
                   "subscriber checks the dashboard got every ruling once (adds broker outages)")
    p.add_argument("--workdir", metavar="DIR", help="keep journals and logs here (default: a temp folder, "
                   "removed when every invariant holds)")
    p.add_argument("--duplicate", action="store_true", help="a duplicate evening instead: the dealing station "
                   "fills the boards, then tables play them with physical boards and with their shoe dealing, "
                   "misboarded as --mistake-rate says (--faults, --seed as above)")
    p.add_argument("--tables", type=int, default=3, help="--duplicate: tables (default 3: 2 with boards, 1 "
                   "with its shoe dealing)")
    p.add_argument("--boards", type=int, default=6, help="--duplicate: boards a round of the session's Mitchell "
                   "(default 6; 2 or more); without Mosquitto, the boards each table plays alone")
    p.add_argument("--session-faults", default="kill,stall,hostile", metavar="K1,K2",
                   help="--duplicate: the session's faults (default kill,stall,hostile: kill -9 of the session's "
                   "process, its journal locked past the busy timeout, hostile messages from a table's login; "
                   "none: the session runs in the soak's process, unfailed)")
    p.add_argument("--check", metavar="DIR", help="judge a finished duplicate soak's folder (its --workdir) "
                   "alone, from its journals and files: exit 0 when every invariant holds, 1 when one does "
                   "not, 2 when DIR is not a duplicate soak's folder")


def parse(args: argparse.Namespace) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The games and fault kinds asked for; raises ValueError naming what is wrong."""
    from firmware_host.soak.schedule import FAULT_KINDS

    games = tuple(GAME_NAMES.get(g.strip(), "") or _bad("--games", g) for g in args.games.split(","))
    kinds = tuple(k.strip() for k in args.fault_kinds.split(",") if k.strip())
    for k in kinds:
        if k not in FAULT_KINDS:
            _bad("--fault-kinds", k)
    if args.deals < 1 or args.faults < 0 or args.rubbers < 0:
        raise ValueError("--deals must be at least 1, --faults and --rubbers at least 0")
    if not 0.0 <= args.mistake_rate <= 1.0:
        raise ValueError(f"--mistake-rate {args.mistake_rate} is not between 0 and 1")
    return games, kinds


def _workdir(text: str | None, prefix: str) -> Path:
    """The soak's folder: ``--workdir`` made now (before the shoe, the broker or a table starts), or a
    temporary one. ``--workdir table.toml`` was a NotADirectoryError traceback (exit 1) from the soak's
    first table.

    Raises:
        ValueError: naming ``--workdir`` and why the folder cannot be made.
    """
    import tempfile

    if not text:
        return Path(tempfile.mkdtemp(prefix=prefix))
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--workdir {text}: not a folder (a file of that name is there)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"--workdir {text}: cannot be made ({exc.strerror or exc})") from None
    return folder


def _bad(option: str, value: str) -> str:
    raise ValueError(f"{option}: unknown value {value!r}")


def run(args: argparse.Namespace) -> int:
    import shutil
    import sys
    import time
    from pathlib import Path

    from firmware_host.soak.driver import Options, evening
    from firmware_host.soak.report import table

    if getattr(args, "check", None):
        return _check(Path(args.check))
    if getattr(args, "duplicate", False):
        return _duplicate(args)
    try:
        games, kinds = parse(args)
        workdir = _workdir(args.workdir, "cardtable-soak-")
    except ValueError as exc:
        print(f"cardtable soak: {exc}", file=sys.stderr)
        return 2
    from firmware_host.commands.stopping import exit_on_sigterm

    exit_on_sigterm(143)  # as Ctrl-C: the table process, the shoe and the broker are stopped (finally)
    t0 = time.monotonic()
    results = evening(deals=args.deals, faults=args.faults, seed=args.seed, games=games, workdir=workdir,
                      mistake_rate=args.mistake_rate, fault_kinds=kinds, opts=Options(broker=args.broker, rubbers=args.rubbers))
    print(table(results, time.monotonic() - t0), flush=True)
    ok = all(f.ok for f in results)
    if ok and not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"journals and logs in {workdir}")
    return 0 if ok else 1


def _check(folder: Path) -> int:
    import sys

    from firmware_host.soak.dup_disk import NotASoak
    from firmware_host.soak.dup_judge import judge, report

    try:
        verdict = judge(folder)
    except NotASoak as exc:
        print(f"cardtable soak --check: {exc}", file=sys.stderr)
        return 2
    print(report(verdict), flush=True)
    return 0 if verdict.ok else 1


def _duplicate(args: argparse.Namespace) -> int:
    import shutil
    import sys

    from firmware_host.soak.dup_club import SESSION_FAULTS
    from firmware_host.soak.dup_evening import evening, table

    if args.tables < 1 or args.boards < 2 or args.faults < 0 or not 0.0 <= args.mistake_rate <= 1.0:
        print("cardtable soak: --duplicate needs --tables 1 or more, --boards 2 or more, --faults 0 or more and "
              "--mistake-rate from 0 to 1", file=sys.stderr)
        return 2
    kinds = tuple(k.strip() for k in args.session_faults.split(",") if k.strip() and k.strip() != "none")
    bad = [k for k in kinds if k not in SESSION_FAULTS]
    if bad:
        print(f"cardtable soak: --session-faults: unknown value {bad[0]!r} (want some of "
              f"{','.join(SESSION_FAULTS)}, or none)", file=sys.stderr)
        return 2
    from firmware_host.soak.dup_session import boards_needed
    from laws.session.duplicate.spec import SetupError

    try:   # the Mitchell the tables play, refused before anything starts (a traceback from the evening)
        boards_needed(args.tables, args.boards)
    except SetupError as exc:
        print(f"cardtable soak: --tables {args.tables} --boards {args.boards}: {exc}", file=sys.stderr)
        return 2
    try:
        workdir = _workdir(args.workdir, "cardtable-dupsoak-")
    except ValueError as exc:
        print(f"cardtable soak: {exc}", file=sys.stderr)
        return 2
    from firmware_host.commands.stopping import exit_on_sigterm

    exit_on_sigterm(143)  # as Ctrl-C: the station, the tables, the session's process and the broker are stopped
    result = evening(workdir, tables=args.tables, boards=args.boards, seed=args.seed, faults=args.faults,
                     misboard_rate=args.mistake_rate, session_faults=kinds)
    print(table(result), flush=True)
    if result.ok and not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"journals and logs in {workdir}")
    return 0 if result.ok else 1
