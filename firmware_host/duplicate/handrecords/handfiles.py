"""Hand-record files in and out: PBN, BRI and DUP, chosen by the file's extension; new deals; the
club's store of past deals.

The parsing functions take the file's text or bytes and a name for messages
(:func:`read_pbn`, :func:`read_bri`, :func:`read_dup`, or :func:`parse_hand_records` by kind); only
:func:`read_hand_records` and :func:`write_hand_records` touch the disk. Every problem is one
:class:`HandRecordError` naming the file, the board and the tag or bytes. ``docs/handrecords.md``
gives each layout with a worked example.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from firmware_host.duplicate.handrecords.duplimate import (
    DupControl,
    dup_control,
    read_bri,
    read_dup,
    write_bri,
    write_dup,
)
from firmware_host.duplicate.handrecords.errors import LIMIT_WORDS, MAX_BOARDS, MAX_BYTES, HandRecordError
from firmware_host.duplicate.handrecords.newdeals import FingerprintStore, NewBoards, new_boards
from firmware_host.duplicate.handrecords.pbnfile import read_pbn, write_pbn
from laws.duplicate.deal import Board

KINDS = ("pbn", "bri", "dup")

__all__ = [
    "KINDS", "MAX_BOARDS", "MAX_BYTES", "DupControl", "FingerprintStore", "HandRecordError", "NewBoards", "dup_control", "kind_of",
    "new_boards", "parse_hand_records", "read_bri", "read_dup", "read_hand_records", "read_pbn",
    "render_hand_records", "write_bri", "write_dup", "write_hand_records", "write_pbn",
]


def kind_of(path: str | Path) -> str:
    """``"pbn"``, ``"bri"`` or ``"dup"`` from the file's extension (any case)."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in KINDS:
        raise HandRecordError(str(path), f"unknown extension {Path(path).suffix or '(none)'!r} "
                              "(want .pbn, .bri or .dup)")
    return suffix


def parse_hand_records(data: bytes, kind: str, file: str, first: int | None = None, *,
                       option: str = "--first") -> list[Board]:
    """The boards of a file's bytes in the given format.

    ``first`` numbers the boards of a file that has no numbers of its own (a BRI file, a DUP file whose
    duplication control is blank or says 1, as Big Deal writes it for every set); ``None`` is 1. A file
    that numbers its own boards (PBN's ``[Board]``, a DUP's duplication control naming another lowest
    board) keeps its numbers, and a ``first`` other than its first board is refused,
    naming ``option``: ignored, it let ``--first 1`` on boards 17-32 pass and a session then find no board 1.
    """
    if kind == "pbn":
        return _own_numbers(read_pbn(data, file), file, first, "[Board]", option)
    if kind == "bri":
        return read_bri(data, file, 1 if first is None else first)
    if kind == "dup":
        boards = read_dup(data, file, 1 if first is None else first)
        # numbered from ``first`` unless the control numbers them: a first board that is not ``first`` is the control's
        return _own_numbers(boards, file, first, "its duplication control", option)
    raise HandRecordError(file, f"unknown format {kind!r} (want pbn, bri or dup)")


def _own_numbers(boards: list[Board], file: str, first: int | None, how: str, option: str) -> list[Board]:
    """``boards`` when ``first`` is not given or is their first number; else the refusal."""
    low = min((b.number for b in boards), default=first)
    if first is not None and low != first:
        raise HandRecordError(file, f"numbers its own boards, from {low} ({how}): {option} {first} cannot "
                              f"apply; leave {option} out")
    return boards


def read_hand_records(path: str | Path, first: int | None = None, *, option: str = "--first") -> list[Board]:
    """Read a hand-record file, its format chosen by the extension (``first`` and ``option``: as
    :func:`parse_hand_records`).

    Only a regular file is read (a FIFO, a device or a folder is refused at once, never waited on), and
    at most :data:`MAX_BYTES` of it: a bigger one is refused by its size before anything is read. The
    readers then go board by board and stop at the first error and at a board beyond :data:`MAX_BOARDS`.
    """
    name = str(path)   # the path as the user typed it: two files of one name in two folders are told apart
    kind = kind_of(path)
    return parse_hand_records(_bounded_bytes(path, name), kind, name, first, option=option)


_NOT_REGULAR = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (a named pipe)"),
                (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                (stat.S_ISSOCK, "a socket"))


def _bounded_bytes(path: str | Path, name: str) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_BYTES` (opened without waiting: a FIFO with no
    writer would otherwise block the open)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise HandRecordError(name, f"cannot be read ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            what = next((words for test, words in _NOT_REGULAR if test(st.st_mode)), "not a regular file")
            raise HandRecordError(name, f"is {what}, not a hand-record file: name a regular .pbn, .bri or .dup file")
        if st.st_size > MAX_BYTES:
            raise HandRecordError(name, f"is {st.st_size:,} bytes: {LIMIT_WORDS}; not read")
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb", buffering=0) as f:
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:                # a file that grows while it is read stops here too
            try:
                chunk = f.read(min(1 << 20, MAX_BYTES + 1 - size))
            except OSError as exc:
                raise HandRecordError(name, f"cannot be read ({exc.strerror or exc})") from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise HandRecordError(name, f"grew beyond {MAX_BYTES:,} bytes while it was read: {LIMIT_WORDS}")
        return b"".join(chunks)


HIGHEST = {"dup": (MAX_BOARDS, "a DUP file numbers its boards 1 to 999 (its duplication control has three "
                               "digits)"),
           "pbn": (999_999_999, "a PBN [Board] is at most 9 digits")}


def numbering_problem(kind: str, highest: int) -> str:
    """Why a file of ``kind`` cannot hold a board numbered ``highest`` ("" when it can): a file this program
    wrote is always one it reads back."""
    most, why = HIGHEST.get(kind, (0, ""))
    if most and highest > most:
        return f"board {highest} cannot be written: {why}"
    return ""


def render_hand_records(boards: Iterable[Board], kind: str, file: str = "", **pbn_tags: str) -> bytes:
    """The bytes of a hand-record file of ``boards`` in the given format."""
    boards = list(boards)
    problem = numbering_problem(kind, max((b.number for b in boards), default=0))
    if problem:
        raise HandRecordError(file, problem)
    try:
        if kind == "pbn":
            return write_pbn(boards, **pbn_tags).encode("utf-8")
        if kind == "bri":
            return write_bri(boards)
        if kind == "dup":
            return write_dup(boards)
    except HandRecordError as exc:
        raise HandRecordError(file or exc.file, exc.problem, board=exc.board, where=exc.where, sep=exc.sep) from None
    raise HandRecordError(file, f"unknown format {kind!r} (want pbn, bri or dup)")


def write_hand_records(path: str | Path, boards: Iterable[Board], *, overwrite: bool = False,
                       **pbn_tags: str) -> int:
    """Write a hand-record file in the format of its extension; refuses to replace an existing file
    unless ``overwrite``. Returns how many boards were written."""
    out = Path(path)
    name = str(path)   # as typed, like read_hand_records
    boards = list(boards)
    data = render_hand_records(boards, kind_of(out), name, **pbn_tags)
    if out.is_dir():
        raise HandRecordError(name, "is a directory; name a file")
    if out.exists() and not overwrite:
        raise HandRecordError(name, "already exists; not replaced (--force replaces it)")
    try:
        out.write_bytes(data)
    except OSError as exc:
        raise HandRecordError(name, f"cannot be written ({exc.strerror or exc})") from None
    return len(boards)
