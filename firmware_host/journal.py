"""The table's journal: an append-only, hash-chained SQLite log of events, rulings, lamps and notes.

Each row is ``(seq, t, kind, body, prev_hash, hash)``; ``hash`` is the SHA-256 (hex) of ``prev_hash``
followed by the canonical JSON of ``{"seq", "t", "kind", "body"}`` (keys sorted, no spaces, UTF-8).
The first row's ``prev_hash`` is 64 zeros. Editing, deleting or reordering any row breaks the chain
from that row on, which ``verify`` reports. (Cutting rows off the *end* leaves a valid shorter chain:
compare ``head()`` with a copy kept elsewhere if that matters.)

Durability: the database runs in WAL mode with ``synchronous=FULL`` by default, and every ``append``
commits before it returns. With WAL, NORMAL already survives the writing process being killed (the
commit is in the WAL file, in the OS page cache), but a power cut can lose the last commits; FULL
fsyncs the WAL on every commit, so a row that ``append`` returned survives pulling the Pi's plug too.
A table under a club's card table loses power more often than it crashes, and the controller commits
before it lights a lamp, so FULL is the default; ``cardtable bench journal`` measures both.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

KINDS = ("event", "ruling", "lamp", "note")
GENESIS = "0" * 64
JOURNAL_FILE = "journal.sqlite3"
SCHEMA_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    t REAL NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS checkpoint (
    seq INTEGER PRIMARY KEY,
    hash TEXT NOT NULL,
    version TEXT NOT NULL,
    state TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS journal_no_update BEFORE UPDATE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS journal_no_delete BEFORE DELETE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


class JournalError(RuntimeError):
    """The journal file cannot be opened or read; the message names the file (and row, if one)."""


@dataclass(frozen=True)
class Row:
    """One journal row."""

    seq: int
    t: float
    kind: str
    body: dict[str, Any]
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class VerifyResult:
    """Outcome of ``Journal.verify``: ``ok``, how many rows were checked, the chain's head hash, and
    for a broken chain the first bad row and why."""

    ok: bool
    rows: int
    head: str
    bad_seq: int | None = None
    reason: str = ""
    path: str = ""

    def message(self) -> str:
        """One line for a person: the file, and either the row count and head or the first bad row."""
        if self.ok:
            return f"{self.path}: journal intact, {self.rows} rows, head {self.head[:16]}"
        return f"{self.path}: journal row {self.bad_seq}: {self.reason}"


def canonical_json(obj: Any) -> str:
    """The one JSON text of ``obj`` that the hashes are computed over."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def row_hash(prev_hash: str, seq: int, t: float, kind: str, body: dict[str, Any]) -> str:
    """The chain hash of a row."""
    payload = canonical_json({"seq": seq, "t": t, "kind": kind, "body": body})
    return hashlib.sha256((prev_hash + payload).encode("utf-8")).hexdigest()


def journal_path(path: str | Path) -> Path:
    """The journal file for ``path``: an existing directory, or a path without a file suffix, is a data
    directory and means ``<dir>/journal.sqlite3``; anything else is the database file itself."""
    p = Path(path)
    if p.is_dir() or (not p.exists() and not p.suffix):
        return p / JOURNAL_FILE
    return p


def _row_problem(seq: int, t: Any, kind: str, text: str, prev_hash: str, h: str, prev: str,
                 expected: int) -> str:
    """Why a stored row breaks the chain, or "" when it is sound."""
    if seq != expected:
        return f"expected row {expected} here: rows {expected}..{seq - 1} are missing"
    if kind not in KINDS:
        return f"unknown kind {kind!r}"
    if prev_hash != prev:
        return "prev_hash does not match the previous row's hash (a row was removed or replaced)"
    try:
        body = json.loads(text)
        if not isinstance(body, dict) or not isinstance(t, (int, float)):
            raise ValueError("not an object")
        computed = row_hash(prev_hash, seq, float(t), kind, body)
    except (TypeError, ValueError) as exc:
        return f"body or time is not valid ({exc})"
    if computed != h:
        return "hash does not match the row's contents (the row was edited)"
    return ""


class Journal:
    """The open journal. Safe to share between threads (one lock); one writer process at a time."""

    def __init__(self, conn: sqlite3.Connection, path: Path, synchronous: str) -> None:
        self._conn = conn
        self.path = path
        self.synchronous = synchronous
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: str | Path, *, synchronous: str = "FULL", create: bool = True) -> Journal:
        """Open (creating if needed) the journal at a file, or ``journal.sqlite3`` in a data directory.

        Args:
            path: the database file, or the data directory.
            synchronous: ``"FULL"`` (survives power loss) or ``"NORMAL"`` (survives a crash).
            create: create the file and its directory when missing; otherwise a missing file is an error.

        Raises:
            JournalError: the file is missing (with ``create=False``), not a journal, or corrupt.
        """
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, got {synchronous!r}")
        p = journal_path(path)
        if not p.exists():
            if not create:
                raise JournalError(f"{p}: no journal here")
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"{p}: cannot create the data directory ({exc})") from None
        try:
            conn = sqlite3.connect(p, isolation_level=None, check_same_thread=False, timeout=10.0)
        except sqlite3.Error as exc:
            raise JournalError(f"{p}: cannot open the journal ({exc})") from None
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.executescript(_SCHEMA)
            cols = [r[1] for r in conn.execute("PRAGMA table_info(journal)")]
            if cols != ["seq", "t", "kind", "body", "prev_hash", "hash"]:
                raise JournalError(f"{p}: table 'journal' has columns {cols}, not a cardtable journal")
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise JournalError(f"{p}: not a readable journal database ({exc})") from None
        except JournalError:
            conn.close()
            raise
        return cls(conn, p, synchronous)

    def append(self, kind: str, body: dict[str, Any], t: float) -> int:
        """Append one row and commit it before returning.

        Args:
            kind: ``"event"``, ``"ruling"``, ``"lamp"`` or ``"note"``.
            body: a JSON-serialisable dict (for events, ``laws.events.event_to_dict`` output).
            t: the time of the row in seconds (the controller's clock).

        Returns:
            The row's sequence number (1 for the first row).

        Raises:
            ValueError: unknown kind, or a body that is not a JSON object.
            JournalError: the database cannot be written.
        """
        return self.append_many([(kind, body, t)])[-1]

    def append_many(self, rows: list[tuple[str, dict[str, Any], float]]) -> list[int]:
        """Append several rows in one transaction (all or none), committed before returning.

        One commit for an event, its rulings and the lamps they light costs one disk sync, not three.

        Returns:
            The rows' sequence numbers.

        Raises:
            ValueError: an unknown kind or a body that is not a JSON object (nothing is written).
            JournalError: the database cannot be written.
        """
        prepared = []
        for kind, body, t in rows:
            if kind not in KINDS:
                raise ValueError(f"journal kind must be one of {', '.join(KINDS)}, got {kind!r}")
            if not isinstance(body, dict):
                raise ValueError(f"journal body must be a dict, got {type(body).__name__}")
            text = canonical_json(body)  # raises ValueError/TypeError for what JSON cannot hold
            prepared.append((kind, text, json.loads(text), float(t)))  # hash exactly what is read back
        if not prepared:
            return []
        out: list[int] = []
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    last = self._conn.execute(
                        "SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
                    seq, prev = (last[0], last[1]) if last else (0, GENESIS)
                    for kind, text, body, t in prepared:
                        seq += 1
                        h = row_hash(prev, seq, t, kind, body)
                        self._conn.execute("INSERT INTO journal VALUES (?, ?, ?, ?, ?, ?)",
                                           (seq, t, kind, text, prev, h))
                        prev = h
                        out.append(int(seq))
                    self._conn.execute("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:  # SQLite may have rolled back itself (disk full)
                        self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise JournalError(f"{self.path}: cannot append {len(prepared)} row(s) ({exc})") from None
        return out

    def _raw(self, sql: str, args: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
        """Stream raw rows through a read-only connection of its own (WAL lets it read while the
        writer appends), so a long history is never held in memory and the writer is never blocked."""
        try:
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot read the journal ({exc})") from None
        try:
            cursor = conn.execute(sql, args)
            while batch := cursor.fetchmany(512):
                yield from batch
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: cannot read the journal ({exc})") from None
        finally:
            conn.close()

    def _select(self, sql: str, args: tuple[Any, ...]) -> Iterator[Row]:
        for seq, t, kind, text, prev, h in self._raw(sql, args):
            try:
                body = json.loads(text)
            except (TypeError, ValueError) as exc:
                raise JournalError(f"{self.path}: journal row {seq}: body is not JSON ({exc})") from None
            yield Row(seq, t, kind, body, prev, h)

    def rows(self, since: int = 0) -> Iterator[Row]:
        """Every row with ``seq > since``, in order."""
        return self._select("SELECT * FROM journal WHERE seq > ? ORDER BY seq", (since,))

    def events(self) -> Iterator[dict[str, Any]]:
        """The law-engine event dicts (rows of kind 'event'), in order, for rebuilding state."""
        for row in self._select("SELECT * FROM journal WHERE kind = 'event' ORDER BY seq", ()):
            yield row.body

    def last_lamps(self) -> dict[str, Any] | None:
        """The body of the last 'lamp' row (what the lamps showed), or None if there is none."""
        rows = list(self._select("SELECT * FROM journal WHERE kind = 'lamp' ORDER BY seq DESC LIMIT 1", ()))
        return rows[0].body if rows else None

    def save_checkpoint(self, seq: int, version: str, state: str, keep: int = 2) -> None:
        """Store a checkpoint: ``state`` (text) as it was after row ``seq``, taken by code ``version``.

        Checkpoints sit beside the hash chain, not in it, and only shorten a restart: the rows stay the
        record. The newest ``keep`` are kept.
        """
        with self._lock:
            row = self._conn.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()
            if row is None:
                raise ValueError(f"no journal row {seq} to checkpoint")
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute("INSERT OR REPLACE INTO checkpoint VALUES (?, ?, ?, ?)",
                                   (seq, row[0], version, state))
                self._conn.execute("DELETE FROM checkpoint WHERE seq NOT IN "
                                   "(SELECT seq FROM checkpoint ORDER BY seq DESC LIMIT ?)", (keep,))
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def checkpoint(self, version: str) -> tuple[int, str] | None:
        """The newest checkpoint taken by code ``version`` whose row is still the journal's row at that
        seq (same hash): (seq, state), or None."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT c.seq, c.state FROM checkpoint c JOIN journal j ON j.seq = c.seq AND j.hash = c.hash "
                "WHERE c.version = ? ORDER BY c.seq DESC LIMIT 1", (version,)).fetchall()
        return (int(rows[0][0]), str(rows[0][1])) if rows else None

    def head(self) -> tuple[int, str]:
        """The last sequence number and its hash (0 and the genesis hash when empty)."""
        with self._lock:
            last = self._conn.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        return (int(last[0]), str(last[1])) if last else (0, GENESIS)

    def verify(self) -> VerifyResult:
        """Check the database's integrity and the whole hash chain.

        Returns:
            ``VerifyResult`` with ``ok`` or the first bad row (``bad_seq``) and the reason.

        Raises:
            JournalError: the database itself is unreadable or corrupt (SQLite's own check fails).
        """
        with self._lock:
            try:
                check = [r[0] for r in self._conn.execute("PRAGMA integrity_check")]
            except sqlite3.DatabaseError as exc:
                raise JournalError(f"{self.path}: the database is corrupt ({exc})") from None
        if check != ["ok"]:
            raise JournalError(f"{self.path}: the database is corrupt ({'; '.join(check[:3])})")
        prev, count, expected = GENESIS, 0, 1
        where = str(self.path)
        for seq, t, kind, text, prev_hash, h in self._raw("SELECT * FROM journal ORDER BY seq", ()):
            reason = _row_problem(seq, t, kind, text, prev_hash, h, prev, expected)
            if reason:
                return VerifyResult(False, count, prev, seq, reason, where)
            prev, count, expected = h, count + 1, expected + 1
        return VerifyResult(True, count, prev, None, "", where)

    def close(self) -> None:
        """Close the database (checkpointing the WAL)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
