"""A rubber as a club plays it: two packs in turn (A1, B1), a shoe that does not name the pack, and
restarts of the host at any step. No false ruling; the table always goes on to the next deal."""

from __future__ import annotations

from pathlib import Path

from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import Seat
from laws.events import CardPlayed, ResultRecorded
from laws.state import Phase
from tests.controller.livetable import LiveTable, dealt, rulings


def _dealt_and_in_auction(deal: int):  # type: ignore[no-untyped-def]
    return lambda s: s.deals_started == deal and s.phase is Phase.AUCTION


def _result() -> ResultRecorded:
    return ResultRecorded(tricks=7, declarer=Seat.N, contract="1NT")


def _lead(data_dir: Path, table: LiveTable) -> CardPlayed:
    """The opening lead: a card the dealer's left-hand opponent was dealt this deal."""
    d = table.state.deal
    assert d is not None
    seat = d.dealer.left
    card = [e for e in dealt(data_dir) if e["seat"] == seat.value][-1]["card"]
    from laws.cards import Card

    return CardPlayed(seat, Card.parse(card))


def test_alternating_packs_never_give_a_redeal(tmp_path: Path) -> None:
    with VirtualShoe("contract-bridge", seed=11, packs=("A1", "B1")) as shoe:
        table = LiveTable(tmp_path / "data", shoe.path)
        try:
            for deal in (1, 2, 3, 4):
                table.wait(_dealt_and_in_auction(deal))
                table.submit(_result())
        finally:
            table.close()
    assert rulings(tmp_path / "data") == []
    packs = [e.get("pack") for e in dealt(tmp_path / "data")]
    assert packs[:52] == ["A1"] * 52 and packs[52:104] == ["B1"] * 52


def test_restart_in_play_then_the_next_deal_starts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=12, packs=("A1", "B1")) as shoe:
        table = LiveTable(data, shoe.path)
        try:
            table.wait(_dealt_and_in_auction(1))
            table.submit(_lead(data, table), "camera")
            table.wait(lambda s: s.phase is Phase.PLAY)
        finally:
            table.close()
        table = LiveTable(data, shoe.path)  # the shoe's "pack loaded" for deal 2 was acknowledged long ago
        try:
            assert table.state.phase is Phase.PLAY
            table.submit(_result())
            table.wait(_dealt_and_in_auction(2))
        finally:
            table.close()
    assert rulings(data) == []


def test_restart_at_each_step_of_a_deal_goes_on(tmp_path: Path) -> None:
    """Restart right after the result (awaiting the shuffle), then again during the auction."""
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=13, packs=("A1", "B1")) as shoe:
        table = LiveTable(data, shoe.path)
        try:
            table.wait(_dealt_and_in_auction(1))
            table.submit(_result())
            table.wait(lambda s: s.deals_started == 2)
        finally:
            table.close()
        table = LiveTable(data, shoe.path)
        try:
            table.wait(_dealt_and_in_auction(2))
        finally:
            table.close()
        table = LiveTable(data, shoe.path)
        try:
            table.submit(_result())
            table.wait(_dealt_and_in_auction(3))
        finally:
            table.close()
    assert rulings(data) == []
    assert len(dealt(data)) == 3 * 52
