"""An event as a kind of session (``laws.session.kind``): the journalled service
(``firmware_host/session/journalled.py``) runs it as it runs a duplicate pairs session.

* **Setup** (:class:`EventSetup`, the journal's opening row): the event's spec
  (``laws.competition.event_spec.EventSpec``) and the club's tables, club table ``k`` of the list being
  event table ``k``; ``to_dict`` is the spec's dict with ``tables`` added.
* **A record** is ``{"type": "result", "source": "<table>:<seq>", "result": {round, table, board,
  contract, declarer, tricks}}`` (``TableResult.to_dict``).
* **Its check** (:meth:`EventSessionState.check`): ``repeat`` for a source taken already, or for the same
  result of the same table and board under a new number; otherwise the event's own reason
  (``EventState.check``), or "" to take it. Taking a round's last result makes the next round's draw
  (``EventState.apply``); :attr:`EventSessionState.drawn` says which round was drawn last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from laws.competition.event import EventState, TableResult
from laws.competition.event_spec import EventError, EventKind, EventSpec
from laws.session.kind import REPEAT

TABLE_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
RESERVED = ("dashboard", "session")


def tables_needed(spec: EventSpec) -> int:
    """How many club tables a round of the event uses at most."""
    if spec.kind is EventKind.SECTIONS:
        return sum(sec.tables for sec in spec.sections)
    if spec.kind is EventKind.INDIVIDUAL:
        return spec.entrants // 4
    matches = spec.entrants // 2
    return 2 * matches if spec.kind.teams else matches


def check_tables(spec: EventSpec, tables: Sequence[object]) -> tuple[str, ...]:
    """The club's tables for the event, checked: ids as the wire allows, none twice, enough of them."""
    out = []
    for t in tables:
        if not isinstance(t, str) or not 1 <= len(t) <= 64 or not set(t) <= TABLE_ID_CHARS or t in RESERVED:
            raise EventError(f"a club table id is 1 to 64 letters, digits, '-' or '_', got {t!r}")
        out.append(t)
    if len(set(out)) != len(out):
        raise EventError("a club table is given twice")
    if len(out) < tables_needed(spec):
        raise EventError(f"the event needs {tables_needed(spec)} club tables a round, got {len(out)}")
    return tuple(out)


@dataclass(frozen=True)
class EventSetup:
    """The event and the club's tables (see the module's docstring)."""

    spec: EventSpec
    tables: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", check_tables(self.spec, self.tables))

    def to_dict(self) -> dict[str, Any]:
        return {**self.spec.to_dict(), "tables": list(self.tables)}

    @classmethod
    def from_dict(cls, d: Any) -> EventSetup:
        if not isinstance(d, Mapping):
            raise EventError(f"an event's setup is an object, got {type(d).__name__}")
        return cls(EventSpec.from_dict({k: v for k, v in d.items() if k != "tables"}),
                   tuple(d.get("tables") or ()))


class EventSessionState:
    """The event's state as a kind of session's: the event and the sources taken."""

    def __init__(self, setup: EventSetup) -> None:
        self.setup = setup
        self.event = EventState.opened(setup.spec)
        self.sources: set[str] = set()
        self.drawn = 1

    def _result(self, rec: Mapping[str, Any]) -> TableResult:
        if rec.get("type") != "result" or not isinstance(rec.get("source"), str):
            raise EventError(f"an event takes result records, got {str(rec.get('type'))[:40]!r}")
        return TableResult.from_dict(rec.get("result"))  # type: ignore[arg-type]

    def check(self, rec: Mapping[str, Any]) -> str:
        try:
            result = self._result(rec)
        except EventError as exc:
            return str(exc)
        if rec["source"] in self.sources or self.event.results.get(
                (result.round, result.table, result.board)) == result:
            return REPEAT
        return self.event.check(result) or ""

    def apply(self, rec: Mapping[str, Any]) -> None:
        made = self.event.apply(self._result(rec))
        self.sources.add(str(rec["source"]))
        if made is not None:
            self.drawn = made.round


class EventSessionKind:
    """The event as a ``laws.session.kind.Kind``."""

    name = "event"

    def setup_from_dict(self, d: Any) -> EventSetup:
        return EventSetup.from_dict(d)

    def start(self, setup: EventSetup) -> EventSessionState:
        return EventSessionState(setup)

    def replay(self, setup: EventSetup, records: Iterable[Mapping[str, Any]]) -> tuple[EventSessionState, list[str]]:
        state = EventSessionState(setup)
        skipped = []
        for rec in records:
            why = state.check(rec)
            if why == REPEAT:
                continue
            if why:
                skipped.append(why)
                continue
            state.apply(rec)
        return state, skipped


EVENT = EventSessionKind()
