"""Live pages of one kind of session on the director's server: what every such page does the same way.

A kind of session (an event of teams or Swiss, a euchre night) mounts its pages on the dashboard: the
director's page behind the dashboard's login, and a page per table opened by a live login or by that
table's own key. :class:`LiveScreens` holds what they share: the streams' clients and their backlog, reads
under the session's lock off the event loop, the static files, the director's state and stream, and a
table's page, state and stream. A subclass gives the views (:meth:`director_message`,
:meth:`table_message`), its tables and their keys (:meth:`tables`, :meth:`key_ok`), and its own routes,
page and requests.
"""

from __future__ import annotations

import asyncio
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Hashable, Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from firmware_host.web import stream
from firmware_host.web.guard import token_of

log = logging.getLogger(__name__)

BACKLOG = 50          # messages a page may fall behind before its stream ends (the browser reconnects afresh)
TABLE_STREAMS = 16    # streams kept open at once for one table's page: a 17th ends the oldest (``LiveScreens.join``)


class PageClient:
    """One open stream: the director's (``table`` None) or a table's."""

    def __init__(self, table: str | None) -> None:
        self.table = table
        self.queue: asyncio.Queue[str] = asyncio.Queue()


class Stream(Protocol):
    """What :func:`join_stream` reads of a page's stream: its table (None: the director's) and its queue."""

    @property
    def table(self) -> Hashable | None: ...

    @property
    def queue(self) -> asyncio.Queue[str]: ...


S = TypeVar("S", bound=Stream)


def join_stream(clients: set[S], order: list[S], client: S) -> None:
    """A page's stream joins ``clients``, those sent updates. A table's page has only its key, which every
    player who sat there holds: at most ``TABLE_STREAMS`` streams of one table are kept, the oldest ended
    first (sent ``""``: its browser reconnects), so one key cannot hold the server's streams, and the view
    each update sends each of them, without end. ``order`` is the tables' streams, oldest first; both are
    changed in place. Every kind of session's pages (these, the duplicate session's) keep streams so."""
    if client.table is not None:
        same = [c for c in order if c.table == client.table and c in clients]
        for old in same[:max(0, len(same) - TABLE_STREAMS + 1)]:
            clients.discard(old)
            old.queue.put_nowait("")
        order[:] = [c for c in order if c in clients]
        order.append(client)
    clients.add(client)


def compact(view: Any) -> str:
    return json.dumps(view, separators=(",", ":"))


class LiveScreens(ABC):
    """The shared part of a kind of session's pages (see the module's docstring).

    Args:
        dashboard: the dashboard whose logins, headers and JSON answers the pages share.
        lock: the session's lock (reads of its state are made holding it, on a worker thread).
        static: the static files a page may load (name -> media type).
        read_static: reads one of them.
        what: the kind's name in the log ("event", "euchre").
    """

    def __init__(self, dashboard: Any, lock: AbstractContextManager[Any], static: Mapping[str, str],
                 read_static: Callable[[str], str], what: str) -> None:
        self.dash = dashboard
        self.lock = lock
        self.static_files = dict(static)
        self.read_static = read_static
        self.what = what
        self.clients: set[PageClient] = set()
        self._order: list[PageClient] = []   # the tables' pages' streams, oldest first (``join``)

    # -- what a kind gives ---------------------------------------------------------------------------

    @abstractmethod
    def director_message(self) -> Any:
        """The director's whole view, as the page draws it (read holding the session's lock)."""

    @abstractmethod
    def table_message(self, table: str) -> Any:
        """The view a table's page draws (read holding the session's lock)."""

    @abstractmethod
    def tables(self) -> Collection[str]:
        """The tables a page may be opened for."""

    @abstractmethod
    def key_ok(self, table: str, key: str | None) -> bool:
        """Whether ``key`` opens ``table``'s page (no login needed then)."""

    # -- shared --------------------------------------------------------------------------------------

    def join(self, client: PageClient) -> None:
        """A page's stream joins those sent updates, at most ``TABLE_STREAMS`` of one table
        (:func:`join_stream`)."""
        join_stream(self.clients, self._order, client)

    def _put(self, client: PageClient, text: str) -> None:
        if client.queue.qsize() >= BACKLOG:   # fell behind: the stream ends, the browser reconnects afresh
            self.clients.discard(client)
            client.queue.put_nowait("")
        else:
            client.queue.put_nowait(text)

    async def _locked(self, read: Callable[[], Any]) -> Any:
        def run() -> Any:
            with self.lock:
                return read()
        return await asyncio.to_thread(run)

    def _stream(self, client: PageClient, first: str, alive: Callable[[], bool]) -> Any:
        client.queue.put_nowait(first)
        self.join(client)
        return stream.response(client.queue, alive, lambda: self.clients.discard(client), self.dash._headers())

    async def static(self, request: Any) -> Any:
        from starlette.responses import Response

        name = request.path_params["name"]
        if name not in self.static_files:
            return Response("not found", 404)
        return Response(self.read_static(name), media_type=self.static_files[name], headers=self.dash._headers())

    async def state(self, request: Any) -> Any:
        if self.dash._session(request) is None:
            return self.dash._json({"error": "login required"}, 401)
        return self.dash._json(await self._locked(self.director_message))

    async def events(self, request: Any) -> Any:
        if self.dash._session(request) is None:
            return self.dash._json({"error": "login required"}, 401)
        token = token_of(request)
        first = compact(await self._locked(self.director_message))
        return self._stream(PageClient(None), first, lambda: self.dash.sessions.get(token) is not None)

    def _table(self, request: Any) -> tuple[str, Callable[[], bool]] | None:
        """The table of a table's page and how long its stream lives: a live login (as long as it
        lives) or that table's key; None (and a warning) for anything else."""
        table = str(request.path_params["table"])
        if table not in self.tables():
            log.warning("%s table page for %r refused: no such table", self.what, table[:64])
            return None
        if self.dash._session(request) is not None:
            token = token_of(request)
            return table, lambda: self.dash.sessions.get(token) is not None
        if self.key_ok(table, request.query_params.get("key")):
            return table, lambda: True
        log.warning("%s table page for %r refused: no login and no key or a wrong key", self.what, table[:64])
        return None

    async def table_state(self, request: Any) -> Any:
        found = self._table(request)
        if found is None:
            return self.dash._json({"error": "no such table page"}, 404)
        return self.dash._json(await self._locked(lambda: self.table_message(found[0])))

    async def table_events(self, request: Any) -> Any:
        found = self._table(request)
        if found is None:
            return self.dash._json({"error": "no such table page"}, 404)
        table, alive = found
        first = compact(await self._locked(lambda: self.table_message(table)))
        return self._stream(PageClient(table), first, alive)
