"""Pack health starts when the pack is known: a shoe that names its pack only with the first card it reads
must not leave a phantom pack "unknown" on the director's screen (the controller holds the deal's counts
until the pack is named; the publisher and the dashboard refuse an unnamed pack as well)."""

from __future__ import annotations

from pathlib import Path

from firmware_host.controller import LawInput, TableController
from laws.cards import Seat
from laws.events import event_from_dict

from ..controller.test_controller import Clock, _Recorder, prelude


def _feed(ctl: TableController, events: list[dict[str, object]], source: str = "shoe") -> None:
    for ev in events:
        ctl.process(LawInput(event_from_dict(ev), source))


def test_the_first_deals_counts_go_to_its_pack_once_named(tmp_path: Path) -> None:
    from firmware_host.journal import Journal

    rec = _Recorder()
    j = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock(), observers=[rec])
    ctl.engine.state.next_dealer = Seat.N
    for e in prelude(Seat.N):
        ctl.process(LawInput(e, "script"))
    _feed(ctl, [{"type": "deal_start", "dealer": "N", "pack": "unknown"}])
    assert rec.health == [] and ctl.packs == {}
    _feed(ctl, [{"type": "card_dealt", "seat": "E", "card": "2C", "pack": "R1"}])
    assert rec.health == [("R1", 0, 0, 1)] and list(ctl.packs) == ["R1"]
    j.close()
