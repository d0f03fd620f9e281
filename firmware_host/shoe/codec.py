"""The sans-I/O codec: bytes in, messages out; messages in, bytes out. It never touches a port.

Framing is SLIP (RFC 1055) with an END byte on both sides of every frame, so line noise costs at most
the frame it lands in; each frame ends with a CRC-32 (zlib's). Layout: ``PROTOCOL.md`` sections 2-4.
``Decoder`` decodes both directions (the host uses the shoe->host half; tests and tools use both).
Everything it throws away is counted in ``Decoder.stats`` and logged (first time of each kind at
WARNING, later ones at DEBUG), so noise never raises and never becomes a message. A numbered frame
that passes the CRC but cannot be read comes out as ``Skipped`` so the session can use up its number.
"""

from __future__ import annotations

import logging
import struct
from collections import Counter
from collections.abc import Callable
from typing import Any
from zlib import crc32

from firmware_host.shoe import messages as m
from firmware_host.shoe.messages import MsgType as T
from laws.cards import Card, Seat, full_pack

log = logging.getLogger(__name__)

END = b"\xc0"
ESC = b"\xdb"
MAX_FRAME = 255               # unescaped header + body + crc
MAX_ESCAPED = 2 * MAX_FRAME
NUMBERED_FIRST, NUMBERED_LAST = 0x10, 0x7F    # shoe message types that carry their own number
_HDR = struct.Struct(">BBI")
_CRC = struct.Struct(">I")
_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_CARDS: dict[bytes, Card] = {c.code.encode(): c for c in
                             (Card(r, s) for r in "AKQJT98765432" for s in "SHDC")}
# the code's bytes are never quoted: this text is logged, and a code one letter off names a card
_NOT_A_CARD = "the card code (2 bytes) is none of the 52 cards' codes"
PACK: tuple[Card, ...] = full_pack()        # canonical card order (1.2): card k of a record or a set
_NUMBER: dict[Card, int] = {c: k for k, c in enumerate(PACK)}


class VersionMismatch(Exception):
    """A frame whose header names a protocol major version this host does not speak."""

    def __init__(self, major: int, minor: int | None) -> None:
        self.major, self.minor = major, minor
        theirs = f"{major}.{minor}" if minor is not None else f"{major}.x"
        super().__init__(f"shoe speaks protocol {theirs}; this host speaks "
                         f"{m.PROTO_MAJOR}.{m.PROTO_MINOR}")


# --- encoding --------------------------------------------------------------------------------------


def _s(text: str) -> bytes:
    data = text.encode("utf-8")[:255]
    return bytes((len(data),)) + data


def _seat_code(seat: Seat | None, turn_up: bool = False) -> int:
    if turn_up:
        return m.SEAT_TABLE
    return m.SEAT_NONE if seat is None else _SEATS.index(seat)


def pack_seats(seats: tuple[Seat, ...]) -> bytes:
    """A record's 52 seats (canonical card order) as 13 bytes: card 0 in the top two bits (section 4)."""
    if len(seats) != 52:
        raise ValueError(f"a board's record gives a seat to each of 52 cards, not {len(seats)}")
    out = bytearray(13)
    for k, seat in enumerate(seats):
        out[k >> 2] |= _SEATS.index(seat) << (6 - 2 * (k & 3))
    return bytes(out)


def unpack_seats(data: bytes) -> tuple[Seat, ...]:
    return tuple(_SEATS[(data[k >> 2] >> (6 - 2 * (k & 3))) & 3] for k in range(52))


def pack_cards(cards: frozenset[Card]) -> bytes:
    """A set of cards as 7 bytes of bits, card 0 the top bit (section 4); the last four bits 0."""
    out = bytearray(7)
    for card in cards:
        k = _NUMBER[card]
        out[k >> 3] |= 0x80 >> (k & 7)
    return bytes(out)


def unpack_cards(data: bytes) -> frozenset[Card]:
    """The 7-byte set; the four bits after card 51 are ignored."""
    if len(data) < 7:
        raise ValueError("a set of cards is 7 bytes")
    return frozenset(PACK[k] for k in range(52) if data[k >> 3] & (0x80 >> (k & 7)))


def _body(msg: m.ShoeMessage | m.Command) -> tuple[int, int, bytes]:
    """(type, seq-or-cmd, body) of a message."""
    match msg:
        case m.Hello():
            return T.HELLO, msg.seq, (struct.pack(">BBIIHH", msg.major, msg.minor, msg.boot_id,
                                                  msg.oldest_held, msg.caps, msg.ring_size)
                                      + _s(msg.shoe_id) + _s(msg.firmware))
        case m.Heartbeat():
            flags = int(msg.paused) | (2 if msg.loaded else 0)
            return T.HEARTBEAT, msg.seq, struct.pack(">BBH", msg.state, flags, msg.ring_used)
        case m.Pong():
            return T.PONG, msg.seq, struct.pack(">H", msg.token)
        case m.CardOut():
            code = b"\x00\x00" if msg.card is None else msg.card.code.encode()
            return T.CARD_OUT, msg.seq, (struct.pack(">BB", msg.index, _seat_code(msg.seat, msg.turn_up))
                                         + code + struct.pack(">BB", msg.orientation, msg.quality)
                                         + _s(msg.pack))
        case m.DealBegan():
            return T.DEAL_STARTED, msg.seq, (struct.pack(">BBB", _seat_code(msg.dealer), msg.turn_up,
                                                         len(msg.pattern)) + bytes(msg.pattern) + _s(msg.pack))
        case m.DealFinished():
            return T.DEAL_FINISHED, msg.seq, struct.pack(">BBB", msg.reason, msg.dealt, msg.left_in_shoe)
        case m.PackLoaded():
            return T.PACK_LOADED, msg.seq, _s(msg.pack)
        case m.Jam():
            return T.JAM, msg.seq, struct.pack(">BB", msg.index, msg.cleared)
        case m.Empty():
            return T.EMPTY, msg.seq, struct.pack(">B", msg.dealt)
        case m.ButtonPressed():
            return T.BUTTON, msg.seq, struct.pack(">BB", _seat_code(msg.seat), msg.kind)
        case m.ShoeError():
            return T.ERROR, msg.seq, struct.pack(">B", msg.code) + _s(msg.detail)
        case m.Reply():
            return T.REPLY, msg.seq, struct.pack(">IB", msg.cmd, msg.status) + _s(msg.detail)
        case m.BoardBegan():
            return T.BOARD_STARTED, msg.seq, (struct.pack(">HI", msg.board, msg.board_id) + pack_seats(msg.seats)
                                              + pack_cards(msg.placed) + _s(msg.pack))
        case m.CardRejected():
            code = b"\x00\x00" if msg.card is None else msg.card.code.encode()
            return T.CARD_REJECTED, msg.seq, (struct.pack(">BB", msg.number, msg.reason) + code
                                              + struct.pack(">BB", msg.orientation, msg.quality) + _s(msg.pack))
        case m.BoardFinished():
            return T.BOARD_FINISHED, msg.seq, (struct.pack(">HIBBB", msg.board, msg.board_id, msg.reason,
                                                           msg.rejected, msg.left_in_shoe)
                                               + pack_cards(msg.missing) + _s(msg.pack))
        case m.DealBoard():
            return T.DEAL_BOARD, msg.cmd, (struct.pack(">HI", msg.board, msg.board_id) + pack_seats(msg.seats)
                                           + pack_cards(msg.placed) + _s(msg.pack))
        case m.HostHello():
            tail = b"" if msg.next_cmd is None else struct.pack(">I", msg.next_cmd)
            return T.HOST_HELLO, msg.cmd, struct.pack(">BBI", msg.major, msg.minor, msg.session) + tail
        case m.StartDeal():
            return T.START_DEAL, msg.cmd, (struct.pack(">BBB", _seat_code(msg.dealer), msg.turn_up,
                                                       len(msg.pattern)) + bytes(msg.pattern) + _s(msg.pack))
        case m.Pause():
            return T.PAUSE, msg.cmd, b""
        case m.Resume():
            return T.RESUME, msg.cmd, b""
        case m.Abort():
            return T.ABORT, msg.cmd, b""
        case m.SetLamp():
            return T.SET_LAMP, msg.cmd, struct.pack(">BBB", msg.lamp, msg.mode, msg.colour)
        case m.Ping():
            return T.PING, msg.cmd, struct.pack(">H", msg.token)
        case m.Resend():
            return T.RESEND, msg.cmd, struct.pack(">I", msg.first) + (struct.pack(">I", msg.last) if msg.last else b"")
        case m.Ack():
            return T.ACK, msg.cmd, struct.pack(">I", msg.upto)
    raise TypeError(f"not a shoe protocol message: {msg!r}")


def frame_raw(raw: bytes) -> bytes:
    """Wrap header + body: append the CRC, SLIP-escape, put END on both sides."""
    raw = raw + _CRC.pack(crc32(raw))
    if 0xC0 in raw or 0xDB in raw:
        raw = raw.replace(ESC, b"\xdb\xdd").replace(END, b"\xdb\xdc")
    return END + raw + END


def encode(msg: m.ShoeMessage | m.Command, *, version: int = m.PROTO_MAJOR) -> bytes:
    """The bytes on the wire for one message (either direction).

    Raises:
        ValueError: when the frame would be longer than 255 bytes unescaped (a text field too long):
            every receiver would drop it (PROTOCOL.md section 2).
    """
    mtype, seq, body = _body(msg)
    raw = _HDR.pack(version, mtype, seq) + body
    if len(raw) + _CRC.size > MAX_FRAME:
        raise ValueError(f"{type(msg).__name__} does not fit a frame: {len(raw) + _CRC.size} bytes, "
                         f"at most {MAX_FRAME} (shorten its text)")
    return frame_raw(raw)


# --- decoding --------------------------------------------------------------------------------------


def _str_at(raw: bytes, pos: int) -> tuple[str, int]:
    n = raw[pos]
    end = pos + 1 + n
    if end > len(raw):
        raise ValueError("string runs past the end of the frame")
    return raw[pos + 1:end].decode("utf-8"), end


def _seat(code: int) -> Seat:
    if code > 3:
        raise ValueError(f"seat code {code} is not a seat (0-3)")
    return _SEATS[code]


def _d_hello(seq: int, b: bytes) -> m.Hello:
    major, minor, boot, oldest, caps, ring = struct.unpack_from(">BBIIHH", b)
    shoe_id, p = _str_at(b, 14)
    fw, _ = _str_at(b, p)
    return m.Hello(seq, major, minor, boot, oldest, caps, ring, shoe_id, fw)


def _d_heartbeat(seq: int, b: bytes) -> m.Heartbeat:
    state, flags, used = struct.unpack_from(">BBH", b)
    return m.Heartbeat(seq, _enum(m.ShoeState, state), bool(flags & 1), bool(flags & 2), used)


def _d_card(seq: int, b: bytes) -> m.CardOut:
    index, seat, orient, quality = b[0], b[1], b[4], b[5]
    code = b[2:4]
    if code == b"\x00\x00":
        card = None
    else:
        card = _CARDS.get(code)
        if card is None:
            raise ValueError(_NOT_A_CARD)
    if seat < 4:
        s: Seat | None = _SEATS[seat]
    elif seat in (m.SEAT_TABLE, m.SEAT_NONE):
        s = None
    else:
        raise ValueError(f"seat code {seat} is unknown")
    pack, _ = _str_at(b, 6)
    return m.CardOut(seq, index, s, seat == m.SEAT_TABLE, card, _enum(m.Orientation, orient), quality, pack)


def _d_pattern(b: bytes) -> tuple[Seat, int, tuple[int, ...], str]:
    dealer, turn_up, n = b[0], b[1], b[2]
    if 3 + n > len(b):
        raise ValueError("deal pattern runs past the end of the frame")
    pack, _ = _str_at(b, 3 + n)
    return _seat(dealer), turn_up, tuple(b[3:3 + n]), pack


def _d_deal_started(seq: int, b: bytes) -> m.DealBegan:
    return m.DealBegan(seq, *_d_pattern(b))


def _d_start_deal(cmd: int, b: bytes) -> m.StartDeal:
    dealer, turn_up, pattern, pack = _d_pattern(b)
    return m.StartDeal(dealer, pattern, turn_up, pack, cmd=cmd)


def _card_at(b: bytes, pos: int) -> Card | None:
    code = b[pos:pos + 2]
    if len(code) < 2:
        raise ValueError("card code runs past the end of the frame")
    if code == b"\x00\x00":
        return None
    card = _CARDS.get(code)
    if card is None:
        raise ValueError(_NOT_A_CARD)
    return card


def _d_record(b: bytes) -> tuple[int, int, tuple[Seat, ...], frozenset[Card], str]:
    """BOARD_STARTED and DEAL_BOARD: board, board_id, seats, placed, pack."""
    if len(b) < 26:
        raise ValueError("board record runs past the end of the frame")
    board, board_id = struct.unpack_from(">HI", b)
    return board, board_id, unpack_seats(b[6:19]), unpack_cards(b[19:26]), _str_at(b, 26)[0]


def _d_board_started(seq: int, b: bytes) -> m.BoardBegan:
    return m.BoardBegan(seq, *_d_record(b))


def _d_deal_board(cmd: int, b: bytes) -> m.DealBoard:
    board, board_id, seats, placed, pack = _d_record(b)
    return m.DealBoard(board, seats, board_id, pack, placed, cmd=cmd)


def _d_card_rejected(seq: int, b: bytes) -> m.CardRejected:
    return m.CardRejected(seq, b[0], _enum(m.RejectReason, b[1]), _card_at(b, 2), _enum(m.Orientation, b[4]),
                          b[5], _str_at(b, 6)[0])


def _d_board_finished(seq: int, b: bytes) -> m.BoardFinished:
    board, board_id, reason, rejected, left = struct.unpack_from(">HIBBB", b)
    return m.BoardFinished(seq, board, board_id, _enum(m.FinishReason, reason), rejected, bool(left),
                           unpack_cards(b[9:16]), _str_at(b, 16)[0])


_DECODERS: dict[int, Callable[[int, bytes], Any]] = {
    T.HELLO: _d_hello,
    T.HEARTBEAT: _d_heartbeat,
    T.PONG: lambda s, b: m.Pong(s, struct.unpack_from(">H", b)[0]),
    T.CARD_OUT: _d_card,
    T.DEAL_STARTED: _d_deal_started,
    T.DEAL_FINISHED: lambda s, b: m.DealFinished(s, _enum(m.FinishReason, b[0]), b[1], bool(b[2])),
    T.PACK_LOADED: lambda s, b: m.PackLoaded(s, _str_at(b, 0)[0]),
    T.JAM: lambda s, b: m.Jam(s, b[0], bool(b[1])),
    T.EMPTY: lambda s, b: m.Empty(s, b[0]),
    T.BUTTON: lambda s, b: m.ButtonPressed(s, _seat(b[0]), _enum(m.ButtonKind, b[1])),
    T.ERROR: lambda s, b: m.ShoeError(s, _enum(m.ErrorCode, b[0]), _str_at(b, 1)[0]),
    T.REPLY: lambda s, b: m.Reply(s, struct.unpack_from(">I", b)[0], _enum(m.Status, b[4]), _str_at(b, 5)[0]),
    T.BOARD_STARTED: _d_board_started,
    T.CARD_REJECTED: _d_card_rejected,
    T.BOARD_FINISHED: _d_board_finished,
    T.DEAL_BOARD: _d_deal_board,
    T.HOST_HELLO: lambda c, b: m.HostHello(struct.unpack_from(">I", b, 2)[0], b[0], b[1],
                                           struct.unpack_from(">I", b, 6)[0] if len(b) >= 10 else None, cmd=c),
    T.START_DEAL: _d_start_deal,
    T.PAUSE: lambda c, b: m.Pause(cmd=c),
    T.RESUME: lambda c, b: m.Resume(cmd=c),
    T.ABORT: lambda c, b: m.Abort(cmd=c),
    T.SET_LAMP: lambda c, b: m.SetLamp(b[0], b[1], b[2], cmd=c),
    T.PING: lambda c, b: m.Ping(struct.unpack_from(">H", b)[0], cmd=c),
    T.RESEND: lambda c, b: m.Resend(struct.unpack_from(">I", b)[0],
                                    struct.unpack_from(">I", b, 4)[0] if len(b) >= 8 else 0, cmd=c),
    T.ACK: lambda c, b: m.Ack(struct.unpack_from(">I", b)[0], cmd=c),
}


def _enum(cls: Any, value: int) -> Any:
    """An enum member when the value is known, the bare number otherwise (newer minor versions)."""
    try:
        return cls(value)
    except ValueError:
        return value


class Decoder:
    """Feed bytes, get messages. Never raises on bad input: it counts it in ``stats`` instead.

    Args:
        on_version: called with a ``VersionMismatch`` for a frame of another major version (the
            session turns it into a refusal); such frames are otherwise dropped and counted.
    """

    def __init__(self, on_version: Callable[[VersionMismatch], None] | None = None) -> None:
        self._partial = b""
        self._dropping = False
        self.stats: Counter[str] = Counter()
        self._on_version = on_version

    def reset(self) -> None:
        """Forget a partial frame (after a reconnect)."""
        self._partial = b""
        self._dropping = False

    def _bad(self, kind: str, detail: str, *, passed_on: bool = False) -> None:
        """Count a frame this decoder cannot give as a message, and log it (the first of each kind as a
        warning). ``passed_on``: a numbered one, given as ``Skipped`` (PROTOCOL.md 5): not dropped, and
        said by whoever takes it (the table journals a note, logged once as a warning), so only at debug
        here: a type of a newer minor version is normal and was logged three times, once as an ERROR."""
        self.stats[kind] += 1
        if passed_on:
            log.debug("shoe link: %s (%s), passed on as skipped; %d so far", kind.replace("_", " "), detail,
                      self.stats[kind])
            return
        level = logging.WARNING if self.stats[kind] == 1 else logging.DEBUG
        log.log(level, "shoe link: dropped %s (%s); %d so far", kind.replace("_", " "), detail,
                self.stats[kind])

    def feed(self, data: bytes) -> list[Any]:
        """Decode every complete frame in ``data`` (plus what an earlier call left over)."""
        parts = (self._partial + data).split(END) if self._partial else data.split(END)
        tail = parts.pop()
        if self._dropping:
            if parts:
                parts[0] = b""          # the rest of an oversized frame
                self._dropping = False
            else:
                tail = b""
        if len(tail) > MAX_ESCAPED:
            self._bad("oversize", f"{len(tail)} bytes without a frame end")
            tail = b""
            self._dropping = True
        self._partial = tail
        out = []
        for raw in parts:
            if raw:
                msg = self._frame(raw)
                if msg is not None:
                    out.append(msg)
        return out

    def _frame(self, raw: bytes) -> Any:
        if 0xDB in raw:
            n = raw.count(ESC)
            if n != raw.count(b"\xdb\xdc") + raw.count(b"\xdb\xdd"):
                self._bad("bad_escape", "ESC not followed by ESC_END or ESC_ESC")
                return None
            raw = raw.replace(b"\xdb\xdc", END).replace(b"\xdb\xdd", ESC)
        n = len(raw)
        if n < 10:
            self._bad("short", f"{n} bytes")
            return None
        if n > MAX_FRAME:
            self._bad("oversize", f"{n} bytes")
            return None
        if crc32(raw[:-4]) != _CRC.unpack_from(raw, n - 4)[0]:
            # never the frame's bytes: a CARD_OUT's would name a card of the open deal (docs/ordering.md)
            self._bad("bad_crc", f"a {n}-byte frame of type 0x{raw[1]:02x} whose CRC-32 does not match; its bytes are not logged")
            return None
        ver, mtype, seq = _HDR.unpack_from(raw)
        if ver != m.PROTO_MAJOR:
            minor = raw[7] if mtype == T.HELLO and n >= 12 else None
            self._bad("version", f"protocol major {ver}")
            if self._on_version is not None:
                self._on_version(VersionMismatch(ver, minor if mtype == T.HELLO else None))
            return None
        dec = _DECODERS.get(mtype)
        if dec is None:
            skipped = self._skip(seq, mtype, "unknown type")
            self._bad("unknown_type", f"type 0x{mtype:02x} seq {seq}", passed_on=skipped is not None)
            return skipped
        try:
            msg = dec(seq, raw[6:-4])
        except (ValueError, IndexError, struct.error, UnicodeDecodeError) as exc:
            skipped = self._skip(seq, mtype, f"malformed: {exc}")
            self._bad("malformed", f"type 0x{mtype:02x} seq {seq}: {exc}", passed_on=skipped is not None)
            return skipped
        self.stats["frames"] += 1
        return msg

    @staticmethod
    def _skip(seq: int, mtype: int, reason: str) -> m.Skipped | None:
        """Numbered shoe types still use up their number; others are simply dropped."""
        return m.Skipped(seq, mtype, reason) if NUMBERED_FIRST <= mtype <= NUMBERED_LAST else None
