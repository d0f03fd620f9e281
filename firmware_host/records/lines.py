"""Text from outside, checked once where it enters: a line of the event format (``cardtable replay``, the
director's ``--events`` FIFO) and a JSON payload (a dashboard command over MQTT, a dashboard form).

``decode_line`` takes the bytes of one line and gives the JSON value it holds, or raises ``LineRefused``
saying what is wrong, in the words ``docs/events.md`` uses: not UTF-8 text (and at which byte), bad JSON,
lists or objects nested too deeply, or text holding a lone surrogate (``"\\ud800"``: JSON can write one,
Unicode text cannot hold it, so the journal could not record it). A whole number too long to be any
event's value (``MAX_DIGITS``) is kept as its length (``LongNumber``), so that the field holding it is
named by the event format's own check and Python never spends time converting thousands of digits.
The checks are those of the club's one reader of outside JSON, ``firmware_host.wire.reader.read_json``
(with its depth limit; ``lone_surrogate`` is its, and finds such text in any decoded JSON value).

``MAX_LINE`` is the event format's longest line (``docs/events.md``, "Conventions"), for every reader of
it: a longer line is refused as soon as that many bytes have come without a newline, never read whole,
so a file of one multi-GB line (or ``/dev/zero``) costs no more memory than an ordinary one.
``endless_device`` says whether an open file is a character device that never ends and is no terminal
(``/dev/zero``, ``/dev/urandom``): read as a log, it would keep a core busy for ever.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from firmware_host.wire.reader import MAX_DIGITS, LongNumber, lone_surrogate, parse_int, read_json

__all__ = ["BOM", "MAX_DIGITS", "MAX_LINE", "LineRefused", "LongNumber", "decode_line", "endless_device",
           "lone_surrogate", "loads", "parse_int"]

BOM = b"\xef\xbb\xbf"
MAX_LINE = 64 * 1024  # bytes, its newline not counted; a longer line is not an event anyone typed


def endless_device(fd: int) -> bool:
    """Whether ``fd`` is a character device that is neither a terminal nor ``/dev/null`` (under any name):
    one with no end and no lines, read for ever at full speed; ``/dev/null`` is an empty file."""
    st = os.fstat(fd)
    if not stat.S_ISCHR(st.st_mode) or os.isatty(fd):
        return False
    try:
        return st.st_rdev != os.stat(os.devnull).st_rdev
    except OSError:
        return True


class LineRefused(ValueError):
    """A line (or payload) refused as it entered; ``str()`` says why, without the place. ``kind`` is
    ``utf8``, ``json``, ``nesting`` or ``surrogate``; ``detail`` the words after it (the JSON error and
    its column, for ``json``)."""

    def __init__(self, kind: str, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.detail = detail or message


def loads(text: str | bytes) -> Any:
    """Decode one JSON value from outside.

    Raises:
        LineRefused: not UTF-8 (bytes), bad JSON, nested too deeply, or holding a lone surrogate.
    """
    read = read_json(text, max_bytes=None, parse_int=parse_int)
    if read.refusal is not None:
        raise LineRefused(read.refusal.kind, read.refusal.why, read.refusal.detail)
    return read.value


def decode_line(raw: bytes, *, first: bool = False) -> Any:
    """The JSON value of one line of the event format (its end of line already cut off or not); a
    byte-order mark before the ``first`` line is skipped.

    Raises:
        LineRefused: as ``loads``.
    """
    if first and raw.startswith(BOM):
        raw = raw[len(BOM):]
    return loads(raw)
