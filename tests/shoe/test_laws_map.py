"""Shoe messages to law events."""

from __future__ import annotations

from firmware_host.shoe import messages as m
from firmware_host.shoe.laws_map import to_law_event
from laws.cards import Card, Seat
from laws.events import (
    CardDealt,
    DamagedCardFound,
    DealEnded,
    DealStarted,
    TrumpTurned,
    event_from_dict,
    event_to_dict,
)


def _card(**kw) -> m.CardOut:
    base = dict(seq=1, index=1, seat=Seat.E, turn_up=False, card=Card("T", "S"), orientation=m.Orientation.DOWN,
                quality=90, pack="A")
    base.update(kw)
    return m.CardOut(**base)


def test_card_out_becomes_card_dealt() -> None:
    assert to_law_event(_card()) == CardDealt(Seat.E, Card("T", "S"), False, "A")
    assert to_law_event(_card(orientation=m.Orientation.UP)) \
        == CardDealt(Seat.E, Card("T", "S"), True, "A")
    unreadable = to_law_event(_card(card=None, pack=""), t=4.5)
    assert unreadable == CardDealt(Seat.E, None, False, None, t=4.5)
    assert event_from_dict(event_to_dict(unreadable)) == unreadable


def test_turn_up_is_trump_and_cards_outside_a_deal_are_not_law_events() -> None:
    assert to_law_event(_card(seat=None, turn_up=True)) == TrumpTurned(Card("T", "S"))
    assert to_law_event(_card(seat=None, turn_up=True, card=None)) == DamagedCardFound(None, "A")
    assert to_law_event(_card(seat=None, turn_up=True, card=None, pack=""), pack="R1") == DamagedCardFound(None, "R1")
    assert to_law_event(_card(seat=None)) is None


def test_deal_start_and_end() -> None:
    began = m.DealBegan(2, Seat.S, 0, (1,) * 13, "")
    assert to_law_event(began, pack="B") == DealStarted(Seat.S, "B")
    assert to_law_event(m.DealBegan(2, Seat.S, 0, (1,) * 13, "A"), pack="B") == DealStarted(Seat.S, "A")
    assert to_law_event(began) == DealStarted(Seat.S, "unknown")
    assert to_law_event(m.DealFinished(3, m.FinishReason.EMPTY, 51, False)) == DealEnded()


def test_shoe_level_messages_stay_with_the_controller() -> None:
    for msg in (m.Jam(1, 3, False), m.Empty(1, 51), m.ButtonPressed(1, Seat.N, m.ButtonKind.CALL),
                m.ShoeError(1, m.ErrorCode.HARDWARE, "x"), m.Reply(1, 1, m.Status.OK, ""),
                m.LinkStatus(False, "gone")):
        assert to_law_event(msg) is None
