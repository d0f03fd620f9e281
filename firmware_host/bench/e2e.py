"""``cardtable bench e2e``: from the last byte of a shoe frame written into a real pty to the lamp's pin.

This process plays the shoe on the master side of a pty (HELLO, then frames one at a time); on the
slave side the whole table runs as in production: ``ShoeLink`` (reader thread, codec, session), the
controller's own thread (law engine, SQLite journal with synchronous=FULL, lamp policy), and gpiozero
LEDs on MockFactory pins. Two latencies, each from just before the single ``os.write`` of a frame:

* card -> journaled: a dealt card's event committed to the journal (every card);
* frame -> lamp pin: a face-up card lighting the redeal lamp, and the next deal's start putting it
  out; the time is the pin's own change time recorded by gpiozero's mock pin.

The shoe's side sends a HEARTBEAT every 0.5 s with its last number, as PROTOCOL.md asks of a shoe: without
it, a machine busy enough to hold this process back for 1.6 s made the host take the shoe for offline and
the measurement stopped. A step that does not come within its time is a ``BenchFailed`` (one line, no
traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any

from firmware_host.bench.report import BenchFailed, percentile
from laws.cards import RANKS, Seat, clockwise_from, full_pack


class _Stamp:
    """A table observer that stamps each journaled event."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.stamps: dict[int, float] = {}
        self.count = 0

    def event(self, body: dict[str, Any], deal: int, seq: int) -> None:
        with self.cond:
            self.count += 1
            self.stamps[self.count] = time.monotonic()
            self.cond.notify_all()

    def wait_for(self, n: int, timeout: float = 5.0) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: self.count >= n, timeout):
                raise BenchFailed(f"event {n} did not reach the journal within {timeout:g} s")
            return self.stamps[n]

    def status(self, snapshot: dict[str, Any]) -> None: ...
    def ruling(self, ruling: dict[str, Any], deal: int, seq: int) -> None: ...
    def deal_over(self, deal: int) -> None: ...
    def pack_health(self, pack: str, unreadable: int, damaged: int, deals: int) -> None: ...


def run(args: argparse.Namespace) -> int:
    from gpiozero.pins.mock import MockFactory

    from firmware_host.bench.shoe_link import _drain
    from firmware_host.config import load_config
    from firmware_host.devices.panel import Panel
    from firmware_host.records.journal import Journal
    from firmware_host.shoe import codec
    from firmware_host.shoe import messages as m
    from firmware_host.shoe.link import ShoeLink
    from firmware_host.table.adapters import ShoeAdapter, connect_shoe
    from firmware_host.table.controller import LawInput, TableController
    from laws.events import PackCut, PackShuffled

    rounds = 6 if args.quick else 120
    cards_per_round = 25
    cfg = load_config(None, env={}, check_devices=False)
    factory = MockFactory()
    pack = full_pack(RANKS)
    card_ms: list[float] = []
    lamp_ms: list[float] = []
    master, slave = os.openpty()
    tty.setraw(slave)
    with tempfile.TemporaryDirectory(prefix="cardtable-e2e-", dir=os.environ.get("CARDTABLE_BENCH_DIR")) as tmp:
        journal = Journal.open(Path(tmp))
        panel = Panel(cfg.pins, factory, time.monotonic)
        stamp = _Stamp()
        ctl = TableController(game="contract-bridge", journal=journal, panel=panel, clock=time.time,
                              observers=[stamp])
        stop = threading.Event()
        worker = threading.Thread(target=ctl.run, args=(stop,), daemon=True)
        worker.start()
        online = threading.Event()
        adapter = ShoeAdapter(ctl.submit, time.time, pack=lambda: "A")

        def on_event(ev: Any) -> None:
            if isinstance(ev, m.LinkStatus) and ev.online:
                online.set()
            adapter(ev)

        link = ShoeLink(os.ttyname(slave), on_event, auto_ack=False)
        connect_shoe(ctl, link, adapter)
        link.start()
        redeal_pin = factory.pin(cfg.pins.lamps["redeal"])
        beat_stop = threading.Event()
        beat: threading.Thread | None = None
        try:
            hello = m.Hello(0, 1, 0, 1, 0, 0x3F, 128, "bench", "1.0.0")
            while not online.wait(0.2):
                os.write(master, codec.encode(hello))
            ctl.queue.join()
            seq = 0
            journaled = stamp.count
            order = clockwise_from(Seat.N.left)
            wire = threading.Lock()     # one frame at a time on the pty; a heartbeat names the last written
            written = 0

            def write(msg: Any) -> float:
                nonlocal written
                with wire:
                    t0 = time.monotonic()
                    os.write(master, codec.encode(msg))
                    written = msg.seq
                return t0

            def heartbeats() -> None:
                while not beat_stop.wait(0.5):
                    with wire:
                        if beat_stop.is_set():
                            return
                        os.write(master, codec.encode(m.Heartbeat(written, m.ShoeState.DEALING, False, True, 0)))

            beat = threading.Thread(target=heartbeats, name="bench-heartbeat", daemon=True)
            beat.start()

            def lamp_change(was: bool, t0: float) -> float:
                deadline = time.monotonic() + 5
                while bool(redeal_pin.state) == was:
                    if time.monotonic() > deadline:
                        raise BenchFailed("the redeal lamp did not change within 5 s")
                    time.sleep(0.0001)
                return (redeal_pin._last_change - t0) * 1000

            for r in range(rounds):
                for e in (PackShuffled(Seat.S), PackShuffled(Seat.N), PackCut(Seat.W, top=20, bottom=32)):
                    ctl.submit(LawInput(e, "script"))
                ctl.queue.join()
                journaled = stamp.count
                lit = bool(redeal_pin.state)
                seq += 1
                t0 = write(m.DealBegan(seq, Seat.N, 0, (1,) * 13, "A"))
                journaled += 1
                stamp.wait_for(journaled)
                if lit:
                    lamp_ms.append(lamp_change(True, t0))
                cards = pack[r % 2::2][:cards_per_round] + pack[(r + 1) % 2::2][:1]
                for i, card in enumerate(cards):
                    seq += 1
                    face_up = i == len(cards) - 1
                    msg = m.CardOut(seq, i, order[i % 4], False, card,
                                    m.Orientation.UP if face_up else m.Orientation.DOWN, 90, "A")
                    t0 = write(msg)
                    journaled += 1
                    t1 = stamp.wait_for(journaled)
                    if face_up:
                        lamp_ms.append(lamp_change(False, t0))
                    else:
                        card_ms.append((t1 - t0) * 1000)
                seq += 1
                before = ctl.seq
                write(m.DealFinished(seq, m.FinishReason.ABORTED, len(cards), 52 - len(cards)))
                # The deal is void (the face-up card): its end is journaled and noted as ignored, which no
                # observer is told, so wait for the journal row and then for the queue behind it.
                deadline = time.monotonic() + 5
                while ctl.seq == before:
                    if time.monotonic() > deadline:
                        raise BenchFailed("the deal's end did not reach the journal within 5 s")
                    time.sleep(0.001)
                ctl.queue.join()
                journaled = stamp.count
                _drain(master)  # the host's ACKs, so the pty never fills
        finally:
            beat_stop.set()
            if beat is not None:
                beat.join(timeout=2)
            link.stop()
            stop.set()
            worker.join(timeout=5)
            panel.close()
            journal.close()
            os.close(master)
            os.close(slave)
    figures = {
        "card_to_journal_ms_p50": round(percentile(card_ms, 0.50), 3), "card_to_journal_ms_p99": round(percentile(card_ms, 0.99), 3),
        "card_samples": len(card_ms),
        "frame_to_lamp_pin_ms_p50": round(percentile(lamp_ms, 0.50), 3),
        "frame_to_lamp_pin_ms_p99": round(percentile(lamp_ms, 0.99), 3), "lamp_samples": len(lamp_ms),
        "journal": "SQLite WAL, synchronous=FULL, in " + (os.environ.get("CARDTABLE_BENCH_DIR") or tempfile.gettempdir()),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print("end to end: pty -> link -> controller -> journal -> lamp pin" + (" (quick)" if args.quick else ""))
        print(f"  card frame -> event committed to the journal: p50 {figures['card_to_journal_ms_p50']} ms, "
              f"p99 {figures['card_to_journal_ms_p99']} ms over {len(card_ms)} cards")
        print(f"  frame -> redeal lamp pin changed:            p50 {figures['frame_to_lamp_pin_ms_p50']} ms, "
              f"p99 {figures['frame_to_lamp_pin_ms_p99']} ms over {len(lamp_ms)} lamp changes (target p99 < 10 ms)")
        print(f"  {figures['journal']}")
    return 0


