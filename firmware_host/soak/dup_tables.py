"""The duplicate soak's tables: real ``cardtable run`` processes of the game ``duplicate-bridge``, each
playing the round's boards from its configuration, half of them with physical boards and half with the
table's shoe dealing every board from its record (the virtual shoe), while the soak plays the people and
the director, misboards some boards and fails the world around the tables.

The people: the dealer opens (a contract drawn from ``CONTRACTS``) and the others pass, then each player
in turn plays a legal card from the hand he holds: the record's, or the misboarded copy's
(``dup_schedule.held``). Every entry goes through the table's ``--events`` FIFO, one at a time, and the
next waits until the journal has it, so a replica law engine fed with the journal knows the table's
state. The director answers a ``DB-87`` ruling with ``foul_ruled`` ``fouled`` (play on; scored apart); at
the end of a board one player of each side confirms the result. A board the shoe left short (a card
missing from its pack) gets its card back in the well: the table finishes it.

The faults: kill -9 of a table between two entries (started again, as systemd would; entries it never
journaled are entered again, from the first missing), the shoe's cable pulled while it deals (shoe
tables), the journal's write lock held by another process for a few seconds.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.duplicate.handrecords.handfiles import write_hand_records
from firmware_host.soak import faults as fx
from firmware_host.soak.dup_check import PlayedBoard
from firmware_host.soak.dup_schedule import CONTRACTS, DupSchedule, TablePlan, held
from firmware_host.soak.rig import JournalWatch, RunProcess, all_rows
from laws.engine import LawEngine
from laws.events import event_from_dict
from laws.games.duplicate_board import board_of
from laws.state import Phase

log = logging.getLogger(__name__)
RESTART_SEC = 0.5


def _config(folder: Path, plan: TablePlan, records: Path, shoe_port: str | None,
            mqtt: tuple[str, int, str, Path] | None = None) -> Path:
    """The table's configuration: alone (its round and boards from the plan), or with ``mqtt`` (host, port,
    its id, its password file) in the club's session."""
    boards = ", ".join(str(n) for n in plan.boards)
    tid = mqtt[2] if mqtt else f"dup-{plan.table}"
    club = "" if mqtt is None else f"""
[mqtt]
host = "{mqtt[0]}"
port = {mqtt[1]}
username = "{mqtt[2]}"
password_file = "{mqtt[3]}"
"""
    text = f"""[table]
id = "{tid}"
name = "Duplicate table {plan.table}"
game = "duplicate-bridge"
data_dir = "{folder / 'data'}"

[shoe]
driver = "{'shoe' if shoe_port else 'none'}"
port = "{shoe_port or '/dev/null'}"

[camera]
source = "none"

[pins]
factory = "mock"

[duplicate]
records = "{records}"
deal = "{'shoe' if plan.how == 'shoe' else 'boards'}"
section = "A"
table = {plan.table}
round = {plan.round}
ns = "{plan.ns}"
ew = "{plan.ew}"
boards = "{boards}"
session = {'true' if mqtt else 'false'}
""" + club
    path = folder / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


@dataclass
class TableRun:
    """One table of the evening."""

    plan: TablePlan
    folder: Path
    schedule: DupSchedule
    rng: random.Random
    played: list[PlayedBoard] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)
    faults: dict[str, int] = field(default_factory=dict)
    restarts: int = 0
    mqtt: tuple[str, int, str, Path] | None = None     # in a club session: host, port, its id, password file
    hooks: dict[str, Any] = field(default_factory=dict)  # faults of the world the table does not own ("broker")
    # made by ``start``, each as it goes; None until then (a start cut short by a SIGTERM is closed all the same)
    shoe: Any = field(default=None, init=False, repr=False)
    fifo: int | None = field(default=None, init=False, repr=False)
    proc: RunProcess | None = field(default=None, init=False, repr=False)
    watch: JournalWatch | None = field(default=None, init=False, repr=False)

    def start(self, records_file: Path) -> None:
        from firmware_host.shoe.virtual import VirtualShoe

        self.noise_deals: list[int] = []          # the shoe's deals with line noise and a jam in them
        self.folder.mkdir(parents=True, exist_ok=True)
        self.shoe = None
        port = None
        if self.plan.how == "shoe":
            self.shoe = VirtualShoe("contract-bridge", self.rng.randint(0, 10**6), directory=str(self.folder),
                                    pass_ms=2, gap_ms=3, down_ms=400)
            for deal_no in self.schedule.short.get(self.plan.table, ()):
                self.shoe.inject(f"missing@{self.rng.randint(1, 52)}", deal=deal_no)
            for deal_no, kind in self.schedule.faults.get(self.plan.table, {}).items():
                if kind == "noise":                  # garbage on the line and a card that jams, in that deal
                    for what in ("garbage", "jam"):
                        self.shoe.inject(f"{what}@{self.rng.randint(1, 52)}", deal=deal_no)
                    self.noise_deals.append(deal_no)
            port = self.shoe.open()
        fifo = self.folder / "director.fifo"
        if fifo.exists():
            fifo.unlink()
        os.mkfifo(fifo)
        self.fifo = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        self.proc = RunProcess(_config(self.folder, self.plan, records_file, port, self.mqtt), fifo, self.folder)
        self.watch = JournalWatch(self.folder / "data" / "journal.sqlite3")
        self.replica = LawEngine("duplicate-bridge")
        self.director_seen = 0
        self.waiting_for = 0
        self.current: PlayedBoard | None = None
        self.fault_plan = {n: k for n, k in self.schedule.faults.get(self.plan.table, {}).items() if k != "noise"}
        self.proc.start()

    # -- the journal, read as anyone outside could ---------------------------------------------------

    def _read(self) -> None:
        for _seq, kind, body in self.watch.new_rows():
            if kind != "event":
                continue
            if body.get("src") == "director":
                self.director_seen += 1
            if body.get("type") == "game":
                continue
            try:
                self.replica.feed(event_from_dict(body))
            except ValueError:
                pass                               # the table refused it too (a note): nothing changes

    def _write(self, items: list[dict[str, Any]]) -> None:
        data = "".join(json.dumps(e) + "\n" for e in items).encode()
        while data:
            try:
                n = os.write(self.fifo, data)
            except BlockingIOError:
                time.sleep(0.01)
                continue
            data = data[n:]

    def _enter(self, event: dict[str, Any]) -> None:
        self.entries.append(event)
        self.waiting_for = len(self.entries)
        self._write([event])

    # -- the people --------------------------------------------------------------------------------

    def done(self) -> bool:
        b = board_of(self.replica.state)
        return b is not None and b.done and b.number == self.plan.boards[-1] and not self.waiting()

    def waiting(self) -> bool:
        return self.director_seen < self.waiting_for

    def step(self) -> None:
        self._read()
        while self.noise_deals and self.shoe is not None and self.shoe.deals >= self.noise_deals[0]:
            self.noise_deals.pop(0)
            self.faults["noise"] = self.faults.get("noise", 0) + 1
        if not self.proc.alive():
            code = self.proc.proc.returncode if self.proc.proc is not None else None
            if code == 2:                                  # a configuration the table refuses: no point
                raise RuntimeError(f"table {self.plan.table}: cardtable run exits 2; see {self.folder}/run-*.log")
            self._restart()
            return
        if self.waiting():
            return
        state = self.replica.state
        b = board_of(state)
        if b is None:
            return
        if self.current is None or (self.current.record.number, self.current.round) != (b.number, b.round):
            self._new_board(b.number, b.round or self.plan.round)
        p = self.current
        assert p is not None
        if b.done:
            p.confirmed = True
            return
        self._world(p, state)
        if b.result is not None:
            side = "ns" if "ns" not in b.confirmed else "ew"
            seat = self.rng.choice(("N", "S") if side == "ns" else ("E", "W"))
            p.confirms += 1
            self._enter({"type": "confirm", "seat": seat})
            return
        if b.played is not None and b.played.foul is not None and b.decision is None:
            self._enter({"type": "foul_ruled", "decision": "fouled"})
            return
        d = state.deal
        h = d.bridge if d is not None and not d.void and d.number == b.deal else None
        if state.phase is Phase.DEALING and b.short and self.shoe is not None and p.short_back < len(b.short):
            self._put_back(b.short)
            p.short_back = len(b.short)
            return
        if h is None:
            return
        if h.play is None and not h.auction.closed:
            self._call(p, h.auction)
        elif h.play is not None and h.play.turn is not None:
            self._card(p, h.play)

    def _new_board(self, number: int, rnd: int) -> None:
        record = self.schedule.records[number]
        kind = self.schedule.misboard.get((self.plan.table, number))
        self.current = PlayedBoard(self.plan.table, rnd, record,
                                   held(self.schedule, record, kind, self.rng), kind, self.plan.how)
        self.played.append(self.current)

    def _call(self, p: PlayedBoard, auction: Any) -> None:
        if p.contract is None:               # a misboarded board is played (passed out, it would show nothing)
            p.contract = self.rng.choice([c for c in CONTRACTS if c != "Pass" or p.misboard is None])
            p.declarer = p.record.dealer.value if p.contract != "Pass" else None
        seat = auction.turn
        first = not auction.calls
        call = p.contract if first and p.contract != "Pass" else "pass"
        self._enter({"type": "call", "seat": seat.value, "call": call})

    def _card(self, p: PlayedBoard, play: Any) -> None:
        seat = play.turn
        left = [c for c in p.held.hand(seat) if c not in play.played_by]
        led = play.current.suit_led
        options = [c for c in left if c.suit == led] or left
        card = self.rng.choice(sorted(options))
        p.play.append((seat.value, card.code))
        self._enter({"type": "card_played", "seat": seat.value, "card": card.code})

    def _put_back(self, missing: tuple[Any, ...]) -> None:
        """The missing card is found: into the shoe's well (the table finishes the board)."""
        from firmware_host.shoe.simhw import PhysCard

        assert self.shoe is not None
        self.faults["short"] = self.faults.get("short", 0) + 1
        with contextlib.suppress(RuntimeError):
            self.shoe.put([PhysCard(c, self.shoe.packs[0]) for c in missing])

    # -- the world ---------------------------------------------------------------------------------

    def _world(self, p: PlayedBoard, state: Any) -> None:
        kind = self.fault_plan.get(p.record.number)
        if kind is None:
            return
        if kind == "broker":
            if len(p.play) < self.schedule.fault_card:
                return
            if "broker" in self.hooks:
                self.hooks["broker"]()
            else:
                kind = "broker (not run: no broker)"
        elif kind == "unplug" and self.shoe is not None:
            if state.phase is not Phase.DEALING:
                return
            self.shoe.drop()
        elif len(p.play) < self.schedule.fault_card:
            return
        elif kind == "kill":
            self._drain()
            self.proc.kill()
            self.restarts += 1
            self._restart()
        elif kind == "stall":
            import threading

            threading.Thread(target=fx.hold_write_lock, args=(self.watch.db, 2.0, threading.Event()),
                             daemon=True).start()
        self.fault_plan.pop(p.record.number)
        self.faults[kind] = self.faults.get(kind, 0) + 1

    def _drain(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self.fifo, 65536):
                pass

    def _restart(self) -> None:
        time.sleep(RESTART_SEC)
        self._read()
        self.proc.start()
        missing = self.entries[self.director_seen:]
        if missing:
            self._write(missing)

    def close(self) -> list[tuple[int, str, dict[str, Any]]]:
        """Stop the table's process (whatever else fails on the way) and read its journal; a table whose
        ``start`` was cut short (a SIGTERM) has what it made closed."""
        try:
            if self.proc is not None:
                self.proc.stop()
        finally:
            if self.watch is not None:
                self.watch.close()
            if self.fifo is not None:
                with contextlib.suppress(OSError):
                    os.close(self.fifo)
            if self.shoe is not None:
                self.shoe.close()
                for p in self.played:          # the physical truth: which boards the shoe dealt short
                    p.short_pack = p.record.number in self.shoe.short_boards
        db = self.folder / "data" / "journal.sqlite3"
        return all_rows(db) if db.exists() else []


def close_all(tables: list[TableRun]) -> dict[int, list[tuple[int, str, dict[str, Any]]]]:
    """Every table stopped, even when one of them fails to: their journals' rows."""
    out: dict[int, list[tuple[int, str, dict[str, Any]]]] = {}
    for t in tables:
        try:
            out[t.plan.table] = t.close()
        except Exception:                          # noqa: BLE001 - the next one is still stopped
            log.exception("table %d did not close cleanly", t.plan.table)
            out[t.plan.table] = []
    return out


def run_tables(schedule: DupSchedule, workdir: Path, seed: int, timeout: float = 600.0) -> dict[str, Any]:
    """The round at every table; returns what was played and each table's journal rows."""
    workdir.mkdir(parents=True, exist_ok=True)
    records_file = workdir / "records.pbn"
    write_hand_records(records_file, list(schedule.records.values()), overwrite=True)
    tables = [TableRun(plan, workdir / f"table-{plan.table}", schedule, random.Random(f"{seed}:{plan.table}"))
              for plan in schedule.tables]
    try:  # started inside: a SIGTERM while the tables start still stops those started (``close_all``)
        for t in tables:
            t.start(records_file)
        end = time.monotonic() + timeout
        while time.monotonic() < end and not all(t.done() for t in tables):
            for t in tables:
                if not t.done():
                    t.step()
            time.sleep(0.005)
    finally:
        journals = close_all(tables)
    faults: dict[str, int] = {}
    for t in tables:
        for k, v in t.faults.items():
            faults[k] = faults.get(k, 0) + v
    return {"played": [p for t in tables for p in t.played], "journals": journals, "faults": faults,
            "finished": all(t.done() for t in tables), "restarts": sum(t.restarts for t in tables),
            "tracebacks": sum(sum(t.proc.tracebacks().values()) for t in tables)}

