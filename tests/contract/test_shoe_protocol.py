"""Clean-room contract tests for hardware/shoe/PROTOCOL.md 1.2: an outsider's codec (``shoewire``, written
from the document alone) against every vector, then our host codec and the reference firmware against
that codec on random messages of every type. Where they disagree, the document decides."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.contract import shoewire as w

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "hardware" / "shoe" / "test_vectors.json").read_text())
DOC = (ROOT / "hardware" / "shoe" / "PROTOCOL.md").read_text()


# --- the document against its own vectors -------------------------------------------------------------


def test_crc_check_value() -> None:
    assert w.crc32(b"123456789") == 0xCBF43926
    check = VECTORS["crc32_check"]
    assert check["ascii"] == "123456789"
    assert f"{w.crc32(check['ascii'].encode()):08x}" == check["crc32"]      # section 11: eight hex digits


@pytest.mark.parametrize("v", VECTORS["valid"], ids=lambda v: v["name"])
def test_valid_vector_both_ways(v: dict[str, Any]) -> None:
    assert w.encode(v["type"], v["seq"], v["fields"]).hex() == v["hex"]
    assert w.decode(bytes.fromhex(v["hex"])) == (v["type"], v["seq"], v["fields"])
    shoe_side = w.BY_NAME[v["type"]][0] < 0x80
    assert (v["direction"] == "shoe") == shoe_side


@pytest.mark.parametrize("v", VECTORS["invalid"], ids=lambda v: v["name"])
def test_invalid_vector_gives_nothing(v: dict[str, Any]) -> None:
    data = bytes.fromhex(v["hex"])
    if v["error"] is None:           # no closing END: a receiver has nothing yet
        assert data[-1] != w.END
        return
    with pytest.raises(w.Malformed) as info:
        w.decode(data)
    assert info.value.args[0] == v["error"]
    if v["error"] == "version":
        raw = w.unescape(data.strip(b"\xc0"))
        assert raw is not None
        assert v["refusal"] == f"shoe speaks protocol {raw[0]}.{raw[7]}; this host speaks 1.2"


@pytest.mark.parametrize("c", VECTORS["card_codes"], ids=lambda c: c["payload"])
def test_card_code_vectors(c: dict[str, Any]) -> None:
    assert w.read_card_code(c["payload"]) == (c["card"], c["pack"])


def test_section_8_worked_check_character() -> None:
    assert w.check_char("1B7TD") == "Y"
    assert w.read_card_code("1B7TDY") == ("TD", "B7")
    assert w.read_card_code("1B7ZZ1") == (None, "B7")
    assert w.read_card_code("1B7TDX") == (None, "")


def test_section_7_worked_seat_example() -> None:
    seats = [w.seat_of(k, 3, [3, 2], 1) for k in range(1, 22)]
    assert seats[0:3] == [0, 0, 0] and seats[3:6] == [1, 1, 1] and seats[9:12] == [3, 3, 3]
    assert seats[12:14] == [0, 0] and seats[18:20] == [3, 3] and seats[20] == 4
    assert w.seat_of(22, 3, [3, 2], 1) is None


def _doc_frames(title: str) -> list[str]:
    """The hex of a worked example of section 11 (the block after the line naming it)."""
    block = DOC.split(title, 1)[1].split("```", 2)[1]
    out = []
    for line in block.splitlines():
        for tok in line.split():      # the leading hex pairs of each line; the rest is commentary
            if len(tok) != 2 or any(c not in "0123456789abcdef" for c in tok):
                break
            out.append(tok)
    return out


def test_section_11_worked_examples() -> None:
    card = bytes.fromhex("".join(_doc_frames('Example — "card ten of spades to east"')))
    assert w.decode(card) == ("CARD_OUT", 5, {"index": 1, "seat": 1, "card": "TS", "orientation": 0,
                                              "quality": 97, "pack": "A"})
    ack = bytes.fromhex("".join(_doc_frames("Example with escaping")))
    assert ack == w.encode("ACK", 0, {"upto": 0xC0DB})
    hello = bytes.fromhex("".join(_doc_frames("Example — a 1.1 host's HOST_HELLO")))
    assert w.decode(hello) == ("HOST_HELLO", 0, {"major": 1, "minor": 1, "session": 0x01020304, "next_cmd": 5})


def test_session_frames_decode_to_what_their_notes_say() -> None:
    steps = VECTORS["session"]["steps"]
    for step in steps:
        data = bytes.fromhex(step["hex"])
        if data == b"\xc0":
            continue
        name, _seq, _fields = w.decode(data)
        assert (step["from"] == "shoe") == (w.BY_NAME[name][0] < 0x80), step
        assert name.replace("_", " ") in step["note"].replace("_", " ") or name in step["note"], step


# --- random messages: our host codec and the firmware against the outsider's codec --------------------

u8, u16, u32 = (st.integers(0, 2**k - 1) for k in (8, 16, 32))
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
cards = st.one_of(st.none(), st.builds(lambda r, s: r + s, st.sampled_from(w.RANKS), st.sampled_from(w.SUITS)))
sizes = st.lists(st.integers(1, 13), min_size=1, max_size=13)
seats = st.lists(st.integers(0, 3), min_size=52, max_size=52)
card_sets = st.sets(st.sampled_from(w.CANONICAL)).map(lambda cs: [c for c in w.CANONICAL if c in cs])

SHOE = {
    "HELLO": st.fixed_dictionaries({"major": st.just(1), "minor": u8, "boot_id": u32, "oldest_held": u32,
                                    "caps": u16, "ring_size": u16, "shoe_id": text, "firmware": text}),
    "HEARTBEAT": st.fixed_dictionaries({"state": st.integers(0, 4), "flags": st.integers(0, 3), "ring_used": u16}),
    "PONG": st.fixed_dictionaries({"token": u16}),
    "CARD_OUT": st.fixed_dictionaries({"index": u8, "seat": st.sampled_from([0, 1, 2, 3, 4, 255]), "card": cards,
                                       "orientation": st.integers(0, 2), "quality": u8, "pack": text}),
    "DEAL_STARTED": st.fixed_dictionaries({"dealer": st.integers(0, 3), "turn_up": u8, "sizes": sizes, "pack": text}),
    "DEAL_FINISHED": st.fixed_dictionaries({"reason": st.integers(0, 2), "dealt": u8, "left_in_shoe": st.integers(0, 1)}),
    "PACK_LOADED": st.fixed_dictionaries({"pack": text}),
    "JAM": st.fixed_dictionaries({"index": u8, "cleared": st.integers(0, 1)}),
    "EMPTY": st.fixed_dictionaries({"dealt": u8}),
    "BUTTON": st.fixed_dictionaries({"seat": st.integers(0, 3), "kind": u8}),
    "ERROR": st.fixed_dictionaries({"code": u8, "detail": text}),
    "REPLY": st.fixed_dictionaries({"cmd": u32, "status": u8, "detail": text}),
    "BOARD_STARTED": st.fixed_dictionaries({"board": u16, "board_id": u32, "seats": seats, "placed": card_sets,
                                            "pack": text}),
    "CARD_REJECTED": st.fixed_dictionaries({"rejected": u8, "reason": u8, "card": cards,
                                            "orientation": st.integers(0, 2), "quality": u8, "pack": text}),
    "BOARD_FINISHED": st.fixed_dictionaries({"board": u16, "board_id": u32, "reason": st.integers(0, 2),
                                             "rejected": u8, "left_in_shoe": st.integers(0, 1),
                                             "missing": card_sets, "pack": text}),
}
HOST = {
    "HOST_HELLO": st.one_of(
        st.fixed_dictionaries({"major": st.just(1), "minor": st.just(0), "session": u32}),
        st.fixed_dictionaries({"major": st.just(1), "minor": st.integers(1, 255), "session": u32, "next_cmd": u32})),
    "START_DEAL": st.fixed_dictionaries({"dealer": st.integers(0, 3), "turn_up": u8, "sizes": sizes, "pack": text}),
    "PAUSE": st.just({}), "RESUME": st.just({}), "ABORT": st.just({}),
    "SET_LAMP": st.fixed_dictionaries({"lamp": u8, "mode": u8, "colour": u8}),
    "PING": st.fixed_dictionaries({"token": u16}),
    "RESEND": st.one_of(st.fixed_dictionaries({"first": u32}),
                        st.fixed_dictionaries({"first": u32, "last": st.integers(1, 2**32 - 1)})),
    "ACK": st.fixed_dictionaries({"upto": u32}),
    "DEAL_BOARD": st.fixed_dictionaries({"board": u16, "board_id": u32, "seats": seats, "placed": card_sets,
                                         "pack": text}),
}
LINK = {"HELLO", "HEARTBEAT", "PONG", "HOST_HELLO", "PING", "RESEND", "ACK"}


def _message(kinds: dict[str, Any]) -> st.SearchStrategy[tuple[str, int, dict]]:
    return st.sampled_from(sorted(kinds)).flatmap(
        lambda name: st.tuples(st.just(name), st.just(0) if name in {"HOST_HELLO", "PING", "RESEND", "ACK"} else u32,
                               kinds[name]))


def host_object(name: str, seq: int, f: dict[str, Any]) -> Any:
    """The host codec's object for a meaning (its public message classes)."""
    from firmware_host.shoe import messages as m
    from laws.cards import Card, Seat

    seats = (Seat.N, Seat.E, Seat.S, Seat.W)

    def cardset(texts: list[str]) -> frozenset[Card]:
        return frozenset(Card.parse(t) for t in texts)

    def num(cls: Any, v: int) -> Any:
        try:
            return cls(v)
        except ValueError:
            return v

    match name:
        case "HELLO":
            return m.Hello(seq, **f)
        case "HEARTBEAT":
            return m.Heartbeat(seq, num(m.ShoeState, f["state"]), bool(f["flags"] & 1), bool(f["flags"] & 2),
                               f["ring_used"])
        case "PONG":
            return m.Pong(seq, f["token"])
        case "CARD_OUT":
            return m.CardOut(seq, f["index"], seats[f["seat"]] if f["seat"] < 4 else None, f["seat"] == 4,
                             None if f["card"] is None else Card.parse(f["card"]),
                             num(m.Orientation, f["orientation"]), f["quality"], f["pack"])
        case "DEAL_STARTED":
            return m.DealBegan(seq, seats[f["dealer"]], f["turn_up"], tuple(f["sizes"]), f["pack"])
        case "DEAL_FINISHED":
            return m.DealFinished(seq, num(m.FinishReason, f["reason"]), f["dealt"], bool(f["left_in_shoe"]))
        case "PACK_LOADED":
            return m.PackLoaded(seq, f["pack"])
        case "JAM":
            return m.Jam(seq, f["index"], bool(f["cleared"]))
        case "EMPTY":
            return m.Empty(seq, f["dealt"])
        case "BUTTON":
            return m.ButtonPressed(seq, seats[f["seat"]], num(m.ButtonKind, f["kind"]))
        case "ERROR":
            return m.ShoeError(seq, num(m.ErrorCode, f["code"]), f["detail"])
        case "REPLY":
            return m.Reply(seq, f["cmd"], num(m.Status, f["status"]), f["detail"])
        case "HOST_HELLO":
            return m.HostHello(f["session"], f["major"], f["minor"], f.get("next_cmd"), cmd=seq)
        case "START_DEAL":
            return m.StartDeal(seats[f["dealer"]], tuple(f["sizes"]), f["turn_up"], f["pack"], cmd=seq)
        case "PAUSE":
            return m.Pause(cmd=seq)
        case "RESUME":
            return m.Resume(cmd=seq)
        case "ABORT":
            return m.Abort(cmd=seq)
        case "SET_LAMP":
            return m.SetLamp(f["lamp"], f["mode"], f["colour"], cmd=seq)
        case "PING":
            return m.Ping(f["token"], cmd=seq)
        case "RESEND":
            return m.Resend(f["first"], f.get("last", 0), cmd=seq)
        case "ACK":
            return m.Ack(f["upto"], cmd=seq)
        case "DEAL_BOARD":
            return m.DealBoard(f["board"], tuple(seats[x] for x in f["seats"]), f["board_id"], f["pack"],
                               cardset(f["placed"]), cmd=seq)
        case "BOARD_STARTED":
            return m.BoardBegan(seq, f["board"], f["board_id"], tuple(seats[x] for x in f["seats"]),
                                cardset(f["placed"]), f["pack"])
        case "CARD_REJECTED":
            return m.CardRejected(seq, f["rejected"], num(m.RejectReason, f["reason"]),
                                  None if f["card"] is None else Card.parse(f["card"]),
                                  num(m.Orientation, f["orientation"]), f["quality"], f["pack"])
        case "BOARD_FINISHED":
            return m.BoardFinished(seq, f["board"], f["board_id"], num(m.FinishReason, f["reason"]), f["rejected"],
                                   bool(f["left_in_shoe"]), cardset(f["missing"]), f["pack"])
    raise AssertionError(name)


def _fits(name: str, seq: int, fields: dict) -> bool:
    return len(w.unescape(w.encode(name, seq, fields)[1:-1]) or b"") <= w.MAX_FRAME


@given(_message(SHOE | HOST))
def test_host_codec_agrees_both_ways(msg: tuple[str, int, dict]) -> None:
    from firmware_host.shoe import codec

    name, seq, fields = msg
    if not _fits(name, seq, fields):
        return
    frame = w.encode(name, seq, fields)
    assert codec.encode(host_object(name, seq, fields)) == frame
    assert codec.Decoder().feed(frame) == [host_object(name, seq, fields)]


def _firmware() -> Any:
    from firmware_host.shoe.firmware import load_firmware

    return load_firmware()[1]


@given(_message(SHOE))
def test_firmware_writes_what_the_document_says(msg: tuple[str, int, dict]) -> None:
    wire = _firmware()
    name, seq, fields = msg
    if not _fits(name, seq, fields):
        return
    body = getattr(wire, name.lower() + "_body")(**fields)
    assert wire.frame(w.BY_NAME[name][0], seq, body) == w.encode(name, seq, fields)


@given(_message(HOST))
def test_firmware_reads_what_the_document_says(msg: tuple[str, int, dict]) -> None:
    wire = _firmware()
    name, seq, fields = msg
    frame = w.encode(name, seq, fields)
    (raw,) = wire.Deframer().feed(frame)
    assert wire.parse_command(raw) == (w.BY_NAME[name][0], seq, fields)


@given(_message(SHOE | HOST), st.binary(min_size=1, max_size=8))
def test_bytes_after_the_known_fields_are_ignored(msg: tuple[str, int, dict], extra: bytes) -> None:
    """Section 9: a newer minor version may add fields at the end of any body."""
    from firmware_host.shoe import codec

    name, seq, fields = msg
    if name in {"HOST_HELLO", "RESEND"} and len(w.BY_NAME[name][1]) > len(fields):
        return              # the extra bytes would be read as the 1.1 field
    raw = struct.pack(">BBI", 1, w.BY_NAME[name][0], seq) + w.encode_body(name, fields) + extra
    if len(raw) + 4 > w.MAX_FRAME:
        return
    raw += struct.pack(">I", w.crc32(raw))
    frame = b"\xc0" + w.escape(raw) + b"\xc0"
    assert w.decode(frame) == (name, seq, fields)
    assert codec.Decoder().feed(frame) == [host_object(name, seq, fields)]
    if name in HOST:
        wire = _firmware()
        (r,) = wire.Deframer().feed(frame)
        assert wire.parse_command(r) == (w.BY_NAME[name][0], seq, fields)


@given(st.sampled_from(["HEARTBEAT", "CARD_OUT", "DEAL_FINISHED", "BUTTON", "ERROR", "REPLY", "CARD_REJECTED",
                        "BOARD_FINISHED"]), st.data())
def test_unknown_codes_are_passed_on_as_numbers(name: str, data: st.DataObject) -> None:
    """Section 9: a newer minor version may add codes; a receiver passes them on as numbers rather than
    dropping the message (a HEARTBEAT with a new state must still keep the link alive, a CARD_OUT with a
    new orientation must still deliver its card)."""
    from firmware_host.shoe import codec

    field = {"HEARTBEAT": "state", "CARD_OUT": "orientation", "DEAL_FINISHED": "reason", "BUTTON": "kind",
             "ERROR": "code", "REPLY": "status", "CARD_REJECTED": "reason", "BOARD_FINISHED": "reason"}[name]
    known = {"state": 4, "orientation": 2, "reason": 3 if name == "CARD_REJECTED" else 2, "kind": 3, "code": 6,
             "status": 4}[field]
    fields = dict(data.draw(SHOE[name]))
    fields[field] = data.draw(st.integers(known + 1, 254))
    seq = data.draw(u32)
    frame = w.encode(name, seq, fields)
    if not _fits(name, seq, fields):
        return
    (got,) = codec.Decoder().feed(frame)
    assert got == host_object(name, seq, fields)
    assert getattr(got, field) == fields[field]


def test_undecodable_numbered_frame_still_uses_its_number() -> None:
    """Section 5: a numbered frame that passes the CRC but cannot be read uses up its number."""
    from firmware_host.shoe import codec
    from firmware_host.shoe import messages as m

    bad_card = struct.pack(">BBI", 1, 0x10, 77) + bytes((1, 0)) + b"ZZ" + bytes((0, 0, 0))
    unknown = struct.pack(">BBI", 1, 0x7E, 78) + b"\x01"
    link_unknown = struct.pack(">BBI", 1, 0x0E, 79) + b"\x01"
    frames = b"".join(b"\xc0" + w.escape(r + struct.pack(">I", w.crc32(r))) + b"\xc0"
                      for r in (bad_card, unknown, link_unknown))
    got = codec.Decoder().feed(frames)
    assert [(type(g), g.seq) for g in got] == [(m.Skipped, 77), (m.Skipped, 78)]


def _firmware_answers(*frames: bytes) -> list[tuple[str, int, dict]]:
    """What the reference firmware (on a simulated board with a pack loaded) writes for our frames,
    read back with the outsider's codec."""
    from tests.shoe.fwkit import Bench

    bench = Bench()
    bench.load()
    bench.run(5)
    bench.port.take()
    for f in frames:
        bench.port.inbox += f
    bench.shoe.poll()
    out = bench.port.take()
    return [w.decode(b"\xc0" + part + b"\xc0") for part in out.split(b"\xc0") if part]


def test_start_deal_without_its_pack_string_is_bad_arguments() -> None:
    """Section 4.3: the START_DEAL body ends with ``pack str``; a body without it is too short, and a body
    too short is status 3 before anything else (the firmware used to read it as an empty pack and deal)."""
    hello = w.encode("HOST_HELLO", 0, {"major": 1, "minor": 1, "session": 9, "next_cmd": 1})
    raw = struct.pack(">BBI", 1, 0x81, 1) + bytes((0, 0, 1, 13))
    short = b"\xc0" + w.escape(raw + struct.pack(">I", w.crc32(raw))) + b"\xc0"
    answers = _firmware_answers(hello, short)
    assert [a[0] for a in answers] == ["HELLO", "REPLY"]
    assert answers[1][2]["cmd"] == 1 and answers[1][2]["status"] == 3


def test_host_codec_reads_a_start_deal_without_pack_as_malformed() -> None:
    from firmware_host.shoe import codec

    raw = struct.pack(">BBI", 1, 0x81, 1) + bytes((0, 0, 1, 13))
    dec = codec.Decoder()
    assert dec.feed(b"\xc0" + w.escape(raw + struct.pack(">I", w.crc32(raw))) + b"\xc0") == []
    assert dec.stats["malformed"] == 1


# --- section 2: no sender ever writes a frame longer than 255 bytes ------------------------------------


@given(st.sampled_from(["ERROR", "REPLY"]), st.text(min_size=200, max_size=400), u32)
def test_the_firmware_cuts_long_details_to_fit_a_frame(name: str, detail: str, seq: int) -> None:
    """A long ERROR or REPLY detail (an exception's text in ERROR 5) used to make a frame over 255 bytes:
    every receiver drops it, and a numbered message that never arrives is a gap no RESEND can close.
    The shoe cuts the detail, at a character boundary, so that the frame fits."""
    wire = _firmware()
    body = wire.error_body(5, detail) if name == "ERROR" else wire.reply_body(7, 3, detail)
    frame = wire.frame(w.BY_NAME[name][0], seq, body)
    got = w.decode(frame)
    assert got[0] == name and detail.startswith(got[2]["detail"]) and len(got[2]["detail"]) > 0


def test_a_firmware_fault_with_a_long_text_is_delivered() -> None:
    from firmware_host.shoe import codec
    from tests.shoe.fwkit import Bench

    bench = Bench()
    bench.run(2)
    bench.port.take()
    bench.shoe.report_fault("OSError: " + "é" * 300)
    (msg,) = codec.Decoder().feed(bench.port.take())
    assert msg.code == 5 and msg.detail.startswith("firmware fault 1: OSError: é")


def test_the_host_refuses_to_encode_a_command_that_does_not_fit() -> None:
    """Section 2 binds senders too: a START_DEAL whose pack name makes the frame over 255 bytes would be
    dropped by the shoe and repeated forever; encoding it is a misuse of the API and raises."""
    from firmware_host.shoe import codec
    from firmware_host.shoe import messages as m
    from laws.cards import Seat

    assert len(codec.encode(m.StartDeal(Seat.N, (1,) * 13, 0, "p" * 200, cmd=1))) <= 2 * 255
    with pytest.raises(ValueError, match="255"):
        codec.encode(m.StartDeal(Seat.N, (1,) * 13, 0, "p" * 240, cmd=1))


def test_the_host_session_keeps_no_command_it_cannot_frame() -> None:
    from firmware_host.shoe import messages as m
    from firmware_host.shoe.session import ShoeSession
    from laws.cards import Seat

    session = ShoeSession(session_id=7)
    with pytest.raises(ValueError, match="255"):
        session.command(m.StartDeal(Seat.N, (1,) * 13, 0, "p" * 240), 0.0)
    cmd, _ = session.command(m.StartDeal(Seat.N, (1,) * 13, 0, "A1"), 0.0)
    assert cmd.cmd == 1


@pytest.mark.parametrize("v", VECTORS["invalid"], ids=lambda v: v["name"])
def test_the_host_counts_each_invalid_vector_under_its_name(v: dict[str, Any]) -> None:
    from firmware_host.shoe import codec
    from firmware_host.shoe import messages as m

    refusals: list[str] = []
    dec = codec.Decoder(on_version=lambda exc: refusals.append(str(exc)))
    got = dec.feed(bytes.fromhex(v["hex"]))
    assert all(isinstance(g, m.Skipped) for g in got)     # nothing is ever delivered
    if v["error"] is None:
        assert not dec.stats
    else:
        assert dec.stats[v["error"]] == 1
        if v["error"] == "version":
            assert refusals == [v["refusal"]]


# --- section 8: the card code, outsider against the firmware's reader and the host's scanner driver ----

ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@st.composite
def reader_lines(draw: st.DrawFn) -> str:
    """Valid codes of cards and backs, near misses, and noise, with white space and case as readers give."""
    pack = draw(st.text(ALNUM, min_size=2, max_size=2))
    body = "1" + pack + draw(st.sampled_from([r + s for r in w.RANKS for s in w.SUITS] + ["ZZ", "1S", "AX"]))
    code = body + w.check_char(body)
    text = draw(st.one_of(st.just(code), st.just(body + draw(st.sampled_from(ALNUM))),
                          st.just(code[:3] + " " + code[3:]),
                          st.text(ALNUM + " -:", max_size=8), st.text(max_size=8)))
    if draw(st.booleans()):
        text = text.lower()
    return draw(st.sampled_from(["", " ", "\t"])) + text + draw(st.sampled_from(["", "\r\n", "\n", "  "]))


@given(reader_lines())
def test_card_codes_read_alike(line: str) -> None:
    import importlib

    from firmware_host.shoe.firmware import load_firmware
    from firmware_host.shoe.scanner import parse_code

    load_firmware()
    hal = importlib.import_module("shoefw.hal")
    card, pack = w.read_card_code(line)
    assert hal.parse_payload(line) == (pack, card)
    host_pack, host_card = parse_code(line)
    assert (host_pack, None if host_card is None else host_card.code) == (pack, card)


@pytest.mark.parametrize("v", VECTORS["valid"], ids=lambda v: v["name"])
def test_host_and_firmware_on_every_valid_vector(v: dict[str, Any]) -> None:
    from firmware_host.shoe import codec

    name, seq, fields, data = v["type"], v["seq"], v["fields"], bytes.fromhex(v["hex"])
    assert codec.encode(host_object(name, seq, fields)) == data
    assert codec.Decoder().feed(data) == [host_object(name, seq, fields)]
    wire = _firmware()
    if v["direction"] == "shoe":
        assert wire.frame(w.BY_NAME[name][0], seq, getattr(wire, name.lower() + "_body")(**fields)) == data
    else:
        (raw,) = wire.Deframer().feed(data)
        assert wire.parse_command(raw) == (w.BY_NAME[name][0], seq, fields)
