"""A shoe pulled out while the host was writing to it: the port is dropped with the reason "device lost"
(the write's error), not the words of a reconnect the host asked for. Under load the host's next write (an
acknowledgement, a heartbeat) can meet the unplugged device before the reader does, and the table then
said "port closed for a reconnect" for an unplug (tests/shoe/test_pty.py saw it on a busy machine)."""

from __future__ import annotations

import threading
import time
from typing import Any

from firmware_host.shoe.port import PortWorker


class _Port(PortWorker):
    """A port worker whose opening writes a greeting, on a loopback port whose writes fail."""

    def __init__(self) -> None:
        self.lost: list[str] = []
        self.gone = threading.Event()
        super().__init__("loop://", lambda ev: None, backoff=(5.0, 5.0))

    def _opened(self, now: float) -> Any:
        return [], b"hello"

    def _lost(self, now: float, reason: str) -> list[Any]:
        self.lost.append(reason)
        self.gone.set()
        return []

    def _open(self) -> bool:
        ok = super()._open()
        if ok and self.opens == 1:
            def write(data: bytes) -> int:
                raise OSError(5, "Input/output error")
            self._ser.write = write
        return ok


def test_a_write_to_a_device_that_went_away_is_reported_as_lost() -> None:
    port = _Port()
    port.start()
    try:
        deadline = time.monotonic() + 5
        while not port.is_open and time.monotonic() < deadline:
            time.sleep(0.01)
        port._write(b"ack")      # the reader thread's own write in real use; here the failure it meets
        assert port.gone.wait(5)
    finally:
        port.stop()
    assert port.lost and port.lost[0].startswith("device lost: write failed:"), port.lost
    assert "Input/output error" in port.lost[0]


def test_a_reconnect_asked_for_says_so() -> None:
    port = _Port()
    port.start()
    try:
        port.reconnect()
        assert port.gone.wait(5)
    finally:
        port.stop()
    assert port.lost[0] == "port closed for a reconnect"
