"""Where the tables' engines found the evening's misboarded boards, read from their journals, and the check
that they found every one and nothing else.

A table's engine rules the first card played against a board's record with an ``attention`` ruling
``DB-87`` (``docs/events.md``), naming the board, table, round, the card and who played it. Checked here
from what the people played, never from the table: every board played with a card against its record is
ruled at that table and round, at the first such card (``first_wrong``, through ``Deal.holder``), and no
other board anywhere is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from laws.cards import Card, Seat
from laws.duplicate.deal import Deal


@dataclass(frozen=True)
class FoulFound:
    """A table's ``DB-87`` ruling at the first card against the record."""

    board: int
    table: int
    round: int
    card: str
    played_by: str
    record_seat: str
    trick: int

    def words(self) -> str:
        return (f"board {self.board}: found at table {self.table}, round {self.round}, trick {self.trick}: the "
                f"{self.card} played by {self.played_by}, the record's {self.record_seat}")


def fouls_in(rulings: Iterable[Mapping[str, Any]]) -> list[FoulFound]:
    """The first-card ``DB-87`` rulings among a journal's ruling bodies (not the director's decision)."""
    out = []
    for r in rulings:
        if r.get("clause") == "DB-87" and r.get("remedy") == "attention":
            out.append(FoulFound(int(r["board"]), int(r.get("table") or 0), int(r.get("round") or 0),
                                 str(r["card"]), str(r["played_by"]), str(r["record_seat"]), int(r.get("trick") or 0)))
    return out


def first_wrong(record: Deal, plays: Sequence[tuple[Seat, Card]]) -> tuple[int, Seat, Card] | None:
    """The first card played by a seat the record does not give it to: (its index, seat, card), or None."""
    for i, (seat, card) in enumerate(plays):
        if record.holder(card) is not seat:
            return i, seat, card
    return None


def check_fouls(records: Mapping[int, Deal], plays: Mapping[tuple[int, int, int], Sequence[tuple[Seat, Card]]],
                found: Iterable[FoulFound]) -> list[str]:
    """What is wrong with the fouls the tables found ([] when nothing is): each board played with a card
    against its record must be ruled at that table and round, at the first such card and its trick; no
    other may be.

    Args:
        records: each board's record.
        plays: (board, table, round) -> the cards played there, in order, with who played them (every
            board the people played at a table).
        found: every table's first-card rulings.
    """
    problems: list[str] = []
    ruled: dict[tuple[int, int, int], FoulFound] = {}
    for one in found:
        key = (one.board, one.table, one.round)
        if key in ruled:
            problems.append(f"{one.words()}: ruled twice there")
        ruled[key] = one
    for key, cards in sorted(plays.items()):
        board, table, rnd = key
        wrong = first_wrong(records[board], cards)
        f = ruled.pop(key, None)
        if wrong is not None and f is None:
            problems.append(f"board {board} was played at table {table} in round {rnd} with the {wrong[2].code} "
                            f"from {wrong[1].value} against its record, and no foul was ruled")
        elif wrong is None and f is not None:
            problems.append(f"a false alarm: {f.words()}, but every card played there was the record's")
        elif wrong is not None and f is not None:
            i, seat, card = wrong
            if (f.card, f.played_by, f.trick) != (card.code, seat.value, i // 4 + 1):
                problems.append(f"{f.words()}, but the first card against the record there was the {card.code} "
                                f"by {seat.value} in trick {i // 4 + 1}")
    for left in ruled.values():
        problems.append(f"{left.words()}, but no board was played there")
    return problems
