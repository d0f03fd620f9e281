"""A real session broadcast live, with listeners: what the broadcast's tests and benchmark run.

``cardtable duplicate demo``'s session (a local Mosquitto, the session service, a real duplicate table
for each table of the movement) with, on the same broker before any table starts: the broadcast service
(``broadcast.service``, login ``broadcast``), optionally the spectators' page (``broadcast.page``, login
``spectator``) with server-sent-event readers and headless Chromium on it, and listeners that subscribe
to ``#`` under other logins (a spectator's, a table's) and record everything that reaches them, and
when. :func:`firmware_host.broadcast.audit.judge` says what of it was early or wrong.
"""

from __future__ import annotations

import json
import logging
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.broadcast.audit import Arrival
from firmware_host.broadcast.live import Releaser, plays_of
from firmware_host.broadcast.service import BroadcastService
from firmware_host.club.broker import LocalBroker, free_port
from firmware_host.evening.boards import BoardRoom
from firmware_host.evening.duplicate_evening import DuplicateDemo, TableFactory
from firmware_host.evening.people import People
from firmware_host.evening.table import ClubLink, DemoTable, TablePlace
from firmware_host.wire.reader import read_json
from firmware_host.wire.subscribed import stop_loop, when_subscribed
from firmware_host.wire.topics import BROADCAST_USER, SPECTATOR_USER
from laws.broadcast.release import Release
from laws.session.duplicate.spec import build_movement

log = logging.getLogger(__name__)

ATTACK_TABLE = "table-99"   # a table login of the club that sits at no table of the movement
# A second login with a spectator's rights for the listener: one login is one connection
# (use_username_as_clientid), and the page's server holds the ``spectator`` one.
WATCHER = "spectator-watch"


class Listener:
    """A broker login subscribed to ``#`` (QoS 1), keeping every message with its arrival time. ``connected``
    is set once the broker has taken the subscription, or at once when it refused the login (``refused``)."""

    def __init__(self, port: int, user: str | None, password: str | None, client_id: str) -> None:
        import paho.mqtt.client as mqtt

        self.arrivals: list[Arrival] = []
        self.refused = ""
        self.connected = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        # ready once its subscription is in place, so that it misses nothing sent after it says so
        self.client.on_subscribe = when_subscribed(self.connected, f"listener {client_id}", log)
        self.client.on_message = lambda c, u, m: self.arrivals.append(Arrival(time.time(), m.topic, bytes(m.payload)))
        self.client.connect_async("127.0.0.1", port)
        self.client.loop_start()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            self.refused = str(reason_code)
            self.connected.set()
            return
        client.subscribe("#", qos=1)

    def close(self) -> None:
        self.client.disconnect()
        stop_loop(self.client)


class PacedPeople:
    """The simulated people at a table, taking at least ``pace`` seconds over each thing they do (the
    demo's people play as fast as the table takes it; a broadcast is watched at a person's pace)."""

    def __init__(self, people: People, pace: float) -> None:
        self.people = people
        self.pace = pace
        self._next = 0.0

    def next_input(self, state: Any) -> Any:
        now = time.monotonic()
        if now < self._next:
            return None
        item = self.people.next_input(state)
        if item is not None:
            self._next = now + self.pace
        return item

    def __getattr__(self, name: str) -> Any:
        return getattr(self.people, name)


def paced_tables(pace: float) -> TableFactory:
    """The demo's tables (``evening.demo.real_table``) with their people paced."""
    def make(place: TablePlace, link: ClubLink, password: str, room: BoardRoom, rng: random.Random) -> DemoTable:
        people = People(lambda board, rnd: room.held(board, place.number, rnd), rng)
        return DemoTable(place, link, password, PacedPeople(people, pace),  # type: ignore[arg-type]
                         shoe_seed=rng.randrange(2**31))
    return make


@dataclass
class LiveResult:
    """What a run left: the listeners' arrivals, the releaser, the journals, the page's measurements."""

    out: Path
    plays: dict[int, frozenset[int]]
    releaser: Releaser
    arrivals: dict[str, list[Arrival]]
    refused: dict[str, str]
    journals: list[Path]
    seconds: float
    shown: list[dict[str, float]] = field(default_factory=list)      # each browser's window.shown
    sse_messages: list[int] = field(default_factory=list)            # messages each SSE reader got
    cpu: float = 0.0                                                 # broadcast's CPU seconds (its threads)
    shots: dict[int, Path] = field(default_factory=dict)


def _thread_cpu(threads: list[threading.Thread]) -> float:
    total = 0.0
    for th in threads:
        if th.ident is None or not th.is_alive():
            continue
        try:
            total += time.clock_gettime(time.pthread_getcpuclockid(th.ident))
        except (OSError, AttributeError):
            continue
    return total


def _process_cpu(pid: int) -> float:
    """A process's CPU seconds (user and system) so far, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(url, timeout=2).json().get("broker"):
                return
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the spectators' page did not start ({url})")


class LiveRun:
    """One session broadcast live (see the module docstring).

    Args:
        out: the session's folder (the demo's ``--out``); the LIN folder is ``out/lin``.
        release: the director's rule.
        tables, boards, movement, rounds: the session (``rounds`` cuts a Mitchell short).
        other_room, rooms: for ``teams``.
        page: serve the spectators' page; ``browsers`` headless Chromium on it, ``sse`` more readers.
        shots: widths (px) to screenshot the page at, in the first browser, once ``shots_after`` items
            are shown there.
        seed: the demo's seed.
        private: a private event's spectator password (the browsers type it in).
        pace: seconds each table's people take at least over each call, card or confirmation.
        service_process: run the broadcast service in a process of its own, as on the club's machine
            (``releaser`` is then not this process's: its counts are in ``result_extra["service"]``).
    """

    def __init__(self, out: Path, release: Release, *, tables: int = 3, boards: int = 3, movement: str = "mitchell",
                 rounds: int | None = None, other_room: dict[int, int] | None = None, rooms: dict[int, str] | None = None,
                 page: bool = False, browsers: int = 0, sse: int = 0, shots: tuple[int, ...] = (),
                 shots_after: int = 40, seed: int = 3, private: str | None = None, pace: float = 0.0,
                 service_process: bool = False) -> None:
        self.out = out
        self.release = release
        self.demo = DuplicateDemo(out, tables, boards, movement, seed=seed, analyse=False,
                                  extra_users={BROADCAST_USER: secrets.token_urlsafe(9),
                                               SPECTATOR_USER: secrets.token_urlsafe(9),
                                               ATTACK_TABLE: secrets.token_urlsafe(9), WATCHER: secrets.token_urlsafe(9)},
                                  spectators=(SPECTATOR_USER, WATCHER), on_broker=self._on_broker, table_factory=paced_tables(pace) if pace else None)
        if rounds is not None:
            self.demo.spec = {**self.demo.spec, "rounds": rounds}
            self.demo.movement = build_movement(self.demo.spec)
        self.plays = plays_of(self.demo.movement)
        self.other_room = dict(other_room or {})
        self.rooms = dict(rooms or {})
        self.page = page or browsers > 0 or sse > 0
        self.browsers, self.sse, self.shots, self.shots_after = browsers, sse, shots, shots_after
        self.private = private
        self.service_process = service_process
        names = {str(p): (f"North-East {p}", f"South-West {p}") for p in self.demo.movement.pairs()}
        self.names = names
        self.releaser = Releaser(release, {f"table-{n:02d}": n for n in range(1, self.demo.movement.tables + 1)},
                                 self.plays, rooms=self.rooms, other_room=self.other_room, names=names,
                                 lin_dir=out / "lin", title="Club pairs, live")
        self.listeners: dict[str, Listener] = {}
        self.result_extra: dict[str, Any] = {}

    def _on_broker(self, broker: LocalBroker, passwords: dict[str, str]) -> Callable[[], None]:
        """Start the listeners, the service, the page and its readers; should any of it fail, stop what
        was started (nothing is left running) and say why."""
        self._children: list[subprocess.Popen[Any]] = []
        try:
            return self._start_all(broker, passwords)
        except BaseException:
            for child in self._children:
                if child.poll() is None:
                    child.kill()
                    child.wait(10)
            for lst in self.listeners.values():
                lst.close()
            raise

    def _start_all(self, broker: LocalBroker, passwords: dict[str, str]) -> Callable[[], None]:
        if self.page and self.browsers:
            try:  # the browser is test code (tests/browser.py, Selenium from the test extra): a source checkout's
                import tests.browser  # noqa: F401
            except ImportError as exc:
                raise RuntimeError(f"the broadcast's page is measured in a browser, from a source checkout after "
                                   f"`make setup`, with the checkout on the path (run from it as a module, or "
                                   f"PYTHONPATH=.) (tests/browser.py, Selenium): {exc}") from None
        port = broker.port
        self.listeners = {
            "spectator": Listener(port, WATCHER, passwords[WATCHER], WATCHER),
            "table": Listener(port, ATTACK_TABLE, passwords[ATTACK_TABLE], ATTACK_TABLE),
            "anonymous": Listener(port, None, None, "attack-anonymous"),
            "wrong-password": Listener(port, BROADCAST_USER, "not-the-password", "attack-guess"),
        }
        for lst in self.listeners.values():
            lst.connected.wait(10)
        service: BroadcastService | None = None
        proc: subprocess.Popen[str] | None = None
        threads: list[threading.Thread] = []
        if self.service_process:
            proc = self._service_process(port, passwords[BROADCAST_USER])
        else:
            service = BroadcastService(self.releaser, "127.0.0.1", port, passwords[BROADCAST_USER])
            service.start()
            if not service.connected.wait(15):
                raise RuntimeError("the broadcast service could not log in to the local broker")
            threads = [t for t in (service._thread, getattr(service.client, "_thread", None)) if t is not None]
        proc_cpu0 = _process_cpu(proc.pid) if proc is not None else 0.0
        stops: list[Callable[[], None]] = []
        shown: list[dict[str, float]] = []
        counts: list[int] = []
        page_cpu = [0.0]
        if self.page:
            http = free_port()
            env = {**os.environ, "CT_SPECTATOR_PASSWORD": passwords[SPECTATOR_USER],
                   "CT_PRIVATE_PASSWORD": self.private or ""}
            server = subprocess.Popen([sys.executable, "-m", "firmware_host.bench.broadcast_procs", "page", str(port),
                                       str(http)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self._children.append(server)
            url = f"http://127.0.0.1:{http}"
            _wait_http(url + "/health", server)
            self.result_extra["url"] = url
            readers = None
            if self.sse:
                readers = subprocess.Popen([sys.executable, "-m", "firmware_host.bench.broadcast_procs", "sse",
                                            url + "/events", str(self.sse)], stdout=subprocess.PIPE, text=True)
                self._children.append(readers)
            drivers = self._browsers(url)
            shooter = threading.Thread(target=self._shoot, args=(drivers,), name="shots", daemon=True)
            shooter.start()

            def stop_page() -> None:
                shooter.join(60)
                deadline = time.monotonic() + 180      # each browser draws what was released, however late:
                for d in drivers:                      # until its count stands still for 5 s
                    last, since = -1, time.monotonic()
                    while time.monotonic() < deadline and time.monotonic() - since < 5:
                        n = len(d.execute_script("return window.shown") or {})
                        if n != last:
                            last, since = n, time.monotonic()
                        time.sleep(0.25)
                    shown.append(dict(d.execute_script("return window.shown") or {}))
                    d.quit()
                try:
                    import httpx
                    self.result_extra["health"] = httpx.get(url + "/health", timeout=10).json()
                except Exception as exc:  # noqa: BLE001 - a figure, not the run
                    self.result_extra["health"] = {"error": str(exc)}
                if readers is not None:
                    readers.send_signal(signal.SIGTERM)
                    out, _ = readers.communicate(timeout=30)
                    counts.extend(read_json(out.strip().splitlines()[-1]).value if out.strip() else [])
                page_cpu[0] = _process_cpu(server.pid) - page_cpu0
                server.send_signal(signal.SIGTERM)
                try:
                    server.wait(15)
                except subprocess.TimeoutExpired:
                    server.kill()
            stops.append(stop_page)
            page_cpu0 = _process_cpu(server.pid)
        cpu0 = _thread_cpu(threads)

        def stop() -> None:
            self._settle(max(1.0, self.release.delay + 0.5))   # what is still held by time goes out
            self.result_extra["cpu"] = _thread_cpu(threads) - cpu0
            for s in stops:
                s()
            self.result_extra["cpu"] += page_cpu[0]
            if service is not None:
                service.stop()
            if proc is not None:
                self.result_extra["cpu"] += _process_cpu(proc.pid) - proc_cpu0
                proc.send_signal(signal.SIGTERM)
                out, _ = proc.communicate(timeout=60)
                self.result_extra["service"] = read_json(out.strip().splitlines()[-1]).value
            for lst in self.listeners.values():
                lst.close()
            self.result_extra["shown"] = shown
            self.result_extra["sse"] = counts
        return stop

    def _settle(self, quiet: float, limit: float = 120.0) -> None:
        """Until nothing more is released nor reaches a listener for ``quiet`` seconds (at most ``limit``):
        a fixed wait let a loaded machine stop the run with releases still on their way."""
        def moved() -> tuple[int, ...]:
            try:
                held = sum(len(v) for v in self.releaser.released_items().values())
            except RuntimeError:            # a board added while counted: it moved
                held = -1
            return (held, *(len(lst.arrivals) for lst in self.listeners.values()))

        last, since, end = moved(), time.monotonic(), time.monotonic() + limit
        while time.monotonic() < end:
            time.sleep(0.1)
            now = moved()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return

    def _service_process(self, port: int, password: str) -> subprocess.Popen[str]:
        r = self.releaser
        config = {"rule": self.release.rule.value, "delay": self.release.delay, "tables": r.tables,
                  "plays": {str(b): sorted(t) for b, t in r.plays.items()}, "names": r.names,
                  "rooms": {str(t): v for t, v in r.rooms.items()},
                  "other_room": {str(t): v for t, v in r.other_room.items()},
                  "lin_dir": str(r.lin_dir), "title": r.title}
        path = self.out.parent / "broadcast-service.json"
        path.write_text(json.dumps(config), encoding="utf-8")
        proc = subprocess.Popen([sys.executable, "-m", "firmware_host.bench.broadcast_procs", "service", str(port),
                                 str(path)], env={**os.environ, "CT_BROADCAST_PASSWORD": password},
                                stdout=subprocess.PIPE, text=True)
        self._children.append(proc)
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            proc.kill()
            raise RuntimeError("the broadcast service's process did not log in to the local broker")
        return proc

    def _browsers(self, url: str) -> list[Any]:
        try:  # the browser is test code (tests/browser.py, Selenium from the test extra): a source checkout's
            from tests.browser import chromium
        except ImportError as exc:
            raise RuntimeError(f"the broadcast's page is measured in a browser, from a source checkout after "
                               f"`make setup` (tests/browser.py, Selenium): {exc}") from None

        drivers = []
        for k in range(self.browsers):
            d = chromium(str(self.out / f"chromium-{k}"))
            d.get(url + "/")
            if self.private is not None:
                d.find_element("css selector", "input[type=password]").send_keys(self.private)
                d.find_element("css selector", "button[type=submit]").click()
            drivers.append(d)
        return drivers

    def _shoot(self, drivers: list[Any]) -> None:
        if not drivers or not self.shots:
            return
        d = drivers[0]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:   # mid-play: once the page shows enough items
            if len(d.execute_script("return window.shown") or {}) >= self.shots_after:
                break
            time.sleep(0.05)
        shots: dict[int, Path] = {}
        for w in self.shots:
            d.set_window_size(w, 844 if w < 500 else (1000 if w < 1200 else 1080))
            time.sleep(0.4)
            path = self.out / f"spectate-{w}.png"
            d.save_screenshot(str(path))
            shots[w] = path
            self.result_extra.setdefault("scroll", {})[w] = d.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        self.result_extra["shots"] = shots

    def run(self, timeout: float = 600.0) -> LiveResult:
        t0 = time.monotonic()
        self.demo.run(timeout=timeout)
        journals = sorted((self.out / "tables").glob("*/journal.sqlite3"))
        return LiveResult(self.out, self.plays, self.releaser,
                          {k: v.arrivals for k, v in self.listeners.items()},
                          {k: v.refused for k, v in self.listeners.items()}, journals, time.monotonic() - t0,
                          self.result_extra.get("shown", []), self.result_extra.get("sse", []),
                          self.result_extra.get("cpu", 0.0), self.result_extra.get("shots", {}))
