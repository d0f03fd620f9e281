"""Shoe messages the table once let pass without a row or a ruling, each driven through the real
``ShoeAdapter`` into a controller (no pty): what a third-party shoe built from hardware/shoe/PROTOCOL.md
alone may send, and what the journal must then hold before the shoe is acknowledged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.shoe import messages as m
from firmware_host.table.adapters import ShoeAdapter
from firmware_host.table.duplicate import TableRound
from laws.cards import Card, full_pack
from laws.state import Phase
from tests.table.duptable import records, table

PACK = full_pack()
RECS = records(2, seed=5)
SEATING = TableRound("A", 1, 1, "1", "2", (1, 2))
BOOT = 0x5EED


class FakeLink:
    """The shoe link's face to the procedure: what it was asked to send."""

    caught_up = True

    def __init__(self) -> None:
        self.sent: list[m.Command] = []

    def send(self, cmd: m.Command) -> m.Command:
        self.sent.append(cmd)
        return cmd


class Feed:
    """Numbered shoe messages through the adapter, the controller draining after each one."""

    def __init__(self, ctl: Any, *, boards: bool = False) -> None:
        self.ctl = ctl
        self.seq = 0
        self.acked: list[int] = []
        ctl.acknowledge = lambda boot, seq: self.acked.append(seq)
        self.adapter = ShoeAdapter(ctl.submit, lambda: 1.0, boot=lambda: BOOT, boards=boards)

    def __call__(self, make: Any, *args: Any, **kw: Any) -> Any:
        self.seq += 1
        msg = make(self.seq, *args, **kw)
        self.adapter(msg)
        self.ctl.drain()
        return msg


def _rows(j: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(r.kind, r.body) for r in j.rows()]


def _dup_board_begun(tmp_path: Path) -> tuple[Any, Any, Any, FakeLink, Feed]:
    link = FakeLink()
    ctl, proc, j = table(tmp_path / "j", RECS, SEATING, "shoe", link)
    feed = Feed(ctl, boards=True)
    feed(m.PackLoaded, "")
    (cmd,) = link.sent
    assert isinstance(cmd, m.DealBoard) and not cmd.placed
    feed(lambda seq: m.BoardBegan(seq, cmd.board, cmd.board_id, cmd.seats, frozenset(), "", answers=1))
    return ctl, proc, j, link, feed


def test_a_board_not_whole_naming_no_card_missing_is_dealt_again_from_empty_pockets(tmp_path: Path) -> None:
    """PROTOCOL.md 4.2: a reason other than 0 is not whole even with `missing` empty; 7.2: the pockets are
    then not known, the operator is told and the board is dealt again from empty pockets."""
    ctl, proc, j, link, feed = _dup_board_begun(tmp_path)
    board = RECS[1]
    for i, card in enumerate(PACK[:30], 1):
        feed(m.CardOut, i, board.deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    fin = feed(m.BoardFinished, 1, 0, 9, 0, False, frozenset(), "B7")
    assert feed.acked[-1] == fin.seq
    rows = _rows(j)
    (short,) = [b for k, b in rows if k == "event" and b["type"] == "board_short"]
    assert short["shoe"] == [BOOT, fin.seq] and "missing" not in short
    (ruling,) = [b for k, b in rows if k == "ruling"]
    assert ruling["clause"] == "DB-6" and ruling["remedy"] == "redeal" and "not known" in ruling["reason"]
    assert ctl.engine.state.deal is not None and ctl.engine.state.deal.void
    assert ctl.engine.state.phase is Phase.SHUFFLE
    feed(m.PackLoaded, "B7")                      # a whole pack in the well: the board again, nothing placed
    again = [c for c in link.sent if isinstance(c, m.DealBoard)]
    assert len(again) == 2 and again[1].board == 1 and again[1].placed == frozenset()


def test_a_board_not_whole_that_names_its_missing_cards_is_still_finished_from_the_pockets(tmp_path: Path) -> None:
    ctl, proc, j, link, feed = _dup_board_begun(tmp_path)
    board = RECS[1]
    for i, card in enumerate(PACK[:50], 1):
        feed(m.CardOut, i, board.deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    feed(m.BoardFinished, 1, 0, 2, 0, False, frozenset(PACK[50:]), "B7")
    rulings = [b for k, b in _rows(j) if k == "ruling"]
    assert [r["clause"] for r in rulings] == ["DB-14"]
    assert rulings[0]["missing"] == [c.code for c in PACK[50:]]
    assert isinstance(Card.parse(rulings[0]["missing"][0]), Card)
