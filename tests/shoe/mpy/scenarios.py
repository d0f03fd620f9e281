"""Runs of the reference firmware that print every byte it writes, in the subset of Python both
MicroPython and CPython run. ``tests/shoe/test_micropython.py`` runs each under both VMs and wants the
same lines from both, and the lines' frames to match the test vectors.

Each function prints lines ``<what> <name or ms> <hex or value>``; dicts are printed sorted (MicroPython's
dicts do not keep insertion order).
"""

import json

from shoefw import wire
from shoefw.hal import parse_payload
from shoefw.shoe import Shoe, seat_for
from simhal import MemPort, SimHal, check_char, payload, shuffled

BODIES = {
    "HELLO": wire.hello_body, "HEARTBEAT": wire.heartbeat_body, "PONG": wire.pong_body,
    "CARD_OUT": wire.card_out_body, "DEAL_STARTED": wire.deal_started_body,
    "DEAL_FINISHED": wire.deal_finished_body, "PACK_LOADED": wire.pack_loaded_body, "JAM": wire.jam_body,
    "EMPTY": wire.empty_body, "BUTTON": wire.button_body, "ERROR": wire.error_body, "REPLY": wire.reply_body,
    "BOARD_STARTED": wire.board_started_body, "CARD_REJECTED": wire.card_rejected_body,
    "BOARD_FINISHED": wire.board_finished_body,
}


def _fields(f):
    return ",".join("%s=%r" % kv for kv in sorted(f.items()))


def vectors(path):
    """Every vector of test_vectors.json through the firmware's wire code."""
    with open(path) as fh:
        doc = json.load(fh)
    print("crc", "%08x" % wire.crc32(doc["crc32_check"]["ascii"].encode()),
          "%08x" % wire.crc32_slow(doc["crc32_check"]["ascii"].encode()))
    for v in doc["valid"]:
        name = v["name"].replace(" ", "_")
        d = wire.Deframer()
        frames = d.feed(bytes.fromhex(v["hex"]))
        print("deframe", name, len(frames), "%d,%d,%d" % wire.header(frames[0]))
        if v["direction"] == "shoe":
            body = BODIES[v["type"]](**v["fields"])
            print("encode", name, wire.frame(getattr(wire, v["type"]), v["seq"], body).hex())
        else:
            mtype, cmd, f = wire.parse_command(frames[0])
            print("decode", name, cmd, _fields(f))
            print("reencode", name, wire.frame(mtype, cmd, frames[0][6:]).hex())
    for v in doc["invalid"]:
        d = wire.Deframer()
        got = d.feed(bytes.fromhex(v["hex"]))
        print("invalid", v["name"].replace(" ", "_"), len(got), d.bad_crc, d.short, d.bad_escape, d.oversize)
    for c in doc["card_codes"]:
        pack, card = parse_payload(c["payload"])
        print("code", c["payload"], pack, card)


def session(path, key="session"):
    """The annotated session of PROTOCOL.md section 12 (``key`` "session") or 12.1 ("board_session"):
    the host's bytes fed at their millisecond, the operator's cards put in the well at theirs, the
    shoe's bytes printed per millisecond."""
    with open(path) as fh:
        doc = json.load(fh)[key]
    ops = {}
    for op in doc.get("operator", []):
        ops[op["t"]] = op["well"]
    hal = SimHal(doc["well"], pass_ms=doc["pass_ms"], gap_ms=doc["gap_ms"])
    port = MemPort()
    shoe = Shoe(hal, port, doc["boot_id"], shoe_id=doc["shoe_id"], heartbeat_ms=doc["heartbeat_ms"])
    host = {}
    for step in doc["steps"]:
        if step["from"] == "host":
            host[step["t"]] = host.get(step["t"], b"") + bytes.fromhex(step["hex"])
    for t in range(doc["ms"]):
        hal.ms = t
        if t in ops:
            hal.well = list(ops[t])
        port.inbox.extend(host.get(t, b""))
        hal.step(shoe.dealing and not shoe.paused)
        shoe.poll()
        out = port.take()
        if out:
            print("shoe", t, out.hex())
    if key == "board_session":
        for dest in sorted(hal.pockets):
            print("pocket", dest, ",".join(hal.pockets[dest]))


class Host:
    """A host written with the firmware's own framing: just enough to drive a deal."""

    def __init__(self, port):
        self.port = port
        self.cmd = 0

    def send(self, mtype, body, cmd=0):
        self.port.inbox.extend(wire.frame(mtype, cmd, body))

    def command(self, mtype, body, cmd=None):
        if cmd is None:
            self.cmd += 1
            cmd = self.cmd
        self.send(mtype, body, cmd)


def _run(shoe, hal, port, ms, actions):
    for t in range(ms):
        hal.ms += 1
        act = actions.get(t)
        if act is not None:
            act()
        hal.step(shoe.dealing and not shoe.paused)
        shoe.poll()
        out = port.take()
        if out:
            print("out", hal.ms, out.hex())


def whole_deal():
    """A bridge deal with a host that repeats commands and RESENDs, odd commands, a jam after an
    ABORT, and a deal of 255 cards followed by a card the dealer pulls by hand and that jams."""
    well = shuffled("A1", 7)
    well[5] = ""                                   # a card whose code cannot be read
    well[9] = "1A1ZZ" + well[9][5:]                # a back mark with a wrong check: unreadable
    hal = SimHal(well + shuffled("B1", 8)[:20], face_up=(3,))
    port = MemPort()
    shoe = Shoe(hal, port, 0x5EED0001, shoe_id="mpy", heartbeat_ms=50, jam_ms=20)
    h = Host(port)
    deal = bytes([0, 0, 13] + [1] * 13) + b"\x02A1"
    actions = {
        2: lambda: h.send(wire.HOST_HELLO, bytes([1, 1, 0, 0, 0, 9, 0, 0, 0, 1])),
        4: lambda: h.command(wire.START_DEAL, deal),
        6: lambda: h.command(wire.START_DEAL, deal, cmd=1),           # repeated id: same REPLY
        30: lambda: h.command(wire.SET_LAMP, bytes([2, 9, 1])),       # unknown mode
        31: lambda: h.command(wire.START_DEAL, b"\x00\x00\x01\x01\x02\xff\xfe"),   # pack not UTF-8
        32: lambda: h.command(wire.PAUSE, b""),
        40: lambda: h.command(wire.RESUME, b""),
        41: lambda: h.command(wire.RESUME, b""),                      # not paused: ok, nothing changes
        60: lambda: (h.send(wire.RESEND, b"\x00\x00\x00\x01"), h.send(wire.RESEND, b"\x00\x00\x00\x01"),
                     h.send(wire.RESEND, b"\x00\x00\x00\x03")),      # a storm: coalesced
        90: lambda: h.command(0x8F, b"new"),                          # a numbered command of a newer minor
        91: lambda: h.send(0x8E, b""),                                # an unknown link command
        92: lambda: h.command(wire.PAUSE, b"", cmd=12),               # out of order: dropped
        200: lambda: h.send(wire.ACK, wire.struct.pack(">I", shoe.seq)),
        400: lambda: h.command(wire.ABORT, b""),                      # after the deal: bad state
    }
    _run(shoe, hal, port, 420, actions)
    # A second deal aborted while a card jams in the exit: the card leaves outside the deal.
    hal.jam_at = hal.pulled + 3
    hal.jam_ms = 60
    h.command(wire.START_DEAL, bytes([1, 0, 2, 1, 1]) + b"\x00")
    _run(shoe, hal, port, 120, {40: lambda: h.command(wire.ABORT, b"")})
    print("counters", shoe.seq, shoe.last_cmd, shoe.repeated_commands, shoe.early_commands,
          shoe.coalesced_resends, shoe.resent_frames, shoe.unknown_commands, shoe.bad_commands)
    print("lamps", _fields(hal.lamps))
    print("seats", [seat_for(i, 3, [2, 3], 1) for i in range(22)])


def long_deal():
    """A deal of 255 cards (the most a deal can be), then a card pulled by hand jams outside it."""
    well = shuffled("C1", 1) + shuffled("C2", 2) + shuffled("C3", 3) + shuffled("C4", 4) + shuffled("C5", 5)
    hal = SimHal(well, pass_ms=1, gap_ms=1)
    port = MemPort()
    shoe = Shoe(hal, port, 0x5EED0002, heartbeat_ms=100000, jam_ms=5, ring_size=8)
    h = Host(port)
    h.send(wire.HOST_HELLO, bytes([1, 1, 0, 0, 0, 3, 0, 0, 0, 1]))
    h.command(wire.START_DEAL, bytes([2, 3, 63] + [1] * 63) + b"\x00")
    _run(shoe, hal, port, 900, {})
    print("dealt", shoe.dealt, shoe.dealing, shoe.ring.overwritten)
    hal.slot = well[0]                             # the dealer pushes a card into the exit by hand
    hal.pending = True
    hal.slot_until = hal.ms + 20
    _run(shoe, hal, port, 30, {})


def _record(seed):
    """52 seat codes, 13 each, in an order fixed by ``seed`` (the same LCG as ``shuffled``)."""
    seats = [k % 4 for k in range(52)]
    x = seed & 0xFFFFFFFF
    for i in range(51, 0, -1):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        j = x % (i + 1)
        seats[i], seats[j] = seats[j], seats[i]
    return seats


def _deal_board(board, board_id, seats, placed, pack):
    from shoefw import board as b

    return (wire.struct.pack(">HI", board, board_id) + b.pack_seats(seats) + b.pack_cards(placed)
            + wire.pack_str(pack))


def board_deal():
    """Boards from a record (protocol 1.2) with every fault: refusals in the documented order, a pack
    with a card of another pack slipped in, a duplicate, an unreadable card and one card missing; the
    missing cards put back and the board finished with ``placed``; a board aborted while a card jams in
    the exit; a shoe that claims 1.1 and one without pockets."""
    seats = _record(11)
    well = shuffled("B7", 5)
    missing = well.pop(30)                          # one card is not in the pack
    smudged = well[12]
    well[12] = ""                                   # its code cannot be read
    well.insert(7, payload("A1", "KH"))             # a card of another pack slipped in
    well.insert(20, well[3])                        # a second copy of a card
    hal = SimHal(well, face_up=(9,))
    port = MemPort()
    shoe = Shoe(hal, port, 0x5EED0003, shoe_id="mpy-board", heartbeat_ms=200, jam_ms=20)
    h = Host(port)
    wrong = list(seats)
    wrong[0] = (wrong[0] + 1) % 4                   # 14 cards to one seat, 12 to another
    actions = {
        1: lambda: h.send(wire.HOST_HELLO, bytes([1, 2, 0, 0, 0, 5, 0, 0, 0, 1])),
        2: lambda: h.command(wire.DEAL_BOARD, _deal_board(0, 1, seats, [], "B7")),           # board 0
        3: lambda: h.command(wire.DEAL_BOARD, _deal_board(3, 1, wrong, [], "B7")),           # 14 and 12
        4: lambda: h.command(wire.DEAL_BOARD, _deal_board(3, 1, seats, [], "B")),            # bad pack id
        5: lambda: h.command(wire.DEAL_BOARD, _deal_board(3, 1, seats, [], "B7")[:20]),      # too short
        6: lambda: h.command(wire.DEAL_BOARD, _deal_board(3, 0x66F31073, seats, [], "B7")),  # dealt
        8: lambda: h.command(wire.START_DEAL, bytes([0, 0, 13] + [1] * 13) + b"\x00"),      # busy
        9: lambda: h.command(wire.DEAL_BOARD, _deal_board(4, 1, seats, [], "")),             # busy
        40: lambda: h.command(wire.PAUSE, b""),
        70: lambda: h.command(wire.RESUME, b""),
    }
    _run(shoe, hal, port, 420, actions)
    print("after", shoe.dealing, len(hal.well), ",".join(str(k) for k in sorted(hal.pockets)))
    # The operator puts the missing card and the smudged one (cleaned) back; the host sends the board
    # again with every other card placed.
    from shoefw import board as b

    left = [b.card_text(k) for k in range(52)]
    back = [missing[3:5], smudged[3:5]]
    placed = [c for c in left if c not in back]
    hal.well = [missing, smudged]
    _run(shoe, hal, port, 5, {})
    h.command(wire.DEAL_BOARD, _deal_board(3, 0x66F31073, seats, placed, "B7"))
    _run(shoe, hal, port, 40, {})
    for dest in sorted(hal.pockets):
        print("pocket", dest, len(hal.pockets[dest]), ",".join(sorted(p[3:5] if p else "??" for p in hal.pockets[dest])))
    # A board aborted while its card jams in the exit: the card goes to the reject exit, outside it.
    hal.well = shuffled("C1", 6)
    hal.pockets = {}
    hal.jam_at = hal.pulled + 4
    hal.jam_ms = 60
    _run(shoe, hal, port, 3, {})
    h.command(wire.DEAL_BOARD, _deal_board(9, 2, seats, [], ""))
    _run(shoe, hal, port, 80, {40: lambda: h.command(wire.ABORT, b"")})
    print("aborted", ",".join("%s:%d" % (k, len(v)) for k, v in sorted(hal.pockets.items())))
    # A shoe claiming 1.1, and a 1.2 shoe without pockets: status 4, nothing read.
    for minor, caps in ((1, 0x7F), (2, 0x3F)):
        hal2 = SimHal(shuffled("D1", 7))
        hal2.capabilities = lambda caps=caps: caps
        port2 = MemPort()
        old = Shoe(hal2, port2, 0x5EED0004, minor=minor)
        old.poll()
        port2.take()
        port2.inbox.extend(wire.frame(wire.HOST_HELLO, 0, bytes([1, 2, 0, 0, 0, 6, 0, 0, 0, 1])))
        port2.inbox.extend(wire.frame(wire.DEAL_BOARD, 1, _deal_board(1, 1, seats, [], "")[:3]))
        old.poll()
        print("old", minor, port2.take().hex())
    print("counters", shoe.seq, shoe.last_cmd, shoe.unknown_commands, shoe.bad_commands)


def board_decisions():
    """PROTOCOL.md's decided points on the reference shoe: a card decoded only after it left (too late
    for the gate) is a reject with no card; a back mark is face up; the last card rejected empties the
    well (EMPTY counting the cards placed before); the unused bits of ``placed`` echoed as 0."""
    seats = _record(12)
    back = "1B7ZZ" + check_char("1B7ZZ")
    well = [payload("B7", "AS"), back, payload("B7", "KS"), payload("X9", "QS")]
    hal = SimHal(well)
    hal.late = (1,)
    port = MemPort()
    shoe = Shoe(hal, port, 0x5EED0005, shoe_id="mpy-decide", heartbeat_ms=1000)
    h = Host(port)
    from shoefw import board as b

    placed = [b.card_text(k) for k in range(52) if b.card_text(k) not in ("AS", "KS", "QS")]
    body = bytearray(_deal_board(5, 7, seats, placed, "B7"))
    body[6 + 13 + 6] |= 0x0F                        # the four bits after the two of clubs
    actions = {1: lambda: h.send(wire.HOST_HELLO, bytes([1, 2, 0, 0, 0, 7, 0, 0, 0, 1])),
               2: lambda: h.command(wire.DEAL_BOARD, bytes(body))}
    _run(shoe, hal, port, 60, actions)
    print("late", shoe.late_codes)
    for dest in sorted(hal.pockets):
        print("pocket", dest, ",".join(p[3:5] if p else "??" for p in hal.pockets[dest]))
