"""Who plays in an event: a names file read against the club's roster (``session/roster.py``), as
``names`` records (``laws/session/event/event_kind.py``).

**A names file** is a UTF-8 CSV, one competitor a line: ``number,team name,player,player,...`` for a
teams event (``3,Hearts,1021,1045,1102,Jane Visitor``), ``number,player,player`` for Swiss pairs and
``number,player`` for an individual. A player is a member number looked up in the roster, else a
visitor's name (``Roster.player``); without a roster every player is a visitor's name. A first line
whose first field holds no digit is a header; empty lines are skipped. Every refusal names the file and
the line (:class:`~firmware_host.session.roster.RosterError`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.session.roster import Roster, RosterError, _rows
from laws.competition.event_spec import EventSpec
from laws.session.event.event_kind import names_problem

NAMES_FILE = "names.csv"


def player_of(roster: Roster | None, entry: str) -> dict[str, str]:
    """A typed or read entry as a player (see the module's docstring); RosterError says why not."""
    return (roster or Roster((), "no roster: the event was opened without --roster")).player(entry)


def parse_names(data: bytes, spec: EventSpec, roster: Roster | None, source: str = NAMES_FILE) -> list[dict[str, Any]]:
    """The ``names`` records of a names file, each checked as the event will check it."""
    out: list[dict[str, Any]] = []
    named: dict[int, dict[str, Any]] = {}
    for i, (line, row) in enumerate(_rows(data, source)):
        if i == 0 and not any(ch.isdigit() for ch in row[0]):
            continue
        where = f"{source}: line {line}"
        if not row[0].isdigit():
            raise RosterError(f"{where}: {row[0][:20]!r} is not a competitor's number")
        number = int(row[0])
        team, entries = (row[1], row[2:]) if spec.kind.teams and len(row) > 1 else ("", row[1:])
        try:
            players = [player_of(roster, e) for e in entries if e]
        except RosterError as exc:
            raise RosterError(f"{where}: {exc}") from None
        rec = {"type": "names", "competitor": number, "name": team, "players": players, "by": source}
        if number in named:
            raise RosterError(f"{where}: competitor {number} is named twice")
        problem = names_problem(spec, named, rec)
        if problem:
            raise RosterError(f"{where}: {problem}")
        named[number] = rec
        out.append(rec)
    return out


def read_names(path: str | Path, spec: EventSpec, roster: Roster | None) -> list[dict[str, Any]]:
    """:func:`parse_names` of a file; RosterError names the file when it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RosterError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return parse_names(data, spec, roster, str(path))
