"""uvicorn, bounded: the director's dashboard (``club dashboard``, with its session, event and euchre pages)
and the broadcast's page (``broadcast live``) answer anyone who can reach them, most of it before a login.

uvicorn gives a connection a file and keeps it until the peer leaves or a request has been answered and
the keep-alive timeout passes. A connection that never sends a whole request has no timeout at all: an
outsider who opened connections and sent nothing (or a header byte every few seconds, slowloris) held a
file each for as long as he liked. At the process's limit on files (1,024 under systemd; 256 when run as
tested) the page answered no one, every other file of the process failed with it (the session's journal,
the heads file) and asyncio printed a traceback for each refused accept, a hundred thousand lines a
minute. A request body was read whole before any size was checked, so one POST of a few gigabytes to the
login form took the machine's memory. :func:`config` builds the ``uvicorn.Config`` both servers use:

* at most ``most`` connections at once (by default ``MOST``, or a quarter of the process's limit on files
  when that is lower: the journal, the broker and the tables' pages need the rest) and ``per_address`` from one address (the reverse proxy's addresses,
  ``forwarded_allow_ips``, excepted: every client comes from there); a connection beyond either is closed
  as soon as it is made, so the files held never come near the process's limit;
* a request (its headers and its body) must arrive whole within ``request_seconds`` of the connection or
  of the previous answer, or the connection is closed: slowloris and an idle connection give their place
  back (an event stream, once asked for, is an answer being sent and is not cut);
* a body with no ``Content-Length`` (chunked) is refused with 411 and one longer than ``max_body`` with 413
  before any of it is read (every form and JSON body of ours is a few kilobytes);
* headers longer than h11's 16 KiB together are refused with 400 (h11's own bound, kept);
* at most ``BACKLOG`` connections taken from the kernel at one go: asyncio accepts up to the listen
  backlog (uvicorn's 2,048) in one burst before the first is closed, and a burst of a few hundred connects
  reached the process's limit on its own;
* no WebSocket (we serve none), and uvicorn's keep-alive timeout of 5 s between requests is kept.

Bounds per server (the class made by :func:`config`), counted on the server's one event loop.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from firmware_host.web.bounded import within_files

MOST = 256              # connections at once: every phone's and director's stream (and at most a quarter
                        # of the process's limit on files, :func:`most_for`)
PER_ADDRESS = 16        # from one address: a director's tabs, a household behind one NAT
REQUEST_SECONDS = 10.0  # for a whole request to arrive (a phone on the club's Wi-Fi sends a form in far less)
MAX_BODY = 64 * 1024    # bytes of a request's body: every form and JSON body we take is a few kilobytes
BACKLOG = 64            # connections accepted at one go (asyncio accepts up to the backlog before any is closed)


@dataclass
class Bounds:
    """One server's bounds and what it holds now (read by tests and ``/health``-like reports)."""

    most: int = MOST
    per_address: int = PER_ADDRESS
    request_seconds: float = REQUEST_SECONDS
    trusted: frozenset[str] = frozenset()
    held: int = 0
    by_address: Counter[str] = field(default_factory=Counter)
    turned_away: int = 0
    timed_out: int = 0


def protocol(bounds: Bounds) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with ``bounds`` kept (see the module docstring)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    waiting = (h11.IDLE, h11.SEND_BODY)      # the peer's request is not all here yet

    class Bounded(H11Protocol):
        _peer: str | None = None
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else "?"
            limited = peer not in bounds.trusted
            if bounds.held >= bounds.most or (limited and bounds.by_address[peer] >= bounds.per_address):
                bounds.turned_away += 1
                transport.close()
                return
            self._peer = peer
            bounds.held += 1
            bounds.by_address[peer] += 1
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._peer is not None:
                bounds.held -= 1
                bounds.by_address[self._peer] -= 1
                if not bounds.by_address[self._peer]:
                    del bounds.by_address[self._peer]
                self._peer = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state not in waiting:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.conn.their_state in waiting and not self.transport.is_closing():
                self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._timer = self.loop.call_later(bounds.request_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if self.conn.their_state in waiting and not self.transport.is_closing():
                bounds.timed_out += 1
                self.transport.close()

    return Bounded


def limit_body(app: Any, max_body: int = MAX_BODY) -> Any:
    """``app`` behind a refusal of bodies it would otherwise read whole: chunked (411) or declared longer
    than ``max_body`` (413), answered before any of the body is read."""

    async def bounded(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            status, text = 0, b""
            if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
                status, text = 411, b"a request body needs a Content-Length\n"
            else:
                length = headers.get(b"content-length", b"0")
                if not length.isdigit() or int(length) > max_body:
                    status, text = 413, f"a request body may be at most {max_body} bytes\n".encode()
            if status:
                await send({"type": "http.response.start", "status": status,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                        (b"content-length", str(len(text)).encode()),
                                        (b"connection", b"close")]})
                await send({"type": "http.response.body", "body": text})
                return
        await app(scope, receive, send)

    return bounded


def most_for(limit: int | None = None) -> int:
    """``MOST``, or a quarter of ``limit`` (the process's soft limit on files when None) if lower."""
    return within_files(MOST, limit)


def config(app: Any, host: str, port: int, *, most: int | None = None, per_address: int | None = None,
           request_seconds: float | None = None, max_body: int | None = None,
           forwarded_allow_ips: str | None = None, **uvicorn: Any) -> Any:
    """A ``uvicorn.Config`` serving ``app`` with the bounds of the module docstring (None: this module's
    constants, read at the call; ``uvicorn``: the other settings, passed on). Its ``bounds`` attribute is
    the :class:`Bounds` its connections are counted in."""
    import uvicorn as _uvicorn

    bounds = Bounds(most_for() if most is None else most, PER_ADDRESS if per_address is None else per_address,
                    REQUEST_SECONDS if request_seconds is None else request_seconds,
                    _addresses(forwarded_allow_ips))
    cfg = _uvicorn.Config(limit_body(app, MAX_BODY if max_body is None else max_body), host=host, port=port, http=protocol(bounds), ws="none",
                          backlog=BACKLOG, proxy_headers=forwarded_allow_ips is not None,
                          forwarded_allow_ips=forwarded_allow_ips, **uvicorn)
    cfg.bounds = bounds  # type: ignore[attr-defined]
    return cfg


def _addresses(allowed: str | None) -> frozenset[str]:
    items: Iterable[str] = (allowed or "").split(",")
    return frozenset(a.strip() for a in items if a.strip())
