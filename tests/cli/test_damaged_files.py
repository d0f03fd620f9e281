"""Commands that read a journal, given one whose file is damaged (a page overwritten after it was
written, as a failing SD card leaves it), an empty file or one that is not a database: one line naming
the file, exit 2, no traceback, nothing written (the house rule for bad input, README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.records.journal import Journal


def damaged_journal(data: Path) -> Path:
    """A real journal in ``data`` whose pages after the first are overwritten: SQLite opens it (its
    header is intact) and fails only when a query reaches the damaged pages."""
    journal = Journal.open(data)
    for k in range(300):
        journal.append("note", {"text": "x" * 200, "k": k}, t=float(k))
    journal.close()
    path = data / "journal.sqlite3"
    raw = path.read_bytes()
    path.write_bytes(raw[:4096] + b"\xa5" * (len(raw) - 4096))
    return path


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


def test_journal_head_of_a_damaged_journal_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``journal head`` printed SQLite's traceback ("database disk image is malformed"), exit 1."""
    path = damaged_journal(tmp_path / "data")
    assert main(["journal", "head", "--data-dir", str(tmp_path / "data")]) == 2
    err = _one_line(capsys)
    assert f"{path}: the database is corrupt" in err


@pytest.mark.parametrize("content", ["damaged", "empty", "text"])
def test_broadcast_export_of_an_unreadable_journal_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          content: str) -> None:
    """``broadcast export`` printed a JournalError traceback, exit 1 (the exit status of a tampered
    journal), for a journal that is damaged, empty or not a database; nothing is written."""
    data = tmp_path / "table-01"
    if content == "damaged":
        path = damaged_journal(data)
    else:
        data.mkdir()
        path = data / "journal.sqlite3"
        path.write_text("" if content == "empty" else "not a journal\n")
    out = tmp_path / "site"
    assert main(["broadcast", "export", "--journals", str(data), "--out", str(out)]) == 2
    err = _one_line(capsys)
    assert err.startswith(f"cardtable broadcast export: {path}: ") and "nothing archived" in err
    assert not out.exists()


@pytest.mark.parametrize("line", [
    ["euchre", "show", "--session", "{D}"],
    ["euchre", "export", "--session", "{D}", "--out", "{O}"],
    ["event", "export", "{D}", "--site", "{O}"],
    ["federation", "show", "--dir", "{D}"],
    ["federation", "close", "--dir", "{D}"],
])
def test_an_empty_session_file_is_refused_and_left_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         line: list[str]) -> None:
    """A session folder whose journal is an empty file: these commands wrote SQLite's schema into it
    (20 KB) and then said "the first row is not a session's opening row", which hid that the file was
    empty; `duplicate show` said it. Now each says the file is empty and leaves it as it was."""
    folder = tmp_path / "night"
    folder.mkdir()
    name = "federation.sqlite3" if line[0] == "federation" else "session.sqlite3"
    (folder / name).write_bytes(b"")
    argv = [a.replace("{D}", str(folder)).replace("{O}", str(tmp_path / "out")) for a in line]
    assert main(argv) == 2
    err = _one_line(capsys)
    assert f"{folder / name}: " in err and "the file is empty (0 bytes)" in err
    assert (folder / name).stat().st_size == 0 and sorted(p.name for p in folder.iterdir()) == [name]
