"""How each game is dealt, as the shoe's START_DEAL needs it: packet sizes per round and turn-up."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.shoe.messages import StartDeal
from laws.cards import RANKS, Card, Seat, full_pack


@dataclass(frozen=True)
class DealPlan:
    """``patterns``: the allowed packet sizes per round (the first is the default); ``turn_up``: cards
    turned face up on the table after the deal (euchre's trump card)."""

    game: str
    ranks: str
    patterns: tuple[tuple[int, ...], ...]
    turn_up: int = 0

    @property
    def pack(self) -> tuple[Card, ...]:
        return full_pack(self.ranks)

    @property
    def cards_dealt(self) -> int:
        return 4 * sum(self.patterns[0]) + self.turn_up


GAMES: dict[str, DealPlan] = {
    # Bridge: thirteen rounds of one card, clockwise from the dealer's left.
    "contract-bridge": DealPlan("contract-bridge", RANKS, ((1,) * 13,)),
    # Euchre (32 cards, A K Q J 10 9 8 7): two rounds, two-then-three or three-then-two, then the
    # dealer turns up the next card for trump (Somerset Club laws, the deal and misdeal sections).
    "euchre": DealPlan("euchre", "AKQJT987", ((2, 3), (3, 2)), turn_up=1),
}


def deal_plan(game: str) -> DealPlan:
    """The plan for ``game``; raises ValueError naming the games there are."""
    try:
        return GAMES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r} (want one of {', '.join(GAMES)})") from None


def start_deal(game: str, dealer: Seat, pack: str = "", variant: int = 0) -> StartDeal:
    """The START_DEAL command for one deal of ``game`` (``variant`` picks among allowed patterns)."""
    plan = deal_plan(game)
    return StartDeal(dealer, plan.patterns[variant % len(plan.patterns)], plan.turn_up, pack)
