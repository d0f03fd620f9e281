"""``cardtable export jsonl|pbn|board``: write the journal's history as law-engine events or PBN boards,
or (``board``) the duplicate boards of one or more tables' journals: each board's hand record and every
table's contract, declarer, lead, tricks, score and play (``duplicate.board_export``).

The journal is opened read-only and verified first. A broken hash chain is refused (exit 1, as
``journal verify``) unless ``--force``; then the events of rows from the first bad row on carry
``"unverified": true`` (JSON Lines; the event format ignores unknown fields) or their boards a
``{Not verified: ...}`` commentary (PBN), and rows there that are not events are left out, each said on
standard error. An event row that is not in the event format is refused (exit 2) naming the row, or
with ``--force`` left out and named. Exit 2 as well for a journal that cannot be read and an output
file that cannot be written (a missing folder, a directory). PBN's boards are numbered 1, 2, ... over the
hands written; each bridge deal of the table left out (voided, not read whole, not yet over) is named on
standard error with its number at the table and why.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from firmware_host.commands.guard import FIRST
from firmware_host.commands.journal import add_data_dir_arguments, data_dir_from_args


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("export", help="write the journal's history as JSON Lines events or PBN, or "
                       "duplicate boards from the tables' journals")
    p.add_argument("format", choices=("jsonl", "pbn", "board"),
                   help="jsonl: the law engine's event format (for `cardtable replay`); pbn: bridge deals; "
                        "board: duplicate boards, each with every table's result and play")
    add_data_dir_arguments(p)
    p.add_argument("--journals", nargs="+", metavar="DIR", help="board: the tables' data directories (or "
                   "journal files); default the one of --data-dir or the configuration")
    p.add_argument("--board", type=FIRST, metavar="N", help="board: this board only")
    p.add_argument("--json", action="store_true", help="board: JSON instead of text")
    p.add_argument("--out", metavar="FILE", help="output file (default: standard output)")
    p.add_argument("--game", choices=("contract-bridge", "euchre"),
                   help="game for the first line when the journal does not start with one (default: config)")
    p.add_argument("--force", action="store_true",
                   help="export a journal whose hash chain is broken, marking what was not verified")
    p.set_defaults(func=_run)


class _Refused(Exception):
    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def _events(journal: Any, bad_seq: int | None, force: bool) -> list[dict[str, Any]]:
    """The journal's event dicts in order, each checked against the event format; those of rows from
    ``bad_seq`` on marked ``"unverified": true``."""
    from laws.events import event_from_dict

    out: list[dict[str, Any]] = []
    # the table set these aside (docs/ordering.md, "An event the engine cannot take"): as if they had not
    # come, so left out; exported, a replay of the export stopped at the first one (exit 2)
    aside = {r.body["set_aside"] for r in journal.rows_with(("set_aside",))
             if isinstance(r.body.get("set_aside"), int) and not isinstance(r.body.get("set_aside"), bool)}
    for seq, text in journal.event_texts():
        if seq in aside:
            print(f"cardtable: journal row {seq}: set aside by the table: left out", file=sys.stderr)
            continue
        unverified = bad_seq is not None and seq >= bad_seq
        try:
            body = json.loads(text)
            event_from_dict(body)
        except (ValueError, RecursionError, TypeError) as exc:  # EventFormatError too
            problem = f"journal row {seq}: not an event in the event format ({_short(exc)})"
            if not force:
                raise _Refused(f"{journal.path}: {problem}; not exported (--force leaves it out)", 2) from None
            print(f"cardtable: {journal.path}: {problem}: left out", file=sys.stderr)
            continue
        out.append(dict(body, unverified=True) if unverified else body)
    return out


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


# What the first line of an earlier export of each format looks like: an export replaces its own kind of
# file (SETUP's commands are run again each evening), never another file (`--out /etc/cardtable/table.toml`
# replaced the table's configuration without a word)
_EXPORT_HEAD = {"jsonl": re.compile(r"\{"), "pbn": re.compile(r'%|\[[A-Za-z][A-Za-z0-9_]* "'),
                "board": re.compile(r"Board \d+:|\[\s*[\]{]|\{")}
_EXPORT_WHAT = {"jsonl": "a JSON Lines export (its first line a JSON object)",
                "pbn": "a PBN file (its first line a % comment or a [Tag \"value\"])",
                "board": "an export of boards (its first line 'Board N: ...' or JSON)"}


def _output(path: str | None) -> Path | None:
    if path is None:
        return None
    out = Path(path)
    if out.is_dir():
        raise _Refused(f"--out {out}: is a directory; name a file", 2)
    if not out.parent.is_dir():
        raise _Refused(f"--out {out}: the folder {out.parent} does not exist", 2)
    return out


def _replaceable(out: Path, fmt: str) -> None:
    """Refuse to write over a file that is not an earlier export of ``fmt`` (after the journal's own check,
    so the journal named as --out is said to be the journal)."""
    if out.exists():
        try:
            with out.open("rb") as f:
                head = f.read(4096).decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
        except OSError as exc:
            raise _Refused(f"--out {out}: cannot be read to see what it holds ({exc.strerror})", 2) from None
        if head and not _EXPORT_HEAD[fmt].match(head):
            raise _Refused(f"--out {out}: the file is there and is not {_EXPORT_WHAT[fmt]}: it is not replaced; "
                           "name another file, or remove it first", 2)


def _not_the_journal(out: Path | None, journal: Path) -> None:
    """Refuse to write over the journal (or its WAL files): an export must never lose the record."""
    if out is not None and out.resolve() in {journal.resolve().with_name(journal.name + x) for x in ("", "-wal", "-shm")}:
        raise _Refused(f"--out {out}: that is the journal itself; write the export elsewhere", 2)


def _boards(args: argparse.Namespace, out: Path | None) -> tuple[str, str]:
    """The duplicate boards of the tables' journals, as text or JSON, and what was written."""
    from firmware_host.duplicate.results.board_export import board_json, board_text, by_board, plays_from_rows
    from firmware_host.records.journal import Journal

    plays = []
    for where in args.journals or [str(data_dir_from_args(args))]:
        with Journal.open_readonly(where) as journal:
            _not_the_journal(out, journal.path)
            result = journal.verify()
            if result.bad_seq is not None:
                raise _Refused(f"TAMPERED: {result.message()}; not exported", 1)
            plays += plays_from_rows(((r.kind, r.body) for r in journal.rows()), str(journal.path))
    boards = by_board(plays, args.board)
    if not boards:
        raise _Refused("no duplicate board in " + (f"board {args.board} of " if args.board else "") +
                       ", ".join(args.journals or ["the journal"]), 2)
    return (board_json(boards) if args.json else board_text(boards)), f"{len(boards)} boards"


def _history(args: argparse.Namespace, out: Path | None) -> tuple[str, str]:
    """The journal's history as JSON Lines events or PBN boards, and what was written."""
    from firmware_host.config import load_config
    from firmware_host.records.journal import Journal
    from firmware_host.records.pbn import boards_from_events, pbn_text, session_tags

    cfg = load_config(args.config, check_devices=False)
    with Journal.open_readonly(data_dir_from_args(args)) as journal:
        _not_the_journal(out, journal.path)
        result = journal.verify()
        if result.bad_seq is not None:
            if not args.force:
                raise _Refused(f"TAMPERED: {result.message()}; not exported (--force exports it, marking "
                               f"rows from {result.bad_seq} on as not verified)", 1)
            print(f"cardtable: warning: {result.message()}; exporting anyway (--force): rows from "
                  f"{result.bad_seq} on are marked as not verified", file=sys.stderr)
        for problem in result.problems:  # the chain is intact: the rows are the record
            print(f"cardtable: warning: {result.path}: {problem}", file=sys.stderr)
        events = _events(journal, result.bad_seq, args.force)
    if args.format == "jsonl":
        if not events or events[0].get("type") != "game":
            first: dict[str, Any] = {"type": "game", "game": args.game or cfg.table.game}
            events.insert(0, first)
        return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events), f"{len(events)} events"
    games = {e.get("game") for e in events if e.get("type") == "game"} or {args.game or cfg.table.game}
    if "duplicate-bridge" in games:
        raise _Refused(f"{journal.path}: this is a duplicate table's journal: `cardtable export board` "
                       "writes each board with its record and the table's result and play", 2)
    if "contract-bridge" not in games:
        raise _Refused(f"{journal.path}: this journal is of {' and '.join(sorted(map(str, games)))}, and "
                       "PBN holds bridge deals only: nothing to export (cardtable export jsonl writes "
                       "any game's history)", 2)
    try:
        deals, left_out = boards_from_events(events, **session_tags(cfg.table.name))
    except ValueError as exc:
        raise _Refused(f"{journal.path}: cannot write PBN: {exc}", 2) from None
    # boards are numbered over the hands written: each deal of the table left out is named, so that a
    # board number that is not the table's deal number never goes unexplained
    for gap in left_out:
        print(f"cardtable: {journal.path}: {gap.message()}", file=sys.stderr)
    return pbn_text(deals), f"{len(deals)} boards"


def _run(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError
    from firmware_host.records.journal import JournalError

    # options of another format were left unused without a word: `export jsonl --journals A B` exported
    # the configuration's journal, `export pbn --board 3` every board; `export board --game` or `--force`
    # the same
    given = ([o for o, v in (("--journals", args.journals), ("--board", args.board), ("--json", args.json)) if v]
             if args.format != "board" else [o for o, v in (("--game", args.game), ("--force", args.force)) if v])
    if given:
        print(f"cardtable export: {' and '.join(given)} go{'es' if len(given) == 1 else ''} with "
              f"{'export board' if args.format != 'board' else 'export jsonl or pbn'}, not export {args.format}",
              file=sys.stderr)
        return 2
    try:
        out = _output(args.out)
        text, what = (_boards if args.format == "board" else _history)(args, out)
        if out is not None:
            _replaceable(out, args.format)
            try:
                out.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise _Refused(f"--out {out}: cannot write ({exc.strerror})", 2) from None
    except (ConfigError, JournalError) as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    except _Refused as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return exc.code
    if out is not None:
        print(f"wrote {what} to {out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
