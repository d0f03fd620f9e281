"""The standard library's threading HTTP server, bounded: the pages served without the director's server
(the federation's live page, ``federation serve --web``; a euchre night's, ``euchre serve``) answer anyone
who can reach them, most with no login at all.

``ThreadingHTTPServer`` gives every connection a thread and keeps it for as long as the peer stays, sending
nothing or not: an outsider who opened connections and sent nothing held a thread and a file each, until
the process had no file left. Every other file of that process then failed, the federation's journal and
broker connection with it, and a thread that could not start took the whole process down (``federation
serve`` with ``--web``: the page, the service and the broker it started, at systemd's default of 1,024
files). :class:`BoundedHTTPServer` keeps that from happening:

* at most ``most`` connections at once, and at most ``per_address`` from one address (a page polling once a
  second holds one for a moment): a connection beyond either is closed as soon as it is accepted, so the
  connections held never come near the process's limit and one address cannot take every place;
* a connection that sends nothing (or reads nothing) for ``idle`` seconds is closed, so held places are
  given back;
* ``most`` is never more than a quarter of the process's limit on files (:func:`within_files`): a euchre
  night's 400 at a limit of 256 let connections from 25 addresses take every file, and the process then
  died outright ("libgcc_s.so.1 must be installed for pthread_exit to work": a thread could not end).
"""

from __future__ import annotations

import socket
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MOST = 128          # connections at once: far below any process's limit on files (1,024 at the least)
PER_ADDRESS = 16    # from one address: a reader's browser opens a few; a club behind one NAT, some more
IDLE = 10.0         # seconds a connection may send or read nothing before it is closed


def within_files(most: int, limit: int | None = None) -> int:
    """``most``, or a quarter of ``limit`` (the process's soft limit on files when None) if lower: the
    rest are the process's own (its journal, its broker connection, its threads' libraries)."""
    if limit is None:
        import resource
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return most if limit < 0 else max(1, min(most, limit // 4))      # RLIM_INFINITY is -1


class BoundedHTTPServer(ThreadingHTTPServer):
    """A ``ThreadingHTTPServer`` that holds at most ``most`` connections, ``per_address`` from one address,
    each closed after ``idle`` seconds of silence (see the module docstring)."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], *, most: int = MOST,
                 per_address: int = PER_ADDRESS, idle: float = IDLE) -> None:
        self.most, self.per_address, self.idle = within_files(most), per_address, idle
        self._count_lock = threading.Lock()
        self._held: dict[int, str] = {}        # id of an accepted socket -> its peer's address
        self._by_address: Counter[str] = Counter()
        self.turned_away = 0                    # connections closed at once (over a bound)
        super().__init__(address, handler)

    @property
    def held(self) -> int:
        """Connections being served now."""
        with self._count_lock:
            return len(self._held)

    def verify_request(self, request: Any, client_address: Any) -> bool:
        peer = str(client_address[0]) if isinstance(client_address, tuple) else str(client_address)
        with self._count_lock:
            if len(self._held) >= self.most or self._by_address[peer] >= self.per_address:
                self.turned_away += 1
                return False
            self._held[id(request)] = peer
            self._by_address[peer] += 1
        if isinstance(request, socket.socket):
            request.settimeout(self.idle)
        return True

    def shutdown_request(self, request: Any) -> None:
        with self._count_lock:
            peer = self._held.pop(id(request), None)
            if peer is not None:
                self._by_address[peer] -= 1
                if not self._by_address[peer]:
                    del self._by_address[peer]
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A peer that went quiet (the idle timeout) or away is no error to print."""
        import sys

        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)
