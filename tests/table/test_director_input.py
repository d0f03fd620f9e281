"""The ``--events`` reader survives any line (issues 20 and 25): one note naming the path and line, and it
reads on; a huge line is refused before it is held whole; a FIFO removed and made again is found again;
a fragment a writer left without its newline is refused, never joined to the next writer's text."""

from __future__ import annotations

import logging
import os
import queue
import threading
import tracemalloc
from pathlib import Path
from typing import Any

from firmware_host.table.controller import DeviceNote, Input, LawInput
from firmware_host.table.director_input import MAX_LINE, EventReader

GOOD = '{"type": "hand_count", "seat": "S", "count": 12}\n'


def _take(q: queue.Queue[Input], n: int, timeout: float = 10.0) -> list[Input]:
    return [q.get(timeout=timeout) for _ in range(n)]


def _read_file(tmp_path: Path, data: bytes, n: int) -> tuple[Path, list[Input]]:
    path = tmp_path / "entries.jsonl"
    path.write_bytes(data)
    q: queue.Queue[Input] = queue.Queue()
    reader = EventReader(path, q.put).start()
    got = _take(q, n)
    reader.stop()  # a file is read to its end once: the thread has ended
    assert q.empty(), q.get()
    return path, got


def test_a_number_of_5000_digits_is_a_note_and_reading_goes_on(tmp_path: Path) -> None:
    path, got = _read_file(tmp_path, b'{"type": "hand_count", "seat": "S", "count": ' + b"9" * 5000 + b"}\n" +
                           GOOD.encode(), 2)
    note, event = got
    assert isinstance(note, DeviceNote) and note.text.startswith(f"{path} line 1: not an event (")
    assert "'count'" in note.text and "5000 digits" in note.text
    assert isinstance(event, LawInput) and event.event.TYPE == "hand_count"


def test_a_lone_surrogate_escape_gets_the_path_line_note(tmp_path: Path) -> None:
    path, got = _read_file(tmp_path, b'{"type": "candidate", "name": "\\ud800"}\n' + GOOD.encode(), 2)
    note, event = got
    assert isinstance(note, DeviceNote) and note.text.startswith(f"{path} line 1: not an event (")
    assert "lone surrogate" in note.text and "'name'" in note.text
    assert isinstance(event, LawInput)


def test_a_line_that_is_not_utf8_is_refused_whole(tmp_path: Path) -> None:
    """On main the bad byte became U+FFFD and the shuffle was journaled."""
    path, got = _read_file(tmp_path, b'{"type": "shuffle", "seat": "N", "note": "caf\xe9"}\n' + GOOD.encode(), 2)
    note, event = got
    assert isinstance(note, DeviceNote) and note.text.startswith(f"{path} line 1: not UTF-8 text (")
    assert "at byte 46" in note.text
    assert isinstance(event, LawInput) and event.event.TYPE == "hand_count"


def test_a_huge_line_without_a_newline_is_never_held_whole(tmp_path: Path) -> None:
    """8 MiB without a newline through a FIFO, then a good line: the memory the reader allocates stays
    within a few chunks (on main it read the whole line into one string first)."""
    fifo = tmp_path / "director"
    os.mkfifo(fifo)
    q: queue.Queue[Input] = queue.Queue()
    reader = EventReader(fifo, q.put).start()
    size = 8 * 1024 * 1024
    tracemalloc.start()
    try:
        with open(fifo, "wb") as w:
            block = b"x" * 65536
            for _ in range(size // len(block)):
                w.write(block)
            w.write(b"\n" + GOOD.encode())
        note, event = _take(q, 2)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        reader.stop()
    assert isinstance(note, DeviceNote) and f"longer than {MAX_LINE} bytes" in note.text
    assert isinstance(event, LawInput)
    assert peak < 2 * 1024 * 1024, f"{peak} bytes allocated while a {size}-byte line went by"


def test_a_fifo_removed_and_made_again_is_read_again(tmp_path: Path) -> None:
    fifo = tmp_path / "director"
    os.mkfifo(fifo)
    q: queue.Queue[Input] = queue.Queue()
    reader = EventReader(fifo, q.put, poll=0.05).start()
    try:
        with open(fifo, "w") as w:
            w.write(GOOD)
        (first,) = _take(q, 1)
        assert isinstance(first, LawInput)
        fifo.unlink()
        os.mkfifo(fifo)
        done = threading.Event()

        def write() -> None:  # blocks in open() until the reader has found the new FIFO
            with open(fifo, "w") as w:
                w.write(GOOD.replace("12", "13"))
            done.set()

        threading.Thread(target=write, daemon=True).start()
        got = q.get(timeout=10)
        while isinstance(got, DeviceNote):  # perhaps: "was removed; waiting for the FIFO to be made again"
            assert "made again" in got.text
            got = q.get(timeout=10)
        assert isinstance(got, LawInput) and got.event.count == 13  # type: ignore[attr-defined]
        assert done.wait(5)
    finally:
        reader.stop()


def test_a_fragment_left_by_a_writer_is_refused_not_joined(tmp_path: Path) -> None:
    """A writer closes in the middle of a line; the next writer's text is its own (docs/events.md)."""
    fifo = tmp_path / "director"
    os.mkfifo(fifo)
    q: queue.Queue[Input] = queue.Queue()
    reader = EventReader(fifo, q.put).start()
    try:
        with open(fifo, "w") as w:
            w.write(GOOD + '{"type": "hand_count", "seat": "S", "cou')
        first, note = _take(q, 2)
        assert isinstance(first, LawInput)
        assert isinstance(note, DeviceNote) and note.text == (
            f"{fifo} line 2: the writer closed in the middle of this line (no newline after 40 bytes); not read")
        with open(fifo, "w") as w:
            w.write('nt": 12}\n' + GOOD)
        refused, taken = _take(q, 2)
        assert isinstance(refused, DeviceNote) and refused.text.startswith(f"{fifo} line 3: not JSON (")
        assert isinstance(taken, LawInput) and taken.event.count == 12  # type: ignore[attr-defined]
    finally:
        reader.stop()


def test_whatever_a_line_holds_the_reader_reads_on(tmp_path: Path) -> None:
    """A mixed bag of bad lines, each a note with its line number, then a good one."""
    bad = [b"\xff\xfe", b"[1, 2]", b'"text"', b"[" * 100000 + b"]" * 100000, b'{"type": 5}',
           b'{"type": "cut", "seat": "N", "top": 1e999}', b"\x00", b'{"type": "shuffle", "seat": "\\udfff"}']
    path, got = _read_file(tmp_path, b"\n".join(bad) + b"\n" + GOOD.encode(), len(bad) + 1)
    notes = got[:-1]
    assert [n.text.split(":")[0] for n in notes if isinstance(n, DeviceNote)] == \
        [f"{path} line {i}" for i in range(1, len(bad) + 1)]
    assert isinstance(got[-1], LawInput)


def test_the_worked_example_of_docs_events_md(tmp_path: Path) -> None:
    """docs/events.md, "Entering events at a running table": four writers, one after the other (each
    waits for the table to have read the one before: docs say why)."""
    import re
    import subprocess

    doc = (Path(__file__).resolve().parents[2] / "docs" / "events.md").read_text()
    block = doc.split("Worked example: four writers")[1].split("```sh\n")[1].split("```")[0]
    fifo = tmp_path / "director"
    os.mkfifo(fifo)
    q: queue.Queue[Input] = queue.Queue()
    reader = EventReader(fifo, q.put).start()
    got: list[Input] = []
    try:
        for line in block.strip().splitlines():
            command = line.removeprefix("$ ").split("   #")[0].replace("/run/cardtable/director", str(fifo))
            subprocess.run(["bash", "-c", command], check=True, timeout=10)
            got.append(q.get(timeout=10))  # each writer's first outcome, before the next writer opens
        got += [q.get(timeout=10)]  # the third writer's second line
    finally:
        reader.stop()
    said = doc.split("The journal then holds, in order: ")[1].split("\n\n")[0].replace("\n", " ")
    notes = [n.replace("/run/cardtable/director", str(fifo)) for n in re.findall(r"the note `([^`]*)`", said)]
    assert [g.text for g in got if isinstance(g, DeviceNote)] == notes
    assert [g.event.seat.value for g in got if isinstance(g, LawInput)] == ["S", "W"]  # type: ignore[attr-defined]


def test_a_refused_line_is_logged_by_its_place_and_field_never_its_cards(tmp_path: Path, caplog: Any) -> None:
    """docs/ordering.md: no log line names a card of an open deal. A refused line's note quoted the value
    it refused in the table's WARNING ('field 'seat': unknown seat 'QS''): a director who typed a card in
    the wrong field, or a list of cards, put them in the log. The log names the path, the line and the
    field; the journal (and the display) keep the whole reason for the director."""
    from firmware_host.records.journal import Journal
    from firmware_host.table.controller import TableController
    from tests.table.test_controller import Clock

    j = Journal.open(tmp_path / "j")
    ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock())
    reader = EventReader(tmp_path / "events", ctl.submit)
    caplog.set_level(logging.DEBUG)
    for line in ('{"type": "card_played", "seat": "QS", "card": "QS"}', '{"type": "board_short", "missing": "7H 2C"}',
                 '{"type": "QS"}', '{"type": "claim", "seat": "N", "tricks": ["KD", "JD"]}'):
        reader.line(line)
    ctl.drain()
    logged = [r.getMessage() for r in caplog.records if "events line" in r.getMessage()]
    assert logged == [f"director: {tmp_path / 'events'} line 1: not an event (field 'seat' is not valid)",
                      f"director: {tmp_path / 'events'} line 2: not an event (field 'missing' is not valid)",
                      f"director: {tmp_path / 'events'} line 3: not an event (unknown event type)",
                      f"director: {tmp_path / 'events'} line 4: not an event (field 'tricks' is not valid)"]
    for text in (r.getMessage() for r in caplog.records):
        assert not any(code in text for code in ("QS", "7H", "2C", "KD", "JD")), text
    notes = [r.body["text"] for r in j.rows() if r.kind == "note" and r.body.get("device") == "director"]
    assert len(notes) == 4 and "'QS'" in notes[0] and "'7H 2C'" in notes[1]
    j.close()
