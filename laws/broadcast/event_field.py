"""What the live broadcast needs to know of an event (teams, Swiss, individual, sections:
``laws.competition``) before any board is played, so that an event is broadcast with no operator:

* :func:`board_tables`: each board and the event tables that play it (the ``after-field`` rule waits for
  all of them). Every kind seats the same tables in every round but a knock-out, whose later rounds have
  fewer matches; an event of sections plays each table's board group (its movement's).
* :func:`event_rooms`: for a teams event, each table's room (``o`` for the open room, event table 2m - 1 of
  match m; ``c`` for the closed room, table 2m) and its counterpart in the other room (the ``teams``
  rule shows a board of one room once the other room has finished it).
* :func:`side_names`: who sits on a side, by the side's label as a table journals it (a team's or Swiss
  pair's number, an individual's ``8-1``, a section's ``3 NS``), as two names for its two seats: a
  team by its name at both (which of its players sit where is not known), a pair by its players, an
  individual by each player's name. A side nobody named is left out (shown without names).

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from laws.competition.event_spec import EventKind, EventSpec, section_numbers, tables_of
from laws.competition.teams import knockout_draw


def matches_in(spec: EventSpec, round_number: int) -> int:
    """How many matches round ``round_number`` of a teams or Swiss event has: half the entrants (rounded
    down: an odd one out has a bye), or, in a knock-out, the bracket's: round 1 seats every team but the
    byes, each later round half the one before."""
    if spec.kind is EventKind.KNOCKOUT:
        size = 2 * len(knockout_draw(spec.entrants))     # the bracket's places
        return spec.entrants - size // 2 if round_number == 1 else size >> round_number
    return spec.entrants // 2


def board_tables(spec: EventSpec) -> dict[int, frozenset[int]]:
    """Board -> the event tables that play it, over every round of the event."""
    out: dict[int, set[int]] = {}
    for r in range(1, spec.rounds + 1):
        if spec.kind in (EventKind.INDIVIDUAL, EventKind.SECTIONS):
            for seat in tables_of(spec, r, ()):
                for b in seat.boards or spec.boards(r):
                    out.setdefault(b, set()).add(seat.table)
            continue
        m = matches_in(spec, r)
        tables = range(1, (2 * m if spec.kind.teams else m) + 1)
        for b in spec.boards(r):
            out.setdefault(b, set()).update(tables)
    return {b: frozenset(t) for b, t in sorted(out.items())}


def event_rooms(spec: EventSpec) -> tuple[dict[int, str], dict[int, int]]:
    """A teams event's rooms by event table (``o``/``c``) and each table's other room; empty otherwise."""
    if not spec.kind.teams:
        return {}, {}
    most = max(matches_in(spec, r) for r in range(1, spec.rounds + 1))
    room: dict[int, str] = {}
    other: dict[int, int] = {}
    for m in range(1, most + 1):
        room[2 * m - 1], room[2 * m] = "o", "c"
        other[2 * m - 1], other[2 * m] = 2 * m, 2 * m - 1
    return room, other


def _players(entry: Mapping[str, Any] | None) -> list[str]:
    return [str(p.get("name", "")) for p in (entry or {}).get("players", ()) if p.get("name")]


def two(people: list[str]) -> tuple[str, str]:
    """A side's two seats' names from its players' names (at least one): the first two, "" for a missing one."""
    return people[0], people[1] if len(people) > 1 else ""


def side_key(section: str | None, label: str, several: bool = True) -> str:
    """How ``side_names`` keys a side: its label, with its section first (``B 3 NS``) in an event of
    several sections (whose sections' labels are alike)."""
    return f"{section} {label}" if several and section else label


def named_side(names: Mapping[str, tuple[str, str]], section: str | None, label: str) -> tuple[str, str] | None:
    """The names ``side_names`` gave the side a board item calls ``label`` in ``section`` (None: nobody named):
    keyed with its section when the event has several, by its label alone when not (or no section)."""
    return names.get(side_key(section, label)) or names.get(label)


def side_names(spec: EventSpec, names: Mapping[int, Mapping[str, Any]]) -> dict[str, tuple[str, str]]:
    """Side label -> the names at its two seats (North or East first), for every side somebody named.
    ``names`` is the event's (``EventState.names``: competitor number -> ``{name, players}``). In an event
    of more than one section the labels of different sections are alike (``3 NS``), so there a side is
    keyed with its section first (``B 3 NS``), as a board item's ``section`` and ``ns``/``ew`` name it."""
    out: dict[str, tuple[str, str]] = {}
    if spec.kind is EventKind.SECTIONS:
        several = len(spec.sections) != 1
        for (section, pair), number in section_numbers(spec).items():
            people = _players(names.get(number))
            if people:
                out[side_key(section, pair.label, several)] = two(people)
        return out
    if spec.kind is EventKind.INDIVIDUAL:
        one = {n: (_players(names.get(n)) or [""])[0] for n in range(1, spec.entrants + 1)}
        for t in spec.individual_schedule().tables:
            for a, b in ((t.north, t.south), (t.east, t.west)):
                if one[a] or one[b]:
                    out[f"{a}-{b}"] = (one[a], one[b])
        return out
    for number, entry in names.items():
        if spec.kind.teams:
            team = str(entry.get("name", "")) or ", ".join(_players(entry))
            if team:
                out[str(number)] = (team, team)
        else:
            people = _players(entry)
            if people:
                out[str(number)] = two(people)
    return out
