"""Idle, slow and large requests against the two uvicorn servers we ship (the director's dashboard,
``club.dashboard.serve``; the broadcast's page, ``broadcast.page.serve``), through their own ``serve``.

Before ``web.bounded_asgi``, a connection that sent nothing, or a header byte every few seconds, was held
for ever: a few hundred of them took every file of the dashboard's process (the tables' journals then
failed to open), and a login form's body was read whole whatever its size. Small bounds are set here so
the attacks need a handful of connections.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, StreamingResponse
from starlette.routing import Route

from firmware_host.broadcast import page as broadcast_page
from firmware_host.club import dashboard
from firmware_host.web import bounded_asgi


async def _form(request: Request) -> PlainTextResponse:
    body = await request.body()              # as the login forms read theirs
    return PlainTextResponse(f"got {len(body)}")


async def _events(request: Request) -> StreamingResponse:
    async def stream() -> AsyncIterator[bytes]:
        yield b"data: first\n\n"
        await asyncio.sleep(1.0)             # longer than the request bound below: an answer is not cut
        yield b"data: second\n\n"
    return StreamingResponse(stream(), media_type="text/event-stream")


APP = SimpleNamespace(app=Starlette(routes=[Route("/", _form, methods=["GET", "POST"]),
                                            Route("/events", _events)]))
SERVERS: dict[str, Callable[[Any, str, int], Any]] = {
    "dashboard": lambda app, host, port: dashboard.serve(app, host, port),
    "broadcast": lambda app, host, port: broadcast_page.serve(app, host, port),
}


@pytest.fixture(params=sorted(SERVERS))
def server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    yield from _serving(request.param, monkeypatch)


@pytest.fixture
def dashboard_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    yield from _serving("dashboard", monkeypatch)


def _serving(which: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setattr(bounded_asgi, "REQUEST_SECONDS", 0.3)
    monkeypatch.setattr(bounded_asgi, "PER_ADDRESS", 2)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = SERVERS[which](APP, "127.0.0.1", port)
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    ready = threading.Event()
    while not srv.started and th.is_alive():
        ready.wait(0.02)
    yield port
    srv.should_exit = True
    th.join(10)


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    c = socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(source, 0))
    return c


def _closed(c: socket.socket) -> bool:
    """True when the server closed the connection without an answer (False: it answered or timed out)."""
    try:
        return c.recv(64) == b""
    except (TimeoutError, ConnectionResetError) as exc:
        return isinstance(exc, ConnectionResetError)


def _answer(c: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        more = c.recv(4096)
        if not more:
            break
        data += more
    return data


def test_a_connection_that_sends_nothing_is_closed(server: int) -> None:
    with _connect(server) as quiet:
        assert _closed(quiet)


def test_headers_trickled_a_byte_at_a_time_are_closed(server: int) -> None:
    with _connect(server) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        slow.sendall(b"X")                   # slowloris: more is coming, but never the blank line
        assert _closed(slow)


def test_a_body_trickled_slowly_is_closed(server: int) -> None:
    with _connect(server) as slow:
        slow.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nusername=")
        assert _closed(slow)


def test_one_address_holds_at_most_its_share_and_another_is_still_served(dashboard_server: int) -> None:
    """The dashboard's (the spectators' page has no bound of one address's own: the next test)."""
    server = dashboard_server
    held = [_connect(server), _connect(server)]
    extra = _connect(server)
    try:
        assert _closed(extra)                # closed at once, before the request bound
        with _connect(server, "127.0.0.2") as other:
            other.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert _answer(other).startswith(b"HTTP/1.1 200")
    finally:
        for c in [*held, extra]:
            c.close()


def test_the_spectators_page_serves_a_whole_hall_behind_one_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """The spectators in one club's hall share one public address: held to the dashboard's 16 from one
    address, the 17th spectator's page was closed at once (and `cardtable bench broadcast`'s 200 readers
    from one machine with it). The page's own bound is its whole room; idle connections still give their
    place back within the request bound."""
    monkeypatch.setattr(bounded_asgi, "REQUEST_SECONDS", 0.3)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = broadcast_page.serve(APP, "127.0.0.1", port)  # type: ignore[arg-type]
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    while not srv.started and th.is_alive():
        threading.Event().wait(0.02)
    held: list[socket.socket] = []
    try:
        for _ in range(40):
            c = _connect(port)
            c.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            held.append(c)
        for c in held:                       # every one of them is answered and kept (an event stream)
            assert _answer(c).startswith(b"HTTP/1.1 200")
        with _connect(port) as quiet:        # an idle one still gives its place back
            assert _closed(quiet)
    finally:
        for c in held:
            c.close()
        srv.should_exit = True
        th.join(10)


def test_a_huge_body_is_refused_before_it_is_read(server: int) -> None:
    with _connect(server) as c:
        c.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\nusername=a")
        assert _answer(c).startswith(b"HTTP/1.1 413")
    with _connect(server) as c:
        c.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
        assert _answer(c).startswith(b"HTTP/1.1 411")
    with _connect(server) as c:
        c.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        assert b"got 5" in c.recv(4096) + c.recv(4096)


def test_an_event_stream_asked_for_is_not_cut_by_the_request_bound(server: int) -> None:
    with _connect(server) as c:
        c.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        got = b""
        while b"second" not in got:
            more = c.recv(4096)
            assert more, f"the stream was cut: {got!r}"
            got += more


def test_the_bound_on_connections_is_a_quarter_of_the_files_when_that_is_lower() -> None:
    assert bounded_asgi.most_for(256) == 64
    assert bounded_asgi.most_for(1 << 20) == bounded_asgi.MOST
    assert bounded_asgi.most_for(-1) == bounded_asgi.MOST


def test_the_reverse_proxy_is_not_held_to_one_address_share() -> None:
    cfg = bounded_asgi.config(APP.app, "127.0.0.1", 0, forwarded_allow_ips="10.0.0.5, 10.0.0.6")
    assert cfg.bounds.trusted == {"10.0.0.5", "10.0.0.6"} and cfg.proxy_headers
