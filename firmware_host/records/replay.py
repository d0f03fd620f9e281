"""Reading event logs (JSON Lines) and running them through the law engine, line by line.

Used by ``cardtable replay`` and by the controller's journal export checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from firmware_host.records.lines import LineRefused, loads
from laws.events import Event, EventFormatError, GameChosen, event_from_dict


class LogError(ValueError):
    """A line of an event log that cannot be used; ``str()`` is ``FILE:LINE: what is wrong``."""

    def __init__(self, source: str, line: int, message: str) -> None:
        super().__init__(f"{source}:{line}: {message}")
        self.source = source
        self.line = line
        self.message = message


@dataclass(frozen=True)
class LoggedEvent:
    line: int
    event: Event


def read_events(lines: Iterable[str], source: str) -> Iterator[LoggedEvent]:
    """Decode an event log lazily; blank lines are skipped.

    Raises:
        LogError: at the first malformed line, after yielding every line before it.
    """
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            obj = loads(text)  # checked where it enters: JSON, nesting, lone surrogates (``lines``)
        except LineRefused as exc:
            raise LogError(source, number, str(exc)) from None
        try:
            yield LoggedEvent(number, event_from_dict(obj))
        except EventFormatError as exc:
            raise LogError(source, number, str(exc)) from None


def game_of(first: Event | None, override: str | None) -> str | None:
    """The game a log is for: ``--game`` wins, else its first ``game`` line."""
    if override:
        return override
    if isinstance(first, GameChosen):
        return first.game
    return None


def dropped_result(line: int, phase: str) -> dict[str, object]:
    """What replay says of a ``result`` the engine dropped because no hand awaited one (the table was in
    ``phase``, not between a deal's end and the next deal): a JSON object that is not a ruling (it has
    ``dropped``, not ``remedy``)."""
    return {"dropped": "result", "line": line, "phase": phase,
            "reason": f"No hand awaits a result while the table is in its {phase} phase, so this result "
                      "was not scored."}
