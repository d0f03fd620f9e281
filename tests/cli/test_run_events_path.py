"""``cardtable run --events PATH`` with a wrong PATH: one line naming it, exit 2, before the table starts.

The table used to start all the same: a path that did not exist (a typo, a FIFO not made yet) or a
folder gave one note in the journal and the director's entries went nowhere; a picture or a journal
named by mistake was read "line by line", a note for each of its hundreds of lines. The documented use
(``docs/events.md``) is a FIFO made before the table starts, or a file of events: a file of events with
some bad lines is still read, each bad line refused with its note (``tests/table/test_director_input.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.table.director_input import check_path

ROOT = Path(__file__).resolve().parents[2]
EVENT = b'{"type": "hand_count", "seat": "S", "count": 13}\n'


def _config(tmp: Path) -> Path:
    text = (ROOT / "config" / "table.toml").read_text()
    text = text.replace('data_dir = "/var/lib/cardtable"', f'data_dir = "{tmp / "data"}"')
    text = text.replace('port = "/dev/cardtable-shoe"', f'port = "{tmp / "no-shoe"}"')
    text = text.replace('source = "picamera2" ', 'source = "none" ')
    text = text.replace('factory = "auto"', 'factory = "mock"')
    path = tmp / "table.toml"
    path.write_text(text)
    return path


def _run(tmp: Path, events: Path) -> tuple[int, str]:
    """The command as an operator runs it; a table that starts instead of refusing is stopped and fails."""
    argv = [sys.executable, "-m", "firmware_host.cli", "run", "--config", str(_config(tmp)), "--no-display",
            "--events", str(events)]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"cardtable run started with --events {events}")
    return proc.returncode, err


def test_a_missing_path_or_a_folder_is_exit_2_before_the_table_starts(tmp_path: Path) -> None:
    missing, folder = tmp_path / "director", tmp_path / "entries"
    folder.mkdir()
    for path, why in ((missing, f"no such FIFO or file (make the FIFO before the table starts: mkfifo {missing})"),
                      (folder, "is a folder, not a FIFO, a terminal or a file of events")):
        code, err = _run(tmp_path, path)
        assert (code, err) == (2, f"cardtable: --events {path}: {why}\n")
        assert not (tmp_path / "data" / "journal.sqlite3").exists()   # nothing ran, nothing was journaled


def test_a_file_with_no_event_in_it_is_one_message_not_one_a_line(tmp_path: Path) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4000)   # some 4000 "lines"
    code, err = _run(tmp_path, photo)
    assert (code, err) == (2, f"cardtable: --events {photo}: not a file of events (JSON Lines, docs/events.md): "
                              "line 1 is not UTF-8 text (invalid start byte at byte 1); nothing was entered\n")
    assert not (tmp_path / "data" / "journal.sqlite3").exists()


def test_what_check_path_takes_and_refuses(tmp_path: Path) -> None:
    fifo = tmp_path / "director"
    os.mkfifo(fifo)
    assert check_path(fifo) == ""                     # never opened: a writer waiting in open stays waiting
    mixed = tmp_path / "mixed.jsonl"                  # a file of events with bad lines: read, each refused
    mixed.write_bytes(b"\xef\xbb\xbfnot json\n\x00\n" + b"\xff" * 70000 + b"\n" + EVENT + b"garbage\n")
    assert check_path(mixed) == ""
    late = tmp_path / "late.jsonl"                    # its first event past the start of the file still counts
    late.write_bytes(b"[1]\n" * 5000 + EVENT)
    assert check_path(late) == ""
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"\n\n")
    assert check_path(empty) == ""
    assert check_path("/dev/null") == ""
    typo = tmp_path / "typo.jsonl"                    # no line an event: the first one named, by its field
    typo.write_bytes(b'\n{"type": "hand_count", "seat": "QS", "count": 13}\n' * 3)
    assert check_path(typo) == ("not a file of events (JSON Lines, docs/events.md): line 2 is not an event "
                                "(field 'seat' is not valid); nothing was entered")
    utf16 = tmp_path / "utf16.jsonl"
    utf16.write_bytes(EVENT.decode().encode("utf-16"))
    assert check_path(utf16).startswith("not a file of events (JSON Lines, docs/events.md): line 1 is not UTF-8")
    huge = tmp_path / "huge.bin"                      # 512 MiB of NUL, no newline: read no further than SNIFF
    with huge.open("wb") as f:
        f.truncate(512 * 1024 * 1024)
    assert check_path(huge) == ("not a file of events (JSON Lines, docs/events.md): line 1 is longer than 65536 "
                                "bytes; nothing was entered")


def test_a_character_device_that_is_not_a_terminal_is_refused() -> None:
    """docs/events.md: ``--events`` takes a FIFO, a terminal or a file of events. ``/dev/zero`` (or
    ``/dev/urandom``) was taken as a terminal: the table started, refused one "line longer than 65536
    bytes" and then read the device for ever, a core busy passing over bytes that never end in a newline
    (outside audit p2). It is refused at start like a socket; ``/dev/null``, an empty file, is still taken."""
    for device in ("/dev/zero", "/dev/urandom"):
        assert check_path(device) == "is a character device, not a FIFO, a terminal or a file of events"
    assert check_path("/dev/null") == ""
