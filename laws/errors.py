"""Errors that more than one part of the law engine raises, kept here so none imports another's module.

:class:`MovementError` is the movement's (:mod:`laws.duplicate.movement`), :class:`SessionError` the
scoring's (:mod:`laws.scoring`); both are re-exported there, where callers import them from. The one
competitor type (:mod:`laws.competitors`) is read by both, so what it refuses is both.
"""

from __future__ import annotations


class MovementError(ValueError):
    """A movement (or a movement file) that cannot be used; the message names the line or the seat."""


class SessionError(ValueError):
    """A session that cannot be scored as given; the message names the board, line and pair."""
