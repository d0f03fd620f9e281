"""Entries that do not fit the table's phase are journaled and noted "ignored", as docs/events.md promises
(issue 20, item 2): a ``deal_end`` or ``trump_turned`` with no deal under way, and a ``missing_card``
before any deal (refused: on main it got a ``deal_stands`` ruling about a play that never was)."""

from __future__ import annotations

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
