"""The journal's SQLite file: its schema, where it lives, and opening it for writing or only reading.

The file holds three tables: ``journal`` (the hash-chained rows, append-only by trigger), ``meta``
(the schema version) and ``checkpoint`` (states bound to the chain by a note row). A writer opens it in
WAL mode with the chosen ``synchronous``; a reader opens it read-only, immutable when no writer has it
(``reader_uri``). Another program's SQLite file is never written into.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

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

log = logging.getLogger(__name__)


def _text(raw: bytes) -> str:
    """Stored text as str: bytes that are not UTF-8 (an edited file) become U+FFFD, so the row no longer
    hashes to its hash and verify names it, instead of the read failing."""
    return raw.decode("utf-8", "replace")


class JournalError(RuntimeError):
    """The journal file cannot be opened or read; the message names the file (and row, if one)."""


def reader_uri(p: Path) -> str:
    """The SQLite URI a reader opens ``p`` with: read-only, and immutable when no ``-wal`` file is beside
    it (then nothing is open for writing and nothing uncommitted waits; SQLite then makes no side files).
    With a ``-wal`` file (a writer is live, or was killed) the WAL is read, which SQLite can do on
    read-only media only when the ``-shm`` file is there as well."""
    uri = f"{p.resolve().as_uri()}?mode=ro"
    return uri if p.with_name(p.name + "-wal").exists() else uri + "&immutable=1"


def journal_path(path: str | Path) -> Path:
    """The journal file for ``path``: an existing directory, or a path without a file suffix, is a data
    directory and means ``<dir>/journal.sqlite3``; anything else is the database file itself."""
    p = Path(path)
    if p.is_dir() or (not p.exists() and not p.suffix):
        return p / JOURNAL_FILE
    return p


def connect_reader(p: Path) -> tuple[sqlite3.Connection, bool]:
    """Open the journal file ``p`` only to read it; the connection and whether it is immutable.

    Raises:
        JournalError: no file, an empty file, not an SQLite database, or one without the journal's
            table (each named with the file).
    """
    if not p.exists():
        raise JournalError(f"{p}: no journal here")
    if not p.is_file():
        raise JournalError(f"{p}: not a file")
    if p.stat().st_size == 0:
        raise JournalError(f"{p}: the file is empty (0 bytes), not a journal")
    uri = reader_uri(p)
    try:
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=10.0)
        conn.text_factory = _text
    except sqlite3.Error as exc:
        raise JournalError(f"{p}: cannot open the journal read-only ({exc})") from None
    try:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(journal)")]
    except (sqlite3.Error, UnicodeDecodeError) as exc:  # a schema that is not UTF-8: an edited file
        conn.close()
        raise JournalError(f"{p}: not a readable journal database ({exc})") from None
    if cols != ["seq", "t", "kind", "body", "prev_hash", "hash"]:
        conn.close()
        what = f"its table 'journal' has columns {cols}" if cols else "it has no table 'journal'"
        raise JournalError(f"{p}: not a cardtable journal ({what})")
    return conn, uri.endswith("immutable=1")


def _unwritable(p: Path) -> str:
    """What keeps the writer out, when it is the file or its folder that cannot be written (a disk
    remounted read-only, no permission): SQLite says only "unable to open database file"."""
    for q, what in ((p.parent, "its folder"), (p, "the file")):
        if q.exists() and not os.access(q, os.W_OK):
            return f"{what} {q} cannot be written (a read-only disk or folder, or no permission)"
    return ""


def connect_writer(p: Path, synchronous: str, create: bool) -> sqlite3.Connection:
    """Open (creating if ``create``) the journal file ``p`` for writing, in WAL mode.

    Raises:
        ValueError: ``synchronous`` is neither FULL nor NORMAL.
        JournalError: the file is missing (without ``create``), not a journal, or corrupt.
    """
    if synchronous not in ("FULL", "NORMAL"):
        raise ValueError(f"synchronous must be FULL or NORMAL, got {synchronous!r}")
    if not p.exists():
        if not create:
            raise JournalError(f"{p}: no journal here")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"{p}: cannot create the data directory ({exc})") from None
    elif create and p.is_file() and p.stat().st_size == 0:
        # what a crash while the journal was being created leaves: nothing was ever committed in it, so a
        # writer starts a new journal there, and says so (a reader refuses it: "not a journal")
        log.warning("%s: the file is empty (0 bytes), not a journal: a new journal is started in it", p)
    elif not create and p.is_file() and p.stat().st_size == 0:
        # a journal that must exist (a session, an event, a night) and is empty: refused as a reader
        # refuses it, before SQLite writes a schema into the file a user named
        raise JournalError(f"{p}: the file is empty (0 bytes), not a journal")
    try:
        conn = sqlite3.connect(p, isolation_level=None, check_same_thread=False, timeout=10.0)
        conn.text_factory = _text
    except sqlite3.Error as exc:
        raise JournalError(f"{p}: cannot open the journal ({exc})") from None
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "journal" not in tables:  # another program's database: never write into it
            raise JournalError(f"{p}: an SQLite database of something else (tables: "
                               f"{', '.join(sorted(tables)[:5])}), not a cardtable journal")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={synchronous}")
        conn.executescript(_SCHEMA)
        cols = [r[1] for r in conn.execute("PRAGMA table_info(journal)")]
        if cols != ["seq", "t", "kind", "body", "prev_hash", "hash"]:
            raise JournalError(f"{p}: table 'journal' has columns {cols}, not a cardtable journal")
        if conn.execute("SELECT 1 FROM meta WHERE key = 'schema'").fetchone() is None:
            # only a new journal is written to here: opening one that exists takes no write lock, so a
            # lock another process holds is met (and held, docs/ordering.md) by the first real commit
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
    except sqlite3.OperationalError as exc:
        conn.close()
        if "locked" in str(exc) or "busy" in str(exc):
            raise JournalError(f"{p}: locked by another process for longer than SQLite's 10 s busy "
                               "timeout; not opened") from None
        where = _unwritable(p)
        if where:   # a journal that reads well, on a disk remounted read-only: not "not readable"
            raise JournalError(f"{p}: cannot be opened to write: {where} ({exc}); a reader such as "
                               "'journal verify' still reads it") from None
        raise JournalError(f"{p}: not a readable journal database ({exc})") from None
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        conn.close()
        raise JournalError(f"{p}: not a readable journal database ({exc})") from None
    except JournalError:
        conn.close()
        raise
    return conn
