"""Law 54A (docs/laws.md BP-53-56): after a defender's opening lead out of turn, declarer may spread his hand;
he becomes dummy and his partner declares, and the lead stands. The ruling named the option, but no entry
took it: the ``spread`` event (the director, the dashboard's ``spread`` answer, a replay) does, and the
declarer the table scores and writes to PBN is then the partner."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firmware_host.club.bridge_answers import bridge_view, check_answer
from firmware_host.records.pbn import deals_from_events
from firmware_host.table.bridge_choices import ANSWERS, director_answer, open_bridge
from laws.cards import Card, Seat
from laws.engine import LawEngine
from laws.events import CardPlayed, Event, GameChosen, HandSpread, event_from_dict, event_to_dict
from laws.rulings import Remedy
from tests.laws.bridge_table import DRAW, MIXED, calls, dealt, play_out

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
AUCTION = "pass pass 1H pass 4H pass pass pass"     # North deals; South declares four hearts; West leads


class Recorded:
    """A law engine that keeps every event it is fed, as a table's journal does."""

    def __init__(self) -> None:
        self.engine = LawEngine("contract-bridge")
        self.events: list[Event] = [GameChosen("contract-bridge")]

    @property
    def state(self) -> Any:
        return self.engine.state

    def feed(self, e: Event) -> list[Any]:
        self.events.append(e)
        return self.engine.feed(e)


def east_leads_out_of_turn() -> Recorded:
    t = Recorded()
    for e in [DRAW, *dealt(MIXED), *calls(N, AUCTION)]:
        t.feed(e)
    [r] = t.feed(CardPlayed(E, Card.parse("AS")))            # West's lead; East leads the ace of spades
    assert r.extra["options"] == ["accept", "withdraw", "spread"]
    return t


def test_declarer_spreads_his_hand_and_his_partner_declares() -> None:
    t = east_leads_out_of_turn()
    [r] = t.feed(HandSpread(S))
    assert (r.remedy, r.clause, r.law) == (Remedy.DEAL_STANDS, "BP-53-56", "Rubber Bridge, law 54")
    assert (r.extra["declarer"], r.extra["dummy"], r.extra["card"]) == ("N", "S", "AS")
    play = t.state.deal.bridge.play
    assert (play.declarer, play.dummy, play.to_play) == (N, S, S)      # South's cards, played by North
    assert play.current.cards == {E: Card.parse("AS")} and not play.penalty_cards
    assert t.state.deal.bridge.pending is None


def test_only_declarer_spreads_and_only_after_an_opening_lead_out_of_turn() -> None:
    t = east_leads_out_of_turn()
    with pytest.raises(ValueError, match="North is not declarer; South may spread"):
        t.feed(HandSpread(N))
    t2 = Recorded()
    for e in [DRAW, *dealt(MIXED), *calls(N, AUCTION), CardPlayed(W, Card.parse("KS"))]:
        t2.feed(e)
    with pytest.raises(ValueError, match="only after a defender's opening lead out of turn"):
        t2.feed(HandSpread(S))


def _table_up_to(upto: str) -> Recorded:
    deal = dealt(MIXED)
    before = {"before any deal": [], "while the cards are dealt": deal[:10], "in the auction": [*deal, *calls(N, "pass")],
              "before the opening lead": [*deal, *calls(N, AUCTION)],
              "after the hand": [*deal, *calls(N, "pass pass pass pass")]}[upto]
    t = Recorded()
    for e in [DRAW, *before]:
        t.feed(e)
    return t


@pytest.mark.parametrize("upto", ["in the auction", "before the opening lead"])
def test_a_spread_in_the_auction_or_before_the_opening_lead_is_refused(upto: str) -> None:
    """docs/events.md: a ``spread`` in the auction or the play is refused unless a defender's opening lead
    out of turn waits; before the opening lead (the table's auction phase) it was dropped silently as out
    of its phase, which the table noted ``ignored``."""
    t = _table_up_to(upto)
    with pytest.raises(ValueError, match="only after a defender's opening lead out of turn"):
        t.feed(HandSpread(S))
    assert t.engine.ignored == 0


@pytest.mark.parametrize("upto", ["before any deal", "while the cards are dealt", "after the hand"])
def test_a_spread_outside_the_auction_and_play_is_ignored_like_any_event_out_of_its_phase(upto: str) -> None:
    t = _table_up_to(upto)
    assert t.feed(HandSpread(S)) == [] and t.engine.ignored == 1


def test_the_pbn_declarer_and_play_follow_the_spread() -> None:
    t = east_leads_out_of_turn()
    t.feed(HandSpread(S))
    for seat, code in ((S, "3S"), (W, "2S"), (N, "3H")):   # the trick East led, North ruffing
        t.feed(CardPlayed(seat, Card.parse(code)))
    play_out(t, {s: list(c) for s, c in MIXED.items()}, random.Random(4), tricks=12)  # type: ignore[arg-type]
    [deal] = deals_from_events(event_to_dict(e) for e in t.events)
    assert deal.declarer is N and deal.contract == "4H"
    assert any(line.startswith('[Play "E"]') for line in deal.play)


def test_the_spread_travels_the_event_format_and_the_dashboard() -> None:
    assert event_from_dict({"type": "spread", "seat": "S"}) == HandSpread(S)
    assert "spread" in ANSWERS
    t = east_leads_out_of_turn()
    raw = open_bridge(t.state)
    assert raw is not None and "spread" in raw["waiting"]["options"]
    view = bridge_view("contract-bridge", "play", raw)
    assert view is not None and [o["kind"] for o in view["offers"]] == ["accept", "withdraw", "spread"]
    spread = view["offers"][-1]
    assert [s["seat"] for s in spread["seats"]] == ["S"] and "dummy" in spread["title"]
    assert check_answer("contract-bridge", "play", "spread", {"seat": "S"}) == {"seat": "S"}
    assert check_answer("duplicate-bridge", "play", "spread", {"seat": "S"}) == {"seat": "S"}
    assert director_answer(t.state, "spread", {"seat": "S"}) == HandSpread(S)
