"""``cardtable boards new|check|convert|commit|verify``: a club's hand records (PBN, BRI, DUP).

* ``new --count N [--first K] --out FILE [--store DIR] [--event TEXT] [--force]``: deal N boards from
  the operating system's randomness, write them (format by extension) and print the commitment to
  publish before play. With ``--store`` the deals are checked against, and then added to, the club's
  record of past deals (``DIR/deal-fingerprints.txt``).
* ``check FILE [--first K] [--store DIR [--record]]``: read the file and print each board's dealer,
  vulnerability and fingerprint, then the commitment; ``--store`` also refuses a deal used before, and
  ``--record`` then adds the file's deals to the record (for hand records made by another program).
* ``convert IN OUT [--first K] [--force]``: between PBN, BRI and DUP.
* ``deal --records FILE ...`` and ``report --journal FILE``: the dealing station (``boards_deal``).
* ``commitment_lines``: what ``duplicate open`` and ``event open`` print of the session's and the file's
  commitments (a table may pin either).
* ``commit FILE [--boards LIST]``: print the commitment only. ``verify FILE --commitment HEX [--boards
  LIST]``: exit 0 if it matches, 1 if not. ``--boards`` takes only those boards of the file: a session's
  commitment (``duplicate open``) is to the boards its movement plays, often fewer than the file's.

A file that cannot be used gives one line on standard error naming the file, the board and the tag or
bytes, and exit status 2; no traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.commands.guard import FIRST, guarded
from firmware_host.commands.guard import Refused as _Refused

if TYPE_CHECKING:
    from laws.duplicate.deal import Board


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("boards", help="hand records (PBN, BRI, DUP): new, check, convert, commit, verify; "
                       "deal (the dealing station), report")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True

    new = verbs.add_parser("new", help="deal new boards from the operating system's randomness")
    new.add_argument("--count", type=int, required=True, help="how many boards")
    new.add_argument("--first", type=int, default=1, help="number of the first board (default 1)")
    new.add_argument("--out", required=True, metavar="FILE", help="file to write: .pbn, .bri or .dup")
    new.add_argument("--store", metavar="DIR", help="folder of the club's record of past deals")
    new.add_argument("--event", default="", help="PBN [Event] value")
    new.add_argument("--force", action="store_true", help="replace FILE if it exists")
    new.set_defaults(func=_new)

    check = verbs.add_parser("check", help="read a hand record and print fingerprints and commitment")
    check.add_argument("file", metavar="FILE")
    check.add_argument("--first", type=FIRST, help="number of the first board of a file without numbers (BRI, or "
                       "DUP whose duplication control is blank or says 1; default 1)")
    check.add_argument("--store", metavar="DIR", help="also refuse deals in the club's record of past deals")
    check.add_argument("--record", action="store_true",
                       help="with --store: add the file's deals to the record once it has passed")
    check.set_defaults(func=_check)

    convert = verbs.add_parser("convert", help="convert a hand record between PBN, BRI and DUP")
    convert.add_argument("input", metavar="IN")
    convert.add_argument("output", metavar="OUT")
    convert.add_argument("--first", type=FIRST, help="number of the first board of a file without numbers (BRI, or "
                       "DUP whose duplication control is blank or says 1; default 1)")
    convert.add_argument("--force", action="store_true", help="replace OUT if it exists")
    convert.set_defaults(func=_convert)

    commit = verbs.add_parser("commit", help="print the commitment (SHA-256) to a hand record")
    commit.add_argument("file", metavar="FILE")
    commit.add_argument("--boards", metavar="LIST", help="only these boards of the file (1-24, or 1-6,9): a "
                        "session's commitment, to the boards it plays")
    commit.add_argument("--first", type=FIRST, help="number of the first board of a file without numbers (BRI, or "
                       "DUP whose duplication control is blank or says 1; default 1)")
    commit.set_defaults(func=_commit)

    verify = verbs.add_parser("verify", help="check a hand record against a published commitment")
    verify.add_argument("file", metavar="FILE")
    verify.add_argument("--commitment", required=True, metavar="HEX", help="the published SHA-256, 64 hex digits")
    verify.add_argument("--boards", metavar="LIST", help="only these boards of the file (1-24, or 1-6,9): the "
                        "session commitment 'duplicate open' prints is to the boards the session plays")
    verify.add_argument("--first", type=FIRST, help="number of the first board of a file without numbers (BRI, or "
                       "DUP whose duplication control is blank or says 1; default 1)")
    verify.set_defaults(func=_verify)

    from firmware_host.commands import boards_deal

    boards_deal.register(verbs)  # deal (the dealing station) and report


def _errors() -> tuple[type[BaseException], ...]:
    from firmware_host.duplicate.handrecords.handfiles import HandRecordError

    return (HandRecordError,)


_guarded = guarded(lambda args: "cardtable boards", _errors)


def _read(path: str, first: int | None):  # type: ignore[no-untyped-def]
    from firmware_host.duplicate.handrecords.handfiles import read_hand_records

    if first is not None and first < 1:
        raise _Refused(f"--first {first}: a board number is a whole number from 1")
    return read_hand_records(path, first)


def _note_numbering(boards, out: str) -> None:  # type: ignore[no-untyped-def]
    if Path(out).suffix.lower() == ".bri" and boards and min(b.number for b in boards) != 1:
        low = min(b.number for b in boards)
        print(f"note: BRI has no board numbers; read {out} back with --first {low}", file=sys.stderr)


def _note_gap(boards, file: str) -> None:  # type: ignore[no-untyped-def]
    """A line on standard error naming the numbers missing between a file's lowest and highest board: a
    set is numbered without gaps, and in PBN a '{' left open makes the games up to the next '}' commentary,
    which the reader rightly steps over (the file is read, the exit status stays 0)."""
    from laws.duplicate.movement.model import board_span

    numbers = {b.number for b in boards}
    missing = sorted(set(range(min(numbers), max(numbers) + 1)) - numbers) if numbers else []
    if missing:
        print(f"note: {file} has no board{'s' if len(missing) > 1 else ''} {board_span(missing)} "
              f"(its boards run {min(numbers)}-{max(numbers)}); in PBN a '{{' commentary left open hides every "
              "game up to the next '}'", file=sys.stderr)


def _count(n: int, noun: str) -> str:
    """``1 board``, ``8 boards``: a one-deal file (a column's single hand, as rpbridge.net and BridgeComposer
    publish them) was checked as "1 boards"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _writable(out: str, force: bool) -> None:
    path = Path(out)
    if path.is_dir():
        raise _Refused(f"{out}: is a directory; name a file")
    if path.exists() and not force:
        raise _Refused(f"{out}: already exists; not replaced (--force replaces it)")
    if not path.parent.is_dir():
        raise _Refused(f"{out}: the folder {path.parent} does not exist")


def _session(file: str) -> str:
    return f"{Path(file).name} {datetime.now(UTC).strftime('%Y-%m-%dT%H:%MZ')}"


@_guarded
def _new(args: argparse.Namespace) -> int:
    from firmware_host.duplicate.handrecords.errors import MAX_BOARDS
    from firmware_host.duplicate.handrecords.handfiles import (
        FingerprintStore,
        kind_of,
        new_boards,
        numbering_problem,
        write_hand_records,
    )
    from laws.duplicate.deal import commitment

    if not 1 <= args.count <= MAX_BOARDS:   # the count is what is wrong, not the number its last board would have
        raise _Refused(f"the number of boards (--count) is a whole number from 1 to {MAX_BOARDS}, got {args.count}")
    problem = numbering_problem(kind_of(args.out), args.first + args.count - 1) if args.first >= 1 else ""
    if problem:   # before any deal is made or recorded
        raise _Refused(f"--first {args.first} --count {args.count}: {problem}")
    if any(ord(c) < 32 or ord(c) == 127 for c in args.event):
        raise _Refused(f"--event {args.event[:40]!r}: a PBN tag value is one line of text (no line end or "
                       "control character)")
    _writable(args.out, args.force)
    store = FingerprintStore(args.store) if args.store else None
    seen = store.fingerprints() if store else frozenset()
    boards = new_boards(args.count, args.first, seen=seen)
    for note in boards.notes:
        print(f"note: {note}", file=sys.stderr)
    if store is not None:  # recorded before the file exists: a deal in play is never missing from the store
        store.record(boards, _session(args.out))
    tags = {"event": args.event} if args.event else {}
    write_hand_records(args.out, boards, overwrite=args.force, **tags)
    _note_numbering(boards, args.out)
    print(f"wrote boards {boards[0].number}-{boards[-1].number} to {args.out}")
    print(f"commitment {commitment(boards)}")
    return 0


@_guarded
def _check(args: argparse.Namespace) -> int:
    from firmware_host.duplicate.handrecords.handfiles import FingerprintStore
    from laws.duplicate.deal import commitment

    boards = _read(args.file, args.first)
    if args.store:
        used = FingerprintStore(args.store).recorded()
        _same_file_again(boards, used, args.file)
        for b in boards:
            if b.fingerprint in used:
                board, session = used[b.fingerprint]
                raise _Refused(f"{args.file}: board {b.number}: the deal of board {board} of session "
                               f"{session!r} (a deal from another session; Duplicate Bridge, law 6)")
    elif args.record:
        raise _Refused("--record needs --store DIR")
    for b in boards:
        print(f"board {b.number:>3}  dealer {b.dealer}  {b.vulnerability.value:<4}  {b.fingerprint}")
    print(f"{_count(len(boards), 'board')}; commitment {commitment(boards)}")
    _note_gap(boards, args.file)
    if args.record:
        FingerprintStore(args.store).record(boards, _session(args.file))
        print(f"recorded {_count(len(boards), 'deal')} in {FingerprintStore(args.store).path}")
    return 0


def _same_file_again(boards, used: dict[str, tuple[str, str]], name: str) -> None:  # type: ignore[no-untyped-def]
    """Refuse, saying so, a file whose every deal the store holds board for board under one session
    recorded from a file of this name (``name``: the path as typed; the store keeps the file's own name):
    the file checked again after ``--record`` (or the same set about to be played again; the store cannot
    tell the two apart, so it is refused like any repeat, but the message no longer calls the file's own deals "another session" without saying whose)."""
    if not boards or any(b.fingerprint not in used or used[b.fingerprint][0] != str(b.number) for b in boards):
        return
    sessions = {used[b.fingerprint][1] for b in boards}
    session = sessions.pop()
    if sessions or session.rsplit(" ", 1)[0] != " ".join(Path(name).name.split()):
        return
    raise _Refused(f"{name}: all {len(boards)} deals are in the store already, board for board, as session "
                   f"{session!r}, recorded from a file of this name: this file checked again after --record, "
                   "or the same set played again (Duplicate Bridge, law 6); to read the file again, leave out --store")


@_guarded
def _convert(args: argparse.Namespace) -> int:
    from firmware_host.duplicate.handrecords.handfiles import kind_of, write_hand_records

    kind_of(args.output)
    if Path(args.input).resolve() == Path(args.output).resolve():
        raise _Refused(f"{args.output}: is the input file; name another")
    _writable(args.output, args.force)
    boards = _read(args.input, args.first)
    count = write_hand_records(args.output, boards, overwrite=args.force)
    _note_numbering(boards, args.output)
    print(f"wrote {_count(count, 'board')} to {args.output}")
    return 0


def _played(boards, text: str | None, file: str):  # type: ignore[no-untyped-def]
    """The boards named by ``--boards`` (all when it is not given): a session commits to the boards its
    movement plays, which a club's set of 32 or 36 often outnumbers, so its published commitment is
    checked against those boards of the file."""
    from firmware_host.config import ConfigError
    from firmware_host.config.duplicate import parse_boards
    from laws.duplicate.movement.model import board_span

    if text is None:
        return boards
    try:
        wanted = parse_boards(text, f"--boards {text!r}")
    except ConfigError as exc:
        raise _Refused(str(exc)) from None
    if not wanted:
        raise _Refused(f"--boards {text!r}: names no board (e.g. 1-24)")
    have = {b.number: b for b in boards}
    missing = [n for n in wanted if n not in have]
    if missing:
        raise _Refused(f"--boards {text}: {file} has no board{'s' if len(missing) > 1 else ''} "
                       f"{board_span(missing)}")
    return [have[n] for n in sorted(wanted)]


def commitment_lines(file: str, in_file: Sequence[Board], played: Sequence[Board], first: int | None = None) -> list[str]:
    """What ``duplicate open`` and ``event open`` say of the commitments, one rule for both: a session
    commits to the boards it plays, its file may hold more (a club's set of 32 or 36, 24 or 27 played),
    and a table's ``[duplicate] commitment`` may pin either, so when the two differ both are printed, each
    labelled, with the command that checks it against the file; when every board is played they are one."""
    from laws.duplicate.deal import commitment
    from laws.duplicate.movement.model import board_span

    session = commitment(played)
    if len(played) == len(in_file):
        return [f"hand records: {_count(len(played), 'board')}, commitment {session} (publish it before play; the "
                "session's and the file's: every board of the file is played)"]
    span, whole = board_span(b.number for b in played), commitment(in_file)
    numbered = f" --first {first}" if first is not None else ""
    return [f"hand records: {len(played)} of the {len(in_file)} boards of {file} are played (boards {span})",
            f"session commitment {session} (the boards played; check it with: cardtable boards verify "
            f"{file}{numbered} --boards {span} --commitment {session})",
            f"file commitment {whole} (all {len(in_file)} boards of the file, as 'cardtable boards commit' prints "
            f"it; check it with: cardtable boards verify {file}{numbered} --commitment {whole})",
            "publish either before play, saying which it is: a table's [duplicate] commitment may pin either, "
            "and the table checks its records against the one it pins"]


@_guarded
def _commit(args: argparse.Namespace) -> int:
    from laws.duplicate.deal import commitment

    print(commitment(_played(_read(args.file, args.first), args.boards, args.file)))
    return 0


@_guarded
def _verify(args: argparse.Namespace) -> int:
    from laws.duplicate.deal import commitment, verify_commitment

    digest = args.commitment.strip().lower()
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise _Refused(f"--commitment {args.commitment!r}: a SHA-256 is 64 hexadecimal digits")
    boards = _read(args.file, args.first)
    played = _played(boards, args.boards, args.file)
    which = "" if args.boards is None else f"boards {args.boards} of "
    if verify_commitment(played, digest):
        print(f"{which}{args.file}: matches the commitment ({_count(len(played), 'board')})")
        return 0
    hint = ("" if args.boards is not None or len(boards) < 2 else
            " (a session's commitment is to the boards it plays: name them with --boards, as 'cardtable "
            "duplicate open' printed it)")
    print(f"{which}{args.file}: does NOT match the commitment; its own is {commitment(played)}{hint}")
    return 1
