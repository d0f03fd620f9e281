"""Events the law engine could not take, set aside: **no journaled input may stop a table from starting.**

An event is journaled before the engine sees it (``ordering``), so an event that makes the engine raise
is in the append-only journal for good, and every restart replays it. The rule (``docs/ordering.md``,
"An event the engine cannot take"):

- The engine either refuses the event (a ``ValueError``: the refusals ``docs/events.md`` lists, such as a
  bridge ``result`` without its contract), or fails on it (any other exception: a fault in a clause). In
  both cases the event is **set aside**: the engine goes on as if it had not come (it is rebuilt from the
  newest checkpoint and the journal's events without the set-aside rows), the journal gets a note
  ``{"set_aside": ROW, "type", "src", "error", "ruling"}`` (``ruling`` ``"none"`` for a refusal,
  ``"unknown"`` for a failure: the director rules on it), the display says so, and the club's status
  lists it (``set_aside``) until the director's acknowledgement.
- A restart skips the rows its journal notes as set aside. A row that raises at a restart without such a
  note (the process died before the note, or the code changed) is set aside then, noted, reported the
  same way, and the table starts.

The controller (``ctl``) is typed ``Any`` as in ``ordering``: this module is its part.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from laws.engine import LawEngine
from laws.events import GameChosen, event_from_dict

log = logging.getLogger(__name__)
REPORTED = 8  # set-aside rows told in the status at most (the newest)


@dataclass(frozen=True)
class SetAside:
    """A journal row the engine could not take.

    Attributes:
        row: the event's journal row.
        type: its event type (``?`` when the row is not an event the format reads).
        source: where it came from (the row's ``src``).
        error: for a refusal ``refused: REASON`` (the engine's sentence, as the director reads it); for a
            failure the exception, ``Type: message`` (the journal note only: it may name a card).
        refused: the engine refused it (``ValueError``): no ruling is due. Otherwise the engine failed
            on it and its ruling is unknown.
    """

    row: int
    type: str
    source: str
    error: str
    refused: bool

    @property
    def ruling(self) -> str:
        return "none" if self.refused else "unknown"

    def note(self) -> dict[str, Any]:
        """The journal note that records it."""
        return {"set_aside": self.row, "type": self.type, "src": self.source, "error": self.error[:500],
                "ruling": self.ruling}

    def status(self) -> dict[str, Any]:
        """What the club's status says of it (no message text: it may name a card of an open deal)."""
        return {"row": self.row, "type": self.type, "src": self.source, "ruling": self.ruling,
                "error": self.error.split(":", 1)[0][:60]}

    def text(self) -> str:
        """The display's sentence."""
        if self.refused:
            return (f"{self.type} from {self.source} not applied (journal row {self.row}): "
                    f"{self.error.split(': ', 1)[-1][:200]}")
        return (f"{self.type} from {self.source} set aside (journal row {self.row}): the law engine failed "
                f"on it ({self.error.split(':', 1)[0][:60]}); its ruling is unknown, the director rules on it")

    @classmethod
    def of(cls, row: int, body: dict[str, Any], exc: BaseException) -> SetAside:
        kind = body.get("type")
        src = body.get("src")
        refused = isinstance(exc, ValueError)   # a refusal is said in words: its class name reads as a traceback
        return cls(row, kind[:40] if isinstance(kind, str) else "?", src[:40] if isinstance(src, str) else "?",
                   (f"refused: {exc}" if refused else f"{type(exc).__name__}: {exc}")[:500], refused)

    @classmethod
    def from_note(cls, body: dict[str, Any]) -> SetAside | None:
        row = body.get("set_aside")
        if isinstance(row, bool) or not isinstance(row, int):
            return None
        return cls(row, str(body.get("type", "?"))[:40], str(body.get("src", "?"))[:40],
                   str(body.get("error", ""))[:500], body.get("ruling") == "none")


class Failed(Exception):
    """A journal row the engine could not take during a replay (caught by the replay's caller)."""

    def __init__(self, aside: SetAside) -> None:
        super().__init__(aside.error)
        self.aside = aside


def feed_row(engine: LawEngine, seq: int, body: dict[str, Any]) -> Any:
    """The event of an event row fed to ``engine``; its rulings (a ``game`` line gives none).

    Raises:
        Failed: the row is not an event the format reads, or the engine refused it or failed on it.
    """
    try:
        event = event_from_dict(body)
        if isinstance(event, GameChosen):
            return event, []
        return event, engine.feed(event)
    except Exception as exc:  # every failure of one row is that row's: it is set aside
        raise Failed(SetAside.of(seq, body, exc)) from exc


def engine_without(ctl: Any, skip: Iterable[int], version: str) -> LawEngine:
    """A new engine from the journal's newest checkpoint taken by laws ``version`` and the event rows
    after it, without the rows in ``skip`` (and without any further row it could not take)."""
    skipped = set(skip)
    engine = LawEngine(ctl.game)
    since = 0
    found = ctl.journal.checkpoint(version) if ctl.checkpoints else None
    if found is not None:
        try:
            engine.restore(json.loads(found[1])["engine"])
            since = found[0]
        except (ValueError, KeyError, TypeError, AttributeError):
            engine = LawEngine(ctl.game)
    for row in ctl.journal.rows(since):
        if row.kind != "event" or row.seq in skipped:
            continue
        try:
            feed_row(engine, row.seq, row.body)
        except Failed:  # it raised before too: the live table set it aside when it came
            log.warning("journal row %d set aside again while rebuilding the engine", row.seq)
            skipped.add(row.seq)
            return engine_without(ctl, skipped, version)
    return engine


def live(ctl: Any, aside: SetAside, version: str) -> None:
    """An event the engine just refused or failed on (its row is committed): rebuild the engine without
    it (from a checkpoint of laws ``version``), journal the note, tell the display and the status."""
    ctl.set_aside_rows.add(aside.row)
    try:
        ctl.engine = engine_without(ctl, ctl.set_aside_rows, version)
    except Exception as exc:  # the journal cannot be read now: the engine goes on as the event left it
        log.error("the engine could not be rebuilt without journal row %d (%s); it goes on as it is",
                  aside.row, type(exc).__name__)
    report(ctl, aside)
    ctl._not_applied = (f"journaled, but not applied: {aside.error.split(': ', 1)[-1]}" if aside.refused
                        else "journaled, but the law engine failed on it: the director rules on it")
    t = ctl.clock()

    def then(seqs: list[int]) -> None:
        ctl._after_note(seqs, aside.text(), f"journal row {aside.row} set aside (note row {seqs[-1]})")
        ctl._status()  # the club's status lists it

    ctl.order.commit_then([("note", aside.note(), t)], then)


def report(ctl: Any, aside: SetAside) -> None:
    """Keep ``aside`` for the status (the newest ``REPORTED``)."""
    ctl.set_aside = [*[a for a in ctl.set_aside if a.row != aside.row], aside][-REPORTED:]
    if aside.refused:
        log.warning("journal row %d (%s from %s) not applied: %s", aside.row, aside.type, aside.source,
                    aside.error.split(":", 1)[0])
    else:
        log.error("journal row %d (%s from %s) set aside: the law engine failed on it (%s)", aside.row,
                  aside.type, aside.source, aside.error.split(":", 1)[0])
