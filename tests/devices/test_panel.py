"""Panel on gpiozero's MockFactory: lamp pins, the buzzer, and press patterns on the seat buttons."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_host.config import PinsConfig, load_config
from firmware_host.devices.panel import Panel, PanelError, PressDecoder, make_pin_factory, pi_model
from tests.devices.panel_contract import (
    FakeClock,
    check_buttons_idle_high,
    check_buzzer_stops_on_time,
    check_lamps_drive_their_pins,
)


@pytest.fixture
def pins() -> PinsConfig:
    return load_config(None, env={}, check_devices=False).pins


@pytest.fixture
def rig(pins: PinsConfig) -> Iterator[tuple[Panel, MockFactory, FakeClock, list[tuple[str, str]]]]:
    factory = make_pin_factory("mock")
    clock = FakeClock()
    panel = Panel(pins, factory, clock)
    heard: list[tuple[str, str]] = []
    panel.on_button(lambda who, kind: heard.append((who, kind)))
    yield panel, factory, clock, heard
    panel.close()
    factory.close()


# -- the decoder alone, on a fake clock -------------------------------------------------------------

def test_single_press_is_attention_after_the_window() -> None:
    d = PressDecoder(double_press=0.4, long_press=1.5)
    assert d.press(0.0) == [] and d.release(0.1) == []
    assert d.poll(0.5) == []  # exactly at the edge of the window: still waiting
    assert d.poll(0.51) == ["attention"]
    assert d.poll(5.0) == []


def test_double_press_is_new_shuffle_at_the_second_press() -> None:
    d = PressDecoder(0.4, 1.5)
    d.press(0.0)
    d.release(0.1)
    assert d.press(0.3) == ["new_shuffle"]
    assert d.release(0.4) == [] and d.poll(3.0) == []  # holding the second press changes nothing


def test_long_press_is_restore_pack_once() -> None:
    d = PressDecoder(0.4, 1.5)
    d.press(0.0)
    assert d.poll(1.49) == []
    assert d.poll(1.5) == ["restore_pack"]
    assert d.poll(2.5) == [] and d.release(3.0) == [] and d.poll(4.0) == []


def test_long_press_without_polls_is_decided_at_release() -> None:
    d = PressDecoder(0.4, 1.5)
    d.press(0.0)
    assert d.release(2.0) == ["restore_pack"]


def test_late_second_press_closes_the_first_then_starts_anew() -> None:
    d = PressDecoder(0.4, 1.5)
    d.press(0.0)
    d.release(0.1)
    assert d.press(0.9) == ["attention"]  # no poll came between: the first press is decided now
    d.release(1.0)
    assert d.poll(1.5) == ["attention"]


def test_repeated_edges_are_ignored() -> None:
    d = PressDecoder(0.4, 1.5)
    assert d.release(0.0) == []
    d.press(0.0)
    assert d.press(0.01) == []
    d.release(0.1)
    assert d.release(0.11) == []
    assert d.poll(1.0) == ["attention"]


# -- the panel on mock pins --------------------------------------------------------------------------

def test_lamps(rig: tuple[Panel, MockFactory, FakeClock, list[tuple[str, str]]], pins: PinsConfig) -> None:
    panel, factory, _, _ = rig
    check_lamps_drive_their_pins(panel, factory, pins)
    with pytest.raises(PanelError, match="unknown lamp 'redeel'"):
        panel.set_lamp("redeel", True)


def test_buzzer(rig: tuple[Panel, MockFactory, FakeClock, list[tuple[str, str]]], pins: PinsConfig) -> None:
    panel, factory, clock, _ = rig
    check_buzzer_stops_on_time(panel, factory, pins, clock)


def test_button_patterns_through_the_pins(rig: tuple[Panel, MockFactory, FakeClock, list[tuple[str, str]]],
                                          pins: PinsConfig) -> None:
    panel, factory, clock, heard = rig
    check_buttons_idle_high(panel, factory, pins)
    north, east, west = (factory.pin(pins.buttons[k]) for k in ("seat_N", "seat_E", "seat_W"))
    north.drive_low()
    clock.advance(0.1)
    north.drive_high()
    panel.poll()
    assert heard == []
    clock.advance(0.5)
    panel.poll()
    assert heard == [("N", "attention")]
    east.drive_low()
    clock.advance(0.1)
    east.drive_high()
    clock.advance(0.2)
    east.drive_low()
    assert heard[-1] == ("E", "new_shuffle")
    east.drive_high()
    west.drive_low()
    clock.advance(1.6)
    panel.poll()
    assert heard[-1] == ("W", "restore_pack")
    west.drive_high()
    factory.pin(pins.buttons["director_ack"]).drive_low()
    factory.pin(pins.buttons["director_ack"]).drive_high()
    clock.advance(5)
    panel.poll()
    assert heard == [("N", "attention"), ("E", "new_shuffle"), ("W", "restore_pack"), ("director", "ack")]


def test_start_polls_from_a_thread(pins: PinsConfig) -> None:
    import threading

    factory = make_pin_factory("mock")
    clock = FakeClock()
    panel = Panel(pins, factory, clock)
    done = threading.Event()
    panel.on_button(lambda who, kind: done.set())
    panel.start(interval=0.005)
    pin = factory.pin(pins.buttons["seat_S"])
    pin.drive_low()
    pin.drive_high()
    clock.advance(1.0)
    assert done.wait(10), "the poll thread never decided the single press"
    panel.close()


@pytest.mark.skipif(pi_model() is not None, reason="on a Pi the real backends may load")
def test_pin_factory_choice(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert isinstance(make_pin_factory("mock"), MockFactory)
    assert isinstance(make_pin_factory("auto", model_file=tmp_path / "absent"), MockFactory)
    assert "not a Raspberry Pi" in caplog.text
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert pi_model(model) == "Raspberry Pi 5 Model B Rev 1.0"
    with pytest.raises(PanelError, match="'lgpio' cannot start"):
        make_pin_factory("auto", model_file=model)
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    with pytest.raises(PanelError, match="Pi 4 .*'lgpio' cannot start.*'rpigpio' cannot start"):
        make_pin_factory("auto", model_file=model)
    with pytest.raises(PanelError, match="unknown pin factory"):
        make_pin_factory("wiringpi")


def test_pins_are_released_on_close(pins: PinsConfig) -> None:
    factory = make_pin_factory("mock")
    Panel(pins, factory, FakeClock()).close()
    again = Panel(pins, factory, FakeClock())  # would fail with "pin already in use" otherwise
    again.close()


def test_the_buzzer_sounds_for_a_claim_that_ended_the_deal() -> None:
    """Euchre law 44: the misdeal voids the cards at once and the dealer's side may claim the redeal;
    the table stops like any redeal, so the buzzer sounds. A claim that leaves the deal going does not."""
    from firmware_host.table.lamps import buzz_for
    from laws.rulings import Remedy, Ruling

    ended = Ruling(Remedy.CLAIM_OPTION, "Euchre, law 44", "EU-44", "r", extra={"otherwise": "E"})
    going = Ruling(Remedy.CLAIM_OPTION, "Euchre, law 52", "EU-52", "r", extra={"options": ["call_card"]})
    assert buzz_for([ended]) and not buzz_for([going])
