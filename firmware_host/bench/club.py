"""``cardtable bench club``: simulated tables -> one local Mosquitto -> the dashboard -> headless Chromium.

Each run starts a broker, the dashboard (in this process) and N simulated tables (in a child process, so
they do not share the dashboard's interpreter lock), each table producing ``rate`` events a second.
The page itself records, for every table event, the delay from the moment the table handed it to its
publisher to the moment the page had changed to show it (both on this machine's clock), so the figure
covers the table's journal and outbox, the broker, the dashboard and the browser.

Two kinds of simulated table: *full* tables (``SimTables``: law engine, journal, outbox, a real
``MqttPublisher`` each) and *light* tables (``_wire_process``: messages in the same format straight to the
broker). In a club every table is a Pi of its own; on one small machine the full tables' own work
competes with the broker, the dashboard and the browser, so the light tables measure what the club's
side (broker, dashboard, page) sustains, and the full tables what this machine can simulate.

Figures per run: events asked for, made and displayed, p50/p90/p99/max delay, the dashboard process's
CPU. Then, for each kind, a bounded search for the most tables whose p99 stays under 1 s.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_host.bench.report import percentile
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS

GOAL_P99 = 0.25
PROCESSES = 2
LIMIT_P99 = 1.0


def _tables_process(workdir: str, ids: list[str], passwords: dict[str, str], port: int, rate: float,
                    stop: Any, out: Any, steps: Any) -> None:
    from firmware_host.club.club_demo import SimTables

    sim = SimTables(Path(workdir), ids, passwords, "127.0.0.1", port, rate, varied=False)
    sim.start()
    for p in sim.publishers:
        p.connected_event.wait(10)
    out.put(("ready", 0))
    while not stop.wait(0.05):
        steps.value = sim.club.steps
    late = sim.club.late
    pending = sum(p.pending() for p in sim.publishers)
    sim.stop()
    out.put(("done", {"late": late, "pending": pending}))


def _wire_process(workdir: str, ids: list[str], passwords: dict[str, str], port: int, rate: float,
                  stop: Any, out: Any, steps: Any) -> None:
    """Light tables: one broker login per table sending, at ``rate``, messages in the publisher's format
    (a card dealt, cards hidden; a status every 13th), without journal or law engine. This loads the
    broker, the dashboard and the browser at the full rate on a machine too small to also run the tables."""
    import json as _json

    import paho.mqtt.client as mqtt

    clients = []
    for tid in ids:
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"wire-{tid}")
        c.username_pw_set(tid, passwords[tid])
        c.connect("127.0.0.1", port)
        c.loop_start()
        clients.append((tid, c))
    out.put(("ready", 0))
    seats, seq, late, n = "NESW", 0, 0, 0
    period = 1.0 / rate
    next_t = time.monotonic()
    while not stop.is_set():
        seq += 1
        for i, (tid, c) in enumerate(clients):
            due = next_t + i * period / len(clients)
            if due > time.monotonic() and stop.wait(due - time.monotonic()):
                break
            if seq % 13 == 0:
                body: dict[str, Any] = {"table": tid, "phase": "dealing", "deal": 1, "dealer": "N",
                                        "lamps": {"redeal": False, "shuffle": False}, "counts": {"N": seq % 14}}
                kind = "status"
            else:
                body, kind = {"type": "card_dealt", "seat": seats[seq % 4], "card": "hidden"}, "event"
            c.publish(TOPICS.table(tid, kind), _json.dumps({
                "table": tid, "kind": kind, "seq": seq, "deal": 1, "secret": True, "t": time.time(),
                "body": body}), qos=1, retain=kind == "status")
            n += 1
        steps.value = n
        next_t += period
        if time.monotonic() - next_t > period:
            late += 1
            next_t = time.monotonic()
    for _, c in clients:
        c.disconnect()
        stop_loop(c)
    out.put(("done", {"late": late, "pending": 0}))


def measure(n: int, rate: float, seconds: float, warmup: float = 2.0, *, light: bool = False) -> dict[str, Any]:
    """One measured run with ``n`` tables at ``rate`` events/s each for ``seconds`` (after ``warmup``).

    ``light``: the tables are ``_wire_process`` senders instead of full simulated tables."""
    try:  # the browser is test code (tests/browser.py, Selenium from the test extra): a source checkout's
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        from tests.browser import chromium
    except ImportError as exc:
        raise RuntimeError(f"the dashboard benchmark drives a browser and runs from a source checkout "
                           f"after `make setup` (tests/browser.py, Selenium): {exc}") from None

    from firmware_host.club.club_demo import ClubDemo

    with tempfile.TemporaryDirectory(prefix="cardtable-bench-club-") as tmp:
        demo = ClubDemo(tmp, n, rate=rate, director=("director", "bench-pass-1"))
        demo.start(with_tables=False)
        driver = None
        ctx = mp.get_context("spawn")
        stop, out = ctx.Event(), ctx.Queue()
        # The tables are split over PROCESSES child processes (each table is a Pi of its own in a club).
        groups = [demo.ids[i::PROCESSES] for i in range(PROCESSES)]
        counters = [ctx.Value("q", 0) for _ in groups]
        procs = [ctx.Process(target=_wire_process if light else _tables_process, args=(str(Path(tmp) / "tables"), g, demo.passwords,
                                                           demo.broker.port, rate, stop, out, c), daemon=True)
                 for g, c in zip(groups, counters) if g]
        try:
            if not demo.wait_ready():
                raise RuntimeError("the dashboard did not start")
            driver = chromium(str(Path(tmp) / "profile"))
            driver.get(demo.url + "login")
            driver.find_element(By.ID, "username").send_keys("director")
            driver.find_element(By.ID, "password").send_keys("bench-pass-1")
            driver.find_element(By.ID, "login").click()
            WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".conn.live"))
            for proc in procs:
                proc.start()
            for _ in procs:
                out.get(timeout=60)
            time.sleep(warmup)  # benchmark pacing, not a test: let every table reach its stride
            driver.execute_script("window.cardtableLatency = [];")
            ingested0 = demo.dashboard.hub.ingested
            steps0 = sum(c.value for c in counters)
            t0, cpu0 = time.monotonic(), time.process_time()
            time.sleep(seconds)
            lat = driver.execute_script("return window.cardtableLatency;")
            elapsed = time.monotonic() - t0
            dash_cpu = (time.process_time() - cpu0) / elapsed
            produced = sum(c.value for c in counters) - steps0
            ingested = demo.dashboard.hub.ingested - ingested0
            backlog = len(demo.dashboard.hub.inbox)
            stop.set()
            done = [out.get(timeout=60)[1] for _ in procs]
            for proc in procs:
                proc.join(20)
        finally:
            stop.set()
            if driver is not None:
                driver.quit()
            for proc in procs:
                if proc.is_alive():
                    proc.terminate()
            demo.stop()
    shown = len(lat)
    return {"tables": n, "rate": rate, "light": light, "dashboard_cpu": round(dash_cpu, 2), "seconds": round(elapsed, 2), "offered_per_s": n * rate,
            "produced_per_s": round(produced / elapsed, 1), "displayed_per_s": round(shown / elapsed, 1), "mqtt_in_per_s": round(ingested / elapsed, 1),
            "dashboard_backlog": backlog, "sim_late_rounds": sum(d["late"] for d in done),
            "unacked_at_end": sum(d["pending"] for d in done),
            "p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
            "p90_ms": round(1000 * percentile(lat, 0.90), 1), "p99_ms": round(1000 * percentile(lat, 0.99), 1),
            "max_ms": round(1000 * max(lat), 1) if lat else None}


def _kept_up(r: dict[str, Any]) -> bool:
    """The tables made at least 90% of what was asked and the page showed at least that many messages."""
    return bool(r["produced_per_s"] >= 0.9 * r["offered_per_s"] and r["displayed_per_s"] >= r["produced_per_s"] * 0.9)


def _line(r: dict[str, Any]) -> str:
    kind = "light tables" if r["light"] else "full tables"
    return (f"{r['tables']:4d} {kind} x {r['rate']:g} ev/s: asked {r['offered_per_s']:.0f} ev/s, tables made "
            f"{r['produced_per_s']:.0f} ev/s, page showed {r['displayed_per_s']:.0f} msg/s, delay p50 {r['p50_ms']} ms  p90 {r['p90_ms']} ms  p99 {r['p99_ms']} ms  "
            f"max {r['max_ms']} ms  (dashboard process {100 * r['dashboard_cpu']:.0f}% of a core, backlog {r['dashboard_backlog']}, late rounds {r['sim_late_rounds']})")


def _search(rate: float, light: bool, start: int, first: dict[str, Any] | None, cap: int,
            results: list[dict[str, Any]]) -> tuple[int, int | None]:
    """Bounded search for the most tables with p99 under 1 s (and the tables and page keeping up):
    grow by half from ``start`` until a run fails or ``cap`` is passed, then bisect twice."""
    def good(r: dict[str, Any]) -> bool:
        return bool(r["p99_ms"] < LIMIT_P99 * 1000 and _kept_up(r))

    def run(n: int) -> dict[str, Any]:
        r = measure(n, rate, 6.0, light=light)
        results.append(r)
        print(_line(r), flush=True)
        return r

    ok, bad = 0, None
    n = start
    r = first if first is not None else run(n)
    while True:
        if good(r):
            ok = n
            n = int(n * 1.5)
            if n > cap:
                break
            r = run(n)
        else:
            bad = n
            break
    for _ in range(2):
        if bad is None or bad - ok <= max(5, ok // 10):
            break
        mid = (ok + bad) // 2
        if good(run(mid)):
            ok = mid
        else:
            bad = mid
    return ok, bad


def club(args: argparse.Namespace) -> int:
    """The benchmark. ``--quick``: 5 full tables for a few seconds (a smoke test)."""
    rate = 20.0
    results: list[dict[str, Any]] = []
    if args.quick:
        results.append(measure(5, 5.0, 2.0, warmup=0.5))
        print(_line(results[0]))
        if args.json:
            print(json.dumps({"runs": results}))
        return 0
    full = measure(100, rate, 8.0)
    results.append(full)
    print(_line(full), flush=True)
    light = measure(100, rate, 8.0, light=True)
    results.append(light)
    print(_line(light), flush=True)
    for r in (full, light):
        verdict = "met" if r["p99_ms"] < GOAL_P99 * 1000 and _kept_up(r) else "NOT met"
        print(f"goal p99 < {GOAL_P99 * 1000:.0f} ms with 100 {'light' if r['light'] else 'full'} tables "
              f"at {rate:g} ev/s and everything kept up: {verdict}")
    light_ok, light_bad = _search(rate, True, 100, light, 1200, results)
    full_ok, full_bad = _search(rate, False, 100, full, 400, results)
    for name, ok, bad in (("light", light_ok, light_bad), ("full", full_ok, full_bad)):
        bound = f"first failing {bad}" if bad is not None else "the search's cap was reached"
        print(f"most {name} tables at {rate:g} ev/s with p99 < {LIMIT_P99 * 1000:.0f} ms and nothing falling "
              f"behind: {ok} ({bound})")
    if args.json:
        print(json.dumps({"runs": results, "light_largest": light_ok, "light_first_failing": light_bad,
                          "full_largest": full_ok, "full_first_failing": full_bad}))
    return 0
