"""Calls at a bridge table without bidding cards: the director enters any call from the dashboard
(``command/call``), checked only as far as the event format goes and journaled from source ``director``;
two presses of a seat's button in the auction are that seat's pass, and the other press patterns keep
their meaning. Every refusal names what is wrong and loses nothing already recorded."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from firmware_host.live import ClubCommands
from firmware_host.records.journal import Journal
from firmware_host.table.choices import ChoiceRefused, button_call, director_entry
from firmware_host.table.controller import ButtonInput, DirectorCommand, LawInput, TableController
from laws.cards import Seat
from laws.events import event_to_dict
from laws.state import Phase
from tests.laws.streams import BRIDGE_PACK, bridge_deal, euchre_known_deal, prelude, shuffled
from tests.table.fakes import Clock
from tests.table.test_choices import HANDS


@pytest.fixture
def bridge(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A bridge table whose deal is complete (North dealt): the auction."""
    journal = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=journal, panel=None, clock=Clock())
    ctl.engine.state.next_dealer = Seat.N
    for e in prelude(Seat.N) + bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(3))):
        ctl.process(LawInput(e, "shoe"))
    assert ctl.engine.state.phase is Phase.AUCTION
    yield ctl, journal
    journal.close()


def _events(journal: Journal) -> list[dict[str, Any]]:
    return [row.body for row in journal.rows() if row.kind == "event"]


def _answer(ctl: TableController) -> dict[str, Any]:
    return ctl.snapshot()["answers"][-1]


def test_the_directors_call_is_journaled_from_source_director_with_its_command(bridge: Any) -> None:
    ctl, journal = bridge
    before = len(_events(journal))
    ctl.process(DirectorCommand("call", "k1", "ann", {"table": "t1", "by": "ann", "id": "k1", "seat": "N",
                                                       "call": "1NT"}))
    assert _answer(ctl) == {"id": "k1", "kind": "call", "ok": True, "why": ""}
    body = _events(journal)[-1]
    assert len(_events(journal)) == before + 1
    assert {k: body[k] for k in ("type", "seat", "call", "src", "command")} == \
        {"type": "call", "seat": "N", "call": "1NT", "src": "director", "command": {"id": "k1", "by": "ann"}}


def test_any_call_of_the_format_is_taken_whoever_s_turn_it_is(bridge: Any) -> None:
    """Whose turn and which call is legal are the engine's to judge: the table checks the format only."""
    ctl, journal = bridge
    for i, (seat, call) in enumerate((("W", "7NT"), ("W", "redouble"), ("E", "1N"), ("S", "pass"), ("N", "double"))):
        ctl.process(DirectorCommand("call", f"k{i}", "ann", {"seat": seat, "call": call}))
        assert _answer(ctl)["ok"], (seat, call)
    assert [(e["seat"], e["call"]) for e in _events(journal)[-5:]] == \
        [("W", "7NT"), ("W", "redouble"), ("E", "1NT"), ("S", "pass"), ("N", "double")]


@pytest.mark.parametrize("body, why", [
    ({"seat": "N", "call": "0S"}, "field 'call'"),
    ({"seat": "N", "call": "Pass"}, "field 'call'"),
    ({"seat": "N"}, "missing field 'call'"),
    ({"seat": "Q", "call": "1H"}, "field 'seat'"),
    ({"call": "1H"}, "missing field 'seat'"),
])
def test_a_malformed_call_is_refused_naming_the_field_and_nothing_is_lost(bridge: Any, body: dict, why: str) -> None:
    ctl, journal = bridge
    rows = len(list(journal.rows()))
    ctl.process(DirectorCommand("call", "bad", "ann", body))
    answer = _answer(ctl)
    assert not answer["ok"] and why in answer["why"]
    after = list(journal.rows())
    assert len(after) == rows + 1 and after[-1].kind == "note" and after[-1].body["refused"] == answer["why"]
    assert journal.verify().ok


def test_a_call_out_of_phase_or_at_a_euchre_table_is_refused(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "b")
    ctl = TableController(game="contract-bridge", journal=journal, panel=None, clock=Clock())
    ctl.engine.state.next_dealer = Seat.N
    for e in prelude(Seat.N):
        ctl.process(LawInput(e, "script"))
    ctl.process(DirectorCommand("call", "k1", "ann", {"seat": "N", "call": "1H"}))
    assert _answer(ctl) == {"id": "k1", "kind": "call", "ok": False, "why": "a call is entered once the deal is "
                            "complete, until play ends; the table is in its cut phase"}
    journal.close()
    journal = Journal.open(tmp_path / "e")
    euchre = TableController(game="euchre", journal=journal, panel=None, clock=Clock())
    euchre.engine.state.next_dealer = Seat.N
    for e in euchre_known_deal(Seat.N, HANDS, "7S"):
        euchre.process(LawInput(e, "script"))
    euchre.process(DirectorCommand("call", "k2", "ann", {"seat": "E", "call": "pass"}))
    assert _answer(euchre)["why"] == "a call is entered at a bridge table, and this table plays euchre"
    journal.close()


def test_two_presses_in_the_auction_are_the_seats_pass(bridge: Any) -> None:
    ctl, journal = bridge
    ctl.process(ButtonInput("E", "new_shuffle"))
    body = _events(journal)[-1]
    assert (body["type"], body["seat"], body["call"], body["src"]) == ("call", "E", "pass", "button")


def test_one_press_and_a_hold_keep_their_meaning_in_the_auction(bridge: Any) -> None:
    ctl, journal = bridge
    ctl.process(ButtonInput("S", "attention"))
    ctl.process(ButtonInput("S", "restore_pack"))
    assert [(e["type"], e["what"], e["src"]) for e in _events(journal)[-2:]] == \
        [("demand", "attention", "button"), ("demand", "restore_pack", "button")]


def test_two_presses_elsewhere_still_demand_a_new_shuffle(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=journal, panel=None, clock=Clock())
    ctl.engine.state.next_dealer = Seat.N
    ctl.process(LawInput(prelude(Seat.N)[0], "script"))
    ctl.process(ButtonInput("W", "new_shuffle"))  # before the deal: the demand the laws give
    last = _events(journal)[-1]
    assert (last["type"], last["what"]) == ("demand", "new_shuffle")
    journal.close()


def test_what_a_button_calls_in_each_game_and_phase() -> None:
    from laws.engine import LawEngine

    bridge, euchre = LawEngine("contract-bridge").state, LawEngine("euchre").state
    for state in (bridge, euchre):
        for phase in Phase:
            state.phase = phase
            for kind in ("attention", "new_shuffle", "restore_pack"):
                got = button_call(state, Seat.N, kind)
                assert got is None, (state.game, phase, kind)  # no deal yet: never a call
    eng = LawEngine("contract-bridge")
    eng.feed_all(prelude(Seat.N) + bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(1))))
    call = button_call(eng.state, Seat.W, "new_shuffle")
    assert call is not None and event_to_dict(call) == {"type": "call", "seat": "W", "call": "pass"}
    assert button_call(eng.state, Seat.W, "attention") is None
    eng.state.phase = Phase.PLAY
    assert button_call(eng.state, Seat.W, "new_shuffle") is None  # in play two presses are no call


def test_the_call_entry_refuses_in_words_before_any_event_is_made() -> None:
    from laws.engine import LawEngine

    state = LawEngine("contract-bridge").state
    state.phase = Phase.AUCTION
    for text in ("1Z", "0n", "", "pass ", "XX"):  # lower-case letters are read (docs/events.md), 0n is no bid
        with pytest.raises(ChoiceRefused, match="field 'call'"):
            director_entry(state, "call", {"seat": "N", "call": text})
    event = director_entry(state, "call", {"seat": "N", "call": "3N", "table": "t1", "by": "ann"})
    assert event_to_dict(event) == {"type": "call", "seat": "N", "call": "3NT"}  # the format, whatever the class


def test_the_club_command_call_goes_to_the_controller_with_its_id() -> None:
    got: list[object] = []
    commands = ClubCommands("contract-bridge", got.append)
    body = {"table": "t1", "by": "ann", "id": "k9", "seat": "S", "call": "2S"}
    commands("call", body)
    commands("call", body)  # QoS 1 delivered it twice: the controller does it once, by its id
    assert got == [DirectorCommand("call", "k9", "ann", body)] * 2
