"""A bridge table for the engine tests of the auction and the play: a formed table, a deal the shoe reads
whole, calls and cards as events, and a random legal card from the hands as dealt (worked out here from the
deal and the cards played, not from the engine)."""

from __future__ import annotations

import random
from typing import Any

from laws.cards import Card, Seat, clockwise_from
from laws.engine import LawEngine
from laws.events import (
    CallMade,
    CardDealt,
    CardPlayed,
    CardsDrawn,
    DealEnded,
    DealStarted,
    Event,
    PackCut,
    PackShuffled,
)
from laws.rulings import Ruling
from tests.laws.bridge_deals import deal

# North deals: Ann draws the ace of spades (North), Bob the king of hearts (South).
DRAW = CardsDrawn((("Ann", Card.parse("AS")), ("Bob", Card.parse("KH")), ("Cy", Card.parse("7D")),
                   ("Di", Card.parse("2C"))), seats={"Ann": Seat.N, "Bob": Seat.S, "Cy": Seat.E, "Di": Seat.W})

# A fixed deal (PBN [Deal] notation, North first): North holds the spades, East the hearts, South the
# diamonds, West the clubs: every revoke and every trick winner is easy to see by eye.
SUITED = deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
# The PBN 2.1 standard's example game deal (tests/laws/bridge_deals.py).
MIXED = deal("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85")


def dealt(hands: dict[Seat, list[Card]], dealer: Seat = Seat.N) -> list[Event]:
    """Shuffle, cut and a deal by ``dealer`` of ``hands``, one card at a time clockwise from his left."""
    order = clockwise_from(dealer.left)
    cards = [CardDealt(order[i % 4], hands[order[i % 4]][i // 4]) for i in range(52)]
    return [PackShuffled(dealer.partner), PackShuffled(dealer), PackCut(dealer.right, top=26, bottom=26),
            DealStarted(dealer, "red"), *cards, DealEnded()]


def table(hands: dict[Seat, list[Card]] = SUITED, dealer: Seat = Seat.N) -> LawEngine:
    """An engine after the draw and a whole deal of ``hands``: the auction is about to begin."""
    eng = LawEngine("contract-bridge")
    eng.feed(DRAW)
    if dealer is not Seat.N:
        eng.state.next_dealer = dealer
    for e in dealt(hands, dealer):
        assert not [r for r in eng.feed(e) if r.is_irregularity], e
    return eng


def calls(dealer: Seat, text: str) -> list[CallMade]:
    """Calls in rotation from ``dealer``: ``"1S pass 4S pass pass pass"``."""
    seats = clockwise_from(dealer)
    return [CallMade(seats[i % 4], c) for i, c in enumerate(text.split())]


def feed(eng: LawEngine, *events: Event) -> list[Ruling]:
    out: list[Ruling] = []
    for e in events:
        out += eng.feed(e)
    return out


def said(rulings: list[Ruling]) -> list[tuple[str, str]]:
    return [(r.remedy.value, r.clause) for r in rulings]


class Cards:
    """The cards each seat still holds, worked out here from the deal and the cards played (independent
    of the engine's play model)."""

    def __init__(self, hands: dict[Seat, list[Card]]) -> None:
        self.left = {s: list(c) for s, c in hands.items()}

    def take(self, seat: Seat, card: Card) -> CardPlayed:
        self.left[seat].remove(card)
        return CardPlayed(seat, card)

    def legal(self, seat: Seat, led: str | None) -> list[Card]:
        mine = self.left[seat]
        follow = [c for c in mine if c.suit == led]
        return follow or list(mine)


def play_out(eng: LawEngine, hands: dict[Seat, list[Card]], rnd: random.Random,
             tricks: int = 13) -> list[Ruling]:
    """Play ``tricks`` tricks of legal cards, each trick from the player the engine names to lead; each
    trick's winner is worked out here (``naive``)."""
    from tests.laws.bridge_deals import naive_winner

    h: Any = eng.state.deal.bridge  # type: ignore[union-attr]
    play = h.play
    cards = Cards(hands)
    for card_out, seat_out in play.played_by.items():
        cards.left[seat_out].remove(card_out)
    out: list[Ruling] = []
    trump = None if play.contract.strain == "NT" else play.contract.strain
    leader = play.to_play
    for _ in range(tricks):
        trick: list[tuple[Seat, Card]] = []
        for seat in clockwise_from(leader):
            led = trick[0][1].suit if trick else None
            card = rnd.choice(sorted(cards.legal(seat, led)))
            out += eng.feed(cards.take(seat, card))
            trick.append((seat, card))
        leader = naive_winner(trick, trump)
    return out
