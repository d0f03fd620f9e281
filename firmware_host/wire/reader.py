"""The one checked reader of JSON from outside: every MQTT payload and every request body the club
takes goes through :func:`read_json` (``tests/wire/test_one_wire.py`` fails on a ``json.loads`` of
outside text anywhere else).

It never raises on what it reads: it returns a :class:`Read`, the value or a :class:`Refusal` (data:
``kind`` and ``why``), so whoever calls it decides what a refusal does, and no message can stop the loop
that reads the next one. In order, a payload is refused when it is

* ``size``: over ``max_bytes`` (the club's messages are at most 64 KiB; a command or a form 4 KiB);
* ``utf8``: not UTF-8 text (the byte is named);
* ``nesting``: lists or objects nested deeper than ``max_depth`` (our deepest message is five levels;
  the limit is 32). This is counted on the text before it is parsed, so a payload of a thousand ``[``
  never reaches the parser (it once raised ``RecursionError`` there and stopped the dashboard's hub);
* ``json``: not JSON (the parser's words and column);
* ``surrogate``: holding a lone surrogate escape (``"\\ud800"``): JSON can write one, text cannot hold it,
  and no journal could record it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_BYTES = 65536
MAX_DEPTH = 32
MAX_DIGITS = 30  # a whole number on the wire is a count, a number or a time; longer ones are refused by field
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# brackets to parentheses, every other ASCII character away (outside strings, JSON is ASCII)
_BRACKETS = str.maketrans({**{chr(c): None for c in range(128) if chr(c) not in "[]{}"},
                           "[": "(", "{": "(", "]": ")", "}": ")"})

@dataclass(frozen=True)
class Refusal:
    """Why a payload was not read: ``kind`` (``size``, ``utf8``, ``nesting``, ``json``, ``surrogate``),
    ``why`` in words, ``detail`` the words after the kind (the parser's message and column for ``json``)."""

    kind: str
    why: str
    detail: str = ""


@dataclass(frozen=True)
class Read:
    """The outcome of :func:`read_json`: ``value`` when ``refusal`` is None."""

    value: Any = None
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None


class LongNumber:
    """A JSON integer too long to be any message's value: kept as its length, so the field that holds it
    is named in the error, and Python never spends time converting thousands of digits."""

    def __init__(self, digits: str) -> None:
        self.digits = len(digits.lstrip("-"))

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def parse_int(text: str) -> int | LongNumber:
    """``json.loads``'s ``parse_int``: ordinary integers as ``int``, over-long ones as ``LongNumber``."""
    return int(text) if len(text) <= MAX_DIGITS else LongNumber(text)


def too_deep(text: str, max_depth: int) -> bool:
    """Whether lists and objects nest deeper than ``max_depth`` in JSON ``text`` (brackets inside strings
    do not count). Quick on what the club sends: a text with no more brackets than the limit cannot be
    too deep. Otherwise the strings are cut out and the brackets kept; a run of more than ``max_depth``
    openings is too deep at once; else the innermost pairs are taken away, one level a pass, and what
    stays open at the end counts as levels too."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    brackets = _STRING.sub("", text).translate(_BRACKETS)
    if "(" * (max_depth + 1) in brackets:
        return True
    for level in range(max_depth + 1):
        if "()" not in brackets:
            return level + brackets.count("(") > max_depth
        brackets = brackets.replace("()", "")
    return True


def lone_surrogate(obj: Any, where: str = "") -> str | None:
    """Where the first lone surrogate in a decoded JSON value is (``"field 'name'"``, ``"the text"``),
    or None when there is none. A field is named by its own key, however deep (``{"body": {"ns": ...}}``:
    ``field 'ns'``); a list's element by the field holding the list."""
    if isinstance(obj, str):
        return (where or "the text") if _has_surrogate(obj) else None
    if isinstance(obj, dict):
        for key, value in obj.items():
            name = f"field '{str(key).encode('unicode_escape').decode('ascii')[:40]}'"
            if isinstance(key, str) and _has_surrogate(key):
                return f"the name of {name}"
            found = lone_surrogate(value, name)
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


def read_json(payload: str | bytes, *, max_bytes: int | None = MAX_BYTES, max_depth: int = MAX_DEPTH,
              parse_int: Callable[[str], Any] | None = parse_int, surrogates_ok: bool = False) -> Read:
    """One JSON value from outside, checked (see the module docstring); never raises.

    Args:
        payload: the bytes (or text) as they arrived.
        max_bytes: the largest payload taken (None: no limit, for a line a file already bounded).
        max_depth: the deepest nesting of lists and objects taken.
        parse_int: ``json.loads``'s ``parse_int`` (default: an over-long integer is a ``LongNumber``).
        surrogates_ok: a lone surrogate escape is not a refusal. Only for a caller that has refused the
            payload already and reads back what it still says plainly (a refused ``board`` message's
            ``seq`` and ``board``, so its answer names them: ``wire.duplicate.refused_says``); such a value
            is never journaled nor shown.
    """
    if max_bytes is not None and len(payload) > max_bytes:
        return Read(refusal=Refusal("size", f"payload of {len(payload)} bytes is over the {max_bytes}-byte limit"))
    if isinstance(payload, (bytes, bytearray, memoryview)):
        try:
            text = bytes(payload).decode("utf-8")
        except UnicodeDecodeError as exc:
            return Read(refusal=Refusal("utf8", f"not UTF-8 text ({exc.reason} at byte {exc.start + 1})"))
    else:
        text = payload
    if too_deep(text, max_depth):
        return Read(refusal=Refusal("nesting", f"lists or objects nested too deeply (more than {max_depth} levels)"))
    try:
        value = json.loads(text, parse_int=parse_int)
    except json.JSONDecodeError as exc:
        detail = f"{exc.msg} at column {exc.colno}"
        return Read(refusal=Refusal("json", f"bad JSON ({detail})", detail))
    except (RecursionError, MemoryError, ValueError) as exc:  # a backstop: the checks above should catch it
        return Read(refusal=Refusal("json", f"bad JSON ({type(exc).__name__}: {str(exc)[:120]})"))
    # decoded from UTF-8 bytes, the text holds no surrogate itself: only an escape can make one
    maybe = _SURROGATE_ESCAPE.search(text) is not None or (text is payload and _has_surrogate(text))
    where = lone_surrogate(value) if maybe and not surrogates_ok else None
    if where is not None:
        return Read(refusal=Refusal("surrogate", f"{where} holds a lone surrogate escape (such as \\ud800), "
                                    "which is not text"))
    return Read(value)
