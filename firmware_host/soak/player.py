"""Legal random play of one euchre hand, as the law events a director would enter (``docs/events.md``);
a bridge hand's auction and play are ``soak.bridge``'s.

Euchre: the eldest hand orders up the turn-up, the dealer takes it up and discards, the eldest leads,
everyone follows the suit led (the left bower counts as a trump); the result is the makers' tricks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from laws.cards import RANKS, Card, Seat

_EUCHRE_RANKS = "AKQJT987"
_SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def _suit(card: Card, trump: str | None, euchre: bool) -> str:
    if euchre and trump is not None and card.rank == "J" and card.suit == _SAME_COLOUR[trump]:
        return trump
    return card.suit


def _power(card: Card, led: str, trump: str | None, euchre: bool) -> int:
    """Higher wins the trick."""
    suit = _suit(card, trump, euchre)
    if euchre and trump is not None and card.rank == "J" and suit == trump:
        return 300 if card.suit == trump else 299  # right bower, left bower
    ranks = _EUCHRE_RANKS if euchre else RANKS
    base = len(ranks) - ranks.index(card.rank)
    if suit == trump:
        return 200 + base
    return 100 + base if suit == led else base


def play_tricks(hands: dict[Seat, list[Card]], leader: Seat, trump: str | None, rng: random.Random, *,
                euchre: bool = False) -> tuple[list[tuple[Seat, Card]], dict[Seat, int]]:
    """Play every card legally; returns the plays in order and the tricks each seat won."""
    hands = {s: list(cs) for s, cs in hands.items()}
    plays: list[tuple[Seat, Card]] = []
    won = dict.fromkeys(Seat, 0)
    while any(hands.values()):
        seat, trick = leader, list[tuple[Seat, Card]]()
        for _ in range(4):
            hand = hands[seat]
            if trick:
                led = _suit(trick[0][1], trump, euchre)
                follow = [c for c in hand if _suit(c, trump, euchre) == led]
                card = rng.choice(follow or hand)
            else:
                card = rng.choice(hand)
            hand.remove(card)
            trick.append((seat, card))
            seat = seat.left
        led = _suit(trick[0][1], trump, euchre)
        leader = max(trick, key=lambda sc: _power(sc[1], led, trump, euchre))[0]
        won[leader] += 1
        plays += trick
    return plays, won


def euchre_hand(hands: dict[Seat, list[Card]], dealer: Seat, turn_up: Card, rng: random.Random,
                extra: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """The events of one euchre hand after the turn-up: trump made, ``extra`` (a mistake reported after
    the turn), the play, its end and the result."""
    maker = dealer.left
    trump = turn_up.suit
    hands = {s: list(cs) for s, cs in hands.items()}
    hands[dealer].remove(rng.choice(hands[dealer]))  # the dealer discards one of his own (never the
    hands[dealer].append(turn_up)                     # trump card he takes up: law 88)
    out: list[dict[str, Any]] = [{"type": "trump_made", "seat": maker.value, "suit": trump}, *extra]
    plays, won = play_tricks(hands, dealer.left, trump, rng, euchre=True)
    out += [{"type": "card_played", "seat": s.value, "card": c.code} for s, c in plays]
    makers = maker.side
    out += [{"type": "play_end"},
            {"type": "result", "makers": makers.value, "alone": False,
             "tricks": sum(n for s, n in won.items() if s.side is makers)}]
    return out
