"""The soak's driver: a real ``cardtable run`` process, the virtual shoe it deals from, the people at the
table, and the faults.

The driver sees the table only as anyone outside could: it reads the journal (a second SQLite
connection, reads only) and keeps a replica law engine fed with the journaled events, to know when a
hand is over and what each player holds. It enters the play through ``cardtable run --events`` (a FIFO),
presses seat buttons on the shoe, and records what physically happened (``checker.Record``).

After a ``kill -9`` the driver starts the process again, as systemd would. The shoe's messages the dead
process never committed come again by the shoe protocol's own acknowledgements; the director's entries
it never journaled are entered again (a person at the table sees they did not register), from the first
one missing at the end of the journal — a hole in the middle is never mended, so the checker sees it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.shoe.simhw import Injection
from firmware_host.soak import faults as fx
from firmware_host.soak.checker import DealRecord, Record
from firmware_host.soak.player import bridge_hand, euchre_hand
from firmware_host.soak.rig import ROOT, JournalWatch, RunProcess, SoakShoe, all_rows, table_config, table_id
from firmware_host.soak.schedule import DRAW, NOISE_KINDS, SHOE_KINDS, Dealt, Fault, Schedule
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import event_from_dict
from laws.state import Phase

log = logging.getLogger(__name__)
RESTART_SEC = 0.5  # after an exit nobody asked for (the unit says 2 s; the soak does not wait that long)


@dataclass(frozen=True)
class Options:
    """How the evening runs."""

    pass_ms: int = 2             # how long a card blocks the shoe's exit
    gap_ms: int = 3              # pause between cards
    idle_timeout: float = 30.0   # no journal progress this long: the table is stuck, the game ends
    disk: bool = True            # try a tmpfs of its own for the data folder (full-disk faults)
    broker: bool = False         # a real Mosquitto, and a subscriber standing for the dashboard
    camera: bool = True          # the synthetic camera's picture as an HTTP stream (camera faults)
    rubbers: int = 0             # stop a game once this many rubbers are won (0: play every deal)


class GameRun:
    """One game's evening: ``run()`` plays the schedule and returns the driver's record."""

    def __init__(self, schedule: Schedule, workdir: Path, opts: Options = Options()) -> None:
        from firmware_host.shoe.games import deal_plan

        self.s = schedule
        self.opts = opts
        self.dir = workdir / ("bridge" if schedule.game == "contract-bridge" else "euchre")
        self.dir.mkdir(parents=True, exist_ok=True)
        self.data = self.dir / "data"
        plan = deal_plan(schedule.game)
        self.complete = plan.cards_dealt - plan.turn_up
        self.record = Record(schedule.game, self.complete)
        self.rng = random.Random(f"play:{schedule.game}:{schedule.seed}")
        self.replica = LawEngine(schedule.game)
        self.deal_index = 0
        self.director_seen = 0
        self.presses_seen = 0
        self.cards_seen = 0
        self.acted: set[int] = set()
        self.applied: dict[int, list[str]] = {}
        self.steps: deque[tuple[str, Any]] = deque()
        self.waiting: Any = None
        self.pending = sorted(schedule.faults, key=lambda f: (f.deal, f.delay))
        self.active: list[threading.Thread] = []
        self.stop = threading.Event()
        self.disk = fx.SmallDisk(self.data)
        self.disk_ok = False
        self.club: Any = None
        self.cam: Any = None
        self.ruling_seqs: set[int] = set()
        self.online: dict[str, bool] = {}  # devices as the journal last said
        self.rubbers = 0

    # -- the evening ------------------------------------------------------------------------------

    def run(self) -> Record:
        kinds = {f.kind for f in self.s.faults}
        if "disk_full" in kinds and self.opts.disk:
            why = self.disk.mount()
            self.disk_ok = why is None
            if why:
                self.record.notes.append(why)
        self.data.mkdir(parents=True, exist_ok=True)
        self.shoe = SoakShoe(self.s.game, self.s.seed, self.s.deals, pass_ms=self.opts.pass_ms,
                             gap_ms=self.opts.gap_ms, directory=str(self.dir))
        self._inject()
        fifo = self.dir / "director.fifo"
        with contextlib.suppress(FileNotFoundError):
            fifo.unlink()
        os.mkfifo(fifo)
        self.fifo = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # never blocks, and outlives every reader
        port = self.shoe.open()
        camera = "none"
        if self.opts.camera:
            from firmware_host.soak.camera import StreamCamera

            self.cam = StreamCamera()
            self.cam.start()
            self.cam_outage = fx.Outage(self.cam.stop, self.cam.start)
            camera = self.cam.url
        config = table_config(self.dir, self.data, port, self.s.game, camera)
        if self.opts.broker:
            from firmware_host.soak.club import Club

            self.club = Club(self.dir, table_id(self.s.game))
            self.club.start()
            self.broker_outage = fx.Outage(self.club.broker.stop, self.club.broker.start)
            config.write_text(config.read_text() + self.club.config())
        self.proc = RunProcess(config, fifo, self.dir)
        self.watch = JournalWatch(self.data / "journal.sqlite3")
        self.proc.start()
        # the players draw for the table first; then the dealer puts the first pack in the shoe
        self.steps += [("send", [{"type": "draw", "cuts": DRAW[self.s.game]}]), ("first_pack", None)]
        try:
            self._loop()
        finally:
            self._finish()
        return self.record

    def _loop(self) -> None:
        last = time.monotonic()
        while True:
            now = time.monotonic()
            rows = self.watch.new_rows()
            for row in rows:
                self._row(*row)
            if rows:
                last = now
            if not self.proc.alive():
                self._exited()
            self._faults(now)
            self._step()
            if self._done():
                return
            busy = any(t.is_alive() for t in self.active)
            if busy:
                last = now
            elif now - last > self.opts.idle_timeout:
                d = self.replica.state.deal
                self.record.notes.append(
                    f"stuck: no journal progress for {self.opts.idle_timeout:.0f} s at shoe deal "
                    f"{self.shoe.deals}/{self.s.deals}, phase {self.replica.state.phase.value}, "
                    f"deal {d.number if d else 0} ({d.cards_dealt if d else 0} cards), "
                    f"{len(self.steps)} steps left")
                return
            self.stop.wait(0.005)

    def _row(self, seq: int, kind: str, body: dict[str, Any]) -> None:
        if kind == "ruling":
            self.ruling_seqs.add(seq)
            if body.get("remedy") == "rubber_won":
                self.rubbers += 1
                if self.opts.rubbers and self.rubbers >= self.opts.rubbers:
                    self.shoe.last_deal = min(self.shoe.last_deal, self.shoe.deals)  # no more packs
        if kind == "note" and isinstance(body.get("device"), str) and "online" in body:
            self.online[body["device"]] = bool(body["online"])
        if kind != "event" or body.get("type") == "game":
            return
        typ, src = body.get("type"), body.get("src")
        if typ == "deal_start":
            self.deal_index += 1
        if src == "director":
            self.director_seen += 1
        if src == "button" and typ == "demand":
            self.presses_seen += 1
        if src == "shoe" and (typ in ("card_dealt", "trump_turned") or
                              typ == "damaged_card" and body.get("card") is None):
            self.cards_seen += 1
        try:
            self.replica.feed(event_from_dict(body))
        except ValueError:
            pass

    # -- the people ---------------------------------------------------------------------------------

    def _inject(self) -> None:
        top = self.complete
        for n, kind in self.s.mistakes.items():
            if kind in SHOE_KINDS:
                self.shoe.inject(Injection(kind, self.rng.randint(1, top)), deal=n)
        for f in self.s.faults:
            if f.kind in NOISE_KINDS:
                self.shoe.inject(Injection(f.kind, self.rng.randint(1, top)), deal=f.deal)

    def _plan(self) -> None:
        st = self.replica.state
        d = st.deal
        k = self.deal_index
        if d is None or d.void or not d.ended or st.phase != Phase.AUCTION or k in self.acted:
            return
        if self.s.game == "euchre" and d.trump_card is None:
            return
        self.acted.add(k)
        mistake = self.s.mistakes.get(k)
        seat = self.rng.choice(list(Seat))
        if mistake == "late_demand" and self.s.game == "contract-bridge":
            # In a bridge auction two presses of a seat's button are that seat's pass (docs/mqtt.md), so the
            # late demand for a new shuffle reaches the table as the director enters it for the player.
            self.steps.append(("mark", mistake))
            self.steps.append(("send", [{"type": "demand", "seat": seat.value, "what": "new_shuffle"}]))
        elif mistake in ("attention", "late_demand"):
            self.steps.append(("mark", mistake))
            self.steps.append(("press", (seat, 1 if mistake == "attention" else 2)))
        elif mistake == "miscount":
            other = self.rng.choice([s for s in Seat if s != seat])
            self.steps.append(("mark", mistake))
            self.steps.append(("send", [{"type": "hand_count", "seat": seat.value, "count": 14},
                                        {"type": "hand_count", "seat": other.value, "count": 12}]))
        extra = []
        if mistake == "wrong_count":
            self.steps.append(("mark", mistake))
            extra = [{"type": "hand_count", "seat": seat.value, "count": 4}]
        self.steps.append(("play", (d.number, extra)))

    def _step(self) -> None:
        if self.waiting is not None:
            if not self.waiting():
                return
            self.waiting = None
        if not self.steps:
            self._plan()
            return
        what, arg = self.steps.popleft()
        if what == "mark":
            self.applied.setdefault(self.deal_index, []).append(arg)
        elif what == "press":
            self.shoe.press(*arg)
            self.record.presses += 1
            want = self.record.presses
            self.waiting = lambda: self.presses_seen >= want
        elif what == "send":
            self._send(arg)
        elif what == "first_pack":
            self.shoe.load_pack(self.shoe.packs[0])
        elif what == "play":
            number, extra = arg
            d = self.replica.state.deal
            if d is None or d.void or d.number != number or self.replica.state.phase != Phase.AUCTION:
                return  # a mistake voided the hand (and the next deal may be under way already)
            if d.search is not None:  # a card missing: the search finds nothing, the director says so
                self._send([{"type": "missing_card", "card": d.search_card.code if d.search_card else None,
                             "seat": d.search.value, "found": None}])
                return
            hands = {s: list(cs) for s, cs in d.hands.items()}
            if self.s.game == "euchre" and d.trump_card is not None:
                self._send(euchre_hand(hands, d.dealer, d.trump_card, self.rng, extra))
            else:
                self._send(bridge_hand(hands, self.rng))

    def _send(self, events: list[dict[str, Any]]) -> None:
        self.record.director += events
        self._write(events)
        want = len(self.record.director)
        self.waiting = lambda: self.director_seen >= want

    def _write(self, events: list[dict[str, Any]]) -> None:
        data = "".join(json.dumps(e) + "\n" for e in events).encode()
        while data:
            try:
                n = os.write(self.fifo, data)
            except BlockingIOError:
                self.stop.wait(0.01)
                continue
            data = data[n:]

    # -- the faults ---------------------------------------------------------------------------------

    def _faults(self, now: float) -> None:
        started = list(self.shoe.started_at)
        while self.pending and self.pending[0].deal <= min(len(started), self.shoe.last_deal):
            f = self.pending[0]
            if now < started[f.deal - 1] + f.delay:
                return
            self.pending.pop(0)
            self._fault(f)

    def _fault(self, f: Fault) -> None:
        if f.kind in NOISE_KINDS:
            self.record.faults[f.kind] += 1  # already in the pack; counted when its deal is under way
        elif f.kind == "kill":
            self.record.faults["kill"] += 1
            self.proc.kill()
            self._restart()
        elif f.kind == "unplug":
            self.record.faults["unplug"] += 1
            self.shoe.down_ms = max(1, int(f.duration * 1000))
            self.shoe.drop()
        elif f.kind == "stall":
            self.record.faults["stall"] += 1
            self._thread(fx.hold_write_lock, self.data / "journal.sqlite3", f.duration, self.stop)
        elif f.kind == "camera":
            if self.cam is None:
                self.record.faults["camera (not run: no camera)"] += 1
                return
            self.record.faults["camera"] += 1
            self._thread(self.cam_outage, f.duration, self.stop)
        elif f.kind == "broker":
            if self.club is None:
                self.record.faults["broker (not run: no broker)"] += 1
                return
            self.record.faults["broker"] += 1
            self._thread(self.broker_outage, f.duration, self.stop)
        elif f.kind == "disk_full":
            if not self.disk_ok:
                self.record.faults["disk_full (not run)"] += 1
                return
            self.record.faults["disk_full"] += 1
            self._thread(self.disk.fill, f.duration, self.stop)

    def _thread(self, fn: Any, *args: Any) -> None:
        self.active = [t for t in self.active if t.is_alive()]

        def guarded() -> None:
            try:
                fn(*args)
            except Exception as exc:  # the soak's own failure: said in the report, never hidden
                self.record.notes.append(f"a fault could not be applied or undone: {exc!r}")

        t = threading.Thread(target=guarded, daemon=True)
        t.start()
        self.active.append(t)

    def _exited(self) -> None:
        """The process ended by itself: status 2 is a failure (systemd never restarts after it); any other
        status is one the unit restarts after, reported.
        The soak starts it again, after the unit's RestartSec, to see the rest of the evening."""
        rc = self.proc.proc.returncode if self.proc.proc is not None else None
        self.record.exits.append(int(rc) if rc is not None else -1)
        self.stop.wait(RESTART_SEC)
        self._restart()

    def _restart(self) -> None:
        """Start the table again, as systemd would; enter again what the dead process never journaled."""
        self._drain()
        for row in self.watch.new_rows():
            self._row(*row)
        self.proc.start()
        missing = self.record.director[self.director_seen:]
        if missing:
            self._write(missing)

    def _drain(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self.fifo, 65536):
                pass

    # -- the end ------------------------------------------------------------------------------------

    def _done(self) -> bool:
        st = self.replica.state
        last = self.shoe.last_deal  # the schedule's last deal, or the deal that won the last rubber
        return (self.shoe.deals >= last and not self.shoe.firmware.dealing and not self.steps
                and self.waiting is None and not [f for f in self.pending if f.deal <= last]
                and not any(t.is_alive() for t in self.active)
                and st.phase not in (Phase.DEALING, Phase.AUCTION, Phase.PLAY, Phase.SCORING)
                and self.cards_seen >= len(self.shoe.dealt) - len(self.shoe.strays)
                and all(self.online.values()))  # every device back that a fault took away

    def _finish(self) -> None:
        self.stop.set()
        for t in self.active:
            t.join(timeout=10)
        if self.club is not None:  # the table's outbox drains while it runs: give it the time to
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not self.ruling_seqs <= self.club.received():
                for row in self.watch.new_rows():
                    self._row(*row)
                time.sleep(0.05)
        rc = self.proc.stop()
        if rc not in (0, None):
            self.record.notes.append(f"cardtable run stopped with status {rc} on SIGTERM")
        self.watch.close()
        self.shoe.close()
        if self.cam is not None:
            self.cam.stop()
        if self.club is not None:
            self.record.dashboard = dict(self.club.seqs)
            self.club.close()
        os.close(self.fifo)
        where = self.proc.tracebacks()
        self.record.tracebacks = sum(where.values())
        if where:
            self.record.notes.append("tracebacks in the run logs, by the line of ours that raised: " +
                                     ", ".join(f"{w} x{n}" for w, n in where.most_common(5)))
        self.record.restarts = self.proc.starts - 1
        self.record.strays = len(self.shoe.strays)
        p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "journal", "verify", "--data-dir",
                            str(self.data)], capture_output=True, text=True, cwd=ROOT)
        self.record.verified = p.returncode == 0
        self.record.verify_message = (p.stdout + p.stderr).strip().splitlines()[-1:] and \
            (p.stdout + p.stderr).strip().splitlines()[-1] or f"exit {p.returncode}"
        db = self.data / "journal.sqlite3"
        if db.exists():
            self.record.rows = all_rows(db)
        if self.disk.mounted:  # keep the evidence: the journal leaves the small disk before it goes
            import shutil

            saved = self.dir / "data.saved"
            shutil.copytree(self.data, saved, ignore=shutil.ignore_patterns("filler.bin"))
            self.disk.unmount()
            shutil.rmtree(self.data, ignore_errors=True)
            saved.rename(self.data)
        for i, cards in enumerate(self.shoe.deal_cards(), start=1):
            dealt = [Dealt(c.card.code, c.pack, c.face_up, c.readable) for c in cards]
            mistake = self.s.mistakes.get(i)
            self.record.deals.append(DealRecord(
                i, dealt[:self.complete], dealt[self.complete] if len(dealt) > self.complete else None,
                self.applied.get(i, []), mistake if mistake in SHOE_KINDS else None,
                self.shoe.sizes[i - 1] if i <= len(self.shoe.sizes) else None))


def evening(*, deals: int, faults: int, seed: int, games: tuple[str, ...], workdir: Path,
            mistake_rate: float = 0.3, fault_kinds: tuple[str, ...] | None = None,
            opts: Options = Options()) -> list[Any]:
    """Play ``deals`` shoe deals with ``faults`` faults, shared among ``games`` (one after the other);
    returns each game's ``checker.Findings``."""
    from firmware_host.soak.checker import check
    from firmware_host.soak.schedule import FAULT_KINDS, make_schedule

    kinds = tuple(k for k in (fault_kinds or FAULT_KINDS) if k != "broker" or opts.broker)
    out = []
    for i, game in enumerate(games):
        share = deals // len(games) + (i < deals % len(games))
        f_share = faults // len(games) + (i < faults % len(games))
        schedule = make_schedule(game, max(1, share), seed, mistake_rate=mistake_rate, faults=f_share,
                                 fault_kinds=kinds)
        record = GameRun(schedule, workdir, opts).run()
        out.append(check(record, record.rows))
    return out
