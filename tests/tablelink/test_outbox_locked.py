"""A table whose journal another process holds locked when the club's outbox is first made in it
(docs/ordering.md: a journal that cannot be opened is one line and exit 1, which systemd retries).

Making the outbox's tables is the first write a table with ``[mqtt]`` does to its journal. Under a lock it
raised ``sqlite3.OperationalError`` out of ``cardtable run`` as a traceback, exit 1 by accident."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware_host.records.journal_file import JournalError
from firmware_host.tablelink.delivery import Outbox


def test_a_locked_journal_is_one_line_in_sqlites_words(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    keep = sqlite3.connect(db, isolation_level=None)
    keep.execute("PRAGMA journal_mode=WAL")
    keep.execute("CREATE TABLE rows (n INTEGER)")
    keep.execute("BEGIN IMMEDIATE")          # another writer holds the lock
    try:
        with pytest.raises(JournalError) as err:
            Outbox(db, timeout=0.1)
        words = str(err.value)
        assert words.startswith(f"{db}: the club's outbox cannot be made") and "database is locked" in words
        assert "\n" not in words
    finally:
        keep.execute("ROLLBACK")
    Outbox(db, timeout=0.1).put(1, "cardtable/t/event", "{}")     # once free, it is made and used
    keep.close()


def test_run_exits_1_with_one_line_when_the_lock_holds_at_start() -> None:
    from firmware_host.commands.run import _transient

    assert _transient("j.sqlite3: the club's outbox cannot be made in the journal (database is locked)")
