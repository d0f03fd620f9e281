"""Every card of a board against its hand record: a fouled board caught at its first wrong card, and the
board verified once all 52 cards have been seen where the record puts them.

A :class:`RecordCheck` follows one board at one table. :meth:`RecordCheck.see` takes each card as it is
seen (dealt into a pocket by the shoe, or played to a trick) with the seat it came from, compares it
with the record through :meth:`laws.duplicate.deal.Deal.holder` (the one place where a card meets a
record) and returns a :class:`Foul` for the first card the record gives to another seat; later
contradicting cards are counted, never ruled again. The work per card is constant: one look-up, one
count in a 4 x 4 table (who showed the card, who holds it by the record).

What the table of counts tells (``forms``), as soon as cards contradict the record:

* ``moved``: some cards are in the wrong hands (always possible while any card contradicts);
* ``swapped``: two seats hold each other's hands (every card of theirs seen so far is the other's, and
  nobody else's card is out of place);
* ``turned``: the board was turned round by one, two or three quarters (each seat's cards are the ones
  the record gives the seat that many places clockwise), e.g. North holds South's hand;

and, from outside the record, the director may find it is **another board** (a board played at the wrong
table or round, ``DB-15``): the check cannot tell that from one record, the session can.

When the board ends, :meth:`RecordCheck.verified` says whether all 52 cards were seen, each once and from
its record's seat; :meth:`RecordCheck.played_deal` gives the deal as it was actually held when every
card was seen (its fingerprint names the fouled board's form, ``DB-87``).

Pure like the rest of ``laws/``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from laws.cards import SEATS, Card, Seat
from laws.duplicate.deal import SEAT_NAMES, Board, Deal

DB15_LAW = "Duplicate Bridge, law 15"
DB87_LAW = "Duplicate Bridge, law 87"
FORMS = ("moved", "swapped", "turned")


def _index(seat: Seat) -> int:
    return SEATS.index(seat)


@dataclass(frozen=True)
class Foul:
    """The first card seen that the record gives to another seat.

    Attributes:
        board: the board's number.
        card: the card.
        seen_at: the seat that played (or was dealt) it.
        record_seat: the seat the record gives it to.
        index: the card's place among the cards seen at this table (1-52).
        trick: its trick (1-13), when cards were played in tricks (``(index - 1) // 4 + 1``).
        seats: the seats whose hands are seen to differ from the record (the two of this card).
    """

    board: int
    card: Card
    seen_at: Seat
    record_seat: Seat
    index: int
    trick: int
    seats: tuple[Seat, ...]

    @property
    def words(self) -> str:
        """"Board 7: East played the king of hearts, which the hand record gives to North"."""
        return (f"Board {self.board}: {SEAT_NAMES[self.seen_at]} played the {self.card.name}, which the hand "
                f"record gives to {SEAT_NAMES[self.record_seat]}")


@dataclass
class RecordCheck:
    """One board's cards at one table, checked against the board's record as they are seen.

    Args:
        board: the hand record (number, dealer, vulnerability, deal).

    Attributes:
        seen: each card seen, with the seat it came from, in the order seen.
        foul: the first contradicting card, once there is one.
        counts: ``counts[p][r]``: cards seen at seat ``p`` that the record gives seat ``r`` (``SEATS`` order).
        again: cards seen a second time (a card cannot be played twice: the second is not counted).
    """

    board: Board
    seen: dict[Card, Seat] = field(default_factory=dict)
    foul: Foul | None = None
    counts: list[list[int]] = field(default_factory=lambda: [[0] * 4 for _ in range(4)])
    again: int = 0

    @property
    def deal(self) -> Deal:
        return self.board.deal

    def see(self, seat: Seat, card: Card) -> Foul | None:
        """One card seen at ``seat``; the :class:`Foul` if it is the first the record gives to another
        seat, else None (a card that agrees, a later contradicting card, a card seen twice)."""
        if card in self.seen:
            self.again += 1
            return None
        holder = self.deal.holder(card)
        self.seen[card] = seat
        self.counts[_index(seat)][_index(holder)] += 1
        if holder is seat or self.foul is not None:
            return None
        n = len(self.seen)
        self.foul = Foul(self.board.number, card, seat, holder, n, (n - 1) // 4 + 1,
                         tuple(s for s in SEATS if s in (seat, holder)))
        return self.foul

    @property
    def wrong(self) -> int:
        """How many cards seen so far contradict the record."""
        return sum(self.counts[p][r] for p in range(4) for r in range(4) if p != r)

    def differing(self) -> tuple[Seat, ...]:
        """The seats seen to hold a card of another's, or to miss one of theirs, so far."""
        out = {SEATS[p] for p in range(4) for r in range(4) if p != r and self.counts[p][r]}
        out |= {SEATS[r] for p in range(4) for r in range(4) if p != r and self.counts[p][r]}
        return tuple(s for s in SEATS if s in out)

    def forms(self) -> tuple[str, ...]:
        """What the cards seen so far are consistent with (module docstring): () while none contradicts;
        else ``moved`` and, where they fit, ``swapped`` and ``turned``."""
        if not self.wrong:
            return ()
        out = ["moved"]
        if self.swapped_pair() is not None:
            out.append("swapped")
        if self.turn() is not None:
            out.append("turned")
        return tuple(out)

    def swapped_pair(self) -> tuple[Seat, Seat] | None:
        """The two seats whose hands are swapped, if the cards seen so far fit that (and nothing else is
        out of place)."""
        c = self.counts
        off = [(p, r) for p in range(4) for r in range(4) if p != r and c[p][r]]
        pair = {x for pr in off for x in pr}
        if len(pair) != 2 or any(set(pr) != pair for pr in off):
            return None
        a, b = sorted(pair)
        if c[a][a] or c[b][b]:
            return None
        return SEATS[a], SEATS[b]

    def turn(self) -> int | None:
        """Quarter turns clockwise (1-3) by which the board was turned round, if every card seen fits
        one (seat ``p`` holding the hand the record gives ``p`` that many places clockwise)."""
        c = self.counts
        for k in (2, 1, 3):
            if all(c[p][r] == 0 for p in range(4) for r in range(4) if r != (p + k) % 4):
                return k
        return None

    def verified(self) -> bool:
        """All 52 cards seen, each once, each from the seat the record gives it to."""
        return len(self.seen) == 52 and self.wrong == 0

    def hands_as_seen(self) -> dict[Seat, list[Card]]:
        """The cards seen at each seat, in the order seen."""
        out: dict[Seat, list[Card]] = {s: [] for s in SEATS}
        for card, seat in self.seen.items():
            out[seat].append(card)
        return out

    def played_deal(self) -> Deal | None:
        """The deal as it was held, once all 52 cards were seen 13 to a seat; None before (or when the
        counts are not 13 each: then the deal itself was short or long, ``DB-13``)."""
        hands = self.hands_as_seen()
        if len(self.seen) != 52 or any(len(h) != 13 for h in hands.values()):
            return None
        return Deal.from_hands(hands)

    def summary(self) -> str:
        """In words, for the director: "the cards agree with the record so far", "North and South hold
        each other's hands", "the board was turned round (North holds South's hand...)"."""
        if not self.wrong:
            return "the cards agree with the hand record" + ("" if len(self.seen) == 52 else " so far")
        pair = self.swapped_pair()
        if pair is not None:
            return f"{SEAT_NAMES[pair[0]]} and {SEAT_NAMES[pair[1]]} hold each other's hands"
        k = self.turn()
        if k is not None:
            who = ", ".join(f"{SEAT_NAMES[s]} holds {SEAT_NAMES[SEATS[(_index(s) + k) % 4]]}'s hand"
                            for s in SEATS)
            return f"the board was turned round ({who})"
        n = self.wrong
        return f"{n} card{'s' if n != 1 else ''} in other hands than the record's"


def first_foul(board: Board, cards: Iterable[tuple[Seat, Card]]) -> Foul | None:
    """The first card of ``cards`` (seat, card, in the order seen) that the record gives to another seat."""
    check = RecordCheck(board)
    for seat, card in cards:
        found = check.see(seat, card)
        if found is not None:
            return found
    return None
