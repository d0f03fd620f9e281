"""``cardtable broadcast export --journals DIR... --out DIR [--title T] [--force]``: after a session, every
table's boards as LIN records and the replay pages a club publishes beside its travellers
(``firmware_host.broadcast.archive``). Each journal's hash chain is verified first; a broken one is
refused (exit 1). Exit 2 for a journal that cannot be read, a folder of no duplicate board, or an
``--out`` that is a file or a folder that is not empty (``--force`` writes over it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("broadcast", help="a session's boards as LIN records and replay pages")
    verbs = p.add_subparsers(dest="verb", required=True, metavar="VERB")
    e = verbs.add_parser("export", help="write LIN records (lin/) and replay pages (replay/) from the "
                                        "tables' journals")
    e.add_argument("--journals", nargs="+", required=True, metavar="DIR",
                   help="the tables' data directories or journal files (a duplicate demo's OUT/tables/*)")
    e.add_argument("--out", required=True, metavar="DIR", help="the folder to write (empty, or --force)")
    e.add_argument("--title", default="", help="the session's name on the pages")
    e.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    e.set_defaults(func=_export)


def _journal(where: str) -> Path:
    path = Path(where)
    return path / "journal.sqlite3" if path.is_dir() else path


def _export(args: argparse.Namespace) -> int:
    from firmware_host.broadcast.archive import ArchiveError, write_archive

    paths = [_journal(w) for w in args.journals]
    for path in paths:
        if not path.is_file():
            print(f"cardtable broadcast export: {path}: no journal there", file=sys.stderr)
            return 2
    try:
        archive = write_archive(paths, args.out, title=args.title, force=args.force)
    except ArchiveError as exc:
        text = str(exc)
        print(f"cardtable broadcast export: {text}", file=sys.stderr)
        return 1 if text.startswith("TAMPERED") else 2
    plays = sum(len(p) for p in archive.boards.values())
    print(f"{len(archive.boards)} boards, {plays} tables' plays: LIN in {Path(args.out) / 'lin'}, "
          f"replay in {Path(args.out) / 'replay' / 'index.html'}")
    return 0
