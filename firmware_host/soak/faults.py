"""The world failing around the table: each fault acts from outside the ``cardtable run`` process.

* ``stall``: another process takes SQLite's write lock on the journal and holds it (``BEGIN IMMEDIATE``)
  a few seconds, which the table's busy timeout waits out; ``lock``: the same past that timeout
  (``schedule.BUSY_TIMEOUT``), so the table's commits really fail, it holds every input, and journals a
  ``{"journal": "recovered", "failed_commits": n}`` note once it can write again.
* ``disk_full``: the data folder is a small tmpfs of its own; a filler file takes every free byte, then
  goes. Mounting needs root (CAP_SYS_ADMIN); ``SmallDisk.mount`` says why when it cannot, and the soak
  then leaves full-disk faults out and says so.
* ``kill`` and ``unplug`` are done by the driver (SIGKILL to the process; the virtual shoe's cable), and so
  are ``command`` (the dashboard's) and ``bad_line`` (on the director's input).

``Physical`` keeps the moments a device taken away came back, so the driver judges only once the table
has had the time to notice every outage and its end (``settled``).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)


SETTLE = 4.0  # seconds for the table to notice a device's outage and its end (the shoe's link says offline
#              after 1.5 s of silence and retries its port up to every 2 s)


class Physical:
    """When the world was last put right: the end of the latest outage, unplug or lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.restored = 0.0

    def back(self, at: float | None = None) -> None:
        with self._lock:
            self.restored = max(self.restored, time.monotonic() if at is None else at)

    def settled(self, now: float | None = None) -> bool:
        """Whether every outage ended at least ``SETTLE`` seconds ago."""
        with self._lock:
            return (time.monotonic() if now is None else now) >= self.restored + SETTLE


class Outage:
    """Takes a device away for a while; outages that overlap make one longer outage (the device comes
    back when the last of them ends), so a device is never stopped or started twice."""

    def __init__(self, down: Callable[[], None], up: Callable[[], None], physical: Physical | None = None) -> None:
        self.down, self.up = down, up
        self.physical = physical
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
                    if self.physical is not None:
                        self.physical.back()


def hold_write_lock(db: Path, seconds: float, stop: threading.Event, physical: Physical | None = None,
                    held: Callable[[], None] | None = None, until: Callable[[], bool] | None = None,
                    longest: float = 30.0) -> bool:
    """Hold the journal's write lock for ``seconds`` (or until ``stop``), as another process would;
    returns whether it was held. ``held`` is called once the lock is taken; with ``until``, the lock is
    held on past ``seconds`` until ``until()`` is true (at most ``longest`` seconds in all).

    Raises:
        sqlite3.Error: the lock could not be taken (within 30 s) or given back.
    """
    conn = sqlite3.connect(db, timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        if held is not None:
            held()
        t0 = time.monotonic()
        stop.wait(seconds)
        while until is not None and not until() and not stop.is_set() and time.monotonic() - t0 < longest:
            stop.wait(0.05)
        conn.execute("ROLLBACK")
        return True
    finally:
        conn.close()
        if physical is not None:
            physical.back()


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
