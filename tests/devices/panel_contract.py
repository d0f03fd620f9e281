"""Assertions shared by the mock-pin panel tests and the ``-m hardware`` contract tests on a real Pi."""

from __future__ import annotations

from typing import Any

from firmware_host.config import LAMPS, PinsConfig
from firmware_host.devices.panel import Panel


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def check_lamps_drive_their_pins(panel: Panel, factory: Any, pins: PinsConfig) -> None:
    """Every lamp starts dark, lights its own pin only, and goes dark again."""
    assert panel.lamps() == dict.fromkeys(LAMPS, False)
    for name in LAMPS:
        panel.set_lamp(name, True)
        assert factory.pin(pins.lamps[name]).state, name
        lit = [other for other in LAMPS if factory.pin(pins.lamps[other]).state]
        assert lit == [name]
        assert panel.lamps()[name] is True
        panel.set_lamp(name, False)
        assert not factory.pin(pins.lamps[name]).state
    panel.set_lamps({"redeal": True, "attention_W": True})
    assert {n for n, on in panel.lamps().items() if on} == {"redeal", "attention_W"}
    panel.set_lamps(dict.fromkeys(LAMPS, False))


def check_buzzer_stops_on_time(panel: Panel, factory: Any, pins: PinsConfig, clock: FakeClock) -> None:
    """``buzz`` returns at once with the buzzer on; ``poll`` turns it off once the time is up."""
    panel.buzz(0.25)
    assert panel.buzzing and factory.pin(pins.buzzer).state
    clock.advance(0.2)
    panel.poll()
    assert panel.buzzing
    clock.advance(0.06)
    panel.poll()
    assert not panel.buzzing and not factory.pin(pins.buzzer).state


def check_buttons_idle_high(panel: Panel, factory: Any, pins: PinsConfig) -> None:
    """With the internal pull-ups and nobody pressing, every button pin reads high."""
    for name, pin in pins.buttons.items():
        assert factory.pin(pin).state, f"{name} (BCM {pin}) reads low: stuck button or wiring to ground"
