"""Who plays in an event: a names file read against the club's roster (``session/roster.py``), as
``names`` records (``laws/session/event/event_kind.py``).

**A names file** is a UTF-8 CSV, one competitor a line: ``number,team name,player,player,...`` for a
teams event (``3,Hearts,1021,1045,1102,Jane Visitor``), ``number,player,player`` for Swiss pairs and
``number,player`` for an individual; ``section,pair,player,player`` for pairs in sections
(``A,3NS,1021,Jane Visitor``: the pair as ``3NS``, ``3EW``, or ``5`` for a Howell pair). A player is a member number looked up in the roster, else a
visitor's name (``Roster.player``); without a roster every player is a visitor's name. A first line
whose first field (in sections: second field) holds no digit is a header; empty lines are skipped. Every refusal names the file and
the line (:class:`~firmware_host.session.roster.RosterError`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.session.roster import Roster, RosterError, _rows
from laws.competition.event_spec import EventKind, EventSpec, pair_id, section_numbers
from laws.session.event.event_kind import competitor_label, names_problem

NAMES_FILE = "names.csv"


def player_of(roster: Roster | None, entry: str) -> dict[str, str]:
    """A typed or read entry as a player (see the module's docstring); RosterError says why not."""
    return (roster or Roster((), "no roster: the event was opened without --roster")).player(entry)


def section_record(spec: EventSpec, section: object, pair: object) -> dict[str, Any]:
    """The ``competitor``, ``section`` and ``pair`` of a section's pair's ``names`` record (competitor 0
    when the event has no such pair: the record's check then says why)."""
    place = {"section": str(section), "pair": str(pair).replace(" ", "").upper()}
    numbers = {f"{s} {pair_id(p)}": k for (s, p), k in section_numbers(spec).items()}
    return {"competitor": numbers.get(f"{place['section']} {place['pair']}", 0), **place}


def parse_names(data: bytes, spec: EventSpec, roster: Roster | None, source: str = NAMES_FILE) -> list[dict[str, Any]]:
    """The ``names`` records of a names file, each checked as the event will check it."""
    out: list[dict[str, Any]] = []
    named: dict[int, dict[str, Any]] = {}
    sections = spec.kind is EventKind.SECTIONS
    for i, (line, row) in enumerate(_rows(data, source)):
        head = row[1] if sections and len(row) > 1 else None if sections else row[0]
        if i == 0 and head is not None and not any(ch.isdigit() for ch in head):
            continue
        where = f"{source}: line {line}"
        place: dict[str, str] = {}
        if sections:
            if len(row) < 2:
                raise RosterError(f"{where}: a section's pair is named as section,pair,player,player")
            place = section_record(spec, row[0], row[1])
            number, entries = int(place.pop("competitor")), row[2:]
        elif not row[0].isdigit():
            raise RosterError(f"{where}: {row[0][:20]!r} is not a competitor's number")
        else:
            number = int(row[0])
            entries = row[2:] if spec.kind.teams and len(row) > 1 else row[1:]
        team = row[1] if spec.kind.teams and len(row) > 1 else ""
        try:
            players = [player_of(roster, e) for e in entries if e]
        except RosterError as exc:
            raise RosterError(f"{where}: {exc}") from None
        rec = {"type": "names", "competitor": number, **place, "name": team, "players": players, "by": source}
        if number in named:
            raise RosterError(f"{where}: {competitor_label(spec, number)} is named twice")
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
