"""No journaled input may stop a table from starting (issue 20, item 1): an event the engine refuses or
fails on is set aside (the engine goes on as if it had not come), noted in the journal with its ruling
marked unknown, shown on the display and listed in the club's status; a restart skips it, and a journal
holding an event that raises at the restart still starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_host.records.journal import Journal
from firmware_host.table.controller import ButtonInput, LawInput, TableController
from laws.engine import LawEngine
from laws.events import CardFaced, Event, event_from_dict, event_to_dict
from tests.table.fakes import Clock

BRIDGE = [{"type": "game", "game": "contract-bridge"},
          {"type": "draw", "cuts": [["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"]],
           "seats": {"Ann": "N", "Bob": "S", "Cy": "E", "Di": "W"}},
          {"type": "shuffle", "seat": "S"}, {"type": "cut", "seat": "W", "top": 20, "bottom": 32},
          {"type": "deal_start", "dealer": "N", "pack": "red"},
          {"type": "card_dealt", "seat": "E", "card": "TS"}]
HAND_DOWN = {"type": "card_faced", "card": None, "where": "hand", "by": "E"}  # the entry of issue 20


class Display:
    """Records what the table shows."""

    def __init__(self) -> None:
        self.notes: list[str] = []
        self.statuses: list[dict[str, Any]] = []

    def note(self, text: str) -> None:
        self.notes.append(text)

    def status(self, snap: dict[str, Any]) -> None:
        self.statuses.append(snap)

    def ruling(self, *a: Any) -> None: ...
    def device(self, *a: Any) -> None: ...


@pytest.fixture
def faulty(monkeypatch: pytest.MonkeyPatch) -> None:
    """A law engine whose clauses fail on a hand laid face up (as the bridge clause did on main)."""
    real = LawEngine.feed

    def feed(self: LawEngine, event: Event) -> Any:
        if isinstance(event, CardFaced) and event.where == "hand":
            self.state.deals_started += 100
            raise KeyError("hand")  # after changing the state, as a clause half way through would
        return real(self, event)

    monkeypatch.setattr(LawEngine, "feed", feed)


def journal_of(path: Path, lines: list[dict[str, Any]]) -> None:
    """A journal holding ``lines`` as event rows and nothing else (what the table had committed)."""
    with Journal.open(path, synchronous="NORMAL") as j:
        for k, body in enumerate(lines):
            j.append("event", body | {"src": "director"}, 1000.0 + k)


def start(path: Path, display: Display | None = None) -> tuple[TableController, Journal]:
    j = Journal.open(path, synchronous="NORMAL")
    return TableController(game="contract-bridge", journal=j, panel=None, clock=Clock(), display=display), j


def clean_engine(lines: list[dict[str, Any]]) -> Any:
    eng = LawEngine("contract-bridge")
    for body in lines:
        eng.feed(event_from_dict(body))
    return eng.snapshot()


def test_a_journal_holding_an_event_that_raises_restarts(tmp_path: Path, faulty: None) -> None:
    journal_of(tmp_path, [*BRIDGE, HAND_DOWN, {"type": "card_dealt", "seat": "S", "card": "2H"}])
    shown = Display()
    ctl, j = start(tmp_path, shown)  # on main: KeyError out of the constructor, exit 1 at every start
    try:
        notes = [r.body for r in j.rows() if r.kind == "note" and "set_aside" in r.body]
        assert notes == [{"set_aside": 7, "type": "card_faced", "src": "director", "error": "KeyError: 'hand'",
                          "ruling": "unknown"}]
        assert any("journal row 7" in n and "ruling is unknown" in n for n in shown.notes)
        snap = ctl.snapshot()
        assert snap["set_aside"] == [{"row": 7, "type": "card_faced", "src": "director", "ruling": "unknown",
                                      "error": "KeyError"}]
        # the engine goes on as if the entry had not come: the deal, with the card after it
        assert ctl.engine.snapshot() == clean_engine([*BRIDGE, {"type": "card_dealt", "seat": "S", "card": "2H"}])
        assert j.verify().ok
    finally:
        j.close()
    ctl, j = start(tmp_path, shown := Display())  # again: skipped by its note, noted once, still reported
    try:
        assert sum(1 for r in j.rows() if r.kind == "note" and "set_aside" in r.body) == 1
        assert [a["row"] for a in ctl.snapshot()["set_aside"]] == [7]
        assert any("journal row 7" in n for n in shown.notes)
        ctl.process(ButtonInput("director", "ack"))  # the director has seen it
        assert ctl.snapshot()["set_aside"] == []
    finally:
        j.close()
    ctl, j = start(tmp_path, shown := Display())
    try:
        assert ctl.snapshot()["set_aside"] == [] and not any("journal row 7" in n for n in shown.notes)
        assert ctl.engine.state.deal is not None and ctl.engine.state.deal.cards_dealt == 2
    finally:
        j.close()


def test_live_the_event_is_set_aside_and_a_restart_agrees(tmp_path: Path, faulty: None) -> None:
    shown = Display()
    ctl, j = start(tmp_path, shown)
    try:
        for body in BRIDGE[1:]:
            ctl.process(LawInput(event_from_dict(body), "director"))
        assert ctl.process(LawInput(event_from_dict(HAND_DOWN), "director")) == []
        ctl.process(LawInput(event_from_dict({"type": "card_dealt", "seat": "S", "card": "2H"}), "director"))
        live = ctl.engine.snapshot()
        assert live == clean_engine([*BRIDGE, {"type": "card_dealt", "seat": "S", "card": "2H"}])
        assert [a["ruling"] for a in ctl.snapshot()["set_aside"]] == ["unknown"]
        assert any("set aside" in n for n in shown.notes)
        assert shown.statuses[-1]["set_aside"]  # the club's status says so
    finally:
        j.close()
    ctl, j = start(tmp_path)
    try:
        assert ctl.engine.snapshot() == live
        assert sum(1 for r in j.rows() if r.kind == "note" and "set_aside" in r.body) == 1
    finally:
        j.close()


def test_a_refused_event_is_not_applied_and_says_why(tmp_path: Path) -> None:
    """A draw of fewer than four (docs/events.md: an event the engine cannot take): set aside as refused
    (no ruling due), the engine left as it was."""
    ctl, j = start(tmp_path)
    try:
        for body in BRIDGE[1:4]:
            ctl.process(LawInput(event_from_dict(body), "director"))
        before = ctl.engine.snapshot()
        bad = event_from_dict({"type": "draw", "cuts": [["Ed", "AS"], ["Flo", "KS"]]})
        assert ctl.process(LawInput(bad, "director")) == []
        assert ctl.engine.snapshot() == before
        (note,) = [r.body for r in j.rows() if r.kind == "note" and "set_aside" in r.body]
        # in words, not the exception's class: "ValueError: board 10: ..." read like a traceback to a director
        assert note["ruling"] == "none" and note["error"].startswith("refused: ") and "Error" not in note["error"]
        assert ctl.snapshot()["set_aside"][-1]["error"] == "refused"
    finally:
        j.close()


def test_a_row_that_is_no_longer_an_event_does_not_stop_the_start(tmp_path: Path) -> None:
    """A journal written by a later version (a type this one does not know) starts too."""
    journal_of(tmp_path, [*BRIDGE, {"type": "toss", "seat": "E", "coin": "heads"}])
    ctl, j = start(tmp_path)
    try:
        assert [a["type"] for a in ctl.snapshot()["set_aside"]] == ["toss"]
        assert ctl.engine.snapshot() == clean_engine(BRIDGE)
    finally:
        j.close()


def test_the_table_refuses_a_journal_of_the_other_game_still(tmp_path: Path) -> None:
    from firmware_host.table.ordering import ControllerError

    journal_of(tmp_path, [{"type": "game", "game": "euchre"}])
    with pytest.raises(ControllerError, match="euchre table"):
        start(tmp_path)


def test_rows_roundtrip_helper_is_what_the_table_writes() -> None:
    """The bodies above are the format's own (so the journal holds what a table would)."""
    for body in [*BRIDGE, HAND_DOWN]:
        assert event_to_dict(event_from_dict(body)) == body
