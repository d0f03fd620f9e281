"""A simulated club: tables that replay recorded games through the real law engine, a real journal and a
real ``MqttPublisher``, at a chosen pace. Used by ``cardtable club demo`` and ``cardtable bench club``.

Each ``SimTable`` plays the example event logs (``tests/data/*.jsonl``) over and over, like a table
controller would: every event and ruling is appended to the journal first, then told to the observer with
its journal seq; a deal's cards stay secret until its play has ended (or the deal is void); irregularities
light lamps, which stay lit until the director acknowledges from the dashboard.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.table.observer import TableObserver
from laws.engine import LawEngine
from laws.events import event_from_dict, event_to_dict
from laws.rulings import IRREGULARITY_REMEDIES, Remedy

log = logging.getLogger(__name__)

SEATS = ("N", "E", "S", "W")
LAMP_FOR = {Remedy.REDEAL: "redeal", Remedy.MISDEAL: "redeal", Remedy.LOSE_DEAL: "redeal",
            Remedy.NEW_SHUFFLE_AND_CUT: "shuffle", Remedy.RESHUFFLE: "shuffle", Remedy.NEW_CUT: "shuffle",
            Remedy.CUT_AGAIN: "shuffle", Remedy.REPLACE_PACK: "replace_pack", Remedy.RESTORE_PACK: "replace_pack"}
LAMPS = ("redeal", "shuffle", "replace_pack", "shoe_offline", "camera_offline",
         "attention_N", "attention_E", "attention_S", "attention_W")
# The club's members: each simulated table seats its own (the example logs all seat Ann, Bob, Cy and Di).
MEMBERS = ("Alice", "Bruno", "Chandra", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kofi",
           "Lena", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sami", "Tove", "Ugo", "Vera",
           "Wen", "Ximena", "Yusuf", "Zofia", "Arjun", "Beatriz", "Callum", "Dagny", "Emeka", "Fleur")


def scenario_names(scenarios: list[list[dict[str, Any]]]) -> list[str]:
    """The players the example logs name (in their draws for partners), in order of first appearance."""
    out: list[str] = []
    for events in scenarios:
        for ev in events:
            for cut in ev.get("cuts") or () if ev.get("type") == "draw" else ():
                if isinstance(cut, list) and cut and isinstance(cut[0], str) and cut[0] not in out:
                    out.append(cut[0])
    return out


def recast(value: Any, names: dict[str, str]) -> Any:
    """``value`` with every string that is exactly one of ``names``' keys replaced by its value (in
    objects' keys too: a draw's ``seats`` maps names to seats)."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [recast(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): recast(v, names) for k, v in value.items()}
    return value


def default_scenarios() -> list[Path]:
    """The example event logs shipped with the project."""
    from firmware_host.resources import resource_dir

    try:
        return sorted(resource_dir("examples").glob("*.jsonl"))
    except FileNotFoundError:
        return []


def load_scenario(path: Path) -> list[dict[str, Any]]:
    """The events of one example log, as law-engine dicts (tool fields such as ``note`` dropped)."""
    import json

    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out.append(event_to_dict(event_from_dict(json.loads(line))))
    return out


class SimTable:
    """One simulated table.

    Args:
        table_id: the table's id.
        journal: its journal.
        observer: who hears about it (an ``MqttPublisher``).
        scenarios: event lists to replay in turn.
        clock: wall-clock seconds.
    """

    def __init__(self, table_id: str, journal: Journal, observer: TableObserver,
                 scenarios: list[list[dict[str, Any]]], clock: Callable[[], float] = time.time,
                 start: int = 0, seed: int | None = None) -> None:
        if not scenarios:
            raise ValueError("a simulated table needs at least one scenario")
        self._idle = 0
        if seed is not None:
            # A club's tables do not act in step, nor seat the same four: each table plays the logs in its
            # own order, starts after its own pause, and seats members of its own.
            rng = random.Random(seed)
            scenarios = list(scenarios)
            rng.shuffle(scenarios)
            cast = list(MEMBERS)
            rng.shuffle(cast)
            names = dict(zip(scenario_names(scenarios), cast))
            scenarios = [[recast(ev, names) for ev in events] for events in scenarios]
            self._idle = rng.randrange(0, 40)
        self.table = table_id
        self.name = table_id
        self.journal = journal
        self.observer = observer
        self.scenarios = scenarios
        self.clock = clock
        self.lamps = dict.fromkeys(LAMPS, False)
        self.deal = 0
        self.deal_open = False
        self.phase = "forming"
        self.dealer = ""
        self.game = ""
        self.counts = dict.fromkeys(SEATS, 0)
        self.last_ruling: dict[str, Any] | None = None
        self.packs: dict[str, list[int]] = {}  # pack -> [unreadable, damaged, deals]
        self.pack = ""
        self.seq = 0
        self._lock = threading.Lock()
        self._scenario = start % len(scenarios)
        self._pos = 0
        self._engine = LawEngine("contract-bridge")

    def acknowledge(self, kind: str, body: dict[str, Any]) -> None:
        """The director's acknowledgement: clear the lamps (wired to ``MqttPublisher.on_command``)."""
        if kind != "ack":
            return
        with self._lock:
            self.lamps = dict.fromkeys(LAMPS, False)
            self.seq = self.journal.append("lamp", {"lamps": dict(self.lamps), "by": body.get("by")}, self.clock())
            self._status()

    def step(self) -> None:
        """Play the next event."""
        with self._lock:
            if self._idle > 0:  # not started yet: the players are still sitting down
                self._idle -= 1
                return
            events = self.scenarios[self._scenario]
            if self._pos >= len(events):
                self._end_deal()
                self._scenario = (self._scenario + 1) % len(self.scenarios)
                self._pos = 0
                events = self.scenarios[self._scenario]
            ev = events[self._pos]
            self._pos += 1
            self._play(ev)

    def _play(self, ev: dict[str, Any]) -> None:
        etype = ev["type"]
        if etype == "game":
            self._engine = LawEngine(ev["game"])
            self.game = ev["game"]
        if etype == "deal_start":
            self._end_deal()
            self.deal += 1
            self.deal_open = True
            self.counts = dict.fromkeys(SEATS, 0)
            self.dealer = ev.get("dealer", "")
            self.pack = ev.get("pack", "")
            self.packs.setdefault(self.pack, [0, 0, 0])[2] += 1
        if etype == "card_dealt":
            self.counts[ev["seat"]] = self.counts.get(ev["seat"], 0) + 1
            if ev.get("card") is None:
                self.packs.setdefault(self.pack, [0, 0, 0])[0] += 1
        if etype == "damaged_card":
            self.packs.setdefault(ev.get("pack") or self.pack, [0, 0, 0])[1] += 1
        now = self.clock()
        self.seq = self.journal.append("event", ev, now)
        self.observer.event(ev, self.deal if self.deal_open else 0, self.seq)
        rulings = self._engine.feed(event_from_dict(ev))
        self.phase = str(self._engine.state.phase.value)
        for r in rulings:
            body = r.to_dict()
            self.seq = self.journal.append("ruling", body, self.clock())
            self.observer.ruling(body, self.deal if self.deal_open else 0, self.seq)
            self.last_ruling = body
            if r.remedy in IRREGULARITY_REMEDIES or r.remedy is Remedy.ATTENTION:
                lamp = LAMP_FOR.get(r.remedy) or (f"attention_{r.seat.value}" if r.seat else "redeal")
                self.lamps[lamp] = True
                self.journal.append("lamp", {"lamps": dict(self.lamps)}, self.clock())
            if r.remedy in (Remedy.REDEAL, Remedy.MISDEAL, Remedy.LOSE_DEAL):
                self._end_deal()  # a void deal: its cards are no longer secret
        if etype in ("play_end", "deal_end", "deal_start", "result") or rulings:
            if etype == "play_end":
                self._end_deal()
            self._status()

    def _end_deal(self) -> None:
        if self.deal_open:
            self.deal_open = False
            self.observer.deal_over(self.deal)
            if self.pack in self.packs:
                u, d, n = self.packs[self.pack]
                self.observer.pack_health(self.pack, u, d, n)

    def _score(self) -> dict[str, Any]:
        score = self._engine.state.game_state.get("score")
        return score.snapshot() if score is not None else {}

    def _status(self) -> None:
        self.observer.status({
            "table": self.table, "name": self.name, "game": self.game, "phase": self.phase, "deal": self.deal,
            "dealer": self.dealer, "next_dealer": "", "lamps": dict(self.lamps), "shoe_online": True,
            "camera_online": True, "counts": dict(self.counts), "score": self._score(), "ruling": self.last_ruling,
            "seq": self.seq, "t": self.clock()})


class SimClub:
    """N simulated tables, each with its own journal and publisher, stepped by one pacing thread.

    Args:
        tables: the ``SimTable``s.
        rate: events per second per table.
    """

    def __init__(self, tables: list[SimTable], rate: float) -> None:
        self.tables = tables
        self.rate = rate
        self.steps = 0
        self.late = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="simclub", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        period = 1.0 / self.rate
        order = list(self.tables)
        random.Random(7).shuffle(order)
        next_t = time.monotonic()
        while not self._stop.is_set():
            # Spread the tables over the period, as real tables would not all act at once.
            gap = period / max(1, len(order))
            for i, table in enumerate(order):
                due = next_t + i * gap
                delay = due - time.monotonic()
                if delay > 0 and self._stop.wait(delay):
                    return
                try:
                    table.step()
                    self.steps += 1
                except Exception:
                    log.exception("simulated table %s failed", table.table)
            next_t += period
            if time.monotonic() - next_t > period:
                self.late += 1
                next_t = time.monotonic()
