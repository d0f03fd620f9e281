"""What the table still has to tell the broker, kept in the journal's own SQLite file.

Three small tables sit beside the hash-chained ``journal`` table (which they never touch, so the chain
and ``cardtable journal verify`` are unaffected):

- ``club_outbox``: messages to deliver in order (``id`` ascending), each naming the journal row
  (``seq``) it comes from. A row is deleted once the broker has acknowledged it (PUBACK).
- ``club_latest``: the latest value of each retained pack-health topic; only the newest
  matters, so a new value replaces the old.
- ``club_meta``: ``published_upto``, the highest journal seq the broker has acknowledged.

So a table that loses its broker, or is restarted while the broker is away, delivers everything
afterwards from here.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS club_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    seq INTEGER NOT NULL,
    topic TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS club_latest (topic TEXT PRIMARY KEY, payload TEXT NOT NULL, sent INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS club_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class Outbox:
    """The publisher's durable queue. Thread-safe (one lock around one connection).

    Args:
        path: the journal's database file (``Journal.path``).
        synchronous: SQLite ``synchronous`` for this connection (the journal's own setting).
    """

    def __init__(self, path: str | Path, synchronous: str = "FULL") -> None:
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, got {synchronous!r}")
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute(f"PRAGMA synchronous={synchronous}")
        self._conn.executescript(_SCHEMA)

    def put(self, seq: int, topic: str, payload: str) -> int:
        """Queue one message; returns its outbox id (delivery order)."""
        with self._lock:
            cur = self._conn.execute("INSERT INTO club_outbox (seq, topic, payload) VALUES (?, ?, ?)",
                                     (seq, topic, payload))
            return int(cur.lastrowid or 0)

    def pending(self, after: int, limit: int) -> list[tuple[int, int, str, str]]:
        """Up to ``limit`` queued messages with id > ``after``: ``(id, seq, topic, payload)`` in order."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, seq, topic, payload FROM club_outbox WHERE id > ? ORDER BY id LIMIT ?",
                (after, limit)).fetchall()
        return [(int(a), int(b), str(c), str(d)) for a, b, c, d in rows]

    def delivered(self, ids: Iterable[int]) -> None:
        """The broker acknowledged these messages: drop them and move ``published_upto``."""
        ids = list(ids)
        if not ids:
            return
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                marks = ",".join("?" * len(ids))
                top = self._conn.execute(f"SELECT MAX(seq) FROM club_outbox WHERE id IN ({marks})",
                                         ids).fetchone()[0]
                self._conn.execute(f"DELETE FROM club_outbox WHERE id IN ({marks})", ids)
                if top is not None:
                    self._conn.execute(
                        "INSERT INTO club_meta VALUES ('published_upto', ?) ON CONFLICT(key) DO UPDATE "
                        "SET value = MAX(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))", (str(top),))
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:  # a COMMIT that failed (disk full) has already rolled back
                    self._conn.execute("ROLLBACK")
                raise

    def count(self) -> int:
        """How many messages wait for the broker."""
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM club_outbox").fetchone()[0])

    def published_upto(self) -> int:
        """The highest journal seq whose message the broker acknowledged (0 if none)."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM club_meta WHERE key = 'published_upto'").fetchone()
        return int(row[0]) if row else 0

    def last_queued_seq(self) -> int:
        """The journal seq of the newest message ever queued: the highest still waiting, or else the
        highest the broker acknowledged (0 if none)."""
        with self._lock:
            row = self._conn.execute("SELECT MAX(seq) FROM club_outbox").fetchone()
        top = int(row[0]) if row and row[0] is not None else 0
        return max(top, self.published_upto())

    def set_latest(self, topic: str, payload: str) -> None:
        """Remember the newest value of a retained topic, to be sent (again) when connected."""
        with self._lock:
            self._conn.execute("INSERT INTO club_latest VALUES (?, ?, 0) ON CONFLICT(topic) DO UPDATE "
                               "SET payload = excluded.payload, sent = 0", (topic, payload))

    def unsent_latest(self) -> list[tuple[str, str]]:
        """Retained values not yet handed to the broker: ``(topic, payload)``."""
        with self._lock:
            rows = self._conn.execute("SELECT topic, payload FROM club_latest WHERE sent = 0").fetchall()
        return [(str(t), str(p)) for t, p in rows]

    def mark_latest(self, topic: str, payload: str, sent: bool) -> None:
        """Mark a retained value as handed over (only if it is still the newest one)."""
        with self._lock:
            self._conn.execute("UPDATE club_latest SET sent = ? WHERE topic = ? AND payload = ?",
                               (int(sent), topic, payload))

    def resend_all_latest(self) -> None:
        """After a reconnection every retained value is sent again (the broker may have restarted)."""
        with self._lock:
            self._conn.execute("UPDATE club_latest SET sent = 0")

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()
