"""An in-process table as ``cardtable run`` builds it (``build_table``): the virtual shoe on a real pty,
the shoe link, the procedure, the journal, gpiozero mock pins; no camera. Waits are on the controller's
phase listener, never on sleeps, and a wait's condition is judged on the controller's thread right after
each event: a step the table passes through in a few milliseconds (the shuffle before the cut) is seen
however late the test's own thread runs."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_host.config import load_config
from firmware_host.live import Table, build_table
from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput
from laws.engine import LawEngine
from laws.events import Event
from laws.state import TableState


class LiveTable:
    def __init__(self, data_dir: Path, port: str, game: str = "contract-bridge", *,
                 before: Callable[[Table], None] | None = None) -> None:
        """``before(table)`` runs before the table's thread starts (a change made after could come too
        late: the table takes the shoe's first messages at once)."""
        self.cfg = load_config(None, env={}, check_devices=False, overrides={
            "table.data_dir": str(data_dir), "table.game": game, "shoe.port": port,
            "camera.source": "none", "pins.factory": "mock"})
        self.data_dir = data_dir
        self._cond = threading.Condition()
        self._watch: list[tuple[Callable[[TableState], bool], list[bool]]] = []
        self._crash: Callable[[TableState], bool] | None = None
        self.table: Table = build_table(self.cfg)
        self.table.ctl.on_phase(self._changed)
        if before is not None:
            before(self.table)
        self._thread = threading.Thread(target=self.table.run, name="live-table", daemon=True)
        self._thread.start()

    def _changed(self, phase: Any, engine: LawEngine) -> None:
        with self._cond:
            for what, seen in self._watch:
                if not seen and what(engine.state):
                    seen.append(True)
            if self._crash is not None and self._crash(engine.state):
                self._crash = None
                self._die()
            self._cond.notify_all()

    def _die(self) -> None:
        """The host dies here, on the controller's thread between two inputs: what is queued and not yet
        committed is lost (as in a power cut), and no further input is taken."""
        ctl = self.table.ctl
        with ctl.queue.mutex:
            ctl.queue.queue.clear()
        while len(ctl.order.backlog) > 1:  # the first is the input being completed now: it stays
            ctl.order.backlog.pop()
        self.table.stop_event.set()

    @property
    def state(self) -> TableState:
        return self.table.ctl.engine.state

    def wait(self, what: Callable[[TableState], bool], timeout: float = 30.0) -> None:
        """Until the table has been, after some event, in a state where ``what`` holds (it may have moved
        on since)."""
        seen: list[bool] = []
        with self._cond:
            if what(self.state):
                return
            self._watch.append((what, seen))
            try:
                if not self._cond.wait_for(lambda: bool(seen), timeout):
                    raise AssertionError(f"table stuck in {self.state.phase.value}, deal "
                                         f"{self.state.deals_started}")
            finally:
                self._watch.remove((what, seen))

    def crash_when(self, what: Callable[[TableState], bool], timeout: float = 30.0) -> None:
        """The host dies right after the first event that makes ``what`` hold: nothing after it is taken
        (``close`` then only releases the devices). Returns once it has died."""
        with self._cond:
            self._crash = what
            if not self._cond.wait_for(lambda: self._crash is None, timeout):
                raise AssertionError(f"the table never reached the step to crash at: it is in "
                                     f"{self.state.phase.value}, deal {self.state.deals_started}")
        self._thread.join(timeout=10)

    def submit(self, event: Event, source: str = "director") -> None:
        self.table.ctl.submit(LawInput(event, source))

    def close(self) -> None:
        self.table.stop_event.set()
        self._thread.join(timeout=10)
        self.table.stop()

    def __enter__(self) -> LiveTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


SCORING = ("score", "game_won", "rubber_won")


def rulings(data_dir: Path) -> list[dict[str, Any]]:
    """Every ruling that is not the score of a hand: the irregularities the table ruled on."""
    with Journal.open(data_dir) as j:
        return [r.body for r in j.rows() if r.kind == "ruling" and r.body["remedy"] not in SCORING]


def dealt(data_dir: Path) -> list[dict[str, Any]]:
    with Journal.open(data_dir) as j:
        return [e for e in j.events() if e["type"] == "card_dealt"]
