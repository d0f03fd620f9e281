"""What goes wrong in a duplicate soak, and where; drawn from a seed before anything runs.

Misboardings (``MISBOARDINGS``), each a physical copy of a board that is not as its record says: two hands
swapped, the board turned round, one card moved to another pocket (and one of that pocket's back, so every
hand still holds thirteen), or the board played at the wrong table (the copy is another board's). A board
the table's shoe deals can only be misboarded by the players (two of them picking up each other's
pockets: ``SHOE_MISBOARDINGS``). ``EXPECTED`` gives, for each, the rulings the laws give (docs/laws.md
``DB-87``, with the director's decision the soak enters), written here, never taken from the table; the
checker adds where: at the first card played by a seat the record does not give it to.

A board the shoe deals may also come from a pack short of a card (``short``: ``DB-14``, its card found and
put back). Faults (``FAULT_KINDS``) are no mistake of anyone's: no ruling may follow them: a table killed
with SIGKILL, the shoe's cable pulled, the journal's write lock held by another process, the club's
broker stopped and started again (no persistence: what it held is gone), line noise and a jammed card
at a table's shoe.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from laws.cards import SEATS
from laws.duplicate.deal import Board, Deal

MISBOARDINGS = ("swapped", "turned", "moved", "wrong_table")
SHOE_MISBOARDINGS = ("swapped",)
EXPECTED: dict[str, tuple[tuple[str, str], ...]] = {
    kind: (("DB-87", "attention"), ("DB-87", "deal_stands")) for kind in MISBOARDINGS}
EXPECTED["short"] = (("DB-14", "attention"),)
FAULT_KINDS = ("kill", "unplug", "stall", "broker", "noise")
# Faults that need a shoe at the table (its cable, its line), or the club's broker.
SHOE_FAULTS = frozenset({"unplug", "noise"})
CONTRACTS = ("1NT", "2S", "3NT", "4H", "3C", "2D", "Pass")


@dataclass(frozen=True)
class TablePlan:
    table: int
    how: str                      # "board" or "shoe"
    round: int
    ns: str
    ew: str
    boards: tuple[int, ...]


@dataclass(frozen=True)
class DupSchedule:
    seed: int
    records: dict[int, Board]
    tables: tuple[TablePlan, ...]
    misboard: dict[tuple[int, int], str]       # (table, board) -> kind
    short: dict[int, tuple[int, ...]]          # table -> the shoe's deal numbers with a card missing
    faults: dict[int, dict[int, str]]          # table -> board -> fault kind
    fault_card: int = 9                        # a kill or stall comes after this many cards of its board


def seeded_boards(count: int, seed: int) -> dict[int, Board]:
    """Deals for a simulation (a seeded generator: never for a real session, ``boards new`` is)."""
    rng = random.Random(f"deals:{seed}")
    out = {}
    for n in range(1, count + 1):
        seats = [SEATS[k % 4] for k in range(52)]
        rng.shuffle(seats)
        out[n] = Board.numbered(n, Deal(tuple(seats)))
    return out


def make_dup_schedule(tables: int = 3, boards: int = 6, seed: int = 1, *, misboard_rate: float = 0.35,
                      short_rate: float = 0.2, faults: int = 3, fault_kinds: tuple[str, ...] = FAULT_KINDS,
                      plays: dict[int, tuple[int, ...]] | None = None) -> DupSchedule:
    """Draw a schedule: every table plays boards 1..``boards`` in round 1 (each its own copies, as a
    barometer does), or, with ``plays`` (a movement's), the boards it names for each table; odd tables
    with physical boards, even ones with their shoe dealing. Misboardings and faults fall on boards the
    table plays."""
    if tables < 1 or boards < 1:
        raise ValueError("a duplicate soak needs at least one table and one board")
    rng = random.Random(f"duplicate:{seed}")
    records = seeded_boards(max(boards, 2), seed)
    plans = tuple(TablePlan(t, "board" if t % 2 else "shoe", 1, str(t), str(10 + t),
                            plays[t] if plays else tuple(range(1, boards + 1)))
                  for t in range(1, tables + 1))
    misboard: dict[tuple[int, int], str] = {}
    short: dict[int, tuple[int, ...]] = {}
    for p in plans:
        kinds = MISBOARDINGS if p.how == "board" else SHOE_MISBOARDINGS
        for n in p.boards:
            if rng.random() < misboard_rate:
                misboard[(p.table, n)] = rng.choice(kinds)
        if p.how == "shoe":               # the shoe's deals (their numbers among the table's) short of a card
            short[p.table] = tuple(i for i in range(1, len(p.boards) + 1) if rng.random() < short_rate)
    chosen: dict[int, dict[int, str]] = {}
    kinds = [k for k in fault_kinds if k in FAULT_KINDS]
    for i in range(faults if kinds else 0):
        kind = kinds[i % len(kinds)]
        candidates = [p for p in plans if kind not in SHOE_FAULTS or p.how == "shoe"]
        if not candidates:
            continue
        p = rng.choice(candidates)
        # a shoe's line noise falls on one of its deals (its number among the table's), the rest on a board
        at = rng.randint(1, len(p.boards)) if kind == "noise" else rng.choice(p.boards)
        chosen.setdefault(p.table, {})[at] = kind
    return DupSchedule(seed, records, plans, misboard, short, chosen)


def held(schedule: DupSchedule, record: Board, kind: str | None, _rng: Any = None) -> Deal:
    """The cards as the players hold them: the record's deal, or the misboarded copy (seeded by the board,
    the same whatever the timing)."""
    if kind is None:
        return record.deal
    rng = random.Random(f"misboard:{schedule.seed}:{record.number}:{kind}")
    seats = list(record.deal.assignment())
    if kind == "swapped":
        a, b = rng.sample(SEATS, 2)
        seats = [b if s is a else a if s is b else s for s in seats]
    elif kind == "turned":
        k = rng.choice((1, 2, 3))
        seats = [SEATS[(SEATS.index(s) - k) % 4] for s in seats]
    elif kind == "moved":
        i = rng.randrange(52)
        j = rng.choice([x for x in range(52) if seats[x] is not seats[i]])
        seats[i], seats[j] = seats[j], seats[i]
    elif kind == "wrong_table":
        other = [n for n in schedule.records if n != record.number]
        return schedule.records[rng.choice(other)].deal
    else:
        raise ValueError(f"unknown misboarding {kind!r}")
    return Deal(tuple(seats))

