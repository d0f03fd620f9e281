"""A euchre night's session on the club's machine: its own hash-chained journal, the pure night
(``laws.euchre_night.night``) rebuilt from it, and the tables' messages read, checked, committed, then
applied (``docs/euchre.md``).

Rows of the journal (``DIR/night.sqlite3``):

* row 1: ``event`` ``{"type": "opened", "setup": {...}}`` (``NightSetup.to_dict``);
* one ``event`` per record taken: a ``hand`` (the table's hand in the notation, with ``source``
  ``<table>:<seq>`` and ``t``), a table's ``stop``, or the director's ``call`` (``round``, ``by``);
* one ``note`` ``{"refused": {"record" or "payload": ..., "why": ...}}`` per message refused, whole, so
  nothing a table sent is lost.

The session's promises are the duplicate session's (``docs/ordering.md``): a message is answered only
once what it answers is committed; a batch is one transaction; a journal that cannot be written takes
nothing of the batch (the messages stay held and are offered again).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.wire.messages import Envelope, MessageError, SessionAnswer
from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import TOPICS, Topics
from laws.euchre_night.night import Night, NightSetup

log = logging.getLogger(__name__)
FILE = "night.sqlite3"
PART = ".part"
ANSWERS_KEPT = 16


class NightError(ValueError):
    """A night that cannot be opened or a folder that holds none; the message names what and where."""


@dataclass(frozen=True)
class Offered:
    """One message from a table as it arrived: its topic and its payload bytes."""

    topic: str
    payload: bytes


class NightSession:
    """The night, its journal, and the latest answers to each table (see the module docstring)."""

    def __init__(self, folder: Path, journal: Journal, night: Night, clock: Callable[[], float] = time.time,
                 topics: Topics = TOPICS) -> None:
        self.folder = folder
        self.journal = journal
        self.night = night
        self.clock = clock
        self.topics = topics
        self.answers: dict[str, list[SessionAnswer]] = {t: [] for t in night.setup.tables}
        self.refusals: list[dict[str, Any]] = []
        self.taken = 0
        self.refused = 0
        self.lock = threading.RLock()
        self.version = 0   # counts every change (the pages send a view when it moves)

    # -- making and opening ---------------------------------------------------------------------------

    @classmethod
    def create(cls, folder: str | Path, setup: NightSetup, clock: Callable[[], float] = time.time) -> NightSession:
        """Open a new night in ``folder`` (all or nothing: the journal is made as a ``.part`` and renamed
        once its first row is committed).

        Raises:
            NightError: the folder holds a night already.
            laws.euchre_night.formats.FormatError: the night cannot be run as set up.
        """
        Night(setup)   # checks the setup before anything is made
        folder = Path(folder)
        path = folder / FILE
        if path.exists():
            raise NightError(f"{path}: a euchre night is already there (open it, or choose another folder)")
        folder.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + PART)
        for leftover in (part, Path(str(part) + "-wal"), Path(str(part) + "-shm")):
            leftover.unlink(missing_ok=True)
        journal = Journal.open(part)
        try:
            journal.append("event", {"type": "opened", "setup": setup.to_dict()}, clock())
        finally:
            journal.close()
        os.replace(part, path)
        return cls.open(folder, clock)

    @classmethod
    def open(cls, folder: str | Path, clock: Callable[[], float] = time.time) -> NightSession:
        """Open the night in ``folder`` and replay its journal.

        Raises:
            NightError: no night there, or a journal that does not verify or does not start with one.
        """
        folder = Path(folder)
        path = folder / FILE
        if not path.exists():
            raise NightError(f"{path}: no euchre night there (open one with `cardtable euchre open`)")
        journal = Journal.open(path, create=False)
        try:
            check = journal.verify()
            if not check.ok:
                raise NightError(f"{path}: the journal does not verify (row {check.bad_seq}: {check.reason})")
            rows = list(journal.rows())
            if not rows or rows[0].body.get("type") != "opened":
                raise NightError(f"{path}: the journal does not start with an opened night")
            night = Night(NightSetup.from_dict(rows[0].body["setup"]))
            session = cls(folder, journal, night, clock)
            for row in rows[1:]:
                if row.kind == "event":
                    night.apply(row.body)
                    session.taken += 1
                elif row.kind == "note" and "refused" in row.body:
                    session.refused += 1
                    session.refusals.append(row.body["refused"])
            return session
        except BaseException:
            journal.close()
            raise

    def close(self) -> None:
        self.journal.close()

    # -- messages in ----------------------------------------------------------------------------------

    def read(self, m: Offered) -> tuple[str, dict[str, Any] | None, str]:
        """A table's message read: (table, the record, why not). Never raises."""
        name = self.topics.parse(m.topic)
        if name is None or name.family != "table" or name.kind != "hand":
            return "", None, f"{m.topic[:200]!r} is not a table's hand topic"
        got = read_json(m.payload)
        if not got.ok:
            assert got.refusal is not None
            return name.table, None, got.refusal.why
        try:
            env = Envelope.from_dict(got.value, table=name.table, kind="hand")
        except MessageError as exc:
            return name.table, None, str(exc)
        body = dict(env.body)
        if body.get("table") != name.table:
            return name.table, None, f"the hand names table {str(body.get('table'))[:64]!r} on {name.table}'s topic"
        body["source"] = f"{name.table}:{env.seq}"
        body["t"] = env.t
        return name.table, body, ""

    def take(self, batch: Iterable[Offered]) -> list[tuple[str, SessionAnswer]]:
        """Read, check and commit a batch (one transaction), then apply it; the answers to give.

        Each record is checked against the night as the records before it in the batch leave it.

        Raises:
            firmware_host.records.journal.JournalError: the journal cannot be written (nothing is taken;
                the night is rebuilt from the journal; the caller keeps the batch and offers it again).
        """
        with self.lock:
            rows: list[tuple[str, dict[str, Any], float]] = []
            answers: list[tuple[str, SessionAnswer]] = []
            now = self.clock()
            for m in batch:
                table, rec, why = self.read(m)
                source = str(rec.get("source", "")) if rec else ""
                number = rec.get("hand") if rec and isinstance(rec.get("hand"), int) else None
                if rec is not None:
                    why = self.night.check(rec) or ""
                if why == "repeat":
                    answers.append((table, SessionAnswer(source, number, "repeat")))
                    continue
                if why == "later":   # a hand before it is missing: no answer, so the table sends it again
                    log.info("euchre night: %s held back: a hand before it has not arrived", source)
                    continue
                if why:
                    refused: dict[str, Any] = {"table": table, "why": why}
                    if rec is not None:
                        refused["record"] = rec
                    else:
                        refused["payload"] = m.payload[:4000].decode("utf-8", "replace")
                    rows.append(("note", {"refused": refused}, now))
                    answers.append((table, SessionAnswer(source, number, "refused", why)))
                    continue
                assert rec is not None
                self.night.apply(rec)
                rows.append(("event", rec, now))
                answers.append((table, SessionAnswer(source, number, "taken")))
            if rows:
                try:
                    self.journal.append_many(rows)
                except BaseException:
                    self.night = self._replay()
                    raise
            for kind, body, _ in rows:
                if kind == "event":
                    self.taken += 1
                else:
                    self.refused += 1
                    self.refusals.append(body["refused"])
            for table, a in answers:
                if table in self.answers:
                    self.answers[table] = (self.answers[table] + [a])[-ANSWERS_KEPT:]
            if rows or answers:
                self.version += 1
            return answers

    def _replay(self) -> Night:
        rows = list(self.journal.rows())
        night = Night(NightSetup.from_dict(rows[0].body["setup"]))
        for row in rows[1:]:
            if row.kind == "event":
                night.apply(row.body)
        return night

    def call(self, by: str) -> str:
        """The director ends the round in play (each table finishes its hand in play); '' or why not."""
        with self.lock:
            rec = {"type": "call", "round": self.night.current, "by": by[:60]}
            why = self.night.check(rec)
            if why:
                return why
            self.journal.append("event", rec, self.clock())
            self.night.apply(rec)
            self.version += 1
            return ""

    def head(self) -> str:
        row, h = self.journal.head()
        return f"{row}:{h}"
