"""An event's tables and the names at each side for the broadcast (``docs/broadcast.md``, "An event"): the
event's journal (``DIR/session.sqlite3``, read only, never written) folded into the event as it stands
(``laws/session/event/event_kind.py``), so a board that starts at a table is named with the names the
event holds then: a pair the director named, or a team whose players laid their member cards, after the
broadcast began is named from its next board on.

New rows are read when a board starts (``rows(since)``: an event adds a few rows a minute), never on the
hot path for cards. What the names are, side by side, is ``laws/broadcast/event_field.py:side_names``.
"""

from __future__ import annotations

import logging
from pathlib import Path

from firmware_host.broadcast.session_journal import open_session_journal
from firmware_host.records.journal import JournalError
from laws.broadcast.event_field import side_names
from laws.competition.event_spec import EventError, EventSpec
from laws.session.event.event_kind import EVENT, EventSessionState

log = logging.getLogger(__name__)
SESSION_FILE = "session.sqlite3"   # an event's journal in its folder (docs/competitions.md, "The journal")


class EventNamesError(ValueError):
    """No event in the folder, or a journal that is not one; the message names the file."""


class EventNames:
    """The event's tables, spec and the names at each side now (see the module docstring).

    Raises:
        EventNamesError: the folder holds no event.
    """

    def __init__(self, folder: str | Path) -> None:
        path = Path(folder) / SESSION_FILE
        self.journal, first = open_session_journal(path, "no event there (open one with `cardtable event open`)",
                                                   EventNamesError)
        try:
            self.state = EventSessionState(EVENT.setup_from_dict(first.body.get("setup")))
        except (EventError, ValueError) as exc:
            self.journal.close()
            raise EventNamesError(f"{path}: not an event ({exc})") from None
        self.seq = first.seq
        self.refresh()

    @property
    def spec(self) -> EventSpec:
        return self.state.setup.spec

    @property
    def tables(self) -> tuple[str, ...]:
        return self.state.setup.tables

    def refresh(self) -> None:
        """Fold the rows the event has committed since the last read (a record that no longer applies is
        skipped, as a reopening of the event skips it)."""
        try:
            for row in self.journal.rows(self.seq):
                self.seq = row.seq
                if row.kind == "event" and not self.state.check(row.body):   # "" to take; a reason or a repeat skips
                    self.state.apply(row.body)
        except JournalError as exc:
            log.warning("broadcast: the event's journal cannot be read now (%s); names as they were", exc)

    def sides(self) -> dict[str, tuple[str, str]]:
        """Side label -> the names at its two seats, as the event stands now."""
        self.refresh()
        return side_names(self.spec, self.state.event.names)

    def close(self) -> None:
        self.journal.close()
