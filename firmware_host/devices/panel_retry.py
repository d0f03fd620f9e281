"""The panel as a device that may be offline, and the probe ``cardtable doctor`` runs on the pin backends.

A pin backend that cannot start (lgpio missing, RPi.GPIO's edge detection failing on a bookworm 6.6
kernel, the GPIO chip busy) is a state of the table, like a shoe unplugged: ``RetryingPanel`` keeps the
lamps the table wants lit, says once that the panel is offline and why, tries again with backoff, and
once the pins open sets them to what was wanted meanwhile. The table deals and rules all along; only its
lamps and buttons wait. (A configuration error is something else: ``table.toml`` is checked before any
of this, and only that makes ``cardtable run`` exit 2.)

``probe_backends`` opens one button pin of the configured panel with edge detection on each backend, as
the panel does, and says for each what works; ``doctor`` reports it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from firmware_host.config import PinsConfig
from firmware_host.devices.panel import ButtonCallback, Panel, PanelError, Ticker, load_factory

log = logging.getLogger(__name__)

StateCallback = Callable[[bool, str], None]


class RetryingPanel:
    """A ``Panel`` opened by ``opener`` now or later, with the panel's interface meanwhile.

    Args:
        opener: makes the real panel (its pin factory and devices), raising ``PanelError`` when it cannot.
        clock: monotonic seconds.
        backoff: first and longest wait between tries, in seconds.
    """

    def __init__(self, opener: Callable[[], Panel], clock: Callable[[], float],
                 backoff: tuple[float, float] = (2.0, 30.0)) -> None:
        self._opener = opener
        self._clock = clock
        self._backoff = backoff
        self._delay = backoff[0]
        self._lock = threading.Lock()
        self._panel: Panel | None = None
        self._wanted: dict[str, bool] = {}
        self._callbacks: list[ButtonCallback] = []
        self._states: list[StateCallback] = []
        self._why = ""
        self._next = 0.0
        self._ticker = Ticker(self.poll)
        self._try()

    @property
    def online(self) -> bool:
        return self._panel is not None

    @property
    def why(self) -> str:
        """Why the panel is offline ("" while it works)."""
        return self._why

    def on_state(self, callback: StateCallback) -> None:
        """Call ``callback(online, why)`` when the panel goes offline or comes online; at once when it is
        offline already (so a controller wired after the first try still hears it)."""
        self._states.append(callback)
        if self._panel is None:
            callback(False, self._why)

    def _try(self) -> None:
        try:
            panel = self._opener()
        except PanelError as exc:
            self._next = self._clock() + self._delay
            self._delay = min(self._delay * 2, self._backoff[1])
            if str(exc) != self._why:  # each reason said once, not at every try
                self._why = str(exc)
                for cb in list(self._states):
                    cb(False, self._why)
            return
        with self._lock:
            self._panel = panel
            panel.set_lamps(self._wanted)
        for cb in self._callbacks:
            panel.on_button(cb)
        self._why, self._delay = "", self._backoff[0]
        for cb in list(self._states):
            cb(True, "")

    # -- the panel's interface ---------------------------------------------------------------------------

    def set_lamps(self, states: Mapping[str, bool]) -> None:
        with self._lock:
            self._wanted.update({k: bool(v) for k, v in states.items()})
            if self._panel is not None:
                self._panel.set_lamps(states)

    def set_lamp(self, name: str, on: bool) -> None:
        self.set_lamps({name: on})

    def lamps(self) -> dict[str, bool]:
        return self._panel.lamps() if self._panel is not None else dict(self._wanted)

    def buzz(self, duration: float) -> None:
        if self._panel is not None:
            self._panel.buzz(duration)

    def on_button(self, callback: ButtonCallback) -> None:
        self._callbacks.append(callback)
        if self._panel is not None:
            self._panel.on_button(callback)

    def poll(self) -> None:
        """The panel's timed decisions, or, while offline, another try once the backoff has passed."""
        if self._panel is not None:
            self._panel.poll()
        elif self._clock() >= self._next:
            self._try()

    def start(self, interval: float = 0.02) -> None:
        self._ticker.start(interval)

    def close(self) -> None:
        self._ticker.stop()
        if self._panel is not None:
            self._panel.close()
            self._panel = None


@dataclass(frozen=True)
class Probe:
    """What one pin backend did when a button pin was opened on it with edge detection."""

    backend: str
    ok: bool
    text: str


def probe_backends(pins: PinsConfig, backends: Iterable[str],
                   load: Callable[[str], Any] = load_factory) -> list[Probe]:
    """Open the panel's lowest-numbered button pin on each backend with edge detection (what
    ``gpiozero.Button`` does), then release it.

    The service must be stopped meanwhile (it holds the pins)."""
    from gpiozero import Button

    pin = min(pins.buttons.values())
    out = []
    for kind in backends:
        try:
            factory = load(kind)
        except PanelError as exc:
            out.append(Probe(kind, False, str(exc)))
            continue
        button = None
        try:
            button = Button(pin, pull_up=True, bounce_time=pins.bounce_time, pin_factory=factory)
            button.when_pressed = lambda: None  # edge detection, as the panel's buttons
            out.append(Probe(kind, True, f"GPIO {pin} opens with edge detection"))
        except Exception as exc:  # noqa: BLE001 - whatever the backend raises is the answer
            out.append(Probe(kind, False, f"GPIO {pin}: {exc}"))
        finally:
            if button is not None:
                button.close()
            close = getattr(factory, "close", None)
            if callable(close):
                close()
    return out
