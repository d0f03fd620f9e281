"""Regenerates ``hardware/shoe/test_vectors.json`` (run by hand when the protocol grows; the tests
check that both the host codec and the firmware agree with the stored hex).

    .venv/bin/python -m tests.shoe.make_vectors
"""

from __future__ import annotations

import json
import struct
from zlib import crc32

from firmware_host.shoe import codec
from laws.cards import Card
from tests.shoe.board_example import FINGERPRINT, record
from tests.shoe.board_example import board_session as board_session_example
from tests.shoe.session_example import session_example
from tests.shoe.vectors import VECTORS, to_message

SEATS = ["NESW".index(s.value) for s in record()]        # the board of section 12.1, as wire seat codes
BOARD_ID = int(FINGERPRINT[:8], 16)
NOT_PLACED = ["AS", "TH", "4D", "QC", "2C"]
CANON = [r + s for s in "SHDC" for r in "AKQJT98765432"]
PLACED = [c for c in CANON if c not in NOT_PLACED]

VALID = [
    ("hello", "shoe", "HELLO", 0, dict(major=1, minor=0, boot_id=0x5EED0001, oldest_held=0, caps=0x3F,
                                        ring_size=128, shoe_id="club-3", firmware="1.0.0")),
    ("hello after a gap", "shoe", "HELLO", 41, dict(major=1, minor=2, boot_id=0x5EED0001, oldest_held=37,
                                                    caps=0x06, ring_size=64, shoe_id="s", firmware="1.2.7")),
    ("heartbeat while dealing", "shoe", "HEARTBEAT", 12, dict(state=2, flags=2, ring_used=5)),
    ("heartbeat paused", "shoe", "HEARTBEAT", 300, dict(state=3, flags=3, ring_used=0)),
    ("pong", "shoe", "PONG", 7, dict(token=0xBEEF)),
    ("card ten of spades to east", "shoe", "CARD_OUT", 5,
     dict(index=1, seat=1, card="TS", orientation=0, quality=97, pack="A")),
    ("card face up to north", "shoe", "CARD_OUT", 11,
     dict(index=7, seat=0, card="QH", orientation=1, quality=88, pack="B")),
    ("unreadable card to west", "shoe", "CARD_OUT", 12,
     dict(index=8, seat=3, card=None, orientation=0, quality=0, pack="")),
    ("turn-up card, orientation unknown", "shoe", "CARD_OUT", 30,
     dict(index=21, seat=4, card="JD", orientation=2, quality=100, pack="club-pack-17")),
    ("card outside a deal", "shoe", "CARD_OUT", 31,
     dict(index=0, seat=255, card="2C", orientation=0, quality=90, pack="A")),
    ("card whose seq needs both escapes (0xC0DB)", "shoe", "CARD_OUT", 0xC0DB,
     dict(index=3, seat=2, card="9S", orientation=0, quality=100, pack="A")),
    ("card from a reader without a quality figure", "shoe", "CARD_OUT", 32,
     dict(index=4, seat=3, card="5D", orientation=2, quality=255, pack="B7")),
    ("back mark read: unreadable card, its pack known", "shoe", "CARD_OUT", 33,
     dict(index=5, seat=0, card=None, orientation=1, quality=0, pack="B7")),
    ("card left after an abort (outside a deal)", "shoe", "CARD_OUT", 34,
     dict(index=0, seat=255, card="KH", orientation=0, quality=96, pack="A1")),
    ("bridge deal started, dealer south", "shoe", "DEAL_STARTED", 2,
     dict(dealer=2, turn_up=0, sizes=[1] * 13, pack="A")),
    ("euchre deal started, 3-then-2", "shoe", "DEAL_STARTED", 3,
     dict(dealer=3, turn_up=1, sizes=[3, 2], pack="")),
    ("deal finished", "shoe", "DEAL_FINISHED", 56, dict(reason=0, dealt=52, left_in_shoe=0)),
    ("deal ran out of cards", "shoe", "DEAL_FINISHED", 57, dict(reason=2, dealt=51, left_in_shoe=0)),
    ("deal aborted", "shoe", "DEAL_FINISHED", 58, dict(reason=1, dealt=9, left_in_shoe=1)),
    ("pack loaded", "shoe", "PACK_LOADED", 1, dict(pack="")),
    ("euchre deal complete, kitty left in the well", "shoe", "DEAL_FINISHED", 59,
     dict(reason=0, dealt=21, left_in_shoe=1)),
    ("jam at card 14", "shoe", "JAM", 20, dict(index=14, cleared=0)),
    ("jam cleared", "shoe", "JAM", 21, dict(index=14, cleared=1)),
    ("empty", "shoe", "EMPTY", 55, dict(dealt=51)),
    ("button: west demands", "shoe", "BUTTON", 60, dict(seat=3, kind=2)),
    ("jam outside a deal", "shoe", "JAM", 22, dict(index=0, cleared=0)),
    ("error: ring overflow", "shoe", "ERROR", 61, dict(code=4, detail="ring full: messages up to 9 overwritten")),
    ("error: firmware fault", "shoe", "ERROR", 64, dict(code=5, detail="firmware fault 1: OSError(5,)")),
    ("error: unknown link command", "shoe", "ERROR", 65, dict(code=2, detail="unknown command type 0x8e")),
    ("error: code of a newer minor version", "shoe", "ERROR", 66, dict(code=9, detail="")),
    ("reply ok to command 4", "shoe", "REPLY", 62, dict(cmd=4, status=0, detail="")),
    ("reply busy", "shoe", "REPLY", 63, dict(cmd=5, status=1, detail="a deal is in progress")),
    ("reply bad arguments: pack name not UTF-8", "shoe", "REPLY", 67, dict(cmd=6, status=3, detail="text is not UTF-8")),
    ("reply unsupported: lamp mode", "shoe", "REPLY", 68,
     dict(cmd=7, status=4, detail="lamp mode 9 colour 1 is not supported")),
    ("host hello, protocol 1.0 (no next_cmd)", "host", "HOST_HELLO", 0, dict(major=1, minor=0, session=0x01020304)),
    ("host hello, protocol 1.1", "host", "HOST_HELLO", 0,
     dict(major=1, minor=1, session=0x01020304, next_cmd=5)),
    ("start bridge deal, dealer north", "host", "START_DEAL", 1,
     dict(dealer=0, turn_up=0, sizes=[1] * 13, pack="A")),
    ("start euchre deal 2-then-3 with turn-up", "host", "START_DEAL", 2,
     dict(dealer=1, turn_up=1, sizes=[2, 3], pack="B")),
    ("pause", "host", "PAUSE", 3, {}),
    ("resume", "host", "RESUME", 4, {}),
    ("abort", "host", "ABORT", 5, {}),
    ("lamp 2 blinking red", "host", "SET_LAMP", 6, dict(lamp=2, mode=2, colour=1)),
    ("ping", "host", "PING", 0, dict(token=0x0102)),
    ("resend from 17", "host", "RESEND", 0, dict(first=17)),
    ("resend 5 to 9, protocol 1.1", "host", "RESEND", 0, dict(first=5, last=9)),
    ("ack up to 0xC0DB (escaped)", "host", "ACK", 0, dict(upto=0xC0DB)),
    # protocol 1.2: boards from hand records
    ("hello, protocol 1.2, deals boards", "shoe", "HELLO", 3, dict(major=1, minor=2, boot_id=0x5EED0002,
                                                                    oldest_held=1, caps=0x7F, ring_size=128,
                                                                    shoe_id="station-1", firmware="1.2.0")),
    ("deal board 7 from its record, pack B7", "host", "DEAL_BOARD", 1,
     dict(board=7, board_id=BOARD_ID, seats=SEATS, placed=[], pack="B7")),
    ("deal board 7 again, 47 cards placed", "host", "DEAL_BOARD", 2,
     dict(board=7, board_id=BOARD_ID, seats=SEATS, placed=PLACED, pack="B7")),
    ("deal board 300, any pack", "host", "DEAL_BOARD", 3,
     dict(board=300, board_id=0, seats=[k % 4 for k in range(52)], placed=[], pack="")),
    ("board 7 started", "shoe", "BOARD_STARTED", 2, dict(board=7, board_id=BOARD_ID, seats=SEATS, placed=[],
                                                         pack="B7")),
    ("board card: ace of spades to north's pocket", "shoe", "CARD_OUT", 4,
     dict(index=1, seat=0, card="AS", orientation=0, quality=96, pack="B7")),
    ("rejected: a card of another pack", "shoe", "CARD_REJECTED", 5,
     dict(rejected=1, reason=2, card="KH", orientation=0, quality=96, pack="A1")),
    ("rejected: the ace of spades already placed", "shoe", "CARD_REJECTED", 6,
     dict(rejected=2, reason=3, card="AS", orientation=0, quality=96, pack="B7")),
    ("rejected: unreadable", "shoe", "CARD_REJECTED", 7,
     dict(rejected=3, reason=1, card=None, orientation=0, quality=0, pack="")),
    ("rejected: a back mark, face up", "shoe", "CARD_REJECTED", 8,
     dict(rejected=4, reason=1, card=None, orientation=1, quality=0, pack="B7")),
    ("rejected: a reason of a newer minor version", "shoe", "CARD_REJECTED", 9,
     dict(rejected=5, reason=9, card="2C", orientation=2, quality=255, pack="B7")),
    ("board 7 whole", "shoe", "BOARD_FINISHED", 60,
     dict(board=7, board_id=BOARD_ID, reason=0, rejected=3, left_in_shoe=0, missing=[], pack="B7")),
    ("board 7 not whole: the pack ran out", "shoe", "BOARD_FINISHED", 61,
     dict(board=7, board_id=BOARD_ID, reason=2, rejected=3, left_in_shoe=0, missing=["4D", "2C"], pack="B7")),
    ("board 300 aborted after 3 cards", "shoe", "BOARD_FINISHED", 62,
     dict(board=300, board_id=0, reason=1, rejected=0, left_in_shoe=1, missing=CANON[3:], pack="A1")),
    ("reply unsupported: a shoe without a reject exit", "shoe", "REPLY", 63,
     dict(cmd=1, status=4, detail="this shoe cannot deal boards (it has no reject exit)")),
]


def _frame(raw: bytes) -> str:
    return codec.frame_raw(raw).hex()


def _invalid() -> list[dict[str, object]]:
    card = codec.encode(to_message(dict(name="", type="CARD_OUT", seq=5, fields=VALID[5][4])))
    bad_crc = bytearray(card)
    bad_crc[-2] ^= 0x01
    hello2 = struct.pack(">BBI", 2, 0x01, 0) + struct.pack(">BBIIHH", 2, 1, 7, 0, 0, 64) + b"\x01x\x015"
    return [
        dict(name="bad crc", hex=bytes(bad_crc).hex(), error="bad_crc"),
        dict(name="too short", hex="c00110c0", error="short"),
        dict(name="ESC followed by a plain byte", hex=card[:4].hex() + "db41" + card[4:].hex(), error="bad_escape"),
        dict(name="unknown message type 0x7e", hex=_frame(struct.pack(">BBI", 1, 0x7E, 9) + b"\x00"),
             error="unknown_type"),
        dict(name="card code that is not a card", hex=_frame(struct.pack(">BBIBB", 1, 0x10, 9, 1, 0) + b"ZZ\x00\x00\x00"),
             error="malformed"),
        dict(name="string running past the end", hex=_frame(struct.pack(">BBI", 1, 0x13, 9) + b"\x09AB"),
             error="malformed"),
        dict(name="hello from a protocol 2.1 shoe", hex=_frame(hello2), error="version",
             refusal="shoe speaks protocol 2.1; this host speaks 1.2"),
        dict(name="frame without its end", hex=card[:-1].hex(), error=None),
    ]


CARD_CODES = [("B7", "TD"), ("A1", "TS"), ("B7", None), ("Z9", "2C"), ("00", "AS")]


def _card_codes() -> list[dict[str, object]]:
    from vision.codes import encode_payload

    out: list[dict[str, object]] = []
    for pack, code in CARD_CODES:
        text = encode_payload(pack, None if code is None else Card.parse(code))
        out.append(dict(payload=text, pack=pack, card=code))
    good = str(out[1]["payload"])
    wrong = good[:5] + ("0" if good[5] != "0" else "1")
    out += [dict(payload=wrong, pack="", card=None),          # wrong check character
            dict(payload="2" + good[1:], pack="", card=None),  # another version
            dict(payload="A:TS", pack="", card=None)]          # not a version 1 code
    return out


def main() -> None:
    doc = {
        "about": "Shoe protocol 1.2 test vectors (hardware/shoe/PROTOCOL.md section 11). 'fields' use wire "
                 "values and the document's field names ('seats': 52 seat codes in canonical card order; "
                 "'placed', 'missing': card texts in canonical order). 'invalid' frames must decode to "
                 "nothing; 'error' is the counter that rises (null: nothing yet, the frame is incomplete). "
                 "'card_codes': reader text and what a shoe reports (card null: unreadable). 'session': "
                 "section 12; 'board_session': section 12.1.",
        "crc32_check": {"ascii": "123456789", "crc32": f"{crc32(b'123456789'):08x}"},
        "valid": [],
        "invalid": _invalid(),
        "card_codes": _card_codes(),
        "session": session_example(),
        "board_session": board_session_example(),
    }
    for name, direction, mtype, seq, fields in VALID:
        v = dict(name=name, direction=direction, type=mtype, seq=seq, fields=fields)
        v["hex"] = codec.encode(to_message(v)).hex()
        doc["valid"].append(v)
    VECTORS.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
