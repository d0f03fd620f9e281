"""``cardtable bench duplicate-records``: a round called, and its hand records at every table of a
30-table Mitchell, checked there against the session's commitment (issue 29: p99 under 1 s).

A local Mosquitto with the ACL of a club; the session's desk on its own client (``SessionService``, as
``cardtable duplicate demo`` runs it) with its journal at ``synchronous=FULL``; thirty table logins in a
child process, each subscribed to the round and its own seating only, as a table's publisher is. Each
table checks every record it is sent with the table's own check (``table.session_records.check_records``,
pinned to the commitment of the round message) and notes the time once it holds, checked, every record of
the round called. Between rounds every table's results of the round are given to the session (passed out:
untimed), then the director calls the next round; the clock starts just before the call.

Figures: per table and round, the delay from the call to the table holding its checked records (p50, p90,
p99, max); per round, the delay until the last of the thirty tables had them (median and max); every record
checked and none refused; and what building every table's seating costs the session (``desk.messages``,
median of 30: the session does it after every change).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_host.bench.report import percentile, report

GOAL_P99_MS = 1000.0


def _tables_process(tables: list[str], passwords: dict[str, str], port: int, ready: Any, out: Any) -> None:
    """Thirty table logins: each checks its seating's records and reports ``(table, round, t, taken, refused)``."""
    import paho.mqtt.client as mqtt

    from firmware_host.table.session_records import check_records, commitment_of
    from firmware_host.wire.duplicate import ROUND_TOPIC, seating_topic
    from firmware_host.wire.reader import read_json

    pinned: dict[str, str] = {}
    subscribed: set[str] = set()

    def handler(tid: str) -> Any:
        def on_message(client: Any, userdata: Any, m: Any) -> None:
            msg = read_json(m.payload).value or {}   # the wire's one checked reader
            if m.topic == ROUND_TOPIC:
                pinned[tid] = commitment_of(msg)
                return
            verdict = check_records(msg.get("hand_records"), pinned.get(tid, ""))
            want = [d["board"] for d in msg["boards"]]
            out.put((tid, msg["round"], time.time(), sorted(verdict.taken) == sorted(want), len(verdict.refused)))
        return on_message

    clients = []
    for tid in tables:
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=tid, protocol=mqtt.MQTTv5)
        c.username_pw_set(tid, passwords[tid])
        c.on_message = handler(tid)
        c.on_subscribe = lambda client, userdata, mid, codes, props, tid=tid: subscribed.add(tid)
        c.on_connect = lambda client, *a, tid=tid: client.subscribe([(ROUND_TOPIC, 1), (seating_topic(tid), 1)])
        c.connect("127.0.0.1", port)
        c.loop_start()
        clients.append(c)
    while len(subscribed) < len(tables):
        time.sleep(0.02)
    ready.set()
    while True:
        time.sleep(1.0)


def _passed_out(desk: Any, rnd: int) -> None:
    """Every table's result of round ``rnd``, passed out (untimed)."""
    st = desk.session.state
    for tid, t in sorted(st.number_of.items()):
        s = st.movement.at(rnd, t)
        if s is None or not s.played:
            continue
        for b in st.movement.boards_of(s.group):
            desk.director({"type": "result", "table": tid, "source": f"{tid}:{rnd * 100 + b}", "section": "A",
                           "table_number": t, "round": rnd, "board": b, "ns": str(s.ns), "ew": str(s.ew),
                           "contract": "Pass", "declarer": None, "lead": None, "tricks": 0,
                           "record": st.fingerprints[b], "verified": False, "foul": None, "play": [], "auction": []})


def measure(tables: int = 30, rounds: int = 10) -> dict[str, Any]:
    """One run (see the module docstring)."""
    import queue

    from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
    from firmware_host.duplicate.handrecords.newdeals import new_boards
    from firmware_host.session.broker_client import SessionService
    from firmware_host.session.duplicate_session import Session, SessionDesk
    from laws.scoring import Method
    from laws.session.duplicate.spec import SessionSetup, build_movement, default_tables

    spec = {"kind": "mitchell", "tables": tables, "boards_per_round": 3, "rounds": rounds + 1}
    movement = build_movement(spec)
    rng = random.Random(5)  # a benchmark's deals, not a tournament's
    setup = SessionSetup("bench", "2025-11-30", "bench", spec, movement.contestants,
                         tuple(new_boards(len(movement.boards()), shuffle=rng.shuffle)), Method.MATCHPOINTS, "A",
                         default_tables(tables), {}, secrets.token_hex(8))
    ctx = mp.get_context("spawn")
    delays: list[float] = []
    last: list[float] = []
    refused = bad = 0
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-records-") as tmp:
        passwords = {tid: secrets.token_urlsafe(9) for tid in setup.tables} | {DASHBOARD_USER: secrets.token_urlsafe(9)}
        broker = LocalBroker(Path(tmp) / "broker", passwords)
        broker.start()
        desk = SessionDesk(Session.create(Path(tmp) / "session", setup, analyse=False))
        service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, passwords[DASHBOARD_USER])
        ready, out = ctx.Event(), ctx.Queue()
        proc = ctx.Process(target=_tables_process, args=(sorted(setup.tables), passwords, broker.port, ready, out),
                           daemon=True)
        try:
            proc.start()
            ready.wait(120)
            service.start()
            service.connected.wait(30)
            for rnd in range(2, rounds + 2):
                _passed_out(desk, rnd - 1)
                time.sleep(0.3)
                while True:                                   # what the results' answers sent: not timed
                    try:
                        out.get_nowait()
                    except queue.Empty:
                        break
                t0 = time.time()
                desk.director({"type": "round", "round": rnd, "by": "bench"})
                got: dict[str, float] = {}
                deadline = time.monotonic() + 30
                while len(got) < tables and time.monotonic() < deadline:
                    try:
                        tid, r, t, whole, n_refused = out.get(timeout=1.0)
                    except queue.Empty:
                        continue
                    refused += n_refused
                    if r == rnd and tid not in got:
                        bad += 0 if whole else 1
                        got[tid] = t - t0
                delays += list(got.values())
                last.append(max(got.values()) if len(got) == tables else float("inf"))
            built = []
            for _ in range(30):                               # what every change costs the session: all seatings
                b0 = time.perf_counter()
                desk.messages()
                built.append(time.perf_counter() - b0)
        finally:
            proc.terminate()
            service.stop()
            desk.session.close()
            broker.stop()
    return {"tables": tables, "rounds_called": rounds, "deliveries": len(delays),
            "p50_ms": round(1000 * statistics.median(delays), 1), "p90_ms": round(1000 * percentile(delays, 0.9), 1),
            "p99_ms": round(1000 * percentile(delays, 0.99), 1), "max_ms": round(1000 * max(delays), 1),
            "all_tables_median_ms": round(1000 * statistics.median(last), 1),
            "all_tables_max_ms": round(1000 * max(last), 1), "goal_p99_ms": GOAL_P99_MS,
            "p99_within_goal": 1000 * percentile(delays, 0.99) < GOAL_P99_MS,
            "records_refused": refused, "tables_missing_a_record": bad,
            "all_seatings_built_median_ms": round(1000 * statistics.median(built), 2)}


def run(args: argparse.Namespace) -> int:
    fig = measure(rounds=3 if args.quick else 10)
    report("hand records from the session to the tables (30-table Mitchell, 3 boards a round, real Mosquitto)",
           fig, args)
    return 0
