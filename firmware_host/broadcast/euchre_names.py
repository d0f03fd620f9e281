"""The players' names at a euchre night's tables for the broadcast (``docs/broadcast.md``, "Euchre"): the
night's journal (``DIR/session.sqlite3``, read only, never written) folded into the night as it stands,
so a hand that starts at a table is named with who sits there in the round in play (a substitute under
the number he holds from his round), as the bridge broadcast names a board's pairs from the roster.

New rows are read when a hand starts (``rows(since)``: a night adds a few rows a minute), never on the
event loop's hot path for cards.
"""

from __future__ import annotations

import logging
from pathlib import Path

from firmware_host.broadcast.session_journal import open_session_journal
from firmware_host.records.journal import JournalError
from laws.cards import Seat
from laws.euchre_night.night import EUCHRE, SEATS, Night

log = logging.getLogger(__name__)
SESSION_FILE = "session.sqlite3"   # a night's journal in its folder (docs/euchre.md, "The session's journal")


class NightNamesError(ValueError):
    """No euchre night in the folder, or a journal that is not one; the message names the file."""


class NightNames:
    """Who sits where at a euchre night's tables now (see the module docstring).

    Raises:
        NightNamesError: the folder holds no euchre night.
    """

    def __init__(self, folder: str | Path) -> None:
        path = Path(folder) if Path(folder).suffix == ".sqlite3" else Path(folder) / SESSION_FILE
        self.journal, first = open_session_journal(
            path, "no euchre night there (open one with `cardtable euchre open`)", NightNamesError)
        try:
            self.night = Night(EUCHRE.setup_from_dict(first.body.get("setup")))
        except ValueError as exc:
            self.journal.close()
            raise NightNamesError(f"{path}: not a euchre night ({exc})") from None
        self.seq = first.seq
        self.refresh()

    @property
    def tables(self) -> tuple[str, ...]:
        return self.night.setup.tables

    def refresh(self) -> None:
        """Fold the rows the night has committed since the last read (a record that no longer applies is
        skipped, as a restart of the night skips it)."""
        try:
            for row in self.journal.rows(self.seq):
                self.seq = row.seq
                if row.kind == "event" and not self.night.check(row.body):
                    self.night.apply(row.body)
        except JournalError as exc:
            log.warning("broadcast: the euchre night's journal cannot be read now (%s); names as they were", exc)

    def seats(self, table_number: int) -> dict[Seat, str]:
        """Who sits where at table ``table_number`` (1, 2, ... as the night numbers them) in the round in
        play; {} when the table sits idle this round or is not the night's."""
        self.refresh()
        n = self.night
        if not 1 <= table_number <= len(n.setup.tables):
            return {}
        where = n.where(n.setup.tables[table_number - 1], n.current)
        if where is None:
            return {}
        return {seat: n.name_in(p, n.current) for seat, p in zip(SEATS, where[1])}

    def close(self) -> None:
        self.journal.close()
