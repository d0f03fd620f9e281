"""An event on the club's machine (teams, Swiss, individual, sections) as a kind of session: the
journalled service every kind runs on (``firmware_host/session/journalled.py``) with the event's pure
kind (``laws/session/event/event_kind.py``).

The service's promises hold unchanged: a table's ``board`` message (the wire's ``BoardResult``,
unchanged: a real duplicate table sends the same) is read here (:func:`result_of`), checked against
the event as it stands, journaled, applied and only then answered; a message taken before (the same
``<table>:<seq>``, or the same result of the same table and board) is a ``repeat``; a message refused is
journaled as a note with its reason; a commit that fails applies nothing (``SessionFileError``), and the
table's resend is taken later. The journal is ``session.sqlite3`` in the event's folder:

* row 1, an ``event`` ``{"type": "opened", "setup": EventSetup.to_dict()}`` (the spec and ``tables``);
* one ``event`` ``{"type": "result", "source": "<table>:<seq>", "result": TableResult.to_dict()}`` per
  result taken (with ``foul``, the table's fouled-board call, when it made one), and one ``note`` ``{"refused": {"record", "why"}}`` per message refused.

Taking a round's last result makes the next round's draw in the same change (:class:`Taken` ``draw``).
Club table ``tables[k - 1]`` is the event's table ``k`` in every round.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from firmware_host.session.journalled import JournalledService, SessionFileError, session_path
from firmware_host.wire.duplicate import LinkError
from firmware_host.wire.messages import BoardResult, MessageError, board_envelope
from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import TOPICS
from laws.competition.event import EventState, RoundDraw
from laws.competition.event_spec import EventError, EventSpec
from laws.competition.table_result import TableResult
from laws.duplicate.deal import Board
from laws.scoring.duplicate import passed_out_lead
from laws.session.event.event_kind import EVENT, EventSessionState, EventSetup, check_tables, tables_needed

__all__ = ["EventFileError", "EventSession", "Taken", "Unread", "board_of", "check_tables", "result_of", "tables_needed"]

EventFileError = SessionFileError   # the event's journal cannot be made, read or written


@dataclass(frozen=True)
class Taken:
    """What became of one message offered straight to the session (:meth:`EventSession.offer`): ``taken``,
    ``repeat`` or ``refused`` (with why), and the draw it made. The desk's answers on the tables' seatings
    are ``session/answers.py``'s, as a pairs session's are."""

    source: str
    board: int | None
    status: str
    why: str = ""
    draw: RoundDraw | None = None


class Unread(EventError):
    """A table's message that is not a result the event can read; ``source`` as far as it is known."""

    def __init__(self, source: str, why: str) -> None:
        super().__init__(why)
        self.source = source


def result_of(table: str, payload: bytes, tables: Sequence[str],
              fingerprints: Mapping[int, str] | None = None) -> tuple[str, TableResult]:
    """A table's ``board`` message as (source, result): :func:`board_of` without the call."""
    source, result, _foul = board_of(table, payload, tables, fingerprints)
    return source, result


def board_of(table: str, payload: bytes, tables: Sequence[str],
             fingerprints: Mapping[int, str] | None = None) -> tuple[str, TableResult, dict[str, Any] | None]:
    """A table's ``board`` message as (source, result, fouled-board call or None), read with the wire's one
    checked reader. The call (``foul``) is kept beside the result: the event holds a board a table called
    fouled for the director (``laws.competition.fouled``) rather than score different deals as one.

    The body is the pairs session's (``docs/mqtt.md``), so ``section``, ``ns`` and ``ew`` must be there as
    it says (the table's view gives the ``section`` to send), but they are not checked against the event:
    the club table, the round and the event's draw say where it was played and who sat there. Its
    ``record``, given, is checked against the event's hand records when it has them (``fingerprints``,
    board -> fingerprint), as a pairs session checks it: a result played from another record (a board
    misboarded from another set) was taken and scored as the event's board.

    Raises:
        Unread: the message is not JSON, not an envelope, not a ``BoardResult``, or from a table the
            event does not use, or its table number is not that table's, or a pass-out with a lead, or
            played from a record that is not the event's board.
    """
    read = read_json(payload)
    if read.refusal is not None:
        raise Unread(f"{table}:?", f"{table}: the message is not read ({read.refusal.why})")
    try:
        env = board_envelope(read.value, table=table)
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
    why = passed_out_lead(body.contract, body.lead)
    if why:     # an event's result keeps no lead: refused here, in the pairs session's words
        raise Unread(source, f"{source}: board {body.board}: {why}")
    fingerprint = (fingerprints or {}).get(body.board)
    if body.record and fingerprint and body.record != fingerprint:
        raise Unread(source, f"{source}: board {body.board}: the table played from a record that is not this "
                             f"event's board {body.board} (fingerprint {body.record[:12]}..., the event's is "
                             f"{fingerprint[:12]}...)")
    declarer = body.declarer or ""
    try:
        result = TableResult.from_dict({"round": body.round, "table": number, "board": body.board,
                                        "contract": body.contract, "declarer": declarer, "tricks": body.tricks})
    except EventError as exc:
        raise Unread(source, f"{source}: {exc}") from None
    return source, result, None if body.foul is None else body.foul.to_dict()


def _record(source: str, table: str, result: TableResult, foul: dict[str, Any] | None) -> dict[str, Any]:
    """A table's result as the journal's ``result`` record, its fouled-board call beside it when it made one."""
    rec = {"type": "result", "source": source, "table": table, "board": result.board, "result": result.to_dict()}
    if foul is not None:
        rec["foul"] = foul
    return rec


class EventSession(JournalledService):
    """A journalled event. Build one with :meth:`create` or :meth:`open`."""

    KIND = EVENT
    state: EventSessionState

    @classmethod
    def create(cls, folder: str | Path, spec: EventSpec, tables: Sequence[str], *,
               clock: Callable[[], float] = time.time, synchronous: str = "FULL",
               boards: Sequence[Board] = ()) -> EventSession:
        """A new event in ``folder`` (refused when the folder already holds one), with the club's hand
        records when given (``boards``: sent to the tables with their rounds, written in the event's files).

        Raises:
            EventError: the tables do not fit the event, or the hand records lack a board it plays.
            SessionFileError: the journal cannot be made, or a session is already there.
        """
        journal, state = cls._journal_of(folder, EventSetup(spec, tuple(tables), tuple(boards)), clock, synchronous)
        return cls(journal, state, clock, [])

    @classmethod
    def open(cls, folder: str | Path, *, clock: Callable[[], float] = time.time,
             synchronous: str = "FULL") -> EventSession:
        """The event in ``folder``, its state rebuilt from its journal."""
        if not session_path(folder).exists():
            raise SessionFileError(f"{session_path(folder)}: no event here (make one with 'cardtable event open')")
        journal, setup, rows = cls._read(folder, readonly=False, synchronous=synchronous)
        state, refusals = cls._replayed(session_path(folder), setup, rows)
        return cls(journal, state, clock, refusals)

    @property
    def event(self) -> EventState:
        """The event as it stands (``laws.competition.event``)."""
        return self.state.event

    @property
    def tables(self) -> tuple[str, ...]:
        return self.state.setup.tables

    @cached_property
    def fingerprints(self) -> dict[int, str]:
        """Each board of the event's hand records -> its deal's fingerprint (empty without hand records);
        made once (the setup never changes): 500 boards take some 25 ms, too long for every message."""
        return {b.number: b.fingerprint for b in self.state.setup.boards}

    @property
    def sources(self) -> set[str]:
        return self.state.sources

    def reader(self) -> Callable[[str, bytes], dict[str, Any]]:
        """The kind's reader for ``firmware_host/session/journalled.py:SessionOrdering``: a table's ``board``
        message as a ``result`` record (with ``table`` and ``board`` beside it, as the ordering's budgets
        and the answers use), or ``LinkError`` naming what is wrong."""
        def read(topic: str, payload: bytes) -> dict[str, Any]:
            name = TOPICS.parse(topic)
            if name is not None and name.family == "table" and name.kind == "players":
                return self._member_cards(topic, payload)
            if name is None or name.family != "table" or name.kind != "board":
                raise LinkError(f"{topic[:200]}: not a table's board topic")
            try:
                source, result, foul = board_of(name.table, payload, self.tables, self.fingerprints)
            except Unread as exc:
                raise LinkError(str(exc)) from None
            return _record(source, name.table, result, foul)
        return read

    def _member_cards(self, topic: str, payload: bytes) -> dict[str, Any]:
        """A table's ``players`` message (both seats of a side read from their member cards) as a ``names``
        record of the competitor the round's draw seats there: a Swiss pair, a section's pair (named anew,
        as the director's form names it), or a team (the two added to the players it was named with, the
        team's name kept); ``LinkError`` saying why not. An individual's players are named by the director
        or ``--names`` one by one, or by a side's two member cards at once: one record naming both
        (``each``), North's (East's) card the player the draw seats North (East)."""
        from firmware_host.events.names import player_of, section_record
        from firmware_host.session.roster import RosterError, roster_of
        from firmware_host.wire.duplicate import parse_players
        from laws.competition.event_spec import EventKind, pair_id

        got = parse_players(topic, payload)
        table, number, rnd = got["table"], got["table_number"], got["round"]
        if table not in self.tables:
            raise LinkError(f"{table}: not a table of this event")
        own = self.tables.index(table) + 1
        if own != number:
            raise LinkError(f"{got['source']}: the players name table {number}, but {table} is table {own}")
        draw = self.event.draws.get(rnd)
        seat = next((t for t in draw.tables if t.table == number), None) if draw is not None else None
        if seat is None:
            raise LinkError(f"{got['source']}: round {rnd} seats nobody at table {number}")
        spec = self.event.spec
        try:
            players = [player_of(roster_of(self.journal.path), m) for m in got["members"]]
        except RosterError as exc:
            raise LinkError(f"{got['source']}: {exc}") from None
        by = {"by": f"{table} (member cards)", "source": got["source"], "table": table}
        if spec.kind is EventKind.INDIVIDUAL:       # each card names the player the draw seats there
            seats = (seat.north, seat.south) if got["side"] == "ns" else (seat.east, seat.west)
            return {"type": "names", "each": [{"competitor": who.number, "name": "", "players": [p]}
                                              for who, p in zip(seats, players)], **by}
        who = seat.north if got["side"] == "ns" else seat.east
        name = ""
        if spec.kind is EventKind.SECTIONS:
            place: dict[str, Any] = section_record(spec, seat.section, pair_id(who))
        else:
            place = {"competitor": who.number}
            if spec.kind.teams:
                before = self.event.names.get(who.number) or {}
                name = str(before.get("name", ""))
                known = list(before.get("players", ()))
                # a member by his number, a visitor by his name
                seen = {k.get("member") or ("", k.get("name")) for k in known}
                players = known + [p for p in players if (p.get("member") or ("", p.get("name"))) not in seen]
        return {"type": "names", **place, "name": name, "players": players, **by}

    def offer(self, table: str, payload: bytes) -> Taken:
        """One table's ``board`` message: read, checked, journaled, applied (see the module's docstring).

        Raises:
            SessionFileError: the journal cannot be written (nothing is applied; the table resends).
        """
        try:
            source, result, foul = board_of(table, payload, self.tables, self.fingerprints)
        except Unread as exc:
            self.refuse([({"type": "message", "table": table, "topic": TOPICS.board(table),
                           "payload": payload[:2000].decode("utf-8", "replace")}, str(exc))])
            self.version += 1
            return Taken(exc.source, None, "refused", str(exc))
        drawn = self.state.drawn
        outcome = self.take(_record(source, table, result, foul))
        made = self.event.draws[self.state.drawn] if self.state.drawn != drawn else None
        return Taken(source, result.board, outcome.status, outcome.why, made)

    def table_id(self, number: int) -> str:
        return self.tables[number - 1]

    def seating_topic(self, number: int) -> str:
        return TOPICS.seating(self.table_id(number))
