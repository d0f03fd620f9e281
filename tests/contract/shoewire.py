"""A clean-room codec for the shoe protocol, written from hardware/shoe/PROTOCOL.md (1.2) alone.

It imports nothing of ours: it is what an outside developer would write from sections 2-4 of the
document, and the contract tests hold our host codec and reference firmware to it. A message's meaning
is ``(type name, seq, fields)`` with the document's field names and wire values (seat numbers, card text
or ``None`` for ``00 00``), exactly as the test vectors give them (section 11).
"""

from __future__ import annotations

import struct

END, ESC, ESC_END, ESC_ESC = 0xC0, 0xDB, 0xDC, 0xDD
MAX_FRAME = 255          # section 2: unescaped header + body + crc
MIN_FRAME = 10           # section 2: shorter is dropped
RANKS, SUITS = "AKQJT98765432", "SHDC"

# Section 4's tables, row by row: type -> (name, fields). A field is (name, kind); kinds: u8, u16, u32,
# str, card (2 bytes), sizes (n u8 then n bytes), and 1.2's seats (13 bytes: 52 seat codes, four a byte,
# card 0 in the top two bits) and cards (7 bytes: a set, card 0 the top bit). Fields marked optional
# (suffix '?') were added at the end of a body by 1.1: absent on the wire means absent in the meaning.
TYPES: dict[int, tuple[str, tuple[tuple[str, str], ...]]] = {
    0x01: ("HELLO", (("major", "u8"), ("minor", "u8"), ("boot_id", "u32"), ("oldest_held", "u32"),
                     ("caps", "u16"), ("ring_size", "u16"), ("shoe_id", "str"), ("firmware", "str"))),
    0x02: ("HEARTBEAT", (("state", "u8"), ("flags", "u8"), ("ring_used", "u16"))),
    0x03: ("PONG", (("token", "u16"),)),
    0x10: ("CARD_OUT", (("index", "u8"), ("seat", "u8"), ("card", "card"), ("orientation", "u8"),
                        ("quality", "u8"), ("pack", "str"))),
    0x11: ("DEAL_STARTED", (("dealer", "u8"), ("turn_up", "u8"), ("sizes", "sizes"), ("pack", "str"))),
    0x12: ("DEAL_FINISHED", (("reason", "u8"), ("dealt", "u8"), ("left_in_shoe", "u8"))),
    0x13: ("PACK_LOADED", (("pack", "str"),)),
    0x14: ("JAM", (("index", "u8"), ("cleared", "u8"))),
    0x15: ("EMPTY", (("dealt", "u8"),)),
    0x16: ("BUTTON", (("seat", "u8"), ("kind", "u8"))),
    0x17: ("ERROR", (("code", "u8"), ("detail", "str"))),
    0x18: ("REPLY", (("cmd", "u32"), ("status", "u8"), ("detail", "str"))),
    0x19: ("BOARD_STARTED", (("board", "u16"), ("board_id", "u32"), ("seats", "seats"), ("placed", "cards"),
                             ("pack", "str"))),
    0x1A: ("CARD_REJECTED", (("rejected", "u8"), ("reason", "u8"), ("card", "card"), ("orientation", "u8"),
                             ("quality", "u8"), ("pack", "str"))),
    0x1B: ("BOARD_FINISHED", (("board", "u16"), ("board_id", "u32"), ("reason", "u8"), ("rejected", "u8"),
                              ("left_in_shoe", "u8"), ("missing", "cards"), ("pack", "str"))),
    0x80: ("HOST_HELLO", (("major", "u8"), ("minor", "u8"), ("session", "u32"), ("next_cmd", "u32?"))),
    0x81: ("START_DEAL", (("dealer", "u8"), ("turn_up", "u8"), ("sizes", "sizes"), ("pack", "str"))),
    0x82: ("PAUSE", ()),
    0x83: ("RESUME", ()),
    0x84: ("ABORT", ()),
    0x85: ("SET_LAMP", (("lamp", "u8"), ("mode", "u8"), ("colour", "u8"))),
    0x86: ("PING", (("token", "u16"),)),
    0x87: ("RESEND", (("first", "u32"), ("last", "u32?"))),
    0x88: ("ACK", (("upto", "u32"),)),
    0x89: ("DEAL_BOARD", (("board", "u16"), ("board_id", "u32"), ("seats", "seats"), ("placed", "cards"),
                          ("pack", "str"))),
}
BY_NAME = {name: (code, fields) for code, (name, fields) in TYPES.items()}
_INT = {"u8": ">B", "u16": ">H", "u32": ">I"}
# Section 3: the canonical card order, spades, hearts, diamonds, clubs, each from the ace down.
CANONICAL = [r + s for s in SUITS for r in RANKS]


class Malformed(ValueError):
    """A frame that passed the CRC but whose body cannot be read (section 3, 9)."""


def crc32(data: bytes) -> int:
    """Section 2: reflected CRC-32, table polynomial 0xEDB88320, init and final XOR 0xFFFFFFFF."""
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
    return c ^ 0xFFFFFFFF


def escape(raw: bytes) -> bytes:
    out = bytearray()
    for b in raw:
        out += bytes((ESC, ESC_END)) if b == END else bytes((ESC, ESC_ESC)) if b == ESC else bytes((b,))
    return bytes(out)


def unescape(data: bytes) -> bytes | None:
    out = bytearray()
    it = iter(data)
    for b in it:
        if b == ESC:
            nxt = next(it, None)
            if nxt == ESC_END:
                out.append(END)
            elif nxt == ESC_ESC:
                out.append(ESC)
            else:
                return None
        else:
            out.append(b)
    return bytes(out)


def _str(text: str) -> bytes:
    data = text.encode("utf-8")
    if len(data) > 255:
        raise ValueError("a str holds at most 255 bytes")
    return bytes((len(data),)) + data


def encode_body(name: str, fields: dict) -> bytes:
    out = bytearray()
    for fname, kind in BY_NAME[name][1]:
        if kind.endswith("?"):
            if fname not in fields:
                continue
            kind = kind[:-1]
        value = fields[fname]
        if kind in _INT:
            out += struct.pack(_INT[kind], value)
        elif kind == "str":
            out += _str(value)
        elif kind == "card":
            out += b"\x00\x00" if value is None else value.encode("ascii")
        elif kind == "sizes":
            out += bytes((len(value), *value))
        elif kind == "seats":
            packed = bytearray(13)
            for k, seat in enumerate(value):
                packed[k // 4] |= seat << (6 - 2 * (k % 4))
            out += packed
        elif kind == "cards":
            bits = bytearray(7)
            for card in value:
                k = CANONICAL.index(card)
                bits[k // 8] |= 1 << (7 - k % 8)
            out += bits
    return bytes(out)


def encode(name: str, seq: int, fields: dict, *, version: int = 1) -> bytes:
    """The whole frame, both ENDs included (section 2)."""
    raw = struct.pack(">BBI", version, BY_NAME[name][0], seq) + encode_body(name, fields)
    raw += struct.pack(">I", crc32(raw))
    return bytes((END,)) + escape(raw) + bytes((END,))


def decode_body(name: str, body: bytes) -> dict:
    fields: dict = {}
    pos = 0
    for fname, kind in BY_NAME[name][1]:
        optional = kind.endswith("?")
        kind = kind.rstrip("?")
        if kind in _INT:
            size = struct.calcsize(_INT[kind])
            if pos + size > len(body):
                if optional:
                    break
                raise Malformed(f"{name}: body too short for {fname}")
            fields[fname] = struct.unpack_from(_INT[kind], body, pos)[0]
            pos += size
        elif kind == "str":
            if pos >= len(body) or pos + 1 + body[pos] > len(body):
                raise Malformed(f"{name}: {fname} runs past the end")
            try:
                fields[fname] = body[pos + 1:pos + 1 + body[pos]].decode("utf-8")
            except UnicodeDecodeError:
                raise Malformed(f"{name}: {fname} is not UTF-8") from None
            pos += 1 + body[pos]
        elif kind == "card":
            code = body[pos:pos + 2]
            if len(code) < 2:
                raise Malformed(f"{name}: body too short for {fname}")
            if code == b"\x00\x00":
                fields[fname] = None
            elif chr(code[0]) in RANKS and chr(code[1]) in SUITS:
                fields[fname] = code.decode("ascii")
            else:
                raise Malformed(f"{name}: {code!r} is not a card")
            pos += 2
        elif kind == "sizes":
            if pos >= len(body) or pos + 1 + body[pos] > len(body):
                raise Malformed(f"{name}: sizes run past the end")
            fields[fname] = list(body[pos + 1:pos + 1 + body[pos]])
            pos += 1 + body[pos]
        elif kind == "seats":
            if pos + 13 > len(body):
                raise Malformed(f"{name}: {fname} runs past the end")
            fields[fname] = [(body[pos + k // 4] >> (6 - 2 * (k % 4))) & 3 for k in range(52)]
            pos += 13
        elif kind == "cards":
            if pos + 7 > len(body):
                raise Malformed(f"{name}: {fname} runs past the end")
            fields[fname] = [CANONICAL[k] for k in range(52) if body[pos + k // 8] >> (7 - k % 8) & 1]
            pos += 7      # the last four bits are no card's: ignored
    return fields      # section 9: bytes after the known fields are ignored


def decode(frame: bytes) -> tuple[str, int, dict]:
    """One frame (with or without its ENDs) to its meaning.

    Raises:
        Malformed: with the counter name of section 11 (``bad_escape``, ``short``, ``oversize``,
            ``bad_crc``, ``version``, ``unknown_type``, ``malformed``) as its first argument.
    """
    raw = unescape(frame.strip(bytes((END,))))
    if raw is None:
        raise Malformed("bad_escape")
    if len(raw) < MIN_FRAME:
        raise Malformed("short")
    if len(raw) > MAX_FRAME:
        raise Malformed("oversize")
    if crc32(raw[:-4]) != struct.unpack(">I", raw[-4:])[0]:
        raise Malformed("bad_crc")
    version, mtype, seq = struct.unpack_from(">BBI", raw)
    if version != 1:
        raise Malformed("version", version)
    if mtype not in TYPES:
        raise Malformed("unknown_type", mtype)
    name = TYPES[mtype][0]
    try:
        return name, seq, decode_body(name, raw[6:-4])
    except Malformed as exc:
        raise Malformed("malformed", str(exc)) from None


def seat_of(k: int, dealer: int, sizes: list[int], turn_up: int) -> int | None:
    """Section 7: the seat code of the card with index ``k`` (1-based), None beyond the deal."""
    i = k - 1
    for s in sizes:
        if i < 4 * s:
            return (dealer + 1 + i // s) % 4
        i -= 4 * s
    return 4 if i < turn_up else None


def check_char(text5: str) -> str:
    """Section 8: ISO 7064 MOD 37,36 check character over the first five characters."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    p = 36
    for ch in text5:
        s = (p + alphabet.index(ch)) % 36 or 36
        p = (2 * s) % 37
    return alphabet[(37 - p) % 36]


def read_card_code(text: str) -> tuple[str | None, str]:
    """Section 8's table: reader text -> (CARD_OUT card or None, pack)."""
    t = text.strip(" \t\r\n")     # white space (these four only) off both ends
    t = "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in t)     # a-z upper-cased, nothing else
    alphabet = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if len(t) != 6 or not set(t) <= alphabet or t[0] != "1" or check_char(t[:5]) != t[5]:
        return None, ""
    rank_suit = t[3:5]
    if rank_suit == "ZZ":
        return None, t[1:3]
    if rank_suit[0] in RANKS and rank_suit[1] in SUITS:
        return rank_suit, t[1:3]
    return None, ""
