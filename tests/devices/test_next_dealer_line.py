"""Who deals next, on the panel between deals. The panel's head keeps the last deal and its dealer
("Deal 1   Dealer North") until the next deal starts, and its status line said nothing about the next
one (or "Play is over" while the next pack was being shuffled): after a euchre misdeal that passed the
deal to East, or a bridge redeal after a deal out of turn, a player looking at the panel read "Dealer
North" (or "Dealer West") and only the ruling, scrolled above, said "— East deals" (audit p12). Between
deals (the shuffle and the cut) the status line now names the next dealer."""

from __future__ import annotations

from typing import Any

from firmware_host.devices.table_view import status_line
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import event_from_dict


def _snap(eng: LawEngine, game: str) -> dict[str, Any]:
    """The parts of ``TableController.snapshot`` the status line reads."""
    s = eng.state
    return {"phase": s.phase.value, "game": game, "deal": s.deal.number if s.deal else 0,
            "dealer": s.deal.dealer.value if s.deal else None,
            "next_dealer": s.next_dealer.value if s.next_dealer else None}


def test_a_euchre_misdeal_names_who_deals_next() -> None:
    eng = LawEngine("euchre")
    eng.state.next_dealer = Seat.N
    rulings = []
    for o in ({"type": "shuffle", "seat": "S"}, {"type": "shuffle", "seat": "N"},
              {"type": "cut", "seat": "W", "top": 10, "bottom": 14},
              {"type": "deal_start", "dealer": "N", "pack": "red"},
              {"type": "card_dealt", "seat": "E", "card": "9H"},
              {"type": "card_dealt", "seat": "S", "card": "TH"}):
        rulings += eng.feed(event_from_dict(o))
    assert rulings and rulings[-1].remedy.value == "misdeal" and rulings[-1].dealer is Seat.E, rulings
    snap = _snap(eng, "euchre")
    assert snap["dealer"] == "N" and snap["phase"] == "shuffle", snap   # the head still says North
    assert status_line(snap) == "Next deal: East deals."


def test_between_rubber_deals_the_line_names_the_next_dealer_not_the_last_play() -> None:
    snap = {"phase": "shuffle", "game": "contract-bridge", "deal": 1, "dealer": "N", "next_dealer": "E",
            "bridge": {"contract": "1D", "declarer": "E", "result": {"contract": "1D", "declarer": "E",
                                                                      "tricks": 0}}}
    assert status_line(snap) == "Next deal: East deals."
    snap["phase"] = "scoring"                         # play over, no shuffle yet: as before
    assert status_line(snap) == "Play is over: the result is the cards'."


def test_a_duplicate_table_is_left_to_its_boards() -> None:
    """A duplicate board names its own dealer (DB-2): the next board's, not a rotation."""
    snap = {"phase": "shuffle", "game": "duplicate-bridge", "deal": 1, "dealer": "N", "next_dealer": "E"}
    assert "Next deal" not in status_line(snap)
