"""The world failing around the table: each fault acts from outside the ``cardtable run`` process.

* ``stall``: another process takes SQLite's write lock on the journal and holds it (``BEGIN IMMEDIATE``).
* ``disk_full``: the data folder is a small tmpfs of its own; a filler file takes every free byte, then
  goes. Mounting needs root (CAP_SYS_ADMIN); ``SmallDisk.mount`` says why when it cannot, and the soak
  then leaves full-disk faults out and says so.
* ``kill`` and ``unplug`` are done by the driver (SIGKILL to the process; the virtual shoe's cable).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)


class Outage:
    """Takes a device away for a while; outages that overlap make one longer outage (the device comes
    back when the last of them ends), so a device is never stopped or started twice."""

    def __init__(self, down: Callable[[], None], up: Callable[[], None]) -> None:
        self.down, self.up = down, up
        self._lock = threading.Lock()
        self._depth = 0

    def __call__(self, seconds: float, stop: threading.Event) -> None:
        with self._lock:
            self._depth += 1
            if self._depth == 1:
                self.down()
        try:
            stop.wait(seconds)
        finally:
            with self._lock:
                self._depth -= 1
                if self._depth == 0:
                    self.up()


def hold_write_lock(db: Path, seconds: float, stop: threading.Event) -> None:
    """Hold the journal's write lock for ``seconds`` (or until ``stop``), as another process would."""
    conn = sqlite3.connect(db, timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        stop.wait(seconds)
        conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        log.warning("journal stall not applied: %s", exc)
    finally:
        conn.close()


class SmallDisk:
    """A tmpfs of ``size_mb`` at ``path`` for the table's data folder."""

    def __init__(self, path: Path, size_mb: int = 96) -> None:
        self.path = path
        self.size_mb = size_mb
        self.mounted = False

    def mount(self) -> str | None:
        """Mount it; returns None, or why a full disk cannot be simulated here."""
        self.path.mkdir(parents=True, exist_ok=True)
        if os.geteuid() != 0:
            return "full-disk faults need root (a tmpfs of its own for the data folder); not run"
        p = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size_mb}m,mode=0755", "tmpfs",
                            str(self.path)], capture_output=True, text=True)
        if p.returncode != 0:
            return f"full-disk faults not run: cannot mount a tmpfs ({p.stderr.strip() or p.returncode})"
        self.mounted = True
        return None

    def unmount(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True)
            self.mounted = False

    def fill(self, seconds: float, stop: threading.Event) -> int:
        """Take every free byte for ``seconds``; returns the bytes taken."""
        filler = self.path / f"filler-{threading.get_ident()}.bin"
        taken = 0
        chunk = b"\0" * (1 << 20)
        try:
            with open(filler, "wb", buffering=0) as out:
                while True:
                    try:
                        taken += out.write(chunk)
                    except OSError as exc:
                        if exc.errno != errno.ENOSPC:
                            raise
                        break
                # the last partial megabyte
                for size in (65536, 4096, 512):
                    while True:
                        try:
                            taken += out.write(chunk[:size])
                        except OSError:
                            break
            stop.wait(seconds)
        finally:
            with contextlib.suppress(OSError):
                filler.unlink()
        return taken
