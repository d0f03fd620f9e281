"""No boards: the table's shoe deals the round's board from its record (the virtual shoe on a real pty, a
real ShoeLink acknowledged after the journal commits, the controller in its own thread). Every card of
the board journaled at the seat its record gives it, the auction then; a pack short of cards leaves the
board not whole (DB-14) until the missing cards are in the well and the shoe finishes it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from firmware_host.records.journal import Journal
from firmware_host.shoe.link import ShoeLink
from firmware_host.shoe.simhw import PhysCard
from firmware_host.shoe.virtual import VirtualShoe
from firmware_host.table.adapters import ShoeAdapter, connect_shoe
from firmware_host.table.controller import TableController
from firmware_host.table.duplicate import DuplicateProcedure, TableRound
from laws.cards import SEATS, Card
from laws.state import Phase
from tests.table.duptable import records
from tests.table.test_controller import Clock

RECS = records(2, seed=9)
SEATING = TableRound("A", 2, 1, "1", "9", (1, 2))
REJECT = 5


class Rig:
    def __init__(self, folder: Path, shoe: VirtualShoe) -> None:
        self.shoe = shoe
        self.journal = Journal.open(folder / "data")
        self.ctl = TableController(game="duplicate-bridge", journal=self.journal, panel=None, clock=Clock())
        adapter = ShoeAdapter(self.ctl.submit, time.time, boards=True)
        self.link = ShoeLink(shoe.path, adapter, backoff=(0.01, 0.1), auto_ack=False)
        connect_shoe(self.ctl, self.link, adapter)
        self.proc = DuplicateProcedure(self.ctl, RECS, SEATING, "shoe", self.link)
        self.proc.resume()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.ctl.run, args=(self.stop,), daemon=True)

    def start(self) -> Rig:
        self.thread.start()
        self.link.start()
        return self

    def wait(self, pred, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
        end = time.monotonic() + timeout
        while not pred():
            assert time.monotonic() < end, f"timed out in phase {self.ctl.engine.state.phase}"
            time.sleep(0.02)

    def close(self) -> None:
        self.link.stop()
        self.stop.set()
        self.thread.join(5)
        self.shoe.close()
        self.journal.close()


def _dealt(j: Journal) -> list[tuple[str, str]]:
    return [(r.body["seat"], r.body["card"]) for r in j.rows() if r.kind == "event" and r.body["type"] == "card_dealt"]


def test_the_tables_shoe_deals_the_board_from_its_record_and_the_auction_follows(tmp_path: Path) -> None:
    shoe = VirtualShoe("contract-bridge", 51, directory=str(tmp_path))
    shoe.open()
    rig = Rig(tmp_path, shoe).start()
    try:
        rig.wait(lambda: rig.ctl.engine.state.phase is Phase.AUCTION)
        pockets = shoe.pockets
    finally:
        rig.close()
    board = RECS[1]
    with Journal.open_readonly(tmp_path / "data") as j:
        dealt = _dealt(j)
        rulings = [r.body for r in j.rows() if r.kind == "ruling"]
        starts = [r.body for r in j.rows() if r.kind == "event" and r.body["type"] == "deal_start"]
    assert len(dealt) == 52 and all(board.deal.holder(Card.parse(c)).value == s for s, c in dealt)
    assert [s["dealer"] for s in starts] == [board.dealer.value] and rulings == []
    assert all(board.deal.holder(p.card) is SEATS[dest] for dest, cards in pockets.items() for p in cards)
    assert rig.ctl.engine.state.deal.bridge.known is not None      # type: ignore[union-attr]  (hands known as dealt)


def test_a_pack_short_of_cards_leaves_the_board_not_whole_until_the_cards_are_found(tmp_path: Path) -> None:
    shoe = VirtualShoe("contract-bridge", 52, ["missing@30"], directory=str(tmp_path), reload=False)
    shoe.open()
    rig = Rig(tmp_path, shoe).start()
    try:
        rig.wait(lambda: any(r.kind == "ruling" and r.body["clause"] == "DB-14" for r in rig.journal.rows()))
        state = rig.ctl.engine.state
        assert state.phase is Phase.DEALING and state.deal is not None and not state.deal.ended
        (short,) = [r.body for r in rig.journal.rows() if r.kind == "ruling"]
        missing = [Card.parse(c) for c in short["missing"]]
        assert len(missing) == 1 and short["board"] == 1
        shoe.put([PhysCard(c, "A1") for c in missing])               # found: into the well
        rig.wait(lambda: rig.ctl.engine.state.phase is Phase.AUCTION)
    finally:
        rig.close()
    board = RECS[1]
    with Journal.open_readonly(tmp_path / "data") as j:
        dealt = _dealt(j)
        notes = [r.body for r in j.rows() if r.kind == "note"]
    assert len(dealt) == 52 and len({c for _, c in dealt}) == 52
    assert all(board.deal.holder(Card.parse(c)).value == s for s, c in dealt)
    assert any("the shoe goes on with 51 cards already in their pockets" in str(n.get("text")) for n in notes)


def test_a_whole_board_with_a_card_left_in_the_shoe_calls_the_director_and_stands(tmp_path: Path) -> None:
    """The virtual shoe's ``surplus``: a second copy of a card under the pack. The shoe places the board's 52
    and stops with that card in its well (BOARD_FINISHED whole, ``left_in_shoe`` 1): a card not of the
    deal (DB-13), removed; the board is right, so the auction follows, with the director called. Before,
    the table said nothing and the card stayed in the shoe under the next board's pack."""
    shoe = VirtualShoe("contract-bridge", 51, ["surplus@12"], directory=str(tmp_path))
    shoe.open()
    rig = Rig(tmp_path, shoe).start()
    try:
        rig.wait(lambda: rig.ctl.engine.state.phase is Phase.AUCTION)
    finally:
        rig.close()
    with Journal.open_readonly(tmp_path / "data") as j:
        rows = [(r.kind, r.body) for r in j.rows()]
    (end,) = [b for k, b in rows if k == "event" and b["type"] == "deal_end"]
    assert end["left_in_shoe"] is True and len(_dealt_rows(rows)) == 52
    (r,) = [b for k, b in rows if k == "ruling"]
    assert (r["clause"], r["remedy"], r["law"], r["board"]) == ("DB-13", "attention", "Duplicate Bridge, law 13", 1)
    assert "take it out of the shoe and look at it" in r["reason"] and "The board stands" in r["reason"]
    at = rows.index(("ruling", r))
    kind, lamps = rows[at + 1]                          # its lamps, committed with it
    assert kind == "lamp" and all(lamps[f"attention_{s.value}"] for s in SEATS) and not lamps["redeal"]


def _dealt_rows(rows: list[tuple[str, dict]]) -> list[dict]:
    return [b for k, b in rows if k == "event" and b["type"] == "card_dealt"]


def test_a_table_restarted_while_its_shoe_deals_the_board_follows_it_and_deals_it_once(tmp_path: Path) -> None:
    shoe = VirtualShoe("contract-bridge", 53, directory=str(tmp_path), gap_ms=25)
    shoe.open()
    rig = Rig(tmp_path, shoe).start()
    try:
        rig.wait(lambda: len(_dealt(rig.journal)) >= 12)
    finally:
        rig.link.stop()                                  # the host stops mid-board; the shoe deals on
        rig.stop.set()
        rig.thread.join(5)
        rig.journal.close()
    again = Rig(tmp_path, shoe).start()
    try:
        again.wait(lambda: again.ctl.engine.state.phase is Phase.AUCTION)
    finally:
        again.close()
    board = RECS[1]
    with Journal.open_readonly(tmp_path / "data") as j:
        dealt = _dealt(j)
        starts = [r.body for r in j.rows() if r.kind == "event" and r.body["type"] == "deal_start"]
    assert len(dealt) == 52 and len({c for _, c in dealt}) == 52 and len(starts) == 1
    assert all(board.deal.holder(Card.parse(c)).value == s for s, c in dealt)
    assert shoe.deals == 1                                # the board was never sent a second time


def test_a_missing_card_found_in_the_next_pack_finishes_the_board_with_no_error(tmp_path: Path) -> None:
    """The dealer loads the next whole pack after the short deal (``reload``): the shoe, sent the board
    again with 51 cards placed, rejects the cards already in pockets and places the missing one when it
    comes (law 14: a card of another pack of the same back). Once that card is placed nothing is left to
    deal: the table must not send the board a third time (it did, with all 52 marked placed, and the
    refusal of ``deal_board`` was journaled as an error: seen in the duplicate soak with session faults)."""
    shoe = VirtualShoe("contract-bridge", 52, ["missing@30"], directory=str(tmp_path))
    shoe.open()
    rig = Rig(tmp_path, shoe).start()
    try:
        rig.wait(lambda: rig.ctl.engine.state.phase is Phase.AUCTION)
    finally:
        rig.close()
    board = RECS[1]
    with Journal.open_readonly(tmp_path / "data") as j:
        dealt = _dealt(j)
        notes = [r.body for r in j.rows() if r.kind == "note"]
        rulings = [r.body["clause"] for r in j.rows() if r.kind == "ruling"]
    assert rulings == ["DB-14"]
    assert len(dealt) == 52 and len({c for _, c in dealt}) == 52
    assert all(board.deal.holder(Card.parse(c)).value == s for s, c in dealt)
    assert [n for n in notes if "error" in n] == []
