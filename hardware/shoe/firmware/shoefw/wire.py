"""The wire format: SLIP framing, CRC-32, frame header and message bodies (PROTOCOL.md sections 2-4).

A frame on the wire is ``END escaped(header + body + crc32) END`` with ``END = 0xC0``. The header is
``version u8, type u8, seq u32``; all numbers are big-endian; a string is ``u8 length + UTF-8``.
"""

import struct

from shoefw import board as _board

try:  # MicroPython ports built without binascii.crc32 fall back to the table below.
    from binascii import crc32 as _fast_crc32
except ImportError:  # pragma: no cover - exercised on boards only
    _fast_crc32 = None

PROTO_MAJOR = 1
PROTO_MINOR = 2

END = 0xC0
ESC = 0xDB
ESC_END = 0xDC
ESC_ESC = 0xDD
MAX_FRAME = 255          # longest unescaped frame (header + body + crc) either side accepts
HEADER_LEN = 6
CRC_LEN = 4

# Message types, shoe -> host.
HELLO = 0x01
HEARTBEAT = 0x02
PONG = 0x03
CARD_OUT = 0x10
DEAL_STARTED = 0x11
DEAL_FINISHED = 0x12
PACK_LOADED = 0x13
JAM = 0x14
EMPTY = 0x15
BUTTON = 0x16
ERROR = 0x17
REPLY = 0x18
BOARD_STARTED = 0x19      # 1.2
CARD_REJECTED = 0x1A      # 1.2
BOARD_FINISHED = 0x1B     # 1.2
# Link messages carry the last sequence number used instead of their own; the rest are numbered.
LINK_TYPES = (HELLO, HEARTBEAT, PONG)
NUMBERED_FIRST = 0x10
NUMBERED_LAST = 0x7F

# Message types, host -> shoe.
HOST_HELLO = 0x80
START_DEAL = 0x81
PAUSE = 0x82
RESUME = 0x83
ABORT = 0x84
SET_LAMP = 0x85
PING = 0x86
RESEND = 0x87
ACK = 0x88
DEAL_BOARD = 0x89         # 1.2
# Link commands (seq 0, never a REPLY) and numbered commands (a command id, exactly one REPLY).
LINK_COMMANDS = (HOST_HELLO, PING, RESEND, ACK)
NUMBERED_COMMANDS = (START_DEAL, PAUSE, RESUME, ABORT, SET_LAMP, DEAL_BOARD)
LAMP_MODES = 4       # 0 off, 1 on, 2 slow blink, 3 fast blink
LAMP_COLOURS = 5     # 0 white, 1 red, 2 green, 3 amber, 4 blue

# Seat codes.
SEAT_TABLE = 4      # the turn-up card (euchre's trump), face up on the table
SEAT_NONE = 255     # a card that left outside a deal

# Orientation codes.
FACE_DOWN = 0
FACE_UP = 1
FACE_UNKNOWN = 2

# Shoe states (heartbeat).
ST_IDLE = 0
ST_LOADED = 1
ST_DEALING = 2
ST_PAUSED = 3
ST_JAMMED = 4

# DEAL_FINISHED reasons.
END_COMPLETE = 0
END_ABORTED = 1
END_EMPTY = 2

# REPLY statuses.
OK = 0
BUSY = 1
BAD_STATE = 2
BAD_ARGS = 3
UNSUPPORTED = 4

# ERROR codes (1 is reserved: never sent).
ERR_UNKNOWN_COMMAND = 2
ERR_VERSION = 3
ERR_RING_OVERFLOW = 4
ERR_HARDWARE = 5
ERR_BAD_COMMAND = 6

# Capability bits (HELLO).
CAP_FACE_DETECT = 0x01
CAP_CODE_READER = 0x02
CAP_BUTTONS = 0x04
CAP_LAMPS = 0x08
CAP_JAM_DETECT = 0x10
CAP_PACK_SENSOR = 0x20
CAP_BOARDS = 0x40         # 1.2: a reject exit and pockets the shoe routes each card to (DEAL_BOARD)

_TABLE = None


def _crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


def crc32_slow(data):
    """CRC-32 (IEEE 802.3, as zlib) without binascii; used where binascii.crc32 is missing."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _crc_table()
    t = _TABLE
    c = 0xFFFFFFFF
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32(data):
    if _fast_crc32 is None:
        return crc32_slow(data)
    return _fast_crc32(data) & 0xFFFFFFFF


def slip_escape(raw):
    if END not in raw and ESC not in raw:
        return raw
    out = bytearray()
    for b in raw:
        if b == END:
            out.append(ESC)
            out.append(ESC_END)
        elif b == ESC:
            out.append(ESC)
            out.append(ESC_ESC)
        else:
            out.append(b)
    return bytes(out)


def slip_unescape(body):
    """Undo SLIP escaping; None when an ESC is followed by anything but ESC_END / ESC_ESC."""
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        b = body[i]
        if b == ESC:
            if i + 1 >= n:
                return None
            nb = body[i + 1]
            if nb == ESC_END:
                out.append(END)
            elif nb == ESC_ESC:
                out.append(ESC)
            else:
                return None
            i += 2
        else:
            out.append(b)
            i += 1
    return bytes(out)


def frame(mtype, seq, body=b"", version=PROTO_MAJOR):
    """The bytes on the wire for one message."""
    raw = struct.pack(">BBI", version, mtype, seq) + body
    raw = raw + struct.pack(">I", crc32(raw))
    return bytes([END]) + slip_escape(raw) + bytes([END])


def pack_str(text, limit=255):
    """A ``str`` field: length byte and UTF-8, cut to ``limit`` bytes at a character boundary."""
    data = text.encode("utf-8")
    if len(data) > limit:
        data = data[:limit]
        while data and (data[-1] & 0xC0) == 0x80:     # a continuation byte: drop the broken character
            data = data[:-1]
        if data and data[-1] >= 0xC0:                  # the lead byte of the broken character
            data = data[:-1]
    return bytes([len(data)]) + data


def unpack_str(raw, pos):
    """(text, next position); raises ValueError when the string runs past the end."""
    if pos >= len(raw):
        raise ValueError("string length missing")
    n = raw[pos]
    end = pos + 1 + n
    if end > len(raw):
        raise ValueError("string runs past the end")
    try:
        text = bytes(raw[pos + 1:end]).decode("utf-8")
    except (UnicodeError, ValueError):
        # MicroPython raises UnicodeError with no message; say what is wrong on both.
        raise ValueError("text is not UTF-8")
    return text, end


class Deframer:
    """Bytes in, checked raw frames (header + body, crc removed) out; counts what it throws away."""

    def __init__(self):
        self.buf = bytearray()
        self.dropping = False
        self.bad_crc = 0
        self.bad_escape = 0
        self.oversize = 0
        self.short = 0

    def feed(self, data):
        frames = []
        for b in data:
            if b == END:
                if self.dropping:
                    self.dropping = False
                elif self.buf:
                    raw = self._check(bytes(self.buf))
                    if raw is not None:
                        frames.append(raw)
                self.buf = bytearray()
            elif not self.dropping:
                self.buf.append(b)
                if len(self.buf) > 2 * MAX_FRAME:
                    self.oversize += 1
                    self.buf = bytearray()
                    self.dropping = True
        return frames

    def _check(self, body):
        raw = slip_unescape(body)
        if raw is None:
            self.bad_escape += 1
            return None
        if len(raw) < HEADER_LEN + CRC_LEN:
            self.short += 1
            return None
        if len(raw) > MAX_FRAME:
            self.oversize += 1
            return None
        if crc32(raw[:-CRC_LEN]) != struct.unpack(">I", raw[-CRC_LEN:])[0]:
            self.bad_crc += 1
            return None
        return raw[:-CRC_LEN]


def header(raw):
    """(version, type, seq) of a checked raw frame."""
    return struct.unpack(">BBI", raw[:HEADER_LEN])


# --- shoe -> host bodies -----------------------------------------------------------------------


def hello_body(boot_id, oldest_held, caps, ring_size, shoe_id, firmware, major=PROTO_MAJOR, minor=PROTO_MINOR):
    return (struct.pack(">BBIIHH", major, minor, boot_id, oldest_held, caps, ring_size)
            + pack_str(shoe_id) + pack_str(firmware))


def heartbeat_body(state, flags, ring_used):
    return struct.pack(">BBH", state, flags, ring_used)


def pong_body(token):
    return struct.pack(">H", token)


def card_out_body(index, seat, card, orientation, quality, pack):
    code = b"\x00\x00" if not card else card.encode("utf-8")[:2]
    return struct.pack(">BB", index, seat) + code + struct.pack(">BB", orientation, quality) + pack_str(pack)


def deal_started_body(dealer, turn_up, sizes, pack):
    return struct.pack(">BBB", dealer, turn_up, len(sizes)) + bytes(sizes) + pack_str(pack)


def deal_finished_body(reason, dealt, left_in_shoe):
    return struct.pack(">BBB", reason, dealt, 1 if left_in_shoe else 0)


def pack_loaded_body(pack):
    return pack_str(pack)


def jam_body(index, cleared):
    return struct.pack(">BB", index, 1 if cleared else 0)


def empty_body(dealt):
    return struct.pack(">B", dealt)


def button_body(seat, kind):
    return struct.pack(">BB", seat, kind)


# Free-text details are cut so that the frame stays within MAX_FRAME: an over-long numbered frame would
# be dropped by every receiver and leave a gap no RESEND can close.
_ERROR_DETAIL_MAX = MAX_FRAME - HEADER_LEN - CRC_LEN - 2
_REPLY_DETAIL_MAX = MAX_FRAME - HEADER_LEN - CRC_LEN - 6


def board_started_body(board, board_id, seats, placed, pack):
    return (struct.pack(">HI", board, board_id) + _board.pack_seats(seats) + _board.pack_cards(placed)
            + pack_str(pack))


def card_rejected_body(rejected, reason, card, orientation, quality, pack):
    code = b"\x00\x00" if not card else card.encode("utf-8")[:2]
    return struct.pack(">BB", rejected, reason) + code + struct.pack(">BB", orientation, quality) + pack_str(pack)


def board_finished_body(board, board_id, reason, rejected, left_in_shoe, missing, pack):
    return (struct.pack(">HIBBB", board, board_id, reason, rejected, 1 if left_in_shoe else 0)
            + _board.pack_cards(missing) + pack_str(pack))


def error_body(code, detail):
    return struct.pack(">B", code) + pack_str(detail, _ERROR_DETAIL_MAX)


def reply_body(cmd, status, detail):
    return struct.pack(">IB", cmd, status) + pack_str(detail, _REPLY_DETAIL_MAX)


# --- host -> shoe bodies (decoded by the firmware) ------------------------------------------------


def parse_command(raw):
    """A checked raw frame from the host as (type, cmd_id, fields dict); field names are PROTOCOL.md's.

    Raises ValueError (with a sentence) when the body is too short or its text is not UTF-8; unknown
    types return an empty dict. HOST_HELLO has no ``next_cmd`` when a 1.0 host left it out.
    """
    _ver, mtype, cmd = header(raw)
    b = raw[HEADER_LEN:]
    f = {}
    if mtype == HOST_HELLO:
        if len(b) < 6:
            raise ValueError("HOST_HELLO too short")
        f["major"], f["minor"], f["session"] = struct.unpack(">BBI", b[:6])
        if len(b) >= 10:
            f["next_cmd"] = struct.unpack(">I", b[6:10])[0]
    elif mtype == START_DEAL:
        if len(b) < 3:
            raise ValueError("START_DEAL too short")
        f["dealer"], f["turn_up"], n = struct.unpack(">BBB", b[:3])
        if len(b) < 3 + n:
            raise ValueError("START_DEAL sizes run past the end")
        f["sizes"] = list(b[3:3 + n])
        f["pack"] = unpack_str(b, 3 + n)[0]     # the body ends with ``pack str``: without it, too short
    elif mtype == SET_LAMP:
        if len(b) < 3:
            raise ValueError("SET_LAMP too short")
        f["lamp"], f["mode"], f["colour"] = struct.unpack(">BBB", b[:3])
    elif mtype == PING:
        if len(b) < 2:
            raise ValueError("PING too short")
        f["token"] = struct.unpack(">H", b[:2])[0]
    elif mtype == RESEND:
        if len(b) < 4:
            raise ValueError("RESEND too short")
        f["first"] = struct.unpack(">I", b[:4])[0]
        if len(b) >= 8:
            f["last"] = struct.unpack(">I", b[4:8])[0]
    elif mtype == ACK:
        if len(b) < 4:
            raise ValueError("ACK too short")
        f["upto"] = struct.unpack(">I", b[:4])[0]
    elif mtype == DEAL_BOARD:
        if len(b) < 26:
            raise ValueError("DEAL_BOARD too short")
        f["board"], f["board_id"] = struct.unpack(">HI", b[:6])
        f["seats"] = _board.unpack_seats(b[6:19])
        f["placed"] = _board.unpack_cards(b[19:26])
        f["pack"] = unpack_str(b, 26)[0]
    return mtype, cmd, f
