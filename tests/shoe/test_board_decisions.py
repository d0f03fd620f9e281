"""Protocol 1.2's points a shoe maker had to guess, as PROTOCOL.md now decides them (issue 30 section
4), against the reference firmware on its simulated board and the reference host's board follower:
a late reading, a back mark's orientation, EMPTY's count, a rejected last card, the echo by value, the
heartbeat during a board, a JAM and its card, BOARD_FINISHED's pack per attempt, the host's checks, and
the board id's hashed text."""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.boards import BoardMismatch, BoardTracker, CardPlaced, deal_board
from firmware_host.shoe.codec import PACK
from firmware_host.shoe.simhw import PhysCard, SimHardware, payload
from laws.cards import SEATS, Card, Seat
from tests.shoe.fwkit import Bench

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "hardware" / "shoe" / "PROTOCOL.md").read_text(encoding="utf-8")
REJECT = 5


def record(seed: int = 6) -> tuple[Seat, ...]:
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(seed).shuffle(seats)
    return tuple(seats)


class LateReader(SimHardware):
    """A reader whose decoding of each card arrives only after the card has left the exit."""

    late: tuple[str, int] | None = None

    def read_code(self) -> tuple[str, int] | None:
        if self.slot is not None:
            if self.code_pending:
                self.code_pending = False
                self.late = (payload(self.slot.pack, self.slot.card), 96) if self.slot.readable else None
            return None
        code, self.late = self.late, None
        return code


class BackReader(SimHardware):
    """No face-up detector; the reader sees the back mark of the cards marked ``face_up``."""

    def read_code(self) -> tuple[str, int] | None:
        slot = self.slot
        code = super().read_code()
        if code is None or slot is None or not slot.face_up:
            return code
        from shoefw.hal import check_char  # the firmware's own, as test_firmware11 uses it

        return "1" + slot.pack + "ZZ" + check_char("1" + slot.pack + "ZZ"), 90

    def back_shows_face(self) -> bool | None:
        return None


def _bench(hw_class: type[SimHardware] = SimHardware, cards: list[PhysCard] | None = None) -> Bench:
    b = Bench()
    hw = hw_class(b.clock, pass_ms=2, gap_ms=2)
    b.hw = b.shoe.hal = hw
    if cards is None:
        b.load()
    else:
        hw.load(cards)
    return b


def _deal(b: Bench, cmd: m.DealBoard, ms: int = 400) -> list[Any]:
    b.host(cmd)
    return b.run(ms)


def test_a_reading_that_comes_after_the_gate_is_a_rejected_unreadable_card() -> None:
    b = _bench(LateReader)
    said = _deal(b, replace(deal_board(7, record(), 1, pack="A1"), cmd=1), 40)
    cards = [x for x in said if isinstance(x, (m.CardOut, m.CardRejected))]
    assert cards and all(isinstance(x, m.CardRejected) for x in cards), cards
    assert all(x.reason == m.RejectReason.UNREADABLE and x.card is None and x.pack == "" and x.quality == 0
               for x in cards)
    assert set(b.hw.pockets) == {REJECT} and b.shoe.late_codes == len(cards)


def test_a_back_mark_is_face_up_even_without_a_detector() -> None:
    b = _bench(BackReader)
    b.hw.well[0].face_up = True
    said = _deal(b, replace(deal_board(7, record(), 1, pack="A1"), cmd=1), 12)
    first = next(x for x in said if isinstance(x, (m.CardOut, m.CardRejected)))
    assert isinstance(first, m.CardRejected) and first.reason == m.RejectReason.UNREADABLE
    assert first.card is None and first.pack == "A1" and first.orientation == m.Orientation.UP
    second = [x for x in said if isinstance(x, m.CardOut)][0]
    assert second.orientation == m.Orientation.UNKNOWN          # no detector, a face read: not known


def test_emptys_count_takes_in_the_placed_cards_and_a_rejected_last_card_empties_the_well() -> None:
    seats = record()
    placed = frozenset(PACK[:50])
    b = _bench(cards=[PhysCard(PACK[50], "A1"), PhysCard(Card("K", "H"), "X9")])   # the last is another pack's
    said = _deal(b, replace(deal_board(7, seats, 1, pack="A1", placed=placed), cmd=1), 40)
    kinds = [type(x).__name__ for x in said if not isinstance(x, (m.Reply, m.Heartbeat, m.Hello, m.PackLoaded))]
    assert kinds == ["BoardBegan", "CardOut", "CardRejected", "Empty", "BoardFinished"], kinds
    empty = next(x for x in said if isinstance(x, m.Empty))
    fin = next(x for x in said if isinstance(x, m.BoardFinished))
    assert empty.dealt == 51 and fin.reason == m.FinishReason.EMPTY and fin.missing == frozenset({PACK[51]})


def test_board_started_echoes_by_value_the_unused_bits_are_zero() -> None:
    b = _bench()
    raw = bytearray(_unslip(codec.encode(replace(deal_board(7, record(), 0x66F31073, pack="A1",
                                                           placed={PACK[0]}), cmd=1)))[:-4])
    raw[6 + 6 + 13 + 6] |= 0x0F                               # the four bits after the two of clubs
    b.port.inbox += codec.frame_raw(bytes(raw))
    said = b.run(5)
    began = next(x for x in said if isinstance(x, m.BoardBegan))
    assert began.placed == frozenset({PACK[0]}) and began.pack == "A1" and began.board_id == 0x66F31073
    frame = codec.encode(began)
    assert _unslip(frame)[6 + 6 + 13 + 6] & 0x0F == 0


def _unslip(frame: bytes) -> bytes:
    inner = frame.strip(b"\xc0")
    return inner.replace(b"\xdb\xdc", b"\xc0").replace(b"\xdb\xdd", b"\xdb")


def test_the_heartbeat_during_a_board_says_dealing_and_paused() -> None:
    b = Bench(heartbeat_ms=5)
    hw = SimHardware(b.clock, pass_ms=2, gap_ms=200)
    b.hw = b.shoe.hal = hw
    b.load()
    said = _deal(b, replace(deal_board(7, record(), 1, pack="A1"), cmd=1), 20)
    beats = [x for x in said if isinstance(x, m.Heartbeat)]
    assert beats[-1].state == m.ShoeState.DEALING and not beats[-1].paused and beats[-1].loaded
    b.host(m.Pause(cmd=2))
    beats = [x for x in b.run(20) if isinstance(x, m.Heartbeat)]
    assert beats[-1].state == m.ShoeState.PAUSED and beats[-1].paused


def test_a_jam_is_followed_at_once_by_its_cards_message_placed_or_rejected() -> None:
    b = Bench(hw_jam_ms=1600)
    hw = SimHardware(b.clock, pass_ms=2, gap_ms=2, jam_ms=1600)
    b.hw = b.shoe.hal = hw
    hw.load([PhysCard(Card("K", "H"), "X9", jams=True), PhysCard(PACK[0], "A1")])
    said = _deal(b, replace(deal_board(7, record(), 1, pack="A1"), cmd=1), 1700)
    numbered = [x for x in said if not isinstance(x, (m.Heartbeat, m.Reply, m.BoardBegan))]
    cleared = next(i for i, x in enumerate(numbered) if isinstance(x, m.Jam) and x.cleared)
    assert numbered[cleared].index == 1                       # the index it would have had if placed
    assert isinstance(numbered[cleared + 1], m.CardRejected)  # its own message, next


def test_board_finisheds_pack_is_the_attempts() -> None:
    """An attempt that names no pack and places nothing says no pack, whatever an earlier one fixed."""
    b = _bench(cards=[PhysCard(Card("K", "H"), "X9", readable=False)])
    said = _deal(b, replace(deal_board(7, record(), 1, placed=PACK[:51]), cmd=1), 20)
    fin = next(x for x in said if isinstance(x, m.BoardFinished))
    assert fin.pack == "" and fin.missing == frozenset({PACK[51]})


def _started(cmd: m.DealBoard, **change: Any) -> m.BoardBegan:
    fields = {"board": cmd.board, "board_id": cmd.board_id, "seats": cmd.seats, "placed": cmd.placed, "pack": cmd.pack}
    fields |= change
    return m.BoardBegan(1, fields["board"], fields["board_id"], fields["seats"], fields["placed"], fields["pack"],
                        answers=cmd.cmd)


def test_the_host_checks_the_echo_the_index_and_the_pack_of_each_placed_card() -> None:
    seats = record()
    cmd = replace(deal_board(7, seats, 9, pack="B7"), cmd=1)
    t = BoardTracker(cmd)
    said = t.feed(_started(cmd, pack="A1"))                   # an echo with another pack
    assert isinstance(said[-1], BoardMismatch)
    t = BoardTracker(cmd)
    t.feed(_started(cmd))
    ok = t.feed(m.CardOut(2, 1, seats[0], False, PACK[0], m.Orientation.DOWN, 90, "B7", board=7))
    skipped = t.feed(m.CardOut(3, 3, seats[1], False, PACK[1], m.Orientation.DOWN, 90, "B7", board=7))
    other = t.feed(m.CardOut(4, 4, seats[2], False, PACK[2], m.Orientation.DOWN, 90, "A1", board=7))
    assert isinstance(ok[0], CardPlaced)
    assert isinstance(skipped[0], BoardMismatch) and "as card 3 of the board; it is card 2" in skipped[0].words
    assert isinstance(other[0], BoardMismatch) and "of pack A1, not of the board's pack B7" in other[0].words


def test_the_board_ids_hashed_text_is_in_the_protocol_itself() -> None:
    part = DOC.split("### 7.3", 1)[1].split("\n## ", 1)[0]
    text = re.search(r"```text\n(N:[^\n]+)\n```", part)
    assert text is not None
    digest = hashlib.sha256(text.group(1).encode("ascii")).hexdigest()
    assert digest in part and f"`{digest[:8]}`" in part
    assert int(digest[:8], 16) == 0x66F31073                  # the DEAL_BOARD example's board_id


def test_the_host_checks_board_finisheds_board_and_id() -> None:
    seats = record()
    cmd = replace(deal_board(7, seats, 9, pack="B7", placed=PACK[:51]), cmd=1)
    t = BoardTracker(cmd)
    t.feed(_started(cmd))
    t.feed(m.CardOut(2, 52, seats[51], False, PACK[51], m.Orientation.DOWN, 90, "B7", board=7))
    said = t.feed(m.BoardFinished(3, 7, 10, m.FinishReason.COMPLETE, 0, False, frozenset(), "B7", answers=1))
    assert isinstance(said[0], BoardMismatch) and "(id 0000000a), not the one it was sent" in said[0].words
    assert not said[-1].verified  # type: ignore[union-attr]
