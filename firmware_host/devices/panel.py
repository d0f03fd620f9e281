"""Lamps, buzzer and buttons of the table's panel, through gpiozero with a pin factory passed in.

Wiring note (see ``hardware/WIRING.md``): lamps are LEDs from a BCM pin through a 330 ohm resistor to
ground (on = pin high); the buzzer hangs off an NPN transistor whose base is driven from its pin through
1 kohm; each button connects its pin to ground and uses the SoC's internal pull-up (pressed = low).

Seat buttons speak by press pattern (``PressDecoder``):

* one short press                      -> ``"attention"`` (draw attention to an irregularity), reported
  once ``double_press`` seconds have passed without a second press;
* two presses within ``double_press``  -> ``"new_shuffle"`` (demand a new shuffle and cut), reported
  at the second press;
* a press held ``long_press`` seconds  -> ``"restore_pack"`` (reclaim our own pack), reported as soon
  as the hold is long enough.

What a kind means is the controller's business (``firmware_host.table.choices``): during a bridge
auction two presses are the seat's pass (``button_call``), since a new shuffle can no longer be asked for
once the deal is complete; one press still draws attention and a hold still reclaims the pack.

The director's button reports ``"ack"`` at once. Callbacks receive ``(who, kind)`` with ``who`` one of
``"N"``, ``"E"``, ``"S"``, ``"W"`` or ``"director"``. Timed decisions (a single press, a long hold, the
end of a buzz) are made by ``poll()``, which the controller calls often (every 20-50 ms) or which
``start()`` calls from a small thread; tests call it after moving a fake clock.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from firmware_host.config import LAMPS, PinsConfig

log = logging.getLogger(__name__)

PI_MODEL_FILE = Path("/proc/device-tree/model")
ButtonCallback = Callable[[str, str], None]


class PanelError(RuntimeError):
    """The pins cannot be set up (wrong machine, missing backend, unknown lamp)."""


def pi_model(model_file: Path = PI_MODEL_FILE) -> str | None:
    """The Raspberry Pi model string (``"Raspberry Pi 5 Model B Rev 1.0"``), or None elsewhere."""
    try:
        model = model_file.read_bytes().decode("ascii", "replace").rstrip("\x00\n ")
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


# gpiozero 2.x's own order of preference. lgpio speaks to the kernel's GPIO character device on every
# model; RPi.GPIO's edge detection goes through the sysfs GPIO numbers, which moved on bookworm kernels
# 6.6 and later ("Failed to add edge detection", gpiozero #1136, raspberrypi/linux #6037), and it does not
# drive a Pi 5 at all. So lgpio first everywhere, RPi.GPIO only where lgpio cannot start.
AUTO_ORDER = ("lgpio", "rpigpio")


def make_pin_factory(kind: str, *, model_file: Path = PI_MODEL_FILE,
                     load: Callable[[str], Any] | None = None) -> Any:
    """A gpiozero pin factory.

    Args:
        kind: ``"mock"`` (gpiozero's MockFactory), ``"rpigpio"``, ``"lgpio"``, or ``"auto"``: on any
            Raspberry Pi lgpio, then RPi.GPIO if lgpio cannot start (``AUTO_ORDER``), and MockFactory
            (with a log line) when not on a Pi.
        model_file: where the Pi's model is read from (for tests).
        load: makes the factory of one kind (default ``load_factory``; tests pass fakes).

    Raises:
        PanelError: unknown kind, or the backend cannot be loaded or opened on this machine.
    """
    load = load or load_factory
    if kind == "auto":
        model = pi_model(model_file)
        if model is None:
            log.warning("not a Raspberry Pi: lamps and buttons use gpiozero's mock pins")
            return load("mock")
        errors = []
        for candidate in AUTO_ORDER:
            try:
                factory = load(candidate)
            except PanelError as exc:
                errors.append(str(exc))
                continue
            log.info("%s: using the %s pin backend", model, candidate)
            return factory
        raise PanelError(f"{model}: no pin backend works: " + "; ".join(errors))
    return load(kind)


def use_lgpio_folder(folder: Path) -> None:
    """Let lgpio make its notification pipes in ``folder``: it makes them when it is imported, in
    ``$LG_WD`` or else the working folder (joan2937/lg #22, gpiozero #1106), which for ``doctor`` or the
    tests may be a folder this user cannot write. An ``LG_WD`` already set (the unit's) is kept."""
    os.environ.setdefault("LG_WD", str(folder))


def load_factory(kind: str) -> Any:
    """The gpiozero pin factory of one kind (``mock``, ``rpigpio``, ``lgpio``).

    Raises:
        PanelError: unknown kind, or the backend cannot be imported or opened here.
    """
    if kind == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    # (gpiozero's module, its factory, the Debian package that installs the backend: what `apt install`
    # takes, not the Python module's name, which apt does not know)
    modules = {"rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory", "python3-rpi.gpio"),
               "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory", "python3-lgpio")}
    if kind not in modules:
        raise PanelError(f"unknown pin factory {kind!r} (want auto, mock, rpigpio or lgpio)")
    module, cls, package = modules[kind]
    try:
        import importlib

        return getattr(importlib.import_module(module), cls)()
    except Exception as exc:  # ImportError, or the backend failing to open the GPIO chip
        raise PanelError(f"pin factory {kind!r} cannot start ({exc}); on a Pi: sudo apt install {package}, "
                         f"in a venv made with --system-site-packages; see hardware/SETUP.md") from exc


class PressDecoder:
    """Turns one button's presses and releases into ``attention``/``new_shuffle``/``restore_pack``.

    Pure and clock-free: every method takes the current time in seconds and returns the kinds decided
    at that moment (usually none, at most two).
    """

    IDLE, DOWN, UP, SECOND, HELD = "idle", "down", "up", "second", "held"

    def __init__(self, double_press: float = 0.4, long_press: float = 1.5) -> None:
        self.double_press = double_press
        self.long_press = long_press
        self.state = self.IDLE
        self._since = 0.0

    def press(self, now: float) -> list[str]:
        """The button went down at ``now``."""
        out: list[str] = []
        if self.state == self.UP:
            if now - self._since <= self.double_press:
                self.state = self.SECOND
                return ["new_shuffle"]
            out.append("attention")  # the first press's window passed without a poll
        elif self.state != self.IDLE:
            return []  # a repeated edge while down
        self.state, self._since = self.DOWN, now
        return out

    def release(self, now: float) -> list[str]:
        """The button came up at ``now``."""
        if self.state == self.DOWN:
            if now - self._since >= self.long_press:
                self.state = self.IDLE
                return ["restore_pack"]
            self.state, self._since = self.UP, now
        elif self.state in (self.SECOND, self.HELD):
            self.state = self.IDLE
        return []

    def poll(self, now: float) -> list[str]:
        """Decisions that time alone makes: a single press's window closing, a hold becoming long."""
        if self.state == self.UP and now - self._since > self.double_press:
            self.state = self.IDLE
            return ["attention"]
        if self.state == self.DOWN and now - self._since >= self.long_press:
            self.state = self.HELD
            return ["restore_pack"]
        return []


class Ticker:
    """Calls ``fn`` every ``interval`` seconds from a daemon thread of its own until ``stop``; an exception
    in ``fn`` is logged and the ticking goes on (a panel's timed decisions must not die with one)."""

    def __init__(self, fn: Callable[[], None], name: str = "panel-poll") -> None:
        self._fn = fn
        self._name = name
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, interval: float) -> None:
        """Start ticking (once: a second call does nothing)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, args=(interval,), name=self._name, daemon=True)
            self._thread.start()

    def _run(self, interval: float) -> None:
        while not self._halt.wait(interval):
            try:
                self._fn()
            except Exception:
                log.exception("%s failed", self._name)

    def stop(self) -> None:
        """Stop ticking and wait for the thread (unless called from it)."""
        self._halt.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()


class Panel:
    """The lamps, the buzzer and the buttons, as gpiozero devices on the given pin factory.

    Args:
        pins: the ``[pins]`` configuration (BCM numbers, press timings).
        pin_factory: from ``make_pin_factory``; never gpiozero's global default.
        clock: seconds, monotonic (``time.monotonic`` in production, a fake clock in tests).
    """

    def __init__(self, pins: PinsConfig, pin_factory: Any, clock: Callable[[], float]) -> None:
        from gpiozero import LED, Button, Buzzer

        self._clock = clock
        self._lock = threading.Lock()
        self._callbacks: list[ButtonCallback] = []
        self._buzz_until: float | None = None
        self._ticker = Ticker(self.poll)
        self._devices: list[Any] = []
        try:
            self._lamps = {name: LED(pins.lamps[name], pin_factory=pin_factory) for name in LAMPS}
            self._devices += self._lamps.values()
            self._buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
            self._devices.append(self._buzzer)
            self._buttons: dict[str, Any] = {}
            self._decoders: dict[str, PressDecoder] = {}
            for name, pin in pins.buttons.items():
                who = "director" if name == "director_ack" else name.removeprefix("seat_")
                button = Button(pin, pull_up=True, bounce_time=pins.bounce_time, pin_factory=pin_factory)
                self._devices.append(button)
                self._buttons[who] = button
                button.when_pressed = lambda who=who: self._edge(who, True)
                button.when_released = lambda who=who: self._edge(who, False)
                if who != "director":
                    self._decoders[who] = PressDecoder(pins.double_press, pins.long_press)
        except Exception as exc:
            self.close()
            raise PanelError(f"cannot set up the panel's pins ({exc})") from exc

    # -- lamps and buzzer -------------------------------------------------------------------------

    def set_lamp(self, name: str, on: bool) -> None:
        """Light (``on=True``) or put out one lamp.

        Raises:
            PanelError: unknown lamp name.
        """
        lamp = self._lamps.get(name)
        if lamp is None:
            raise PanelError(f"unknown lamp {name!r} (lamps: {', '.join(self._lamps)})")
        if on:
            lamp.on()
        else:
            lamp.off()

    def set_lamps(self, states: Mapping[str, bool]) -> None:
        """Set several lamps at once (e.g. restore ``Journal.last_lamps()``); others are unchanged."""
        for name, on in states.items():
            self.set_lamp(name, bool(on))

    def lamps(self) -> dict[str, bool]:
        """Every lamp's state, by name."""
        return {name: bool(lamp.value) for name, lamp in self._lamps.items()}

    def buzz(self, duration: float) -> None:
        """Sound the buzzer for ``duration`` seconds without blocking; ``poll()`` silences it."""
        with self._lock:
            self._buzz_until = self._clock() + duration
        self._buzzer.on()

    @property
    def buzzing(self) -> bool:
        return bool(self._buzzer.value)

    # -- buttons ----------------------------------------------------------------------------------

    def on_button(self, callback: ButtonCallback) -> None:
        """Call ``callback(who, kind)`` for each decided press (see the module docstring)."""
        self._callbacks.append(callback)

    def _edge(self, who: str, pressed: bool) -> None:
        now = self._clock()
        if who == "director":
            kinds = ["ack"] if pressed else []
        else:
            with self._lock:
                decoder = self._decoders[who]
                kinds = decoder.press(now) if pressed else decoder.release(now)
        self._emit(who, kinds)

    def _emit(self, who: str, kinds: list[str]) -> None:
        for kind in kinds:
            log.info("button %s: %s", who, kind)
            for callback in list(self._callbacks):
                callback(who, kind)

    def poll(self) -> None:
        """Make the decisions that time alone makes: single presses, long holds, the end of a buzz."""
        now = self._clock()
        decided: list[tuple[str, list[str]]] = []
        with self._lock:
            for who, decoder in self._decoders.items():
                kinds = decoder.poll(now)
                if kinds:
                    decided.append((who, kinds))
            stop_buzz = self._buzz_until is not None and now >= self._buzz_until
            if stop_buzz:
                self._buzz_until = None
        if stop_buzz:
            self._buzzer.off()
        for who, kinds in decided:
            self._emit(who, kinds)

    def start(self, interval: float = 0.02) -> None:
        """Call ``poll()`` every ``interval`` seconds from a daemon thread until ``close()``."""
        self._ticker.start(interval)

    def close(self) -> None:
        """Stop the poll thread and release every pin."""
        self._ticker.stop()
        for device in self._devices:
            device.close()
        self._devices.clear()
