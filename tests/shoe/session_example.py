"""The annotated session of PROTOCOL.md section 12, made by running the reference firmware (with the
simulated hardware of ``tests/shoe/mpy/simhal.py``) against the reference host's ``ShoeSession``, one
millisecond at a time, with one frame lost on the way to the host.

``session_example()`` builds it (``make_vectors`` stores it in test_vectors.json under ``session``);
``replay_host()`` feeds the stored shoe frames to a fresh host; ``render()`` prints the listing that
section 12 shows. Host bytes produced during millisecond ``t`` reach the shoe at ``t + 1``.
"""

from __future__ import annotations

import sys
from typing import Any

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.firmware import FIRMWARE_DIR, load_firmware
from firmware_host.shoe.session import ShoeSession
from laws.cards import Seat

SESSION_ID = 0x01020304
BOOT_ID = 0x5EED0001
CARDS = ("TS", "4H", "QC")
LOST = 2              # the CARD_OUT of this card number is lost on its first way to the host
MS = 40


def _simhal() -> Any:
    path = str(FIRMWARE_DIR.parents[2] / "tests" / "shoe" / "mpy")
    if path not in sys.path:
        sys.path.append(path)
    import simhal

    return simhal


def _frames(data: bytes) -> list[bytes]:
    """Split concatenated frames (nothing inside a frame is 0xC0); a lone END stays a step."""
    if data == b"\xc0":
        return [data]
    return [b"\xc0" + part + b"\xc0" for part in data.split(b"\xc0") if part]


class _Host:
    """The reference host: asks for one deal once the pack is loaded, and acknowledges each message as
    soon as it has it (it records nothing, so it is "recorded" at once; a table acknowledges after its
    journal commit)."""

    def __init__(self) -> None:
        self.session = ShoeSession(session_id=SESSION_ID)
        self.asked = False

    def receive(self, data: bytes, now: float) -> bytes:
        events, out = self.session.receive(data, now)
        out += self.session.acknowledge(self.session.expected - 1)
        for ev in events:
            if isinstance(ev, m.PackLoaded) and not self.asked:
                self.asked = True
                out += self.session.command(m.StartDeal(Seat.N, (1,), 0, "A1"), now)[1]
        return out


def session_example() -> dict[str, Any]:
    sim = _simhal()
    shoe_mod, _wire = load_firmware()
    well = [sim.payload("A1", c) for c in CARDS]
    hal = sim.SimHal(well, pass_ms=3, gap_ms=2)
    writes: list[bytes] = []
    port = sim.MemPort()
    port.write = writes.append                      # one step per frame the shoe writes
    shoe = shoe_mod.Shoe(hal, port, BOOT_ID, shoe_id="club-3", heartbeat_ms=100_000)
    host = _Host()
    steps: list[dict[str, Any]] = []
    to_shoe = {1: host.session.connection_made(0.0)}
    steps += [dict(t=1, **{"from": "host"}, hex=f.hex()) for f in _frames(to_shoe[1])]
    lost_done = False
    for t in range(MS):
        hal.ms = t
        port.inbox.extend(to_shoe.pop(t, b""))
        hal.step(shoe.dealing and not shoe.paused)
        shoe.poll()
        out = b""
        for w in writes:
            msg = codec.Decoder().feed(w)
            lost = (not lost_done and len(msg) == 1 and isinstance(msg[0], m.CardOut) and msg[0].index == LOST)
            lost_done = lost_done or lost
            steps.append(dict(t=t, **{"from": "shoe"}, hex=bytes(w).hex(), lost=lost))
            if not lost:
                out += host.receive(bytes(w), t / 1000)
        writes.clear()
        out += host.session.tick(t / 1000)[1]
        if out:
            to_shoe[t + 1] = to_shoe.get(t + 1, b"") + out
            steps += [dict(t=t + 1, **{"from": "host"}, hex=f.hex()) for f in _frames(out)]
    steps = sorted((s for s in steps if s["t"] < MS), key=lambda s: (s["t"], s["from"] == "shoe"))
    for s in steps:
        s["note"] = describe(bytes.fromhex(s["hex"]))
    return dict(well=well, pass_ms=3, gap_ms=2, boot_id=BOOT_ID, shoe_id="club-3", heartbeat_ms=100_000,
                session_id=SESSION_ID, ms=MS, steps=steps)


def replay_host(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The host's frames (``t`` = when the shoe gets them) for the stored shoe frames of ``doc``."""
    host = _Host()
    got = [dict(t=1, hex=f.hex()) for f in _frames(host.session.connection_made(0.0))]
    shoe: dict[int, list[dict[str, Any]]] = {}
    for s in doc["steps"]:
        if s["from"] == "shoe":
            shoe.setdefault(s["t"], []).append(s)
    for t in range(doc["ms"]):
        out = b""
        for s in shoe.get(t, []):
            if not s["lost"]:
                out += host.receive(bytes.fromhex(s["hex"]), t / 1000)
        out += host.session.tick(t / 1000)[1]
        got += [dict(t=t + 1, hex=f.hex()) for f in _frames(out) if t + 1 < doc["ms"]]
    return got


def describe(frame: bytes) -> str:
    """A frame's meaning in the document's words."""
    if frame == b"\xc0":
        return "END (power-up)"
    (msg,) = codec.Decoder().feed(frame)
    match msg:
        case m.Hello():
            return f"HELLO seq {msg.seq}, {msg.major}.{msg.minor}, boot {msg.boot_id:08x}, oldest_held {msg.oldest_held}"
        case m.HostHello():
            return f"HOST_HELLO {msg.major}.{msg.minor}, session {msg.session:08x}, next_cmd {msg.next_cmd}"
        case m.PackLoaded():
            return f"PACK_LOADED seq {msg.seq}"
        case m.StartDeal():
            return f"START_DEAL cmd {msg.cmd}, dealer 0, turn_up {msg.turn_up}, sizes {list(msg.pattern)}, pack {msg.pack!r}"
        case m.DealBegan():
            return f"DEAL_STARTED seq {msg.seq}"
        case m.Reply():
            return f"REPLY seq {msg.seq}, cmd {msg.cmd}, status {int(msg.status)}"
        case m.CardOut():
            code = msg.card.code if msg.card else "unreadable"
            return f"CARD_OUT seq {msg.seq}, index {msg.index}, seat {msg.seat.name if msg.seat else '-'}, {code}"
        case m.Empty():
            return f"EMPTY seq {msg.seq}, dealt {msg.dealt}"
        case m.DealFinished():
            return f"DEAL_FINISHED seq {msg.seq}, reason {int(msg.reason)}, dealt {msg.dealt}, left_in_shoe {int(msg.left_in_shoe)}"
        case m.Ack():
            return f"ACK upto {msg.upto}"
        case m.Resend():
            return f"RESEND first {msg.first}" + (f", last {msg.last}" if msg.last else "")
        case m.DealBoard():
            return (f"DEAL_BOARD cmd {msg.cmd}, board {msg.board}, board_id {msg.board_id:08x}, "
                    f"{len(msg.placed)} placed, pack {msg.pack!r}")
        case m.BoardBegan():
            return f"BOARD_STARTED seq {msg.seq}, board {msg.board}, {len(msg.placed)} placed"
        case m.CardRejected():
            code = msg.card.code if msg.card else "unreadable"
            return f"CARD_REJECTED seq {msg.seq}, rejected {msg.number}, reason {int(msg.reason)}, {code}"
        case m.BoardFinished():
            missing = " ".join(c.code for c in codec.PACK if c in msg.missing) or "none"
            return (f"BOARD_FINISHED seq {msg.seq}, reason {int(msg.reason)}, rejected {msg.rejected}, "
                    f"missing {missing}")
    return type(msg).__name__


def render(doc: dict[str, Any]) -> str:
    """The listing of section 12: millisecond, direction, note, then the frame's bytes."""
    lines = []
    for s in doc["steps"]:
        arrow = "shoe -> host" if s["from"] == "shoe" else "host -> shoe"
        lost = "  ** LOST on the line **" if s.get("lost") else ""
        lines.append(f"{s['t']:>3} ms  {arrow}  {s['note']}{lost}")
        data = bytes.fromhex(s["hex"])
        for i in range(0, len(data), 24):
            lines.append("            " + data[i:i + 24].hex(" "))
    return "\n".join(lines)
