"""``cardtable bench table``: the law engine and the whole controller on one core.

* engine: events per second through ``LawEngine.feed`` alone (legal bridge deals);
* deal: one whole 52-card bridge deal (shuffles, cut, 52 cards, deal end) processed, journaled
  (SQLite WAL, synchronous=FULL) and ruled, lamps on gpiozero MockFactory pins: CPU and wall time;
* restart: the controller rebuilds its engine from that journal, from its newest checkpoint (saved
  after deals) and, side by side, replaying every row (what a start costs without checkpoints, growing
  with the journal).

The end-to-end latency over a real pty is ``cardtable bench e2e``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from firmware_host.bench.report import figures as _figures
from firmware_host.bench.report import report as _report
from laws.cards import RANKS, Card, Seat, clockwise_from, full_pack
from laws.events import CardDealt, DealEnded, DealStarted, Event, PackCut, PackShuffled

PACK = full_pack(RANKS)


def deal_events(dealer: Seat, rnd: random.Random, pack: str = "red") -> list[Event]:
    cards: list[Card] = list(PACK)
    rnd.shuffle(cards)
    order = clockwise_from(dealer.left)
    return [PackShuffled(dealer.partner), PackShuffled(dealer), PackCut(dealer.right, top=20, bottom=32),
            DealStarted(dealer, pack), *(CardDealt(order[i % 4], c) for i, c in enumerate(cards)),
            DealEnded()]


def run(args: argparse.Namespace) -> int:
    from gpiozero.pins.mock import MockFactory

    from firmware_host.config import load_config
    from firmware_host.devices.panel import Panel
    from firmware_host.records.journal import Journal
    from firmware_host.table.controller import LawInput, TableController
    from laws.engine import LawEngine

    rnd = random.Random(1)
    deals = 10 if args.quick else 200
    # engine alone
    engine_times: list[float] = []
    n_events = 0
    for _ in range(deals):
        eng = LawEngine("contract-bridge")
        events = deal_events(Seat.N, rnd)
        t0 = time.perf_counter()
        for e in events:
            eng.feed(e)
        engine_times.append(time.perf_counter() - t0)
        n_events += len(events)
    # whole controller, journal FULL
    cfg = load_config(None, env={}, check_devices=False)
    cpu: list[float] = []
    wall: list[float] = []
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-") as tmp:
        journal = Journal.open(Path(tmp))
        panel = Panel(cfg.pins, MockFactory(), time.monotonic)
        ctl = TableController(game="contract-bridge", journal=journal, panel=panel, clock=time.time)
        dealer = Seat.N
        ctl.engine.state.next_dealer = dealer
        for _ in range(deals // 2 or 1):
            events = deal_events(dealer, rnd)
            c0, w0 = time.process_time(), time.perf_counter()
            for e in events:
                ctl.process(LawInput(e, "shoe"))
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
            ctl.engine.state.deal = None  # next deal: the same dealer again, no result needed
            ctl.engine.state.phase = ctl.engine.state.phase.SHUFFLE
            ctl.engine.state.next_dealer = dealer
        ctl.checkpoint(force=True)  # as after a deal: the state a restart starts from
        panel.close()
        journal.close()
        # a restart, side by side (median of 3 each): from the checkpoint, and replaying every row
        restore: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(3):
            for use in (True, False):
                journal = Journal.open(Path(tmp))
                t0 = time.perf_counter()
                TableController(game="contract-bridge", journal=journal, panel=None, clock=time.time,
                                checkpoints=use)
                restore[use].append(time.perf_counter() - t0)
                rows = journal.head()[0]
                journal.close()
    per_event = statistics.median(engine_times) / len(deal_events(Seat.N, rnd))
    _report("table: law engine and controller (one core)", {
        "engine events/s": round(n_events / sum(engine_times)),
        "engine us/event (median deal)": round(per_event * 1e6, 2),
        "52-card deal, engine only": _figures(engine_times),
        "52-card deal, controller CPU": _figures(cpu),
        "52-card deal, controller wall": _figures(wall),
        "restart: journal rows": rows,
        "restart: whole replay ms": round(statistics.median(restore[False]) * 1000, 1),
        "restart: replay rows/s": round(rows / statistics.median(restore[False])),
        "restart: from checkpoint ms": round(statistics.median(restore[True]) * 1000, 1),
        "target": "a whole deal under 100 ms of CPU",
    }, args)
    return 0
