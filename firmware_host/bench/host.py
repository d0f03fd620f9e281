"""Benchmarks of the host pieces: ``cardtable bench journal`` and ``cardtable bench panel``.

The journal's figures depend on the storage under the data directory: set ``CARDTABLE_BENCH_DIR`` to a
directory on the Pi's SD card to measure what a table will see (the default is the system temp dir,
often a RAM disk, where fsync costs nothing).
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_host.bench.report import ChecksFailed
from firmware_host.bench.report import figures as _figures
from firmware_host.bench.report import report as _report
from laws.cards import Seat, full_pack
from laws.events import CardDealt, event_to_dict


def _filesystem(path: Path) -> str:
    best, fstype = "", "?"
    try:
        with open("/proc/mounts") as fp:
            for line in fp:
                parts = line.split()
                if len(parts) > 2 and str(path).startswith(parts[1]) and len(parts[1]) > len(best):
                    best, fstype = parts[1], parts[2]
    except OSError:
        pass
    return fstype


def journal(args: argparse.Namespace) -> int:
    """Append latency (commit included) with synchronous=FULL and NORMAL side by side; verify speed."""
    from firmware_host.records.journal import Journal

    n = 200 if args.quick else 3000
    base = Path(tempfile.mkdtemp(prefix="cardtable-bench-", dir=os.environ.get("CARDTABLE_BENCH_DIR")))
    pack = list(full_pack())
    rng = random.Random(1)
    bodies = [event_to_dict(CardDealt(rng.choice(list(Seat)), rng.choice(pack), t=float(i))) for i in range(n)]
    figures: dict[str, Any] = {"directory": f"{base} ({_filesystem(base)})"}
    for mode in ("FULL", "NORMAL"):
        j = Journal.open(base / f"{mode}.sqlite3", synchronous=mode)
        samples = []
        for i, body in enumerate(bodies):
            t0 = time.perf_counter()
            j.append("event", body, t=float(i))
            samples.append(time.perf_counter() - t0)
        figures[f"append synchronous={mode}"] = _figures(samples)
        t0 = time.perf_counter()
        result = j.verify()
        elapsed = time.perf_counter() - t0
        if not result.ok:
            raise ChecksFailed(f"the journal of {n} rows appended (synchronous={mode}) does not verify: "
                               f"{result.message()}")
        figures[f"verify {n} rows ({mode})"] = {"total_ms": elapsed * 1000, "per_row_us": elapsed / n * 1e6}
        j.close()
    full, normal = figures["append synchronous=FULL"], figures["append synchronous=NORMAL"]
    figures["ratio FULL/NORMAL p50"] = f"{full['p50_ms'] / normal['p50_ms']:.2f}"
    _report("journal append (one committed row) and verify", figures, args)
    for p in base.iterdir():
        p.unlink()
    base.rmdir()
    return 0


def panel(args: argparse.Namespace) -> int:
    """gpiozero lamp switching on MockFactory, and a seat button's press-to-callback path."""
    from firmware_host.config import LAMPS, load_config
    from firmware_host.devices.panel import Panel, make_pin_factory

    n = 500 if args.quick else 5000
    pins = load_config(None, env={}, check_devices=False).pins
    factory = make_pin_factory("mock")
    now = [0.0]
    p = Panel(pins, factory, lambda: now[0])
    heard: list[str] = []
    p.on_button(lambda who, kind: heard.append(kind))
    lamp_samples, press_samples = [], []
    for i in range(n):
        name = LAMPS[i % len(LAMPS)]
        t0 = time.perf_counter()
        p.set_lamp(name, i % 2 == 0)
        lamp_samples.append(time.perf_counter() - t0)
    pin = factory.pin(pins.buttons["seat_N"])
    for _ in range(n // 5):
        pin.drive_low()
        now[0] += 0.1
        pin.drive_high()
        now[0] += 0.1
        t0 = time.perf_counter()
        pin.drive_low()  # the second press decides "new_shuffle" at once
        press_samples.append(time.perf_counter() - t0)
        pin.drive_high()
        now[0] += 1.0
    if heard.count("new_shuffle") != n // 5:
        raise ChecksFailed(f"the panel decided new_shuffle {heard.count('new_shuffle')} times for {n // 5} "
                           "double presses")
    p.close()
    factory.close()
    _report("panel on gpiozero MockFactory", {"set_lamp": _figures(lamp_samples),
                                              "second press -> callback": _figures(press_samples)}, args)
    return 0



