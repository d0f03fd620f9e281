"""The players' names at a euchre night's tables for the broadcast (``docs/broadcast.md``, "Euchre"): the
night's journal (``DIR/session.sqlite3``, read only, never written) folded into the night as it stands,
so a hand that starts at a table is named with who sits there in the round in play (a substitute under
the number he holds from his round), as the bridge broadcast names a board's pairs from the roster.

New rows are read when a hand starts (``session_journal.SessionFold``: a night adds a few rows a minute),
never on the event loop's hot path for cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from firmware_host.broadcast.session_journal import SessionFold
from laws.cards import Seat
from laws.euchre_night.night import EUCHRE, SEATS, Night


class NightNamesError(ValueError):
    """No euchre night in the folder, or a journal that is not one; the message names the file."""


class NightNames(SessionFold):
    """Who sits where at a euchre night's tables now (see the module docstring).

    Raises:
        NightNamesError: the folder holds no euchre night.
    """

    def __init__(self, folder: str | Path) -> None:
        super().__init__(folder, EUCHRE, what="a euchre night", hint="cardtable euchre open", error=NightNamesError)

    @property
    def night(self) -> Night:
        return cast(Night, self.state)

    @property
    def tables(self) -> tuple[str, ...]:
        return self.night.setup.tables

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
