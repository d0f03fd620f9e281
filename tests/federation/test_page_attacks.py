"""Attacks on the federation's live page (``federation serve --web``), which answers anyone.

Attack p11: connections opened and left idle, no login needed. The standard library's threading server
gave each a thread and a file for as long as the peer stayed; in a process of 64 files the 65th left the
process with none (the service's journal and broker connection live there too) and a thread that could
not start took the whole process down. The page now holds a bounded number of connections, fewer from
one address (``web.bounded``).
"""

from __future__ import annotations

import select
import socket
import time
import urllib.request
from collections.abc import Iterator

import pytest

from firmware_host.federation.page import FieldPage
from firmware_host.web.bounded import MOST, PER_ADDRESS


@pytest.fixture
def page() -> Iterator[FieldPage]:
    served = FieldPage(lambda: {"boards": [], "rankings": {}, "taken": {}, "closed": False}, "sim5").start()
    yield served
    served.stop()


def _closed_by_server(socks: list[socket.socket], want: int, deadline: float = 60.0) -> int:
    """How many of ``socks`` the server closed (each reads as end of file), waiting until ``want`` are."""
    closed: set[socket.socket] = set()
    end = time.monotonic() + deadline
    while len(closed) < want and time.monotonic() < end:
        ready, _, _ = select.select([s for s in socks if s not in closed], [], [], 0.5)
        for s in ready:
            if s.recv(1) == b"":
                closed.add(s)
    return len(closed)


def test_idle_connections_from_one_address_hold_a_few_places_and_the_page_still_answers(page: FieldPage) -> None:
    attacker = [socket.create_connection(("127.0.0.1", page.port)) for _ in range(PER_ADDRESS + 40)]
    try:
        # every connection beyond the address's places is closed at once (before: all held, each a thread)
        assert _closed_by_server(attacker, 40) >= 40
        # a reader from another address is answered while the attacker's places are held
        reader = socket.socket()
        reader.bind(("127.0.0.2", 0))
        reader.settimeout(30)
        reader.connect(("127.0.0.1", page.port))
        reader.sendall(b"GET /standings.json HTTP/1.0\r\nHost: x\r\n\r\n")
        got = b""
        while chunk := reader.recv(4096):
            got += chunk
        reader.close()
        assert got.startswith(b"HTTP/1.0 200"), got[:80]
    finally:
        for s in attacker:
            s.close()
    assert urllib.request.urlopen(f"http://127.0.0.1:{page.port}/standings.json", timeout=30).status == 200


def test_the_page_holds_at_most_its_places_from_many_addresses(page: FieldPage) -> None:
    socks = []
    try:
        for n in range(MOST // PER_ADDRESS + 2):              # more addresses than the places allow
            for _ in range(PER_ADDRESS):
                s = socket.socket()
                s.bind((f"127.0.1.{n + 1}", 0))
                s.connect(("127.0.0.1", page.port))
                socks.append(s)
        # those beyond the places closed at once (more may be, once idle for longer than the server allows)
        assert _closed_by_server(socks, len(socks) - MOST) >= len(socks) - MOST
        assert page.server.held <= MOST
    finally:
        for s in socks:
            s.close()
