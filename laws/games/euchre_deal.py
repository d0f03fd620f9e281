"""Euchre's deal pattern (Somerset laws 41-42), as a pure checker of the seats cards went to.

Our reading of the laws: the dealer gives each player, clockwise from his left, a packet of two or three
cards in a first round and the complement (three or two) in a second round, so each player receives five
cards as two-then-three or three-then-two. Packets need not be the same size for every player in a round.
"""

from __future__ import annotations

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


def pattern_fault(dealer: Seat, seats: list[Seat], complete: bool) -> str | None:
    """What is wrong with the packets dealt so far, or None if they can still be a correct deal.

    Args:
        dealer: who deals (cards start at his left).
        seats: the seat each card went to, in order.
        complete: True when the deal is over (every packet must then be finished and correct).
    """
    order = clockwise_from(dealer.left)
    packets = runs(seats)
    if len(packets) > 8:
        return f"{len(packets)} packets were dealt where eight make a deal"
    for i, (seat, n) in enumerate(packets):
        finished = complete or i < len(packets) - 1
        want = order[i % 4]
        if seat != want:
            return f"packet {i + 1} went to {seat.value} where {want.value} was next in rotation"
        limit = max(PACKETS) if i < 4 else HAND - packets[i - 4][1]
        if n > limit:
            return f"{seat.value} received {n} cards in one packet"
        if finished and n not in PACKETS:
            return f"{seat.value} received a packet of {n} card{'s' if n != 1 else ''}"
        if finished and i >= 4 and n + packets[i - 4][1] != HAND:
            return f"{seat.value} received {packets[i - 4][1]} then {n} cards"
    if complete and len(packets) != 8:
        return f"the deal stopped after {len(seats)} cards"
    return None
