"""A club session's journal opened for the broadcast: read only, never written, its first row the session's
opening row (an event's or a euchre night's, whose kind's ``setup_from_dict`` reads it). The journal's
new rows are folded by its reader (``event_names.py``, ``euchre_names.py``) when a board or hand starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal, JournalError


def open_session_journal(path: Path, missing: str, error: type[ValueError]) -> tuple[Journal, Any]:
    """The journal at ``path`` and its opening row; ``error`` naming the file when there is none there
    (``missing`` says what to do), when it cannot be read, or when its first row is not an opening row."""
    if not path.exists():
        raise error(f"{path}: {missing}")
    try:
        journal = Journal.open_readonly(path)
        first = next(iter(journal.rows()), None)
    except JournalError as exc:
        raise error(str(exc)) from None
    if first is None or first.kind != "event" or first.body.get("type") != "opened":
        journal.close()
        raise error(f"{path}: the first row is not a session's opening row")
    return journal, first
