"""The headline a player reads says what the claim is for: a reshuffle, a call, a search (issue 12)."""

from __future__ import annotations

from firmware_host.devices.display_text import headline
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import event_from_dict


def _rulings(game: str, *objs: dict) -> list:
    eng = LawEngine(game)
    eng.state.next_dealer = Seat.N
    out = []
    for o in objs:
        out += eng.feed(event_from_dict(o))
    return out


def test_a_reshuffle_claim_is_not_called_a_redeal() -> None:
    r = _rulings("euchre", {"type": "shuffle", "seat": "N"}, {"type": "card_faced", "card": "JH", "where": "pack"})
    assert headline(r[-1]) == "A RESHUFFLE MAY BE DEMANDED"


def test_a_redeal_claim_keeps_its_headline() -> None:
    r = _rulings("euchre", {"type": "shuffle", "seat": "N"}, {"type": "deal_start", "dealer": "N", "pack": "x"})
    assert headline(r[-1]) == "A REDEAL MAY BE CLAIMED"
