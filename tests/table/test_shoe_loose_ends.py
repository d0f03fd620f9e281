"""Shoe messages the table once let pass without a row or a ruling, each driven through the real
``ShoeAdapter`` into a controller (no pty): what a third-party shoe built from hardware/shoe/PROTOCOL.md
alone may send, and what the journal must then hold before the shoe is acknowledged."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_host.shoe import messages as m
from firmware_host.table.adapters import ShoeAdapter
from firmware_host.table.controller import SessionInput
from firmware_host.table.duplicate import TableRound
from laws.cards import Card, Seat, full_pack
from laws.state import Phase
from tests.table.duptable import records, run, table

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


def _aborts(link: FakeLink) -> list[m.Command]:
    return [c for c in link.sent if isinstance(c, m.Abort)]


def test_a_board_voided_while_the_shoe_deals_it_is_stopped_once(tmp_path: Path) -> None:
    """The module's promise (table/duplicate.py, "a board voided while the shoe deals it is stopped"): a
    card in the wrong pocket voids the board (DB-6) with the shoe a fifth of the way through it. No ABORT
    went out (the check compared the deal with the count of deals before it began), so the shoe dealt the
    void board to its end before it could be dealt again."""
    ctl, proc, j, link, feed = _dup_board_begun(tmp_path)
    board = RECS[1]
    for i, card in enumerate(PACK[:9], 1):
        feed(m.CardOut, i, board.deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    wrong = next(s for s in Seat if s is not board.deal.holder(PACK[9]))
    feed(m.CardOut, 10, wrong, False, PACK[9], m.Orientation.DOWN, 90, "B7", board=1)
    assert ctl.engine.state.deal is not None and ctl.engine.state.deal.void
    assert len(_aborts(link)) == 1 and isinstance(link.sent[-1], m.Abort)
    feed(m.BoardFinished, 1, 0, m.FinishReason.ABORTED, 0, False, frozenset(PACK[10:]), "B7")
    feed(m.PackLoaded, "B7")                      # the board again, from empty pockets; no second ABORT
    assert [type(c).__name__ for c in link.sent] == ["DealBoard", "Abort", "DealBoard"]
    j.close()


def _session_seating(left: tuple[int, ...], seq: int) -> dict[str, Any]:
    return {"kind": "seating", "table": "t1", "section": "A", "table_number": 1, "round": 1, "called": 1,
            "rounds": 3, "seq": seq, "t": 0.0, "ns": "1", "ew": "2", "left": list(left),
            "boards": [{"board": n, "record": RECS[n].fingerprint} for n in (1, 2)]}


def test_a_board_abandoned_while_the_shoe_deals_it_stops_the_shoe_before_the_next_board(tmp_path: Path) -> None:
    """docs/session.md, "A result without a working table": the director entered board 1 by hand while
    the table's shoe was dealing it. The table abandoned the board (its cards no longer taken) but sent
    the shoe nothing: the shoe dealt a board the table had given up to its last card, and the next board
    waited behind it. The table sends ABORT (PROTOCOL.md: the shoe stops and says which cards it did not
    place), once, and only then deals board 2."""
    link = FakeLink()
    ctl, proc, j = table(tmp_path / "j", RECS, None, "shoe", link, source="session")
    run(ctl, SessionInput(_session_seating((1, 2), 1)))
    feed = Feed(ctl, boards=True)
    feed(m.PackLoaded, "")
    (cmd,) = link.sent
    assert isinstance(cmd, m.DealBoard) and cmd.board == 1
    feed(lambda seq: m.BoardBegan(seq, cmd.board, cmd.board_id, cmd.seats, frozenset(), "", answers=1))
    board = RECS[1]
    for i, card in enumerate(PACK[:12], 1):
        feed(m.CardOut, i, board.deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    assert ctl.engine.state.phase is Phase.DEALING and _aborts(link) == []
    run(ctl, SessionInput(_session_seating((2,), 2)))   # board 1 entered by hand meanwhile
    while ctl.drain():
        pass
    assert [b["type"] for k, b in _rows(j) if k == "event"][-2:] == ["board_abandoned", "board"]
    assert [type(c).__name__ for c in link.sent] == ["DealBoard", "Abort"]
    feed(m.BoardFinished, 1, 0, m.FinishReason.ABORTED, 0, False, frozenset(PACK[12:]), "B7")
    feed(m.PackLoaded, "B7")                           # the pockets emptied, the pack back in the well
    assert [type(c).__name__ for c in link.sent] == ["DealBoard", "Abort", "DealBoard"]
    assert link.sent[-1].board == 2
    j.close()


class DyingLink(FakeLink):
    """A link whose host dies once ``dead`` is set: whatever it is asked to send after that never leaves
    (the journal holds what was committed before, as after kill -9)."""

    dead = False

    def send(self, cmd: m.Command) -> m.Command:
        if not self.dead:
            self.sent.append(cmd)
        return cmd


def _voided_then_killed(tmp_path: Path, *, finished: bool) -> tuple[Feed, Path]:
    """Board 1 dealt by the shoe, a card to the wrong pocket voiding it (DB-6), the host killed before
    the ABORT left; ``finished``: the shoe's BOARD_FINISHED journaled before the kill."""
    link = DyingLink()
    ctl, proc, j = table(tmp_path / "j", RECS, SEATING, "shoe", link)
    feed = Feed(ctl, boards=True)
    feed(m.PackLoaded, "")
    (cmd,) = link.sent
    feed(lambda seq: m.BoardBegan(seq, cmd.board, cmd.board_id, cmd.seats, frozenset(), "", answers=1))
    board = RECS[1]
    for i, card in enumerate(PACK[:9], 1):
        feed(m.CardOut, i, board.deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    link.dead = True                              # the void is committed; the ABORT after it never goes
    wrong = next(s for s in Seat if s is not board.deal.holder(PACK[9]))
    feed(m.CardOut, 10, wrong, False, PACK[9], m.Orientation.DOWN, 90, "B7", board=1)
    assert ctl.engine.state.deal is not None and ctl.engine.state.deal.void
    if finished:
        feed(m.BoardFinished, 1, 0, m.FinishReason.COMPLETE, 0, False, frozenset(), "B7")
    assert [type(c).__name__ for c in link.sent] == ["DealBoard"]
    j.close()
    return feed, tmp_path / "j"


def _restarted(folder: Path, seq: int, *, caught_up: bool = True) -> tuple[Any, FakeLink, Feed, Any]:
    link = FakeLink()
    link.caught_up = caught_up
    ctl, proc, j = table(folder, RECS, SEATING, "shoe", link)
    feed = Feed(ctl, boards=True)
    feed.seq = seq                                # the shoe numbers on from where the journal stopped
    return ctl, link, feed, j


def test_a_table_killed_between_voiding_a_deal_and_its_abort_stops_the_shoe_when_it_starts(tmp_path: Path) -> None:
    """docs/ordering.md, "Restart": the host died after a card in the wrong pocket voided board 1 (DB-6)
    and before the ABORT for it went out. Restarted, it sent nothing: the shoe dealt the void board to its
    last card (the journal says the deal is void and the shoe never said it finished). It sends ABORT as
    it starts, once, then deals the board again from empty pockets with the next pack."""
    old, folder = _voided_then_killed(tmp_path, finished=False)
    ctl, link, feed, j = _restarted(folder, old.seq)
    assert [type(c).__name__ for c in link.sent] == ["Abort"]
    feed(m.BoardFinished, 1, 0, m.FinishReason.ABORTED, 0, False, frozenset(PACK[10:]), "B7")
    feed(m.PackLoaded, "B7")
    assert [type(c).__name__ for c in link.sent] == ["Abort", "DealBoard"] and link.sent[-1].board == 1
    j.close()


def test_a_restart_sends_no_abort_for_a_void_deal_the_shoe_said_it_finished(tmp_path: Path) -> None:
    """The shoe's BOARD_FINISHED of the void board is in the journal (the engine ignored it, the deal being
    void): the shoe is idle, so a restart sends it no ABORT, and the board is dealt again at the next pack."""
    old, folder = _voided_then_killed(tmp_path, finished=True)
    ctl, link, feed, j = _restarted(folder, old.seq)
    assert link.sent == []
    feed(m.PackLoaded, "B7")
    assert [type(c).__name__ for c in link.sent] == ["DealBoard"]
    j.close()


def test_a_restart_waits_for_what_the_shoe_sent_meanwhile_before_it_stops_a_void_deal(tmp_path: Path) -> None:
    """Before the link has caught up, the shoe's ring may still hold its end of the void board (it finished
    while the host was down): the table waits for it, and then has nothing to stop."""
    old, folder = _voided_then_killed(tmp_path, finished=False)
    ctl, link, feed, j = _restarted(folder, old.seq, caught_up=False)
    assert link.sent == []
    feed(m.BoardFinished, 1, 0, m.FinishReason.COMPLETE, 0, False, frozenset(), "B7")   # caught up now
    link.caught_up = True
    feed(m.PackLoaded, "B7")
    assert [type(c).__name__ for c in link.sent] == ["DealBoard"]
    j.close()


def test_a_table_killed_after_losing_messages_of_a_board_stops_the_shoe_when_it_starts(tmp_path: Path) -> None:
    """Messages of board 1 lost on the link ended it (`board_short` `lost`, DB-6) and the host died before
    the ABORT for it left. The restart took the table's own `board_short` for the shoe's end of the board
    and sent nothing: the shoe, which had not stopped, dealt the void board to its last card. A `lost`
    end is the table's, not the shoe's: the restart stops the shoe, and deals the board again after."""
    link = DyingLink()
    ctl, proc, j = table(tmp_path / "j", RECS, SEATING, "shoe", link)
    feed = Feed(ctl, boards=True)
    feed(m.PackLoaded, "")
    (cmd,) = link.sent
    feed(lambda seq: m.BoardBegan(seq, cmd.board, cmd.board_id, cmd.seats, frozenset(), "", answers=1))
    for i, card in enumerate(PACK[:30], 1):
        feed(m.CardOut, i, RECS[1].deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    link.dead = True                              # the loss is committed; the ABORT after it never goes
    feed.adapter(m.MessagesLost(BOOT, feed.seq + 1, feed.seq + 10))
    ctl.drain()
    assert ctl.engine.state.deal is not None and ctl.engine.state.deal.void
    j.close()
    ctl, link, feed, j = _restarted(tmp_path / "j", feed.seq + 10)
    assert [type(c).__name__ for c in link.sent] == ["Abort"]
    feed(m.BoardFinished, 1, 0, m.FinishReason.ABORTED, 0, False, frozenset(PACK[45:]), "B7")
    feed(m.PackLoaded, "B7")
    assert [type(c).__name__ for c in link.sent] == ["Abort", "DealBoard"] and link.sent[-1].placed == frozenset()
    j.close()


def test_a_table_killed_after_abandoning_a_board_its_shoe_deals_stops_the_shoe_when_it_starts(tmp_path: Path) -> None:
    """The director entered board 1 by hand while the shoe dealt it; the table abandoned it and died before
    the ABORT went out. Restarted, it stops the shoe first, and deals board 2 only at the next pack."""
    link = DyingLink()
    ctl, proc, j = table(tmp_path / "j", RECS, None, "shoe", link, source="session")
    run(ctl, SessionInput(_session_seating((1, 2), 1)))
    feed = Feed(ctl, boards=True)
    feed(m.PackLoaded, "")
    (cmd,) = link.sent
    feed(lambda seq: m.BoardBegan(seq, cmd.board, cmd.board_id, cmd.seats, frozenset(), "", answers=1))
    for i, card in enumerate(PACK[:12], 1):
        feed(m.CardOut, i, RECS[1].deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    link.dead = True
    run(ctl, SessionInput(_session_seating((2,), 2)))   # board 1 entered by hand meanwhile
    while ctl.drain():
        pass
    assert "board_abandoned" in [b["type"] for k, b in _rows(j) if k == "event"]
    j.close()
    link = FakeLink()
    ctl, proc, j = table(tmp_path / "j", RECS, None, "shoe", link, source="session")
    assert [type(c).__name__ for c in link.sent] == ["Abort"]
    again = Feed(ctl, boards=True)
    again.seq = feed.seq
    again(m.BoardFinished, 1, 0, m.FinishReason.ABORTED, 0, False, frozenset(PACK[12:]), "B7")
    again(m.PackLoaded, "B7")
    assert [type(c).__name__ for c in link.sent] == ["Abort", "DealBoard"] and link.sent[-1].board == 2
    j.close()


def _hello(boot: int) -> m.Hello:
    return m.Hello(0, 1, 2, boot, 0, 0x7F, 128, "audit", "1.2.0")


def _bridge_table(tmp_path: Path) -> tuple[Any, Any, Feed]:
    from firmware_host.records.journal import Journal
    from firmware_host.table.controller import TableController
    from tests.table.test_controller import Clock

    j = Journal.open(tmp_path / "j")
    ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock())
    return ctl, j, Feed(ctl)


def _deal_cards(feed: Feed, n: int, *, dealer: Any = None) -> None:
    from laws.cards import Seat

    feed(m.DealBegan, dealer or Seat.N, 0, (1,) * 13, "A1", answers=1)
    seats = [Seat.E, Seat.S, Seat.W, Seat.N]
    for i, card in enumerate(PACK[:n], 1):
        feed(m.CardOut, i, seats[(i - 1) % 4], False, card, m.Orientation.DOWN, 90, "A1")


def test_a_shoe_restarted_mid_deal_ends_the_deal_with_a_note_and_the_laws_ruling(tmp_path: Path) -> None:
    """PROTOCOL.md 6.3: after the shoe restarts no deal is going on. The table journals the restart and
    ends the deal there, as a deal the shoe stopped: the laws rule on the 20 cards (a redeal)."""
    ctl, j, feed = _bridge_table(tmp_path)
    _deal_cards(feed, 20)
    assert ctl.engine.state.phase is Phase.DEALING
    feed.adapter(m.ShoeRestarted(BOOT, 0xB007, _hello(0xB007)))
    ctl.drain()
    rows = _rows(j)
    (note,) = [b for k, b in rows if k == "note" and "shoe_restarted" in b]
    assert note["shoe_restarted"] == [BOOT, 0xB007] and "restarted" in note["text"]
    after = rows[rows.index(("note", note)):]
    assert [b["type"] for k, b in after if k == "event"] == ["deal_end"]
    rulings = [b for k, b in after if k == "ruling"]
    assert (rulings[-1]["remedy"], rulings[-1]["clause"]) == ("redeal", "CB-redeal-incorrect")
    assert ctl.engine.state.phase is not Phase.DEALING


def test_a_shoe_restarted_between_deals_is_only_noted(tmp_path: Path) -> None:
    ctl, j, feed = _bridge_table(tmp_path)
    feed.adapter(m.ShoeRestarted(BOOT, 0xB007, _hello(0xB007)))
    ctl.drain()
    kinds = [(k, sorted(b)) for k, b in _rows(j)[1:]]
    assert kinds == [("note", ["device", "shoe_restarted", "text"])]


def test_a_shoe_restarted_mid_board_leaves_it_short_of_the_cards_not_seen_placed(tmp_path: Path) -> None:
    """PROTOCOL.md 7.1: that board never got its BOARD_FINISHED: not whole; the host finishes it with
    the cards it saw placed (DB-14, then DEAL_BOARD with them placed once a pack is in the well)."""
    ctl, proc, j, link, feed = _dup_board_begun(tmp_path)
    board = RECS[1]
    for i, card in enumerate(PACK[:30], 1):
        feed(m.CardOut, i, board.deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    feed.adapter(m.ShoeRestarted(BOOT, 0xB007, _hello(0xB007)))
    ctl.drain()
    rows = _rows(j)
    (short,) = [b for k, b in rows if k == "event" and b["type"] == "board_short"]
    assert short["missing"] == [c.code for c in PACK[30:]]
    assert [b["clause"] for k, b in rows if k == "ruling"] == ["DB-14"]
    feed.seq = 0
    feed(m.PackLoaded, "B7")
    again = [c for c in link.sent if isinstance(c, m.DealBoard)]
    assert len(again) == 2 and again[1].placed == frozenset(PACK[:30])


def test_a_card_outside_a_deal_is_journaled_before_the_shoe_is_acknowledged(tmp_path: Path) -> None:
    """PROTOCOL.md 7: a card with index 0 and seat 255 goes to no seat; the reference host passes it on
    so the controller can log it (or a director can rule on it); docs/ordering.md: rows before the ACK."""
    ctl, j, feed = _bridge_table(tmp_path)
    before = len(_rows(j))
    out = feed(m.CardOut, 0, None, False, Card.parse("AS"), m.Orientation.DOWN, 90, "A1")
    rows = _rows(j)[before:]
    assert feed.acked == [out.seq]
    (note,) = [b for k, b in rows if k == "note"]
    assert note["shoe"] == [BOOT, out.seq] and "outside a deal" in note["text"] and "ace of spades" in note["text"]
    assert not [b for k, b in rows if k == "event"]         # no seat's: nothing for the laws
    feed(m.CardOut, 0, None, False, None, m.Orientation.UP, 0, "")
    assert "an unreadable card" in _rows(j)[-1][1]["text"]


def test_a_card_out_that_cannot_be_read_is_journaled_and_counted_as_an_unreadable_card(tmp_path: Path) -> None:
    """PROTOCOL.md 5: a numbered message that cannot be read uses up its number (skipped, counted,
    logged). The journal says so before the ACK, and a CARD_OUT of the deal being dealt is the deal's
    next card, unreadable, at the seat the pattern gives it: card 11 is not ruled out of rotation."""
    from laws.cards import Seat

    ctl, j, feed = _bridge_table(tmp_path)
    _deal_cards(feed, 9)
    skipped = feed(m.Skipped, int(m.MsgType.CARD_OUT), "seat code 7 is not a seat")
    assert feed.acked[-1] == skipped.seq
    tail = _rows(j)[-4:]
    note = next(b for k, b in tail if k == "note")
    assert note["shoe"] == [BOOT, skipped.seq] and f"message {skipped.seq}" in note["text"]
    assert "could not be read" in note["text"] and "card 10" in note["text"]
    dealt = [b for k, b in tail if k == "event"]
    assert [(b["type"], b["seat"], b.get("card")) for b in dealt] == [("card_dealt", "S", None)]
    (ruling,) = [b for k, b in tail if k == "ruling"]     # the laws' unreadable card, not card 11's rotation
    assert ruling["clause"] == "CB-pack-damaged" and "South could not be read" in ruling["reason"]
    seats = [Seat.E, Seat.S, Seat.W, Seat.N]
    before = len(_rows(j))
    for i in range(11, 14):
        feed(m.CardOut, i, seats[(i - 1) % 4], False, PACK[i], m.Orientation.DOWN, 90, "A1")
    assert not [b for k, b in _rows(j)[before:] if k == "ruling"]


def test_a_message_that_cannot_be_read_outside_a_deal_is_a_note(tmp_path: Path) -> None:
    ctl, j, feed = _bridge_table(tmp_path)
    skipped = feed(m.Skipped, 0x7E, "unknown message type 0x7e")
    assert feed.acked == [skipped.seq]
    (row,) = _rows(j)[1:]
    assert row[0] == "note" and "0x7e" in row[1]["text"] and row[1]["shoe"] == [BOOT, skipped.seq]


def test_a_button_of_an_unknown_kind_is_a_note_not_a_demand(tmp_path: Path) -> None:
    """PROTOCOL.md 4.2: unknown BUTTON kinds are passed on as numbers; the table notes the seat and the
    number instead of taking the press for a call for attention."""
    from laws.cards import Seat

    ctl, j, feed = _bridge_table(tmp_path)
    press = feed(m.ButtonPressed, Seat.E, 9)
    rows = _rows(j)[1:]
    assert feed.acked == [press.seq]
    assert [k for k, _ in rows] == ["note"] and "unknown kind 9" in rows[0][1]["text"] and " E" in rows[0][1]["text"]
    feed(m.ButtonPressed, Seat.E, 1)        # a known kind is still a demand
    assert any(k == "event" and b["type"] == "demand" for k, b in _rows(j))


def test_the_card_in_the_exit_when_a_deal_is_stopped_is_not_a_warning(tmp_path: Path, caplog: Any) -> None:
    """PROTOCOL.md 4.3: a card already in the exit when the ABORT arrives leaves after DEAL_FINISHED
    (reason 1) as a card outside a deal. That is how a stopped shoe ends (``make demo`` printed it as a
    warning after a redeal): journaled as before, logged at INFO; a second stray card is a warning."""
    import logging

    ctl, j, feed = _bridge_table(tmp_path)
    _deal_cards(feed, 8)
    feed(m.DealFinished, m.FinishReason.ABORTED, 8, True, answers=1)
    with caplog.at_level(logging.INFO, logger="firmware_host.table.controller"):
        feed(m.CardOut, 0, None, False, Card.parse("AS"), m.Orientation.DOWN, 90, "A1")
        feed(m.CardOut, 0, None, False, Card.parse("KS"), m.Orientation.DOWN, 90, "A1")
    said = [(r.levelname, r.getMessage()) for r in caplog.records if "outside a deal" in r.getMessage()]
    assert [level for level, _ in said] == ["INFO", "WARNING"], said
    assert "after the deal was stopped" in said[0][1] and "ace of spades" in said[0][1]
    notes = [b["text"] for k, b in _rows(j) if k == "note" and "outside a deal" in str(b.get("text"))]
    assert len(notes) == 2                                    # both journaled, for the director


def test_a_card_rejected_during_a_board_is_journaled_by_name_and_logged_without_it(tmp_path: Path,
                                                                                   caplog: Any) -> None:
    """Audit a4, finding 1: a card rejected as already placed is a card of the open board (its twin is in
    a pocket); the WARNING named it. docs/ordering.md: no log line names a card of an open deal. The
    journal, where the director reads it, still does."""
    import logging
    import re

    ctl, proc, j, link, feed = _dup_board_begun(tmp_path)
    card = PACK[0]
    feed(m.CardOut, 1, RECS[1].deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    with caplog.at_level(logging.DEBUG):
        rej = feed(m.CardRejected, 1, m.RejectReason(3), card, m.Orientation.DOWN, 90, "B7")
    assert feed.acked[-1] == rej.seq
    note = _rows(j)[-1][1]
    assert note["shoe"] == [BOOT, rej.seq] and card.name in note["text"]
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "rejected a card (reason 3)" in text
    assert not re.search(rf"\b{card.code}\b|{card.name}", text, re.I), text


def _restarted_host(j: Any, hello: m.Hello) -> tuple[Any, list[Any]]:
    """A host started again on journal ``j``: a controller, and its shoe link resumed where the journal
    says (as ``connect_shoe`` does) hearing the shoe's HELLO. Returns the controller and what the link
    delivered."""
    from firmware_host.shoe import codec
    from firmware_host.shoe.session import ShoeSession
    from firmware_host.table.controller import TableController
    from tests.table.test_controller import Clock

    ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock())
    link = ShoeSession(session_id=9)
    assert ctl.shoe_mark is not None and ctl.shoe_mark[0] is not None
    link.resume(ctl.shoe_mark[0], ctl.shoe_mark[1])
    link.connection_made(0.0)
    events, _ = link.receive(codec.encode(hello), 0.1)
    adapter = ShoeAdapter(ctl.submit, lambda: 1.0, boot=lambda: link.boot_id)
    for ev in events:
        adapter(ev)
    ctl.drain()
    return ctl, events


def test_a_shoe_restart_is_noted_once_whenever_the_table_is_killed(tmp_path: Path) -> None:
    """Audit a4, finding 3: the note of the shoe's restart and the deal_end ending its deal were two
    commits. Killed between them (here: the second commit fails, then the process is gone), the next
    start heard the shoe's new boot again and noted the restart twice. They are one commit now, and a
    restart resumes the link on the new boot the journal names, so even killed after both (before any
    message of the new boot) the shoe's HELLO is no news: one note, one deal_end."""
    from firmware_host.records.journal import JournalError

    new = 0xB007
    ctl, j, feed = _bridge_table(tmp_path)
    _deal_cards(feed, 20)
    real, calls = j.append_many, []

    def fails_second(rows: Any) -> Any:     # the disk fills between the two commits the table once made
        calls.append(rows)
        if len(calls) == 2:
            raise JournalError("disk I/O error")
        return real(rows)

    j.append_many = fails_second
    feed.adapter(m.ShoeRestarted(BOOT, new, _hello(new)))
    ctl.drain()
    j.append_many = real                    # the process dies here; the journal is what it holds
    hello = replace(_hello(new), seq=0)
    ctl, events = _restarted_host(j, hello)
    notes = [b for k, b in _rows(j) if k == "note" and "shoe_restarted" in b]
    ends = [b for k, b in _rows(j) if k == "event" and b["type"] == "deal_end"]
    assert len(notes) == 1 and len(ends) == 1, (notes, ends)
    assert ctl.engine.state.phase is not Phase.DEALING
    ctl, events = _restarted_host(j, hello)    # killed again, before any message of the new boot
    assert not [e for e in events if isinstance(e, m.ShoeRestarted)]
    assert len([b for k, b in _rows(j) if k == "note" and "shoe_restarted" in b]) == 1
    assert ctl.shoe_mark == (new, 0)


def test_a_reply_is_acknowledged_only_with_a_row_a_restart_resumes_after(tmp_path: Path) -> None:
    """The shoe's REPLY to START_DEAL gives the table no row, yet it was acknowledged at once: the journal's
    last mark stayed on the deal's start (58 in test_two_packs), the shoe forgot the REPLY (59), and a
    table restarted right after the deal began heard from the shoe's HELLO that 59 was gone: the journal
    said "message 59 lost on the link" for a message the table itself had let go (and a table that ends
    the deal under way as lost would have redealt: the revert of 9f44ba9). The shoe is acknowledged only
    up to the last message the journal holds: it keeps the REPLY until a later row covers it."""
    ctl, j, feed = _bridge_table(tmp_path)
    _deal_cards(feed, 0)                                      # 1: DEAL_BEGAN, journaled as deal_start
    feed(m.Reply, 1, m.Status.OK, "")                         # 2: the REPLY to START_DEAL: no row
    # the shoe deals on while the host is down (3); its ring holds what was not acknowledged
    hello = replace(_hello(BOOT), seq=3, oldest_held=max(feed.acked) + 1)
    ctl, events = _restarted_host(j, hello)
    assert not [e for e in events if isinstance(e, m.MessagesLost)]
    assert not [b for k, b in _rows(j) if k == "note" and "lost on the link" in b.get("text", "")]
    assert ctl.engine.state.phase is Phase.DEALING and not ctl.engine.state.deal.void   # type: ignore[union-attr]
    assert max(feed.acked) == 1                               # the REPLY waits in the shoe for a row


def test_messages_lost_on_the_link_mid_deal_are_journaled_and_end_the_deal_as_lost(tmp_path: Path) -> None:
    """Audit a4, finding 4: the shoe's ring overwrote cards 20-29 (ERROR 4) before the host got them. The
    journal held only the shoe's `error 4: ring full` (the lost numbers were only in the log) and the laws
    ruled "Card 20 went to South, a card out of rotation" on card 30. The journal now names the lost
    messages and, in the same commit, ends the deal as lost: a redeal that says why."""
    ctl, j, feed = _bridge_table(tmp_path)
    _deal_cards(feed, 19)
    before = len(_rows(j))
    feed.adapter(m.MessagesLost(BOOT, 22, 31))
    ctl.drain()
    assert feed.acked[-1] == 31
    rows = _rows(j)[before:]
    note, end = rows[0][1], rows[1][1]
    assert rows[0][0] == "note" and note["text"].startswith("messages 22-31 lost on the link")
    assert "after the 19 cards the table saw" in note["text"] and "shoe" not in note
    assert rows[1][0] == "event" and end["type"] == "deal_end" and end["lost"] is True
    assert end["shoe"] == [BOOT, 31]             # used up: a restart resumes after them
    (ruling,) = [b for k, b in rows if k == "ruling" and b["remedy"] == "redeal"]
    assert ruling["clause"] == "CB-redeal-incorrect"
    assert "lost on the link" in ruling["reason"] and "out of rotation" not in ruling["reason"]
    # the shoe's next card of that deal (card 30, to South) is noted ignored, not ruled
    feed.seq = 33
    feed(m.CardOut, 30, Seat.S, False, PACK[29], m.Orientation.DOWN, 90, "A1")
    assert [k for k, _ in _rows(j)[-2:]] == ["event", "note"] and "ignored" in _rows(j)[-1][1]


def test_messages_lost_mid_board_leave_it_dealt_again_from_empty_pockets(tmp_path: Path) -> None:
    """A board the shoe deals from its record lost messages 33-42 on the link (its ring overwrote them):
    the table journaled only the note, then took the board's BOARD_FINISHED for a board short of the ten
    cards it never heard of and ruled DB-14, "found and put in the well", though the shoe had put them in
    their pockets. Which cards are in the pockets is not known: the note and a `board_short` `lost` end
    the board in one commit, DB-6 has it dealt again from empty pockets, and the shoe's later cards of
    that board are not ruled."""
    ctl, proc, j, link, feed = _dup_board_begun(tmp_path)
    board = RECS[1]
    for i, card in enumerate(PACK[:30], 1):
        feed(m.CardOut, i, board.deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    before = len(_rows(j))
    feed.adapter(m.MessagesLost(BOOT, feed.seq + 1, feed.seq + 10))
    ctl.drain()
    last = feed.seq + 10
    assert feed.acked[-1] == last
    rows = _rows(j)[before:]
    assert rows[0][0] == "note" and rows[0][1]["text"].startswith(f"messages {feed.seq + 1}-{last} lost on the link")
    assert "board 1 ends after the 30 cards the table saw placed" in rows[0][1]["text"]
    assert rows[1] == ("event", {"type": "board_short", "lost": True, "shoe": [BOOT, last], "src": "shoe",
                                 "t": rows[1][1]["t"]})
    (ruling,) = [b for k, b in rows if k == "ruling"]
    assert (ruling["clause"], ruling["remedy"]) == ("DB-6", "redeal")
    assert ruling["reason"] == ("Board 1: cards of the board were lost on the link from the shoe after the 30 "
                                "the table saw placed: which cards are in its pockets is not known. The four "
                                "pockets are emptied and the board is dealt again from a whole pack.")
    feed.seq = last
    for i, card in enumerate(PACK[40:], 41):      # the shoe went on: the rest of that board, then its end
        feed(m.CardOut, i, board.deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    feed(m.BoardFinished, 1, 0, 0, 0, False, frozenset(), "B7")
    assert [b["clause"] for k, b in _rows(j) if k == "ruling"] == ["DB-6"]     # no DB-14 for cards in pockets
    feed(m.PackLoaded, "B7")                      # a whole pack in the well: the board again, nothing placed
    again = [c for c in link.sent if isinstance(c, m.DealBoard)]
    assert len(again) == 2 and again[1].board == 1 and again[1].placed == frozenset()


def test_messages_lost_mid_board_after_the_table_restarted_end_it_as_lost(tmp_path: Path) -> None:
    """The table was restarted while its shoe dealt board 1 (30 cards placed, journaled): the new run's
    adapter had heard no BOARD_BEGAN, so messages lost on the link before the board's next start were only
    noted, and the board's BOARD_FINISHED was then ruled DB-14 for the cards the shoe did place. The
    journal says the board is under way: the loss ends it as lost, as on a table that never stopped."""
    ctl, proc, j, link, feed = _dup_board_begun(tmp_path)
    board = RECS[1]
    for i, card in enumerate(PACK[:30], 1):
        feed(m.CardOut, i, board.deal.holder(card), False, card, m.Orientation.DOWN, 90, "B7", board=1)
    j.close()                                     # killed here; started again on the same journal
    ctl, link, feed, j = _restarted(tmp_path / "j", feed.seq)
    before = len(_rows(j))
    last = feed.seq + 10
    feed.adapter(m.MessagesLost(BOOT, feed.seq + 1, last))
    ctl.drain()
    assert feed.acked[-1] == last
    rows = _rows(j)[before:]
    assert rows[0][0] == "note" and "board 1 ends after the 30 cards the table saw placed" in rows[0][1]["text"]
    assert rows[1][0] == "event" and rows[1][1]["type"] == "board_short" and rows[1][1]["lost"] is True
    (ruling,) = [b for k, b in rows if k == "ruling"]
    assert (ruling["clause"], ruling["remedy"]) == ("DB-6", "redeal") and "lost on the link" in ruling["reason"]
    feed.seq = last
    feed(m.BoardFinished, 1, 0, 0, 0, False, frozenset(), "B7")
    assert [b["clause"] for k, b in _rows(j) if k == "ruling"] == ["DB-6"]     # no DB-14 for cards in pockets
    j.close()


def test_messages_lost_mid_deal_after_the_table_restarted_end_it_as_lost(tmp_path: Path) -> None:
    """The same for an ordinary deal under way when the table restarted: its deal_start and 19 cards are
    in the journal, so the loss ends the deal as lost (a redeal saying why), not a card out of rotation."""
    from firmware_host.records.journal import Journal
    from firmware_host.table.controller import TableController
    from tests.table.test_controller import Clock

    ctl, j, feed = _bridge_table(tmp_path)
    _deal_cards(feed, 19)
    j.close()
    j = Journal.open(tmp_path / "j")
    ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock())
    assert ctl.engine.state.phase is Phase.DEALING
    fresh = Feed(ctl)
    before = len(_rows(j))
    fresh.adapter(m.MessagesLost(BOOT, 22, 31))
    ctl.drain()
    assert fresh.acked == [31]
    rows = _rows(j)[before:]
    assert rows[0][0] == "note" and "the deal ends after the 19 cards the table saw" in rows[0][1]["text"]
    assert rows[1][0] == "event" and rows[1][1]["type"] == "deal_end" and rows[1][1]["lost"] is True
    (ruling,) = [b for k, b in rows if k == "ruling" and b["remedy"] == "redeal"]
    assert "lost on the link" in ruling["reason"] and "out of rotation" not in ruling["reason"]
    j.close()


def test_messages_lost_between_deals_are_only_noted(tmp_path: Path) -> None:
    ctl, j, feed = _bridge_table(tmp_path)
    feed.adapter(m.MessagesLost(BOOT, 3, 3))
    ctl.drain()
    (row,) = _rows(j)[1:]
    assert row == ("note", {"device": "shoe", "text": "message 3 lost on the link: gone from the shoe before "
                                                      "the host got them", "shoe": [BOOT, 3]})


def test_a_message_type_of_a_newer_minor_version_is_logged_once_as_a_warning(tmp_path: Path, caplog: Any) -> None:
    """PROTOCOL.md 5 and 9: a numbered type this host does not know (a shoe of a newer minor version) is
    normal: skip it, count it, log it. It was logged three times: "dropped unknown type" by the codec
    (it was not dropped: its number is used up), an ERROR by the session, and the table's note. Now the
    table's journaled note is the one line, a warning (docs/ordering.md); the codec and session count it."""
    import logging
    import struct

    from firmware_host.shoe import codec
    from firmware_host.shoe.session import ShoeSession

    ctl, j, feed = _bridge_table(tmp_path)
    s = ShoeSession(session_id=5)
    s.connection_made(0.0)
    s.receive(codec.encode(_hello(BOOT)), 0.0)
    newer = codec.frame_raw(struct.pack(">BBI", 1, 0x7E, 1) + b"\x00")
    with caplog.at_level(logging.DEBUG):
        events, _ = s.receive(newer, 0.1)
        for event in events:
            feed.adapter(event)
        ctl.drain()
    (skipped,) = [e for e in events if isinstance(e, m.Skipped)]
    assert skipped.seq == 1 and s.counters()["skipped"] == 1 and s.counters()["unknown_type"] == 1
    said = [r for r in caplog.records if r.levelno >= logging.INFO and "0x7e" in r.getMessage()]
    assert [r.levelname for r in said] == ["WARNING"], [(r.name, r.levelname, r.getMessage()) for r in said]
    assert "message 1 (type 0x7e) could not be read" in said[0].getMessage()
    assert any("could not be read" in b.get("text", "") for k, b in _rows(j) if k == "note")
    j.close()
