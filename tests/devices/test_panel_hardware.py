"""Contract tests for the panel on a real Raspberry Pi (``pytest -m hardware``), wired as WIRING.md.

The same assertions as the mock-pin tests (``panel_contract.py``) run against the Pi's own pin factory
(lgpio on every model, RPi.GPIO only where lgpio cannot start). Lamps and the buzzer are checked by reading their output pins back;
the buttons are checked for idle-high (pull-ups on, nothing shorted). The press patterns need a person:
``test_a_person_presses_north`` waits for one press on the north button when CARDTABLE_HW_PRESS=1.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from firmware_host.config import PinsConfig, load_config
from firmware_host.devices.panel import Panel, make_pin_factory, pi_model
from tests.devices.panel_contract import (
    FakeClock,
    check_buttons_idle_high,
    check_buzzer_stops_on_time,
    check_lamps_drive_their_pins,
)

pytestmark = [
    pytest.mark.hardware,
    pytest.mark.skipif(pi_model() is None, reason="needs a Raspberry Pi wired as hardware/WIRING.md"),
]


@pytest.fixture
def pins() -> PinsConfig:
    path = os.environ.get("CARDTABLE_CONFIG")  # the table's own file when its pins differ from default
    return load_config(path, check_devices=False).pins


@pytest.fixture
def factory() -> Iterator[Any]:
    f = make_pin_factory("auto")
    yield f
    f.close()


def test_lamps_on_real_pins(factory: Any, pins: PinsConfig) -> None:
    panel = Panel(pins, factory, time.monotonic)
    try:
        check_lamps_drive_their_pins(panel, factory, pins)
    finally:
        panel.close()


def test_buzzer_on_real_pins(factory: Any, pins: PinsConfig) -> None:
    clock = FakeClock()
    panel = Panel(pins, factory, clock)
    try:
        check_buzzer_stops_on_time(panel, factory, pins, clock)
    finally:
        panel.close()


def test_buttons_idle_high_on_real_pins(factory: Any, pins: PinsConfig) -> None:
    panel = Panel(pins, factory, time.monotonic)
    try:
        check_buttons_idle_high(panel, factory, pins)
    finally:
        panel.close()


@pytest.mark.skipif(os.environ.get("CARDTABLE_HW_PRESS") != "1", reason="set CARDTABLE_HW_PRESS=1 to press by hand")
def test_a_person_presses_north(factory: Any, pins: PinsConfig) -> None:
    panel = Panel(pins, factory, time.monotonic)
    heard: list[tuple[str, str]] = []
    done = threading.Event()

    def got(who: str, kind: str) -> None:
        heard.append((who, kind))
        done.set()

    panel.on_button(got)
    panel.start()
    try:
        print("\npress the NORTH button once, briefly")
        assert done.wait(30), "no press decided within 30 s"
        assert heard[0] == ("N", "attention")
    finally:
        panel.close()
