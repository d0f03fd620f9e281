"""The soak's rig: the pieces the driver works with, each at the same interface as at a real table.

* ``SoakShoe``: the virtual shoe, noting where each deal's cards begin (the physical record).
* ``RunProcess``: ``cardtable run`` as a process of its own (killed, restarted, stopped).
* ``JournalWatch``: the journal's new rows, read on a connection of the driver's own.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from firmware_host.shoe.virtual import VirtualShoe

ROOT = Path(__file__).resolve().parents[2]
SEAT_NAMES = {0: "N", 1: "E", 2: "S", 3: "W"}  # the shoe protocol's seat codes (PROTOCOL.md)


class SoakShoe(VirtualShoe):
    """The virtual shoe, noting where each deal's cards begin, that loads no pack after the last deal."""

    def __init__(self, game: str, seed: int, last_deal: int, **kw: Any) -> None:
        self.hold = True  # no pack until the table is formed (``load_pack`` puts the first one in)
        super().__init__(game, seed, **kw)
        from firmware_host.shoe.firmware import load_firmware

        self._shoe_mod, _ = load_firmware()
        self.last_deal = last_deal
        self.starts: list[int] = []
        self.started_at: list[float] = []
        self.sizes: list[int] = []
        self.strays: set[int] = set()
        self.plans: list[tuple[int, tuple[int, ...], int]] = []  # each deal's dealer code, packets, turn-up

    def _cycle(self) -> None:
        before, dealt, out = self.deals, self.firmware.dealt, len(self.hw.left)
        super()._cycle()
        if len(self.hw.left) > out and self.deals == before and self.firmware.dealt == dealt:
            self.strays.add(out)  # left while no deal was running (after an abort): sent without a seat
        if self.deals != before:
            fw = self.firmware
            self.plans.append((int(fw.dealer), tuple(fw.pattern), int(fw.turn_up)))
            self.starts.append(len(self.hw.left))
            self.sizes.append(len(self.hw.well) + (self.hw.slot is not None))
            self.started_at.append(time.monotonic())

    def _load_next_pack(self, pack: str | None = None) -> None:
        if self.deals >= self.last_deal or (self.hold and pack is None):
            return  # the evening is over (or not begun): the dealer puts no more packs in
        self.hold = False
        super()._load_next_pack(pack)

    def deal_cards(self) -> list[list[Any]]:
        """The cards each deal sent to a seat (or turned up), in order; strays left out."""
        with self._lock:
            left, starts, strays = list(self.hw.left), list(self.starts), set(self.strays)
        return [[c for i, c in enumerate(left[a:b], start=a) if i not in strays]
                for a, b in zip(starts, [*starts[1:], len(left)])]

    def dealer(self, deal: int) -> str | None:
        """The seat the shoe dealt deal ``deal`` (1-based) for: its START_DEAL's dealer."""
        return SEAT_NAMES[self.plans[deal - 1][0]] if deal <= len(self.plans) else None

    def seat_of(self, deal: int, index: int) -> str | None:
        """The seat the shoe's dealing sends the ``index``-th card (0-based) of deal ``deal`` to (the
        firmware's own rule: packets clockwise from the dealer's left, then the turn-up); ``table`` for a
        turn-up, None past the deal's end."""
        if deal > len(self.plans):
            return None
        code, pattern, turn_up = self.plans[deal - 1]
        seat = self._shoe_mod.seat_for(index, code, list(pattern), turn_up)
        return SEAT_NAMES.get(seat, "table" if seat == self.wire.SEAT_TABLE else None)


T = TypeVar("T")


def sigterm_after(step: Callable[[], T]) -> T:
    """``step()``, with a SIGTERM that arrives meanwhile taken only once it has returned (by the handler the
    process had, so the ``soak`` command's ``SystemExit`` is raised then). A child process started in
    ``step`` is then in the caller's hands before the signal unwinds the caller, whose ``finally`` stops it:
    a ``SystemExit`` raised inside ``subprocess.Popen``, after the child exists but before ``Popen`` returns
    it, would leave the child running with no one holding it (``cardtable soak`` stopped at once after its
    table started did so, and that table went on talking to whatever shoe took its pseudo-terminal's number).
    Outside the main thread (no signal handler can be set there) ``step`` simply runs."""
    if threading.current_thread() is not threading.main_thread():
        return step()
    came: list[tuple[int, Any]] = []
    before = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, lambda signum, frame: came.append((signum, frame)))
    try:
        return step()
    finally:
        signal.signal(signal.SIGTERM, before)
        if came:
            if callable(before):
                before(*came[0])
            elif before == signal.SIG_DFL:
                os.kill(os.getpid(), signal.SIGTERM)    # die of it, as the process would have


class RunProcess:
    """``cardtable run`` in a process of its own; its stderr goes to a log file per start."""

    def __init__(self, config: Path, events: Path, logs: Path) -> None:
        self.config, self.events, self.logs = config, events, logs
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log_file = open(self.logs / f"run-{self.starts}.log", "wb")  # noqa: SIM115 - the child keeps it

        def spawn() -> None:
            self.proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "-v", "run", "--config",
                                          str(self.config), "--no-display", "--events", str(self.events)],
                                         stdout=subprocess.DEVNULL, stderr=log_file, cwd=ROOT)

        try:
            sigterm_after(spawn)  # a SIGTERM now finds the child in ``self.proc``, for ``stop``
        finally:
            log_file.close()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode

    def log_mark(self) -> tuple[int, int]:
        """Where the logs end now: (start, size of its log)."""
        p = self.logs / f"run-{self.starts}.log"
        return self.starts, p.stat().st_size if p.exists() else 0

    def logged_since(self, mark: tuple[int, int], text: str) -> bool:
        """Whether a log line containing ``text`` was written after ``mark`` (by any later start too)."""
        start, offset = mark
        for n in range(start, self.starts + 1):
            p = self.logs / f"run-{n}.log"
            if not p.exists():
                continue
            with open(p, "rb") as f:
                f.seek(offset if n == start else 0)
                if text.encode() in f.read():
                    return True
        return False

    def tracebacks(self) -> Counter[str]:
        """Tracebacks in the logs of every start, by the line of ours that raised."""
        found: Counter[str] = Counter()
        for p in sorted(self.logs.glob("run-*.log")):
            found += tracebacks_in(p.read_text(errors="replace"))
        return found


def tracebacks_in(text: str) -> Counter[str]:
    """Tracebacks in a process's output, by the line of ours that raised (the last ``File`` line under
    ``firmware_host``, ``laws`` or ``vision``; ``?`` when none is ours)."""
    found: Counter[str] = Counter()
    where = None
    for line in text.splitlines():
        if line.startswith("Traceback"):
            if where is not None:
                found[where] += 1
            where = "?"
        elif where is not None and line.strip().startswith("File ") and \
                any(f"/{pkg}/" in line for pkg in ("firmware_host", "laws", "vision")):
            path = line.split('"')[1] if '"' in line else line
            where = f"{path.split('/cardtable/')[-1].split('/wt/')[-1]}:{line.split('line ')[-1].split(',')[0]}"
            where = "/".join(where.split("/")[-2:]) if "/" in where else where
    if where is not None:
        found[where] += 1
    return found


class JournalWatch:
    """New journal rows, read through a connection of the driver's own."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.conn: sqlite3.Connection | None = None
        self.seq = 0

    def new_rows(self) -> list[tuple[int, str, dict[str, Any]]]:
        if self.conn is None:
            if not self.db.exists():
                return []
            self.conn = sqlite3.connect(self.db, timeout=0.5, isolation_level=None)
        try:
            rows = self.conn.execute("SELECT seq, kind, body FROM journal WHERE seq > ? ORDER BY seq",
                                     (self.seq,)).fetchall()
        except sqlite3.Error:
            return []
        out = [(int(s), str(k), json.loads(b)) for s, k, b in rows]
        if out:
            self.seq = out[-1][0]
        return out

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def table_id(game: str) -> str:
    return f"soak-{'bridge' if game == 'contract-bridge' else 'euchre'}"


def table_config(tmp: Path, data: Path, port: str, game: str, camera: str = "none") -> Path:
    """The shipped template with this table's values: each key's first assignment is replaced whatever
    value the template gives it (the template's defaults change; its keys do not)."""
    from firmware_host.resources import resource

    text = resource("config", "table.toml").read_text(encoding="utf-8")  # as `config init` starts from
    for key, value in (("game", f'"{game}"'), ("data_dir", f'"{data}"'), ("port", f'"{port}"'),
                       ("source", f'"{camera}"'), ("width", "320"), ("height", "240"),
                       ("factory", '"mock"'), ("id", f'"{table_id(game)}"')):
        text, n = re.subn(rf"^{key}\s*=\s*(\"[^\"]*\"|[^\s#]+)", lambda _m, k=key, v=value: f"{k} = {v}", text,
                          count=1, flags=re.M)
        if n != 1:
            raise ValueError(f"config/table.toml has no '{key} =' line for the soak to set")
    path = tmp / "table.toml"
    path.write_text(text)
    return path


def all_rows(db: Path) -> list[tuple[int, str, dict[str, Any]]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [(int(s), str(k), json.loads(b)) for s, k, b in
                conn.execute("SELECT seq, kind, body FROM journal ORDER BY seq")]
    finally:
        conn.close()
