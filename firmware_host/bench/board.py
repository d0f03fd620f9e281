"""``cardtable bench board``: a board dealt by the virtual shoe at 115200 baud against its wire time, and
the host's CPU per dealt board (protocol 1.2, DEAL_BOARD).

1. **Wall time over wire time.** The virtual shoe (the reference firmware with simulated pockets, a real
   shuffled pack) serves a pty whose shoe side runs at 115200 baud (10 bits a byte; ``write`` waits while
   the UART's 32-byte FIFO is full, as on the board). A ``ShoeLink`` and a ``BoardTracker`` read the other
   side. Measured: from just before ``link.send`` of the DEAL_BOARD to the moment the tracker reports the
   board whole (``BoardDealt``, after the host delivered BOARD_FINISHED). **Wire time** is what the board
   cannot take less than: every byte the shoe wrote in that interval (BOARD_STARTED, the REPLY, 52
   CARD_OUTs, BOARD_FINISHED, any heartbeat) plus the DEAL_BOARD frame itself, at 10 bits a byte, **plus**
   the virtual shoe's mechanical time of the cards (52 x ``pass_ms`` in the exit + 51 x ``gap_ms``
   between cards), counted in full although the line and the mechanics overlap. Two cases: mechanics 0
   (the line is the only limit: the hard case) and the virtual shoe's own pace (``pass_ms`` 4,
   ``gap_ms`` 8). Target: wall time at most wire time + 10 %, median of repeats.
2. **Host CPU per dealt board.** The frames of one whole board, as the reference firmware writes them on
   its simulated board, fed one frame a read to a fresh ``ShoeSession`` and ``BoardTracker`` (each read
   acknowledged, as the link does): the thread's CPU time per board and per card, median of repeats.
   Target under 5 ms per board. The per-card check is one dictionary look-up (constant time).
3. **The dealing station** and **the per-card check of a duplicate table** (``board_check.py``): the
   station's CPU per board with its journal (target under 5 ms), and the check of each card against the
   record timed at the first and last trick, side by side (constant: their ratio about 1).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from typing import Any

from firmware_host.bench.report import ChecksFailed, report
from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.boards import BoardDealt, BoardTracker, deal_board
from laws.cards import SEATS, Seat

BAUD = 115200


def _record(seed: int) -> tuple[Seat, ...]:
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(seed).shuffle(seats)
    return tuple(seats)


def wall_times(boards: int, pass_ms: int, gap_ms: int) -> list[dict[str, float]]:
    """Deal ``boards`` boards one after another on the virtual shoe at 115200 baud; per board its wall
    time, wire time (bytes and mechanics) and their ratio."""
    import threading

    from firmware_host.shoe.link import ShoeLink
    from firmware_host.shoe.virtual import VirtualShoe

    cond = threading.Condition()
    events: list[Any] = []
    trackers: list[BoardTracker] = []
    done: list[float] = []

    def on_event(ev: Any) -> None:
        now = time.perf_counter()
        with cond:
            for t in trackers:
                if any(isinstance(x, BoardDealt) for x in t.feed(ev)):
                    done.append(now)
            events.append(ev)
            cond.notify_all()

    from firmware_host.shoe.simhw import payload
    from laws.cards import Card

    payload("A1", Card("A", "S"))       # the simulated reader imports the card-code module once: not timed
    out = []
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-board-") as folder:
        shoe = VirtualShoe("contract-bridge", 7, directory=folder, baud=BAUD, pass_ms=pass_ms, gap_ms=gap_ms)
        link = ShoeLink(shoe.open(), on_event, backoff=(0.01, 0.1))
        link.start()
        try:
            for n in range(boards):

                def loaded(n: int = n) -> bool:
                    return sum(isinstance(e, m.PackLoaded) for e in events) > n

                def dealt(n: int = n) -> bool:
                    return len(done) > n

                with cond:
                    if not cond.wait_for(loaded, 10):
                        raise RuntimeError("the virtual shoe loaded no pack")
                cmd = deal_board(n + 1, _record(n), n + 1, pack=shoe.packs[n % len(shoe.packs)])
                frame = len(codec.encode(_numbered(cmd, n + 1)))
                written = shoe.port.written
                t0 = time.perf_counter()
                with cond:
                    trackers[:] = [BoardTracker(link.send(cmd))]
                    if not cond.wait_for(dealt, 30):
                        raise RuntimeError(f"board {n + 1} was not dealt: {trackers[0].state}")
                wall = done[n] - t0
                shoe_bytes = shoe.port.written - written
                mech = (52 * pass_ms + 51 * gap_ms) / 1000
                wire = 10 * (shoe_bytes + frame) / BAUD + mech
                out.append({"wall_s": wall, "wire_s": wire, "ratio": wall / wire, "bytes": shoe_bytes + frame})
        finally:
            link.stop()
            shoe.close()
    return out


def _numbered(cmd: m.DealBoard, n: int) -> m.DealBoard:
    from dataclasses import replace

    return replace(cmd, cmd=n)


class _MemPort:
    """The firmware's port in memory: one entry of ``frames`` per write (the firmware writes a frame
    at a time)."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.frames: list[bytes] = []

    def read(self) -> bytes | None:
        data, self.inbox = bytes(self.inbox), bytearray()
        return data or None

    def write(self, data: bytes) -> None:
        self.frames.append(bytes(data))


def _board_frames() -> tuple[list[bytes], m.DealBoard, bytes]:
    """A whole board as the reference firmware writes it, frame by frame (no heartbeats), the command
    that asked for it and what the shoe wrote before it (its HELLOs and PACK_LOADED)."""
    from firmware_host.shoe.firmware import load_firmware
    from firmware_host.shoe.games import deal_plan
    from firmware_host.shoe.simhw import SimHardware, shuffled_pack

    shoe_mod, _wire = load_firmware()
    clock = [0]
    hw = SimHardware(lambda: clock[0], pass_ms=1, gap_ms=1)
    hw.load(shuffled_pack(deal_plan("contract-bridge").pack, "A1", random.Random(3)))
    port = _MemPort()
    shoe = shoe_mod.Shoe(hw, port, 0xB0A4D, heartbeat_ms=10**9)
    cmd = _numbered(deal_board(1, _record(1), 0xAB, pack="A1"), 1)
    port.inbox += codec.encode(m.HostHello(1, next_cmd=1))
    shoe.poll()
    hello = b"".join(port.frames)             # power-up: END, HELLO, PACK_LOADED; then the HELLO answering
    port.frames.clear()
    port.inbox += codec.encode(cmd)
    for _ in range(2000):
        hw.step(clock[0], shoe.dealing and not shoe.paused)
        shoe.poll()
        clock[0] += 1
        if port.frames and not shoe.dealing:
            break
    return port.frames, cmd, hello


def host_cpu(reps: int) -> dict[str, float]:
    """Thread CPU time to take one whole board in: session, delivery, ACKs and the tracker's checks."""
    from firmware_host.shoe.session import ShoeSession

    frames, cmd, hello = _board_frames()
    assert len(frames) == 55, len(frames)              # BOARD_STARTED, REPLY, 52 CARD_OUTs, BOARD_FINISHED
    per_board = []
    for _ in range(reps):
        s = ShoeSession(session_id=1, offline_after=1e9)
        s.connection_made(0.0)
        s.receive(hello, 0.0)
        sent, _ = s.command(cmd, 0.0)
        t = BoardTracker(sent)
        results: list[Any] = []
        t0 = time.thread_time()
        for i, f in enumerate(frames):
            now = 0.001 * (i + 1)
            events, _out = s.receive(f, now)
            s.acknowledge(s.expected - 1)
            for ev in events:
                results += t.feed(ev)
        per_board.append(time.thread_time() - t0)
        if not (results and isinstance(results[-1], BoardDealt) and results[-1].verified):
            raise ChecksFailed(f"the tracker did not end the board verified: {results[-1:]}")
    med = statistics.median(per_board)
    return {"per_board_ms_median": med * 1000, "per_card_us_median": med / 52 * 1e6,
            "per_board_ms_max": max(per_board) * 1000, "repeats": reps}


def run(args: argparse.Namespace) -> int:
    """Print the figures; exit status 1 when a target is missed."""
    quick = bool(getattr(args, "quick", False))
    figures: dict[str, Any] = {}
    ok = True
    for name, pass_ms, gap_ms, boards in (("line only (mechanics 0)", 0, 0, 3 if quick else 9),
                                          ("virtual shoe's pace (4 + 8 ms a card)", 4, 8, 2 if quick else 5)):
        rows = wall_times(boards, pass_ms, gap_ms)
        ratio = statistics.median(r["ratio"] for r in rows)
        figures[f"board at 115200 baud, {name}"] = {
            "wall_s_median": statistics.median(r["wall_s"] for r in rows),
            "wire_s_median": statistics.median(r["wire_s"] for r in rows),
            "wall_over_wire_median": ratio, "wall_over_wire_max": max(r["ratio"] for r in rows),
            "bytes_median": statistics.median(r["bytes"] for r in rows), "boards": len(rows)}
        ok = ok and ratio <= 1.10
    cpu = host_cpu(20 if quick else 200)
    figures["host CPU per dealt board"] = cpu
    ok = ok and cpu["per_board_ms_median"] < 5.0
    from firmware_host.bench.board_check import check_per_card, engine_per_card, station_cpu

    frames = _board_frames()
    station = station_cpu(frames, 5 if quick else 30)
    figures["dealing station CPU per board"] = station
    ok = ok and station["per_board_ms_median"] < 5.0
    for sync in ("NORMAL", "FULL"):
        figures[f"... with its journal, {sync}"] = station_cpu(frames, 3 if quick else 15, sync)
    figures["record check per card"] = check_per_card(50 if quick else 500)
    figures["duplicate engine per card"] = engine_per_card(5 if quick else 40)
    figures["targets"] = ("wall/wire <= 1.10 (median); host CPU < 5 ms a board (link and station); the card "
                          "check constant" + (" -- met" if ok else " -- MISSED"))
    report("shoe board benchmark" + (" (quick)" if quick else ""), figures, args)
    return 0 if ok else 1
