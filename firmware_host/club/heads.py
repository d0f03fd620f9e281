"""The journal heads the club keeps: every table's ``ROW:HASH`` from its heartbeat, on the club machine,
append-only, so that a journal edited and re-hashed on a table's own disk is caught (``docs/mqtt.md``,
"Journal heads").

``HeadBook(path)`` is a JSON Lines file, one line per head received that differs from the table's last
one: ``{"table": id, "row": N, "hash": 64 hex, "t": seconds since the epoch (the dashboard's clock when
it came)}``, a session's with ``"journal"`` (its journal file), with ``"problem"`` when the head does not follow from the ones before it (the row went back,
or the same row came with another hash: the table's journal was cut, replaced or rewritten). Lines are
only ever appended (``O_APPEND``, flushed and fsynced); the lines that cannot be read (a torn last line
after a power cut) are passed over, counted in one warning (``read_heads``); a file with lines and no head
at all is not a heads file, which ``club verify`` refuses naming its first line.

``verify(journal, heads)`` checks a table's journal against the heads the club holds: the hash chain
itself, then, row by row, that each held head's row has that hash (``cardtable club verify TABLE``).

A duplicate session's journal is kept the same way, under ``session:`` and the first 16 hex digits of its
opening row's hash (``session_name``), so that next week's session on the same dashboard is not taken for
this week's journal rewritten; ``session_heads`` picks one session's heads, including those an older
dashboard kept under the bare name ``session`` (``docs/session.md``, "The session's head, kept by the club").
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)
SESSION_HEADS = "session"   # the duplicate session's own journal, kept like a table's (the id is reserved)
SESSION_ID_HEX = 16         # hex digits of the opening row's hash that tell one session from another
HEAD = re.compile(r"^(\d{1,18}):([0-9a-f]{64})$")


@dataclass(frozen=True)
class Head:
    """One head the club received: table, row, hash, when (the dashboard's clock), and why it does not
    follow from the table's previous head ("" when it does)."""

    table: str
    row: int
    hash: str
    t: float
    problem: str = ""
    journal: str = ""   # a session's: its journal file (absolute), which names it when its opening row does not

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table, "row": self.row, "hash": self.hash, "t": round(self.t, 3)}
        if self.problem:
            out["problem"] = self.problem
        if self.journal:
            out["journal"] = self.journal
        return out


def parse(text: Any) -> tuple[int, str] | None:
    """``ROW:HASH`` as (row, hash), or None when ``text`` is not one."""
    m = HEAD.match(text) if isinstance(text, str) else None
    return (int(m.group(1)), m.group(2)) if m else None


@dataclass(frozen=True)
class HeadsRead:
    """What a heads file holds: the heads (of one table, when asked), and its lines that are not heads.

    A file with lines but no head in it at all is not a heads file (a wrong ``--heads``): ``not_heads``
    says so, naming its first line; a heads file with some bad lines (a torn last line after a power cut)
    is read, and ``passed_over`` counts them in one line, not one line each."""

    path: str
    heads: list[Head]
    lines: int            # lines that hold something (blank lines are not counted)
    found: int            # lines that are heads, of any table
    bad: int              # lines that are not heads
    first_bad: int = 0    # the first of them (a line number from 1), 0 when none
    why: str = ""         # why it is not a head (no value of the line: it may be anything)

    def not_heads(self) -> str:
        """The refusal of a file that holds lines and no head ("" when it holds a head, or nothing)."""
        if self.found or not self.bad:
            return ""
        return f"{self.path}: not a heads file: line {self.first_bad} is not a head ({self.why}); nothing read"

    def passed_over(self) -> str:
        """The one line that counts the lines that are not heads ("" when there are none)."""
        if not self.bad:
            return ""
        counted = f"{self.bad} of {self.lines} lines are not heads" if self.bad > 1 else \
            f"1 of {self.lines} lines is not a head"
        return f"{self.path}: {counted} (the first: line {self.first_bad}, {self.why}); passed over"


def _head_of(raw: bytes) -> Head | str:
    """The head a line holds, or why it holds none."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8 text"
    try:
        d = json.loads(text)
    except ValueError:
        return "not JSON"
    if not isinstance(d, dict):
        return "not a JSON object"
    missing = [k for k in ("table", "row", "hash", "t") if k not in d]
    if missing:
        return f"no {', '.join(repr(k) for k in missing)}"
    try:
        return Head(str(d["table"]), int(d["row"]), str(d["hash"]), float(d["t"]),
                    str(d.get("problem", "")), str(d.get("journal", "")))
    except (ValueError, TypeError, OverflowError):
        return "'row' or 't' is not a number"


def read_heads(path: str | Path, table: str | None = None) -> HeadsRead:
    """Read a heads file (a missing one holds nothing): its heads of ``table`` (every table's when None),
    in the order they came, and what was not a head, counted (``HeadsRead``).

    Raises:
        OSError: the file exists but cannot be read.
    """
    p = Path(path)
    heads: list[Head] = []
    lines = found = bad = first_bad = 0
    why = ""
    if not p.exists():
        return HeadsRead(str(path), heads, 0, 0, 0)
    with open(p, "rb") as f:
        for n, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            lines += 1
            head = _head_of(raw)
            if isinstance(head, str):
                bad += 1
                if not first_bad:
                    first_bad, why = n, head
                continue
            found += 1
            if table is None or head.table == table:
                heads.append(head)
    return HeadsRead(str(path), heads, lines, found, bad, first_bad, why)


class HeadBook:
    """The club's append-only record of every table's journal heads.

    Args:
        path: the JSON Lines file (created, with its folder, when missing).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._last: dict[str, Head] = {}
        self._problem: dict[str, Head] = {}
        for head in self.read(self.path):
            self._last[head.table] = head
            if head.problem:
                self._problem[head.table] = head
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        # a line torn by a stop mid-write (kill -9, a power cut, a full disk) is ended before the next head,
        # which would otherwise be glued to it and passed over with it: the head the club kept, lost
        self._torn = self._ends_torn()

    def _ends_torn(self) -> bool:
        with open(self.path, "rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() == 0:
                return False
            f.seek(-1, os.SEEK_END)
            return f.read(1) != b"\n"

    @staticmethod
    def read(path: str | Path, table: str | None = None) -> list[Head]:
        """Every head in the file (of ``table`` only, when given), in the order they came; the lines that
        are not heads are said in one warning (``HeadsRead.passed_over``), never one per line."""
        got = read_heads(path, table)
        if got.bad:
            log.warning("%s", got.passed_over())
        return got.heads

    def last(self, table: str) -> Head | None:
        """The newest head held for ``table``."""
        return self._last.get(table)

    def problem(self, table: str) -> Head | None:
        """The newest head of ``table`` that did not follow from the one before it."""
        return self._problem.get(table)

    def record(self, table: str, row: int, h: str, now: float, journal: str = "") -> Head:
        """Keep a head from ``table``'s heartbeat (written only when it differs from its last one);
        returns the table's newest head. ``journal``: a session's journal file, kept with its heads."""
        with self._lock:
            last = self._last.get(table)
            if last is not None and (last.row, last.hash) == (row, h):
                return last
            problem = ""
            if last is not None and row < last.row:
                problem = (f"the journal went back from row {last.row} to row {row}: it was cut or replaced "
                           "since the club last heard from it")
            elif last is not None and row == last.row:
                problem = f"row {row} came again with another hash: the journal was rewritten"
            head = Head(table, row, h, now, problem, journal)
            line = ("\n" if self._torn else "") + json.dumps(head.to_dict(), separators=(",", ":")) + "\n"
            try:
                data = line.encode("utf-8")
                self._torn = True   # until the whole line is written: a part of it would be torn
                if os.write(self._fd, data) == len(data):
                    self._torn = False
                os.fsync(self._fd)
            except OSError as exc:  # kept in memory; said once per failure
                log.error("%s: cannot keep the head of table %s (%s)", self.path, table, exc.strerror)
            self._last[table] = head
            if problem:
                self._problem[table] = head
                log.warning("table %s: %s", table, problem)
            return head

    def keeper(self, name: str, clock: Callable[[], float], journal: str = "") -> Callable[[str], None]:
        """A callable that keeps ``name``'s head given as ``ROW:HASH`` (what ``Journal.read_head`` says):
        the duplicate session keeps its own journal's head here after each commit (under
        ``session_name``, with ``journal``, its file), so a session journal rewritten and re-hashed end to
        end is found by ``cardtable club verify session``, from its opening row too (which names the
        session: the file then finds the heads kept for it)."""
        def keep(text: str) -> None:
            head = parse(text)
            if head is not None:
                self.record(name, head[0], head[1], clock(), journal)
        return keep

    def close(self) -> None:
        with self._lock:
            os.close(self._fd)


def session_name(opening_hash: str) -> str:
    """The name a session's heads are kept under: ``session:`` and the start of its journal's opening
    row's hash. The opening row holds the session's setup and the moment it was opened, so two sessions
    never share it, even with the same hand records (whose commitment would be the same)."""
    return f"{SESSION_HEADS}:{opening_hash[:SESSION_ID_HEX]}"


def opening_name(journal: Any) -> str | None:
    """``session_name`` of an open journal's first row, or None when it has no rows.

    Raises:
        firmware_host.records.journal.JournalError: the journal cannot be read.
    """
    rows = journal.rows()
    try:
        first = next(rows, None)
    finally:
        rows.close()
    return session_name(first.hash) if first is not None else None


def opening_rewritten(heads: Iterable[Head], path: str | Path) -> str:
    """Why the session journal at ``path`` fails, when no head is kept under the name its opening row
    gives but some are kept for its file under another session's name ("" when none is): the file held
    another opening row when the club kept them, so its journal was rewritten from the opening row (or
    replaced), which ``club verify session`` must not take for a session that never ran here."""
    where = str(Path(path).resolve())
    kept = [h for h in heads if h.journal == where and h.table.startswith(SESSION_HEADS + ":")]
    if not kept:
        return ""
    last = max(kept, key=lambda h: h.row)
    return (f"the club kept {len(kept)} head{'s' if len(kept) > 1 else ''} of {last.table} for this journal file "
            f"({where}; the newest: row {last.row}, heard at {_when(last.t)}), but its opening row now names "
            "another session: the journal was rewritten from its opening row, or replaced")


def session_heads(heads: Iterable[Head], journal: Any, name: str | None = None) -> list[Head]:
    """The heads of one session: those kept under ``name`` (its ``session_name``; by default the one its
    journal's opening row gives), and those an older dashboard kept under the bare name ``session`` for
    this journal. The bare name held every session's heads, one after the other; they are cut into runs
    where a head did not follow from the one before (a new session's first head goes back, or repeats a
    row with another hash), and a run is this session's when it is the only run, or when the journal
    holds the run's first head.

    Raises:
        firmware_host.records.journal.JournalError: the journal cannot be read.
    """
    name = name or opening_name(journal)
    mine: list[Head] = []
    runs: list[list[Head]] = []
    for head in heads:
        if head.table == name:
            mine.append(head)
        elif head.table == SESSION_HEADS:
            if head.problem or not runs:
                runs.append([])
            runs[-1].append(head)
    if len(runs) > 1:
        held = {(row.seq, row.hash) for row in journal.rows()}
        runs = [run for run in runs if (run[0].row, run[0].hash) in held]
    return mine + [head for run in runs for head in run]


@dataclass(frozen=True)
class Checked:
    """What ``verify`` found: ``ok``, the rows of the journal, the heads checked, and the problems."""

    ok: bool
    rows: int
    heads: int
    problems: tuple[str, ...]


def verify(journal: Any, heads: Iterable[Head]) -> Checked:
    """A table's journal (open read-only) against the heads the club holds for it: its chain, then each
    head's row hash. A head with a ``problem`` is checked like the others (the journal holds it or not).

    Raises:
        firmware_host.records.journal.JournalError: the journal cannot be read.
    """
    chain = journal.verify()
    problems: list[str] = [] if chain.ok else [chain.message()]
    wanted: dict[int, list[Head]] = {}
    count = 0
    for head in heads:
        wanted.setdefault(head.row, []).append(head)
        count += 1
    end = 0
    for row in journal.rows():
        end = row.seq
        for head in wanted.pop(row.seq, ()):
            if head.hash != row.hash:
                problems.append(f"row {row.seq} has hash {row.hash[:16]}..., but the club kept "
                                f"{head.hash[:16]}... for it (heard at {_when(head.t)}): the journal was "
                                "rewritten from that row or before")
    for row_no, held in sorted(wanted.items()):
        if row_no == 0:
            continue
        problems.append(f"the journal ends at row {end}, but the club kept a head for row {row_no} (heard at "
                        f"{_when(held[0].t)}): rows were cut off the end")
    return Checked(not problems, end, count, tuple(problems))


def _when(t: float) -> str:
    import time

    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))
