"""A hand's result entered away from the table (the director's dashboard): checked before it is sent
and again when the table receives it.

Pure (no I/O). ``parse_result(game, fields)`` turns the fields of a ``result`` event (``docs/events.md``)
into a ``ResultRecorded`` for that game, or raises ``ResultError`` naming the field that is wrong. The
law engine stays the judge of whether a result fits the state of the table (a result before the deal
ends is refused there and journaled as a note).
"""

from __future__ import annotations

from typing import Any

from laws.events import EventFormatError, ResultRecorded, event_from_dict
from laws.scoring.bridge import parse_contract

# The fields each game's result takes, and the most tricks a side can win.
FIELDS = {"contract-bridge": {"declarer", "contract", "tricks", "honours"},
          "duplicate-bridge": {"declarer", "contract", "tricks"},
          "euchre": {"makers", "alone", "tricks"}}
MOST_TRICKS = {"contract-bridge": 13, "duplicate-bridge": 13, "euchre": 5}


class ResultError(ValueError):
    """A result that cannot be scored: the message names the field and what is wrong with it."""


def parse_result(game: str, fields: Any) -> ResultRecorded:
    """The ``ResultRecorded`` for ``fields`` at a table playing ``game``.

    Raises:
        ResultError: unknown game, not an object, unknown or missing field, bad value.
    """
    if game not in FIELDS:
        raise ResultError(f"the table's game is {game or 'not known yet'!r}; results are for "
                          f"{' or '.join(sorted(FIELDS))}")
    if not isinstance(fields, dict):
        raise ResultError(f"a result is a JSON object of fields, not {type(fields).__name__}")
    extra = sorted(set(fields) - FIELDS[game] - {"type"})
    if extra:
        raise ResultError(f"{game} result: unknown field {extra[0]!r} (want {', '.join(sorted(FIELDS[game]))})")
    try:
        event = event_from_dict({**fields, "type": "result"})
    except EventFormatError as exc:
        raise ResultError(str(exc)) from None
    assert isinstance(event, ResultRecorded)
    if not 0 <= event.tricks <= MOST_TRICKS[game]:
        raise ResultError(f"{game} result: tricks {fields.get('tricks')!r} is not 0 to {MOST_TRICKS[game]}")
    if game in ("contract-bridge", "duplicate-bridge"):
        if event.declarer is None:
            raise ResultError(f"{game} result: missing field 'declarer' (N, E, S or W)")
        if event.contract is None:
            raise ResultError(f"{game} result: missing field 'contract' (e.g. 4S, 3NT, 6HX)")
        try:
            parse_contract(event.contract)  # type: ignore[arg-type]
        except ValueError as exc:
            raise ResultError(f"{game} result: {exc}") from None
    elif event.makers is None:
        raise ResultError("euchre result: missing field 'makers' (NS or EW)")
    return event
