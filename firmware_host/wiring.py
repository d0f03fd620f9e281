"""Adapters between the devices and the controller's queue: they run in the devices' threads and only
translate and submit (the controller does the rest in its own thread).

* ``ShoeAdapter``: shoe-link messages -> law events, device status, buttons, notes.
* ``CameraFeeder``: frames -> the vision watcher -> law events, in a capture thread of its own.
* ``vision_phase``: which vision phase an engine phase means (what a face-up card seen then is).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from firmware_host.controller import ButtonInput, DeviceNote, DeviceStatus, Input, LawInput
from laws.engine import LawEngine
from laws.state import Phase

log = logging.getLogger(__name__)

# The shoe's seat buttons: a call asks for attention, a demand asks for a new shuffle and cut,
# a confirm (held) reclaims the side's pack.
SHOE_BUTTONS = {1: "attention", 2: "new_shuffle", 3: "restore_pack"}


class ShoeAdapter:
    """The ``on_event`` callback of a ``ShoeLink`` or ``ScannerLink``.

    Args:
        submit: the controller's ``submit``.
        clock: for event times.
        pack: returns the pack the table expects now (used when the shoe names none).
    """

    def __init__(self, submit: Callable[[Input], None], clock: Callable[[], float],
                 pack: Callable[[], str | None] = lambda: None) -> None:
        self.submit = submit
        self.clock = clock
        self.pack = pack
        self.deal_finished = threading.Event()

    def __call__(self, msg: Any) -> None:
        from firmware_host.shoe import messages as m
        from firmware_host.shoe.laws_map import to_law_event

        if isinstance(msg, m.LinkStatus):
            self.submit(DeviceStatus("shoe", msg.online, msg.reason))
            return
        event = to_law_event(msg, pack=self.pack())
        if event is not None:
            self.submit(LawInput(event, "shoe"))
            if isinstance(msg, m.DealFinished):
                self.deal_finished.set()
            return
        if isinstance(msg, m.ButtonPressed):
            kind = SHOE_BUTTONS.get(int(msg.kind), "attention")
            self.submit(ButtonInput(msg.seat.value if msg.seat is not None else "director", kind))
        elif isinstance(msg, m.Jam):
            self.submit(DeviceNote("shoe", "card jammed at the exit" if not msg.cleared else "jam cleared"))
        elif isinstance(msg, m.Empty):
            self.submit(DeviceNote("shoe", f"the shoe ran empty after {msg.dealt} cards"))
        elif isinstance(msg, m.ShoeError):
            self.submit(DeviceNote("shoe", f"error {msg.code}: {msg.detail}"))


def vision_phase(phase: Phase, engine: LawEngine) -> str:
    """The watcher's phase for an engine phase: what a face-up card newly seen then means."""
    if phase == Phase.FORMING:
        return "draw"
    if phase == Phase.SHUFFLE:
        return "cut" if engine.state.shuffles else "shuffle"
    if phase == Phase.CUT:
        return "cut"
    if phase == Phase.DEALING:
        return "deal"
    if phase in (Phase.AUCTION, Phase.PLAY):
        return "play"
    return "idle"


class CameraFeeder:
    """Reads frames, feeds the watcher, submits what it sees; marks the camera offline when frames stop.

    Args:
        source: anything with ``read() -> (ok, frame)`` (a ``CaptureThread``, ``cv2.VideoCapture``...).
        watcher: a ``vision.watcher.TableWatcher``.
        submit: the controller's ``submit``.
        max_failures: failed reads in a row before the camera counts as offline.
    """

    def __init__(self, source: Any, watcher: Any, submit: Callable[[Input], None],
                 max_failures: int = 10, period: float = 0.0) -> None:
        self.source = source
        self.watcher = watcher
        self.submit = submit
        self.max_failures = max_failures
        self.period = period
        self.frames = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._said: tuple[str, frozenset[str]] | None = None

    def set_phase(self, phase: Phase, engine: LawEngine) -> None:
        """Phase listener for the controller (called from its thread); tells the watcher only changes,
        with the packs in play so that a card of any other pack is flagged as foreign."""
        packs = frozenset(engine.state.pack_owners.values())
        if engine.state.deal is not None:
            packs |= {engine.state.deal.pack}
        said = (vision_phase(phase, engine), packs)
        if said == self._said:
            return
        with self._lock:
            self._said = said
            self.watcher.set_phase(said[0], packs=packs or None)

    def draw_names(self, names: dict[str, str]) -> None:
        """For the draw: which candidate stands at which zone."""
        with self._lock:
            self.watcher.set_phase("draw", names=names)
            self._said = None

    def start(self) -> CameraFeeder:
        self._thread = threading.Thread(target=self._run, name="camera-feeder", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def step(self) -> int:
        """Read and process one frame; returns the number of events submitted (-1: no frame)."""
        ok, frame = self.source.read()
        if not ok or frame is None:
            return -1
        return self._look(frame)

    def _look(self, frame: Any) -> int:
        self.frames += 1
        with self._lock:
            events = self.watcher.feed(frame)
        for e in events:
            self.submit(LawInput(e, "camera"))
        return len(events)

    def _run(self) -> None:
        failures = 0
        online = True
        while not self._stop.is_set():
            try:
                ok, frame = self.source.read()
            except Exception as exc:  # a camera that fails must not stop the table
                log.warning("camera read failed: %s", exc)
                ok, frame = False, None
            if not ok or frame is None:
                failures += 1
                if online and failures >= self.max_failures:
                    online = False
                    self.submit(DeviceStatus("camera", False, "no frames from the camera"))
                self._stop.wait(0.05)
                continue
            failures = 0
            if not online:
                online = True
                self.submit(DeviceStatus("camera", True))
            try:
                self._look(frame)
            except Exception as exc:  # a corrupt frame is logged and skipped
                log.warning("camera frame not processed: %s", exc)
            if self.period:
                self._stop.wait(self.period)
