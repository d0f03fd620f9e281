"""What every benchmark reports the same way: percentiles, the usual figures of a sample, and the
report as lines or as JSON (``--json``)."""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any


class BenchFailed(RuntimeError):
    """A benchmark could not measure (a step did not come in time): ``cardtable bench`` prints its message
    on one line and exits 1, with no traceback."""


class ChecksFailed(BenchFailed):
    """A benchmark measured, and what it measured breaks a promise it checks (a leak, a view that differs):
    the same one line and exit 1, saying FAILED rather than "could not measure". A check of what the
    bench is shown is this, never a bare ``assert`` (gone under ``python -O``, a traceback otherwise)."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0 to 1) of ``values`` by rank (the value below which that share lies); NaN
    for no values."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def figures(samples: list[float]) -> dict[str, float]:
    """Count, median, p90 and p99 of ``samples`` (seconds), in milliseconds."""
    return {"n": len(samples), "p50_ms": statistics.median(samples) * 1000,
            "p90_ms": percentile(samples, 0.90) * 1000, "p99_ms": percentile(samples, 0.99) * 1000}


def report(title: str, figures: dict[str, Any], args: argparse.Namespace) -> None:
    """Print ``figures`` under ``title``, one line a figure, or one JSON object with ``--json``."""
    if args.json:
        print(json.dumps({"bench": title, **figures}))
        return
    print(title)
    for name, fig in figures.items():
        if isinstance(fig, dict):
            cells = "  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in fig.items())
            print(f"  {name:<28} {cells}")
        else:
            print(f"  {name:<28} {fig}")
