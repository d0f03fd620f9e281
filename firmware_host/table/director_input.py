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

``check_path`` is the check ``cardtable run`` makes before the table starts: a path that is not there, a
folder, or a file with lines but no event among them is the operator's mistake, said once (exit 2).
"""

from __future__ import annotations

import logging
import os
import select
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from firmware_host.records.lines import BOM, MAX_LINE, LineRefused, decode_line, endless_device
from firmware_host.table.controller import DeviceNote, Input, LawInput
from firmware_host.table.redact import unquoted
from laws.events import Event, EventFormatError, event_from_dict

log = logging.getLogger(__name__)
__all__ = ["CHUNK", "MAX_LINE", "SNIFF", "EventReader", "Lines", "Refused", "check_path", "read_line"]
CHUNK = 16 * 1024     # bytes read at a time
SNIFF = 1024 * 1024   # bytes of a regular file read at start to find an event (a wrong file is refused)


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


class Refused(NamedTuple):
    """Why a line is not an event, without its place: ``note`` for the journal and the display, ``logged``
    for the log when it differs (no value the line held: ``docs/ordering.md``)."""

    note: str
    logged: str | None = None


def read_line(data: bytes) -> Event | Refused | None:
    """The event one line holds (a byte-order mark already cut off), why it holds none, or None for a
    blank line: the one judgement of a line, for the reader and for the check at start."""
    if not data.strip():
        return None
    if len(data) > MAX_LINE:
        return Refused(f"longer than {MAX_LINE} bytes; not read")
    try:
        obj = decode_line(data)
    except LineRefused as exc:   # the byte, column or depth it failed at: no text of the line
        return Refused(f"{exc}; not read" if exc.kind == "utf8" else
                       f"not JSON ({exc.detail})" if exc.kind == "json" else f"not an event ({exc})")
    try:
        return event_from_dict(obj)
    except EventFormatError as exc:
        return Refused(f"not an event ({exc})", f"not an event ({unquoted(str(exc))})")


def check_path(path: str | Path, *, sniff: int = SNIFF) -> str:
    """Why ``cardtable run --events PATH`` cannot read ``path`` ("" when it can), said before the table
    starts: a path named on the command line that is not there, a folder, or cannot be read is a mistake
    to fix now (exit 2), not a note the director finds later in a running table's journal.

    A FIFO is the documented use (``docs/events.md``: made with ``mkfifo`` before the table starts; once
    it runs, a FIFO removed and made again is waited for). A regular file is read at start as it will be,
    line by line, up to its first event (at most ``sniff`` bytes): one with lines but no event among them
    is not an events file (a picture, a journal, a file in UTF-16), refused naming its first line, where a
    file of events with some bad lines is read, each bad line refused with its note.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return f"no such FIFO or file (make the FIFO before the table starts: mkfifo {path})"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    mode = st.st_mode
    what = ("a folder" if stat.S_ISDIR(mode) else "a socket" if stat.S_ISSOCK(mode) else
            "a block device" if stat.S_ISBLK(mode) else "")
    if what:
        return f"is {what}, not a FIFO, a terminal or a file of events"
    if stat.S_ISFIFO(mode):   # never opened here: a writer waiting in its open would be let through
        return "" if os.access(path, os.R_OK) else "cannot be read (Permission denied)"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    try:
        if endless_device(fd):
            # /dev/zero, /dev/urandom, a sensor's device: no end and no lines, read for ever at full speed
            return "is a character device, not a FIFO, a terminal or a file of events"
        if not stat.S_ISREG(mode):
            return ""   # a terminal (or /dev/null): read as it comes
        return _not_events(fd, sniff)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    finally:
        os.close(fd)


def _not_events(fd: int, sniff: int) -> str:
    """The refusal of a regular file with lines and no event in its first ``sniff`` bytes ("" otherwise)."""
    lines, n, size, first = Lines(), 0, 0, True
    bad: tuple[int, Refused] | None = None
    while size < sniff:
        data = os.read(fd, CHUNK)
        ended = not data
        size += len(data)
        pending: list[bytes | None] = list(lines.feed(data))
        if ended:
            rest = lines.rest()
            pending += [rest] if rest is not None else []
        for raw in pending:
            n += 1
            if raw is not None and first and raw.startswith(BOM):
                raw = raw[len(BOM):]
            first = False
            got = Refused(f"longer than {MAX_LINE} bytes; not read") if raw is None else read_line(raw)
            if isinstance(got, Refused):
                bad = bad or (n, got)
            elif got is not None:
                return ""           # an event: a file of events, its bad lines refused one by one
        if ended:
            break
    if bad is None:
        return ""                   # nothing in it yet but blank lines
    line, why = bad
    said = (why.logged or why.note).removesuffix("; not read")
    return f"not a file of events (JSON Lines, docs/events.md): line {line} is {said}; nothing was entered"


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
        got = read_line(data)
        if got is None:
            return
        if isinstance(got, Refused):
            self._note(f"{where}: {got.note}", None if got.logged is None else f"{where}: {got.logged}")
            return
        self.submit(LawInput(got, "director"))

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
