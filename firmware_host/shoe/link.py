"""``ShoeLink``: the shoe protocol over a serial port (see ``port.PortWorker`` and ``session``).

Usage::

    link = ShoeLink("/dev/serial/by-id/usb-FTDI_TTL232R-3V3_FT1234-if00-port0", queue.put)
    link.start()
    link.send(StartDeal(Seat.N, (1,) * 13, pack="A"))
    ...
    link.stop()

``on_event`` is called from the reader thread with every shoe message exactly once and in order
(``CardOut``, ``DealBegan``, ``DealFinished``, ``PackLoaded``, ``Jam``, ``Empty``, ``ButtonPressed``,
``ShoeError``, ``Reply``; protocol 1.2: ``BoardBegan``, ``CardRejected``, ``BoardFinished``), with
``Pong`` when a ``Ping`` is answered, with ``LinkStatus`` when the link goes online or offline, and with
``ShoeRestarted`` when the shoe comes back with a new boot id (before any message of the new boot).
Hello and heartbeats are link business and are not passed on. A board is dealt with
``link.send(boards.deal_board(...))`` and followed with ``boards.BoardTracker``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from firmware_host.shoe import messages as m
from firmware_host.shoe.port import PortWorker, Result
from firmware_host.shoe.session import ShoeSession

_LINK_ONLY = (m.Hello, m.Heartbeat)


class ShoeLink(PortWorker):
    """The host end of the shoe protocol.

    Args:
        url: serial port or pyserial URL.
        on_event: receives ``ShoeMessage``s and ``LinkStatus``es, from the reader thread.
        clock: monotonic seconds (inject a fake for tests of the timers).
        offline_after: seconds of silence before "offline" is reported (the shoe beats every 0.5 s).
        auto_ack: acknowledge each message as soon as ``on_event`` has it (tools without a journal);
            a table passes False and calls ``acknowledge`` after its journal commit.
        **kwargs: passed to ``PortWorker`` (``baudrate``, ``backoff``, ``read_timeout``).
    """

    name = "shoe"

    def __init__(self, url: str, on_event: Callable[[m.ShoeEvent], None], *,
                 clock: Callable[[], float] = time.monotonic, offline_after: float = 1.5,
                 auto_ack: bool = True, **kwargs: Any) -> None:
        super().__init__(url, on_event, clock=clock, **kwargs)
        self.session = ShoeSession(offline_after=offline_after)
        self.auto_ack = auto_ack

    @property
    def online(self) -> bool:
        return self.session.online

    @property
    def caught_up(self) -> bool:
        """Online and up to date with what the shoe had sent at the handshake (``ShoeSession.caught_up``)."""
        return self.session.caught_up

    @property
    def delivered(self) -> int:
        """The number of the last message delivered (0: none yet)."""
        return self.session.expected - 1

    @property
    def can_deal_boards(self) -> bool | None:
        """Whether the shoe deals boards (protocol 1.2 with the board capability); None until its first
        HELLO. A host that sends a DEAL_BOARD to a shoe that cannot hears "this shoe cannot deal boards"
        from ``boards.BoardTracker`` (a 1.1 shoe answers REPLY status 4)."""
        from firmware_host.shoe.boards import can_deal_boards

        return can_deal_boards(self.session.shoe)

    def counters(self) -> dict[str, Any]:
        """Frames dropped by kind, duplicates, resend requests, reconnects."""
        return {**self.session.counters(), "opens": self.opens}

    def acknowledge(self, upto: int, boot_id: int | None = None) -> None:
        """From any thread: every message up to ``upto`` (of shoe boot ``boot_id``, when given) is
        committed; the shoe may forget them. A number from an earlier boot of the shoe is ignored."""
        with self._lock:
            if boot_id is not None and boot_id != self.session.boot_id:
                return
            data = self.session.acknowledge(upto)
            if data and self._ser is not None:
                self._write(data)

    def resume(self, boot_id: int, committed: int) -> None:
        """Before ``start``: the journal already holds messages up to ``committed`` of boot ``boot_id``."""
        with self._lock:
            self.session.resume(boot_id, committed)

    @property
    def boot_id(self) -> int | None:
        return self.session.boot_id

    def _opened(self, now: float) -> Result:
        return [], self.session.connection_made(now)

    def _received(self, data: bytes, now: float) -> Result:
        events, out = self.session.receive(data, now)
        if self.auto_ack:
            out += self.session.acknowledge(self.session.expected - 1)
        return [e for e in events if not isinstance(e, _LINK_ONLY)], out

    def _tick(self, now: float) -> Result:
        return self.session.tick(now)

    def _lost(self, now: float, reason: str) -> list[Any]:
        return list(self.session.connection_lost(now, reason))

    def _command(self, command: m.Command, now: float) -> tuple[m.Command, bytes, list[Any]]:
        cmd, data = self.session.command(command, now)
        return cmd, data, []
