"""Simulated bridge players (the demo's, and the soak's once it plays bridge): a simple bidding policy and a
card-play policy, so that a simulated hand has a real auction and legal play and its result is possible
given the cards. Pure and deterministic: the same deal always gives the same hand. The auction and the
play go through the models of ``laws.bridge``, so every call is legal and every card follows suit.

The bidding policy (``choose_call``):

* **Opening.** The first player, in rotation from the dealer, who holds 12 or more high-card points (ace 4,
  king 3, queen 2, knave 1) opens: one notrump with 15 to 17 and a balanced hand (no singleton or void, at
  most one doubleton), otherwise one of his longest suit (the higher-ranking of two as long).
* **Placing the contract.** Opener's partner, at his first turn after the opening, looks at the side's two
  hands (these players see each other's cards: a demo, not a bidding system) and bids the contract they
  can make: the strain is the longest fit of eight or more cards, a major before a minor, else notrump; the
  level follows the side's points (see ``LEVELS``); a minor-suit game of 25 to 28 points is played in three
  notrump instead. When that bid is not higher than the opening, he passes.
* Everybody else passes: opener after his partner has placed the contract, and the other side throughout.
  Four passes from the start pass the deal out.

The declarer is then whoever of the side first named the final strain (``BP-22``): opener when his partner
raised his suit, partner when he chose another strain.

The card-play policy (``choose_card``): lead the highest card of the longest suit; follow suit with the
lowest card that beats the trick when partner is not winning it, else the lowest; unable to follow, ruff
with the lowest trump that wins when partner is not winning, else throw the lowest card of the longest
side suit. Declarer plays dummy's cards, which are played (and journaled) with dummy's seat.

``plan_hand(dealer, hands)`` gives the whole hand as data. The PBN's auction and play sections are the
records' own: ``firmware_host.records.pbn`` rebuilds them from the journal.

Players who stray (``plan_hand(dealer, hands, rng)``, the duplicate demo's): the same policy, but with
``rng`` (the caller's ``random.Random``) the side placing the contract bids a level higher or lower one
time in ``STRAY_BID`` (never below the bid before it, never past seven) and a player plays another legal
card one time in ``STRAY_CARD``, so the tables of a duplicate session holding the same cards get different
results, as a club's do. Every call and card is still judged legal by the models.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from laws.bridge.auction import Auction
from laws.bridge.calls import PASS, Call, bid
from laws.bridge.play import Play
from laws.bridge.tricks import trick_winner
from laws.cards import RANKS, SUITS, Card, Seat
from laws.scoring.bridge import Contract

POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}
OPEN_AT = 12
# (least points of the side, level): for each kind of strain, the level of the contract the side bids.
LEVELS = {"major": ((37, 7), (33, 6), (25, 4), (23, 3), (20, 2)),
          "minor": ((37, 7), (33, 6), (29, 5), (23, 3), (20, 2)),
          "NT": ((37, 7), (33, 6), (25, 3), (23, 2), (20, 1))}
_RANK = {r: len(RANKS) - i for i, r in enumerate(RANKS)}  # A=13 ... 2=1
STRAY_BID = 5    # straying players: one placing bid in five a level off
STRAY_CARD = 10  # straying players: one card in ten another legal card


def hcp(cards: Iterable[Card]) -> int:
    """High-card points: ace 4, king 3, queen 2, knave 1."""
    return sum(POINTS.get(c.rank, 0) for c in cards)


def _lengths(cards: Iterable[Card]) -> dict[str, int]:
    out = dict.fromkeys(SUITS, 0)
    for c in cards:
        out[c.suit] += 1
    return out


def balanced(cards: Iterable[Card]) -> bool:
    """No singleton or void, and at most one doubleton."""
    n = sorted(_lengths(cards).values())
    return n[0] >= 2 and n[1] >= 3


def _longest(cards: list[Card]) -> str:
    lengths = _lengths(cards)
    return max(SUITS, key=lambda s: (lengths[s], "CDHS".index(s)))  # as long: the higher-ranking


def opening(cards: list[Card]) -> Call | None:
    """The opening bid of this hand, or None (fewer than ``OPEN_AT`` points: it passes)."""
    points = hcp(cards)
    if points < OPEN_AT:
        return None
    if 15 <= points <= 17 and balanced(cards):
        return bid(1, "NT")
    return bid(1, _longest(cards))


def side_contract(ours: list[Card], partners: list[Card]) -> Call | None:
    """The contract a side of these two hands bids (see the module docstring), or None (under 20 points)."""
    points = hcp(ours) + hcp(partners)
    both = _lengths([*ours, *partners])
    fits = [s for s in ("S", "H", "D", "C") if both[s] >= 8]  # majors first, then the longer minor
    majors = [s for s in fits if s in "SH"]
    strain = max(majors, key=lambda s: both[s]) if majors else \
        max(fits, key=lambda s: both[s]) if fits else "NT"
    kind = "major" if strain in "SH" else "NT" if strain == "NT" else "minor"
    if kind == "minor" and 25 <= points <= 28:
        strain, kind = "NT", "NT"  # a minor-suit game is far: three notrump
    for least, level in LEVELS[kind]:
        if points >= least:
            return bid(level, strain)
    return None


def choose_call(auction: Auction, seat: Seat, hands: dict[Seat, list[Card]]) -> Call:
    """The call ``seat`` makes now under the policy of the module docstring (``seat`` is the player whose
    turn it is)."""
    last = auction.last_bid
    if last is None:
        return opening(hands[seat]) or PASS
    first = next(i for i, c in enumerate(auction.calls) if c.call.is_bid)
    if auction.calls[first].seat != seat.partner:
        return PASS  # opener himself, or the other side
    if any(c.seat == seat for c in auction.calls[first + 1:]):
        return PASS  # he has had his turn after the opening
    target = side_contract(hands[seat], hands[seat.partner])
    if target is None or target.rank <= last.call.rank:
        return PASS
    return target


def choose_card(play: Play, seat: Seat) -> Card:
    """The card ``seat`` plays now (dummy's seat for dummy's cards) under the play policy."""
    legal = play.legal_cards(seat)
    if not legal:
        raise ValueError(f"{seat.value} has no card to play (the hands must be known to the play)")
    trick = play.current
    trump = play.trump
    if not trick.cards:  # the lead: the highest card of the longest suit
        suit = _longest(legal)
        return max((c for c in legal if c.suit == suit), key=lambda c: _RANK[c.rank])
    winner = trick_winner(trick.cards, trick.leader, trump)
    partner_wins = winner == seat.partner

    def wins(c: Card) -> bool:
        return trick_winner({**trick.cards, seat: c}, trick.leader, trump) == seat

    low = sorted(legal, key=lambda c: (c.suit == trump, _RANK[c.rank]))
    if legal[0].suit == trick.suit_led:  # following suit
        if not partner_wins:
            beating = [c for c in low if wins(c)]
            if beating:
                return beating[0]
        return low[0]
    if not partner_wins:
        ruffs = sorted((c for c in legal if c.suit == trump and wins(c)), key=lambda c: _RANK[c.rank])
        if ruffs:
            return ruffs[0]
    side = [c for c in legal if c.suit != trump] or legal
    suit = _longest(side)
    return min((c for c in side if c.suit == suit), key=lambda c: _RANK[c.rank])


@dataclass(frozen=True)
class HandPlan:
    """A simulated hand: the calls in order, the contract (None: passed out), declarer, the cards played in
    order with the seat that plays them (dummy's with dummy's seat), and the tricks declarer's side won."""

    calls: tuple[tuple[Seat, Call], ...]
    contract: Contract | None
    declarer: Seat | None
    plays: tuple[tuple[Seat, Card], ...]
    tricks: int | None

    @property
    def contract_text(self) -> str | None:
        """The contract in event notation (``4S``, ``3NTX``), or None when passed out."""
        c = self.contract
        return None if c is None else f"{c.level}{c.strain}{'X' * c.doubled}"


def _stray_call(auction: Auction, call: Call, rng: random.Random) -> Call:
    """A placing bid a level off, one time in ``STRAY_BID`` (still sufficient, at most seven)."""
    last = auction.last_bid
    if not call.is_bid or last is None or rng.randrange(STRAY_BID):
        return call
    level = call.level + rng.choice((-1, 1))
    if not 1 <= level <= 7:
        return call
    other = bid(level, call.strain)
    return other if other.rank > last.call.rank else call


def plan_hand(dealer: Seat, hands: dict[Seat, list[Card]], rng: random.Random | None = None) -> HandPlan:
    """The whole hand the simulated players make of this deal (the four hands of 13 cards); with ``rng``,
    players who now and then stray from the policy (see the module docstring)."""
    auction = Auction(dealer)
    while auction.turn is not None:
        seat = auction.turn
        call = choose_call(auction, seat, hands)
        auction.add(seat, call if rng is None else _stray_call(auction, call, rng))
    calls = tuple((c.seat, c.call) for c in auction.calls)
    contract, declarer = auction.contract(), auction.declarer
    if contract is None or declarer is None:
        return HandPlan(calls, None, None, (), None)
    play = Play(contract, declarer, {s: list(h) for s, h in hands.items()})
    plays: list[tuple[Seat, Card]] = []
    while play.turn is not None:
        seat = play.turn
        card = choose_card(play, seat)
        if rng is not None and not rng.randrange(STRAY_CARD):
            card = rng.choice(sorted(play.legal_cards(seat) or [card]))
        play.play(seat, card)
        plays.append((seat, card))
    return HandPlan(calls, contract, declarer, tuple(plays), play.result().declarer_tricks)


# -- the record of the hand, for PBN ------------------------------------------------------------------
