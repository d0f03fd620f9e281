"""A table waiting for the director's replacement pack says so on its screen. After a NEW PACK ruling
(``replace_pack`` with a dealer: a damaged or unreadable card, a card no euchre pack holds) a shoe table
deals nothing until the director acknowledges, yet its panel said only "Next deal: North deals." while
the pack the dealer put back sat in the shoe, and nothing after the acknowledgement said the
replacement pack was in: only a log line, out of the players' sight, said "deal 2 waits for the
director" (audit q1). docs/events.md, "Packs: replaced and restored": the status line says the table
waits for the director's replacement pack, then when he acknowledged it, until the next deal starts."""

from __future__ import annotations

import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from firmware_host.config import load_config
from firmware_host.devices.panel import Panel
from firmware_host.devices.table_view import status_line
from firmware_host.records.journal import Journal
from firmware_host.table.controller import ButtonInput, LawInput, TableController
from laws.cards import Seat
from tests.laws.streams import E, prelude
from tests.table.fakes import Clock


def _table(tmp_path: Path, clock: Clock) -> tuple[TableController, Panel, Journal]:
    cfg = load_config(None, env={}, check_devices=False)
    panel = Panel(cfg.pins, MockFactory(), clock)
    journal = Journal.open(tmp_path)
    return TableController(game="euchre", journal=journal, panel=panel, clock=clock), panel, journal


def _at(t: float) -> str:
    return time.strftime("%H:%M", time.localtime(t))


def test_the_screen_says_the_table_waits_for_the_replacement_pack_then_when_it_came(tmp_path: Path) -> None:
    clock = Clock()
    ctl, panel, journal = _table(tmp_path, clock)
    try:
        ctl.engine.state.next_dealer = Seat.N
        for e in [*prelude(Seat.N), E("deal_start", dealer="N", pack="R1"), E("card_dealt", seat="E", card="AS"),
                  E("damaged_card", card="AS", pack="R1"), *prelude(Seat.N)]:   # the pack put back, cut
            ctl.process(LawInput(e, "shoe"))
        assert ctl.engine.state.phase.value in ("shuffle", "cut")
        assert status_line(ctl.snapshot()) == "The table waits for the director's replacement pack; then North deals."
        clock.now = 1_764_500_000.0
        ctl.process(ButtonInput("director", "ack"))     # the director: the replacement pack is in
        said = f"Replacement pack in: the director acknowledged at {_at(1_764_500_000.0)}. North deals."
        assert status_line(ctl.snapshot()) == said
        panel.close()
        journal.close()
        clock.now = 1_764_503_600.0                     # a restart an hour later says the same time
        ctl, panel, journal = _table(tmp_path, clock)
        assert status_line(ctl.snapshot()) == said
        ctl.process(LawInput(E("deal_start", dealer="N", pack="R2"), "shoe"))   # the next deal: said no more
        assert "replacement pack" not in status_line(ctl.snapshot())
    finally:
        panel.close()
        journal.close()


def test_a_restart_still_waiting_says_it_waits(tmp_path: Path) -> None:
    clock = Clock()
    ctl, panel, journal = _table(tmp_path, clock)
    try:
        ctl.engine.state.next_dealer = Seat.E
        for e in [*prelude(Seat.E), E("deal_start", dealer="E", pack="R1"), E("card_dealt", seat="S", card="2C")]:
            ctl.process(LawInput(e, "shoe"))              # a bridge card in a euchre shoe: EU-33
        panel.close()
        journal.close()
        ctl, panel, journal = _table(tmp_path, clock)
        assert status_line(ctl.snapshot()) == "The table waits for the director's replacement pack; then East deals."
    finally:
        panel.close()
        journal.close()


def test_a_status_from_outside_with_a_bad_time_still_gives_its_line() -> None:
    """The club reads the same line from a table's status: a time no clock can show is left out."""
    snap = {"phase": "cut", "game": "euchre", "deal": 2, "dealer": "N", "next_dealer": "N",
            "new_pack": {"waits": False, "acknowledged": 1e300}}
    assert status_line(snap) == "Replacement pack in: the director acknowledged it. North deals."
    snap["new_pack"] = "yes"
    assert status_line(snap) == "Next deal: North deals."
