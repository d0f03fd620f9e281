"""``cardtable bench wire``: what the one checked reader of outside JSON costs (``wire.reader.read_json``),
beside ``json.loads`` alone on the same payload in the same run, and how fast it refuses what once
stopped the dashboard (a payload nested 2,000 deep) or is merely large (64 KiB).

Payloads: a duplicate ``board`` message as a table sends it (52 cards played, an auction, a foul), a
table's ``status`` message, the nested one and a 64 KiB one. Each is read ``--repeats`` times per
sample; the figure is the median over samples, in microseconds per message.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from firmware_host.bench.report import report
from firmware_host.wire.reader import read_json

CARDS = [r + s for s in "SHDC" for r in "AKQJT98765432"]


def payloads() -> dict[str, bytes]:
    board = {"table": "table-02", "kind": "board", "seq": 88, "prev": 87, "deal": 3, "secret": False,
             "t": 1764500000.5, "body": {"section": "A", "table_number": 2, "round": 1, "board": 3, "ns": "2 NS",
                                         "ew": "2 EW", "contract": "4SX", "declarer": "S", "lead": "AS",
                                         "tricks": 10, "auction": ["1S", "Pass", "4S", "X", "Pass", "Pass", "Pass"],
                                         "play": CARDS, "record": "ab" * 32, "verified": False,
                                         "foul": {"card": "KS", "played_by": "N", "record_seat": "E", "trick": 1,
                                                  "seats": ["N", "E"]}, "confirmed": {"ns": "N", "ew": "E"}}}
    status = {"table": "table-07", "kind": "status", "seq": 42, "deal": 3, "secret": True, "t": 1764500000.3,
              "done": ["9f2c4e01a7b3d6e8"] * 8,
              "body": {"phase": "play", "deal": 3, "dealer": "S", "lamps": {n: False for n in "abcdefghij"},
                       "counts": {"N": 13, "E": 13, "S": 13, "W": 13}, "claims": [], "answers": [],
                       "bridge": {"calls": [["N", "1S"], ["E", "pass"]] * 6, "turn": None, "tricks": {"NS": 3, "EW": 2}}}}
    return {"board message": json.dumps(board).encode(), "status message": json.dumps(status).encode(),
            "nested 2,000 deep (refused)": b"[" * 2000 + b"]" * 2000,
            "64 KiB text (read)": json.dumps({"table": "t", "x": "y" * 65400}).encode()}


def _median_us(read: Callable[[bytes], Any], payload: bytes, repeats: int, samples: int) -> float:
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        for _ in range(repeats):
            read(payload)
        times.append((time.perf_counter() - start) / repeats)
    return statistics.median(times) * 1e6


def _plain(payload: bytes) -> Any:
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return None


def run(args: argparse.Namespace) -> int:
    quick = bool(getattr(args, "quick", False))
    repeats, samples = (50, 5) if quick else (500, 15)
    figures: dict[str, Any] = {}
    for name, payload in payloads().items():
        checked = _median_us(read_json, payload, repeats, samples)
        plain = _median_us(_plain, payload, repeats, samples)
        figures[name] = {"bytes": len(payload), "read_json_us": checked, "json_loads_us": plain,
                         "ratio": checked / plain if plain else float("nan")}
    report("wire: the one checked reader of outside JSON (medians, microseconds per message)", figures, args)
    return 0
