"""The table's journal: an append-only, hash-chained SQLite log of events, rulings, lamps and notes.

Each row is ``(seq, t, kind, body, prev_hash, hash)``; ``hash`` is the SHA-256 (hex) of ``prev_hash``
followed by the canonical JSON of ``{"seq", "t", "kind", "body"}`` (keys sorted, no spaces, UTF-8).
The first row's ``prev_hash`` is 64 zeros. Editing, deleting or reordering any row breaks the chain
from that row on, which ``verify`` reports. (Cutting rows off the *end* leaves a valid shorter chain:
compare ``head()`` with a copy kept elsewhere: ``cardtable journal head`` prints it, the club heartbeat
publishes it, and ``cardtable journal verify --head ROW:HASH`` proves the journal still holds it, which
also catches a history edited and re-hashed from some row on.)

Checkpoints (the controller's state after a row, so a restart need not replay everything) are bound to
the chain: saving one appends a ``note`` row ``{"checkpoint": {"after", "version", "sha256"}}`` holding
the SHA-256 of the state, and the checkpoint is stored under that row. A checkpoint whose row is not the
chain's row, or whose state does not hash to what its row records, is ignored (with a warning) and
reported by ``verify``.

Readers (``open_readonly``: verify, export, head) open the file with SQLite's ``mode=ro`` and never write
it; when no ``-wal`` file is beside it (no writer has it open and nothing is uncommitted) they also use
``immutable=1``, which creates no ``-wal``/``-shm`` files, so a journal on read-only media reads too.

Durability: the database runs in WAL mode with ``synchronous=FULL`` by default, and every ``append``
commits before it returns. With WAL, NORMAL already survives the writing process being killed (the
commit is in the WAL file, in the OS page cache), but a power cut can lose the last commits; FULL
fsyncs the WAL on every commit, so a row that ``append`` returned survives pulling the Pi's plug too.
A table under a club's card table loses power more often than it crashes, and the controller commits
before it lights a lamp, so FULL is the default; ``cardtable bench journal`` measures both.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from firmware_host.records.chain import (
    GENESIS,
    KINDS,
    VerifyResult,
    canonical_json,
    checkpoint_problem,
    parse_head,
    row_hash,
    state_digest,
    verify_rows,
)
from firmware_host.records.journal_file import (
    JOURNAL_FILE,
    SCHEMA_VERSION,
    JournalError,
    _text,
    connect_reader,
    connect_writer,
    journal_path,
    reader_uri,
)

__all__ = ["GENESIS", "JOURNAL_FILE", "KINDS", "SCHEMA_VERSION", "Journal", "JournalError", "Row", "VerifyResult", "canonical_json", "journal_path",
           "parse_head", "reader_uri", "row_hash", "state_digest"]

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class Row:
    """One journal row."""

    seq: int
    t: float
    kind: str
    body: dict[str, Any]
    prev_hash: str
    hash: str


class Journal:
    """The open journal. Safe to share between threads (one lock); one writer process at a time."""

    def __init__(self, conn: sqlite3.Connection, path: Path, synchronous: str, *, readonly: bool = False) -> None:
        self._conn = conn
        self.path = path
        self.synchronous = synchronous
        self.readonly = readonly
        self._immutable = False  # a reader that opened the file without its WAL (no writer had it open)
        self._lock = threading.Lock()

    @classmethod
    def open_readonly(cls, path: str | Path) -> Journal:
        """Open an existing journal only to read it (verify, export, head): the file is never written.

        Raises:
            JournalError: no file, an empty file, not an SQLite database, or one without the journal's
                table (each named with the file).
        """
        p = journal_path(path)
        conn, immutable = connect_reader(p)
        journal = cls(conn, p, "", readonly=True)
        journal._immutable = immutable
        return journal

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
        p = journal_path(path)
        conn = connect_writer(p, synchronous, create)
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
            conn = sqlite3.connect(reader_uri(self.path), uri=True)
            conn.text_factory = _text
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot read the journal ({exc})") from None
        try:
            cursor = conn.execute(sql, args)
            while batch := cursor.fetchmany(512):
                yield from batch
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise JournalError(f"{self.path}: cannot read the journal ({exc})") from None
        finally:
            conn.close()

    def _select(self, sql: str, args: tuple[Any, ...]) -> Iterator[Row]:
        for seq, t, kind, text, prev, h in self._raw(sql, args):
            try:
                body = json.loads(text)
            except (TypeError, ValueError, RecursionError) as exc:
                raise JournalError(f"{self.path}: journal row {seq}: body is not JSON ({str(exc)[:200]})") from None
            yield Row(seq, t, kind, body, prev, h)

    def rows(self, since: int = 0) -> Iterator[Row]:
        """Every row with ``seq > since``, in order."""
        return self._select("SELECT * FROM journal WHERE seq > ? ORDER BY seq", (since,))

    def events(self) -> Iterator[dict[str, Any]]:
        """The law-engine event dicts (rows of kind 'event'), in order, for rebuilding state."""
        for row in self._select("SELECT * FROM journal WHERE kind = 'event' ORDER BY seq", ()):
            yield row.body

    def event_texts(self) -> Iterator[tuple[int, Any]]:
        """(seq, body text as stored) of each 'event' row, in order, undecoded: for readers that must
        say which row is not JSON or not an event instead of stopping at it."""
        for seq, text in self._raw("SELECT seq, body FROM journal WHERE kind = 'event' ORDER BY seq", ()):
            yield int(seq), text

    def rows_with(self, keys: tuple[str, ...], kinds: tuple[str, ...] = ("note",), since: int = 0) -> Iterator[Row]:
        """The rows after ``since`` of ``kinds`` whose body has one of ``keys`` at its top level, in order
        (the text is searched by SQLite before any row is decoded, so a long journal is read quickly)."""
        patterns = [f'%"{k}":%' for k in keys]
        where = " OR ".join("body LIKE ?" for _ in patterns)
        of = ", ".join("?" for _ in kinds)
        for row in self._select(f"SELECT * FROM journal WHERE seq > ? AND kind IN ({of}) AND ({where}) "
                                "ORDER BY seq", (since, *kinds, *patterns)):
            if any(k in row.body for k in keys):
                yield row

    def events_of_type(self, type_: str) -> Iterator[Row]:
        """The 'event' rows of one ``type``, newest first (SQLite finds them by their text before any row is
        decoded, so a long journal is read quickly; a reader stops when it has what it needs)."""
        for row in self._select("SELECT * FROM journal WHERE kind = 'event' AND body LIKE ? ORDER BY seq DESC",
                                (f'%"{type_}"%',)):
            if row.body.get("type") == type_:
                yield row

    def last_lamps(self) -> dict[str, Any] | None:
        """The body of the last 'lamp' row (what the lamps showed), or None if there is none."""
        rows = list(self._select("SELECT * FROM journal WHERE kind = 'lamp' ORDER BY seq DESC LIMIT 1", ()))
        return rows[0].body if rows else None

    def save_checkpoint(self, seq: int, version: str, state: str, keep: int = 2) -> int:
        """Store a checkpoint: ``state`` (text) as it is after row ``seq``, the journal's last row, taken
        by code ``version``.

        One transaction appends the row that binds it to the chain (a ``note`` with the state's SHA-256)
        and stores the checkpoint under that row; a restart replays the rows after it. Checkpoints only
        shorten a restart: the rows stay the record. The newest ``keep`` are kept.

        Returns:
            The binding row's sequence number (the journal's new last row).

        Raises:
            ValueError: ``seq`` is not the journal's last row.
            JournalError: the database cannot be written.
        """
        if self.readonly:
            raise JournalError(f"{self.path}: opened read-only")
        body = {"checkpoint": {"after": seq, "version": version, "sha256": state_digest(state)}}
        text = canonical_json(body)
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    last = self._conn.execute(
                        "SELECT seq, t, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
                    if last is None or int(last[0]) != seq:
                        raise ValueError(f"a checkpoint is of the journal's last row "
                                         f"({last[0] if last else 0}), not of row {seq}")
                    bseq, t = seq + 1, float(last[1])
                    bhash = row_hash(str(last[2]), bseq, t, "note", json.loads(text))
                    self._conn.execute("INSERT INTO journal VALUES (?, ?, ?, ?, ?, ?)",
                                       (bseq, t, "note", text, str(last[2]), bhash))
                    self._conn.execute("INSERT OR REPLACE INTO checkpoint VALUES (?, ?, ?, ?)",
                                       (bseq, bhash, version, state))
                    self._conn.execute("DELETE FROM checkpoint WHERE seq NOT IN "
                                       "(SELECT seq FROM checkpoint ORDER BY seq DESC LIMIT ?)", (keep,))
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise JournalError(f"{self.path}: cannot save a checkpoint ({exc})") from None
        return bseq

    def checkpoint(self, version: str) -> tuple[int, str] | None:
        """The newest checkpoint taken by code ``version``, as (seq of its binding row, state), when it is
        bound to the chain; None when there is none. One that is not bound (edited, or its row is not the
        chain's) is ignored with a warning: the caller replays the journal instead."""
        with self._lock:
            rows = self._conn.execute("SELECT seq, hash, version, state FROM checkpoint WHERE version = ? "
                                      "ORDER BY seq DESC LIMIT 1", (version,)).fetchall()
        if not rows:
            return None
        if not _well_formed(rows[0]):
            log.warning("%s: the newest checkpoint is malformed (edited?) and ignored; the restart replays the "
                        "journal", self.path)
            return None
        seq, chash, cversion, state = rows[0]
        problem = self.checkpoint_problem(int(seq), str(chash), str(cversion), str(state))
        if problem:
            log.warning("%s: checkpoint at row %d ignored: %s; the restart replays the journal", self.path,
                        seq, problem)
            return None
        return int(seq), str(state)

    def checkpoint_problem(self, seq: int, chash: str, version: str, state: str) -> str:
        """Why a stored checkpoint is not bound to the chain, or "" when it is (``chain.checkpoint_problem``)."""
        with self._lock:
            found = self._conn.execute("SELECT * FROM journal WHERE seq = ?", (seq,)).fetchone()
            after = self._conn.execute("SELECT prev_hash FROM journal WHERE seq = ?", (seq + 1,)).fetchone()
        return checkpoint_problem(found, after[0] if after else None, seq, chash, version, state)

    def head(self) -> tuple[int, str]:
        """The last sequence number and its hash (0 and the genesis hash when empty).

        Raises:
            JournalError: SQLite cannot read the file's pages (a file damaged after it was opened), as
                ``verify`` says it, so ``journal head`` names the file instead of printing a traceback.
        """
        with self._lock:
            try:
                last = self._conn.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
            except sqlite3.DatabaseError as exc:
                raise JournalError(f"{self.path}: the database is corrupt ({exc})") from None
        return (int(last[0]), str(last[1])) if last else (0, GENESIS)

    def read_head(self) -> str:
        """The head as ``ROW:HASH`` read through a connection of its own, so a reader in another thread
        (the club heartbeat) never waits for the writer's lock, even while a commit stalls."""
        last = list(self._raw("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1", ()))
        return f"{last[0][0]}:{last[0][1]}" if last else f"0:{GENESIS}"

    def verify(self, head: tuple[int, str] | None = None) -> VerifyResult:
        """Check the database's integrity, the whole hash chain, the checkpoints' binding, and that the
        journal holds ``head`` (``(row, hash)`` kept elsewhere), if given.

        A reader that opened a stopped table's file as immutable and sees a writer start meanwhile (a
        ``-wal`` file appears) checks again through the WAL before reporting a failure, so a table
        starting during a verify is never taken for tampering.

        Returns:
            ``VerifyResult`` with ``ok``, or the first bad row (``bad_seq``) and the reason, or the
            ``problems`` with an intact chain (a checkpoint not bound to it, a head not held).

        Raises:
            JournalError: the database itself is unreadable or corrupt (SQLite's own check fails).
        """
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            result = self._verify(head)
            if result.ok or not (self._immutable and wal.exists()):
                return result
        except JournalError:
            if not (self._immutable and wal.exists()):
                raise
        log.info("%s: a writer started during the check; checking again through its WAL", self.path)
        with self._lock:
            self._conn.close()
            self._conn = sqlite3.connect(reader_uri(self.path), uri=True, check_same_thread=False, timeout=10.0)
            self._conn.text_factory = _text
            self._immutable = False
        return self._verify(head)

    def _verify(self, head: tuple[int, str] | None) -> VerifyResult:
        with self._lock:
            try:
                check = [r[0] for r in self._conn.execute("PRAGMA integrity_check")]
            except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
                raise JournalError(f"{self.path}: the database is corrupt ({exc})") from None
        if check != ["ok"]:
            raise JournalError(f"{self.path}: the database is corrupt ({'; '.join(check[:3])})")
        with self._lock:  # the checkpoints first: their binding rows are then in the rows streamed next
            try:
                stored = self._conn.execute("SELECT seq, hash, version, state FROM checkpoint ORDER BY seq").fetchall()
            except sqlite3.OperationalError:  # a journal written before checkpoints existed
                stored = []
        checkpoints = [c for c in stored if _well_formed(c)]
        result = verify_rows(self._raw("SELECT * FROM journal ORDER BY seq", ()), checkpoints, head, str(self.path))
        bad = [c for c in stored if not _well_formed(c)]
        if bad:  # a field emptied or of another type (an edited file): nothing to bind, so say so
            result = replace(result, ok=False, problems=result.problems + tuple(
                f"a stored checkpoint ({'row ' + str(c[0]) if isinstance(c[0], int) else 'no row'}) is malformed: "
                "a field is missing or of the wrong type" for c in bad))
        return result

    def close(self) -> None:
        """Close the database (checkpointing the WAL)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _well_formed(stored: tuple[Any, ...]) -> bool:
    """A checkpoint row as this code writes it: an integer row and three texts."""
    seq, chash, version, state = stored
    return isinstance(seq, int) and all(isinstance(x, str) for x in (chash, version, state))
