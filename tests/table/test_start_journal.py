"""What ``cardtable run`` (``build_table``) says about the journal it starts on (audit a4, findings 5 and
6; docs/ordering.md, "Devices that are missing"): a journal edited since it was written is said at every
start, in one WARNING naming the row and in a note, and the table goes on; a 0-byte file (a crash while
the journal was being created) becomes a new journal, with a WARNING saying so."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from firmware_host.config import load_config
from firmware_host.live import build_table
from firmware_host.records.journal import Journal

T = 1000.0


def _config(data_dir: Path):  # type: ignore[no-untyped-def]
    return load_config(None, env={}, check_devices=False, overrides={
        "table.data_dir": str(data_dir), "table.game": "contract-bridge",
        "shoe.port": str(data_dir / "no-shoe"), "camera.source": "none", "pins.factory": "mock"})


def _journal_with_rows(data_dir: Path) -> None:
    with Journal.open(data_dir) as j:
        j.append("event", {"type": "game", "game": "contract-bridge"}, T)
        for seat in "NESW":
            j.append("note", {"device": "shoe", "text": f"jam at {seat}"}, T)


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and "journal" in r.getMessage()]


def test_a_tampered_journal_is_said_at_start_and_noted_and_the_table_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`cardtable run` started on a journal that `journal verify` calls TAMPERED and appended to it with
    nothing said."""
    _journal_with_rows(tmp_path)
    conn = sqlite3.connect(tmp_path / "journal.sqlite3")
    conn.execute("DROP TRIGGER journal_no_update")
    conn.execute("""UPDATE journal SET body = '{"device":"shoe","text":"jam at X"}' WHERE seq = 3""")
    conn.commit()
    conn.close()
    with caplog.at_level(logging.WARNING):
        table = build_table(_config(tmp_path))
    try:
        (said,) = _warnings(caplog)
        assert said.startswith("journal TAMPERED: ") and "journal row 3: " in said and "starts all the same" in said
        last = list(table.journal.rows())[-1]
        assert last.kind == "note" and last.body["journal"] == "tampered" and last.body["row"] == 3
        assert table.ctl.seq == last.seq       # the table appends after it
    finally:
        table.stop()


def test_an_intact_journal_starts_without_a_word(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _journal_with_rows(tmp_path)
    with caplog.at_level(logging.WARNING):
        table = build_table(_config(tmp_path))
    try:
        assert _warnings(caplog) == []
        assert not [r for r in table.journal.rows() if r.body.get("journal") == "tampered"]
    finally:
        table.stop()


def test_a_zero_byte_journal_becomes_a_new_journal_and_says_so(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """`journal verify`, `export` and `head` refuse a 0-byte file ("the file is empty (0 bytes), not a
    journal"); `run` turned it into a new journal silently."""
    (tmp_path / "journal.sqlite3").write_bytes(b"")
    with caplog.at_level(logging.WARNING):
        table = build_table(_config(tmp_path))
    try:
        (said,) = _warnings(caplog)
        assert said == f"{tmp_path / 'journal.sqlite3'}: the file is empty (0 bytes), not a journal: a new " \
                       "journal is started in it"
        assert [r.body for r in table.journal.rows()][0] == {"type": "game", "game": "contract-bridge"}
    finally:
        table.stop()
