"""Deals and plays for the bridge-model tests: PBN deal strings, the PBN 2.1 example game, random legal
play, and naive recomputations the model is checked against."""

from __future__ import annotations

import random

from laws.bridge.pbn import parse_pbn_card
from laws.bridge.play import Play
from laws.cards import RANKS, Card, Seat, clockwise_from

# The example game of the PBN 2.1 standard (section 1.2, "Example game": board 1 of an Amsterdam
# tournament, 1995; dealer North, declarer South in five hearts doubled, nine tricks, play given for
# seven tricks and then a claim). Its deal, auction and play sections are our golden values.
SCHIPHOL_DEAL = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
SCHIPHOL_AUCTION = ["1D 1S 3H 4S", "4NT X Pass Pass", "5C X 5H X", "Pass Pass Pass"]
SCHIPHOL_PLAY = ["SK H3 S4 S3", "C5 C2 C6 CK", "S2 H6 S5 S7", "C8 CA CT C4", "D2 DA DT D3",
                 "D4 DK H5 H7", "- - - H2", "*"]


def deal(text: str) -> dict[Seat, list[Card]]:
    """A PBN ``[Deal]`` value (first seat, then four hands clockwise, suits S.H.D.C) as hands."""
    first, _, rest = text.partition(":")
    out: dict[Seat, list[Card]] = {}
    for seat, hand in zip(clockwise_from(Seat(first)), rest.split(), strict=True):
        out[seat] = [Card(r, suit) for suit, ranks in zip("SHDC", hand.split("."), strict=True)
                     for r in ranks]
    return out


def play_pbn_line(p: Play, line: str) -> None:
    """Play one PBN play line (seat columns from the opening leader), each card in rotation."""
    cards = {s: t for s, t in zip(clockwise_from(p.opening_leader), line.split(), strict=True) if t != "-"}
    for s in clockwise_from(p.to_play):
        if s in cards:
            p.play(s, parse_pbn_card(cards[s]))


def random_hands(rnd: random.Random) -> dict[Seat, list[Card]]:
    cards = [Card(r, s) for s in "SHDC" for r in RANKS]
    rnd.shuffle(cards)
    return {s: cards[13 * i:13 * (i + 1)] for i, s in enumerate(clockwise_from(Seat.N))}


def random_card(p: Play, rnd: random.Random) -> tuple[Seat, Card]:
    """A random card the player in turn may play without revoking."""
    seat = p.to_play
    legal = p.legal_cards(seat)
    assert legal, f"{seat} has nothing to play"
    return seat, rnd.choice(sorted(legal))


def naive_winner(cards: list[tuple[Seat, Card]], trump: str | None) -> Seat:
    """The trick winner recomputed from scratch, card by card in the order played: a card takes the lead
    when it is a higher card of the leading card's suit, or the first trump over a non-trump."""
    led = cards[0][1].suit
    best_seat, best = cards[0]
    for seat, c in cards[1:]:
        if (c.suit == best.suit and RANKS.index(c.rank) < RANKS.index(best.rank)) or (
                c.suit == trump and best.suit != trump):
            best_seat, best = seat, c
    assert best.suit in (led, trump)
    return best_seat
