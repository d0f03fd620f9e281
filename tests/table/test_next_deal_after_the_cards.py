"""A bridge hand scored from its cards needs nothing typed: with a shoe, the host deals the next pack once it
is loaded, as it does after a typed result.

Found by the soak (issue 22, item 7): its bridge hands are bid and played through the table, which scores
them at the last trick (or a claim ruled) and stays in its scoring phase until the next shuffle. The host
prepared the next deal (the shuffle and cut that loading the pack stands for) only in the forming and
shuffle phases, so a table that records the auction and the play never dealt again unless the director
typed the result nobody needed. A hand that still waits for its typed result (no auction recorded, or euchre)
is not dealt over: its result would be lost."""

from __future__ import annotations

from typing import Any

from firmware_host.live import ShoeProcedure
from firmware_host.players import plan_hand
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import CallMade, CardPlayed, PackCut, PackShuffled, PlayEnded
from laws.state import Phase
from tests.laws.bridge_table import MIXED, table


class Controller:
    """What ``ShoeProcedure`` uses of the controller."""

    def __init__(self, engine: LawEngine) -> None:
        self.engine = engine
        self.loaded_pack: str | None = "B1"
        self.submitted: list[Any] = []
        self.shoe_mark = self.shoe_committed = None

    def on_pack_loaded(self, fn: Any) -> None:
        pass

    def on_fault(self, fn: Any) -> None:
        pass

    def on_shoe_progress(self, fn: Any) -> None:
        pass

    def submit(self, item: Any) -> None:
        self.submitted.append(item.event)


def _procedure(engine: LawEngine) -> tuple[Controller, ShoeProcedure]:
    ctl = Controller(engine)
    link: Any = type("Link", (), {"send": lambda self, cmd: None})()
    return ctl, ShoeProcedure(ctl, link, "contract-bridge")  # type: ignore[arg-type]


def test_a_hand_scored_from_its_cards_lets_the_next_deal_start() -> None:
    eng = table(MIXED)
    plan = plan_hand(Seat.N, {s: list(c) for s, c in MIXED.items()})
    for seat, call in plan.calls:
        eng.feed(CallMade(seat, call.code))
    for seat, card in plan.plays:
        eng.feed(CardPlayed(seat, card))
    assert eng.state.phase is Phase.SCORING and eng.state.deal.bridge.scored is not None  # type: ignore[union-attr]
    ctl, proc = _procedure(eng)
    proc.on_phase(eng.state.phase, eng)
    nxt = eng.state.next_dealer
    assert nxt is Seat.E
    assert ctl.submitted == [PackShuffled(nxt.partner), PackShuffled(nxt), PackCut(nxt.right)]


def test_a_hand_waiting_for_its_typed_result_is_not_dealt_over() -> None:
    eng = table(MIXED)
    for seat, card in plan_hand(Seat.N, {s: list(c) for s, c in MIXED.items()}).plays:  # no auction recorded
        eng.feed(CardPlayed(seat, card))
    eng.feed(PlayEnded())
    assert eng.state.phase is Phase.SCORING
    ctl, proc = _procedure(eng)
    proc.on_phase(eng.state.phase, eng)
    assert ctl.submitted == []
