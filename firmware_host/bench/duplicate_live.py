"""``cardtable bench duplicate-live``: a confirmed result, rescored and on the director's browser, while
every table of a 30-table Mitchell sends.

The session is a 30-table Mitchell of 27 rounds of one board (each pair plays 27 boards: 810 results,
each board at 27 tables). A local Mosquitto; the dashboard (in this process) with the session's desk and
its screens; headless Chromium on the director's page. Thirty table logins in a child process send the
results as the tables' publishers would (``board`` messages, the publisher's envelope), round by round:
in each round every table sends its result within ``spread`` seconds, then the next round follows
``gap`` seconds later. The page records, for every traveller line it shows for the first time, the
delay from the moment the table sent it (its envelope's ``t``) to the moment the page had changed to
show it (both on this machine's clock): the figure covers the broker, the dashboard's intake, the
session's journal (one transaction per batch) and full rescore (``score_session``), the views, the
server-sent events and the browser.

Figures: delays p50/p90/p99/max (goal: p99 under 250 ms), the dashboard process's CPU, the results
taken, the full rescore of the finished session (``Session.rescore_all``: ``score_session`` on all 810
lines; median of repeats; goal under 50 ms) and what one confirmed result costs the live session
(``Session.scored`` with one board to score again), checked equal to the full rescore each time (one
that differs fails the bench: one line, exit 1).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import secrets
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from firmware_host.bench.report import ChecksFailed, percentile, report
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS

GOAL_P99_MS = 250.0
GOAL_RESCORE_MS = 50.0


def _bodies(setup_dict: dict[str, Any], seed: int) -> list[list[tuple[str, dict[str, Any]]]]:
    """Per round, each club table's result body (the simulated tables' play)."""
    from firmware_host.duplicate.simplay import check_against_record, play_board
    from firmware_host.wire.duplicate import result_body
    from laws.session.duplicate.spec import SessionSetup, build_movement

    setup = SessionSetup.from_dict(setup_dict)
    movement = build_movement(setup.movement)
    records = {b.number: b for b in setup.boards}
    club = {n: tid for tid, n in setup.tables.items()}
    rng = random.Random(seed)
    rounds = []
    for r in range(1, movement.rounds + 1):
        out = []
        for t in range(1, movement.tables + 1):
            s = movement.at(r, t)
            if s is None or not s.played:
                continue
            for b in movement.boards_of(s.group):
                pb = play_board(records[b], records[b].deal, rng)
                verified, foul = check_against_record(records[b], pb.play)
                out.append((club[t], result_body(
                    section="A", table_number=t, round=r, board=b, ns=str(s.ns), ew=str(s.ew),
                    contract=pb.contract.code if pb.contract else "Pass",
                    declarer=pb.declarer.value if pb.declarer else None, tricks=pb.tricks,
                    lead=pb.lead.code if pb.lead else None, record=records[b].fingerprint, verified=verified,
                    foul=foul, play=[c.code for _s, c in pb.play], auction=list(pb.auction), confirmed={"ns": "N", "ew": "E"})))
        rounds.append(out)
    return rounds


def _tables_process(setup_dict: dict[str, Any], passwords: dict[str, str], port: int, spread: float, gap: float,
                    ready: Any, go: Any, out: Any) -> None:
    """Thirty table logins sending the session's results round by round (see the module docstring)."""
    import paho.mqtt.client as mqtt

    rounds = _bodies(setup_dict, 7)
    clients: dict[str, Any] = {}
    for tid in sorted({tid for rnd in rounds for tid, _b in rnd}):
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=tid)
        c.username_pw_set(tid, passwords[tid])
        c.connect("127.0.0.1", port)
        c.loop_start()
        clients[tid] = c
    seqs = dict.fromkeys(clients, 0)
    ready.set()
    go.wait(60)
    sent = 0
    for rnd in rounds:
        start = time.monotonic()
        for i, (tid, body) in enumerate(rnd):
            due = start + spread * i / max(1, len(rnd))
            if due > time.monotonic():
                time.sleep(due - time.monotonic())
            seqs[tid] += 1
            env = {"table": tid, "kind": "board", "seq": seqs[tid], "prev": seqs[tid] - 1, "deal": seqs[tid],
                   "secret": False, "t": time.time(), "body": body}
            clients[tid].publish(TOPICS.board(tid), json.dumps(env, separators=(",", ":")), qos=1)
            sent += 1
        time.sleep(max(0.0, start + spread + gap - time.monotonic()))
    time.sleep(1.0)
    for c in clients.values():
        c.disconnect()
        stop_loop(c)
    out.put(sent)


def measure(tables: int = 30, rounds: int = 27, spread: float = 0.2, gap: float = 0.8) -> dict[str, Any]:
    """One run (see the module docstring)."""
    try:  # the browser is test code (tests/browser.py, Selenium from the test extra): a source checkout's
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        from tests.browser import chromium
    except ImportError as exc:
        raise RuntimeError(f"this benchmark drives a browser and runs from a source checkout after "
                           f"`make setup` (tests/browser.py, Selenium): {exc}") from None

    from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
    from firmware_host.club.dashboard import Dashboard, serve
    from firmware_host.duplicate.handrecords.newdeals import new_boards
    from firmware_host.session.duplicate_session import Session, SessionDesk
    from firmware_host.web.auth import hash_password
    from laws.scoring import Method
    from laws.session.duplicate.spec import SessionSetup, build_movement, default_tables

    spec = {"kind": "mitchell", "tables": tables, "boards_per_round": 1, "rounds": rounds}
    movement = build_movement(spec)
    rng = random.Random(3)  # a benchmark's deals, not a tournament's
    setup = SessionSetup("bench", "2025-11-30", "bench", spec, movement.contestants,
                         tuple(new_boards(len(movement.boards()), shuffle=rng.shuffle)), Method.MATCHPOINTS, "A",
                         default_tables(tables), {}, secrets.token_hex(8))
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-duplicate-") as tmp:
        passwords = {tid: secrets.token_urlsafe(9) for tid in setup.tables} | {DASHBOARD_USER: secrets.token_urlsafe(9)}
        broker = LocalBroker(Path(tmp) / "broker", passwords)
        broker.start()
        session = Session.create(Path(tmp) / "session", setup)
        session.all_analysis(300)   # analysed before play, as a club's session is
        desk = SessionDesk(session)
        dash = Dashboard("127.0.0.1", broker.port, DASHBOARD_USER, passwords[DASHBOARD_USER],
                         {"director": hash_password("bench-pass-1")}, duplicate=desk)
        port = free_port()
        server = serve(dash, "127.0.0.1", port)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        ready, go, out = ctx.Event(), ctx.Event(), ctx.Queue()
        proc = ctx.Process(target=_tables_process, args=(setup.to_dict(), passwords, broker.port, spread, gap,
                                                         ready, go, out), daemon=True)
        driver = None
        try:
            while not server.started:
                time.sleep(0.05)
            driver = chromium(str(Path(tmp) / "profile"))
            driver.get(f"http://127.0.0.1:{port}/login")
            driver.find_element(By.ID, "username").send_keys("director")
            driver.find_element(By.ID, "password").send_keys("bench-pass-1")
            driver.find_element(By.ID, "login").click()
            WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.ID, "queue"))
            driver.get(f"http://127.0.0.1:{port}/duplicate")
            WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live"))
            proc.start()
            ready.wait(120)
            cpu0, t0 = time.process_time(), time.monotonic()
            go.set()
            sent = out.get(timeout=600)
            due = sum(len(movement.boards_of(s.group)) for s in movement.seatings if s.played)
            deadline = time.monotonic() + 60
            while len(session.state.entries) < due and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(1.0)
            elapsed = time.monotonic() - t0
            cpu = (time.process_time() - cpu0) / elapsed
            lat = list(driver.execute_script("return window.cardtableDupLatency;"))
            server_part = list(driver.execute_script("return window.cardtableDupServer;"))
        finally:
            if driver is not None:
                driver.quit()
            if proc.is_alive():
                proc.terminate()
            server.should_exit = True
            thread.join(5)
            broker.stop()
        try:
            rescore, one_board = rescore_costs(session, movement.boards())
            taken = len(session.state.entries)
        finally:
            session.close()
    return {"tables": tables, "rounds": rounds, "results_sent": sent, "results_taken": taken,
            "lines_shown": len(lat), "seconds": round(elapsed, 1), "dashboard_cpu": round(cpu, 2),
            "p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
            "p90_ms": round(1000 * percentile(lat, 0.90), 1), "p99_ms": round(1000 * percentile(lat, 0.99), 1),
            "max_ms": round(1000 * max(lat), 1) if lat else None, "goal_p99_ms": GOAL_P99_MS,
            "server_part_p50_ms": round(1000 * statistics.median(server_part), 1) if server_part else None,
            "server_part_p99_ms": round(1000 * percentile(server_part, 0.99), 1),
            "p99_within_goal": bool(lat) and 1000 * percentile(lat, 0.99) < GOAL_P99_MS,
            "full_rescore_median_ms": round(statistics.median(rescore), 2),
            "full_rescore_max_ms": round(max(rescore), 2), "rescore_goal_ms": GOAL_RESCORE_MS,
            "one_board_rescore_median_ms": round(statistics.median(one_board), 2)}


def rescore_costs(session: Any, boards: Sequence[Any], repeats: int = 15) -> tuple[list[float], list[float]]:
    """Milliseconds of each full rescore (``rescore_all``) and of each live one with one board to score
    again (``scored``), the two checked equal each time: a live ranking that is not the full one is a
    wrong ranking on the director's page, so it fails the bench (``ChecksFailed``), not a bare ``assert``
    that ``python -O`` would drop."""
    rescore: list[float] = []
    one_board: list[float] = []
    for i in range(repeats):
        r0 = time.perf_counter()
        full = session.rescore_all()            # the whole session at once (score_session)
        rescore.append((time.perf_counter() - r0) * 1000)
        board = boards[i % len(boards)]
        session._stale.add(board)
        r0 = time.perf_counter()
        live = session.scored()                 # what a confirmed result costs: its board again, the ranking
        one_board.append((time.perf_counter() - r0) * 1000)
        if live != full:
            raise ChecksFailed(f"repeat {i + 1}: the live ranking, board {board} scored again, is not the full "
                               "rescore's")
    return rescore, one_board


def run(args: argparse.Namespace) -> int:
    quick = bool(getattr(args, "quick", False))
    figures = measure(5, 4, 0.1, 0.3) if quick else measure()
    report("duplicate live: a confirmed result rescored and on the director's browser", {"run": figures}, args)
    return 0
