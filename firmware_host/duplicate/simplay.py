"""A simulated table's board: a legal auction and a legal play of the cards the players hold, and the
check of every card played against the board's record, as a duplicate table makes it.

The auction and play go through the pure models (``laws.bridge.auction.Auction``,
``laws.bridge.play.Play``), so every call and card is legal; the choices come from a
``random.Random`` the caller passes in (a simulation's, not a tournament's: nothing here deals). The
bidding is a crude point count (the side with more high-card points declares its longest fit, at the
level its points suggest, now and then a level off or doubled), so results vary from table to table
the way a club's do. Play: a lead from the longest suit; otherwise the cheapest card that wins the trick
so far, or the cheapest card.

:func:`check_against_record` is the duplicate table's check of the cards played against the record
(issue 23 builds it into the real table): the first card played by a seat the record does not give it
to is a fouled board, named with the seats whose hands differ.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from laws.bridge.auction import Auction
from laws.bridge.calls import DOUBLE, PASS, bid
from laws.bridge.play import Play
from laws.bridge.tricks import trick_winner
from laws.cards import SEATS, Card, Seat, Side, full_pack
from laws.duplicate.deal import Board, Deal, card_index
from laws.scoring.bridge import Contract

HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
_RANK = {r: i for i, r in enumerate("23456789TJQKA")}


@dataclass(frozen=True)
class PlayedBoard:
    """What a table made of a board: the auction (PBN spellings, from the dealer), the contract (None:
    passed out), the declarer, the cards in the order played, and declarer's tricks."""

    auction: tuple[str, ...]
    contract: Contract | None
    declarer: Seat | None
    play: tuple[tuple[Seat, Card], ...]
    tricks: int

    @property
    def lead(self) -> Card | None:
        return self.play[0][1] if self.play else None


def _points(cards: Sequence[Card]) -> int:
    return sum(HCP.get(c.rank, 0) for c in cards)


def _level(points: int) -> int:
    for limit, level in ((20, 0), (23, 1), (25, 2), (29, 4), (33, 5), (37, 6)):
        if points < limit:
            return level
    return 7


def choose_contract(deal: Deal, dealer: Seat, rng: random.Random) -> tuple[Contract | None, Seat | None]:
    """A contract and declarer for the hands as held (see the module docstring)."""
    hands = {s: deal.hand(s) for s in SEATS}
    side_points = {side: sum(_points(hands[s]) for s in side.seats) for side in (Side.NS, Side.EW)}
    side = max((Side.NS, Side.EW), key=lambda sd: (side_points[sd], sd is dealer.side))
    points = side_points[side] + rng.choice((-2, -1, 0, 0, 0, 1, 2))
    level = _level(points)
    if level == 0:
        return None, None
    lengths = {suit: sum(1 for s in side.seats for c in hands[s] if c.suit == suit) for suit in "SHDC"}
    suit = max("SHDC", key=lambda s: (lengths[s], s in "SH"))
    strain = suit if lengths[suit] >= 8 else "NT"
    if strain == "NT" and level >= 3:
        level = min(level, 3) if points < 33 else level
    elif strain in "SH" and 3 <= level <= 5 and points < 33:
        level = 4
    elif strain in "DC" and 3 <= level <= 5 and points < 33:
        level = rng.choice((3, 5))
    if rng.random() < 0.2:
        level = max(1, min(7, level + rng.choice((-1, 1))))
    declarer = max(side.seats, key=lambda s: (sum(1 for c in hands[s] if strain == "NT" or c.suit == strain),
                                              _points(hands[s])))
    doubled = 1 if level >= 4 and rng.random() < 0.08 else 0
    return Contract(level, strain, doubled), declarer


def bid_auction(dealer: Seat, contract: Contract | None, declarer: Seat | None) -> Auction:
    """An auction that ends in ``contract`` by ``declarer``: passes round to the declarer, the bid, a
    double by the next player when the contract is doubled, then passes (each call judged legal)."""
    a = Auction(dealer)
    if contract is None or declarer is None:
        for _ in range(4):
            a.add(a.to_call, PASS)
        return a
    while a.to_call != declarer:
        a.add(a.to_call, PASS)
    a.add(declarer, bid(contract.level, contract.strain))
    if contract.doubled:
        a.add(a.to_call, DOUBLE)
    while not a.closed:
        a.add(a.to_call, PASS)
    return a


def _choose(play: Play, seat: Seat, rng: random.Random) -> Card:
    legal = play.legal_cards(seat) or []
    cards = play.current.cards
    if not cards:
        counts: dict[str, list[Card]] = {}
        for c in legal:
            counts.setdefault(c.suit, []).append(c)
        longest = max(counts.values(), key=len)
        return rng.choice(longest)
    lowest = min(legal, key=lambda c: (c.suit == play.trump, _RANK[c.rank]))
    winners = [c for c in legal
               if trick_winner({**cards, seat: c}, play.current.leader, play.trump) == seat]
    partner_winning = trick_winner(cards, play.current.leader, play.trump) == seat.partner
    if winners and not partner_winning and rng.random() < 0.85:
        return min(winners, key=lambda c: (c.suit == play.trump, _RANK[c.rank]))
    return lowest


def play_board(board: Board, held: Deal, rng: random.Random) -> PlayedBoard:
    """Bid and play ``board`` with the cards as ``held`` (the record's deal, or a fouled copy of it)."""
    contract, declarer = choose_contract(held, board.dealer, rng)
    auction = bid_auction(board.dealer, contract, declarer)
    calls = tuple(c.call.pbn for c in auction.calls)
    final, by = auction.contract(), auction.declarer
    if final is None or by is None:
        return PlayedBoard(calls, None, None, (), 0)
    p = Play(final, by, {s: list(held.hand(s)) for s in SEATS})
    order: list[tuple[Seat, Card]] = []
    while p.turn is not None:
        seat = p.turn
        card = _choose(p, seat, rng)
        p.play(seat, card)
        order.append((seat, card))
    return PlayedBoard(calls, final, by, tuple(order), p.result().declarer_tricks)


def check_against_record(record: Board, play: Sequence[tuple[Seat, Card]]) -> tuple[bool, dict[str, Any] | None]:
    """Every card played against the record: (verified, foul). ``verified`` when all 52 were seen, each
    from the seat the record gives it to; ``foul`` names the first card that was not, the seat that
    played it, the seat the record gives it to, its trick, and the seats whose cards differ."""
    foul: dict[str, Any] | None = None
    differ: set[Seat] = set()
    for i, (seat, card) in enumerate(play):
        holder = record.deal.holder(card)
        if holder is not seat:
            differ |= {seat, holder}
            if foul is None:
                foul = {"card": card.code, "played_by": seat.value, "record_seat": holder.value, "trick": i // 4 + 1}
    if foul is not None:
        foul["seats"] = [s.value for s in SEATS if s in differ]
        return False, foul
    return len(play) == 52, None


def swap_cards(deal: Deal, a: Card, b: Card) -> Deal:
    """The deal with cards ``a`` and ``b`` in each other's pockets (a misboarded copy)."""
    seats = list(deal.assignment())
    ia, ib = card_index(a), card_index(b)
    seats[ia], seats[ib] = seats[ib], seats[ia]
    return Deal(tuple(seats))


def misboard(deal: Deal, rng: random.Random) -> tuple[Deal, Card, Card]:
    """A copy of ``deal`` with one card moved to another pocket and one of that pocket's cards moved back
    (thirteen cards a pocket still, so only the play shows it)."""
    cards = list(full_pack())
    a = rng.choice(cards)
    others = [c for c in cards if deal.holder(c) is not deal.holder(a)]
    b = rng.choice(others)
    return swap_cards(deal, a, b), a, b
