"""Text from outside, checked once where it enters: a line of the event format (``cardtable replay``, the
director's ``--events`` FIFO) and a JSON payload (a dashboard command over MQTT, a dashboard form).

``decode_line`` takes the bytes of one line and gives the JSON value it holds, or raises ``LineRefused``
saying what is wrong, in the words ``docs/events.md`` uses: not UTF-8 text (and at which byte), bad JSON,
lists or objects nested too deeply, or text holding a lone surrogate (``"\\ud800"``: JSON can write one,
Unicode text cannot hold it, so the journal could not record it). A whole number too long to be any
event's value (``MAX_DIGITS``) is kept as its length (``LongNumber``), so that the field holding it is
named by the event format's own check and Python never spends time converting thousands of digits.
``lone_surrogate`` finds such text in any decoded JSON value (keys too).

"Nested too deeply" is a fixed depth, ``MAX_DEPTH`` lists or objects one inside another, counted after
decoding and without recursion: how deep Python's own JSON decoder goes differs between versions (3.11
stops near 1000, 3.13 decodes 5000 and more), and what it lets through must never reach a function that
recurses over the value.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DIGITS = 30  # a whole number in an event is a count or a time; longer ones are refused by field
MAX_DEPTH = 100  # lists or objects one inside another; an event is flat, a message a few levels deep
BOM = b"\xef\xbb\xbf"


class LineRefused(ValueError):
    """A line (or payload) refused as it entered; ``str()`` says why, without the place. ``kind`` is
    ``utf8``, ``json``, ``nesting`` or ``surrogate``; ``detail`` the words after it (the JSON error and
    its column, for ``json``)."""

    def __init__(self, kind: str, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.detail = detail or message


class LongNumber:
    """A JSON integer too long to be any event's value: kept as its length, so the field that holds it
    is named in the error."""

    def __init__(self, digits: str) -> None:
        self.digits = len(digits.lstrip("-"))

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def parse_int(text: str) -> int | LongNumber:
    """``json.loads``'s ``parse_int``: ordinary integers as ``int``, over-long ones as ``LongNumber``."""
    return int(text) if len(text) <= MAX_DIGITS else LongNumber(text)


def lone_surrogate(obj: Any, where: str = "") -> str | None:
    """Where the first lone surrogate in a decoded JSON value is (``"field 'name'"``, ``"the text"``),
    or None when there is none."""
    if isinstance(obj, str):
        return (where or "the text") if _has_surrogate(obj) else None
    if isinstance(obj, dict):
        for key, value in obj.items():
            name = f"field '{str(key).encode('unicode_escape').decode('ascii')[:40]}'"
            if isinstance(key, str) and _has_surrogate(key):
                return f"the name of {name}"
            found = lone_surrogate(value, where or name)
            if found:
                return found
    if isinstance(obj, list):
        for value in obj:
            found = lone_surrogate(value, where or "a list")
            if found:
                return found
    return None


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def loads(text: str | bytes) -> Any:
    """Decode one JSON value from outside.

    Raises:
        LineRefused: not UTF-8 (bytes), bad JSON, nested too deeply, or holding a lone surrogate.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LineRefused("utf8", f"not UTF-8 text ({exc.reason} at byte {exc.start + 1})") from None
    try:
        obj = json.loads(text, parse_int=parse_int)
    except json.JSONDecodeError as exc:
        detail = f"{exc.msg} at column {exc.colno}"
        raise LineRefused("json", f"bad JSON ({detail})", detail) from None
    except RecursionError:
        obj = _TOO_DEEP
    if obj is _TOO_DEEP or too_deep(obj):
        raise LineRefused("nesting", "lists or objects nested too deeply (an event is a flat object)")
    where = lone_surrogate(obj)
    if where is not None:
        raise LineRefused("surrogate", f"{where} holds a lone surrogate escape (such as \\ud800), which is "
                          "not text")
    return obj


_TOO_DEEP = object()


def too_deep(obj: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``obj`` holds more than ``limit`` lists or objects one inside another (walked with a
    stack of its own, so any depth the decoder let through is measured, never recursed into)."""
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def decode_line(raw: bytes, *, first: bool = False) -> Any:
    """The JSON value of one line of the event format (its end of line already cut off or not); a
    byte-order mark before the ``first`` line is skipped.

    Raises:
        LineRefused: as ``loads``.
    """
    if first and raw.startswith(BOM):
        raw = raw[len(BOM):]
    return loads(raw)
