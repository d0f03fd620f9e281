"""Entries that do not fit the table's phase are journaled and noted "ignored", as docs/events.md promises
(issue 20, item 2): a ``deal_end`` or ``trump_turned`` with no deal under way, and a ``missing_card``
before any deal (refused: on main it got a ``deal_stands`` ruling about a play that never was)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput, TableController
from laws.events import event_from_dict
from tests.table.fakes import Clock
from tests.table.test_set_aside import Display

DRAWS = {"contract-bridge": [["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"]],
         "euchre": [["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "8C"]]}


@pytest.mark.parametrize(("game", "line"), [
    ("contract-bridge", {"type": "deal_end"}),
    ("euchre", {"type": "deal_end"}),
    ("euchre", {"type": "trump_turned", "card": "JH"}),
    ("contract-bridge", {"type": "missing_card", "card": "2C", "seat": "W", "found": "loose"}),
    ("contract-bridge", {"type": "missing_card", "card": None, "seat": "N", "found": None}),
    ("euchre", {"type": "missing_card", "card": "9S", "seat": "W", "found": "E"}),
])
def test_an_entry_with_no_deal_under_way_is_noted_ignored(tmp_path: Path, game: str, line: dict) -> None:
    shown = Display()
    j = Journal.open(tmp_path, synchronous="NORMAL")
    try:
        ctl = TableController(game=game, journal=j, panel=None, clock=Clock(), display=shown)
        ctl.process(LawInput(event_from_dict({"type": "draw", "cuts": DRAWS[game]}), "director"))
        rows_before = sum(1 for _ in j.rows())
        assert ctl.process(LawInput(event_from_dict(line), "director")) == []
        new = [r for r in j.rows()][rows_before:]
        assert [r.kind for r in new] == ["event", "note"]
        assert new[1].body["ignored"]["type"] == line["type"]
        assert shown.notes[-1] == f"{line['type']} from director ignored: the table is in phase shuffle"
    finally:
        j.close()


def test_the_shoes_stop_after_a_voided_deal_is_not_a_warning_but_a_stray_deal_end_is(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A ruling voids the deal and the table stops the shoe: the shoe's in-flight cards and its
    ``deal_end`` (PROTOCOL.md: DEAL_FINISHED, reason aborted) are what the protocol says it sends, so
    they are noted ``ignored`` as before but logged at INFO (``make demo`` printed ``WARNING ...
    deal_end from shoe ignored`` after every redeal). A ``deal_end`` when no deal was ever dealt is
    still a warning."""
    j = Journal.open(tmp_path, synchronous="NORMAL")
    try:
        ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock(), display=Display())
        ctl.process(LawInput(event_from_dict({"type": "draw", "cuts": DRAWS["contract-bridge"]}), "director"))
        with caplog.at_level(logging.INFO, logger="firmware_host.table.controller"):
            ctl.process(LawInput(event_from_dict({"type": "deal_end"}), "shoe"))
        assert [r.levelname for r in caplog.records if "deal_end from shoe ignored" in r.getMessage()] == \
            ["WARNING"]
        caplog.clear()
        dealer = ctl.engine.state.next_dealer
        assert dealer is not None
        for line in ({"type": "shuffle", "seat": dealer.partner.value}, {"type": "shuffle", "seat": dealer.value},
                     {"type": "cut", "seat": dealer.right.value, "top": 20, "bottom": 32}):
            ctl.process(LawInput(event_from_dict(line), "script"))
        ctl.process(LawInput(event_from_dict({"type": "deal_start", "dealer": dealer.value, "pack": "R1"}), "shoe"))
        faced = ctl.process(LawInput(event_from_dict({"type": "card_dealt", "seat": dealer.left.value,
                                                      "card": "AS", "face_up": True}), "shoe"))
        assert [r.remedy.value for r in faced] == ["redeal"]
        with caplog.at_level(logging.INFO, logger="firmware_host.table.controller"):
            ctl.process(LawInput(event_from_dict({"type": "card_dealt", "seat": dealer.left.left.value,
                                                  "card": "KS"}), "shoe"))
            ctl.process(LawInput(event_from_dict({"type": "deal_end"}), "shoe"))
        said = [(r.levelname, r.getMessage()) for r in caplog.records if "ignored" in r.getMessage()]
        assert [level for level, _ in said] == ["INFO", "INFO"], said
        notes = [r.body["ignored"]["type"] for r in j.rows() if r.kind == "note" and "ignored" in r.body]
        assert notes[-2:] == ["card_dealt", "deal_end"]                  # journaled as ignored, as before
    finally:
        j.close()


def test_a_stop_between_an_ignored_event_and_its_note_is_completed_at_the_restart(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Audit a4, finding 2: an event row and its ``ignored`` note are two commits (the event is committed
    before the engine sees it). Killed between them, the journal held a card of a voided deal without
    its note, and no restart wrote it. The restart owes it, as it owes an interrupted step's rulings;
    once, however often the table starts again."""
    j = Journal.open(tmp_path, synchronous="NORMAL")
    try:
        ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock(), display=Display())
        ctl.process(LawInput(event_from_dict({"type": "draw", "cuts": DRAWS["contract-bridge"]}), "director"))
        dealer = ctl.engine.state.next_dealer
        assert dealer is not None
        for line in ({"type": "shuffle", "seat": dealer.partner.value}, {"type": "shuffle", "seat": dealer.value},
                     {"type": "cut", "seat": dealer.right.value, "top": 20, "bottom": 32}):
            ctl.process(LawInput(event_from_dict(line), "script"))
        ctl.process(LawInput(event_from_dict({"type": "deal_start", "dealer": dealer.value, "pack": "R1"}), "shoe"))
        faced = ctl.process(LawInput(event_from_dict({"type": "card_dealt", "seat": dealer.left.value,
                                                      "card": "AS", "face_up": True}), "shoe"))
        assert [r.remedy.value for r in faced] == ["redeal"]
        # the shoe's next card, committed as the controller commits it; the process dies before its note
        card = {"type": "card_dealt", "seat": dealer.left.left.value, "card": "KS", "t": 9.0, "src": "shoe",
                "shoe": [7, 12]}
        j.append("event", card, 9.0)
        for _ in range(2):
            with caplog.at_level(logging.INFO, logger="firmware_host.table.ordering"):
                TableController(game="contract-bridge", journal=j, panel=None, clock=Clock(), display=Display())
        rows = list(j.rows())
        assert [(r.kind, r.body) for r in rows[-2:]] == [("event", card), ("note", {"ignored": card})]
        said = [(r.levelname, r.getMessage()) for r in caplog.records if "ignored:" in r.getMessage()]
        assert said == [("INFO", "card_dealt from shoe ignored: the table is in phase shuffle "
                                 "(its note completed after the last stop)")], said
    finally:
        j.close()
