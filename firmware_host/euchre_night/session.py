"""A euchre night's session on the club's machine: a kind of session on the journalled service
(``firmware_host/session/journalled.py``; the seam is ``laws/session/kind.py``), its pure model the night
(``laws.euchre_night.night``: ``EUCHRE``), and the tables' messages read, checked, committed, then applied
(``docs/euchre.md``).

Rows of the journal (``DIR/session.sqlite3``, the journalled service's file):

* row 1: ``event`` ``{"type": "opened", "setup": {...}}`` (``NightSetup.to_dict``);
* one ``event`` per record taken: a ``hand`` (the table's hand in the notation, with ``source``
  ``<table>:<seq>`` and ``t``), a table's ``stop``, the director's ``call`` (``round``, ``by``) or
  ``correct`` (``table``, ``round``, ``hand``, ``facts``, ``why``, ``by``, ``t``);
* one ``note`` ``{"refused": {"record": ..., "why": ...}}`` per message refused, whole (a message that
  could not be read: the record ``{"type": "message", "table", "payload"}``), so nothing a table sent is
  lost.

The service's promises are the duplicate session's (``docs/ordering.md``): a batch is checked record by
record against the night as the ones before it leave it, committed in one transaction, then applied and
answered; a journal that cannot be written takes nothing of the batch (the night is rebuilt from the
journal; ``SessionFileError``). A hand that arrives ahead of one still missing at its table is *held*:
neither journaled nor answered, so the table sends it again after the missing one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.session.journalled import JournalledService, SessionFileError, session_path
from firmware_host.wire.messages import Envelope, MessageError, SessionAnswer
from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import TOPICS, Topics
from laws.euchre_night.night import EUCHRE, Night, NightSetup

__all__ = ["NightError", "NightSession", "Offered", "SessionFileError"]
ANSWERS_KEPT = 16


class NightError(ValueError):
    """A folder that holds a night already, or none; the message names the file."""


@dataclass(frozen=True)
class Offered:
    """One message from a table as it arrived: its topic and its payload bytes."""

    topic: str
    payload: bytes


class NightSession(JournalledService):
    """The night, its journal, and the latest answers to each table (see the module docstring)."""

    KIND = EUCHRE
    state: Night

    def __init__(self, journal: Journal, state: Night, clock: Callable[[], float],
                 refusals: list[dict[str, Any]], topics: Topics = TOPICS) -> None:
        super().__init__(journal, state, clock, refusals)
        self.topics = topics
        self.answers: dict[str, list[SessionAnswer]] = {t: [] for t in state.setup.tables}
        self.refused = len(refusals)
        self.lock = threading.RLock()

    @property
    def night(self) -> Night:
        return self.state

    # -- making and opening ---------------------------------------------------------------------------

    @classmethod
    def create(cls, folder: str | Path, setup: NightSetup, clock: Callable[[], float] = time.time) -> NightSession:
        """Open a new night in ``folder``, all or nothing (``journalled.make_journal``).

        Raises:
            NightError: the folder holds a night already.
            laws.euchre_night.formats.FormatError: the night cannot be run as set up (nothing is made).
            SessionFileError: the journal cannot be made.
        """
        path = session_path(folder)
        if path.exists() and path.stat().st_size:
            raise NightError(f"{path}: a euchre night is already there (open it, or choose another folder)")
        journal, state = cls._journal_of(folder, setup, clock, "FULL")
        return cls(journal, state, clock, [])

    @classmethod
    def open(cls, folder: str | Path, clock: Callable[[], float] = time.time) -> NightSession:
        """The night in ``folder``, rebuilt from its journal.

        Raises:
            NightError: no night there.
            SessionFileError: a journal that is not one, or a chain that does not verify.
        """
        path = session_path(folder)
        if not path.exists():
            raise NightError(f"{path}: no euchre night there (open one with `cardtable euchre open`)")
        journal, setup, rows = cls._read(folder, readonly=False, synchronous="FULL")
        state, refusals = cls._replayed(path, setup, rows)
        return cls(journal, state, clock, refusals)

    # -- messages in ----------------------------------------------------------------------------------

    def read(self, m: Offered) -> tuple[str, dict[str, Any]]:
        """A table's message read: (table, the record). A message that cannot be read is the record
        ``{"type": "message", "why_link": ...}`` the journalled service refuses with that reason."""
        name = self.topics.parse(m.topic)
        payload = m.payload[:4000].decode("utf-8", "replace")
        if name is None or name.family != "table" or name.kind != "hand":
            return "", {"type": "message", "payload": payload, "why_link": f"{m.topic[:200]!r} is not a table's hand topic"}
        got = read_json(m.payload)
        if not got.ok:
            assert got.refusal is not None
            return name.table, {"type": "message", "table": name.table, "payload": payload, "why_link": got.refusal.why}
        try:
            env = Envelope.from_dict(got.value, table=name.table, kind="hand")
        except MessageError as exc:
            return name.table, {"type": "message", "table": name.table, "payload": payload, "why_link": str(exc)}
        body = dict(env.body)
        if body.get("table") != name.table:
            why = f"the hand names table {str(body.get('table'))[:64]!r} on {name.table}'s topic"
            return name.table, {"type": "message", "table": name.table, "payload": payload, "why_link": why}
        body["source"] = f"{name.table}:{env.seq}"
        body["t"] = env.t
        return name.table, body

    def take(self, batch: Iterable[Offered]) -> list[tuple[str, SessionAnswer]]:
        """Read a batch and submit it to the journalled service (one transaction); the answers to give (a
        held hand gets none).

        Raises:
            SessionFileError: the journal cannot be written (nothing is taken; the caller keeps the batch
                and offers it again).
        """
        with self.lock:
            read = [self.read(m) for m in batch]
            outcomes = self.submit([rec for _, rec in read])
            answers: list[tuple[str, SessionAnswer]] = []
            for (table, rec), o in zip(read, outcomes):
                if o.status == "held":
                    continue
                source = str(rec.get("source", ""))
                number = rec.get("hand") if isinstance(rec.get("hand"), int) else None
                answers.append((table, SessionAnswer(source, number, o.status, o.why if o.status == "refused" else "")))
                if o.status == "refused":
                    self.refused += 1
            for table, a in answers:
                if table in self.answers:
                    self.answers[table] = (self.answers[table] + [a])[-ANSWERS_KEPT:]
            if answers:
                self.version += 1
            return answers

    def call(self, by: str) -> str:
        """The director ends the round in play (each table finishes its hand in play); '' or why not."""
        with self.lock:
            rec = {"type": "call", "round": self.night.current, "by": by[:60]}
            why = self.night.check(rec)
            if why:
                return why
            self.submit([rec])
            return ""

    def correct(self, table: Any, rnd: Any, hand: Any, facts: Any, why: Any, by: str) -> str:
        """The director corrects a hand taken (``docs/euchre.md``, "The director's correction"): journaled
        as a ``correct`` record, then in the hand, its points and the standings; '' or why not (nothing
        journaled then)."""
        with self.lock:
            rec = {"type": "correct", "table": table, "round": rnd, "hand": hand, "facts": facts, "why": why,
                   "by": by[:60], "t": self.clock()}
            why_not = self.night.check(rec)
            if why_not:
                return why_not
            self.submit([rec])
            return ""

    def head(self) -> str:
        row, h = self.journal.head()
        return f"{row}:{h}"
