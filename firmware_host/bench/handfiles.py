"""``cardtable bench handfiles``: reading hand-record files at and beyond their bound (999 boards,
8 MiB; ``docs/handrecords.md``, "How big a file may be").

Four cases, each timed ``repeats`` times and reported as medians, with the peak memory the read
allocated (``tracemalloc``): a PBN of 999 plain boards (the most boards a file may hold); a PBN of 999
boards each with commentary, just under 8 MiB (the most bytes, so the slowest file that is read); a BRI
whose board 2 is broken, followed by boards up to 8 MiB (stopped at the first error); and a sparse file
of 1 GiB (refused by its size, nothing read). The files are written in a temporary folder.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_host.bench.report import ChecksFailed, report


def _boards(count: int, seed: int = 5) -> list[Any]:
    from laws.cards import SEATS
    from laws.duplicate.deal import Board, Deal

    rng = random.Random(seed)  # a benchmark's deals: a seeded shuffle is enough
    out = []
    for n in range(1, count + 1):
        seats = [SEATS[k % 4] for k in range(52)]
        rng.shuffle(seats)
        out.append(Board.numbered(n, Deal(tuple(seats))))
    return out


def _measure(fn: Callable[[], object], repeats: int) -> dict[str, float]:
    """Median wall and CPU seconds over ``repeats`` runs, then one more run under ``tracemalloc`` for
    the peak (tracing slows a run several times over, so it is never one of the timed ones)."""
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"median_s": round(statistics.median(wall), 4), "cpu_median_s": round(statistics.median(cpu), 4),
            "peak_mib": round(peak / 2**20, 1), "repeats": repeats}


def _refused(path: Path) -> Callable[[], object]:
    from firmware_host.duplicate.handrecords.handfiles import HandRecordError, read_hand_records

    def go() -> object:
        try:
            read_hand_records(path)
        except HandRecordError as exc:
            return str(exc)
        raise ChecksFailed(f"{path.name} was read, not refused")  # a benchmark of a refusal that did not happen
    return go


def figures(repeats: int = 5) -> dict[str, Any]:
    """The four cases' medians and peaks (see the module docstring)."""
    from firmware_host.duplicate.handrecords.errors import MAX_BOARDS, MAX_BYTES
    from firmware_host.duplicate.handrecords.handfiles import read_hand_records, render_hand_records

    boards = _boards(MAX_BOARDS)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-handfiles-") as folder:
        plain = Path(folder, "plain.pbn")
        plain.write_bytes(render_hand_records(boards, "pbn"))
        out[f"PBN, {MAX_BOARDS} boards ({plain.stat().st_size // 1024} KiB)"] = _measure(
            lambda: read_hand_records(plain), repeats)
        note = "{" + "a long note on the bidding and the play. " * 190 + "}\r\n"
        games = [f'{note}[Board "{b.number}"]\r\n[Deal "{b.deal.pbn()}"]\r\n' for b in boards]
        big = Path(folder, "big.pbn")
        big.write_bytes("\r\n".join(games).encode("ascii")[:MAX_BYTES])
        out[f"PBN, {MAX_BOARDS} boards with notes ({big.stat().st_size // 2**20} MiB)"] = _measure(
            lambda: read_hand_records(big), repeats)
        bri = render_hand_records(boards, "bri")
        broken = Path(folder, "broken.bri")
        broken.write_bytes(bri[:128] + b"5x" + bri[130:] + b"\x00" * (MAX_BYTES - len(bri)))
        out["BRI broken at board 2, 8 MiB"] = _measure(_refused(broken), repeats)
        huge = Path(folder, "huge.bri")
        with huge.open("wb") as f:
            f.truncate(2**30)
        out["1 GiB file (sparse)"] = _measure(_refused(huge), repeats)
    return out


def run(args: argparse.Namespace) -> int:
    quick = bool(getattr(args, "quick", False))
    report("handfiles: hand-record files at and beyond their bound", figures(repeats=1 if quick else 5), args)
    return 0
