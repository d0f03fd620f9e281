"""The card bar after a missing card turned up. A deal that ended a card short (``CB-missing-search``) and
whose card was then found with the short hand (``CB-missing-found``, restored to it) read
``51/52 dealt  N 13 E 13 S 13 W 13``: fifty-one cards beside four hands of thirteen, and nothing said
where the fifty-second came from (audit p12, q1). The seats count the card restored to the hand, the
deal's count the cards dealt: the bar says both, ``51/52 dealt, 1 found``."""

from __future__ import annotations

import random
from typing import Any

from firmware_host.devices.display import progress_text
from laws.cards import Seat, clockwise_from
from laws.engine import LawEngine
from laws.events import event_from_dict


def _snap(eng: LawEngine) -> dict[str, Any]:
    """The parts of ``TableController.snapshot`` the card bar reads."""
    d = eng.state.deal
    assert d is not None
    return {"phase": eng.state.phase.value, "deal": d.number, "lamps": {},
            "counts": {s.value: n for s, n in d.counts.items()}, "cards_dealt": d.cards_dealt}


def test_a_card_found_and_restored_is_counted_as_found_not_dealt() -> None:
    eng = LawEngine("contract-bridge")
    eng.state.next_dealer = Seat.N
    pack = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    random.Random(3).shuffle(pack)
    missing = pack.pop(10)                          # out of the pack: the dealer's own hand is short
    seats = clockwise_from(Seat.E)
    for o in ({"type": "shuffle", "seat": "S"}, {"type": "shuffle", "seat": "N"},
              {"type": "cut", "seat": "W", "top": 20, "bottom": 32},
              {"type": "deal_start", "dealer": "N", "pack": "red"},
              *({"type": "card_dealt", "seat": seats[k % 4].value, "card": c} for k, c in enumerate(pack)),
              {"type": "deal_end"}):
        eng.feed(event_from_dict(o))
    assert str(progress_text(_snap(eng), 52)).startswith("deal 1  [████████████] 51/52 dealt  N 12 E 13")
    rulings = eng.feed(event_from_dict({"type": "missing_card", "card": missing, "seat": "N", "found": "loose"}))
    assert [r.clause for r in rulings] == ["CB-missing-found"]
    line = str(progress_text(_snap(eng), 52))
    assert "51/52 dealt, 1 found  N 13 E 13 S 13 W 13" in line, line
