"""Recovering a backlog after a disconnect, on a line of real speed (part of ``cardtable bench link``).

The virtual shoe (the reference firmware, simulated hardware) serves a pty whose shoe side runs at
115200 baud; a ``ShoeLink`` reads the other side. During a deal the cable is pulled; while it is out
the shoe deals ``n`` more cards quickly (each a numbered message kept in its ring), then the cable goes
back and the dealing goes on, a card every 250 ms (the shoe-sim's pace: the table case) or every 20 ms
(a stress case), so live messages overtake the resent ones. Measured:

- resent bytes / backlog bytes: everything the shoe's resend passes wrote, over the frames of the ``n``
  messages (1.0 means each was sent again exactly once; target at most 1.2);
- recovery time / (the backlog's wire time + 0.5 s): from the moment the cable is back to the moment the
  host delivered the last of the ``n`` (reopen, handshake, RESEND, the frames); target at most 1.0.

The cable is pulled at a moment the host holds every message so far, and the ``n``-th message ends the
backlog, both on the shoe's own thread (``VirtualShoe.when``), so a benchmark thread woken late cannot
change what is counted. The live pace starts when the cable is back. A backlog of 128 fills the shoe's
128-message ring: a card dealt before the host's first acknowledgement after the reconnect overwrites the
oldest (and the overflow's ERROR the next); the host counts each it never gets as ``lost``, and ``missing``
counts them from what the host delivered. On a loaded machine a reconnect can take longer than a card's
250 ms.
"""

from __future__ import annotations

import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any

from firmware_host.shoe import messages as m
from firmware_host.shoe.link import ShoeLink
from firmware_host.shoe.simhw import shuffled_pack
from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import Seat

BAUD = 115200
PACKS = 3                   # cards in the well: enough for a backlog of 128 after the first few
TABLE_GAP_MS = 250          # the dealing pace once the cable is back: a table's
STRESS_GAP_MS = 20          # ... and a stress case


@dataclass(frozen=True)
class Recovery:
    backlog: int            # messages numbered while the cable was out
    backlog_bytes: int
    resent_bytes: int
    recovery_s: float
    resend_requests: int
    lost: int               # messages the host never got (the ring overflowed), as the host counted them
    missing: int = 0        # messages of the backlog the host never delivered (what the sink saw)

    @property
    def wire_s(self) -> float:
        return 10 * self.backlog_bytes / BAUD

    @property
    def resent_ratio(self) -> float:
        return self.resent_bytes / self.backlog_bytes

    @property
    def recovery_ratio(self) -> float:
        return self.recovery_s / (self.wire_s + 0.5)


class _Sink:
    def __init__(self) -> None:
        self.seqs: list[int] = []
        self.cond = threading.Condition()
        self.online = 0
        self.packs = 0

    def __call__(self, ev: Any) -> None:
        with self.cond:
            if isinstance(ev, m.ShoeMessage):
                self.seqs.append(ev.seq)
            if isinstance(ev, m.PackLoaded):
                self.packs += 1
            if isinstance(ev, m.LinkStatus) and ev.online:
                self.online += 1
            self.cond.notify_all()

    def wait(self, pred: Any, timeout: float = 30.0) -> None:
        with self.cond:
            if not self.cond.wait_for(pred, timeout):
                raise RuntimeError("the link benchmark timed out waiting for the shoe")


def _poll(pred: Any, timeout: float = 30.0) -> None:
    """Wait for the simulated shoe (a thread of its own) to get somewhere: a benchmark, not a test."""
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise RuntimeError("the link benchmark timed out waiting for the shoe")
        time.sleep(0.001)


def recover(n: int, seed: int = 1, live_gap_ms: int = TABLE_GAP_MS) -> Recovery:
    """One backlog of ``n`` messages after a disconnect; see the module docstring."""
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-") as folder:
        shoe = VirtualShoe("contract-bridge", seed, directory=folder, baud=BAUD, pass_ms=2, gap_ms=4)
        sink = _Sink()
        link = ShoeLink(shoe.open(), sink, backoff=(0.01, 0.05))
        link.start()
        try:
            sink.wait(lambda: sink.online >= 1 and sink.packs >= 1)
            fw = shoe.firmware
            with shoe._lock:
                shoe.hw.load([c for p in range(PACKS) for c in shuffled_pack(shoe.plan.pack, f"P{p}", shoe.rng)])
            link.send(m.StartDeal(Seat.N, (1,) * (13 * PACKS), 0, ""))
            sink.wait(lambda: len(sink.seqs) >= 8)
            # pulled when the host has every message so far, and counted from that very moment (the shoe
            # goes on numbering while this thread may be held back): the backlog must fit in the ring
            first = shoe.unplug(when=lambda: fw.ring.count == 0 and fw.dealing) + 1

            def hold() -> tuple[int, int, int, int]:
                shoe.hw.pace(shoe._ms(), live_gap_ms, first_ms=3_600_000)   # held until the cable is back
                last = fw.seq
                return (last, sum(len(fw.ring.get(s)) for s in range(first, last + 1)), fw.resent_bytes,
                        link.counters().get("resend_requests", 0))

            # at the n-th message, on the shoe's own thread: however late this thread wakes, the shoe has
            # numbered no more than the ring holds
            last, backlog_bytes, resent0, requests0 = shoe.when(lambda: fw.seq >= first + n - 1, hold)
            t0 = time.monotonic()
            shoe.replug()
            with shoe._lock:
                shoe.hw.pace(shoe._ms(), live_gap_ms)
            sink.wait(lambda: last in sink.seqs or (sink.seqs and sink.seqs[-1] > last))
            recovery = time.monotonic() - t0
            _poll(lambda: fw.resend_next == 0)        # let the pass finish before reading its bytes
            return Recovery(last - first + 1, backlog_bytes, fw.resent_bytes - resent0, recovery,
                            link.counters().get("resend_requests", 0) - requests0,
                            link.counters().get("lost", 0), len(set(range(first, last + 1)) - set(sink.seqs)))
        finally:
            link.stop()
            shoe.close()


def _median_run(n: int, reps: int, gap: int) -> Recovery:
    """The run with the median recovery time of ``reps`` (each a fresh shoe and link)."""
    runs = sorted((recover(n, seed, gap) for seed in range(1, reps + 1)), key=lambda r: r.recovery_s)
    return runs[len(runs) // 2]


def _rows(rows: list[Recovery]) -> list[dict[str, Any]]:
    return [dict(messages=r.backlog, backlog_bytes=r.backlog_bytes, resent_bytes=r.resent_bytes,
                 resent_ratio=round(r.resent_ratio, 3), recovery_s=round(r.recovery_s, 3),
                 wire_s=round(r.wire_s, 3), recovery_ratio=round(r.recovery_ratio, 3),
                 resend_requests=r.resend_requests, lost=r.lost, missing=r.missing) for r in rows]


def figures(quick: bool) -> dict[str, Any]:
    """The table case (targets apply) and the stress case (reported), median of 3 runs per size."""
    sizes = (1, 16, 128) if quick else (1, 2, 4, 8, 16, 32, 64, 128)
    reps = 1 if quick else 3
    table = [_median_run(n, reps, TABLE_GAP_MS) for n in sizes]
    stress = [_median_run(n, reps, STRESS_GAP_MS) for n in sizes]
    return {
        "backlog": _rows(table),
        "backlog_stress": _rows(stress),
        "backlog_resent_ratio_max": round(max(r.resent_ratio for r in table), 3),
        "backlog_recovery_ratio_max": round(max(r.recovery_ratio for r in table), 3),
        "backlog_lost": sum(r.lost for r in table),
    }
