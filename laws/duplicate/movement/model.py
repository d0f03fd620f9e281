"""A movement as data: for each round and table, the North-South pair, the East-West pair and the board
group; and which boards each group holds.

Nothing here knows Mitchell from Howell: the builders (``build.py``) and the ``.ASC`` reader produce the
same values, :func:`laws.duplicate.movement.check` finds what is wrong with any of them, and
:meth:`Movement.text` prints any of them as a guide card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from laws.cards import Side
from laws.competitors import Pair as Pair  # re-exported: the one competitor type
from laws.errors import MovementError as MovementError  # re-exported: its home for callers

NS = Side.NS   # a str enum: equal to "NS"
EW = Side.EW
ONE_FIELD = "one field"


@dataclass(frozen=True)
class Seating:
    """Who plays which board group at one table in one round; ``None`` for an absent pair (a sit-out)."""

    round: int
    table: int
    ns: Pair | None
    ew: Pair | None
    group: int

    @property
    def pairs(self) -> tuple[Pair, ...]:
        """The pairs present, North-South first."""
        return tuple(p for p in (self.ns, self.ew) if p is not None)

    @property
    def played(self) -> bool:
        """Whether the boards are played here (both pairs present)."""
        return self.ns is not None and self.ew is not None


BOARDS_AT_MOST = 999
"""A set of boards (a hand-record file, a session's boards) holds at most this many."""


def groups_of(count: int, boards_per_group: int, first_board: int = 1) -> dict[int, tuple[int, ...]]:
    """Groups 1..count of consecutive boards: group g holds the g-th run of ``boards_per_group``.

    Raises:
        MovementError: more boards than a set holds (``--boards-per-round 99999999999999999999`` asked
            Python for a range it cannot make: an OverflowError's traceback, or memory for millions).
    """
    if count * boards_per_group > BOARDS_AT_MOST:
        raise MovementError(f"{count} board groups of {boards_per_group} boards are {count * boards_per_group} "
                            f"boards; a set of boards is at most {BOARDS_AT_MOST}")
    return {g: tuple(range(first_board + (g - 1) * boards_per_group, first_board + g * boards_per_group))
            for g in range(1, count + 1)}


@dataclass(frozen=True)
class Movement:
    """A movement: ``seatings`` for rounds 1..``rounds`` and tables 1..``tables``; ``groups`` maps each
    board group to its boards.

    ``contestants`` is the number of pairs the movement is for (0: as many as it seats);
    ``round_robin`` says every pair must meet every other exactly once (a complete Howell);
    ``copies`` is how many copies of each board are in play (a barometer dealt at every table has one
    a table); ``bye_stand`` the two tables a bye stand stands between (a relay Mitchell's ``n/2`` and
    ``n/2 + 1``), ``None`` when there is none: the group that rests in a round lies there, and the guide
    and the moves must say so, or nobody knows where to put the round-1 boards no table plays.
    Constructing a movement never refuses a broken one: :func:`check` says what is wrong.
    """

    name: str
    tables: int
    rounds: int
    groups: Mapping[int, tuple[int, ...]] = field(hash=False)
    seatings: tuple[Seating, ...]
    contestants: int = 0
    round_robin: bool = False
    copies: int = 1
    bye_stand: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", MappingProxyType({int(g): tuple(b) for g, b in self.groups.items()}))
        seatings = tuple(sorted(self.seatings, key=lambda s: (s.round, s.table)))
        object.__setattr__(self, "seatings", seatings)
        if not self.contestants:
            object.__setattr__(self, "contestants", len({p for s in seatings for p in s.pairs}))
        at: dict[tuple[int, int], Seating] = {}
        where: dict[tuple[Pair, int], Seating] = {}
        for s in seatings:
            at.setdefault((s.round, s.table), s)
            for p in s.pairs:
                where.setdefault((p, s.round), s)
        object.__setattr__(self, "_at", at)
        object.__setattr__(self, "_where", where)

    # -- looking things up ------------------------------------------------------------------------

    def at(self, round: int, table: int) -> Seating | None:
        """The seating at ``table`` in ``round`` (``None``: the table is not used that round)."""
        at: dict[tuple[int, int], Seating] = self.__dict__["_at"]
        return at.get((round, table))

    def where(self, pair: Pair, round: int) -> Seating | None:
        """Where ``pair`` sits in ``round`` (``None``: it does not play that round)."""
        where: dict[tuple[Pair, int], Seating] = self.__dict__["_where"]
        return where.get((pair, round))

    def boards_of(self, group: int) -> tuple[int, ...]:
        """The boards of a group (empty for group 0 or an unknown group)."""
        return self.groups.get(group, ())

    def boards(self) -> tuple[int, ...]:
        """Every board of the movement, in number order."""
        return tuple(sorted({b for boards in self.groups.values() for b in boards}))

    def pairs(self) -> tuple[Pair, ...]:
        """Every pair that sits anywhere, in order (NS before EW, then by number)."""
        return tuple(sorted({p for s in self.seatings for p in s.pairs}, key=pair_order))

    def due(self, board: int) -> int:
        """How many results ``board`` should get: the seatings with both pairs that play its group."""
        return sum(1 for s in self.seatings if s.played and board in self.boards_of(s.group))

    def fields(self) -> dict[Pair, str]:
        """Each pair's field for scoring: its direction when every pair keeps its own direction
        throughout (a Mitchell: fields ``"NS"`` and ``"EW"``), otherwise one field for all
        (a Howell, or a Mitchell with an arrow switch)."""
        pairs = self.pairs()
        two = all(p.direction is not None for p in pairs) and all(
            (s.ns is None or s.ns.direction == NS) and (s.ew is None or s.ew.direction == EW)
            for s in self.seatings)
        return {p: p.direction.value if two and p.direction else ONE_FIELD for p in pairs}

    # -- printing ---------------------------------------------------------------------------------

    def text(self) -> str:
        """The movement as a guide card: a row per round, a column per table, each cell
        ``NS-EW boards``; then the boards not at any table (on the bye stand, when there is one) and the
        tables that share."""
        width = max([9] + [len(_cell(self, s)) for s in self.seatings]) + 2
        fields = sorted(set(self.fields().values()), key=lambda f: {"NS": 0, "EW": 1}.get(f, 2))
        lines = [f"{self.name}: {self.contestants} pairs, {self.tables} tables, {self.rounds} rounds, "
                 f"boards {board_span(self.boards())}; fields: {', '.join(fields)}",
                 "Round " + "".join(f"Table {t}".ljust(width) for t in range(1, self.tables + 1)).rstrip()]
        notes: list[str] = []
        for r in range(1, self.rounds + 1):
            cells = []
            for t in range(1, self.tables + 1):
                s = self.at(r, t)
                cells.append((_cell(self, s) if s else "-").ljust(width))
            switched = any(s.round == r and ((s.ns and s.ns.direction == EW) or (s.ew and s.ew.direction == NS))
                           for s in self.seatings)
            lines.append(f"{r:>5} " + "".join(cells).rstrip() + ("   (arrow switch)" if switched else ""))
            notes += _round_notes(self, r)
        return "\n".join(lines + notes) + "\n"


def pair_order(p: Pair) -> tuple[int, int]:
    return ({NS: 0, EW: 1, None: 2}[p.direction], p.number)


def board_span(boards: Iterable[int]) -> str:
    b = sorted(boards)
    if not b:
        return "none"
    if b == list(range(b[0], b[-1] + 1)):
        return str(b[0]) if len(b) == 1 else f"{b[0]}-{b[-1]}"
    return ",".join(map(str, b))


def records_problem(given: Iterable[int], plays: Iterable[int], player: str) -> str:
    """What is wrong with hand records giving the boards numbered ``given`` for ``player`` (a movement's or
    an event's name) that plays the boards ``plays`` ("" when nothing): a board given twice, or one it
    plays missing.

    When the records hold none of the boards played, the message says which boards they do hold: a set
    numbered from another board (BridgeComposer's boards 16-30, a Duplimate set of 17-32) was refused as
    having "no boards 1-9" of a 15-board file, which told the director nothing of why."""
    counts = Counter(given)
    twice = sorted(n for n, k in counts.items() if k > 1)
    if twice:
        return f"the hand records give board {twice[0]} twice"
    wanted = sorted(set(plays))
    missing = sorted(set(wanted) - set(counts))
    if missing:
        held = (f": their boards are {board_span(counts)} (the boards played are numbered from "
                f"{wanted[0]})" if counts and len(missing) == len(wanted) else "")
        return (f"{player} plays boards {board_span(wanted)} but the hand records have no "
                f"board{'s' if len(missing) > 1 else ''} {board_span(missing)}{held}")
    return ""


def _cell(m: Movement, s: Seating) -> str:
    boards = board_span(m.boards_of(s.group))
    if s.ns is None or s.ew is None:
        return f"{s.pairs[0].number if s.pairs else '?'} out ({boards})"
    return f"{s.ns.number}-{s.ew.number} {boards}"


def _round_notes(m: Movement, r: int) -> list[str]:
    here = [s for s in m.seatings if s.round == r]
    notes = []
    used = {s.group for s in m.seatings}
    resting = [g for g in sorted(m.groups) if g in used and all(s.group != g for s in here)]
    if resting and m.copies == 1:
        spans = ", ".join(board_span(m.boards_of(g)) for g in resting)
        if m.bye_stand is None:
            notes.append(f"  round {r}: boards {spans} not at a table")
        else:
            a, b = m.bye_stand
            notes.append(f"  round {r}: boards {spans} on the bye stand between tables {a} and {b}"
                         + (" (the director puts them there before play)" if r == 1 else ""))
    for g in sorted(m.groups):
        tables = [s.table for s in here if s.group == g and s.played]   # a sit-out shows the boards, shares none
        if len(tables) > 1 and m.copies == 1:
            shared = ", ".join(map(str, tables[:-1])) + f" and {tables[-1]}"
            notes.append(f"  round {r}: tables {shared} share boards {board_span(m.boards_of(g))}")
    for s in here:
        if not s.played:
            notes.append(f"  round {r}: pair {s.ns or s.ew} sits out at table {s.table}")
    return notes
