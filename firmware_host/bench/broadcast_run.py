"""A real session broadcast live, with listeners: what the broadcast's tests and benchmark run.

``cardtable duplicate demo``'s session (a local Mosquitto, the session service, a real duplicate table
for each table of the movement) with, on the same broker before any table starts: the broadcast service
(``broadcast.service``, login ``broadcast``), optionally the spectators' page (``broadcast.page``, login
``spectator``) with server-sent-event readers and headless Chromium on it, and listeners that subscribe
to ``#`` under other logins (a spectator's, a table's) and record everything that reaches them, and
when. :func:`firmware_host.broadcast.audit.judge` says what of it was early or wrong.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.broadcast.audit import Arrival
from firmware_host.broadcast.live import Releaser, plays_of
from firmware_host.broadcast.page import SpectatorPage, serve
from firmware_host.broadcast.service import BroadcastService
from firmware_host.club.broker import LocalBroker, free_port
from firmware_host.duplicate.spec import build_movement
from firmware_host.evening.boards import BoardRoom
from firmware_host.evening.demo import DuplicateDemo, TableFactory
from firmware_host.evening.people import People
from firmware_host.evening.table import ClubLink, DemoTable, TablePlace
from firmware_host.wire.topics import BROADCAST_USER, SPECTATOR_USER
from laws.broadcast.release import Release

log = logging.getLogger(__name__)

ATTACK_TABLE = "table-99"   # a table login of the club that sits at no table of the movement


class Listener:
    """A broker login subscribed to ``#`` (QoS 1), keeping every message with its arrival time."""

    def __init__(self, port: int, user: str | None, password: str | None, client_id: str) -> None:
        import paho.mqtt.client as mqtt

        self.arrivals: list[Arrival] = []
        self.refused = ""
        self.connected = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self.arrivals.append(Arrival(time.time(), m.topic, bytes(m.payload)))
        self.client.connect_async("127.0.0.1", port)
        self.client.loop_start()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            self.refused = str(reason_code)
            self.connected.set()
            return
        client.subscribe("#", qos=1)
        self.connected.set()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


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


async def _sse_readers(url: str, count: int, stop: threading.Event, counts: list[int]) -> None:
    import httpx

    async def one(k: int) -> None:
        async with httpx.AsyncClient(timeout=None) as client:
            async with client.stream("GET", url) as response:
                async for line in response.aiter_lines():
                    if line.startswith("data:"):
                        counts[k] += 1
                    if stop.is_set():
                        return

    tasks = [asyncio.create_task(one(k)) for k in range(count)]
    while not stop.is_set():
        await asyncio.sleep(0.1)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


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
    """

    def __init__(self, out: Path, release: Release, *, tables: int = 3, boards: int = 3, movement: str = "mitchell",
                 rounds: int | None = None, other_room: dict[int, int] | None = None, rooms: dict[int, str] | None = None,
                 page: bool = False, browsers: int = 0, sse: int = 0, shots: tuple[int, ...] = (),
                 shots_after: int = 40, seed: int = 3, private: str | None = None, pace: float = 0.0) -> None:
        self.out = out
        self.release = release
        self.demo = DuplicateDemo(out, tables, boards, movement, seed=seed, analyse=False,
                                  extra_users={BROADCAST_USER: secrets.token_urlsafe(9),
                                               SPECTATOR_USER: secrets.token_urlsafe(9),
                                               ATTACK_TABLE: secrets.token_urlsafe(9)},
                                  on_broker=self._on_broker, table_factory=paced_tables(pace) if pace else None)
        if rounds is not None:
            self.demo.spec = {**self.demo.spec, "rounds": rounds}
            self.demo.movement = build_movement(self.demo.spec)
        self.plays = plays_of(self.demo.movement)
        self.other_room = dict(other_room or {})
        self.rooms = dict(rooms or {})
        self.page = page or browsers > 0 or sse > 0
        self.browsers, self.sse, self.shots, self.shots_after = browsers, sse, shots, shots_after
        self.private = private
        names = {str(p): (f"North-East {p}", f"South-West {p}") for p in self.demo.movement.pairs()}
        self.names = names
        self.releaser = Releaser(release, {f"table-{n:02d}": n for n in range(1, self.demo.movement.tables + 1)},
                                 self.plays, rooms=self.rooms, other_room=self.other_room, names=names,
                                 lin_dir=out / "lin", title="Club pairs, live")
        self.listeners: dict[str, Listener] = {}
        self.result_extra: dict[str, Any] = {}

    def _on_broker(self, broker: LocalBroker, passwords: dict[str, str]) -> Callable[[], None]:
        port = broker.port
        self.listeners = {
            "spectator": Listener(port, SPECTATOR_USER, passwords[SPECTATOR_USER], "attack-spectator"),
            "table": Listener(port, ATTACK_TABLE, passwords[ATTACK_TABLE], ATTACK_TABLE),
            "anonymous": Listener(port, None, None, "attack-anonymous"),
            "wrong-password": Listener(port, BROADCAST_USER, "not-the-password", "attack-guess"),
        }
        for lst in self.listeners.values():
            lst.connected.wait(10)
        service = BroadcastService(self.releaser, "127.0.0.1", port, passwords[BROADCAST_USER])
        service.start()
        if not service.connected.wait(15):
            raise RuntimeError("the broadcast service could not log in to the local broker")
        threads = [t for t in (service._thread, getattr(service.client, "_thread", None)) if t is not None]
        stops: list[Callable[[], None]] = []
        shown: list[dict[str, float]] = []
        counts = [0] * self.sse
        if self.page:
            page = SpectatorPage("127.0.0.1", port, passwords[SPECTATOR_USER], title="Club pairs, live",
                                 password=self.private)
            http = free_port()
            server = serve(page, "127.0.0.1", http)
            th = threading.Thread(target=server.run, name="spectator-page", daemon=True)
            th.start()
            while not server.started and th.is_alive():
                time.sleep(0.02)
            page.connected.wait(10)
            threads += [th, *[t for t in (getattr(page.client, "_thread", None),) if t is not None]]
            url = f"http://127.0.0.1:{http}"
            self.result_extra["url"] = url
            self.result_extra["page"] = page
            stop_sse = threading.Event()
            sse_thread = None
            if self.sse:
                sse_thread = threading.Thread(target=lambda: asyncio.run(_sse_readers(url + "/events", self.sse,
                                                                                  stop_sse, counts)),
                                              name="sse-readers", daemon=True)
                sse_thread.start()
            drivers = self._browsers(url)
            shooter = threading.Thread(target=self._shoot, args=(drivers,), name="shots", daemon=True)
            shooter.start()

            def stop_page() -> None:
                shooter.join(60)
                for d in drivers:
                    shown.append(dict(d.execute_script("return window.shown") or {}))
                    d.quit()
                stop_sse.set()
                if sse_thread is not None:
                    sse_thread.join(10)
                server.should_exit = True
                th.join(10)
            stops.append(stop_page)
        cpu0 = _thread_cpu(threads)

        def stop() -> None:
            time.sleep(max(1.0, self.release.delay + 0.5))   # what is still held by time goes out
            self.result_extra["cpu"] = _thread_cpu(threads) - cpu0
            for s in stops:
                s()
            service.stop()
            for lst in self.listeners.values():
                lst.close()
            self.result_extra["shown"] = shown
            self.result_extra["sse"] = counts
        return stop

    def _browsers(self, url: str) -> list[Any]:
        from firmware_host.club.browser import chromium

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
