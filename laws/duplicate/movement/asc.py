"""The text movement file, ``.ASC`` (the Dutch "balans" standard, version 1.0).

As we read and write it (``docs/movements.md`` has an example):

* The first line that is not empty and not a comment is the header: five whole numbers, the number of
  contestants (pairs), tables, rounds and board groups, and 0 for a pairs movement (1 for an
  individual one, which we refuse: the table does not play individual movements).
* Then one line per round: for table 1, 2, ... in turn the North-South pair, the East-West pair and the
  board group. Groups are numbers from 1 or capital letters from ``A``, the same kind throughout.
  An unused table is ``0 0 0``. Separators are any run of spaces, tabs, ``-`` and ``,``.
* ``#`` starts a comment to the end of the line; empty lines are comments too.

Two things the standard does not settle, and what we do: a pair sitting out (half table) is written
with 0 for the absent pair and the table's group; Mitchell pairs, numbered within their direction in a
:class:`Movement`, are written North-South first (1..k) then East-West (k+1..), and read back as
pairs without a direction (one field).
"""

from __future__ import annotations

import itertools
import re
import string

from laws.duplicate.movement.model import Movement, MovementError, Pair, Seating, groups_of

_SEPARATORS = re.compile(r"[\s,\-]+")


def _tokens(line: str) -> list[str]:
    return [t for t in _SEPARATORS.split(line.split("#", 1)[0]) if t]


def _number(token: str, what: str, lineno: int) -> int:
    # ASCII digits only: ``str.isdigit`` takes '²', which ``int`` then refuses in Python's own words
    if not (token.isascii() and token.isdigit()):
        raise MovementError(f"line {lineno}: {what} {token!r} is not a whole number")
    return int(token)


def _missing(used: set[int], count: int, shown: int = 10) -> str:
    """The numbers 1..``count`` not in ``used``, the first ``shown`` of them and how many more."""
    first = list(itertools.islice((n for n in range(1, count + 1) if n not in used), shown))
    more = count - len(used) - len(first)
    return ", ".join(map(str, first)) + (f" and {more:,} more" if more > 0 else "")


def from_asc(text: str, *, boards_per_round: int = 1) -> Movement:
    """Read an ``.ASC`` movement; group ``g`` holds boards ``(g-1)*b+1 .. g*b`` for ``b`` boards a round.

    Raises :class:`MovementError` naming the line: a pair twice in a round, a board group out of range,
    a line with the wrong number of entries, a header that disagrees with the body, an individual
    movement.
    """
    lines = [(i, _tokens(line)) for i, line in enumerate(text.splitlines(), 1)]
    lines = [(i, t) for i, t in lines if t]
    if not lines:
        raise MovementError("no header line: the file is empty")
    hline, header = lines[0]
    if len(header) != 5:
        raise MovementError(f"line {hline}: the header has {len(header)} numbers, want 5 "
                            "(contestants, tables, rounds, board groups, individual 0/1)")
    contestants, tables, rounds, ngroups, individual = (
        _number(t, w, hline) for t, w in zip(header, ("contestants", "tables", "rounds", "board groups", "individual")))
    if individual == 1:
        raise MovementError(f"line {hline}: an individual movement (N, S, E, W seats); the table plays pairs "
                            "movements only")
    if individual != 0:
        raise MovementError(f"line {hline}: individual is 0 or 1, not {individual}")
    body = lines[1:]
    if len(body) != rounds:
        raise MovementError(f"line {hline}: the header says {rounds} rounds but {len(body)} round lines follow")
    letters = None
    seatings: list[Seating] = []
    for r, (lineno, tokens) in enumerate(body, 1):
        if len(tokens) != 3 * tables:
            raise MovementError(f"line {lineno}: {len(tokens)} entries, want {3 * tables} "
                                f"(NS pair, EW pair, board group for each of {tables} tables)")
        seen: dict[int, int] = {}
        for t in range(1, tables + 1):
            ns_t, ew_t, g_t = tokens[3 * t - 3: 3 * t]
            ns, ew = _number(ns_t, "pair", lineno), _number(ew_t, "pair", lineno)
            if g_t == "0":
                group = 0
            else:
                is_letter = len(g_t) == 1 and g_t in string.ascii_uppercase
                if letters is None:
                    letters = is_letter
                if is_letter != letters:
                    raise MovementError(f"line {lineno}: board group {g_t!r} at table {t}: groups are all "
                                        "letters or all numbers")
                group = string.ascii_uppercase.index(g_t) + 1 if is_letter else _number(g_t, "board group", lineno)
            if not 0 <= group <= ngroups:
                raise MovementError(f"line {lineno}: board group {g_t} at table {t} is out of range "
                                    f"(the header says {ngroups} groups)")
            for p in (ns, ew):
                if p > contestants:
                    raise MovementError(f"line {lineno}: pair {p} at table {t} is out of range "
                                        f"(the header says {contestants} contestants)")
                if p and p in seen:
                    where = "both seats of table " + str(t) if seen[p] == t else f"tables {seen[p]} and {t}"
                    raise MovementError(f"line {lineno}: pair {p} is at {where} in round {r}")
                if p:
                    seen[p] = t
            if (ns or ew) and not group:
                raise MovementError(f"line {lineno}: table {t} has pairs but no board group")
            if group and not (ns or ew):
                raise MovementError(f"line {lineno}: table {t} has board group {g_t} but no pairs")
            if ns or ew:
                seatings.append(Seating(r, t, Pair(ns) if ns else None, Pair(ew) if ew else None, group))
    # every pair and group seen is within the header's counts (checked above), so all are used exactly when
    # as many are seen as the header says; the missing ones are named without a set of the header's size (a
    # header of 999999999 contestants over one round took all the memory of the machine)
    used_pairs = {p.number for s in seatings for p in s.pairs}
    if len(used_pairs) != contestants:
        raise MovementError(f"line {hline}: the header says {contestants} contestants but pairs "
                            f"{_missing(used_pairs, contestants)} never sit")
    used_groups = {s.group for s in seatings}
    if len(used_groups) != ngroups:
        raise MovementError(f"line {hline}: the header says {ngroups} board groups but groups "
                            f"{_missing(used_groups, ngroups)} are never at a table")
    comments = [line.split("#", 1)[1].strip() for line in text.splitlines() if "#" in line]
    name = next((c for c in comments if c), f".ASC movement, {tables} tables")
    return Movement(name, tables, rounds, groups_of(ngroups, boards_per_round), tuple(seatings),
                    contestants=contestants)


def asc_numbers(movement: Movement) -> dict[Pair, int]:
    """The contestant number each pair gets in an ``.ASC`` file: North-South pairs first, then
    East-West, then pairs without a direction, each by number."""
    return {p: i for i, p in enumerate(movement.pairs(), 1)}


def to_asc(movement: Movement) -> str:
    """Write ``movement`` as an ``.ASC`` file (its name as a comment under the header).

    Raises :class:`MovementError` for a movement the format cannot carry (two seatings at one table in
    a round, a seating outside the movement's tables or rounds).
    """
    numbers = asc_numbers(movement)
    groups = sorted(movement.groups)
    if groups != list(range(1, len(groups) + 1)):
        raise MovementError(f"the .ASC format numbers board groups 1..n; these are {groups}")
    letters = len(groups) <= 26
    width = len(str(max(numbers.values(), default=1)))
    lines = [f"{len(numbers)} {movement.tables} {movement.rounds} {len(groups)} 0", f"# {movement.name}"]
    for r in range(1, movement.rounds + 1):
        cells = []
        for t in range(1, movement.tables + 1):
            s = movement.at(r, t)
            ns = numbers[s.ns] if s and s.ns else 0
            ew = numbers[s.ew] if s and s.ew else 0
            g = s.group if s else 0
            label = (string.ascii_uppercase[g - 1] if letters else str(g)) if g else "0"
            cells.append(f"{ns:>{width}}-{ew:>{width}} {label}")
        lines.append("  ".join(cells))
    placed = sum(1 for r in range(1, movement.rounds + 1) for t in range(1, movement.tables + 1) if movement.at(r, t))
    if placed != len(movement.seatings):
        raise MovementError("the movement has seatings the .ASC format cannot carry "
                            "(two at one table in a round, or outside its tables and rounds)")
    return "\n".join(lines) + "\n"

