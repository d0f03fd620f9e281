"""Errors that more than one part of the law engine raises, kept here so none imports another's module.

:class:`MovementError` is the movement's (:mod:`laws.duplicate.movement`), :class:`SessionError` the
scoring's (:mod:`laws.scoring`); both are re-exported there, where callers import them from. The one
competitor type (:mod:`laws.competitors`) is read by both, so what it refuses is both.
:func:`as_typed` is how every such message quotes a value a person gave.
"""

from __future__ import annotations

import json
from enum import Enum


class MovementError(ValueError):
    """A movement (or a movement file) that cannot be used; the message names the line or the seat."""


class SessionError(ValueError):
    """A session that cannot be scored as given; the message names the board, line and pair."""


def _in_words(value: object) -> str:
    return str(value.value) if isinstance(value, Enum) else str(value)


def as_typed(value: object, most: int = 20) -> str:
    """A value as a message to a person quotes it, never as Python writes it: text as it was typed,
    ``nothing`` for no value (absent, null or blank), a seat or other enumeration by its value, true and
    false, numbers as written, anything else as JSON writes it; cut to ``most`` characters (then ``…``)."""
    if value is None or value == "":
        text = "nothing"
    elif isinstance(value, str):
        text = value
    elif isinstance(value, Enum):
        text = str(value.value)
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float)):
        text = str(value)
    elif not isinstance(value, (list, tuple, dict)):
        text = str(value)  # a reader's own kind of value, e.g. the wire's over-long number: its own words
    else:
        try:
            text = json.dumps(value, default=_in_words, ensure_ascii=False)
        except (TypeError, ValueError):
            text = type(value).__name__
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)   # one line: \x85, \u2028 escaped
    return text if len(text) <= most else text[:most] + "…"


def quoted(value: object, most: int = 40) -> str:
    """A value from a line a person wrote, quoted in a message: text in quotes as typed (``'X'``), any
    other value as :func:`as_typed` gives it (``nothing`` for null, ``true``, ``[1, 2]``), never Python's ``None``,
    ``True`` or ``<Seat.N: 'N'>``; cut to ``most`` characters (then ``…``)."""
    if isinstance(value, str):
        text = repr(value)
        return text if len(text) <= most else text[:most] + "…"
    return as_typed(value, most)
