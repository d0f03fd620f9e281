"""Movements as data: every builder's output is sound for every size, the checker fails on broken
movements, and ``.ASC`` files are read and written."""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from laws.duplicate.movement import (
    EW,
    NS,
    ONE_FIELD,
    Movement,
    MovementError,
    Pair,
    Seating,
    asc_numbers,
    barometer,
    check,
    from_asc,
    howell,
    mitchell,
    to_asc,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "movements.md"


def boards_played(m: Movement) -> dict[Pair, Counter[int]]:
    """For each pair, how many times it plays each board (worked out here, not by the checker)."""
    out: dict[Pair, Counter[int]] = defaultdict(Counter)
    for s in m.seatings:
        if s.ns is not None and s.ew is not None:
            for p in (s.ns, s.ew):
                out[p].update(m.groups[s.group])
    return out


def meetings(m: Movement) -> Counter[frozenset[Pair]]:
    return Counter(frozenset((s.ns, s.ew)) for s in m.seatings if s.ns is not None and s.ew is not None)


MITCHELLS = [(n, even, half) for n in range(1, 31) for even in ("skip", "relay") for half in (False, True)
             if not (half and n < 3) and not (even == "relay" and n % 2)]


@pytest.mark.parametrize("tables, even, half", MITCHELLS)
def test_every_mitchell_is_sound(tables: int, even: str, half: bool) -> None:
    m = mitchell(tables, 2, even=even, half_table=half)
    assert check(m) == []
    played = boards_played(m)
    relay = even == "relay" and tables % 2 == 0
    rounds = tables - 1 if tables % 2 == 0 and not relay and tables > 1 else tables
    assert m.rounds == rounds
    assert m.contestants == 2 * tables - half
    for pair, counts in played.items():
        # Every pair meets the boards it should, once: one group a round it plays, never a board twice.
        assert set(counts.values()) == {1}
        plays = sum(1 for s in m.seatings if s.played and pair in s.pairs)
        assert len(counts) == 2 * plays
    for pair in m.pairs():
        assert pair.direction in (NS, EW)
        if pair.direction == NS:  # North-South stay put
            assert {s.table for s in m.seatings if pair in s.pairs} == {pair.number}
    assert set(meetings(m).values()) == {1}
    assert set(m.fields().values()) == {NS, EW}


@pytest.mark.parametrize("tables", range(1, 31))
def test_arrow_switched_and_shortened_mitchells_are_sound(tables: int) -> None:
    full = mitchell(tables, 2)
    switched = mitchell(tables, 2, arrow_switch_rounds=(full.rounds,))
    assert check(switched) == [] and set(switched.fields().values()) == {ONE_FIELD}
    if tables > 2:  # (a 2-table relay cut to one round would leave the bye stand's boards unplayed: refused)
        assert check(mitchell(tables, 2, rounds=full.rounds - 1, even="relay")) == []


@pytest.mark.parametrize("tables", [3, 5, 7, 9])
def test_mitchell_geometry(tables: int) -> None:
    m = mitchell(tables, 3)
    for r in range(1, tables):
        for t in range(1, tables + 1):
            here, then = m.at(r, t), m.at(r + 1, t % tables + 1)
            assert here is not None and then is not None
            assert then.ew == here.ew  # East-West move up a table (the last to the first)
            below = m.at(r + 1, (t - 2) % tables + 1)
            assert below is not None and below.group == here.group  # the boards move down
    assert all(m.due(b) == tables for b in m.boards())


def test_due_counts_results() -> None:
    assert {mitchell(5, 3).due(b) for b in range(1, 16)} == {5}
    assert {mitchell(4, 3).due(b) for b in range(1, 13)} == {3}  # skip: 3 rounds
    assert {mitchell(4, 3, even="relay").due(b) for b in range(1, 13)} == {4}
    assert {mitchell(5, 3, half_table=True).due(b) for b in range(1, 16)} == {4}  # one sit-out a round
    assert mitchell(5, 3).due(99) == 0


def test_skip_and_relay_for_even_tables() -> None:
    skip = mitchell(6, 2)
    moves = [skip.where(Pair(1, EW), r).table for r in range(1, 6)]  # type: ignore[union-attr]
    assert moves == [1, 2, 3, 5, 6]  # up one a round, jumping table 4 after half the rounds
    relay = mitchell(6, 2, even="relay")
    for r in range(1, 7):
        assert relay.at(r, 1).group == relay.at(r, 6).group  # type: ignore[union-attr]  # tables 1 and 6 share
        resting = set(relay.groups) - {s.group for s in relay.seatings if s.round == r}
        assert len(resting) == 1  # one group on the bye stand
    with pytest.raises(MovementError, match="at most 5 rounds"):
        mitchell(6, 2, rounds=6)
    with pytest.raises(MovementError, match="keeps 1 table busy at most"):
        mitchell(6, 1, even="relay")  # a one-board group cannot be shared
    assert mitchell(6, 2, rounds=3).rounds == 3


def test_half_table_and_arrow_switch() -> None:
    m = mitchell(5, 2, half_table=True, arrow_switch_rounds=(5,))
    assert check(m) == []
    assert set(m.fields().values()) == {ONE_FIELD}
    assert m.at(5, 1).ns == Pair(2, EW) and m.at(5, 1).ew == Pair(1, NS)  # type: ignore[union-attr]
    sitting_out = [s for s in m.seatings if not s.played]
    assert [s.round for s in sitting_out] == [1, 2, 3, 4, 5]
    assert m.where(Pair(5, EW), 1) is None
    with pytest.raises(MovementError, match="at least 3 tables"):
        mitchell(2, 2, half_table=True)
    with pytest.raises(MovementError, match="not all among rounds"):
        mitchell(5, 2, arrow_switch_rounds=(6,))


@pytest.mark.parametrize("bad", [0, 31, -1, True])
def test_mitchell_sizes(bad: int) -> None:
    with pytest.raises(MovementError):
        mitchell(bad, 2)


@pytest.mark.parametrize("tables", range(3, 9))
def test_every_howell_is_sound(tables: int) -> None:
    m = howell(tables, 3)
    assert check(m) == []
    pairs = m.pairs()
    assert len(pairs) == 2 * tables and m.rounds == 2 * tables - 1
    met = meetings(m)
    assert all(met[frozenset(two)] == 1 for two in itertools.combinations(pairs, 2))  # every pair once
    played = boards_played(m)
    assert all(counts == Counter({b: 1 for b in m.boards()}) for counts in played.values())  # every board once
    north_south = Counter(s.ns for s in m.seatings)
    assert set(north_south.values()) <= {tables - 1, tables}  # as even as 2n - 1 rounds allow
    assert set(m.fields().values()) == {ONE_FIELD}
    assert all(m.due(b) == tables for b in m.boards())


def test_howell_sharing_needs_enough_boards() -> None:
    assert max(Counter((s.round, s.group) for s in howell(4, 1).seatings).values()) == 1  # no sharing
    assert max(Counter((s.round, s.group) for s in howell(5, 2).seatings).values()) == 2
    with pytest.raises(MovementError, match="among 3 tables; it needs at least 3 boards a round, not 2"):
        howell(3, 2)
    with pytest.raises(MovementError, match="at least 2 boards a round, not 1"):
        howell(5, 1)
    with pytest.raises(MovementError, match="3 to 8 tables"):
        howell(9, 2)


def test_no_three_table_howell_keeps_its_groups_apart() -> None:
    """Why the 3-table Howell puts one group at all three tables: with its meetings, no way of giving
    each pair each of the 5 groups once avoids a round with one group at all three tables.

    The groups' names are interchangeable (renaming them keeps every condition), so the first round is
    tried only with its groups named in order of first use, (0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 1, 2):
    every way is a renaming of one that starts so. The same search, a 30th of the work."""
    m = howell(3, 3)
    rounds = [[(s.ns, s.ew) for s in m.seatings if s.round == r] for r in range(1, 6)]
    seen: dict[Pair | None, set[int]] = {p: set() for p in m.pairs()}

    def in_order_of_first_use(groups: tuple[int, ...]) -> bool:
        return all(g <= max(groups[:k], default=-1) + 1 for k, g in enumerate(groups))

    def apart(r: int) -> bool:
        if r == 5:
            return True
        for groups in itertools.product(range(5), repeat=3):
            if r == 0 and not in_order_of_first_use(groups):
                continue
            if len(set(groups)) == 1 or any(g in seen[a] or g in seen[b] for (a, b), g in zip(rounds[r], groups)):
                continue
            for (a, b), g in zip(rounds[r], groups):
                seen[a].add(g)
                seen[b].add(g)
            ok = apart(r + 1)
            for (a, b), g in zip(rounds[r], groups):
                seen[a].discard(g)
                seen[b].discard(g)
            if ok:
                return True
        return False

    assert not apart(0)
    assert all(len({s.group for s in m.seatings if s.round == r}) == 1 for r in range(1, 6))


@pytest.mark.parametrize("tables", range(1, 31))
def test_barometer_mitchell(tables: int) -> None:
    m = barometer(tables, 2)
    assert check(m) == []
    assert m.copies == tables and m.rounds == tables
    assert all(s.group == s.round for s in m.seatings)
    assert set(meetings(m).values()) == {1} and len(meetings(m)) == tables * tables


@pytest.mark.parametrize("tables", range(3, 9))
def test_barometer_howell(tables: int) -> None:
    m = barometer(tables, 1, pairing="howell")
    assert check(m) == [] and m.round_robin
    assert all(s.group == s.round for s in m.seatings)
    with pytest.raises(MovementError, match="pairing"):
        barometer(tables, 1, pairing="swiss")


# -- the checker fails on broken movements ------------------------------------------------------------

def _move(m: Movement, at_round: int, at_table: int, **change: object) -> Movement:
    seatings = tuple(replace(s, **change) if (s.round, s.table) == (at_round, at_table) else s for s in m.seatings)
    return replace(m, seatings=seatings)


BROKEN = [
    ("a pair at two tables", lambda: _move(mitchell(5, 2), 1, 2, ew=Pair(1, EW)), "pair 1 EW is at tables 1 and 2 in round 1"),
    ("both seats", lambda: _move(mitchell(5, 2), 1, 1, ew=Pair(1, NS)), "pair 1 NS is at both seats of table 1 in round 1"),
    ("a board twice", lambda: _move(mitchell(5, 2), 2, 1, group=1), "pair 1 NS plays board 1 2 times (rounds 1 and 2)"),
    ("a Howell pair never meets", lambda: _move(howell(4, 2), 1, 2, ew=None), "never meet"),
    ("meet twice", lambda: _move(mitchell(5, 2), 2, 1, ew=Pair(1, EW), group=2), "pairs 1 NS and 1 EW meet 2 times"),
    ("a group out of range", lambda: _move(mitchell(5, 2), 1, 1, group=9), "board group 9 at table 1 in round 1 is not one"),
    ("two seatings at a table", lambda: replace(mitchell(3, 2), seatings=mitchell(3, 2).seatings
                                                 + (Seating(1, 1, None, None, 1),)), "table 1 has two seatings in round 1"),
    ("too many pairs", lambda: replace(mitchell(3, 2), contestants=7), "7 pairs cannot sit at 3 tables"),
    ("pairs asked for", lambda: replace(mitchell(3, 2), contestants=5), "the movement is for 5 pairs but seats 6"),
    ("over-shared", lambda: _move(_move(mitchell(5, 1), 1, 2, group=1), 1, 3, group=1), "are at 3 tables in round 1"),
    ("a board in two groups", lambda: replace(mitchell(3, 2), groups={1: (1, 2), 2: (2, 3), 3: (5, 6)}),
     "board 2 is in groups 1 and 2"),
    ("a round outside", lambda: _move(mitchell(3, 2), 3, 1, round=4), "round 4 (table 1) is outside rounds 1-3"),
    ("a table outside", lambda: _move(mitchell(3, 2), 3, 1, table=4), "table 4 (round 3) is outside tables 1-3"),
    ("no pairs", lambda: _move(mitchell(3, 2), 1, 1, ns=None, ew=None), "table 1 in round 1 has a board group but no pairs"),
    ("a group never played", lambda: replace(mitchell(3, 2), groups={**mitchell(3, 2).groups, 4: (7, 8)}),
     "boards 7-8 are never played"),
    ("a pair never plays", lambda: replace(mitchell(3, 2), seatings=tuple(
        replace(s, ns=None) if s.ew == Pair(2, EW) else s for s in mitchell(3, 2).seatings)), "pair 2 EW never plays a board"),
    ("a Howell pair misses boards", lambda: _move(howell(4, 2), 1, 1, group=2), "never plays boards"),
]


@pytest.mark.parametrize("name, build, problem", BROKEN, ids=[b[0] for b in BROKEN])
def test_the_checker_fails_on_broken_movements(name: str, build, problem: str) -> None:  # type: ignore[no-untyped-def]
    problems = check(build())
    assert any(problem in p for p in problems), problems


# -- printing -----------------------------------------------------------------------------------------

def test_guide_card_text() -> None:
    text = mitchell(4, 3, even="relay").text()
    assert text.splitlines()[0].startswith("Mitchell, 4 tables (relay and bye stand): 8 pairs")
    assert "tables 1 and 4 share boards 1-3" in text
    assert "round 1: boards 7-9 on the bye stand between tables 2 and 3 (the director puts them there before play)" in text
    assert "round 1: boards 4-6, 7-9, 10-12, 13-15 not at a table" in howell(3, 3).text()
    assert "5 out (9-10)" in mitchell(5, 2, half_table=True).text()
    assert "(arrow switch)" in mitchell(5, 2, arrow_switch_rounds=(5,)).text()


def test_a_sit_out_table_is_not_said_to_share() -> None:
    """Audit m32: a half-table relay Mitchell's guide said ``round 1: tables 1 and 4 share boards 1-2``
    when table 4 sat out with them (``4 out (1-2)``): only table 1 plays them, nothing is passed."""
    text = mitchell(4, 2, even="relay", half_table=True).text()
    assert "4 out (1-2)" in text and "1 out (3-4)" in text
    assert "round 1: tables 1 and 4 share" not in text and "round 2: tables 1 and 4 share" not in text
    assert "round 3: tables 1 and 4 share boards 5-6" in text          # both play them
    assert "round 1: pair 4 NS sits out at table 4" in text


def _doc_block(title: str) -> str:
    text = DOCS.read_text(encoding="utf-8")
    m = re.search(r"<!-- " + re.escape(title) + r" -->\n```text\n(.*?)```", text, re.S)
    assert m, f"docs/movements.md has no block {title!r}"
    return m.group(1)


@pytest.mark.parametrize("title, build", [
    ("mitchell(5, 3)", lambda: mitchell(5, 3).text()),
    ("mitchell(4, 3)", lambda: mitchell(4, 3).text()),
    ('mitchell(4, 2, even="relay")', lambda: mitchell(4, 2, even="relay").text()),
    ("howell(3, 3)", lambda: howell(3, 3).text()),
    ("to_asc(mitchell(5, 3))", lambda: to_asc(mitchell(5, 3))),
])
def test_docs_show_what_the_code_prints(title: str, build) -> None:  # type: ignore[no-untyped-def]
    assert _doc_block(title) == build()


# -- .ASC files --------------------------------------------------------------------------------------

# The example of the "balans" movement file standard 1.0 (pjms.nl, "Movement files in the format .ASC"):
# its header and first two round lines. The header's round count is set to the two rounds shown, and
# the stored copy of the second line stops after six tables, so table 7 gets the two pairs left, 12-14.
STANDARD_EXAMPLE = """14  7  2  6 0
 1- 2 A  3- 4 B  5- 6 C  7- 8 D  9-10 E 11-12 F 13-14 A
 6- 3 A  7- 2 B 11-13 C  9- 4 D  5- 8 E  1-10 F 12-14 B
"""


def test_reads_the_standards_example() -> None:
    m = from_asc(STANDARD_EXAMPLE, boards_per_round=2)
    assert (m.contestants, m.tables, m.rounds, len(m.groups)) == (14, 7, 2, 6)
    assert m.at(1, 7) == Seating(1, 7, Pair(13), Pair(14), 1)  # group A again: tables 1 and 7 share it
    assert m.at(2, 3) == Seating(2, 3, Pair(11), Pair(13), 3)
    assert m.groups[2] == (3, 4)
    assert check(m) == []


def test_reads_comments_separators_and_unused_tables() -> None:
    text = "\n".join([
        "4 3 2 2 0   # 2 tables in play, a third unused",
        "",
        "# round 1",
        "1,2\t1  3-4 2  0 0 0",
        "1-3 2  2 - 4 1  0-0-0  # round 2",
    ])
    m = from_asc(text, boards_per_round=3)
    assert m.at(1, 3) is None and m.at(2, 2) == Seating(2, 2, Pair(2), Pair(4), 1)
    assert m.name == "2 tables in play, a third unused"
    assert m.boards() == (1, 2, 3, 4, 5, 6)


@pytest.mark.parametrize("text, message", [
    ("", "no header"),
    ("4 2 1 2", "line 1: the header has 4 numbers, want 5"),
    ("4 2 1 2 1\n1 2 1 3 4 2 0 0 0 0", "line 1: an individual movement"),
    ("4 2 2 2 0\n1-2 A 3-4 B\n", "the header says 2 rounds but 1 round lines follow"),
    ("4 2 1 2 0\n1-2 A 3-4\n", "line 2: 5 entries, want 6"),
    ("4 2 1 2 0\n1-2 A 1-4 B\n", "line 2: pair 1 is at tables 1 and 2 in round 1"),
    ("4 2 1 2 0\n1-2 A 3-4 C\n", "line 2: board group C at table 2 is out of range"),
    ("4 2 1 2 0\n1-2 A 3-5 B\n", "line 2: pair 5 at table 2 is out of range"),
    ("4 2 1 2 0\n1-2 A 3-4 2\n", "groups are all letters or all numbers"),
    ("4 2 1 2 0\n1-2 A x-4 B\n", "line 2: pair 'x' is not a whole number"),
    ("5 3 1 2 0\n1-2 A 3-4 B 0-0-0\n", "line 1: the header says 5 contestants but pairs 5 never sit"),
    ("4 2 1 3 0\n1-2 A 3-4 B\n", "line 1: the header says 3 board groups but groups 3 are never"),
    ("4 3 1 2 0\n1-2 A 3-4 B 0-0 A\n", "line 2: table 3 has board group A but no pairs"),
    ("4 2 1 2 0\n1-2 0 3-4 B\n", "line 2: table 1 has pairs but no board group"),
    ("4 2 1 2 0\n1-1 A 3-4 B\n", "pair 1 is at both seats of table 1"),
    # attack p11: a digit Python's isdigit takes and int refuses was answered in Python's words
    ("\u00b2 2 1 2 0\n1-2 A 3-4 B\n", "line 1: contestants '\u00b2' is not a whole number"),
    # attack p11: a header's counts made sets that size (999999999 contestants: all the machine's memory)
    ("999999999 1 1 1 0\n1-2 A\n", "line 1: the header says 999999999 contestants but pairs 3, 4, 5, 6, 7, 8, 9, 10, "
     "11, 12 and 999,999,987 more never sit"),
    ("2 1 1 999999999 0\n1-2 A\n", "line 1: the header says 999999999 board groups but groups 2, 3, 4, 5, 6, 7, 8, "
     "9, 10, 11 and 999,999,988 more are never at a table"),
])
def test_asc_refusals_name_the_line(text: str, message: str) -> None:
    with pytest.raises(MovementError, match=re.escape(message)):
        from_asc(text)


@pytest.mark.parametrize("build", [
    lambda: mitchell(5, 3), lambda: mitchell(4, 2), lambda: mitchell(6, 2, even="relay"),
    lambda: mitchell(7, 2, half_table=True), lambda: howell(6, 2), lambda: barometer(4, 2),
    lambda: mitchell(30, 1),
])
def test_asc_round_trip(build) -> None:  # type: ignore[no-untyped-def]
    m = build()
    text = to_asc(m)
    back = from_asc(text, boards_per_round=len(m.groups[1]))
    assert to_asc(replace(back, name=m.name)) == text
    numbers = asc_numbers(m)
    same = {(s.round, s.table, numbers[s.ns] if s.ns else None, numbers[s.ew] if s.ew else None, s.group)
            for s in m.seatings}
    got = {(s.round, s.table, s.ns.number if s.ns else None, s.ew.number if s.ew else None, s.group)
           for s in back.seatings}
    assert same == got
    assert back.groups == m.groups and back.contestants == m.contestants


def test_asc_numbers_mitchell_pairs_ns_first() -> None:
    numbers = asc_numbers(mitchell(5, 2, half_table=True))
    assert numbers[Pair(5, NS)] == 5 and numbers[Pair(1, EW)] == 6 and numbers[Pair(4, EW)] == 9
    assert to_asc(mitchell(26, 1)).splitlines()[2].split()[:2] == ["1-27", "A"]
    assert to_asc(mitchell(27, 1)).splitlines()[2].split()[:2] == ["1-28", "1"]  # over 26 groups: numbers
