"""Individual movements: partners and opponents change every round, and each player scores on his own.

**The movements.** For 8, 12 and 16 players we have *whist* schedules of our own (:func:`whist`):
``n - 1`` rounds at ``n / 4`` tables, in which every two players are partners exactly once and opponents
exactly twice; and a published table for each (:mod:`laws.competition.individual_tables`,
:func:`published`): for 8 players a whist schedule too, for 12 one in which every two partner once but
meet as opponents from 0 to 4 times, for 16 one of 12 rounds in which every two partner at most once.
An event plays (:func:`individual_movement`) the balanced movement by default (the published table for
8, ours for 12 and 16) or, when the club asks, the published table for its number. Ours is written as
one starting round over the players ``1 .. n - 1`` and a fixed player ``n``; round ``r`` is the starting
round with every player ``p < n`` replaced by ``((p - 1 + r - 1) mod (n - 1)) + 1`` (player ``n`` keeps
his seat). Its starting rounds were found by a search for this project. Every schedule, published or
ours, is proved by :func:`check` (and the tests) rather than taken on trust.

**The boards.** Every table plays the same board group in a round (group ``r`` in round ``r``, one copy
a table, as a barometer does), so every result of a board is compared with every other and no player
meets a board twice. ``published(players, boards="published")`` keeps the published table's own groups
instead (the 12-player table passes its boards from table to table).

**Scoring** (:func:`score_individual`). Each board is scored as a pairs board (matchpoints, Neuberg,
adjusted scores: :mod:`laws.scoring.session`, ``DB-78``/``DB-12``), each partnership being the pair for
that board; each player then takes his side's points. A player's percentage is his points over the tops
of the boards he played; at IMPs he is ranked on IMPs per board. Players equal to the last fraction share
the place.

**Who.** A movement's seats are the schedule's player numbers (``Table.north`` is 1 to ``n``, as the
printed tables give them); a player ranked is a :class:`~laws.competitors.Competitor` of kind player
(``player(n)``): :class:`PlayerStanding` names him so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from laws.competition.individual_tables import PARTIAL, PUBLISHED, UNEVEN_OPPONENTS
from laws.competitors import Competitor, player
from laws.scoring.session import places, score_boards
from laws.scoring.session_values import Line, Method, Pair, Result, ScoredBoard

# The starting round of each schedule: tables in order, each (North, South, East, West) with North-South
# and East-West partners. Player ``n`` is the fixed one.
STARTING_ROUNDS: Mapping[int, tuple[tuple[int, int, int, int], ...]] = {
    8: ((8, 5, 3, 2), (1, 6, 4, 7)),
    12: ((12, 10, 11, 2), (8, 1, 5, 6), (4, 7, 3, 9)),
    16: ((16, 4, 2, 15), (3, 10, 8, 11), (7, 13, 12, 1), (6, 5, 9, 14)),
}


class IndividualError(ValueError):
    """An individual movement or result that cannot be used; the message says which round and table."""


@dataclass(frozen=True)
class Table:
    """One table of one round: the four players by seat and the board group played."""

    round: int
    table: int
    north: int
    south: int
    east: int
    west: int
    group: int

    @property
    def players(self) -> tuple[int, int, int, int]:
        return (self.north, self.south, self.east, self.west)


@dataclass(frozen=True)
class IndividualMovement:
    """A whole individual movement: its players, rounds and tables, and the boards of each group."""

    players: int
    rounds: int
    tables: tuple[Table, ...]
    groups: Mapping[int, tuple[int, ...]]

    def at(self, round_number: int, table: int) -> Table:
        for t in self.tables:
            if t.round == round_number and t.table == table:
                return t
        raise IndividualError(f"no table {table} in round {round_number}")

    def text(self) -> str:
        """The movement as a guide card: a line a round, each table as N-S v E-W."""
        lines = [f"Individual for {self.players} players, {self.rounds} rounds"]
        for r in range(1, self.rounds + 1):
            at = [t for t in self.tables if t.round == r]
            one = len({t.group for t in at}) == 1
            row = [f"T{t.table}: {t.north}-{t.south} v {t.east}-{t.west}"
                   + ("" if one else f" (boards {self.groups[t.group][0]}-{self.groups[t.group][-1]})") for t in at]
            g = self.groups[at[0].group]
            lines.append(f"round {r}" + (f" (boards {g[0]}-{g[-1]})" if one else "") + ": " + "; ".join(row))
        return "\n".join(lines)


def whist(players: int, boards_per_round: int = 2) -> IndividualMovement:
    """The whist individual for 8, 12 or 16 players, ``boards_per_round`` boards a round."""
    if players not in STARTING_ROUNDS:
        raise IndividualError(f"we have individual movements for {', '.join(map(str, STARTING_ROUNDS))} "
                              f"players, not {players!r}")
    _boards_per_round(boards_per_round)
    m = players - 1
    rounds = m
    tables = []
    for r in range(1, rounds + 1):
        for t, seats in enumerate(STARTING_ROUNDS[players], 1):
            moved = [p if p == players else (p - 1 + r - 1) % m + 1 for p in seats]
            north, south, east, west = moved
            tables.append(Table(r, t, north, south, east, west, r))
    groups = {g: tuple(range((g - 1) * boards_per_round + 1, g * boards_per_round + 1)) for g in range(1, rounds + 1)}
    movement = IndividualMovement(players, rounds, tuple(tables), groups)
    problems = check(movement)
    if problems:
        raise IndividualError("; ".join(problems))
    return movement


def _boards_per_round(boards_per_round: int) -> None:
    if isinstance(boards_per_round, bool) or not isinstance(boards_per_round, int) or not 1 <= boards_per_round <= 8:
        raise IndividualError(f"boards a round is a whole number from 1 to 8, got {boards_per_round!r}")


def published(players: int, boards_per_round: int = 2, boards: str = "barometer") -> IndividualMovement:
    """The published individual for 8, 12 or 16 players (:mod:`laws.competition.individual_tables`).

    Args:
        players: 8, 12 or 16.
        boards_per_round: boards in each group, 1 to 8.
        boards: ``"barometer"`` (every table plays group ``r`` in round ``r``, as the events deal them) or
            ``"published"`` (each table plays the group the published table gives it).

    Raises:
        IndividualError: no published table for that number, or a table that fails :func:`check`.
    """
    if players not in PUBLISHED:
        raise IndividualError(f"we have published individual movements for {', '.join(map(str, PUBLISHED))} "
                              f"players, not {players!r}")
    if boards not in ("barometer", "published"):
        raise IndividualError(f"boards is 'barometer' or 'published', not {boards!r}")
    _boards_per_round(boards_per_round)
    rows = PUBLISHED[players]
    tables = tuple(Table(r, t, n, s, e, w, r if boards == "barometer" else g)
                   for r, row in enumerate(rows, 1) for t, (n, s, e, w, g) in enumerate(row, 1))
    rounds = len(rows)
    groups = {g: tuple(range((g - 1) * boards_per_round + 1, g * boards_per_round + 1)) for g in range(1, rounds + 1)}
    movement = IndividualMovement(players, rounds, tables, groups)
    problems = check(movement, even_opponents=players not in UNEVEN_OPPONENTS, every_partner=players not in PARTIAL)
    if problems:
        raise IndividualError("; ".join(problems))
    return movement


def opponent_counts(movement: IndividualMovement) -> dict[int, int]:
    """How many pairs of players meet as opponents how many times: ``{times: pairs}``."""
    count: dict[frozenset[int], int] = {}
    for t in movement.tables:
        for a in (t.north, t.south):
            for b in (t.east, t.west):
                count[frozenset((a, b))] = count.get(frozenset((a, b)), 0) + 1
    n = movement.players
    out: dict[int, int] = {}
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            k = count.get(frozenset((a, b)), 0)
            out[k] = out.get(k, 0) + 1
    return dict(sorted(out.items()))


#: What an individual event may play (``individual_movement``'s ``table``).
TABLES = ("balanced", "published")


def individual_movement(players: int, boards_per_round: int = 2, table: str = "balanced") -> IndividualMovement:
    """The movement an individual event plays; every table plays the round's group (barometer boards).

    ``table="balanced"`` (the default): every two players partners once and opponents equally often —
    the published table for 8 players, our own :func:`whist` for 12 (the published 12-player table
    leaves some players never opposing each other and others four times; ours has every two opponents
    exactly twice) and for 16 (the published 16-player table plays 12 rounds, so not every two players
    partner). ``table="published"``: the published table for that number (:func:`published`), as a
    club with its printed guide cards plays it, balanced or not."""
    if table not in TABLES:
        raise IndividualError(f"an individual's table is one of {', '.join(TABLES)}, not {table!r}")
    if table == "published" or (players in PUBLISHED and players not in UNEVEN_OPPONENTS | PARTIAL):
        return published(players, boards_per_round)
    return whist(players, boards_per_round)


def check(movement: IndividualMovement, even_opponents: bool = True, every_partner: bool = True) -> list[str]:
    """What is wrong with an individual movement (empty when it is sound): every player seated once a
    round, every two players partners exactly once (at most once when ``every_partner`` is false: a
    movement of fewer rounds than players - 1), every two opponents the same number of times (unless
    ``even_opponents`` is false), and no player meets a board group twice."""
    problems: list[str] = []
    n = movement.players
    partners: dict[frozenset[int], int] = {}
    opponents: dict[frozenset[int], int] = {}
    for r in range(1, movement.rounds + 1):
        seated = [p for t in movement.tables if t.round == r for p in t.players]
        if sorted(seated) != list(range(1, n + 1)):
            problems.append(f"round {r}: players seated {sorted(seated)}, not each of 1-{n} once")
    for t in movement.tables:
        for a, b in ((t.north, t.south), (t.east, t.west)):
            partners[frozenset((a, b))] = partners.get(frozenset((a, b)), 0) + 1
        for a in (t.north, t.south):
            for b in (t.east, t.west):
                opponents[frozenset((a, b))] = opponents.get(frozenset((a, b)), 0) + 1
    times = {opponents.get(frozenset((a, b)), 0) for a in range(1, n + 1) for b in range(a + 1, n + 1)}
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            k = partners.get(frozenset((a, b)), 0)
            if k > 1 or (k == 0 and every_partner):
                problems.append(f"players {a} and {b} are partners {k} times")
    if even_opponents and len(times) != 1:
        problems.append(f"players meet as opponents unevenly ({sorted(times)} times)")
    met: dict[tuple[int, int], int] = {}
    for t in movement.tables:
        if t.group not in movement.groups:
            problems.append(f"round {t.round}, table {t.table}: board group {t.group} is not in the movement")
        for p in t.players:
            if (p, t.group) in met:
                problems.append(f"player {p} plays group {t.group} twice (rounds {met[(p, t.group)]} and {t.round})")
            met[(p, t.group)] = t.round
    return problems


@dataclass(frozen=True)
class IndividualResult:
    """One board's result at one table of one round."""

    round: int
    table: int
    board: int
    result: Result


@dataclass(frozen=True)
class PlayerStanding:
    """A player's place (the player, of kind player): his total, the tops of his boards (matchpoints),
    his percentage and boards."""

    player: Competitor
    total: Fraction
    tops: Fraction | None
    percent: Fraction | None
    boards: int
    place: str


def _partnership(round_number: int, table: int, side: int) -> Pair:
    """The pair number a partnership plays under for one round: unique in the session."""
    return Pair(round_number * 1000 + table * 2 + side)


def individual_scored(movement: IndividualMovement, results: Iterable[IndividualResult],
                      method: Method = Method.MATCHPOINTS) -> tuple[ScoredBoard, ...]:
    """Every board scored, each partnership under its pair number for the round (``round * 1000 +
    table * 2 + side``, side 0 North-South and 1 East-West).

    Raises:
        IndividualError: a result at a table or board the movement does not have there, or given twice.
    """
    lines = []
    seen: set[tuple[int, int, int]] = set()
    for res in results:
        table = movement.at(res.round, res.table)
        if res.board not in movement.groups[table.group]:
            raise IndividualError(f"round {res.round}, table {res.table}: board {res.board} is not played there")
        key = (res.round, res.table, res.board)
        if key in seen:
            raise IndividualError(f"round {res.round}, table {res.table}: board {res.board} has two results")
        seen.add(key)
        lines.append(Line(res.board, _partnership(res.round, res.table, 0),
                          _partnership(res.round, res.table, 1), res.result))
    boards = sorted({b for g in movement.groups.values() for b in g})
    due = len(movement.tables) // movement.rounds
    fields = {pair: "players" for ln in lines for pair in (ln.ns, ln.ew)}
    return score_boards(boards, lines, due, method, fields)


def score_individual(movement: IndividualMovement, results: Iterable[IndividualResult],
                     method: Method = Method.MATCHPOINTS) -> tuple[PlayerStanding, ...]:
    """Every player's standing, best first.

    Raises:
        IndividualError: a result at a table or board the movement does not have there, or given twice.
    """
    scored = individual_scored(movement, results, method)
    seat_of = {_partnership(t.round, t.table, side): pair
               for t in movement.tables for side, pair in ((0, (t.north, t.south)), (1, (t.east, t.west)))}
    total: dict[int, Fraction] = {}
    tops: dict[int, Fraction] = {}
    played: dict[int, int] = {}
    for board in scored:
        for ln in board.lines:
            for pair, pts in ((ln.ns, ln.ns_points), (ln.ew, ln.ew_points)):
                for seat in seat_of[pair]:
                    total[seat] = total.get(seat, Fraction(0)) + pts
                    tops[seat] = tops.get(seat, Fraction(0)) + (board.top or 0)
                    played[seat] = played.get(seat, 0) + 1
    at_imps = method.at_imps

    def figure(p: int) -> Fraction:
        if at_imps:
            return total[p] / played[p]
        return total[p] / tops[p] if tops[p] else Fraction(1, 2)

    order = sorted(total, key=lambda p: (-figure(p), p))
    shown = places([figure(p) for p in order])
    return tuple(PlayerStanding(player(p), total[p], None if at_imps else tops[p],
                                None if at_imps else figure(p) * 100, played[p], shown[i])
                 for i, p in enumerate(order))
