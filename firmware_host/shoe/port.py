"""A serial port kept open in a reader thread: reconnect with backoff, commands from any thread.

``PortWorker`` is the thin shell around a sans-I/O protocol object; ``ShoeLink`` and ``ScannerLink``
subclass it and supply ``_opened``, ``_received``, ``_tick``, ``_lost`` and ``_command``. The reader
thread only reads, feeds the protocol object, writes what it returns and calls ``on_event``.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from firmware_host.shoe import messages as m

log = logging.getLogger(__name__)

Result = tuple[list[Any], bytes]


def describe_open_error(url: str, exc: BaseException) -> str:
    """One sentence saying why ``url`` could not be opened (no traceback)."""
    text = str(exc)
    cause = getattr(exc, "errno", None)
    if cause == errno.ENOENT or "No such file" in text or "could not open port" in text and \
            not url.startswith(("socket://", "loop://", "rfc2217://")) and not os.path.exists(url):
        return f"serial port {url} does not exist (is the shoe plugged in? check the port setting)"
    if cause == errno.EACCES or "Permission denied" in text:
        return f"no permission to open serial port {url} (add the user to the 'dialout' group)"
    if cause == errno.EBUSY or "busy" in text.lower():
        return f"serial port {url} is in use by another program"
    return f"cannot open serial port {url}: {text}"


class PortWorker:
    """Owns the port and the reader thread.

    Args:
        url: anything ``serial.serial_for_url`` accepts: ``/dev/ttyUSB0``, ``/dev/serial/by-id/...``,
            a pty path, ``loop://``, ``socket://host:port``.
        on_event: called from the reader thread for every event, in order.
        clock: monotonic seconds.
        baudrate: line speed (ignored by pty, loop:// and socket://).
        backoff: first and largest wait between reopen attempts, seconds.
    """

    name = "port"

    def __init__(self, url: str, on_event: Callable[[Any], None], *, clock: Callable[[], float] = time.monotonic,
                 baudrate: int = 115200, backoff: tuple[float, float] = (0.05, 2.0),
                 read_timeout: float = 0.1) -> None:
        self.url = url
        self.on_event = on_event
        self.clock = clock
        self.baudrate = baudrate
        self.backoff = backoff
        self.read_timeout = read_timeout
        self._ser: Any = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._reopen = threading.Event()
        self._reopen_reason = "port closed for a reconnect"   # or why a write found the device gone
        self._outbox: deque[Any] = deque()
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None
        self.opens = 0

    # --- public -----------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the reader thread; it opens the port (and keeps reopening it) by itself."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"{self.name}-reader", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        self._interrupt()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._close()

    def reconnect(self) -> None:
        """Close the port and open it again (as after an unplug), from any thread."""
        self._reopen_reason = "port closed for a reconnect"
        self._reopen.set()
        self._interrupt()

    def send(self, command: m.Command) -> m.Command:
        """Send a command from any thread; returns it with its command number filled in."""
        with self._lock:
            cmd, data, events = self._command(command, self.clock())
            if events:
                self._outbox.extend(events)
            if data and self._ser is not None:
                self._write(data)
        if events:
            self._interrupt()
        return cmd

    @property
    def is_open(self) -> bool:
        return self._ser is not None

    # --- hooks ------------------------------------------------------------------------------------

    def _opened(self, now: float) -> Result:
        return [], b""

    def _received(self, data: bytes, now: float) -> Result:
        return [], b""

    def _tick(self, now: float) -> Result:
        return [], b""

    def _lost(self, now: float, reason: str) -> list[Any]:
        return []

    def _command(self, command: m.Command, now: float) -> tuple[m.Command, bytes, list[Any]]:
        return command, b"", []

    # --- the thread -------------------------------------------------------------------------------

    def _interrupt(self) -> None:
        self._wake.set()
        ser = self._ser
        if ser is not None:
            try:
                ser.cancel_read()
            except Exception:  # noqa: BLE001 - a port closing under us: the loop notices
                pass

    def _deliver(self) -> None:
        """Hand queued events to ``on_event``, oldest first (reader thread only)."""
        while self._outbox:
            ev = self._outbox.popleft()
            try:
                self.on_event(ev)
            except Exception as exc:  # the message may name a card of an open deal: never logged
                log.error("%s: the on_event handler failed on a %s (%s)", self.name, type(ev).__name__,
                          type(exc).__name__)

    def _write(self, data: bytes) -> None:
        try:
            self._ser.write(data)
        except Exception as exc:  # noqa: BLE001 - any failure here means the device went away
            log.debug("%s: write failed: %s", self.name, exc)
            self._reopen_reason = f"device lost: write failed: {exc}"
            self._reopen.set()

    def _open(self) -> bool:
        import serial

        try:
            ser = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=self.read_timeout,
                                        write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as exc:
            msg = describe_open_error(self.url, exc)
            if msg != self.last_error:      # once per distinct error, at WARNING (journalctl shows it)
                self.last_error = msg
                if not self.opens:          # the host hears it as a LinkStatus and says it
                    self._outbox.append(m.LinkStatus(False, msg))
                    self._deliver()
                else:
                    log.warning("%s", msg)
            return False
        self.last_error = None
        self.opens += 1
        with self._lock:
            self._ser = ser
            events, data = self._opened(self.clock())
            self._outbox.extend(events)
            if data:
                self._write(data)
        self._deliver()
        return True

    def _close(self) -> None:
        with self._lock:
            ser, self._ser = self._ser, None
        if ser is not None:
            try:
                ser.close()
            except Exception:  # noqa: BLE001
                pass

    def _drop(self, reason: str) -> None:
        self._close()
        with self._lock:
            self._outbox.extend(self._lost(self.clock(), reason))
        self._deliver()

    def _run(self) -> None:
        import serial

        delay = self.backoff[0]
        while not self._stop.is_set():
            if self._ser is None:
                if self._open():
                    delay = self.backoff[0]
                    continue
                self._wake.clear()
                self._wake.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                self._deliver()
                continue
            if self._reopen.is_set():
                self._reopen.clear()
                reason, self._reopen_reason = self._reopen_reason, "port closed for a reconnect"
                self._drop(reason)
                continue
            try:
                data = self._ser.read(1)
                if data:
                    waiting = self._ser.in_waiting
                    if waiting:
                        data += self._ser.read(waiting)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                if not self._stop.is_set():
                    self._drop(f"device lost: {exc}")
                continue
            with self._lock:
                now = self.clock()
                events, out = self._received(data, now) if data else ([], b"")
                more, out2 = self._tick(now)
                self._outbox.extend(events)
                self._outbox.extend(more)
                out += out2
                if out and self._ser is not None:
                    self._write(out)
            self._deliver()
