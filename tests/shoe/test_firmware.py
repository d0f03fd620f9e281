"""The reference firmware's own logic on CPython: wire format against the test vectors, the ring
buffer, deal rotation, and the shoe's behaviour with simulated hardware (fake clock, no threads)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.shoe import messages as m
from laws.cards import Seat
from tests.shoe.fwkit import Bench, shoe_mod, wire
from tests.shoe.vectors import load

DOC = load()
SHOE_VECTORS = [v for v in DOC["valid"] if v["direction"] == "shoe"]
HOST_VECTORS = [v for v in DOC["valid"] if v["direction"] == "host"]
_BODIES = {
    "HELLO": wire.hello_body, "HEARTBEAT": wire.heartbeat_body, "PONG": wire.pong_body,
    "CARD_OUT": wire.card_out_body, "DEAL_STARTED": wire.deal_started_body,
    "DEAL_FINISHED": wire.deal_finished_body, "PACK_LOADED": wire.pack_loaded_body, "JAM": wire.jam_body,
    "EMPTY": wire.empty_body, "BUTTON": wire.button_body, "ERROR": wire.error_body, "REPLY": wire.reply_body,
    "BOARD_STARTED": wire.board_started_body, "CARD_REJECTED": wire.card_rejected_body,
    "BOARD_FINISHED": wire.board_finished_body,
}


def test_both_crc_implementations_give_the_check_value() -> None:
    data = DOC["crc32_check"]["ascii"].encode()
    want = int(DOC["crc32_check"]["crc32"], 16)
    assert wire.crc32(data) == wire.crc32_slow(data) == want


@pytest.mark.parametrize("vec", SHOE_VECTORS, ids=[v["name"] for v in SHOE_VECTORS])
def test_firmware_encodes_every_shoe_vector(vec: dict) -> None:
    body = _BODIES[vec["type"]](**vec["fields"])
    assert wire.frame(getattr(wire, vec["type"]), vec["seq"], body).hex() == vec["hex"]


@pytest.mark.parametrize("vec", SHOE_VECTORS, ids=[v["name"] for v in SHOE_VECTORS])
def test_firmware_deframes_every_shoe_vector(vec: dict) -> None:
    d = wire.Deframer()
    (raw,) = d.feed(bytes.fromhex(vec["hex"]))
    assert wire.header(raw) == (1, getattr(wire, vec["type"]), vec["seq"])


@pytest.mark.parametrize("vec", HOST_VECTORS, ids=[v["name"] for v in HOST_VECTORS])
def test_firmware_decodes_every_host_vector_and_reencodes_it(vec: dict) -> None:
    d = wire.Deframer()
    (raw,) = d.feed(bytes.fromhex(vec["hex"]))
    mtype, cmd, fields = wire.parse_command(raw)
    assert (mtype, cmd) == (getattr(wire, vec["type"]), vec["seq"])
    assert fields == vec["fields"]
    assert wire.frame(mtype, cmd, raw[6:]).hex() == vec["hex"]


@pytest.mark.parametrize("vec", [v for v in DOC["invalid"] if v["error"] in ("bad_crc", "short", "bad_escape")],
                         ids=lambda v: v["name"])
def test_firmware_deframer_drops_broken_frames(vec: dict) -> None:
    d = wire.Deframer()
    assert d.feed(bytes.fromhex(vec["hex"])) == []
    assert d.bad_crc + d.short + d.bad_escape == 1


def test_firmware_deframer_survives_a_flood() -> None:
    d = wire.Deframer()
    assert d.feed(b"\x11" * 5000) == []
    assert d.oversize >= 1 and len(d.buf) <= 2 * wire.MAX_FRAME
    frame = bytes.fromhex(HOST_VECTORS[0]["hex"])
    assert len(d.feed(frame)) == 1


def test_ring_keeps_the_newest_and_forgets_what_is_acknowledged() -> None:
    ring = shoe_mod.Ring(4)
    for seq in range(1, 7):
        ring.push(seq, b"%d" % seq)
    assert ring.oldest_seq() == 3 and ring.overwritten == 2
    assert ring.since(0) == [b"3", b"4", b"5", b"6"]
    ring.ack(4)
    assert ring.since(0) == [b"5", b"6"] and ring.free() == 2
    assert ring.since(6) == [b"6"]
    ring.ack(10)
    assert ring.oldest_seq() == 0 and ring.since(0) == []


def test_bridge_rotation_is_one_card_at_a_time_from_the_dealers_left() -> None:
    seats = [shoe_mod.seat_for(i, 0, [1] * 13, 0) for i in range(53)]
    assert seats[:5] == [1, 2, 3, 0, 1]
    assert [seats[:52].count(s) for s in range(4)] == [13] * 4
    assert seats[52] == wire.SEAT_NONE


@pytest.mark.parametrize("pattern", [[2, 3], [3, 2]])
def test_euchre_rotation_deals_packets_then_the_turn_up(pattern: list[int]) -> None:
    seats = [shoe_mod.seat_for(i, 3, pattern, 1) for i in range(22)]
    first = pattern[0]
    assert seats[:first] == [0] * first and seats[first:2 * first] == [1] * first
    assert [seats[:20].count(s) for s in range(4)] == [5] * 4
    assert seats[20] == wire.SEAT_TABLE and seats[21] == wire.SEAT_NONE


def _numbered(msgs: list) -> list:
    return [x for x in msgs if not isinstance(x, (m.Hello, m.Heartbeat, m.Pong))]


def test_a_whole_euchre_deal_through_the_firmware() -> None:
    b = Bench("euchre")
    b.load()
    first = b.run(5)
    assert isinstance(first[0], m.Hello) and first[0].boot_id == 0xB007
    b.host(m.StartDeal(Seat.S, (3, 2), 1, "A", cmd=1))
    msgs = _numbered(first + b.run(400))
    kinds = [type(x).__name__ for x in msgs]
    assert kinds == ["PackLoaded", "DealBegan", "Reply"] + ["CardOut"] * 21 + ["DealFinished"]
    cards = [x for x in msgs if isinstance(x, m.CardOut)]
    assert [c.card for c in cards] == [p.card for p in b.hw.left]
    assert cards[0].seat == Seat.W and cards[-1].turn_up
    assert msgs[-1] == m.DealFinished(msgs[-1].seq, m.FinishReason.COMPLETE, 21, True)
    assert [x.seq for x in msgs] == list(range(1, len(msgs) + 1))


def test_a_missing_card_ends_the_deal_as_empty() -> None:
    b = Bench()
    b.load()
    b.hw.well.pop()
    b.host(m.StartDeal(Seat.N, (1,) * 13, cmd=1))
    msgs = _numbered(b.run(600))
    assert isinstance(msgs[-2], m.Empty) and msgs[-2].dealt == 51
    assert msgs[-1].reason == m.FinishReason.EMPTY and msgs[-1].dealt == 51


def test_start_without_a_pack_is_refused_and_a_repeated_command_is_done_once() -> None:
    b = Bench()
    b.run(2)
    b.host(m.StartDeal(Seat.N, (1,) * 13, cmd=1))
    (reply,) = _numbered(b.run(2))
    assert reply.status == m.Status.BAD_STATE and "no pack" in reply.detail
    b.load()
    b.host(m.StartDeal(Seat.N, (1,) * 13, cmd=2), m.StartDeal(Seat.N, (1,) * 13, cmd=2), m.Pause(cmd=3))
    msgs = _numbered(b.run(2))
    # The repeated id gets its REPLY again (the very same frame, same number) and nothing else.
    assert [type(x).__name__ for x in msgs] == ["PackLoaded", "DealBegan", "Reply", "Reply", "Reply"]
    assert msgs[2] == msgs[3] and msgs[2].cmd == 2 and msgs[4].cmd == 3
    assert b.shoe.paused


def test_resend_replays_the_ring_and_hello_says_what_is_gone() -> None:
    b = Bench(ring_size=8)
    b.load()
    b.host(m.StartDeal(Seat.N, (1,) * 13, cmd=1))
    b.run(400)
    assert not b.shoe.dealing
    b.host(m.Resend(2))
    msgs = b.run(2)                         # a resend pass writes a few frames per poll
    assert isinstance(msgs[0], m.Hello) and msgs[0].oldest_held == b.shoe.seq - 7
    assert [x.seq for x in msgs[1:]] == list(range(b.shoe.seq - 7, b.shoe.seq + 1))
    b.host(m.Resend(b.shoe.seq - 2))
    assert [x.seq for x in b.run(1)] == [b.shoe.seq - 2, b.shoe.seq - 1, b.shoe.seq]
    b.host(m.Ack(b.shoe.seq))
    b.run(1)
    assert b.shoe.ring.count == 0


def test_a_card_stuck_in_the_exit_is_a_jam_then_cleared() -> None:
    b = Bench(jam_ms=50, hw_jam_ms=120)
    b.load()
    b.hw.well[2].jams = True
    b.host(m.StartDeal(Seat.N, (1,) * 13, cmd=1))
    msgs = _numbered(b.run(200))
    jams = [x for x in msgs if isinstance(x, m.Jam)]
    assert [(j.index, j.cleared) for j in jams] == [(3, False), (3, True)]
    assert b.shoe.jammed is False


def test_rejected_commands_get_one_reply_link_trouble_gets_an_error() -> None:
    b = Bench()
    b.run(1)
    b.port.inbox += wire.frame(0x99, 4, b"")                               # a newer minor's command
    b.port.inbox += wire.frame(0x8E, 0, b"")                               # an unknown link command
    b.port.inbox += wire.frame(wire.HOST_HELLO, 0, bytes([2, 0, 0, 0, 0, 9]))
    b.port.inbox += wire.frame(wire.START_DEAL, 5, b"\x00")                # body too short
    b.port.inbox += wire.frame(wire.PING, 0, b"\x00")                      # link command too short
    msgs = _numbered(b.run(1))
    assert [(type(x).__name__, getattr(x, "code", None) or x.status) for x in msgs] == [
        ("Reply", m.Status.UNSUPPORTED), ("ShoeError", m.ErrorCode.UNKNOWN_COMMAND),
        ("ShoeError", m.ErrorCode.VERSION), ("Reply", m.Status.BAD_ARGS), ("ShoeError", m.ErrorCode.BAD_COMMAND)]
    assert [x.cmd for x in msgs if isinstance(x, m.Reply)] == [4, 5]
    assert "host speaks protocol 2.0, shoe speaks 1.2" in msgs[2].detail
    assert msgs[3].detail == "START_DEAL too short" and msgs[4].detail == "PING too short"


def test_buttons_and_lamps() -> None:
    b = Bench()
    b.run(1)
    b.hw.buttons.append((2, 2))
    b.host(m.SetLamp(3, 2, 1, cmd=1), m.SetLamp(9, 1, cmd=2))
    msgs = _numbered(b.run(1))
    assert msgs[0] == m.Reply(1, 1, m.Status.OK, "") or isinstance(msgs[0], m.Reply)
    assert b.hw.lamps == {3: (2, 1)}
    assert msgs[1].status == m.Status.BAD_ARGS
    assert isinstance(msgs[2], m.ButtonPressed) and msgs[2].seat == Seat.S and msgs[2].kind == m.ButtonKind.DEMAND


def test_payload_parsing_matches_the_host_scanner() -> None:
    from shoefw.hal import parse_payload

    from firmware_host.shoe.scanner import parse_code
    from laws.cards import full_pack
    from vision.codes import encode_payload

    texts = [encode_payload(p, c) for p in ("A1", "Z9") for c in full_pack()] + [encode_payload("B7", None)]
    texts += ["A:TS", "B-9h", "ATS", "TS", "", "1A1TSX", "2A1TS0", "  " + texts[0].lower() + "  "]
    texts += [t[:5] + ("0" if t[5] != "0" else "1") for t in texts[:20]]  # wrong check characters
    for text in texts:
        pack, card = parse_code(text)
        assert parse_payload(text) == (pack, None if card is None else card.code), text


@settings(max_examples=100)
@given(st.lists(st.sampled_from(HOST_VECTORS), min_size=1, max_size=8), st.lists(st.binary(max_size=30), max_size=9),
       st.lists(st.integers(0, 2000), max_size=12))
def test_firmware_deframer_resynchronises_after_noise(vecs: list, noises: list, cuts: list) -> None:
    stream = b""
    for i, v in enumerate(vecs):
        stream += (noises[i] if i < len(noises) else b"") + bytes.fromhex(v["hex"])
    d = wire.Deframer()
    got = []
    last = 0
    for cut in sorted(c % (len(stream) + 1) for c in cuts) + [len(stream)]:
        got += d.feed(stream[last:cut])
        last = cut
    assert [wire.header(r)[1:] for r in got] == [(getattr(wire, v["type"]), v["seq"]) for v in vecs]


def test_a_shoe_id_that_would_overfill_hello_is_refused_and_the_longest_that_fits_is_heard() -> None:
    """PROTOCOL.md section 2: a shoe keeps ``shoe_id`` and ``firmware`` within 229 bytes together. The
    reference shoe took any ``shoe_id``, so a long one made a HELLO of more than 255 bytes that every host
    drops: a shoe never heard."""
    from shoefw import FIRMWARE_VERSION

    room = 229 - len(FIRMWARE_VERSION.encode())
    with pytest.raises(ValueError, match="229 bytes"):
        Bench(shoe_id="é" * (room // 2) + "xy")          # one byte over, counted in bytes, not letters
    b = Bench(shoe_id="é" * (room // 2) + "x" * (room % 2))
    hello = [x for x in b.run(5) if isinstance(x, m.Hello)]
    assert hello and hello[0].shoe_id == "é" * (room // 2) + "x" * (room % 2)
