"""An event on the club's machine (teams, Swiss, individual): its journal, its state rebuilt on restart,
each table's result taken once, and the next round's draw made the moment a round's last result is in.

The same promise as a pairs session's (``docs/session.md``, ``docs/ordering.md``): a table's ``board``
message (the wire's ``BoardResult``, unchanged: a real duplicate table sends the same) is checked, then
journaled, then applied, then answered; a resend of a message already taken (the same ``<table>:<seq>``)
is a ``repeat``; a message refused is journaled as a note with its reason, so nothing that came in is
lost. The journal is ``event.sqlite3`` in the event's folder (``firmware_host.records.journal``):

* row 1, an ``event`` ``{"type": "opened", "setup": EventSpec.to_dict(), "tables": [club table ids]}``;
* one ``event`` ``{"type": "result", "source": "<table>:<seq>", "result": TableResult.to_dict()}`` per
  result taken, and one ``note`` ``{"refused": {"source", "why"}}`` per message refused.

Club table ``tables[k - 1]`` is the event's table ``k`` in every round.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal, JournalError
from firmware_host.wire.messages import BoardResult, Envelope, MessageError
from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import TABLE_ID, TOPICS
from laws.competition.event import EventState, RoundDraw, TableResult
from laws.competition.event_spec import EventError, EventKind, EventSpec

EVENT_FILE = "event.sqlite3"
REFUSALS_KEPT = 200


class EventFileError(RuntimeError):
    """The event's journal cannot be made, read or written; the message names the file."""


@dataclass(frozen=True)
class Taken:
    """What became of one message: ``taken``, ``repeat`` or ``refused`` (with why), and the draw it made."""

    source: str
    board: int | None
    status: str
    why: str = ""
    draw: RoundDraw | None = None

    def answer(self) -> dict[str, Any]:
        """The answer as the wire's ``SessionAnswer`` spells it."""
        return {"source": self.source, "board": self.board, "status": self.status, "why": self.why}


def tables_needed(spec: EventSpec) -> int:
    """How many club tables a round of the event uses at most."""
    if spec.kind is EventKind.SECTIONS:
        return sum(sec.tables for sec in spec.sections)
    if spec.kind is EventKind.INDIVIDUAL:
        return spec.entrants // 4
    matches = spec.entrants // 2
    return 2 * matches if spec.kind.teams else matches


def check_tables(spec: EventSpec, tables: Sequence[str]) -> tuple[str, ...]:
    """The club's tables for the event, checked: ids as the wire allows, none twice, enough of them."""
    out = tuple(tables)
    for t in out:
        if not isinstance(t, str) or not TABLE_ID.match(t) or t in ("dashboard", "session"):
            raise EventError(f"a club table id is 1 to 64 letters, digits, '-' or '_', got {t!r}")
    if len(set(out)) != len(out):
        raise EventError("a club table is given twice")
    if len(out) < tables_needed(spec):
        raise EventError(f"the event needs {tables_needed(spec)} club tables a round, got {len(out)}")
    return out


class Unread(EventError):
    """A table's message that is not a result the event can read; ``source`` as far as it is known."""

    def __init__(self, source: str, why: str) -> None:
        super().__init__(why)
        self.source = source


def result_of(table: str, payload: bytes, tables: Sequence[str]) -> tuple[str, TableResult]:
    """A table's ``board`` message as (source, result), read with the wire's one checked reader.

    The ``ns`` and ``ew`` of the body (the names the table gave its sides) are not checked: the club
    table, the round and the event's draw say who sat there.

    Raises:
        Unread: the message is not JSON, not an envelope, not a ``BoardResult``, or from a table the
            event does not use, or its table number is not that table's.
    """
    read = read_json(payload)
    if read.refusal is not None:
        raise Unread(f"{table}:?", f"{table}: the message is not read ({read.refusal.why})")
    try:
        env = Envelope.from_dict(read.value, table=table, kind="board")
    except MessageError as exc:
        raise Unread(f"{table}:?", f"{table}: {exc}") from None
    source = f"{table}:{env.seq}"
    try:
        body = BoardResult.from_dict(env.body)
    except MessageError as exc:
        raise Unread(source, f"{source}: {exc}") from None
    if table not in tables:
        raise Unread(source, f"{source}: table {table} plays no part in the event")
    number = tables.index(table) + 1
    if body.table_number != number:
        raise Unread(source, f"{source}: the result names table {body.table_number}, but {table} is table {number}")
    declarer = body.declarer or ""
    try:
        return source, TableResult.from_dict({"round": body.round, "table": number, "board": body.board,
                                              "contract": body.contract, "declarer": declarer,
                                              "tricks": body.tricks})
    except EventError as exc:
        raise Unread(source, f"{source}: {exc}") from None


class EventSession:
    """A journaled event. Build one with :meth:`create` or :meth:`open`."""

    def __init__(self, journal: Journal, state: EventState, tables: tuple[str, ...],
                 clock: Callable[[], float]) -> None:
        self.journal = journal
        self.state = state
        self.tables = tables
        self.clock = clock
        self.sources: set[str] = set()
        self.refusals: list[dict[str, str]] = []
        self.version = 0

    @classmethod
    def create(cls, folder: str | Path, spec: EventSpec, tables: Sequence[str], *,
               clock: Callable[[], float] = time.time) -> EventSession:
        """A new event in ``folder`` (refused when the folder already holds one)."""
        club = check_tables(spec, tables)
        path = Path(folder) / EVENT_FILE
        if path.exists() and path.stat().st_size:
            raise EventFileError(f"{path}: an event is already there (open it, or choose another folder)")
        try:
            journal = Journal.open(path)
            journal.append("event", {"type": "opened", "setup": spec.to_dict(), "tables": list(club)}, clock())
        except (JournalError, OSError) as exc:
            raise EventFileError(f"{path}: cannot make the event's journal ({exc})") from None
        return cls(journal, EventState.opened(spec), club, clock)

    @classmethod
    def open(cls, folder: str | Path, *, clock: Callable[[], float] = time.time) -> EventSession:
        """The event in ``folder``, its state rebuilt from its journal."""
        path = Path(folder) / EVENT_FILE
        if not path.exists():
            raise EventFileError(f"{path}: no event here")
        try:
            journal = Journal.open(path, create=False)
            rows = list(journal.rows())
        except (JournalError, OSError) as exc:
            raise EventFileError(f"{path}: cannot read the event's journal ({exc})") from None
        if not rows or rows[0].body.get("type") != "opened":
            raise EventFileError(f"{path}: the first row is not the event's opening")
        try:
            spec = EventSpec.from_dict(rows[0].body["setup"])
            club = check_tables(spec, rows[0].body["tables"])
        except (EventError, KeyError, TypeError) as exc:
            raise EventFileError(f"{path}: row 1 is not an event's setup ({exc})") from None
        session = cls(journal, EventState.opened(spec), club, clock)
        for row in rows[1:]:
            if row.kind == "event" and row.body.get("type") == "result":
                try:
                    session.state.apply(TableResult.from_dict(row.body["result"]))
                except (EventError, KeyError) as exc:
                    raise EventFileError(f"{path}: row {row.seq} cannot be replayed ({exc})") from None
                session.sources.add(str(row.body.get("source")))
            elif row.kind == "note" and "refused" in row.body:
                session.refusals.append(row.body["refused"])
        session.refusals = session.refusals[-REFUSALS_KEPT:]
        return session

    def offer(self, table: str, payload: bytes) -> Taken:
        """One table's ``board`` message: read, checked, journaled, applied (see the module's docstring).

        Raises:
            EventFileError: the journal cannot be written (nothing is applied; the table resends).
        """
        try:
            source, result = result_of(table, payload, self.tables)
        except Unread as exc:
            return self._refuse(exc.source, None, str(exc))
        if source in self.sources:
            return Taken(source, result.board, "repeat")
        why = self.state.check(result)
        if why is not None:
            return self._refuse(source, result.board, why)
        if (result.round, result.table, result.board) in self.state.results:
            self._append("event", {"type": "result", "source": source, "result": result.to_dict()})
            self.sources.add(source)
            return Taken(source, result.board, "repeat", "the same result was taken before")
        self._append("event", {"type": "result", "source": source, "result": result.to_dict()})
        self.sources.add(source)
        made = self.state.apply(result)
        self.version += 1
        return Taken(source, result.board, "taken", draw=made)

    def _refuse(self, source: str, board: int | None, why: str) -> Taken:
        note = {"source": source, "why": why}
        self._append("note", {"refused": note})
        self.refusals = (self.refusals + [note])[-REFUSALS_KEPT:]
        self.version += 1
        return Taken(source, board, "refused", why)

    def _append(self, kind: str, body: dict[str, Any]) -> None:
        try:
            json.dumps(body, allow_nan=False)
            self.journal.append(kind, body, self.clock())
        except (JournalError, OSError, ValueError) as exc:
            raise EventFileError(f"{self.journal.path}: cannot write ({exc})") from None

    def table_id(self, number: int) -> str:
        return self.tables[number - 1]

    def seating_topic(self, number: int) -> str:
        return TOPICS.seating(self.table_id(number))

    def close(self) -> None:
        self.journal.close()
