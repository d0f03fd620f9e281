"""Builders of event streams for the law-engine tests: legal deals and plays of both games."""

from __future__ import annotations

import random
from typing import Any

from laws.cards import RANKS, Card, Seat, clockwise_from, full_pack
from laws.engine import LawEngine
from laws.events import Event, event_from_dict
from laws.games.euchre_hands import effective_suit
from laws.games.euchre_hands import power as euchre_power
from laws.rulings import Ruling

BRIDGE_PACK = full_pack(RANKS)
EUCHRE_PACK = full_pack("AKQJT987")


def E(kind: str, **fields: Any) -> Event:
    """An event from its JSON fields, through the same decoder the replay uses."""
    return event_from_dict({"type": kind, **fields})


def law_table(game: str, dealer: Seat = Seat.N) -> LawEngine:
    """An engine for ``game`` whose packs are known (NS red, EW blue) and whose next dealer is ``dealer``."""
    eng = LawEngine(game)
    eng.feed(E("packs", owners={"NS": "red", "EW": "blue"}))
    eng.state.next_dealer = dealer
    return eng


def only(rulings: list[Ruling]) -> Ruling:
    """The one ruling a line caused (fails, listing them, when there were none or several)."""
    assert len(rulings) == 1, [r.to_dict() for r in rulings]
    return rulings[0]


def shuffled(pack: tuple[Card, ...], rnd: random.Random) -> list[Card]:
    cards = list(pack)
    rnd.shuffle(cards)
    return cards


def prelude(dealer: Seat, pack: str = "red", dealer_shuffles: bool = True) -> list[Event]:
    """Shuffle by the dealer's partner then (using his right to shuffle last, unless
    ``dealer_shuffles`` is false) the dealer, a legal cut by his right-hand opponent."""
    return [E("shuffle", seat=dealer.partner.value)] + \
        ([E("shuffle", seat=dealer.value)] if dealer_shuffles else []) + \
        [E("cut", seat=dealer.right.value, top=14, bottom=18)]


def bridge_deal(dealer: Seat, cards: list[Card], pack: str = "red") -> list[Event]:
    """A correct bridge deal: one card at a time clockwise from the dealer's left."""
    order = clockwise_from(dealer.left)
    out = [E("deal_start", dealer=dealer.value, pack=pack)]
    out += [E("card_dealt", seat=order[i % 4].value, card=c.code) for i, c in enumerate(cards)]
    out.append(E("deal_end"))
    return out


def bridge_hands(dealer: Seat, cards: list[Card]) -> dict[Seat, list[Card]]:
    order = clockwise_from(dealer.left)
    return {s: [c for i, c in enumerate(cards) if order[i % 4] == s] for s in order}


def bridge_play(hands: dict[Seat, list[Card]], leader: Seat, rnd: random.Random) -> list[Event]:
    """Thirteen tricks, following suit when able (notrump, leader's left-hand opponent leads next)."""
    held = {s: list(c) for s, c in hands.items()}
    out: list[Event] = []
    for _ in range(13):
        led: str | None = None
        best: tuple[Seat, Card] | None = None
        for seat in clockwise_from(leader):
            follow = [c for c in held[seat] if c.suit == led] if led else []
            card = rnd.choice(follow or held[seat])
            held[seat].remove(card)
            led = led or card.suit
            if card.suit == led and (best is None or RANKS.index(card.rank) < RANKS.index(best[1].rank)):
                best = (seat, card)
            out.append(E("card_played", seat=seat.value, card=card.code))
        assert best is not None
        leader = best[0]
    return out


def euchre_deal(dealer: Seat, cards: list[Card], first: tuple[int, int, int, int] = (2, 2, 2, 2),
                pack: str = "red") -> tuple[list[Event], dict[Seat, list[Card]], Card]:
    """A euchre deal: packets `first` then their complements, then the trump card turned (correct when
    `first` is all twos or all threes, law 42)."""
    order = clockwise_from(dealer.left)
    hands: dict[Seat, list[Card]] = {s: [] for s in order}
    out = [E("deal_start", dealer=dealer.value, pack=pack)]
    it = iter(cards)
    for rnd_sizes in (first, tuple(5 - n for n in first)):
        for seat, n in zip(order, rnd_sizes):
            for _ in range(n):
                c = next(it)
                hands[seat].append(c)
                out.append(E("card_dealt", seat=seat.value, card=c.code))
    out.append(E("deal_end"))
    trump_card = next(it)
    out.append(E("trump_turned", card=trump_card.code))
    return out, hands, trump_card


def euchre_known_deal(dealer: Seat, hands: dict[Seat, list[str]], turned: str) -> list[Event]:
    """The prelude, then a correct euchre deal of the given five-card ``hands`` (card codes): a round of
    twos then a round of threes clockwise from the dealer's left (law 42), then ``turned`` turned up."""
    order = clockwise_from(dealer.left)
    out = prelude(dealer) + [E("deal_start", dealer=dealer.value, pack="red")]
    for lo, hi in ((0, 2), (2, 5)):
        out += [E("card_dealt", seat=s.value, card=c) for s in order for c in hands[s][lo:hi]]
    return out + [E("deal_end"), E("trump_turned", card=turned)]


def euchre_play(hands: dict[Seat, list[Card]], dealer: Seat, trump: str, trump_card: Card, maker: Seat,
                alone: bool, rnd: random.Random) -> tuple[list[Event], int]:
    """Legal play of five tricks; returns the events (trump made, plays, play end) and makers' tricks."""
    held = {s: list(c) for s, c in hands.items()}
    if trump == trump_card.suit:  # the dealer takes up the trump card and discards his lowest card
        held[dealer].append(trump_card)
        held[dealer].sort(key=lambda c: euchre_power(c, trump, trump))
        held[dealer].pop(0)
    out = [E("trump_made", seat=maker.value, suit=trump, alone=alone)]
    sitting_out = maker.partner if alone else None
    leader = dealer.left if dealer.left != sitting_out else dealer.left.left
    won = 0
    for _ in range(5):
        led: str | None = None
        best: tuple[Seat, int] | None = None
        for seat in clockwise_from(leader):
            if seat == sitting_out:
                continue
            follow = [c for c in held[seat] if led and effective_suit(c, trump) == led]
            card = rnd.choice(follow or held[seat])
            held[seat].remove(card)
            led = led or effective_suit(card, trump)
            power = euchre_power(card, trump, led)
            if best is None or power > best[1]:
                best = (seat, power)
            out.append(E("card_played", seat=seat.value, card=card.code))
        assert best is not None
        leader = best[0]
        won += leader.side is maker.side
    out.append(E("play_end"))
    return out, won
