"""``cardtable bench euchre``: a euchre night of 30 tables (120 players, progressive, 3 rounds of 8 hands),
from a table's hand sent over a real Mosquitto to the director's page's event stream showing it with the
standings (the latency the issue asks under 250 ms at the 99th percentile).

Each table is an MQTT client with its own login that sends each hand as a table does (an envelope on
``cardtable/<table>/hand``, the hand in the notation: real cards, plays and rulings made by the euchre
engine from the simulated players' hands, reneges included). All 30 tables send hand *j* of a round at
once (the worst case: every table finishing together), then the bench waits until the page has shown all
30 before the next. A hand's latency: from just before its publish to the first event on the page's stream
(``/events``, read by an HTTP client as a browser's ``EventSource`` reads it) whose table row counts it.
Also reported: the same latency without the first burst (the first views the process makes, warming up),
the three slowest bursts, and the session's own work a burst, replayed alone after the run.
``--quick``: 10 tables, 2 rounds of 4 hands. ``--director-server``: the night on the club's director's
server instead (``cardtable club dashboard --euchre``: the dashboard's client and hub carry it), its
director's page's stream ``/euchre/events`` read behind a director's login.

The night's server runs in a process of its own (``euchre_server``), as on the club's machine, where the
tables are other machines and the page is read in a browser elsewhere: the bench's 30 table clients and
its page reader do not share the server's interpreter. The server reports its CPU time (user and system,
every thread) from serving to the end, given here a hand.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import shutil
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from firmware_host.bench.report import figures, report
from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.euchre_night.players import deal_hand
from firmware_host.euchre_night.session import NightSession, Offered
from firmware_host.euchre_night.views import page_view
from firmware_host.wire.reader import read_json
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS
from laws.cards import Seat
from laws.engine import LawEngine
from laws.euchre_night.night import Format, NightSetup, Player
from laws.euchre_night.notation import hand_body, tricks_won
from laws.events import event_from_dict
from laws.events.types import ResultRecorded


def played_hand(rng: random.Random, dealer: Seat) -> tuple[Any, list[dict[str, Any]]]:
    """One hand through the euchre engine: its deal state and rulings (a renege now and then)."""
    eng = LawEngine("euchre")
    eng.state.next_dealer = dealer
    plan = deal_hand(dealer, rng, renege=0.2, alone=0.1)
    rulings = []
    for e in plan.events:
        rulings += [r.to_dict() for r in eng.feed(event_from_dict(e))]
    d = eng.state.deal
    assert d is not None
    won = tricks_won(d)
    assert won is not None and d.makers is not None
    rulings += [r.to_dict() for r in eng.feed(ResultRecorded(tricks=won[d.makers], makers=d.makers,
                                                             alone=d.alone_seat is not None))]
    return d, rulings


def replay(setup: NightSetup, bursts: list[list[Offered]], folder: Path) -> tuple[list[float], list[float]]:
    """The session's own work for each burst, alone in this process: take it (read, check, commit with
    the journal's sync, apply) and make the page's view (standings included): wall and CPU seconds."""
    session = NightSession.create(folder, setup)
    out, cpu = [], []
    try:
        for batch in bursts:
            t0, c0 = time.perf_counter(), time.process_time()
            session.take(batch)
            with session.lock:
                json.dumps(page_view(session.night, session.head(), session.version, session.refused))
            out.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    finally:
        session.close()
    return out, cpu


def director_server(session: NightSession, port: int, password: str) -> tuple[Any, str, str]:
    """The director's server carrying the night (as ``cardtable club dashboard --euchre``), started, and
    its director's stream's address and a logged-in director's cookie."""
    import http.cookiejar

    from firmware_host.club.broker import free_port
    from firmware_host.club.dashboard import Dashboard, serve
    from firmware_host.euchre_night.desk import NightDesk
    from firmware_host.euchre_night.screens import mount
    from firmware_host.web.auth import hash_password

    word = secrets.token_hex(8)
    dash = Dashboard("127.0.0.1", port, DASHBOARD_USER, password, {"director": hash_password(word)})
    mount(dash, NightDesk(session))
    http_port = free_port()
    server = serve(dash, "127.0.0.1", http_port)
    server.thread = threading.Thread(target=server.run, daemon=True)
    server.thread.start()
    deadline = time.monotonic() + 30
    while not (server.started and dash.client.is_connected()):
        if time.monotonic() > deadline:
            raise RuntimeError("the director's server did not start or reach the broker")
        time.sleep(0.05)
    base = f"http://127.0.0.1:{http_port}"
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(urllib.request.Request(base + "/login", data=f"username=director&password={word}".encode()),
                timeout=30).read()
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return server, base + "/euchre/events", cookie


class Page:
    """The director's page's event stream, read in a thread; when each (round, table, hands) was seen."""

    def __init__(self, url: str, cookie: str = "") -> None:
        self.seen: dict[tuple[int, int, int], float] = {}
        self.last: dict[str, Any] = {}
        self.cond = threading.Condition()
        req = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
        self.resp = urllib.request.urlopen(req, timeout=60)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.resp:
                line = raw.decode()
                if not line.startswith("data: "):
                    continue
                now = time.perf_counter()
                got = read_json(line[6:], max_bytes=None)
                if not got.ok:
                    continue
                v = got.value
                with self.cond:
                    self.last = v
                    for t in v["tables"]:
                        for j in range(1, t["hands"] + 1):
                            self.seen.setdefault((v["round"], t["table_number"], j), now)
                    for t in v["previous"]:
                        for j in range(1, t["hands"] + 1):
                            self.seen.setdefault((v["round"] - 1, t["table_number"], j), now)
                    self.cond.notify_all()
        except (OSError, ValueError, AttributeError):   # AttributeError: the stream closed under the reader
            return


class Server:
    """The night's server in a process of its own (``euchre_server``): started, its stream's address and
    cookie read, and at the end its CPU time and the night's state."""

    def __init__(self, director: bool, folder: Path, port: int, password: str) -> None:
        import subprocess
        import sys

        self.proc = subprocess.Popen([sys.executable, "-m", "firmware_host.bench.euchre_server",
                                      "director" if director else "serve", str(folder), str(port), password],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        got = read_json(self.proc.stdout.readline() or '{"error": "the server ended at its start"}', max_bytes=None)
        first = got.value if got.ok and isinstance(got.value, dict) else {"error": "the server's first line is not JSON"}
        if "error" in first:
            self.stop()
            raise RuntimeError(f"bench euchre: {first['error']}")
        self.stream, self.cookie = str(first["stream"]), str(first["cookie"])
        self.end: dict[str, Any] = {}

    def stop(self) -> None:
        import subprocess

        try:
            out, _ = self.proc.communicate("", timeout=30)
            lines = [ln for ln in out.splitlines() if ln.startswith("{")]
            got = read_json(lines[-1], max_bytes=None) if lines else None
            self.end = got.value if got is not None and got.ok and isinstance(got.value, dict) else {}
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def run(args: argparse.Namespace) -> int:
    """The bench in a folder of its own, removed when it ends however it ends (its broker's, its night's)."""
    work = Path(tempfile.mkdtemp(prefix="bench-euchre-"))
    try:
        return _run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run(args: argparse.Namespace, work: Path) -> int:
    quick = bool(getattr(args, "quick", False))
    tables, rounds, hands = (10, 2, 4) if quick else (30, 3, 8)
    rng = random.Random(1)
    ids = tuple(f"table-{k:02d}" for k in range(1, tables + 1))
    users = {DASHBOARD_USER: secrets.token_hex(8)} | {t: secrets.token_hex(8) for t in ids}
    setup = NightSetup("Bench night", tuple(Player(i, f"P{i}") for i in range(1, 4 * tables + 1)),
                       Format.PROGRESSIVE, rounds, hands, ids)
    made = [[played_hand(rng, Seat.N) for _ in range(hands)] for _ in range(tables)]
    broker = LocalBroker(work / "broker", users)
    broker.start()
    NightSession.create(work / "night", setup).close()
    director = bool(getattr(args, "director_server", False))
    server = Server(director, work / "night", broker.port, users[DASHBOARD_USER])
    clients = []
    samples: list[float] = []
    page: Page | None = None
    try:
        import paho.mqtt.client as mqtt

        for tid in ids:
            c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=tid)
            c.username_pw_set(tid, users[tid])
            c.connect("127.0.0.1", broker.port)
            c.loop_start()
            clients.append(c)
        page = Page(server.stream, server.cookie)
        bursts: list[list[Offered]] = []
        worst: list[tuple[float, str]] = []
        seq = 0
        t_start = time.perf_counter()
        for rnd in range(1, rounds + 1):
            with page.cond:
                if not page.cond.wait_for(lambda rnd=rnd: page.last.get("round") == rnd, timeout=60):  # type: ignore[misc]
                    print(f"bench euchre: round {rnd}'s seats never reached the page")
                    return 1
                seats = [tuple(t["seats"][s]["player"] for s in "NSEW") for t in page.last["tables"]]
            for j in range(1, hands + 1):
                sent: dict[tuple[int, int, int], float] = {}
                for k, c in enumerate(clients, 1):
                    d, rulings = made[k - 1][j - 1]
                    body = hand_body(d, rulings, round=rnd, table=ids[k - 1], table_number=k, hand=j,
                                     players=dict(zip("NSEW", seats[k - 1])))
                    seq += 1
                    env = {"table": ids[k - 1], "kind": "hand", "seq": seq, "deal": j, "secret": False,
                           "t": time.time(), "body": body}
                    payload = json.dumps(env, separators=(",", ":"))
                    sent[(rnd, k, j)] = time.perf_counter()
                    c.publish(TOPICS.table(ids[k - 1], "hand"), payload, qos=1)
                    if len(bursts) < rnd * hands - hands + j:
                        bursts.append([])
                    bursts[-1].append(Offered(TOPICS.table(ids[k - 1], "hand"), payload.encode()))
                with page.cond:
                    ok = page.cond.wait_for(lambda sent=sent: all(key in page.seen for key in sent),  # type: ignore[misc]
                                            timeout=60)
                if not ok:
                    print(f"bench euchre: round {rnd} hand {j} never reached the page")
                    return 1
                lat = [page.seen[key] - t for key, t in sent.items()]
                samples += lat
                worst.append((max(lat), f"round {rnd} hand {j}"))
        wall = time.perf_counter() - t_start
    finally:
        for c in clients:
            stop_loop(c)
            c.disconnect()
        if page is not None:
            page.resp.close()        # the page goes away before the server does
        server.stop()
        broker.stop()
    work_s, cpu_s = replay(setup, bursts, work / "replay")
    taken, finished = int(server.end.get("hands", -1)), bool(server.end.get("finished"))
    cpu = float(server.end.get("cpu_s", float("nan")))
    report("euchre night: a table's hand to the director's page (standings included)",
           {"pages": "the director's server (/euchre, logged in)" if director else "cardtable euchre serve's",
            "tables": tables, "rounds x hands": f"{rounds} x {hands}", "hands taken": taken,
            "night finished": finished, "hand -> page": figures(samples),
            "the same, first burst left out": figures(samples[tables:]),
            "server CPU a hand (ms)": round(cpu / max(taken, 1) * 1000, 2),
            "server CPU in all (s)": round(cpu, 2),
            "session work a burst": figures(work_s), "session CPU a burst": figures(cpu_s),
            "wall_s": round(wall, 2),
            "slowest bursts": ", ".join(f"{w} {t * 1000:.0f} ms" for t, w in sorted(worst, reverse=True)[:3]),
            "target": "p99 < 250 ms at 30 tables"}, args)
    return 0 if finished and taken == tables * rounds * hands else 1
