"""The world failing around the table during a soak, and the table's process coming back: the part of
``driver.GameRun`` that applies the schedule's faults (``schedule.FAULT_KINDS``) and restarts the process
after a kill or an exit, as systemd would.

A fault is due ``delay`` seconds after its deal starts, or at once when the next deal starts first: none
is applied after the deals are over (the schedule puts none in the last deal), and the driver judges only
once every fault has run its course and the world is back (``faults.Physical``). Faults due in deals the
evening never reached (``--rubbers``) are counted as not run.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from firmware_host.shoe.simhw import Injection
from firmware_host.soak import faults as fx
from firmware_host.soak.schedule import BAD_LINES, NOISE_KINDS, SHOE_KINDS, Fault

log = logging.getLogger(__name__)
RESTART_SEC = 0.5  # after an exit nobody asked for (the unit says 2 s; the soak does not wait that long)
# A choice the table must refuse: no claim of the soak's is ever open when it arrives.
REFUSED_CHOICE = {"seat": "N", "what": "call_card", "clause": "EU-46", "card": "AS"}


class World:
    """Faults and restarts, for ``driver.GameRun`` (which provides ``s``, ``record``, ``shoe``, ``proc``,
    ``club``, ``cam``, ``watch``, ``fifo``, ``stop``, ``data``, ``rng``, the row and entry counters, and
    ``_row``, its handler of each new journal row)."""

    s: Any
    opts: Any
    record: Any
    shoe: Any
    proc: Any
    club: Any
    cam: Any
    watch: Any
    fifo: int
    stop: threading.Event
    data: Any
    rng: Any
    complete: int
    _row: Callable[[int, str, dict[str, Any]], None]
    director_seen: int
    bad_seen: int
    by_command: set[int]
    ruling_seqs: set[int]

    def _world_init(self) -> None:
        self.pending: list[Fault] = sorted(self.s.faults, key=lambda f: (f.deal, f.delay))
        self.active: list[threading.Thread] = []
        self.locking: list[tuple[Fault, float]] = []   # locks due while another is held: one at a time
        self.physical = fx.Physical()
        self.disk = fx.SmallDisk(self.data)
        self.disk_ok = False
        self.broker_down = False
        self._bad_next = 0
        self.lock_lines: list[str] = []  # a line to enter once a lock is taken (so a commit meets it)
        self.not_injected: set[int] = set()  # deals whose shoe mistake the soak could not run

    def _inject(self) -> None:
        top = self.complete
        for n, kind in self.s.mistakes.items():
            if kind == "unreadable" and not self.opts.broker:
                # replace_pack: the table deals nothing more until the director acknowledges, and only the
                # dashboard (the broker) lets the soak's director do that
                self.record.faults["unreadable (not run: no broker to acknowledge the new pack)"] += 1
                self.not_injected.add(n)
                continue
            if kind in SHOE_KINDS:
                self.shoe.inject(Injection(kind, self.rng.randint(1, top)), deal=n)
        for f in self.s.faults:
            if f.kind in NOISE_KINDS:
                self.shoe.inject(Injection(f.kind, self.rng.randint(1, top)), deal=f.deal)

    def _faults(self, now: float) -> None:
        started = list(self.shoe.started_at)
        while self.pending and self.pending[0].deal <= min(len(started), self.shoe.last_deal):
            f = self.pending[0]
            if now < started[f.deal - 1] + f.delay and len(started) <= f.deal:
                return
            self.pending.pop(0)
            self._fault(f)
        if self.locking and not self._lock_held():
            f, _ = self.locking.pop(0)
            self._lock(f)
        while self.lock_lines:  # written by the driver's own thread, never halfway through another line
            line = self.lock_lines.pop(0)
            self.record.bad_lines.append(line)
            self._write_lines([line])

    def _not_reached(self) -> None:
        """Count the faults due in deals the evening never started."""
        for f in self.pending:
            self.record.faults[f"{f.kind} (not run: the evening ended before deal {f.deal})"] += 1
        self.pending = []

    def _busy(self) -> bool:
        self.active = [t for t in self.active if t.is_alive()]
        return bool(self.active or self.locking or self.lock_lines)

    def _fault(self, f: Fault) -> None:
        if f.kind in NOISE_KINDS:
            self.record.faults[f.kind] += 1  # already in the pack; counted when its deal is under way
        elif f.kind == "kill":
            self.record.faults["kill"] += 1
            self.record.kill_times.append(round(time.time(), 3))
            self.proc.kill()
            self._restart()
        elif f.kind == "unplug":
            self.record.faults["unplug"] += 1
            self.shoe.down_ms = max(1, int(f.duration * 1000))
            self.shoe.drop()
            self.physical.back(time.monotonic() + f.duration)
        elif f.kind == "stall":
            self.record.faults["stall"] += 1
            self._thread(fx.hold_write_lock, self.data / "journal.sqlite3", f.duration, self.stop, self.physical)
        elif f.kind == "lock":
            if self._lock_held():
                self.locking.append((f, time.monotonic()))
            else:
                self._lock(f)
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
        elif f.kind == "command":
            self._command_fault()
        elif f.kind == "bad_line":
            self.record.faults["bad_line"] += 1
            line = BAD_LINES[self._bad_next % len(BAD_LINES)]
            self._bad_next += 1
            self.record.bad_lines.append(line)
            self._write_lines([line])

    def _lock_held(self) -> bool:
        return any(getattr(t, "kind", "") == "lock" and t.is_alive() for t in self.active)

    def _lock(self, f: Fault) -> None:
        self.record.faults["lock"] += 1
        self.record.locks += 1
        windows = self.record.lock_windows

        def hold() -> None:
            start = time.time()

            def taken() -> None:  # the director enters a line now: the table has something to commit
                nonlocal start
                start = time.time()
                self.lock_lines.append(BAD_LINES[0])

            mark = self.proc.log_mark()

            def failed() -> bool:  # the table said its commit failed (so the lock was not waited out)
                return self.proc.logged_since(mark, "journal cannot be written")

            try:
                fx.hold_write_lock(self.data / "journal.sqlite3", f.duration, self.stop, self.physical, taken,
                                   failed)
            finally:
                windows.append((round(start, 3), round(time.time(), 3)))

        self._thread(hold, kind="lock")

    def _command_fault(self) -> None:
        """The director's dashboard sends a command: an acknowledgement of the latest ruling, or a choice
        no open claim allows (the table must refuse it with a note and rule nothing)."""
        if self.club is None:
            self.record.faults["command (not run: no broker)"] += 1
            return
        self.record.faults["command"] += 1
        if self.rng.random() < 0.5:
            seq = max(self.ruling_seqs, default=0)
            cid = self.club.command("ack", {"seq": seq})
            self.record.commands.append({"kind": "ack", "id": cid, "expect": "ack"})
        else:
            cid = self.club.command("choose", dict(REFUSED_CHOICE))
            self.record.commands.append({"kind": "choose", "id": cid, "expect": "refused"})

    def _thread(self, fn: Any, *args: Any, kind: str = "") -> None:
        self.active = [t for t in self.active if t.is_alive()]

        def guarded() -> None:
            try:
                fn(*args)
            except Exception as exc:  # the soak's own failure: said in the report, never hidden
                self.record.notes.append(f"soak: a fault could not be applied or undone: {exc!r}")

        t = threading.Thread(target=guarded, daemon=True)
        t.kind = kind  # type: ignore[attr-defined]
        t.start()
        self.active.append(t)

    # -- the process --------------------------------------------------------------------------------

    def _exited(self) -> None:
        """The process ended by itself: an exit nobody asked for (the checker fails the evening on it).
        The soak starts it again, after the unit's RestartSec, to see the rest of the evening."""
        rc = self.proc.proc.returncode if self.proc.proc is not None else None
        self.record.exits.append(int(rc) if rc is not None else -1)
        self.stop.wait(RESTART_SEC)
        self._restart()

    def _restart(self) -> None:
        """Start the table again, as systemd would; enter again what the dead process never journaled:
        the director's entries from the first one missing (those sent as dashboard commands are the
        broker's to deliver again: its session for the table outlives the process) and the malformed lines
        whose note is missing."""
        self._drain()
        for row in self.watch.new_rows():
            self._row(*row)
        self.proc.start()
        bad = self.record.bad_lines[self.bad_seen:]
        missing = [e for i, e in enumerate(self.record.director) if i >= self.director_seen and i not in self.by_command]
        if bad or missing:
            self._write_lines(bad + [_json(e) for e in missing])

    def _drain(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self.fifo, 65536):
                pass

    def _write_lines(self, lines: list[str]) -> None:
        data = "".join(line + "\n" for line in lines).encode()
        while data:
            try:
                n = os.write(self.fifo, data)
            except BlockingIOError:
                self.stop.wait(0.01)
                continue
            data = data[n:]


def _json(event: dict[str, Any]) -> str:
    import json

    return json.dumps(event)
