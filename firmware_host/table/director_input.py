"""What the director enters at the table that no sensor sees: law events as JSON Lines (``docs/events.md``),
one per line, from a FIFO, a terminal or a file (``cardtable run --events PATH``).

Hand counts, the trump made, the cards played when no camera watches, the result: each line is one
event, submitted to the controller as source ``director`` in the order it was written. Whatever a line
holds, the reader survives it: a line that is not an event is journaled as a note naming the path and line
number (``PATH line N: why``) and goes no further, and the lines after it are still read. The log says the
same without any value the line held (``field 'seat' is not valid``): a card typed in the wrong field, or a
list of cards, may be a card of the open deal, which no log line names (``docs/ordering.md``).

Bytes are read in chunks, never a whole line at once: a line longer than ``MAX_LINE`` bytes is refused
as soon as that many bytes have come without its end, and the rest of it is passed over as it arrives
(memory stays within a chunk or two whatever is written). Each line is checked where it enters
(``records.lines``): UTF-8, JSON, no lone surrogate, then the event format.

A FIFO is read writer by writer: when its last writer closes, the bytes after the last newline are a
fragment, refused with a note (never joined to the next writer's text), and the FIFO is opened again for
the next writer. A FIFO removed and made again at the same path is found again (checked every ``poll``
seconds). A regular file or a terminal is read to its end once (its last line needs no newline).
"""

from __future__ import annotations

import logging
import os
import select
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from firmware_host.records.lines import BOM, LineRefused, decode_line
from firmware_host.table.controller import DeviceNote, Input, LawInput
from firmware_host.table.redact import unquoted
from laws.events import EventFormatError, event_from_dict

log = logging.getLogger(__name__)
MAX_LINE = 64 * 1024  # bytes; a longer line is not an event anyone typed: it is refused, not read
CHUNK = 16 * 1024     # bytes read at a time


class Lines:
    """Splits bytes into lines as they come, holding at most ``MAX_LINE`` bytes of an unfinished line.

    ``feed`` yields ``(line bytes or None, ended)``: a whole line (without its newline), or None for a
    line that grew past ``MAX_LINE`` (yielded once, when it does; its rest is dropped up to its newline).
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._dropping = False

    def feed(self, data: bytes) -> Iterator[bytes | None]:
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            start = len(data) if end < 0 else end + 1
            if self._dropping:
                if end >= 0:
                    self._dropping = False
                continue
            if len(self._buf) + len(piece) > MAX_LINE:
                self._buf.clear()
                self._dropping = end < 0
                yield None
                continue
            self._buf += piece
            if end >= 0:
                line = bytes(self._buf)
                self._buf.clear()
                yield line

    def rest(self) -> bytes | None:
        """What is left without a newline (None: nothing, or the tail of a refused long line); cleared."""
        left = bytes(self._buf) if self._buf else None
        self._buf.clear()
        self._dropping = False
        return left


class EventReader:
    """Reads events from ``path`` in a thread of its own and submits them.

    Args:
        path: a FIFO, a terminal or a regular file.
        submit: the controller's ``submit``.
        poll: seconds between checks that a FIFO's path still names the FIFO being read.
    """

    def __init__(self, path: str | Path, submit: Callable[[Input], None], *, poll: float = 0.5) -> None:
        self.path = Path(path)
        self.submit = submit
        self.poll = poll
        self.lines = 0
        self._first = True  # the next line is a writer's first (a byte-order mark before it is skipped)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> EventReader:
        self._thread = threading.Thread(target=self._run, name="director-input", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop reading (within ``poll`` seconds for a FIFO)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _note(self, text: str, logged: str | None = None) -> None:
        self.submit(DeviceNote("director", text, logged=logged))

    def line(self, raw: bytes | str | None) -> None:
        """Take one line (the reader thread calls this; tests may too). None: a line that grew past
        ``MAX_LINE`` bytes."""
        self.lines += 1
        first, self._first = self._first, False
        where = f"{self.path} line {self.lines}"
        if raw is None:
            self._note(f"{where}: longer than {MAX_LINE} bytes; not read")
            return
        data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
        if first and data.startswith(BOM):
            data = data[len(BOM):]
        if not data.strip():
            return
        if len(data) > MAX_LINE:
            self._note(f"{where}: longer than {MAX_LINE} bytes; not read")
            return
        try:
            obj = decode_line(data)
        except LineRefused as exc:   # the byte, column or depth it failed at: no text of the line
            self._note(f"{where}: {exc}; not read" if exc.kind == "utf8" else
                       f"{where}: not JSON ({exc.detail})" if exc.kind == "json" else f"{where}: not an event ({exc})")
            return
        try:
            event = event_from_dict(obj)
        except EventFormatError as exc:
            self._note(f"{where}: not an event ({exc})", f"{where}: not an event ({unquoted(str(exc))})")
            return
        self.submit(LawInput(event, "director"))

    def fragment(self, raw: bytes) -> None:
        """Bytes a writer left after its last newline when it closed: refused, never joined to the next
        writer's text."""
        self.lines += 1
        self._first = True
        self._note(f"{self.path} line {self.lines}: the writer closed in the middle of this line (no newline "
                   f"after {len(raw)} bytes); not read")

    def _run(self) -> None:
        try:
            mode = os.stat(self.path).st_mode
        except OSError as exc:
            self._note(f"{self.path}: cannot be read ({exc.strerror})")
            return
        while not self._stop.is_set():
            try:
                if stat.S_ISFIFO(mode):
                    self._fifo()
                else:
                    self._stream()
                return
            except Exception as exc:  # the reader survives anything: one note, and it goes on
                log.error("director input %s: %s", self.path, type(exc).__name__)
                self._note(f"{self.path}: reading failed ({type(exc).__name__}: {exc}); reading on")
                if not stat.S_ISFIFO(mode):
                    return

    def _take(self, lines: Lines, data: bytes) -> None:
        for line in lines.feed(data):
            self.line(line)

    def _stream(self) -> None:
        """A regular file or a terminal, to its end."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError as exc:
            self._note(f"{self.path}: cannot be read ({exc.strerror})")
            return
        lines = Lines()
        try:
            while not self._stop.is_set():
                data = os.read(fd, CHUNK)
                if not data:
                    break
                self._take(lines, data)
        finally:
            os.close(fd)
        rest = lines.rest()
        if rest is not None:
            self.line(rest)  # a file's last line needs no newline
        log.info("%s read to its end (%d lines)", self.path, self.lines)

    def _open_fifo(self) -> int | None:
        """The FIFO at ``path`` opened for reading (not waiting for a writer); waits while the path is
        missing or not a FIFO (said once). None when stopped."""
        said = False
        while not self._stop.is_set():
            try:
                if stat.S_ISFIFO(os.stat(self.path).st_mode):
                    return os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
                why = "is no longer a FIFO"
            except FileNotFoundError:
                why = "was removed"
            except OSError as exc:
                why = f"cannot be read ({exc.strerror})"
            if not said:
                said = True
                self._note(f"{self.path}: {why}; waiting for the FIFO to be made again")
            self._stop.wait(self.poll)
        return None

    def _replaced(self, fd: int) -> bool:
        """The path no longer names the FIFO ``fd`` reads (removed, or made again)."""
        try:
            now = os.stat(self.path)
        except OSError:
            return True
        mine = os.fstat(fd)
        return (now.st_ino, now.st_dev) != (mine.st_ino, mine.st_dev)

    def _fifo(self) -> None:
        fd = self._open_fifo()
        lines = Lines()
        while fd is not None:
            poller = select.poll()
            poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
            reopen = False
            while not self._stop.is_set() and not reopen:
                if not poller.poll(int(self.poll * 1000)):
                    reopen = self._replaced(fd)
                    continue
                try:
                    data = os.read(fd, CHUNK)
                except BlockingIOError:
                    continue
                if data:
                    self._take(lines, data)
                else:
                    reopen = True  # every writer has closed: this writer's text ends here
            rest = lines.rest()
            if rest is not None and rest.strip():
                self.fragment(rest)
            self._first = True
            if self._stop.is_set():
                os.close(fd)
                return
            # The next reader end is opened before this one closes: a writer that came meanwhile is
            # never left with no reader (it would get "broken pipe").
            new = self._open_fifo()
            os.close(fd)
            fd = new
