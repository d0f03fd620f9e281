"""What the director enters at the table that no sensor sees: law events as JSON Lines (``docs/events.md``),
one per line, from a FIFO, a terminal or a file (``cardtable run --events PATH``).

Hand counts, the trump made, the cards played when no camera watches, the result: each line is one
event, submitted to the controller as source ``director`` in the order it was written. A line that is not
an event is journaled as a note naming the path and line number and goes no further; the lines after it
are still read. A FIFO whose writer goes away is opened again (the next writer goes on); a regular file
or a terminal is read to its end once.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path

from firmware_host.table.controller import DeviceNote, Input, LawInput
from laws.events import EventFormatError, event_from_dict

log = logging.getLogger(__name__)
MAX_LINE = 64 * 1024  # a longer line is not an event anyone typed; it is refused, not parsed


class EventReader:
    """Reads events from ``path`` in a thread of its own and submits them.

    Args:
        path: a FIFO, a terminal or a regular file.
        submit: the controller's ``submit``.
    """

    def __init__(self, path: str | Path, submit: Callable[[Input], None]) -> None:
        self.path = Path(path)
        self.submit = submit
        self.lines = 0
        self._thread: threading.Thread | None = None

    def start(self) -> EventReader:
        self._thread = threading.Thread(target=self._run, name="director-input", daemon=True)
        self._thread.start()
        return self

    def line(self, text: str) -> None:
        """Take one line (the reader thread calls this; tests may too)."""
        self.lines += 1
        text = text.strip()
        if not text:
            return
        where = f"{self.path} line {self.lines}"
        if len(text) > MAX_LINE:
            self.submit(DeviceNote("director", f"{where}: longer than {MAX_LINE} characters; not read"))
            return
        try:
            event = event_from_dict(json.loads(text))
        except (json.JSONDecodeError, RecursionError) as exc:
            self.submit(DeviceNote("director", f"{where}: not JSON ({exc})"))
            return
        except EventFormatError as exc:
            self.submit(DeviceNote("director", f"{where}: not an event ({exc})"))
            return
        self.submit(LawInput(event, "director"))

    def _run(self) -> None:
        try:
            fifo = stat.S_ISFIFO(os.stat(self.path).st_mode)
        except OSError as exc:
            self.submit(DeviceNote("director", f"{self.path}: cannot be read ({exc.strerror})"))
            return
        while True:
            try:
                with open(self.path, encoding="utf-8", errors="replace", newline="\n") as stream:
                    for text in stream:
                        self.line(text)
            except OSError as exc:
                self.submit(DeviceNote("director", f"{self.path}: cannot be read ({exc.strerror})"))
                return
            if not fifo:
                log.info("%s read to its end (%d lines)", self.path, self.lines)
                return
