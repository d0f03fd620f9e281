"""A rubber as a club plays it: two packs in turn (A1, B1), a shoe that does not name the pack, and
restarts of the host at any step. No false ruling; the table always goes on to the next deal."""

from __future__ import annotations

import logging
from pathlib import Path

from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import Seat
from laws.events import CardPlayed, ResultRecorded, event_from_dict
from laws.state import Phase
from tests.table.livetable import LiveTable, dealt, rulings
from tests.table.test_journal_faults import _assert_no_cards_logged


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


def test_alternating_packs_never_give_a_redeal(tmp_path: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    with VirtualShoe("contract-bridge", seed=11, packs=("A1", "B1")) as shoe:
        with LiveTable(tmp_path / "data", shoe.path) as table:
            for deal in (1, 2, 3, 4):
                table.wait(_dealt_and_in_auction(deal))
                table.submit(_result())
    assert rulings(tmp_path / "data") == []
    packs = [e.get("pack") for e in dealt(tmp_path / "data")]
    assert packs[:52] == ["A1"] * 52 and packs[52:104] == ["B1"] * 52
    _assert_no_cards_logged(caplog, [event_from_dict(e) for e in dealt(tmp_path / "data")])


def test_alternating_packs_in_euchre_never_give_a_misdeal(tmp_path: Path) -> None:
    from laws.cards import Side

    with VirtualShoe("euchre", seed=3, packs=("A1", "B1")) as shoe:
        with LiveTable(tmp_path / "data", shoe.path, game="euchre") as table:
            for deal in (1, 2, 3):
                table.wait(_dealt_and_in_auction(deal))
                table.submit(ResultRecorded(tricks=3, makers=Side.NS))
    assert rulings(tmp_path / "data") == []
    packs = [e.get("pack") for e in dealt(tmp_path / "data")]
    assert packs == ["A1"] * 20 + ["B1"] * 20 + ["A1"] * 20


def test_restart_in_play_then_the_next_deal_starts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=12, packs=("A1", "B1")) as shoe:
        with LiveTable(data, shoe.path) as table:
            table.wait(_dealt_and_in_auction(1))
            table.submit(_lead(data, table), "camera")
            table.wait(lambda s: s.phase is Phase.PLAY)
        with LiveTable(data, shoe.path) as table:  # the shoe's "pack loaded" for deal 2 was acknowledged long ago
            assert table.state.phase is Phase.PLAY
            table.submit(_result())
            table.wait(_dealt_and_in_auction(2))
    assert rulings(data) == []


def test_restart_at_each_step_of_a_deal_goes_on(tmp_path: Path) -> None:
    """Restart right after the result (awaiting the shuffle), then again during the auction."""
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=13, packs=("A1", "B1")) as shoe:
        with LiveTable(data, shoe.path) as table:
            table.wait(_dealt_and_in_auction(1))
            table.submit(_result())
            table.wait(lambda s: s.deals_started == 2)
        with LiveTable(data, shoe.path) as table:
            table.wait(_dealt_and_in_auction(2))
        with LiveTable(data, shoe.path) as table:
            table.submit(_result())
            table.wait(_dealt_and_in_auction(3))
    assert rulings(data) == []
    assert len(dealt(data)) == 3 * 52


def test_a_full_disk_mid_deal_pauses_the_shoe_and_loses_no_card(tmp_path: Path) -> None:
    """The data folder fills up while the shoe deals: the table holds the cards, pauses the shoe (its
    ring of unacknowledged messages is finite), lights the fault lamp, and finishes the deal once the
    journal takes rows again."""
    import time

    from tests.table.test_journal_faults import _fill_disk, _free_disk

    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=14, packs=("A1", "B1"), gap_ms=30) as shoe:
        with LiveTable(data, shoe.path) as table:
            table.wait(lambda s: s.phase is Phase.DEALING and s.deal is not None and s.deal.cards_dealt >= 5)
            journal = table.table.journal
            with journal._lock:  # noqa: SLF001 - not in the middle of the controller's commit
                _fill_disk(journal)
            deadline = time.monotonic() + 20
            while not shoe.firmware.paused:  # the shoe's own thread: nothing to wait on but its state
                assert time.monotonic() < deadline, "the shoe was not paused"
                time.sleep(0.02)
            assert table.table.ctl.snapshot()["journal_fault"]
            with journal._lock:  # noqa: SLF001
                _free_disk(journal)
            table.wait(_dealt_and_in_auction(1))
        sent = [(c.card.code, c.pack) for c in shoe.dealt[:52]]
    assert [(e["card"], e.get("pack")) for e in dealt(data)] == sent
    assert rulings(data) == []


def test_a_host_stopped_while_the_shoe_is_paused_for_a_full_disk_resumes_it_at_its_restart(tmp_path: Path) -> None:
    """The pause is not journaled (nothing can be, that is why it was sent): a `cardtable run` killed while
    its journal was full left the shoe paused, and the restarted table, which saw the deal under way,
    waited for its cards for ever (found with a real run and a journal locked by another process). A
    restart in the middle of a deal sends RESUME, which a shoe that is not paused takes as ok."""
    import time

    from tests.table.test_journal_faults import _fill_disk

    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=16, packs=("A1", "B1"), gap_ms=30) as shoe:
        with LiveTable(data, shoe.path) as table:
            table.wait(lambda s: s.phase is Phase.DEALING and s.deal is not None and s.deal.cards_dealt >= 5)
            journal = table.table.journal
            with journal._lock:  # noqa: SLF001 - not in the middle of the controller's commit
                _fill_disk(journal)
            deadline = time.monotonic() + 20
            while not shoe.firmware.paused:  # the shoe's own thread: nothing to wait on but its state
                assert time.monotonic() < deadline, "the shoe was not paused"
                time.sleep(0.02)
        # the host is gone with the disk still full; a new one opens the journal, which has room again
        with LiveTable(data, shoe.path) as table:
            assert table.state.phase is Phase.DEALING
            table.wait(_dealt_and_in_auction(1), timeout=20)
        sent = [(c.card.code, c.pack) for c in shoe.dealt[:52]]
    assert [(e["card"], e.get("pack")) for e in dealt(data)] == sent
    assert rulings(data) == []


def test_restart_during_the_deal_and_before_it_goes_on_without_loss(tmp_path: Path) -> None:
    """Stop the host with the deal half out of the shoe (the rest is delivered to a restarted host from
    the shoe's ring), and again between the pack loaded and the cut."""
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=15, packs=("A1", "B1"), gap_ms=20) as shoe:
        with LiveTable(data, shoe.path) as table:
            table.wait(lambda s: s.phase is Phase.DEALING and s.deal is not None and s.deal.cards_dealt >= 10)
        with LiveTable(data, shoe.path) as table:
            table.wait(_dealt_and_in_auction(1))
            table.submit(_result())
            # the shuffles and the cut are three inputs in a row: the host dies after the first
            table.crash_when(lambda s: s.phase is Phase.SHUFFLE and bool(s.shuffles))
            assert table.state.phase is Phase.SHUFFLE and len(table.state.shuffles) == 1
        with LiveTable(data, shoe.path) as table:
            table.wait(_dealt_and_in_auction(2))
        sent = [(c.card.code, c.pack) for c in shoe.dealt[:104]]
    assert [(e["card"], e.get("pack")) for e in dealt(data)] == sent
    assert rulings(data) == []


def test_messages_committed_but_never_acknowledged_are_not_journaled_twice(tmp_path: Path) -> None:
    """A host that dies after its commits but before its ACKs: the shoe sends everything again to the
    restarted host, which resumes after the last message its journal holds and drops the rest."""
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=16, packs=("A1", "B1"), gap_ms=20) as shoe:
        # no ACK ever leaves, from the first message on: the shoe keeps every message
        with LiveTable(data, shoe.path, before=lambda t: setattr(t.ctl, "acknowledge", None)) as table:
            table.wait(lambda s: s.phase is Phase.DEALING and s.deal is not None and s.deal.cards_dealt >= 20)
        assert shoe.firmware.ring.oldest_seq() == 1  # all of it still in the shoe
        with LiveTable(data, shoe.path) as table:
            table.wait(_dealt_and_in_auction(1))
        sent = [(c.card.code, c.pack) for c in shoe.dealt[:52]]
    assert [(e["card"], e.get("pack")) for e in dealt(data)] == sent
    assert rulings(data) == []
