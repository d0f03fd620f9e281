"""`cardtable run --events PATH`: the director's entries, one event per line, from a FIFO or a file."""

from __future__ import annotations

import os
import queue
from pathlib import Path

from firmware_host.table.controller import DeviceNote, Input, LawInput
from firmware_host.table.director_input import MAX_LINE, EventReader


def _take(q: queue.Queue[Input], n: int) -> list[Input]:
    return [q.get(timeout=10) for _ in range(n)]


def test_each_line_is_an_event_from_the_director_and_a_bad_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "entries.jsonl"
    path.write_text('{"type": "hand_count", "seat": "S", "count": 14}\n\nnot json\n'
                    '{"type": "hand_count", "seat": "Q", "count": 1}\n' + "x" * (MAX_LINE + 1) + "\n"
                    '{"type": "play_end"}\n')
    q: queue.Queue[Input] = queue.Queue()
    EventReader(path, q.put).start()
    got = _take(q, 5)
    assert isinstance(got[0], LawInput) and got[0].source == "director" and got[0].event.TYPE == "hand_count"
    notes = [g for g in got[1:4] if isinstance(g, DeviceNote)]
    assert [n.text.split(":")[0] for n in notes] == [f"{path} line {i}" for i in (3, 4, 5)]
    assert "not JSON" in notes[0].text and "seat" in notes[1].text and "longer than" in notes[2].text
    assert isinstance(got[4], LawInput) and got[4].event.TYPE == "play_end"


def test_a_fifo_is_opened_again_when_its_writer_goes(tmp_path: Path) -> None:
    fifo = tmp_path / "director"
    os.mkfifo(fifo)
    q: queue.Queue[Input] = queue.Queue()
    EventReader(fifo, q.put).start()
    for count in (14, 12):
        with open(fifo, "w") as w:  # a writer comes, writes one line and goes
            w.write(f'{{"type": "hand_count", "seat": "S", "count": {count}}}\n')
        (item,) = _take(q, 1)
        assert isinstance(item, LawInput) and item.event.count == count  # type: ignore[attr-defined]


def test_a_path_that_cannot_be_read_is_said_once(tmp_path: Path) -> None:
    q: queue.Queue[Input] = queue.Queue()
    EventReader(tmp_path / "nothing", q.put).start()
    (item,) = _take(q, 1)
    assert isinstance(item, DeviceNote) and "nothing" in item.text and "cannot be read" in item.text
