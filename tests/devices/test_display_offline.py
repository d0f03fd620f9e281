"""The display says why a device is offline (issue 21): the camera's own reason on the panel, not only in
the log."""

from __future__ import annotations

import io

from rich.console import Console

from firmware_host.devices.display import TerminalDisplay


def _shown(display: TerminalDisplay) -> str:
    out = Console(file=io.StringIO(), width=80, record=True)
    out.print(display._render())
    return out.export_text()


def test_the_panel_names_why_each_device_is_offline() -> None:
    display = TerminalDisplay(Console(file=io.StringIO(), width=80, force_terminal=True), live=True)
    try:
        display.status({"phase": "dealing", "lamps": {"camera_offline": True},
                        "offline": {"camera": "picamera2 is not installed (apt install python3-picamera2 on a Pi)",
                                    "panel": "pin factory 'lgpio' cannot start (No module named 'lgpio')"}})
        text = _shown(display)
        assert "CAMERA OFFLINE: picamera2 is not installed" in text
        assert "PANEL OFFLINE: pin factory 'lgpio' cannot start" in text
        assert all(len(line) <= 80 for line in text.splitlines())
        display.status({"phase": "dealing", "lamps": {}, "offline": {}})
        assert "OFFLINE" not in _shown(display)
    finally:
        display.close()
