"""Who plays: the club's roster (a CSV the club exports from its membership list) and the pairs' players.

The rules (``docs/session.md``, "Players"):

* **The roster** is a UTF-8 CSV (a byte order mark is skipped), one member a line: ``member number,name``
  and optionally ``,federation number``. A first line whose first field holds no digit is a header and is
  skipped; empty lines are skipped. A member number is 1 to 16 letters, digits or ``-`` with at least one
  digit; a name 1 to 60 characters with no control character (:func:`name_problem`) and without `` & ``
  or `` - `` (:func:`joined_name_problem`: the results join a pair's names with them); a federation number
  0 to 20 letters, digits or ``-``. A member number given twice is refused. Every refusal names the file
  and the line: ``roster.csv: line 4: ...`` (:class:`RosterError`).
* **A player** is ``{"name", "member", "federation"}``; a visitor has ``member`` and ``federation`` ``""``.
  Typed or read, an entry is a member number when it has the member number's form (no space, a digit),
  else a visitor's name (:meth:`Roster.player`, the same rules as a roster's name). A member number the
  roster lacks is refused.
* **A players file** (``cardtable duplicate open --players FILE``) is a CSV ``pair,player,player`` a line
  (``3 NS,1021,1045``; ``5 EW,1102,Jane Visitor``); a first line whose first field is not a pair is a
  header. A pair twice, a player at two pairs: refused, naming the line.

The checks of a ``players`` record against the session (:func:`players_problem`) are pure (``laws.session.players``); only
:func:`read_roster` and :func:`read_players` read files.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from laws.session.players import (  # the checks are pure: a player is data
    FEDERATION,
    MEMBER,
    joined_name_problem,
    name_problem,
    players_problem,
)

ROSTER_FILE = "roster.csv"


class RosterError(ValueError):
    """A roster, a players file or a typed entry that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class Member:
    """One line of the roster."""

    number: str
    name: str
    federation: str = ""
    line: int = 0          # its line in the roster file

    def player(self) -> dict[str, str]:
        return {"name": self.name, "member": self.number, "federation": self.federation}


class Roster:
    """The club's members by number (build one with :func:`read_roster`)."""

    def __init__(self, members: Iterable[Member], source: str = ROSTER_FILE) -> None:
        self.members = {m.number: m for m in members}
        self.source = source

    def __len__(self) -> int:
        return len(self.members)

    def player(self, entry: str) -> dict[str, str]:
        """A typed or read entry as a player: a member number looked up, else a visitor by name.

        Raises:
            RosterError: a member number not in the roster, a name that cannot be used.
        """
        text = str(entry).strip()
        if MEMBER.match(text):
            found = self.members.get(text)
            if found is None:
                raise RosterError(f"member number {text} is not in the roster ({self.source})")
            return found.player()
        problem = name_problem(text) or joined_name_problem(text)
        if problem:
            raise RosterError(problem)
        return {"name": text, "member": "", "federation": ""}


def _rows(data: bytes, source: str) -> list[tuple[int, list[str]]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise RosterError(f"{source}: line {line}: not UTF-8 text (byte {data[exc.start]:02x})") from None
    out = []
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                out.append((reader.line_num, [cell.strip() for cell in row]))
    except csv.Error as exc:
        raise RosterError(f"{source}: line {reader.line_num}: {exc}") from None
    return out


def parse_roster(data: bytes, source: str = ROSTER_FILE) -> Roster:
    """The roster in ``data`` (see the module docstring); :class:`RosterError` names the line."""
    members: dict[str, tuple[int, Member]] = {}
    for i, (line, row) in enumerate(_rows(data, source)):
        if i == 0 and not any(ch.isdigit() for ch in row[0]):
            continue                                              # a header
        where = f"{source}: line {line}"
        if not 2 <= len(row) <= 3:
            raise RosterError(f"{where}: {len(row)} fields; a member is 'member number,name' and optionally "
                              "',federation number'")
        number, name, fed = row[0], row[1], row[2] if len(row) == 3 else ""
        if not MEMBER.match(number):
            raise RosterError(f"{where}: {number[:20]!r} is not a member number (1 to 16 letters, digits or -, "
                              "with a digit)")
        problem = name_problem(name) or joined_name_problem(name)
        if problem:
            raise RosterError(f"{where}: {problem}")
        if not FEDERATION.match(fed):
            raise RosterError(f"{where}: {fed[:24]!r} is not a federation number (at most 20 letters, digits or -)")
        if number in members:
            raise RosterError(f"{where}: member number {number} is on line {members[number][0]} too")
        members[number] = (line, Member(number, name, fed, line))
    if not members:
        raise RosterError(f"{source}: no member in it (a line is 'member number,name[,federation number]')")
    return Roster((m for _, m in members.values()), source)


def read_roster(path: str | Path) -> Roster:
    """The roster file at ``path``; :class:`RosterError` names the file (and line) when it cannot be used."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RosterError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    return parse_roster(data, str(p))


def read_players(path: str | Path, roster: Roster | None, pairs: Iterable[str],
                 label_of: Any) -> list[dict[str, Any]]:
    """The ``players`` records of a players file (see the module docstring), checked together.

    Args:
        path: the file.
        roster: the club's roster (None: every entry must be a visitor's name).
        pairs: the session's pair labels.
        label_of: the pair label a typed pair gives (``"3NS"`` -> ``"3 NS"``); ``ValueError`` if none.

    Raises:
        RosterError: naming the file and line.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RosterError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    known = list(pairs)
    lookup = roster or Roster((), "no roster: give --roster FILE")
    records: list[dict[str, Any]] = []
    named: dict[str, list[dict[str, str]]] = {}
    lines: dict[str, int] = {}
    for i, (line, row) in enumerate(_rows(data, str(p))):
        where = f"{p}: line {line}"
        try:
            pair = str(label_of(row[0]))
        except ValueError:
            if i == 0:
                continue                                          # a header
            raise RosterError(f"{where}: {row[0][:20]!r} is not a pair (want '3 NS', or '5' in a Howell)") from None
        if len(row) != 3:
            raise RosterError(f"{where}: {len(row)} fields; a line is 'pair,player,player'")
        if pair in lines:
            raise RosterError(f"{where}: pair {pair} is on line {lines[pair]} too")
        try:
            players = [lookup.player(cell) for cell in row[1:]]
        except RosterError as exc:
            raise RosterError(f"{where}: {exc}") from None
        rec = {"type": "players", "pair": pair, "players": players}
        problem = players_problem(known, named, rec)
        if problem:
            raise RosterError(f"{where}: {problem}")
        named[pair], lines[pair] = players, line
        records.append(rec)
    if not records:   # an empty file (a wrong one, or one not saved yet) is refused as an empty roster is
        raise RosterError(f"{p}: no pair in it (a line is 'pair,player,player')")
    return records


def camera_players(state: Any, roster: Roster | None, rec: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """A table's member cards (``link.parse_players``) as the session's ``players`` record, or why not:
    the table must be the session's, the pair the one seated on that side there in that round, and each
    member number in the roster. ``state`` is the session's state."""
    table, number, rnd, side = rec["table"], rec["table_number"], rec["round"], rec["side"]
    if state.number_of.get(table) != number:
        return None, f"member cards from {table}, which is not table {number} of this session"
    seat = state.movement.at(rnd, number) if 1 <= rnd <= state.movement.rounds else None
    pair = getattr(seat, side, None) if seat is not None else None
    label = "" if pair is None else str(pair)
    if label != rec["pair"]:
        return None, (f"{table}'s member cards name pair {rec['pair']}, but {label or 'no pair'} sits "
                      f"{side.upper()} at table {number} in round {rnd}")
    if roster is None:
        return None, f"{table}: member cards read, but the session has no roster to look them up in"
    try:
        players = [roster.player(m) for m in rec["members"]]
    except RosterError as exc:
        return None, f"{table}'s member cards: {exc}"
    if any(not p["member"] for p in players):
        return None, f"{table}'s member cards: {rec['members']} are not member numbers"
    # the cards name who sits there from this round on (a substitute's card does not rename rounds before)
    return {"type": "players", "pair": label, "players": players, "by": f"{table} (member cards)", "round": rnd}, ""


def roster_of(folder: str | Path) -> Roster | None:
    """The roster kept in a session's folder (``roster.csv``), or None when the session has none.

    Raises:
        RosterError: the file is there but cannot be used.
    """
    p = Path(folder)
    p = (p.parent if p.suffix == ".sqlite3" else p) / ROSTER_FILE
    return read_roster(p) if p.exists() else None
