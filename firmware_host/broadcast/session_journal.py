"""A club session's journal read by the broadcast as the session stands (a pairs session's, an event's or a
euchre night's: any kind of session, ``laws/session/kind.py``): read only, never written, its first row the
opening row its kind's ``setup_from_dict`` reads, then its records folded into the kind's state as the
service folds them (a record the state now refuses is skipped, as a reopening skips it). New rows are read
only on :meth:`SessionFold.refresh`, which the broadcast calls when a board or hand starts, never on the
hot path for cards. What the broadcast takes from the state is its readers' (``bridge_names.py``, ``euchre_names.py``).

The fold also keeps the session's word on which table has finished which board (:attr:`SessionFold.lines`,
for the readers that say it: :meth:`SessionFold._lines`), with the time of the row that gave it: a result
entered by hand at the club, or a table's result whose ``play`` message the broadcast never got, is in the
session's journal, and ``after-field`` waits for every table's (``docs/broadcast.md``, "The session's
word")."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal, JournalError
from laws.session.kind import Kind

log = logging.getLogger(__name__)
Lines = dict[tuple[int, int], float]   # (table number, board) -> when the session's journal gave it a line
SESSION_FILE = "session.sqlite3"   # a club session's journal in its folder (docs/session.md, docs/euchre.md)


class SessionFold:
    """The session in ``folder`` as it stands (``state``).

    Args:
        folder: the session's folder (or its ``session.sqlite3``).
        kind: the kind of session (``DUPLICATE``, ``EVENT``, ``EUCHRE``).
        what: what the session is, for messages ("a duplicate session", "an event", "a euchre night").
        hint: the command that makes one, said when the folder has none.
        error: the exception raised, naming the file: no journal there, one that cannot be read, a first
            row that is not an opening row, or a setup that is not this kind's.
    """

    def __init__(self, folder: str | Path, kind: Kind, *, what: str, hint: str, error: type[ValueError]) -> None:
        path = Path(folder) if Path(folder).suffix == ".sqlite3" else Path(folder) / SESSION_FILE
        if not path.exists():
            raise error(f"{path}: no {what.split(' ', 1)[1]} there (open one with `{hint}`)")
        try:
            self.journal = Journal.open_readonly(path)
            first = next(iter(self.journal.rows()), None)
        except JournalError as exc:
            raise error(str(exc)) from None
        try:
            if first is None or first.kind != "event" or first.body.get("type") != "opened":
                raise error(f"{path}: the first row is not a session's opening row")
            try:
                self.state: Any = kind.start(kind.setup_from_dict(first.body.get("setup")))
            except ValueError as exc:
                raise error(f"{path}: not {what} ({exc})") from None
        except error:
            self.journal.close()
            raise
        self.seq = first.seq
        self.lines: Lines = {}
        self.refresh()

    def refresh(self) -> None:
        """Fold the rows the session has committed since the last read."""
        try:
            for row in self.journal.rows(self.seq):
                self.seq = row.seq
                if row.kind == "event" and not self.state.check(row.body):   # "" to take; a reason or a repeat skips
                    self.state.apply(row.body)
                    if row.body.get("type") not in ("players", "names"):   # a naming gives no line
                        now = self._lines()
                        self.lines = {k: self.lines.get(k, row.t) for k in now}   # a line taken off goes
        except JournalError as exc:
            log.warning("broadcast: the session's journal cannot be read now (%s); names as they were", exc)

    def done(self) -> Lines:
        """The session's word now: each (table number, board) it holds a line for, and since when."""
        self.refresh()
        return dict(self.lines)

    def _lines(self) -> set[tuple[int, int]]:
        """The (table number, board) pairs whose line the state holds (none for a kind that does not say)."""
        return set()

    def close(self) -> None:
        self.journal.close()
