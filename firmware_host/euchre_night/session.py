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

import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.session.journalled import (
    JournalledService,
    Outcome,
    SessionFileError,
    SessionOrdering,
    session_path,
)
from firmware_host.wire.euchre import hand_says
from firmware_host.wire.messages import ANSWERS_KEPT, MessageError, SessionAnswer, row_envelope
from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import TOPICS, Topics
from laws.euchre_night.form import FIELDS
from laws.euchre_night.night import EUCHRE, Night, NightSetup

__all__ = ["NightError", "NightSession", "Offered", "SessionFileError"]


def answer_of(rec: Mapping[str, Any], status: str, why: str) -> SessionAnswer:
    """The answer to the message a record came from: its ``source``, its hand's number (``board``), the
    status, the reason of a refusal, and ``kind`` ``hand``: every message a night answers came on a
    table's ``hand`` topic (a hand, a stop, or one that did not read). It said ``board`` (the dataclass's
    default), a duplicate table's result message, which a euchre table never sends."""
    number = rec.get("hand", rec.get("board"))
    return SessionAnswer(str(rec.get("source", "")), number if isinstance(number, int) and not isinstance(number, bool)
                         else None, status, why if status == "refused" else "", "hand")


def answers_of(tables: Iterable[str], rows: Iterable[Any]) -> dict[str, list[SessionAnswer]]:
    """The answers a night had given each table, read back from its journal's rows after the opening one:
    a hand or stop taken (``taken``), a message refused (its note, ``refused`` with the reason), the
    latest ``ANSWERS_KEPT`` a table. A restarted night's seatings carry them again, so a table whose
    answer was lost with the process has it at once, as it would have had it."""
    out: dict[str, list[SessionAnswer]] = {t: [] for t in tables}
    for r in rows:
        if r.kind == "event" and r.body.get("type") in ("hand", "stop") and r.body.get("source"):
            rec, status, why = r.body, "taken", ""
        elif r.kind == "note" and isinstance(r.body.get("refused"), dict) and isinstance(r.body["refused"].get("record"), dict):
            rec, status, why = r.body["refused"]["record"], "refused", str(r.body["refused"].get("why", ""))
        else:
            continue
        table = str(rec.get("table", ""))
        if table in out and rec.get("type") in ("hand", "stop", "message"):
            out[table] = (out[table] + [answer_of(rec, status, why)])[-ANSWERS_KEPT:]
    return out


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
        self.ordering = SessionOrdering(self, read=self.reader, says=hand_says)

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
        # the night's identity on the wire (``night_id``), journaled in its setup, so the same after a restart
        # and another for the next night of the same players: without it a table could not tell a night left
        # in round 1 from the next night's round 1, and sent the old night's hands to the new one
        setup = replace(setup, id=setup.id or secrets.token_hex(8))
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
        session = cls(journal, state, clock, refusals)
        session.answers = answers_of(setup.tables, rows)
        return session

    # -- messages in ----------------------------------------------------------------------------------

    def reader(self, topic: str, payload: bytes) -> dict[str, Any]:
        """A table's ``hand`` message read into its record (the hand, or a stop, with ``source``
        ``<table>:<seq>`` and ``t``): the reader the session's ordering is given.

        Raises:
            MessageError: not a table's hand topic, not JSON, not an envelope (or one that breaks a ``board``
                envelope's rules: ``seq`` 1 or more, ``t`` not before the epoch, ...), a body that is neither a
                hand nor a stop, or one naming another table (the text says which). The director's records
                (``call``, ``correct``, ``substitute``) come from the director's pages only: a table's
                login once called the round, corrected its own hand and put a substitute in for a player
                at another table, each sent on its own hand topic.
        """
        name = self.topics.parse(topic)
        if name is None or name.family != "table" or name.kind != "hand":
            raise MessageError(f"{topic[:200]!r} is not a table's hand topic")
        got = read_json(payload)
        if not got.ok:
            assert got.refusal is not None
            raise MessageError(got.refusal.why)
        # a hand's envelope is ordered by its journal row as a ``board`` message's is, and held to the same
        # rules (docs/mqtt.md): it took a ``seq`` 0, a ``t`` before the epoch, a ``prev`` above its ``seq``
        env = row_envelope(got.value, table=name.table, kind="hand")
        body = dict(env.body)
        if body.get("type") not in ("hand", "stop"):   # a call, correction or substitution is the director's
            raise MessageError(f"a table's hand topic carries a hand or a stop, not a record of type "
                               f"{str(body.get('type'))[:40]!r}")
        # a field the notation does not name is neither checked nor kept: an outside table's "comment" went
        # whole into the journal, hands.json and the pages (a body may be 64 KiB)
        body = {k: v for k, v in body.items() if k in FIELDS[str(body["type"])]}
        if body.get("table") != name.table:
            raise MessageError(f"the hand names table {str(body.get('table'))[:64]!r} on {name.table}'s topic")
        body["source"] = f"{name.table}:{env.seq}"
        body["t"] = env.t
        return body

    def answered(self, outcomes: Iterable[Outcome]) -> set[str]:
        """The answers to the messages of a commit (``ordering.SessionOrdering.take``'s outcomes), kept
        for each table's seating; a held hand gets none. The tables answered."""
        told: set[str] = set()
        for o in outcomes:
            if o.status == "held":
                continue
            rec = o.record or {}
            table = str(rec.get("table", ""))
            if rec.get("type") not in ("hand", "stop", "message", "quiet") or table not in self.answers:
                continue
            self._keep(table, answer_of(rec, o.status, o.why))
            told.add(table)
            if o.status == "refused":
                self.refused += 1
        if told:
            self.version += 1
        return told

    def _keep(self, table: str, a: SessionAnswer) -> None:
        self.answers[table] = (self.answers[table] + [a])[-ANSWERS_KEPT:]

    def take(self, batch: Iterable[Offered]) -> list[tuple[str, SessionAnswer]]:
        """A batch through the session's ordering at once (one transaction): the answers to give (a held
        hand gets none). The desk does the same a step at a time (``desk.NightDesk.step``).

        Raises:
            SessionFileError: the journal cannot be written (nothing is taken; the ordering holds the batch
                and offers it again at the next take, after its back-off).
        """
        with self.lock:
            for m in batch:
                self.ordering.offer(m.topic, m.payload)
            outcomes = self.ordering.take()
            if outcomes is None:
                if self.ordering.fault is not None:
                    raise SessionFileError(self.ordering.fault)
                return []
            self.answered(outcomes)
            return [(str((o.record or {}).get("table", "")), answer_of(o.record or {}, o.status, o.why))
                    for o in outcomes if o.status != "held"]

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
        return self._director({"type": "correct", "table": table, "round": rnd, "hand": hand, "facts": facts,
                               "why": why}, by)

    def substitute(self, player: Any, name: Any, member: Any, from_round: Any, why: Any, by: str) -> str:
        """The director puts a substitute in for ``player`` from round ``from_round`` on (``docs/euchre.md``,
        "Substitutes"): journaled as a ``substitute`` record, then on the seatings, pages and exports;
        '' or why not (nothing journaled then)."""
        return self._director({"type": "substitute", "player": player,
                               "name": name.strip() if isinstance(name, str) else name,
                               "member": "" if member is None else member, "from_round": from_round, "why": why}, by)

    def _director(self, rec: dict[str, Any], by: str) -> str:
        """A director's record, signed and timed, checked by the night and journaled; '' or why not (nothing
        journaled then)."""
        with self.lock:
            rec = {**rec, "by": by[:60], "t": self.clock()}
            why_not = self.night.check(rec)
            if why_not:
                return why_not
            self.submit([rec])
            return ""

    def head(self) -> str:
        row, h = self.journal.head()
        return f"{row}:{h}"
