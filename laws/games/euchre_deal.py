"""Euchre's deal pattern (Somerset laws 41-42), as a pure checker of the seats cards went to.

Law 42: the dealer gives each player, clockwise from his left, a packet of two cards in a first round and
three in a second, or three then two. A round is all twos or all threes: a round of mixed packets is a
misdeal, and so is a player who does not receive five cards.
"""

from __future__ import annotations

from collections.abc import Callable

from laws.cards import Seat, clockwise_from

PACKETS = (2, 3)
HAND = 5


def runs(seats: list[Seat]) -> list[tuple[Seat, int]]:
    """Consecutive cards to one seat, as (seat, length) packets."""
    out: list[tuple[Seat, int]] = []
    for seat in seats:
        if out and out[-1][0] == seat:
            out[-1] = (seat, out[-1][1] + 1)
        else:
            out.append((seat, 1))
    return out


def pattern_fault(dealer: Seat, seats: list[Seat], complete: bool,
                  named: Callable[[Seat], str] = lambda seat: seat.value) -> str | None:
    """What is wrong with the packets dealt so far, or None if they can still be a correct deal.

    Args:
        dealer: who deals (cards start at his left).
        seats: the seat each card went to, in order.
        complete: True when the deal is over (every packet must then be finished and correct).
        named: a seat as the text names it (the table's rulings: "West (Di)").
    """
    order = clockwise_from(dealer.left)
    packets = runs(seats)
    if len(packets) > 8:
        return f"{len(packets)} packets were dealt where eight make a deal"
    for i, (seat, n) in enumerate(packets):
        finished = complete or i < len(packets) - 1
        want = order[i % 4]
        if seat != want:
            return f"packet {i + 1} went to {named(seat)} where {named(want)} was next in rotation"
        size = None if i == 0 else packets[0][1] if i < 4 else HAND - packets[0][1]
        if size is None:
            if n > max(PACKETS):
                return f"{named(seat)} received {n} cards in one packet"
            if finished and n not in PACKETS:
                return f"{named(seat)} received a packet of {n} card{'s' if n != 1 else ''}"
            continue
        rnd = "first" if i < 4 else "second"
        if n > size or finished and n != size:
            return (f"{named(seat)} received {n} card{'s' if n != 1 else ''} in the {rnd} round, which is a "
                    f"round of {size}s")
    if complete and len(packets) != 8:
        return f"the deal stopped after {len(seats)} cards"
    return None
