"""Writes the example scenario files in this folder (run: python -m tests.data.make_scenarios).

Each scenario is an event log in the public format (docs/events.md). Two fields the format ignores make
them readable and testable: ``note`` says what is happening, and ``expect`` lists the rulings that line
must cause, as ``"remedy clause"`` strings; tests/laws/test_scenarios.py replays every file and checks.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from laws.cards import Card, Seat
from laws.events import Event, event_to_dict
from tests.laws.streams import (
    BRIDGE_PACK,
    EUCHRE_PACK,
    E,
    bridge_deal,
    bridge_hands,
    bridge_play,
    euchre_deal,
    euchre_play,
    prelude,
    shuffled,
)

HERE = Path(__file__).parent
N, EAST, S, W = Seat.N, Seat.E, Seat.S, Seat.W


class Log:
    def __init__(self, game: str) -> None:
        self.lines: list[dict[str, Any]] = [{"type": "game", "game": game}]

    def add(self, events: list[Event] | Event, note: str | None = None, expect: list[str] | None = None,
            at: int = -1) -> None:
        """Append events; the note goes on the first, the expectation on the one at index ``at``."""
        evs = events if isinstance(events, list) else [events]
        objs = [event_to_dict(e) for e in evs]
        if note:
            objs[0]["note"] = note
        if expect:
            objs[at]["expect"] = expect
        self.lines.extend(objs)

    def write(self, name: str) -> None:
        with open(HERE / name, "w", encoding="utf-8") as f:
            for obj in self.lines:
                f.write(json.dumps(obj) + "\n")


def bridge_full_hand(log: Log, dealer: Seat, cards: list[Card], pack: str, rnd: random.Random,
                     declarer: Seat, contract: str, tricks: int, expect: list[str], note: str) -> None:
    log.add(prelude(dealer, pack) + bridge_deal(dealer, cards, pack), note)
    log.add(bridge_play(bridge_hands(dealer, cards), dealer.left, rnd))
    log.add([E("play_end"), E("result", declarer=declarer.value, contract=contract, tricks=tricks)],
            expect=expect)


def bridge_rubber() -> None:
    rnd = random.Random(7)
    log = Log("contract-bridge")
    log.add(E("packs", owners={"NS": "red", "EW": "blue"}), "North-South own the red pack, East-West blue")
    log.add(E("draw", cuts=[["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"], ["Ed", "3C"]]),
            "Five candidates draw; the four highest play", ["formation CB-draw"])
    bridge_full_hand(log, N, shuffled(BRIDGE_PACK, rnd), "red", rnd, S, "4S", 10,
                     ["score CB-rubber", "game_won CB-rubber"], "Ann (North) deals the first hand")
    bridge_full_hand(log, EAST, shuffled(BRIDGE_PACK, rnd), "blue", rnd, W, "3NT", 8, ["score CB-rubber"],
                     "East deals with the blue pack; 3NT goes one down")
    bridge_full_hand(log, S, shuffled(BRIDGE_PACK, rnd), "red", rnd, N, "6HX", 12,
                     ["score CB-rubber", "game_won CB-rubber", "rubber_won CB-rubber"],
                     "A doubled small slam made wins the rubber")
    log.write("bridge-rubber.jsonl")


def bridge_irregularities() -> None:
    rnd = random.Random(11)
    log = Log("contract-bridge")
    log.add(E("packs", owners={"NS": "red", "EW": "blue"}))
    log.add(E("draw", cuts=[["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"]]),
            expect=["formation CB-draw"])
    log.add(E("shuffle", seat="S"), "A card is faced in the cut")
    log.add(E("cut", seat="W", faced=True, top=20, bottom=32), expect=["new_shuffle_and_cut CB-cut-faced"])
    cards = shuffled(BRIDGE_PACK, rnd)
    deal = bridge_deal(N, cards)
    log.add(prelude(N) + deal[:12], "Redealt after a new shuffle and cut; card 12 leaves the shoe face up")
    d = event_to_dict(deal[12]) | {"face_up": True}
    log.lines.append(d | {"expect": ["redeal CB-redeal-faced"]})
    log.add(prelude(N), "Same dealer, same pack, new shuffle and cut (CB-redeal-how)")
    log.add(E("demand", seat="E", what="new_shuffle"), "East asks for a new shuffle before the first card",
            ["new_shuffle_and_cut CB-shuffle-demand"])
    cards = shuffled(BRIDGE_PACK, rnd)
    log.add(prelude(N) + bridge_deal(N, cards), "A clean deal")
    log.add(E("hand_count", seat="S", count=14), "South counts fourteen cards", ["attention CB-redeal-miscount"])
    log.add(E("hand_count", seat="W", count=12), "West counts twelve", ["redeal CB-redeal-miscount"])
    log.add([E("shuffle", seat="S"), E("shuffle", seat="N")], "North shuffles but nobody cuts")
    log.add(E("deal_start", dealer="N", pack="red"), expect=["claim_option CB-redeal-uncut"])
    log.add(E("card_dealt", seat="E", card="AS"))
    log.add(E("demand", seat="W", what="redeal"), "West demands the redeal in time",
            ["redeal CB-redeal-uncut"])
    cards = shuffled(BRIDGE_PACK, rnd)
    log.add(prelude(N) + bridge_deal(N, cards), "Clean deal; play starts")
    log.add(E("missing_card", card=cards[3].code, seat="N", found="loose"),
            "A card turns up on the floor", ["deemed_to_belong CB-missing-found"])
    log.add(E("damaged_card", card="7C", pack="red"), "A torn card", ["replace_pack CB-pack-damaged"])
    log.add([E("play_end"), E("result", declarer="N", contract="2C", tricks=8)], expect=["score CB-rubber"])
    log.add(prelude(EAST, "blue"), "East's deal, but West starts dealing")
    log.add(E("deal_start", dealer="W", pack="blue"), expect=["claim_option CB-redeal-out-of-turn"])
    cards = shuffled(BRIDGE_PACK, rnd)
    log.add(bridge_deal(W, cards, "blue")[1:], "Nobody objects before the last card",
            ["deal_stands CB-redeal-out-of-turn"], at=-2)
    log.add(E("demand", seat="N", what="restore_pack"), "North-South reclaim their pack",
            ["restore_pack CB-pack-reclaim"])
    log.write("bridge-irregularities.jsonl")


def euchre_hand(log: Log, dealer: Seat, rnd: random.Random, maker: Seat, alone: bool, note: str,
                expect: list[str] | None = None) -> None:
    pack = "red" if dealer.side.value == "NS" else "blue"
    deal, hands, trump_card = euchre_deal(dealer, shuffled(EUCHRE_PACK, rnd), (3, 3, 3, 3), pack)
    trump = next(s for s in "SHDC" if s != trump_card.suit)
    play, won = euchre_play(hands, dealer, trump, trump_card, maker, alone, rnd)
    log.add(prelude(dealer, pack) + deal + play, note)
    log.add(E("result", makers=maker.side.value, alone=alone, tricks=won), expect=expect)


def euchre_rubber() -> None:
    rnd = random.Random(5)
    log = Log("euchre")
    log.add(E("packs", owners={"NS": "red", "EW": "blue"}))
    log.add(E("draw", cuts=[["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "7C"]]),
            "The knave is highest: Ann deals and partners Bob", ["formation EU-11"])
    dealer = N
    for k in range(6):
        euchre_hand(log, dealer, rnd, [EAST, N][k % 2], alone=(k == 3), note=f"Hand {k + 1}")
        dealer = dealer.left
    log.write("euchre-hands.jsonl")


def euchre_irregularities() -> None:
    rnd = random.Random(3)
    log = Log("euchre")
    log.add(E("packs", owners={"NS": "red", "EW": "blue"}))
    log.add(E("draw", cuts=[["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "7C"]]), expect=["formation EU-11"])
    cards = shuffled(EUCHRE_PACK, rnd)
    log.add(prelude(N) + [E("deal_start", dealer="N", pack="red"), E("card_dealt", seat="E", card=cards[0].code)],
            "North gives East a single card, then moves on")
    log.add(E("card_dealt", seat="S", card=cards[1].code), expect=["misdeal EU-41"])
    log.add(prelude(EAST, "blue"), "The deal has passed to East")
    deal, _, _ = euchre_deal(EAST, shuffled(EUCHRE_PACK, rnd), (2, 2, 2, 2), "blue")
    log.add(deal[:7])
    log.add(E("card_faced", card=deal[7].card.code, where="deal", by="E"),  # type: ignore[attr-defined]
            "The dealer exposes a card", ["claim_option EU-35"])
    log.add(E("demand", seat="N", what="new_deal"), "North-South claim a new deal", ["redeal EU-35"])
    log.add(prelude(EAST, "red"), "East deals again, but with North-South's pack")
    deal, hands, trump_card = euchre_deal(EAST, shuffled(EUCHRE_PACK, rnd), (3, 3, 3, 3), "red")
    log.add(deal[0], expect=["claim_option EU-38"])
    log.add(deal[1:], "Nobody claims before the trump card is turned", ["deal_stands EU-38"])
    log.add(E("trump_made", seat="S", suit=trump_card.suit))
    log.add(E("hand_count", seat="W", count=4), "West finds only four cards after the turn",
            ["deal_stands EU-90", "penalty EU-90"], at=0)
    log.write("euchre-irregularities.jsonl")


if __name__ == "__main__":
    bridge_rubber()
    bridge_irregularities()
    euchre_rubber()
    euchre_irregularities()
