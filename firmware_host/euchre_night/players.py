"""Simulated euchre players for ``cardtable euchre demo``: one hand's events as a real table receives them
(the shuffle, cut and deal as the shoe and buttons report them, the trump made, every card played as the
camera sees it), with the usual irregularities made on purpose.

* **A renege** (``renege`` of the hands): a player who can follow suit plays another suit; the table's
  engine finds it from the cards (``EU-64``, then ``EU-63`` at the end of play).
* **A misdeal** (:func:`misdeal`): four cards to one player in a round of the deal (law 42); the deal
  passes, and the next hand sent carries the ruling.
* **A wrong count** (``wrong_count``): after the trump is made a player is found with four cards (law 90).
* **A lone hand** (``alone``, when the maker holds four trumps, or three with a bower): the maker plays
  alone; his partner's cards are not played.

Everyone follows suit when he can (but for a renege made on purpose); the leader leads his strongest
card half the time (a lone maker always); a follower plays the lowest card that wins the trick unless his partner is winning
it, else his lowest.

The tricks are never typed: the table counts them from the cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from laws.cards import Card, Seat, clockwise_from
from laws.games.euchre_hands import effective_suit, power

PACK = [Card.parse(r + s) for s in "SHDC" for r in "AKQJT987"]


@dataclass
class Plan:
    """What a hand will be: its events in order, and the irregularities made."""

    events: list[dict[str, Any]]
    made: list[str] = field(default_factory=list)


def _follow(legal: list[Card], trick: list[tuple[Seat, Card]], trump: str, led: str, seat: Seat) -> Card:
    """The usual play: when the partner is not winning, the lowest card that wins, if any; else the
    lowest card."""
    best = max(trick, key=lambda p: power(p[1], trump, led))
    low = min(legal, key=lambda c: power(c, trump, led))
    if best[0] == seat.partner:
        return low
    winners = [c for c in legal if power(c, trump, led) > power(best[1], trump, led)]
    return min(winners, key=lambda c: power(c, trump, led)) if winners else low


def misdeal(dealer: Seat, rng: random.Random, pack: str = "red") -> Plan:
    """A deal that goes wrong: the dealer gives his left-hand opponent four cards in the first round
    (law 42: a round of the deal is all twos or all threes); the table rules a misdeal and the deal
    passes."""
    cards = list(PACK)
    rng.shuffle(cards)
    ev = _prelude(dealer, pack)
    ev += [{"type": "card_dealt", "seat": dealer.left.value, "card": c.code} for c in cards[:4]]
    return Plan(ev, [f"misdeal {dealer.value}"])


def _prelude(dealer: Seat, pack: str) -> list[dict[str, Any]]:
    return [{"type": "shuffle", "seat": dealer.partner.value}, {"type": "shuffle", "seat": dealer.value},
            {"type": "cut", "seat": dealer.right.value, "top": 14, "bottom": 18},
            {"type": "deal_start", "dealer": dealer.value, "pack": pack}]


def deal_hand(dealer: Seat, rng: random.Random, *, renege: float = 0.0, wrong_count: float = 0.0,
              alone: float = 0.0, pack: str = "red") -> Plan:
    """One hand from the shuffle to the last card (see the module docstring)."""
    cards = list(PACK)
    rng.shuffle(cards)
    order = clockwise_from(dealer.left)
    hands: dict[Seat, list[Card]] = {s: [] for s in Seat}
    ev = _prelude(dealer, pack)
    it = iter(cards)
    for sizes in ((2, 2, 2, 2), (3, 3, 3, 3)):   # law 42: each round of the deal all twos or all threes
        for seat, n in zip(order, sizes):
            for _ in range(n):
                c = next(it)
                hands[seat].append(c)
                ev.append({"type": "card_dealt", "seat": seat.value, "card": c.code})
    turn = next(it)
    ev += [{"type": "deal_end"}, {"type": "trump_turned", "card": turn.code}]
    made: list[str] = []
    maker = dealer.left
    trump = turn.suit
    trumps = [c for c in hands[maker] if effective_suit(c, trump) == trump]
    strong = len(trumps) >= 4 or (len(trumps) >= 3 and any(c.rank == "J" for c in trumps))
    lone = strong and rng.random() < alone
    ev.append({"type": "trump_made", "seat": maker.value, "suit": trump, "alone": lone})
    if lone:
        made.append("alone")
    # the dealer takes up the turn-up and discards his lowest card that is not a trump
    hold = hands[dealer]
    hold.append(turn)
    plain = [c for c in hold if effective_suit(c, trump) != trump and c != turn] or [c for c in hold if c != turn]
    hold.remove(min(plain, key=lambda c: power(c, trump, c.suit)))
    if rng.random() < wrong_count:
        who = rng.choice([s for s in Seat if not (lone and s == maker.partner)])
        ev.append({"type": "hand_count", "seat": who.value, "count": 4})
        made.append(f"wrong_count {who.value}")
    active = [s for s in clockwise_from(dealer.left) if not (lone and s == maker.partner)]
    leader = active[0]
    renege_trick = rng.randint(1, 4) if rng.random() < renege else 0
    for n in range(1, 6):
        i = active.index(leader)
        trick: list[tuple[Seat, Card]] = []
        for seat in active[i:] + active[:i]:
            held = hands[seat]
            if not trick:
                # the lead: the strongest card half the time, else any
                card = max(held, key=lambda c: power(c, trump, effective_suit(c, trump))) \
                    if (lone and seat == maker) or rng.random() < 0.5 else rng.choice(held)
            else:
                led = effective_suit(trick[0][1], trump)
                follow = [c for c in held if effective_suit(c, trump) == led]
                other = [c for c in held if effective_suit(c, trump) != led]
                if n == renege_trick and follow and other and seat != dealer and "renege" not in " ".join(made):
                    card = rng.choice(other)
                    made.append(f"renege {seat.value} trick {n}")
                else:
                    card = _follow(follow or held, trick, trump, led, seat)
            held.remove(card)
            trick.append((seat, card))
            ev.append({"type": "card_played", "seat": seat.value, "card": card.code})
        led = effective_suit(trick[0][1], trump)
        leader = max(trick, key=lambda p: power(p[1], trump, led))[0]
    return Plan(ev, made)
