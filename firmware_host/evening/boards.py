"""The boards in the room of a simulated evening: their records, their copies, and the copies misboarded.

Each board is its record (the session's hand records) and, in play, its copies. A Mitchell's or a Howell's
board is one copy that travels from table to table; in a barometer every table has its own copy, dealt by
the table's shoe from the record. What the players at a table pick up is the copy as it is when they play
it: :meth:`BoardRoom.held`.

:meth:`BoardRoom.misboard` puts a copy wrong from a round on, the two ways a club's boards go wrong:

* ``moved``: one card in another pocket, and one of that pocket's cards in its place, so every hand still
  holds thirteen and only the play shows it (a physical board, put back wrong after an earlier round);
* ``swapped``: two hands in each other's pockets (two players picked up each other's cards: the only
  misboarding a board the shoe deals can have).

Nothing here tells a table: the players bid and play the cards they hold, and the table's engine finds
the first card played against the record (``DB-87``). The world chooses misboardings the play will show:
a fouled copy that the players would pass out (no hand with an opening's points) is never chosen, since
nobody would play a card of it.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass

from firmware_host.players import OPEN_AT, hcp
from laws.cards import SEATS, Card, Seat, full_pack
from laws.duplicate.deal import SEAT_NAMES, Board, Deal, card_index
from laws.duplicate.movement import Movement

KINDS = ("moved", "swapped")


@dataclass(frozen=True)
class Misboarding:
    """A copy of ``board`` misboarded before round ``from_round``: ``table`` 0 is the one copy that
    travels, otherwise that table's own. ``kind`` ``moved``: ``cards`` are the card moved and the one put
    back, each in the other's pocket; ``swapped``: ``seats`` are the two hands swapped."""

    board: int
    from_round: int
    table: int
    kind: str
    cards: tuple[Card, ...] = ()
    seats: tuple[Seat, ...] = ()

    def words(self) -> str:
        """"board 7, the travelling copy from round 3: the KS and 2D in each other's pockets"."""
        where = f"table {self.table}'s copy" if self.table else "the travelling copy"
        if self.kind == "moved":
            what = f"the {self.cards[0].code} and {self.cards[1].code} in each other's pockets"
        else:
            what = f"{SEAT_NAMES[self.seats[0]]}'s and {SEAT_NAMES[self.seats[1]]}'s hands swapped"
        return f"board {self.board}, {where} from round {self.from_round}: {what}"


def moved(deal: Deal, a: Card, b: Card) -> Deal:
    """The deal with cards ``a`` and ``b`` in each other's pockets."""
    seats = list(deal.assignment())
    ia, ib = card_index(a), card_index(b)
    seats[ia], seats[ib] = seats[ib], seats[ia]
    return Deal(tuple(seats))


def swapped(deal: Deal, a: Seat, b: Seat) -> Deal:
    """The deal with the hands of ``a`` and ``b`` in each other's pockets."""
    return Deal(tuple(b if s is a else a if s is b else s for s in deal.assignment()))


def played_out(deal: Deal) -> bool:
    """The simulated players open this deal (some hand has ``OPEN_AT`` points), so its cards are played."""
    return any(hcp(deal.hand(s)) >= OPEN_AT for s in SEATS)


class BoardRoom:
    """The boards the tables play from.

    Args:
        records: the session's boards, by number.
        per_table: every table has its own copy (a barometer), rather than one copy that travels.
    """

    def __init__(self, records: Mapping[int, Board], per_table: bool = False) -> None:
        self.records = dict(records)
        self.per_table = per_table
        self.misboardings: list[Misboarding] = []
        self._fouled: dict[tuple[int, int], tuple[int, Deal]] = {}
        self._lock = threading.Lock()

    def misboard(self, board: int, from_round: int, table: int, kind: str, rng: random.Random) -> Misboarding:
        """Misboard the copy of ``board`` that ``table`` plays in ``from_round`` (and, travelling, every
        table after it); ``kind`` one of ``KINDS``.

        Raises:
            ValueError: an unknown kind or board, or no misboarding of that kind the play would show.
        """
        record = self.records[board].deal
        options: list[tuple[Deal, tuple[Card, ...], tuple[Seat, ...]]] = []
        if kind == "moved":
            for a in full_pack():
                for b in full_pack():
                    if record.holder(a) is not record.holder(b) and card_index(a) < card_index(b):
                        options.append((moved(record, a, b), (a, b), ()))
        elif kind == "swapped":
            for i, one in enumerate(SEATS):
                for other in SEATS[i + 1:]:
                    options.append((swapped(record, one, other), (), (one, other)))
        else:
            raise ValueError(f"a misboarding is one of {', '.join(KINDS)}, not {kind!r}")
        shown = [o for o in options if played_out(o[0])]
        if not shown:
            raise ValueError(f"board {board}: no {kind} copy of it would be played")
        deal, cards, seats = rng.choice(shown)
        m = Misboarding(board, from_round, table if self.per_table else 0, kind, cards, seats)
        with self._lock:
            self._fouled[(board, m.table)] = (from_round, deal)
            self.misboardings.append(m)
        return m

    def held(self, board: int, table: int, rnd: int) -> Deal:
        """The cards in the copy of ``board`` that ``table`` plays in round ``rnd``."""
        with self._lock:
            fouled = self._fouled.get((board, table if self.per_table else 0))
        if fouled is not None and rnd >= fouled[0]:
            return fouled[1]
        return self.records[board].deal


def choose_misboardings(room: BoardRoom, movement: Movement, count: int, rng: random.Random,
                        kinds: tuple[str, ...] = KINDS) -> list[Misboarding]:
    """Misboard ``count`` boards of ``movement``, each from one of its plays on: a travelling copy from a
    round after its first (so the tables of that round play it right; tables sharing a round's boards all
    play the copy of that round), a table's own copy from its round.
    A board the record itself would see passed out is not chosen (nobody plays its cards); a board that
    travels from round to round is chosen before one played in a single round (a small Howell's, shared
    by the tables of that round: all of them get the misboarded copy).

    Raises:
        ValueError: fewer boards whose play would show it than ``count``.
    """
    plays_of = {b: sorted((s.round, s.table) for s in movement.seatings
                          if s.played and b in movement.boards_of(s.group)) for b in movement.boards()}
    boards = [b for b in movement.boards() if played_out(room.records[b].deal)]
    if count > len(boards):
        raise ValueError(f"--foul {count}: only {len(boards)} of the session's boards would be played (on the others "
                         "nobody holds an opening), so only they can be misboarded")
    # Boards that travel to a later round first: there the tables before the misboarding play it right.
    travel = [b for b in boards if room.per_table or len({r for r, _t in plays_of[b]}) > 1]
    chosen = rng.sample(travel, min(count, len(travel)))
    chosen += rng.sample([b for b in boards if b not in chosen], count - len(chosen))
    out = []
    for board in chosen:
        plays = plays_of[board]
        later = [p for p in plays if p[0] > plays[0][0]]       # a round after the board's first
        rnd, table = rng.choice(plays if room.per_table else later or plays)
        out.append(room.misboard(board, rnd, table, rng.choice(kinds), rng))
    return out
