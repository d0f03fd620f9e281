"""``cardtable bench login``: the director's known browser logging in while made-up names are sprayed at
the dashboard from new addresses (issue 20: ~200 new addresses a second; ``docs/mqtt.md``, "Logins stop
guessers, not the director").

A real dashboard (uvicorn, in this process) behind a trusted proxy address, so each guess can name its
own client address (``X-Forwarded-For``); a local Mosquitto for its broker login. The director logs in
once (her browser becomes a known device), then logs in again and again, first with no flood, then while
flooders send guesses from new addresses with new names, as fast as the dashboard answers. Figures: the
director's login time (p50, p99, the longest) without and with the flood side by side, their ratio,
how often she was made to wait (429) or told "busy" (503), and the flood's rate; then, the flood still on,
her page's state API (``/api/state``) asked again and again (p50, p99): the hashing of the guesses must not
slow the page a logged-in director is reading.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from firmware_host.bench.report import figures as _figures
from firmware_host.bench.report import report as _report


def run(args: argparse.Namespace) -> int:
    import logging

    import httpx

    from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
    from firmware_host.club.dashboard import Dashboard, serve
    from firmware_host.web.auth import hash_password

    seconds = 3.0 if args.quick else 40.0
    logging.getLogger("firmware_host.club").setLevel(logging.ERROR)  # thousands of refusals, by design
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-login-") as tmp:
        broker = LocalBroker(Path(tmp) / "broker", {DASHBOARD_USER: "dash-pw-1"})
        broker.start()
        d = Dashboard("127.0.0.1", broker.port, DASHBOARD_USER, "dash-pw-1",
                      {"director": hash_password("right-horse-1")})
        port = free_port()
        server = serve(d, "127.0.0.1", port, forwarded_allow_ips="127.0.0.1")
        runner = threading.Thread(target=server.run, daemon=True)
        runner.start()
        url = f"http://127.0.0.1:{port}"
        stop = threading.Event()
        flood_answers: list[int] = []

        def flood(n: int) -> None:
            with httpx.Client(base_url=url, timeout=30) as c:
                i = 0
                while not stop.is_set():
                    i += 1
                    r = c.post("/login", data={"username": f"guess{n}-{i}", "password": "nope"},
                               headers={"X-Forwarded-For": f"10.{n}.{i // 250 % 250}.{i % 250}"})
                    flood_answers.append(r.status_code)

        def director_logins(client: httpx.Client, until: float) -> tuple[list[float], list[int]]:
            took, codes = [], []
            while time.monotonic() < until:
                t0 = time.perf_counter()
                r = client.post("/login", data={"username": "director", "password": "right-horse-1"},
                                headers={"X-Forwarded-For": "192.168.1.20"})
                took.append(time.perf_counter() - t0)
                codes.append(r.status_code)
                page = client.get("/").text   # the logout form carries the login's CSRF token
                token = page.split('name="csrf" value="', 1)[-1].split('"', 1)[0]
                client.post("/logout", data={"csrf": token}, headers={"Origin": url})
                time.sleep(0.05)
            return took, codes

        try:
            while not server.started:
                time.sleep(0.05)
            with httpx.Client(base_url=url, timeout=120) as director:
                director.post("/login", data={"username": "director", "password": "right-horse-1"},
                              headers={"X-Forwarded-For": "192.168.1.20"})  # now a known device
                quiet, quiet_codes = director_logins(director, time.monotonic() + seconds / 2)
                floods = [threading.Thread(target=flood, args=(n,), daemon=True) for n in range(8)]
                for f in floods:
                    f.start()
                t0 = time.monotonic()
                loud, loud_codes = director_logins(director, t0 + seconds)
                guesses = len(flood_answers)
                rate = guesses / (time.monotonic() - t0)
                director.post("/login", data={"username": "director", "password": "right-horse-1"},
                              headers={"X-Forwarded-For": "192.168.1.20"})
                state, state_codes = [], []
                until = time.monotonic() + seconds / 2
                while time.monotonic() < until or len(state) < 20:
                    t1 = time.perf_counter()
                    state_codes.append(director.get("/api/state").status_code)
                    state.append(time.perf_counter() - t1)
        finally:
            stop.set()
            server.should_exit = True
            runner.join(10)
            broker.stop()
    q, f = _figures(quiet), _figures(loud)
    _report("login: the director's known browser while made-up names are sprayed from new addresses", {
        "no flood": q, "flood": f,
        "flood / no flood, p50": round(f["p50_ms"] / q["p50_ms"], 2),
        "flood: longest ms": round(max(loud) * 1000, 1),
        "flood: director made to wait (429) or busy (503)": sum(c in (429, 503) for c in loud_codes),
        "flood: guesses/s (new address and name each)": round(rate),
        "flood: guesses answered 401 / 503": f"{flood_answers.count(401)} / {flood_answers.count(503)}",
        "flood: the director's state API": _figures(state),
        "flood: state API answers not 200": sum(c != 200 for c in state_codes),
    }, args)
    return 0
