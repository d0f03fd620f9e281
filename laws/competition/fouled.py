"""A board a table called fouled in an event: held out of every comparison until the director decides.

A table calls a board fouled when a card is played by a seat its record does not give it to
(``docs/mqtt.md``, the board body's ``foul``): the cards it played are not the record's. A pairs session
scores such a board in fouled-board groups (``DB-87``); an event cannot: the two rooms of a teams match,
a Swiss pairs round's Butler datum, an individual's or a section's matchpoints compare too few results
for groups, and comparing the fouled result with the others would score different deals as one (2017
laws 86-87: the director decides, usually with artificial adjusted scores). So the event keeps the
result as taken (journaled, nothing lost) but scores none of the board's results in the comparison the
fouled one enters until the director's correction of that result (an assigned score, each side's
award, or the result kept as played) decides it:

* **teams** — the board of that match (both rooms); an award given at either room's table decides it,
  as it is the board's result for both teams;
* **Swiss pairs, individual** — the board at every table of the round (its Butler datum, its
  matchpoints);
* **sections** — the board at every table of the section, or of every section when scored across the
  field (its matchpoints).

A round with a board held is not complete (it waits like a missing result): its next round is not drawn,
its matches are not in the standings, and the files leave it out, until the director decides.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from laws.cards import Card
from laws.competition.event_spec import EventKind, EventSpec
from laws.errors import as_typed

SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True)
class FoulCall:
    """A table's fouled-board call (``docs/mqtt.md``, ``foul``): the first card played against the record,
    the seat that played it, the seat the record gives it to, its trick (1-13), and the seats whose hands
    differ from the record."""

    card: str
    played_by: str
    record_seat: str
    trick: int
    seats: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "played_by": self.played_by, "record_seat": self.record_seat,
                "trick": self.trick, "seats": list(self.seats)}

    @classmethod
    def from_dict(cls, data: Any) -> FoulCall:
        """A call from its JSON form; ``ValueError`` names what is wrong (a journal written by hand)."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a fouled-board call is an object, got {as_typed(data, 40)}")
        card, trick, seats = data.get("card"), data.get("trick"), data.get("seats")
        try:
            Card.parse(card)  # type: ignore[arg-type]
        except ValueError:
            raise ValueError(f"a fouled-board call's card is a card such as '7H', got {as_typed(card)}") from None
        for name in ("played_by", "record_seat"):
            if data.get(name) not in SEAT_WORDS:
                raise ValueError(f"a fouled-board call's {name} is N, E, S or W, got {as_typed(data.get(name))}")
        if isinstance(trick, bool) or not isinstance(trick, int) or not 1 <= trick <= 13:
            raise ValueError(f"a fouled-board call's trick is a whole number 1 to 13, got {as_typed(trick)}")
        if not isinstance(seats, list) or not 1 <= len(seats) <= 4 or any(s not in SEAT_WORDS for s in seats):
            raise ValueError(f"a fouled-board call's seats are 1 to 4 of N, E, S, W, got {as_typed(seats, 40)}")
        return cls(str(card).upper(), str(data["played_by"]), str(data["record_seat"]), trick, tuple(seats))

    def words(self) -> str:
        """The call as a person reads it: ``first card against the record: ♥7 by East, trick 3``."""
        rank, suit = self.card[0], self.card[1]
        return (f"first card against the record: {SUIT_SIGNS[suit]}{'10' if rank == 'T' else rank} by "
                f"{SEAT_WORDS[self.played_by]}, trick {self.trick}")


@dataclass(frozen=True)
class Held:
    """A board held for the director: the fouled result's round, event table and board, and the call."""

    round: int
    table: int
    board: int
    call: FoulCall


def held_text(held: Held, club_table: str) -> str:
    """One line the director reads: ``board 5, table t-b, round 2: fouled at the table (first card
    against the record: ♥7 by East, trick 3); the director decides: a correction of the board``."""
    return (f"board {held.board}, table {club_table}, round {held.round}: fouled at the table "
            f"({held.call.words()}); the director decides: a correction of the board")


Key = tuple[int, int, int]      # (round, event table, board)


def held_calls(spec: EventSpec, results: Mapping[Key, Any], fouls: Mapping[Key, FoulCall],
               corrected: Mapping[Key, Any]) -> tuple[Held, ...]:
    """The fouled results the director has still to decide, in (round, table, board) order: a table's
    call stands until the director corrects that result; in a teams match an award at either room
    decides the board (it is the board's result for both teams)."""
    out = []
    for key, call in sorted(fouls.items()):
        if key in corrected or key not in results:
            continue
        r, t, b = key
        if spec.kind.teams:
            other = results.get((r, t + 1 if t % 2 else t - 1, b))
            if results[key].adjusted or (other is not None and other.adjusted):
                continue
        out.append(Held(r, t, b, call))
    return tuple(out)


def held_keys(spec: EventSpec, results: Mapping[Key, Any], held: tuple[Held, ...]) -> frozenset[Key]:
    """Every (round, table, board) whose result is not scored while a board is held: the board's results
    in each comparison a held result enters (see the module's docstring)."""
    out: set[Key] = set()
    for h in held:
        if spec.kind.teams:
            first = h.table if h.table % 2 else h.table - 1
            out |= {(h.round, first, h.board), (h.round, first + 1, h.board)}
        elif spec.kind is EventKind.SECTIONS:
            mine = _section_tables(spec, h.table)
            out |= {k for k in results if k[2] == h.board and (spec.across or k[1] in mine)}
        else:
            out |= {k for k in results if k[0] == h.round and k[2] == h.board}
    return frozenset(out)


def _section_tables(spec: EventSpec, table: int) -> range:
    """The event tables of ``table``'s section (section A's tables first)."""
    first = 0
    for sec in spec.sections:
        if table <= first + sec.tables:
            return range(first + 1, first + sec.tables + 1)
        first += sec.tables
    return range(table, table + 1)
