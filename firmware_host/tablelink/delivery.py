"""The publisher's delivery core, without paho: what a table has to tell the club, kept and sent in order.

Every ordered message (``event``, ``ruling``, ``deal``, ``board``, ``players``) is first written to the
outbox in the journal's SQLite file (:class:`Outbox`, below), then handed to ``send`` by the sender loop
(:meth:`Delivery.run`, a thread of the publisher's), in order, while the broker is connected; it leaves
the outbox when the broker acknowledges it (:meth:`Delivery.published`). Retained values (``pack/...``)
and the newest status go out after the ordered messages, so a status never overtakes what happened
before it. Each ordered message names the seq of the one before it (``prev``); each status names the ids
of the last commands the table took in (``done``).

**Never a packet the broker refuses.** Every message is measured before it goes into the outbox (a status,
before it is sent): one larger than the club broker's packet leaves on its topic (``max_packet_size
65536``, docs/mqtt.md "The broker"; ``wire.duplicate.seating_room``) would make Mosquitto disconnect the
table, and the outbox would send it again at every reconnect, for ever, with everything behind it. It is
not queued: one ERROR names it and its size, it is counted (``oversize``), and each ``on_oversize``
callback is told (the table journals a note and shows it: ``tablelink.too_large``). The journal keeps it.

``send(topic, payload, qos, retain)`` is the only way out: the MQTT client's ``publish`` in the table,
anything with the same shape in a test. It returns the message id the broker's acknowledgement will name.
The core holds no socket and calls nothing of paho's; the shell (``publisher.MqttPublisher``) tells it when
the broker comes and goes (:meth:`connected`, :meth:`disconnected`) and when a message is acknowledged.

## The outbox (:class:`Outbox`)

What the table still has to tell the broker, kept in the journal's own SQLite file.

Three small tables sit beside the hash-chained ``journal`` table (which they never touch, so the chain
and ``cardtable journal verify`` are unaffected):

- ``club_outbox``: messages to deliver in order (``id`` ascending), each naming the journal row
  (``seq``) it comes from. A row is deleted once the broker has acknowledged it (PUBACK).
- ``club_latest``: the latest value of each retained pack-health topic; only the newest
  matters, so a new value replaces the old.
- ``club_meta``: ``published_upto``, the highest journal seq the broker has acknowledged; ``released``, the
  newest deal whose ``deal`` message was queued (``tablelink.restart`` reads it at a restart).

So a table that loses its broker, or is restarted while the broker is away, delivers everything
afterwards from here.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.records.journal_file import JournalError
from firmware_host.tablelink.secrecy import SecrecyFilter
from firmware_host.wire.duplicate import seating_room
from firmware_host.wire.topics import TOPICS

log = logging.getLogger(__name__)

FRESH_MAX = 1000     # messages kept in memory for the sender beside the outbox
ACK_BATCH, ACK_EVERY = 64, 0.25  # acknowledged outbox rows are deleted in batches
STATUS_EVERY = 0.1   # seconds between two status messages at most (the newest one wins)
DONE_KEPT = 32       # ids of the latest commands handed to the table, told in every status
Send = Callable[[str, str, int, bool], int]
#: told of a message not sent for its size: ``(kind, seq, size in bytes, body)``
Oversize = Callable[[str, int, int, dict[str, Any]], None]


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

    def __init__(self, path: str | Path, synchronous: str = "FULL", timeout: float = 10.0) -> None:
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, got {synchronous!r}")
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=timeout)
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(f"PRAGMA synchronous={synchronous}")
            self._conn.executescript(_SCHEMA)   # the first time, it writes: it needs the journal's write lock
        except sqlite3.Error as exc:
            self._conn.close()
            # one line, and SQLite's own words, which say whether it may work again by itself (a lock, a
            # full disk: `cardtable run` exits 1 and systemd starts it again) -- not a traceback
            raise JournalError(f"{self.path}: the club's outbox cannot be made in the journal ({exc})") from None

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

    def released(self) -> int | None:
        """The newest deal whose ``deal`` message was queued (None: none was, since this key was kept)."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM club_meta WHERE key = 'released'").fetchone()
        return int(row[0]) if row else None

    def set_released(self, deal: int) -> None:
        """A ``deal`` message for ``deal`` was queued."""
        with self._lock:
            self._conn.execute("INSERT INTO club_meta VALUES ('released', ?) ON CONFLICT(key) DO UPDATE "
                               "SET value = MAX(CAST(value AS INTEGER), excluded.value)", (str(deal),))

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


class Delivery:
    """The outbox, the order and the acknowledgements of one table's messages (see the module docstring).

    Args:
        table: the table's id.
        journal: the table's open journal (the outbox lives in its file; the heartbeat names its head).
        secrecy: the filter that says whether a deal's cards are being held back.
        send: ``send(topic, payload, qos, retain) -> message id``.
        clock: wall-clock seconds for the ``t`` of each message.
        heartbeat: seconds between heartbeats.
        window: how many messages may wait for the broker's acknowledgement at once.
    """

    def __init__(self, table: str, journal: Journal, secrecy: SecrecyFilter, send: Send,
                 clock: Callable[[], float] = time.time, *, heartbeat: float = 5.0, window: int = 200) -> None:
        self.table = table
        self.send = send
        self.clock = clock
        self.heartbeat = heartbeat
        self.window = window
        self.secrecy = secrecy
        self.outbox = Outbox(journal.path, journal.synchronous)
        self._journal = journal
        self.wake = threading.Condition()
        self.stopping = False
        self.is_connected = False
        self._latest_dirty = True  # retained values left unsent by an earlier run go out first
        self._status_env: dict[str, Any] | None = None
        self._status_dirty = False
        self._status_at = 0.0
        self._sent_id = 0            # highest outbox id handed to ``send`` in this process
        self._inflight: dict[int, int] = {}  # message id -> outbox id (sender thread only)
        self._acked_mids: deque[int] = deque()
        self._acked: list[int] = []
        self._acked_at = 0.0
        self._fresh: deque[tuple[int, str, str]] = deque()
        self._backlog = True  # the outbox may hold rows not in _fresh (from an earlier run, an outage)
        # The seq of the last ordered message ever queued (this run or an earlier one): the next one's ``prev``.
        self.last_seq = self.outbox.last_queued_seq()
        self._done: deque[str] = deque(maxlen=DONE_KEPT)
        self._owed: deque[tuple[int, str, str]] = deque()  # committed, not yet in the outbox
        self._owed_said = False
        self._send_problem = ""
        self._resend_latest = False
        self.oversize = 0            # messages not sent: over the broker's packet (docs/mqtt.md)
        self.on_oversize: list[Oversize] = []
        self._status_too_large = False

    # -- what the table tells ----------------------------------------------------------------------

    def envelope(self, kind: str, deal: int, seq: int, body: dict[str, Any]) -> dict[str, Any]:
        # "secret": the deal's cards were being held back when this was written; a duplicate board's result
        # is sent whole once its play is over (docs/mqtt.md: ``secret`` false), whatever the deal's state
        return {"table": self.table, "kind": kind, "seq": seq, "deal": deal,
                "secret": kind != "board" and self.secrecy.is_open(deal), "t": self.clock(), "body": body}

    @staticmethod
    def dump(envelope: dict[str, Any]) -> str:
        return json.dumps(envelope, separators=(",", ":"), allow_nan=False)

    def queue(self, kind: str, deal: int, seq: int, body: dict[str, Any]) -> bool:
        """An ordered message: into the outbox (or held in memory while it cannot be written), in order.
        False: it is larger than the broker's packet and is not sent (:meth:`too_large`); the next
        message's ``prev`` names the one before it, so the dashboard sees no gap for it."""
        t = TOPICS.table(self.table, kind)
        with self.wake:
            envelope = self.envelope(kind, deal, seq, body)
            envelope["prev"] = self.last_seq  # the chain the dashboard checks for gaps
            payload = self.dump(envelope)
            size = len(payload.encode())
            fits = size <= seating_room(t)
            if fits:
                self.last_seq = max(self.last_seq, seq)
                self._owed.append((seq, t, payload))
                self._put_owed()
                self.wake.notify()
        if not fits:
            self.too_large(kind, seq, size, t, body)
        return fits

    def too_large(self, kind: str, seq: int, size: int, t: str, body: dict[str, Any]) -> None:
        """A message not sent for its size: one ERROR (its kind, row and size; never its body, which may
        name a card of an open deal), counted, and told to each ``on_oversize`` callback."""
        self.oversize += 1
        log.error("table %s: %s message of journal row %d not sent to the club: %d bytes, over the %d the "
                  "broker's packet leaves on %s (the broker would disconnect the table for it); the journal "
                  "keeps it", self.table, kind, seq, size, seating_room(t), t)
        for callback in list(self.on_oversize):
            try:
                callback(kind, seq, size, body)
            except Exception:  # the table must keep working whatever a listener does
                log.exception("table %s: telling the table of a message too large failed", self.table)

    def latest(self, t: str, kind: str, seq: int, body: dict[str, Any]) -> None:
        """A retained value (only the newest matters), kept in the outbox until sent (not one too large)."""
        deal = int(body.get("deal") or 0) if kind == "status" else 0
        payload = self.dump(self.envelope(kind, deal, seq, body))
        if len(payload.encode()) > seating_room(t):
            self.too_large(kind, seq, len(payload.encode()), t, body)
            return
        self.outbox.set_latest(t, payload)
        with self.wake:
            self._latest_dirty = True
            self.wake.notify()

    def status(self, deal: int, seq: int, body: dict[str, Any]) -> None:
        """The newest status, kept in memory only (the controller tells it again after a restart); sent
        at most every ``STATUS_EVERY`` seconds, retained."""
        envelope = self.envelope("status", deal, seq, body)
        with self.wake:
            self._status_env, self._status_dirty = envelope, True
            self.wake.notify()

    def status_text(self) -> str | None:
        """The latest status as it would go out (for tests and diagnostics)."""
        env = self._status_env
        return None if env is None else self.dump({**env, "done": list(self._done)})

    def command_done(self, cid: str) -> None:
        """A command the table has taken in: named in the next status (sent at once)."""
        with self.wake:
            if cid not in self._done:
                self._done.append(cid)
            self._status_dirty = self._status_env is not None
            self.wake.notify()

    def pending(self) -> int:
        """Messages not yet acknowledged by the broker."""
        return self.outbox.count()

    # -- the broker comes and goes (told by the shell, from its network thread) -------------------

    def connected(self) -> None:
        with self.wake:  # the sender marks them (a write: never in the network thread, where a full disk
            self._resend_latest = True  # would raise into the network loop)
            self._latest_dirty = True
            self._status_dirty = self._status_env is not None
            self.is_connected = True
            self.wake.notify_all()

    def disconnected(self) -> bool:
        """The broker is gone; True if it was connected."""
        with self.wake:
            was = self.is_connected
            self.is_connected = False
            self._backlog = True
            self._fresh.clear()
        return was

    def published(self, mid: int) -> None:
        """The broker acknowledged message ``mid`` (resolved to outbox ids by the sender thread, which
        alone owns ``_inflight``; no lock of ours is taken here, the network thread may hold its own)."""
        self._acked_mids.append(mid)
        if len(self._acked_mids) >= self.window // 2:
            with self.wake:
                self.wake.notify()

    # -- the sender loop ---------------------------------------------------------------------------

    def stop(self) -> None:
        with self.wake:
            self.stopping = True
            self.wake.notify_all()

    def close(self) -> None:
        """After the loop ended: drop what the broker acknowledged, close the outbox."""
        self._flush_acks(force=True)
        self.outbox.close()

    def run(self) -> None:
        """The sender loop, until :meth:`stop`: outbox first, then retained values, then the status, and
        a heartbeat every ``heartbeat`` seconds. Nothing the broker or the disk does stops it."""
        next_beat = time.monotonic()
        while True:
            with self.wake:
                if self.stopping:
                    return
                due = [next_beat, time.monotonic() + 0.5]
                if self._status_dirty and self.is_connected:
                    due.append(self._status_at + STATUS_EVERY)
                self.wake.wait(timeout=max(0.0, min(due) - time.monotonic()))
                if self.stopping:
                    return
            try:
                with self.wake:
                    self._put_owed()
                self._flush_acks()
                if not self.is_connected:
                    continue
                self._send_ordered()  # first, so a status never overtakes what happened before it
                self._send_latest()
                self._send_status()
                if time.monotonic() >= next_beat:
                    next_beat = time.monotonic() + self.heartbeat
                    beat = {"table": self.table, "t": self.clock(), "seq": self.last_seq,
                            "pending": self.outbox.count(), "head": self._journal.read_head()}
                    self.send(TOPICS.table(self.table, "heartbeat"), json.dumps(beat), 0, False)
            except Exception as exc:  # the table must keep working whatever the broker or the disk does
                problem = f"{type(exc).__name__}: {exc}"
                if problem != self._send_problem:  # said once per problem, not once per retry
                    self._send_problem = problem
                    log.warning("table %s: publishing failed (%s); retrying", self.table, problem)
                with self.wake:
                    self.wake.wait(timeout=1.0)  # not at once: the cause (a full disk) takes a while
            else:
                if self._send_problem:
                    self._send_problem = ""
                    log.info("table %s: publishing again", self.table)

    def _put_owed(self) -> None:
        """Move the messages not yet in the outbox into it, in order (the caller holds ``wake``). While
        the outbox cannot be written (a full disk) they wait here and the sender tries again: a message
        the journal committed is never dropped because its copy for the club could not be stored."""
        while self._owed:
            seq, t, payload = self._owed[0]
            try:
                oid = self.outbox.put(seq, t, payload)
            except (sqlite3.Error, OSError) as exc:
                if not self._owed_said:
                    self._owed_said = True
                    log.warning("table %s: the club outbox cannot be written (%s); %d message(s) wait in "
                                "memory and are stored when it can", self.table, exc, len(self._owed))
                return
            self._owed.popleft()
            # A copy in memory spares the sender a read back while all is well; during an outage (or
            # past FRESH_MAX) the sender reads the outbox instead.
            if self.is_connected and len(self._fresh) < FRESH_MAX:
                self._fresh.append((oid, t, payload))
            else:
                self._fresh.clear()
                self._backlog = True
        if self._owed_said:
            self._owed_said = False
            log.warning("table %s: the club outbox is writable again", self.table)

    def _send_status(self) -> None:
        now = time.monotonic()
        with self.wake:
            if not self._status_dirty or self._status_env is None or now - self._status_at < STATUS_EVERY:
                return
            self._status_dirty, self._status_at = False, now
            envelope = {**self._status_env, "done": list(self._done)}
        t, payload = TOPICS.table(self.table, "status"), self.dump(envelope)
        if len(payload.encode()) > seating_room(t):   # the last status that fit stays on the broker
            if not self._status_too_large:              # said once, not at every change of the table
                self._status_too_large = True
                self.too_large("status", int(envelope.get("seq") or 0), len(payload.encode()), t,
                               dict(envelope.get("body") or {}))
            return
        self._status_too_large = False
        self.send(t, payload, 1, True)

    def _send_latest(self) -> None:
        if self._resend_latest:  # after a (re)connection every retained value goes again
            self.outbox.resend_all_latest()
            self._resend_latest = False
        if not self._latest_dirty:
            return
        self._latest_dirty = False
        for t, payload in self.outbox.unsent_latest():
            self.send(t, payload, 1, True)
            self.outbox.mark_latest(t, payload, True)

    def _send_ordered(self) -> None:
        room = self.window - len(self._inflight)
        if room <= 0:
            return
        with self.wake:
            if self._backlog:
                self._fresh.clear()
                batch = [(o, t, p) for o, _s, t, p in self.outbox.pending(self._sent_id, room)]
                self._backlog = len(batch) == room  # more may wait in the outbox
            else:
                batch = []
                while self._fresh and len(batch) < room:
                    batch.append(self._fresh.popleft())
        for oid, t, payload in batch:
            if oid <= self._sent_id:
                continue
            # Never hold our lock across send(): the client calls ``published`` holding its own mutex.
            mid = self.send(t, payload, 1, False)
            self._sent_id = oid
            self._inflight[mid] = oid

    def _flush_acks(self, force: bool = False) -> None:
        while self._acked_mids:
            oid = self._inflight.pop(self._acked_mids.popleft(), None)
            if oid is not None:  # None: a retained value or the online flag, not from the outbox
                self._acked.append(oid)
        # Acknowledged rows are dropped in batches: one that outlives a crash is sent again and the
        # dashboard drops the repeat.
        now = time.monotonic()
        if self._acked and (force or len(self._acked) >= ACK_BATCH or now - self._acked_at >= ACK_EVERY):
            self.outbox.delivered(self._acked)
            self._acked, self._acked_at = [], now
