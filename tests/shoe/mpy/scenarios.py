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
from simhal import MemPort, SimHal, shuffled

BODIES = {
    "HELLO": wire.hello_body, "HEARTBEAT": wire.heartbeat_body, "PONG": wire.pong_body,
    "CARD_OUT": wire.card_out_body, "DEAL_STARTED": wire.deal_started_body,
    "DEAL_FINISHED": wire.deal_finished_body, "PACK_LOADED": wire.pack_loaded_body, "JAM": wire.jam_body,
    "EMPTY": wire.empty_body, "BUTTON": wire.button_body, "ERROR": wire.error_body, "REPLY": wire.reply_body,
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


def session(path):
    """The annotated session of PROTOCOL.md section 12: the host's bytes fed at their millisecond,
    the shoe's bytes printed per millisecond."""
    with open(path) as fh:
        doc = json.load(fh)["session"]
    hal = SimHal(doc["well"], pass_ms=doc["pass_ms"], gap_ms=doc["gap_ms"])
    port = MemPort()
    shoe = Shoe(hal, port, doc["boot_id"], shoe_id=doc["shoe_id"], heartbeat_ms=doc["heartbeat_ms"])
    host = {}
    for step in doc["steps"]:
        if step["from"] == "host":
            host[step["t"]] = host.get(step["t"], b"") + bytes.fromhex(step["hex"])
    for t in range(doc["ms"]):
        hal.ms = t
        port.inbox.extend(host.get(t, b""))
        hal.step(shoe.dealing and not shoe.paused)
        shoe.poll()
        out = port.take()
        if out:
            print("shoe", t, out.hex())


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
