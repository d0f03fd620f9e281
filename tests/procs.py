"""Processes found by what their command line names (``/proc``): a test's own folder, a config file."""

from __future__ import annotations

import os


def running_with(marker: str) -> list[int]:
    """Processes other than this one whose command line names ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmd:
            found.append(int(entry))
    return found
