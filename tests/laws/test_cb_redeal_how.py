"""CB-redeal-how (docs/laws.md): a redeal is made by the same dealer (unless the deal was out of turn) with
the same pack, after a new shuffle and cut, and the rubber table says so in each redeal ruling's fields:
``dealer`` and ``pack`` (docs/events.md, the ``redeal`` remedy). Every path to a redeal at a rubber table
names the pack that was dealt; before this, only a second copy of a card dealt did."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from laws.cards import Card, Seat
from laws.events import Event
from laws.rulings import Remedy, Ruling
from tests.laws.streams import BRIDGE_PACK, E, bridge_deal, law_table, prelude, shuffled

N = Seat.N
PACK = "blue"   # the deal's pack; the table knows NS own red and EW blue, and a deal from either is not flagged


def _cards() -> list[Card]:
    return shuffled(BRIDGE_PACK, random.Random(3))


def _deal() -> list[Event]:
    return prelude(N) + bridge_deal(N, _cards(), pack=PACK)


def _short() -> list[Event]:
    """North's last card never leaves the shoe: the table asks for a search (CB-missing-search)."""
    d = bridge_deal(N, _cards(), pack=PACK)
    return prelude(N) + d[:-2] + d[-1:]


SCENARIOS: dict[str, Callable[[], list[Event]]] = {
    "CB-redeal-out-of-turn": lambda: prelude(N) + [E("deal_start", dealer="E", pack=PACK),
                                                   E("card_dealt", seat="S", card="AS"),
                                                   E("demand", seat="W", what="redeal")],
    "CB-redeal-uncut": lambda: prelude(N)[:2] + [E("deal_start", dealer="N", pack=PACK),
                                                 E("demand", seat="E", what="redeal")],
    "CB-redeal-incorrect": lambda: prelude(N) + [E("deal_start", dealer="N", pack=PACK),
                                                 E("card_dealt", seat="N", card="AS")],
    "CB-redeal-incorrect (deal two short)": lambda: prelude(N) + bridge_deal(N, _cards(), pack=PACK)[:-3] +
    [E("deal_end")],
    "CB-redeal-faced (face up)": lambda: _deal()[:12] + [E("card_dealt", seat="E", card="9D", face_up=True)],
    "CB-redeal-faced (seen)": lambda: _deal()[:12] + [E("card_faced", card="9D", where="deal", by="N")],
    "CB-redeal-faced (hand)": lambda: _deal()[:12] + [E("card_faced", card=None, where="hand", by="E")],
    "CB-redeal-wrong-hand": lambda: _deal() + [E("wrong_hand", seat="E", looked=True)],
    "CB-redeal-miscount": lambda: _deal() + [E("hand_count", seat="S", count=14),
                                             E("hand_count", seat="W", count=12)],
    "CB-missing-other-hand": lambda: _short() + [E("missing_card", card=_cards()[-1].code, seat="N",
                                                   found="E")],
    "CB-missing-not-found": lambda: _short() + [E("missing_card", card=_cards()[-1].code, seat="N",
                                                  found=None)],
    "CB-missing-not-found (at play's end)": lambda: _short() + [E("play_end")],
    "CB-surplus-deal": lambda: _deal() + [E("surplus_card", seat="E", cause="deal")],
    "CB-surplus-deal (a card twice)": lambda: _deal()[:12] + [E("card_dealt", seat="E", card=_cards()[0].code)],
}


def _redeal(events: list[Event]) -> Ruling:
    eng = law_table("contract-bridge", N)
    rulings = eng.feed_all(events)
    redeals = [r for r in rulings if r.remedy is Remedy.REDEAL]
    assert len(redeals) == 1, [r.to_dict() for r in rulings]
    return redeals[0]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_rubber_redeal_names_the_pack_dealt_again(name: str) -> None:
    r = _redeal(SCENARIOS[name]())
    assert r.clause == name.split(" (")[0]
    assert r.dealer is N and r.pack == PACK, r.to_dict()
    assert r.to_dict()["pack"] == PACK


def test_a_shoe_that_names_its_pack_with_the_first_card_names_it_in_the_redeal() -> None:
    """A shoe may start a deal before it knows the pack (``unknown``) and name it with its cards."""
    r = _redeal(prelude(N) + [E("deal_start", dealer="N", pack="unknown"),
                              E("card_dealt", seat="N", card="AS", pack=PACK)])
    assert (r.clause, r.pack) == ("CB-redeal-incorrect", PACK)


def test_a_redeal_whose_pack_the_table_does_not_know_leaves_pack_out() -> None:
    r = _redeal(prelude(N) + [E("deal_start", dealer="N", pack="unknown"),
                              E("card_dealt", seat="N", card="AS")])
    assert r.clause == "CB-redeal-incorrect" and r.pack is None and "pack" not in r.to_dict()

