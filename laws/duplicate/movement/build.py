"""Builders: Mitchell, Howell and barometer movements as :class:`Movement` values.

Each builder states the geometry (who moves where, how the boards travel) once, for every size; the
tests run :func:`check` on every size each supports. Board group ``g`` holds boards
``(g-1)*b+1 .. g*b`` for ``b`` boards a round.
"""

from __future__ import annotations

from collections.abc import Iterable

from laws.duplicate.movement.check import check
from laws.duplicate.movement.model import EW, NS, Movement, MovementError, Pair, Seating, groups_of

MITCHELL_TABLES = range(1, 31)
HOWELL_TABLES = range(3, 9)


def _whole(name: str, value: int, low: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise MovementError(f"{name} is a whole number from {low}, got {value!r}")


def _sound(movement: Movement) -> Movement:
    """The movement, if :func:`check` finds nothing wrong with it; else a ``MovementError`` saying what."""
    problems = check(movement)
    if problems:
        raise MovementError(f"{movement.name}: " + "; ".join(problems))
    return movement


def _ring(tables: int, relay: bool) -> tuple[list[int], int]:
    """The board ring: for each table its position, and the number of positions.

    Without a relay the ring is the tables themselves. With one (an even number of tables), tables 1
    and ``n`` share position 0 and a bye stand takes the position between tables ``n/2`` and ``n/2+1``:
    ``n`` positions, ``n`` groups, one resting on the stand each round.
    """
    if not relay:
        return list(range(tables)), tables
    half = tables // 2
    return [0 if t in (1, tables) else (t - 1 if t <= half else t) for t in range(1, tables + 1)], tables


def mitchell(tables: int, boards_per_round: int, rounds: int | None = None, *, even: str = "skip",
             half_table: bool = False, arrow_switch_rounds: Iterable[int] = ()) -> Movement:
    """A Mitchell: North-South pair ``t`` stays at table ``t``; East-West pairs move up a table each
    round (from the last table to the first) and the boards move down one position.

    With an odd number of tables that is all (``tables`` rounds). With an even number the East-West
    pairs would meet boards again half way, so either ``even="skip"``: they jump a table after half the
    rounds (at most ``tables - 1`` rounds), or ``even="relay"``: tables 1 and ``n`` share a board group
    and a bye stand between tables ``n/2`` and ``n/2 + 1`` holds the group nobody plays
    (``tables`` rounds). ``half_table`` leaves East-West pair ``n`` out, so one North-South pair sits out
    each round. In the ``arrow_switch_rounds`` every table's pairs change directions (one field).
    """
    _whole("the number of tables", tables)
    _whole("the number of boards a round", boards_per_round)
    if tables not in MITCHELL_TABLES:
        raise MovementError(f"Mitchell movements here have 1 to 30 tables, not {tables}")
    if even not in ("skip", "relay"):
        raise MovementError(f"even is 'skip' or 'relay', not {even!r}")
    if half_table and tables < 3:
        raise MovementError(f"a half-table Mitchell needs at least 3 tables, not {tables}")
    relay = tables % 2 == 0 and even == "relay"
    skip = tables % 2 == 0 and not relay and tables > 1
    most = tables - 1 if skip else tables
    rounds = most if rounds is None else rounds
    _whole("the number of rounds", rounds)
    if rounds > most:
        raise MovementError(f"a {tables}-table {'skip ' if skip else ''}Mitchell has at most {most} rounds, not {rounds}")
    switched = set(arrow_switch_rounds)
    if not switched <= set(range(1, rounds + 1)):
        raise MovementError(f"arrow switch rounds {sorted(switched)} are not all among rounds 1-{rounds}")
    position, size = _ring(tables, relay)
    seatings = []
    for r in range(1, rounds + 1):
        jump = 1 if skip and r > tables // 2 else 0
        for t in range(1, tables + 1):
            e = (t - 1 - (r - 1) - jump) % tables + 1
            ns: Pair | None = Pair(t, NS)
            ew: Pair | None = None if half_table and e == tables else Pair(e, EW)
            group = (position[t - 1] + r - 1) % size + 1
            if r in switched:
                ns, ew = ew, ns
            seatings.append(Seating(r, t, ns, ew, group))
    name = f"Mitchell, {tables} table{'s' if tables > 1 else ''}"
    name += " (skip)" if skip else " (relay and bye stand)" if relay else ""
    name += ", half table" if half_table else ""
    name += f", arrow switch in round{'s' if len(switched) > 1 else ''} {', '.join(map(str, sorted(switched)))}" if switched else ""
    return _sound(Movement(name, tables, rounds, groups_of(size, boards_per_round), tuple(seatings),
                           contestants=2 * tables - (1 if half_table else 0),
                           bye_stand=(tables // 2, tables // 2 + 1) if relay else None))


def _circle(tables: int) -> list[list[tuple[int, int]]]:
    """Round-robin meetings by the circle method, 0-based: pair ``2n-1`` stays at table 1 and meets pair
    ``r`` in round ``r``; at table ``k+1`` pairs ``r+k`` and ``r-k`` (mod ``2n-1``) meet."""
    q = 2 * tables - 1
    return [[(q, r)] + [((r + k) % q, (r - k) % q) for k in range(1, tables)] for r in range(q)]


def _cyclic_groups(tables: int, limit: int) -> list[int] | None:
    """Adders ``a_k`` (the group of table ``k+1`` in round ``r`` is ``r + a_k``, mod ``2n-1``) under which
    every pair plays every group once, with as few tables sharing a group as possible and never more
    than ``limit`` tables on one; ``None`` if there are none.

    Pair ``x`` meets pair ``2n`` in round ``x`` and sits at table ``k+1`` in rounds ``x - k`` and ``x + k``,
    so it plays groups ``x + a_0`` and ``x + a_k -+ k``: those offsets must be all of ``0 .. 2n-2``.
    """
    q, best = 2 * tables - 1, None
    wanted = set(range(1, q))

    def extend(k: int, used: set[int], adders: list[int]) -> bool:
        nonlocal best
        if k == tables:
            shared = len(adders) - len(set(adders))
            if max(adders.count(a) for a in adders) <= limit and (best is None or shared < best[0]):
                best = (shared, list(adders))
            return best is not None and best[0] == 0
        for a in range(q):
            lo, hi = (a - k) % q, (a + k) % q
            if lo in wanted and hi in wanted and lo != hi and not {lo, hi} & used:
                if extend(k + 1, used | {lo, hi}, adders + [a]):
                    return True
        return False

    extend(1, set(), [0])
    return None if best is None else best[1]


def _north_south_first(a: int, b: int, pairs: int) -> bool:
    """Whether pair ``a`` sits North-South against ``b`` (0-based): ``a`` does when ``b`` is 1 to n-1 places
    after it round the circle of ``2n`` pairs, or exactly n places and ``a`` is in the first half. Every
    pair then sits North-South in n-1 or n of its 2n-1 rounds."""
    half, d = pairs // 2, (b - a) % pairs
    return 0 < d < half or (d == half and a < half)


def howell(tables: int, boards_per_round: int) -> Movement:
    """A complete Howell for ``2 * tables`` pairs, 3 to 8 tables: ``2n - 1`` rounds and board groups;
    every pair meets every other once and plays every group once (one field).

    Meetings by the circle method (pair ``2n`` stays at table 1); groups by cyclic adders found by a
    small search, as few tables sharing a group as possible (none for 4, 6, 7 and 8 tables; two tables
    a round for 5; all three every round for 3, which therefore needs at least 3 boards a round); seats
    so that every pair sits North-South in ``n - 1`` or ``n`` rounds (as even as an odd number of
    rounds allows).
    """
    _whole("the number of boards a round", boards_per_round)
    if tables not in HOWELL_TABLES:
        raise MovementError(f"Howell movements here have 3 to 8 tables, not {tables!r}")
    q = 2 * tables - 1
    adders = _cyclic_groups(tables, boards_per_round)
    if adders is None:
        least = _cyclic_groups(tables, tables)
        most = max(least.count(a) for a in least) if least else tables
        raise MovementError(f"a {tables}-table Howell here shares each round's boards among {most} tables; "
                            f"it needs at least {most} boards a round, not {boards_per_round}")
    seatings = tuple(Seating(r, t, ns, ew, (r - 1 + adders[t - 1]) % q + 1) for r, t, ns, ew in _howell_seats(tables))
    return _sound(Movement(f"Howell, {tables} tables", tables, q, groups_of(q, boards_per_round),
                           seatings, contestants=2 * tables, round_robin=True))


def _howell_seats(tables: int) -> list[tuple[int, int, Pair, Pair]]:
    """(round, table, North-South pair, East-West pair) of the Howell for ``tables`` tables."""
    out = []
    for r, row in enumerate(_circle(tables)):
        for t, (a, b) in enumerate(row):
            ns, ew = (a, b) if _north_south_first(a, b, 2 * tables) else (b, a)
            out.append((r + 1, t + 1, Pair(ns + 1), Pair(ew + 1)))
    return out


def barometer(tables: int, boards_per_round: int, pairing: str = "mitchell") -> Movement:
    """Every table plays the same board group in the same round (group ``r`` in round ``r``), so each
    table's shoe deals its own copy (``copies = tables``).

    ``pairing="mitchell"``: North-South stay and East-West move up a table, ``tables`` rounds (boards
    never travel, so no skip is needed); ``"howell"``: the Howell's meetings and seats (3-8 tables).
    """
    _whole("the number of tables", tables)
    _whole("the number of boards a round", boards_per_round)
    if pairing == "howell":
        if tables not in HOWELL_TABLES:
            raise MovementError(f"Howell movements here have 3 to 8 tables, not {tables!r}")
        seats: list[tuple[int, int, Pair | None, Pair | None]] = list(_howell_seats(tables))
        rounds, contestants, complete = 2 * tables - 1, 2 * tables, True
    elif pairing == "mitchell":
        if tables not in MITCHELL_TABLES:
            raise MovementError(f"Mitchell movements here have 1 to 30 tables, not {tables}")
        seats = [(r, t, Pair(t, NS), Pair((t - r) % tables + 1, EW))
                 for r in range(1, tables + 1) for t in range(1, tables + 1)]
        rounds, contestants, complete = tables, 2 * tables, False
    else:
        raise MovementError(f"pairing is 'mitchell' or 'howell', not {pairing!r}")
    seatings = tuple(Seating(r, t, ns, ew, r) for r, t, ns, ew in seats)
    return _sound(Movement(f"Barometer ({pairing.capitalize()} pairing), {tables} tables", tables, rounds,
                           groups_of(rounds, boards_per_round), seatings, contestants=contestants,
                           round_robin=complete, copies=tables))
