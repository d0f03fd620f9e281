"""web.bounded: the bounds themselves (the attacks they answer: tests/federation/test_page_attacks.py)."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler

import pytest

from firmware_host.web.bounded import BoundedHTTPServer


class _Ok(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def test_a_connection_that_sends_nothing_is_closed_and_its_place_given_back() -> None:
    server = BoundedHTTPServer(("127.0.0.1", 0), _Ok, most=2, per_address=1, idle=0.2)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        quiet = socket.create_connection(("127.0.0.1", port))
        quiet.settimeout(30)
        assert quiet.recv(1) == b""                  # closed by the server once idle, not by us
        again = socket.create_connection(("127.0.0.1", port))
        again.settimeout(30)
        again.sendall(b"GET / HTTP/1.0\r\n\r\n")
        assert again.recv(64).startswith(b"HTTP/1.0 200")    # the place came back
        again.close()
        quiet.close()
    finally:
        server.shutdown()
        server.server_close()


def test_the_bound_is_at_most_a_quarter_of_the_process_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """A euchre night's 400 places at a limit of 256 files: idle connections from 25 addresses took every
    file and the process died ("libgcc_s.so.1 must be installed for pthread_exit to work")."""
    import resource

    monkeypatch.setattr(resource, "getrlimit", lambda which: (256, 4096))
    server = BoundedHTTPServer(("127.0.0.1", 0), _Ok, most=400)
    try:
        assert server.most == 64
    finally:
        server.server_close()
    monkeypatch.setattr(resource, "getrlimit", lambda which: (1024, 4096))
    server = BoundedHTTPServer(("127.0.0.1", 0), _Ok, most=400)
    try:
        assert server.most == 256
    finally:
        server.server_close()
