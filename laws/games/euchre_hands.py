"""Euchre tricks as the engine works them out from the cards played and the hands dealt: who leads,
who plays next, what wins, what a player holds and may play (laws 46-61 and 89 judge with these).

Who should lead is derived: the eldest hand leads the first trick (the next player when the eldest sits
out for a lone hand), the winner of each trick the next. Cards are grouped into tricks by count (four, or
three in a lone hand), as the revoke laws group them.
"""

from __future__ import annotations

from dataclasses import dataclass

from laws.cards import Card, Seat, clockwise_from
from laws.state import DealState

_SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def effective_suit(card: Card, trump: str | None) -> str:
    """The suit a card belongs to in play: the left bower (knave of trump's colour) is a trump."""
    if trump is not None and card.rank == "J" and card.suit == _SAME_COLOUR[trump]:
        return trump
    return card.suit


Plays = list[tuple[Seat, Card]]


def tricks(d: DealState, plays: Plays) -> list[Plays]:
    """The plays grouped into tricks (three cards each when a lone hand's partner sits out)."""
    size = 3 if d.alone_seat is not None else 4
    return [plays[i:i + size] for i in range(0, len(plays), size)]


def power(card: Card, trump: str, led: str) -> int:
    """How strongly ``card`` stands in a trick led in ``led`` (0: it cannot win)."""
    if card.rank == "J" and card.suit == trump:
        return 100
    if card.rank == "J" and card.suit == _SAME_COLOUR[trump]:
        return 99
    order = "AKQJT987"
    if card.suit == trump:
        return 90 - order.index(card.rank)
    if effective_suit(card, trump) == led:
        return 50 - order.index(card.rank)
    return 0


def sits_out(d: DealState) -> Seat | None:
    """The lone player's partner, who has no part in the hand (None when no lone hand is played)."""
    return d.alone_seat.partner if d.alone_seat is not None else None


def active(d: DealState) -> list[Seat]:
    """The players who play to each trick, clockwise from the dealer's left."""
    off = sits_out(d)
    return [s for s in clockwise_from(d.dealer.left) if s != off]


def rotation(d: DealState, first: Seat) -> list[Seat]:
    """The players in the order they play to a trick led by ``first``."""
    seats = active(d)
    i = seats.index(first) if first in seats else 0
    return seats[i:] + seats[:i]


@dataclass(frozen=True)
class Trick:
    number: int               # from 1
    leader: Seat              # who should lead it
    cards: list[tuple[Seat, Card]]  # played to it so far (empty: not yet led)


def current(d: DealState) -> Trick:
    """The trick being played (the next one when the last is complete)."""
    size = len(active(d))
    leader = active(d)[0]
    groups = tricks(d, d.plays)
    trump = d.trump_suit or "S"
    done = [g for g in groups if len(g) == size]
    for g in done:
        led = effective_suit(g[0][1], trump)
        leader = max(g, key=lambda p: power(p[1], trump, led))[0]
    open_ = groups[-1] if groups and len(groups[-1]) < size else []
    return Trick(len(done) + 1, leader, list(open_))


def held(d: DealState, seat: Seat) -> tuple[list[Card], bool]:
    """The cards ``seat`` holds now, and whether that is certain (the dealer who took up the trump card
    discarded one card we did not see)."""
    played = [c for s, c in d.plays if s == seat]
    cards = [c for c in d.hands[seat] if c not in played]
    took_up = seat == d.dealer and d.taken_up
    if took_up and d.trump_card is not None and d.trump_card not in played:
        cards.append(d.trump_card)
    if took_up and d.discarded is not None:  # the discard was seen (law 86)
        return [c for c in cards if c != d.discarded], True
    return cards, not took_up


def could(d: DealState, seat: Seat, ok: list[Card]) -> bool:
    """Certainly held at least one of ``ok`` (one more when an unseen discard may have taken one)."""
    cards, certain = held(d, seat)
    n = sum(1 for c in cards if c in ok)
    return n >= (1 if certain else 2)


def lawful(d: DealState, seat: Seat, trick: Trick) -> list[Card]:
    """The cards ``seat`` may play now: any when leading, else the suit led when he holds it."""
    cards, _ = held(d, seat)
    if not trick.cards:
        return cards
    trump = d.trump_suit or "S"
    led = effective_suit(trick.cards[0][1], trump)
    follow = [c for c in cards if effective_suit(c, trump) == led]
    return follow or cards


def beats(d: DealState, trick: Trick, card: Card) -> bool:
    """Would ``card`` win the trick over every card played to it so far."""
    if not trick.cards:
        return True
    trump = d.trump_suit or "S"
    led = effective_suit(trick.cards[0][1], trump)
    return power(card, trump, led) > max(power(c, trump, led) for _, c in trick.cards)


def sure_winner(d: DealState, seat: Seat, card: Card) -> bool:
    """Would ``card``, led by ``seat``, win whatever the adversaries play (their hands are known)?"""
    trump = d.trump_suit or "S"
    led = effective_suit(card, trump)
    mine = power(card, trump, led)
    for other in active(d):
        if other.side is seat.side:
            continue
        cards, _ = held(d, other)
        follow = [x for x in cards if effective_suit(x, trump) == led]
        if any(power(x, trump, led) > mine for x in follow or cards):
            return False
    return True
