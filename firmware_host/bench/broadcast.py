"""``cardtable bench broadcast``: the live broadcast's figures (``docs/broadcast.md``).

Two real sessions (``broadcast_run.LiveRun``: a local Mosquitto, the session service, a real duplicate
table for each table of the movement, simulated people at a fixed pace, the broadcast service and the
spectators' page on the same broker):

- **Live**: 30 tables (a Mitchell cut to 2 rounds of 1 board; ``--quick`` 6 tables), rule ``delay 0``,
  ``SSE`` server-sent-event readers on the page and ``BROWSERS`` headless Chromium as the sample that
  measures: a card committed at the table (its journal row's time) -> the page in that browser has drawn
  it (``window.shown``), p50/p90/p99. Every item every sample browser drew is compared with the journals,
  and every message the spectator login received is judged (``broadcast.audit``): differing, early.
  The broadcast's CPU (its service thread and MQTT client, the page's server and its MQTT client), per
  table.
- **Attack**: 6 tables under ``after-field`` with a spectator login, a table's login, no login and a
  wrong password subscribed to ``#`` from before the first card: items shown early (0 is the only
  acceptable figure), and what reached the others.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_host.bench.broadcast_run import LiveRun
from firmware_host.bench.report import figures, report
from firmware_host.broadcast.audit import committed, judge
from laws.broadcast.release import Release, Rule

SSE = 200
BROWSERS = 3
PACE = 0.1     # seconds each table's people take over each call, card or confirmation


def _live(root: Path, quick: bool) -> dict[str, Any]:
    tables = 6 if quick else 30
    release = Release(Rule.DELAY, 0.0)
    load0 = os.getloadavg()[0]
    live = LiveRun(root / "live", release, tables=tables, boards=tables, rounds=1 if quick else 2,
                   browsers=BROWSERS, sse=SSE if not quick else 50, pace=PACE, seed=11, service_process=True)
    t0 = time.monotonic()
    res = live.run(timeout=1800)
    wall = time.monotonic() - t0
    facts = committed(res.journals)
    latencies: list[float] = []
    differ = 0
    for shown in res.shown:
        for key, ms in shown.items():
            t, b, i = (int(x) for x in key.split("/"))
            item = facts.items.get((t, b, i))
            if item is None:
                differ += 1
                continue
            if item.kind == "card":
                latencies.append(ms / 1000 - item.t)
    v = judge(res.arrivals["spectator"], facts, release, res.plays)
    cards = sum(i.kind == "card" for i in facts.items.values())
    at_broker = [t - facts.items[k].t for k, t in v.first_seen.items() if facts.items[k].kind == "card"]
    return {
        "conditions": f"{tables} tables, pace {PACE}s an input, {len(res.shown)} Chromium + "
                      f"{len(res.sse_messages)} SSE readers, rule delay 0, load before {load0:.1f} "
                      f"(2 cores shared), {wall:.0f} s",
        "card committed -> drawn": figures(latencies),
        "card committed -> spectator login": figures(at_broker),
        "cards committed": cards,
        "cards drawn per browser": [sum(1 for k in s if facts.items.get(tuple(int(x) for x in k.split("/")))
                                        is not None and facts.items[tuple(int(x) for x in k.split("/"))].kind
                                        == "card") for s in res.shown],  # type: ignore[index]
        "items drawn not in journals": differ,
        "spectator: items differing": len(v.differ),
        "spectator: items early": len(v.early),
        "SSE readers with the snapshot": sum(1 for c in res.sse_messages if c > 0),
        "SSE messages per reader (median)": statistics.median(res.sse_messages) if res.sse_messages else 0,
        "page at the end": live.result_extra.get("health"),
        "service": live.result_extra.get("service"),
        "broadcast CPU s": round(res.cpu, 2),
        "broadcast CPU % of a core per table": round(100 * res.cpu / wall / tables, 3),
    }


def _attack(root: Path, quick: bool) -> dict[str, Any]:
    release = Release(Rule.AFTER_FIELD)
    tables = 3 if quick else 6
    live = LiveRun(root / "attack", release, tables=tables, boards=tables, seed=5)
    res = live.run(timeout=900)
    facts = committed(res.journals)
    v = judge(res.arrivals["spectator"], facts, release, res.plays)
    table_play = [a.topic for a in res.arrivals["table"] if "/play" in a.topic or "/spectate/" in a.topic]
    return {
        "conditions": f"{tables} tables, rule after-field, listeners on # from the start",
        "items committed": len(facts.items),
        "spectator: items shown": v.shown,
        "spectator: shown before release": len(v.early),
        "spectator: differing": len(v.differ),
        "spectator: other topics": len(v.foreign),
        "table's login: play or released messages": len(table_play),
        "no login / wrong password: refused": bool(res.refused["anonymous"]) and bool(res.refused["wrong-password"]),
    }


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-broadcast-", ignore_cleanup_errors=True) as tmp:
        root = Path(tmp)
        live = _live(root, args.quick)
        attack = _attack(root, args.quick)
    report("broadcast: live", live, args)
    report("broadcast: attack", attack, args)
    bad = live["items drawn not in journals"] or live["spectator: items differing"] or \
        live["spectator: items early"] or attack["spectator: shown before release"] or attack["spectator: differing"]
    return 1 if bad else 0
