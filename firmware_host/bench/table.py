"""``cardtable bench table``: the law engine and the whole controller on one core.

* engine: events per second through ``LawEngine.feed`` alone (legal bridge deals);
* deal: one whole 52-card bridge deal (shuffles, cut, 52 cards, deal end) processed, journaled
  (SQLite WAL, synchronous=FULL) and ruled, lamps on gpiozero MockFactory pins: CPU and wall time;
* hand: a whole bridge hand as it is played (that deal, an auction of 14 calls, 52 cards with the revoke
  check at every card, the score from the cards) through the same controller: CPU and wall time; and,
  engine alone, the time of a card by trick (trick 1 against trick 13: the revoke check is constant
  time a card, so the two are alike);
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
from laws.events import CallMade, CardDealt, CardPlayed, DealEnded, DealStarted, Event, PackCut, PackShuffled

PACK = full_pack(RANKS)


def deal_events(dealer: Seat, rnd: random.Random, pack: str = "red") -> list[Event]:
    cards: list[Card] = list(PACK)
    rnd.shuffle(cards)
    order = clockwise_from(dealer.left)
    return [PackShuffled(dealer.partner), PackShuffled(dealer), PackCut(dealer.right, top=20, bottom=32),
            DealStarted(dealer, pack), *(CardDealt(order[i % 4], c) for i, c in enumerate(cards)),
            DealEnded()]


AUCTION = "1C pass 1D pass 1H pass 1S pass 2S pass 4S pass pass pass"


def hand_events(dealer: Seat, rnd: random.Random) -> list[Event]:
    """A whole hand: a deal, the auction (dealer's side in four spades, the dealer declaring) and 52 legal
    cards chosen at random, found by an engine of its own (the one timed is fed the same events)."""
    from laws.engine import LawEngine

    eng = LawEngine("contract-bridge")
    eng.state.next_dealer = dealer
    events = deal_events(dealer, rnd)
    seats = clockwise_from(dealer)
    events += [CallMade(seats[i % 4], c) for i, c in enumerate(AUCTION.split())]
    for e in events:
        eng.feed(e)
    play = eng.state.deal.bridge.play  # type: ignore[union-attr]
    while not play.ended:
        seat = play.to_play
        card = rnd.choice(sorted(play.legal_cards(seat)))
        e = CardPlayed(seat, card)
        eng.feed(e)
        events.append(e)
    return events


def card_times_by_trick(rnd: random.Random, hands: int) -> dict[int, float]:
    """Median microseconds ``LawEngine.feed`` takes for one card, by trick (engine alone)."""
    from laws.engine import LawEngine

    by_trick: dict[int, list[float]] = {n: [] for n in range(1, 14)}
    for _ in range(hands):
        events = hand_events(Seat.N, rnd)
        eng = LawEngine("contract-bridge")
        eng.state.next_dealer = Seat.N
        n = 0
        for e in events:
            t0 = time.perf_counter()
            eng.feed(e)
            dt = time.perf_counter() - t0
            if isinstance(e, CardPlayed):
                by_trick[n // 4 + 1].append(dt)
                n += 1
    return {k: round(statistics.median(v) * 1e6, 1) for k, v in by_trick.items()}


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
        hand_cpu: list[float] = []
        hand_wall: list[float] = []
        hand_len = 0
        for _ in range(deals // 2 or 1):
            events = hand_events(dealer, rnd)
            hand_len = len(events)
            ctl.engine.state.deal = None
            ctl.engine.state.phase = ctl.engine.state.phase.SHUFFLE
            ctl.engine.state.next_dealer = dealer
            c0, w0 = time.process_time(), time.perf_counter()
            for e in events:
                ctl.process(LawInput(e, "camera"))
            hand_cpu.append(time.process_time() - c0)
            hand_wall.append(time.perf_counter() - w0)
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
        "bridge hand: events": hand_len,
        "bridge hand, controller CPU": _figures(hand_cpu),
        "bridge hand, controller wall": _figures(hand_wall),
        "card us by trick (engine, median)": card_times_by_trick(rnd, 5 if args.quick else 40),
        "restart: journal rows": rows,
        "restart: whole replay ms": round(statistics.median(restore[False]) * 1000, 1),
        "restart: replay rows/s": round(rows / statistics.median(restore[False])),
        "restart: from checkpoint ms": round(statistics.median(restore[True]) * 1000, 1),
        "target": "a whole deal, and a whole bridge hand, under 100 ms of CPU",
    }, args)
    return 0
