"""PROTOCOL.md sections 4.3, 6.3 and 9 as a contract for the reference firmware: what a shoe answers to
each command, in which order, with which status (the document's precedence table), written with the
outsider's codec only. The firmware runs on its simulated board (a fake millisecond clock)."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from tests.contract import shoewire as w
from tests.shoe.fwkit import Bench


class Shoe:
    """The reference shoe behind the outsider's codec: frames in, meanings out."""

    def __init__(self, pack: bool = True) -> None:
        self.bench = Bench()
        if pack:
            self.bench.load()
        self.bench.run(3)
        self.raw(w.encode("HOST_HELLO", 0, {"major": 1, "minor": 1, "session": 0xC0FFEE, "next_cmd": 1}))
        self.next_id = 1

    def raw(self, *frames: bytes, ms: int = 1) -> list[tuple[str, int, dict[str, Any]]]:
        for f in frames:
            self.bench.port.inbox += f
        for _ in range(ms):
            self.bench.shoe.poll()
        self.last_bytes = self.bench.port.take()
        return [w.decode(b"\xc0" + p + b"\xc0") for p in self.last_bytes.split(b"\xc0") if p]

    def cmd(self, name: str, fields: dict[str, Any] | None = None, cmd: int | None = None) -> list[Any]:
        if cmd is None:
            cmd, self.next_id = self.next_id, self.next_id + 1
        return self.raw(w.encode(name, cmd, fields or {}))

    def status(self, name: str, fields: dict[str, Any] | None = None) -> int:
        out = [m for m in self.cmd(name, fields) if m[0] not in ("HEARTBEAT",)]
        replies = [m for m in out if m[0] == "REPLY"]
        assert len(replies) == 1, out
        return int(replies[0][2]["status"])


def frame(mtype: int, cmd: int, body: bytes) -> bytes:
    raw = struct.pack(">BBI", 1, mtype, cmd) + body
    return b"\xc0" + w.escape(raw + struct.pack(">I", w.crc32(raw))) + b"\xc0"


BRIDGE = {"dealer": 0, "turn_up": 0, "sizes": [1] * 13, "pack": "A1"}


@pytest.mark.parametrize(("fields", "status"), [
    ({**BRIDGE, "dealer": 4}, 3),
    ({**BRIDGE, "sizes": []}, 3),
    ({**BRIDGE, "sizes": [1, 0]}, 3),
    ({**BRIDGE, "sizes": [13] * 5}, 3),                 # 4 x 65 = 260 > 255
    ({**BRIDGE, "sizes": [63], "turn_up": 4}, 3),       # 252 + 4 = 256
    ({**BRIDGE, "sizes": [63], "turn_up": 3}, 0),       # 255: allowed
])
def test_start_deal_arguments(fields: dict[str, Any], status: int) -> None:
    assert Shoe().status("START_DEAL", fields) == status


def test_start_deal_precedence_bad_arguments_busy_bad_state() -> None:
    empty = Shoe(pack=False)
    assert empty.status("START_DEAL", {**BRIDGE, "dealer": 7}) == 3       # bad arguments before bad state
    assert empty.status("START_DEAL", BRIDGE) == 2
    shoe = Shoe()
    out = shoe.cmd("START_DEAL", BRIDGE)
    assert [m[0] for m in out] == ["DEAL_STARTED", "REPLY"]             # DEAL_STARTED first
    assert out[0][2] == BRIDGE and out[1][2]["status"] == 0
    assert shoe.status("START_DEAL", {**BRIDGE, "dealer": 9}) == 3        # bad arguments before busy
    assert shoe.status("START_DEAL", BRIDGE) == 1


def test_pause_resume_abort() -> None:
    shoe = Shoe()
    for name in ("PAUSE", "RESUME", "ABORT"):
        assert shoe.status(name) == 2                                   # no deal in progress
    shoe.cmd("START_DEAL", BRIDGE)
    assert [shoe.status(n) for n in ("PAUSE", "PAUSE", "RESUME", "RESUME")] == [0, 0, 0, 0]   # idempotent
    out = shoe.cmd("ABORT")
    assert [m[0] for m in out] == ["DEAL_FINISHED", "REPLY"]            # DEAL_FINISHED first
    assert out[0][2]["reason"] == 1 and out[1][2]["status"] == 0


@pytest.mark.parametrize(("fields", "status"), [
    ({"lamp": 0, "mode": 3, "colour": 4}, 0),
    ({"lamp": 5, "mode": 1, "colour": 0}, 3),
    ({"lamp": 1, "mode": 4, "colour": 0}, 4),
    ({"lamp": 1, "mode": 1, "colour": 5}, 4),
    ({"lamp": 9, "mode": 9, "colour": 9}, 3),                           # bad arguments first
])
def test_set_lamp(fields: dict[str, Any], status: int) -> None:
    assert Shoe().status("SET_LAMP", fields) == status


def test_a_body_too_short_is_status_3_before_anything() -> None:
    shoe = Shoe(pack=False)
    out = shoe.raw(frame(0x85, 1, b"\x01"))
    assert [(m[0], m[2]["status"]) for m in out] == [("REPLY", 3)]
    out = shoe.raw(frame(0x81, 2, bytes((0, 0, 1, 13, 2, 0xFF, 0xFE))))   # pack not UTF-8
    assert [(m[0], m[2]["status"]) for m in out] == [("REPLY", 3)]


def test_unknown_types() -> None:
    shoe = Shoe()
    out = shoe.raw(frame(0x8F, 1, b""))                                 # a numbered command of a newer minor
    assert [(m[0], m[2]["cmd"], m[2]["status"]) for m in out] == [("REPLY", 1, 4)]
    out = shoe.raw(frame(0x8F, 0, b""))                                 # an unknown link command
    assert [(m[0], m[2]["code"]) for m in out] == [("ERROR", 2)]
    out = shoe.raw(frame(0x86, 0, b"\x01"))                             # PING too short
    assert [(m[0], m[2]["code"]) for m in out] == [("ERROR", 6)]
    assert shoe.raw(frame(0x10, 5, bytes(8))) == []                     # the shoe's own type echoed back


def test_ping_and_another_major() -> None:
    shoe = Shoe()
    (pong,) = shoe.raw(w.encode("PING", 0, {"token": 0xBEEF}))
    hello = shoe.raw(w.encode("HOST_HELLO", 0, {"major": 1, "minor": 1, "session": 0xC0FFEE, "next_cmd": 1}))
    assert pong[0] == "PONG" and pong[2] == {"token": 0xBEEF} and pong[1] == hello[0][1]   # seq: last number
    out = shoe.raw(w.encode("HOST_HELLO", 0, {"major": 2, "minor": 0, "session": 1}))
    assert [m[0] for m in out] == ["ERROR", "HELLO"] and out[0][2]["code"] == 3
    assert "2.0" in out[0][2]["detail"] and "1.2" in out[0][2]["detail"]


def test_one_reply_per_id_and_the_same_frame_again() -> None:
    shoe = Shoe()
    shoe.cmd("SET_LAMP", {"lamp": 1, "mode": 1, "colour": 2}, cmd=1)
    first = shoe.last_bytes
    again = shoe.cmd("SET_LAMP", {"lamp": 1, "mode": 1, "colour": 2}, cmd=1)
    assert shoe.last_bytes == first and [m[0] for m in again] == ["REPLY"]
    assert shoe.cmd("SET_LAMP", {"lamp": 1, "mode": 1, "colour": 2}, cmd=3) == []   # id 2 missing: dropped


def test_resend_of_a_number_not_used_yet_is_ignored_and_a_gap_is_resent() -> None:
    shoe = Shoe()
    hello = shoe.raw(w.encode("HOST_HELLO", 0, {"major": 1, "minor": 1, "session": 0xC0FFEE, "next_cmd": 1}))
    last = hello[0][1]
    assert shoe.raw(w.encode("RESEND", 0, {"first": last + 5}), ms=5) == []
    out = shoe.raw(w.encode("RESEND", 0, {"first": last, "last": last}), ms=5)
    assert [(m[0], m[1]) for m in out if m[0] != "HEARTBEAT"] == [("PACK_LOADED", last)]


def _heartbeats(shoe: Shoe, ms: int) -> list[dict[str, Any]]:
    return [m[2] | {"seq": m[1]} for m in shoe.raw(ms=1) + _run(shoe, ms) if m[0] == "HEARTBEAT"]


def _run(shoe: Shoe, ms: int) -> list[Any]:
    out = []
    for _ in range(ms):
        shoe.bench.hw.step(shoe.bench.clock.ms, shoe.bench.shoe.dealing and not shoe.bench.shoe.paused)
        shoe.bench.shoe.poll()
        shoe.bench.clock.ms += 1
        data = shoe.bench.port.take()
        out += [w.decode(b"\xc0" + p + b"\xc0") for p in data.split(b"\xc0") if p]
    return out


def test_heartbeat_every_half_second_with_state_flags_and_last_number() -> None:
    idle = Shoe(pack=False)
    beats = _heartbeats(idle, 1000)
    assert len(beats) == 2 and all(b["state"] == 0 and b["flags"] == 0 for b in beats)
    shoe = Shoe()
    assert {(b["state"], b["flags"]) for b in _heartbeats(shoe, 600)} == {(1, 2)}         # pack loaded
    shoe.cmd("START_DEAL", BRIDGE)
    shoe.cmd("PAUSE")
    beats = _heartbeats(shoe, 600)
    assert {(b["state"], b["flags"] & 1) for b in beats} == {(3, 1)}                        # paused wins
    assert beats[-1]["seq"] == shoe.raw(w.encode("PING", 0, {"token": 1}))[0][1]          # its last number


def test_resend_edges_as_written() -> None:
    """Section 5: a ``last`` below ``first`` asks for nothing; ``first`` 0 means from the oldest held."""
    shoe = Shoe()
    last = shoe.raw(w.encode("HOST_HELLO", 0, {"major": 1, "minor": 1, "session": 0xC0FFEE, "next_cmd": 1}))[0][1]
    shoe.cmd("SET_LAMP", {"lamp": 1, "mode": 1, "colour": 2})                   # REPLY: number last + 1
    assert shoe.raw(w.encode("RESEND", 0, {"first": last + 1, "last": last}), ms=5) == []
    out = [m for m in shoe.raw(w.encode("RESEND", 0, {"first": 0, "last": 0}), ms=5) if m[0] != "HEARTBEAT"]
    assert [(m[0], m[1]) for m in out] == [("HELLO", last + 1), ("PACK_LOADED", last), ("REPLY", last + 1)]


def test_next_cmd_zero_is_read_as_one() -> None:
    shoe = Shoe()
    shoe.raw(w.encode("HOST_HELLO", 0, {"major": 1, "minor": 1, "session": 0xBEE, "next_cmd": 0}))
    assert shoe.status("SET_LAMP", {"lamp": 1, "mode": 1, "colour": 2}) == 0      # id 1 is done


def test_long_details_are_cut_alike_on_micropython(tmp_path: Any) -> None:
    """The detail cutting of section 2 on the board's own VM, byte for byte as on CPython."""
    from tests.shoe.test_micropython import both

    script = ("import shoefw.wire as w\n"
              "for text in ('OSError: ' + 'é' * 300, 'x' * 300, '€' * 90, 'short'):\n"
              "    print(w.frame(w.ERROR, 9, w.error_body(5, text)).hex())\n"
              "    print(w.frame(w.REPLY, 9, w.reply_body(3, 3, text)).hex())\n")
    for line in both(script, tmp_path).splitlines():
        name, _seq, fields = w.decode(bytes.fromhex(line))
        assert name in ("ERROR", "REPLY") and fields["detail"]


# --- 1.2: DEAL_BOARD (sections 4.3 and 7.1) -----------------------------------------------------------

SEATS = [k % 4 for k in range(52)]                  # card k to seat k mod 4: 13 each
BOARD = {"board": 4, "board_id": 0xBEEF, "seats": SEATS, "placed": [], "pack": ""}


@pytest.mark.parametrize(("fields", "status"), [
    ({**BOARD, "board": 0}, 3),
    ({**BOARD, "seats": [0] * 14 + SEATS[14:]}, 3),                  # 14 and 12 cards
    ({**BOARD, "placed": list(w.CANONICAL)}, 3),                       # nothing to deal
    ({**BOARD, "pack": "B"}, 3),
    ({**BOARD, "pack": "b7"}, 3),                                      # pack ids are upper case
    ({**BOARD, "placed": w.CANONICAL[:51], "pack": "A1"}, 0),
    (BOARD, 0),
])
def test_deal_board_arguments(fields: dict[str, Any], status: int) -> None:
    assert Shoe().status("DEAL_BOARD", fields) == status


def test_deal_board_precedence_unsupported_bad_arguments_busy_bad_state() -> None:
    empty = Shoe(pack=False)
    assert empty.status("DEAL_BOARD", {**BOARD, "board": 0}) == 3        # bad arguments before bad state
    assert empty.status("DEAL_BOARD", BOARD) == 2
    shoe = Shoe()
    out = shoe.cmd("DEAL_BOARD", BOARD)
    assert [m[0] for m in out] == ["BOARD_STARTED", "REPLY"] and out[0][2] == BOARD   # echoed, then REPLY
    assert shoe.status("DEAL_BOARD", {**BOARD, "board": 0}) == 3        # bad arguments before busy
    assert shoe.status("DEAL_BOARD", BOARD) == 1
    assert shoe.status("START_DEAL", {"dealer": 0, "turn_up": 0, "sizes": [1] * 13, "pack": ""}) == 1
    old = Shoe()
    old.bench.shoe.minor = 1                                             # a 1.1 shoe: a type it does not know
    out = old.raw(frame(0x89, old.next_id, b"\x00"))                     # a body too short: still status 4
    assert [(m[0], m[2]["status"]) for m in out] == [("REPLY", 4)]
    bare = Shoe()
    bare.bench.hw.boards = False                                         # no pockets
    out = bare.raw(frame(0x89, bare.next_id, b"\x00"))
    assert [(m[0], m[2]["status"]) for m in out] == [("REPLY", 4)]


def _until_finished(shoe: Shoe, ms: int = 600) -> list[Any]:
    out: list[Any] = []
    for _ in range(ms):
        out += _run(shoe, 1)
        if any(m[0] == "BOARD_FINISHED" for m in out):
            break
    return [m for m in out if m[0] != "HEARTBEAT"]


def test_a_board_as_section_7_1_says() -> None:
    """Every card to the record's seat with index counting placed cards; a card the record does not
    expect to the reject exit; the end: whole only with all 52."""
    shoe = Shoe()
    well = shoe.bench.hw.well
    well.insert(6, type(well[0])(well[1].card, "A1"))                  # a duplicate (the pack is A1)
    shoe.cmd("DEAL_BOARD", {**BOARD, "pack": "A1"})
    out = _until_finished(shoe)
    cards = [m for m in out if m[0] == "CARD_OUT"]
    assert [c[2]["index"] for c in cards] == list(range(1, 53))
    assert all(c[2]["seat"] == SEATS[w.CANONICAL.index(c[2]["card"])] for c in cards)
    (rej,) = [m for m in out if m[0] == "CARD_REJECTED"]
    assert rej[2]["reason"] == 3 and rej[2]["rejected"] == 1 and rej[2]["card"] == cards[1][2]["card"]
    assert out[-1][0] == "BOARD_FINISHED" and out[-1][2]["reason"] == 0 and out[-1][2]["missing"] == []
    assert out[-1][2]["rejected"] == 1 and out[-1][2]["pack"] == "A1"


def test_a_board_whose_pack_runs_short_is_not_whole_and_the_first_card_fixes_an_unnamed_pack() -> None:
    shoe = Shoe()
    well = shoe.bench.hw.well
    gone = well.pop(40).card.code
    well.insert(2, type(well[0])(well[5].card, "Q9"))                  # another pack's card, third in the well
    shoe.cmd("DEAL_BOARD", BOARD)                                      # no pack named
    out = _until_finished(shoe)
    (rej,) = [m for m in out if m[0] == "CARD_REJECTED"]
    assert (rej[2]["reason"], rej[2]["pack"]) == (2, "Q9")
    assert [m[0] for m in out[-2:]] == ["EMPTY", "BOARD_FINISHED"]
    assert out[-2][2]["dealt"] == 51
    end = out[-1][2]
    assert (end["reason"], end["missing"], end["pack"], end["left_in_shoe"]) == (2, [gone], "A1", 0)
