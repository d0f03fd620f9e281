"""The pin backend on bookworm kernels (issue 21, "On the Pi"): ``pins.factory = "auto"`` tries lgpio
first on every model (gpiozero 2.x's own order: RPi.GPIO's edge detection fails on kernels 6.6 and later,
gpiozero #1136, raspberrypi/linux #6037); a backend that fails at start is a device that is offline and
retried, not a configuration error; the probe ``doctor`` runs opens a button pin with edge detection.

No Pi here: the backends are gpiozero's MockFactory, one of them with a pin whose edge detection fails
as RPi.GPIO's does on those kernels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from firmware_host.config import PinsConfig, load_config
from firmware_host.devices.panel import PanelError, make_pin_factory
from firmware_host.devices.panel_retry import RetryingPanel, probe_backends
from tests.devices.panel_contract import FakeClock


class NoEdgePin(MockPin):
    """A pin whose edge detection fails the way RPi.GPIO's does on a 6.6 kernel."""

    def _set_when_changed(self, value: Any) -> None:
        if value is not None:
            raise RuntimeError("Failed to add edge detection")
        super()._set_when_changed(value)


@pytest.fixture
def pins() -> PinsConfig:
    return load_config(None, env={}, check_devices=False).pins


def _model(tmp_path: Path, text: str) -> Path:
    f = tmp_path / "model"
    f.write_bytes(text.encode() + b"\x00")
    return f


@pytest.mark.parametrize("model", ["Raspberry Pi 4 Model B Rev 1.4", "Raspberry Pi 3 Model B Plus Rev 1.3",
                                   "Raspberry Pi 5 Model B Rev 1.0"])
def test_auto_tries_lgpio_first_on_every_model(tmp_path: Path, model: str) -> None:
    tried: list[str] = []

    def load(kind: str) -> Any:
        tried.append(kind)
        return MockFactory()

    make_pin_factory("auto", model_file=_model(tmp_path, model), load=load)
    assert tried == ["lgpio"]


def test_auto_falls_back_to_rpigpio_when_lgpio_cannot_start(tmp_path: Path) -> None:
    tried: list[str] = []

    def load(kind: str) -> Any:
        tried.append(kind)
        if kind == "lgpio":
            raise PanelError("pin factory 'lgpio' cannot start (no module named lgpio)")
        return MockFactory()

    make_pin_factory("auto", model_file=_model(tmp_path, "Raspberry Pi 4 Model B Rev 1.4"), load=load)
    assert tried == ["lgpio", "rpigpio"]


def test_a_backend_that_fails_at_start_is_offline_and_retried(pins: PinsConfig) -> None:
    """The panel's backend fails twice, then works: the table is told offline (with why) and online,
    and the lamps lit meanwhile are on the pins once it works."""
    from firmware_host.devices.panel import Panel

    clock = FakeClock()
    factory = MockFactory()
    failures = ["pin factory 'lgpio' cannot start (Failed to add edge detection)"] * 2

    def opener() -> Panel:
        if failures:
            raise PanelError(failures.pop())
        return Panel(pins, factory, clock)

    said: list[tuple[bool, str]] = []
    panel = RetryingPanel(opener, clock, backoff=(1.0, 4.0))
    panel.on_state(lambda online, why: said.append((online, why)))
    assert said == [(False, "pin factory 'lgpio' cannot start (Failed to add edge detection)")]
    panel.set_lamps({"redeal": True})
    heard: list[tuple[str, str]] = []
    panel.on_button(lambda who, kind: heard.append((who, kind)))
    panel.poll()  # too soon: no new try
    assert said[-1][0] is False and len(failures) == 1
    clock.now += 1.0
    panel.poll()  # the second try fails too: said once, not again
    assert len(said) == 1 and not failures
    clock.now += 1.5
    panel.poll()
    clock.now += 1.0
    panel.poll()  # the third works
    assert said[-1] == (True, "")
    assert factory.pin(pins.lamps["redeal"]).state is True
    factory.pin(pins.buttons["director_ack"]).drive_low()
    assert heard == [("director", "ack")]
    panel.close()


def test_probe_says_which_backend_detects_edges(pins: PinsConfig) -> None:
    def load(kind: str) -> Any:
        return MockFactory() if kind == "lgpio" else MockFactory(pin_class=NoEdgePin)

    results = probe_backends(pins, ("lgpio", "rpigpio"), load=load)
    assert [(r.backend, r.ok) for r in results] == [("lgpio", True), ("rpigpio", False)]
    assert "Failed to add edge detection" in results[1].text
    assert f"GPIO {min(pins.buttons.values())}" in results[0].text


def test_the_probe_can_fail_when_every_backend_fails(pins: PinsConfig) -> None:
    def load(kind: str) -> Any:
        raise PanelError(f"pin factory {kind!r} cannot start (no module)")

    results = probe_backends(pins, ("lgpio", "rpigpio"), load=load)
    assert not any(r.ok for r in results)


def test_the_suite_gives_lgpio_a_folder_it_can_write() -> None:
    """lgpio's pipes go to $LG_WD: set, a folder, writable by whoever runs the tests (not the checkout)."""
    import os

    folder = os.environ.get("LG_WD")
    assert folder and os.path.isdir(folder) and os.access(folder, os.W_OK)


@pytest.mark.parametrize(("kind", "module", "package"), [("lgpio", "lgpio", "python3-lgpio"),
                                                         ("rpigpio", "RPi", "python3-rpi.gpio")])
def test_a_backend_that_is_not_installed_names_the_apt_package(kind: str, module: str, package: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The PANEL OFFLINE line and doctor's said "install the backend with apt (lgpio)" (or "(RPi.GPIO)"):
    Python's module names, which `apt install` does not find on Raspberry Pi OS. It names the package
    hardware/SETUP.md step 1 installs."""
    import sys

    from firmware_host.devices.panel import load_factory

    monkeypatch.setitem(sys.modules, module, None)  # as on a Pi without the package: the import fails
    monkeypatch.delitem(sys.modules, f"gpiozero.pins.{kind}", raising=False)
    with pytest.raises(PanelError) as caught:
        load_factory(kind)
    assert f"sudo apt install {package}," in str(caught.value), caught.value
    setup = (Path(__file__).resolve().parents[2] / "hardware" / "SETUP.md").read_text(encoding="utf-8")
    assert f" {package} " in setup
