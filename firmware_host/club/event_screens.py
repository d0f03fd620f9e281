"""An event's pages on the director's server (teams, Swiss, individual, sections: ``docs/competitions.md``,
"Pages"), beside the dashboard's and behind its logins, when the event runs on the club's machine
(``cardtable club dashboard --event DIR``). The dashboard's client carries the event's desk
(``events/desk.py``): the tables' ``board`` messages go to it and its seatings and answers go out on it.

Routes:

* ``GET /event``: the director's page (a live login, else to ``/login``); ``GET /event/events``: its
  stream (``web/stream.py``): the director's view (``events/views.director_view``) at once and again
  after every change, ``event: expired`` once the login ends; ``GET /api/event/state``: the view as
  JSON. Without a live login: 401 and nothing of the event.
* ``GET /event/table/<table>?key=K``: club table ``<table>``'s page; ``/event/table/<table>/events?key=K``
  its stream (``views.table_view`` with the answers); ``/api/event/table/<table>?key=K`` as JSON. ``K``
  is the key given to that table only (on its retained seating, ``page``); a live login opens any
  table's page without it. Otherwise 404 and nothing of the event.

* ``POST /api/event/names`` (``{"competitor": N, "name": "team name or empty", "players": ["1021",
  "Jane Visitor"]}``: member numbers looked up in the event's roster, else visitors' names) and
  ``POST /api/event/correct`` (``{"round", "table", "board", "contract", "declarer", "tricks", "why"}``,
  or ``"assigned"`` (North-South's score) in place of the contract): the director's records, through
  the one guard (``web/guard.py``: a live login, our own origin, the login's CSRF token); 409 with the
  event's reason when it refuses one (nothing changes; the refusal is journaled), 200 once journaled.

The next round's draw is made in the same commit as the round's last result, so the update that tells
the pages of that result carries the draw.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import Callable
from importlib import resources
from typing import Any

from firmware_host.events.desk import EventDesk
from firmware_host.events.names import player_of
from firmware_host.session.journalled import SessionFileError
from firmware_host.session.roster import RosterError, roster_of
from firmware_host.web import stream
from firmware_host.web.guard import MAX_BODY, Refused, guard, token_of

log = logging.getLogger(__name__)

BACKLOG = 50
STATIC = {"event.js": "text/javascript"}


def _static(name: str) -> str:
    return resources.files("firmware_host.club").joinpath("static", name).read_text(encoding="utf-8")


class _Client:
    def __init__(self, table: str | None) -> None:
        self.table = table
        self.queue: asyncio.Queue[str] = asyncio.Queue()


class EventScreens:
    """The pages of one event (see the module's docstring).

    Args:
        desk: the event's desk (connected here to the dashboard's broker client).
        dashboard: the dashboard whose logins, headers and JSON answers these pages share.
    """

    def __init__(self, desk: EventDesk, dashboard: Any) -> None:
        self.desk = desk
        self.dash = dashboard
        self.clients: set[_Client] = set()
        self._told = desk.version

    def tick(self) -> None:
        """On the event loop after each batch: when the event changed, every page its whole view again.
        The desk's commit (on the hub's worker thread) holds its lock while the disk writes; this then
        waits for the next tick rather than the disk."""
        if self.desk.version == self._told or not self.clients:
            self._told = self.desk.version
            return
        if not self.desk.lock.acquire(blocking=False):
            return
        try:
            self._told = self.desk.version
            director = None
            for client in list(self.clients):
                if client.table is None:
                    director = director or json.dumps(self.desk.director(), separators=(",", ":"))
                    self._put(client, director)
                else:
                    self._put(client, json.dumps(self.desk.table_message(client.table), separators=(",", ":")))
        finally:
            self.desk.lock.release()

    def _put(self, client: _Client, text: str) -> None:
        if client.queue.qsize() >= BACKLOG:   # fell behind: the stream ends, the browser reconnects afresh
            self.clients.discard(client)
            client.queue.put_nowait("")
        else:
            client.queue.put_nowait(text)

    def routes(self) -> list[Any]:
        from starlette.routing import Route

        return [Route("/event", self.page), Route("/event/events", self.events),
                Route("/api/event/state", self.state),
                Route("/event/table/{table}", self.table_page),
                Route("/event/table/{table}/events", self.table_events),
                Route("/api/event/table/{table}", self.table_state),
                Route("/api/event/names", self.names, methods=["POST"]),
                Route("/api/event/correct", self.correct, methods=["POST"]),
                Route("/event/static/{name}", self.static)]

    async def _locked(self, read: Callable[[], Any]) -> Any:
        def run() -> Any:
            with self.desk.lock:
                return read()
        return await asyncio.to_thread(run)

    async def static(self, request: Any) -> Any:
        from starlette.responses import Response

        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found", 404)
        return Response(_static(name), media_type=STATIC[name], headers=self.dash._headers())

    def _page_html(self, title: str, stream_path: str, csrf: str = "") -> Any:
        text = _static("event.html").replace("{{title}}", html.escape(title))
        text = text.replace("{{forms}}", _static("event_forms.html") if csrf else "")
        text = text.replace("{{csrf}}", html.escape(csrf, quote=True))
        return self.dash._html(text.replace("{{stream}}", html.escape(stream_path, quote=True)))

    async def page(self, request: Any) -> Any:
        from starlette.responses import RedirectResponse

        s = self.dash._session(request)
        if s is None:
            return RedirectResponse("/login", 303)
        return self._page_html(self.desk.session.event.spec.name, "/event/events", s.csrf)

    async def state(self, request: Any) -> Any:
        if self.dash._session(request) is None:
            return self.dash._json({"error": "login required"}, 401)
        return self.dash._json(await self._locked(self.desk.director))

    async def events(self, request: Any) -> Any:
        if self.dash._session(request) is None:
            return self.dash._json({"error": "login required"}, 401)
        token = token_of(request)
        first = json.dumps(await self._locked(self.desk.director), separators=(",", ":"))
        return self._stream(_Client(None), first, lambda: self.dash.sessions.get(token) is not None)

    def _table(self, request: Any) -> tuple[str, Callable[[], bool]] | None:
        """The table of a table's page and how long its stream lives: a live login (as long as it
        lives) or that table's key; None (and a warning) for anything else."""
        table = str(request.path_params["table"])
        if table not in self.desk.session.tables:
            log.warning("event table page for %r refused: no such table", table[:64])
            return None
        if self.dash._session(request) is not None:
            token = token_of(request)
            return table, lambda: self.dash.sessions.get(token) is not None
        if self.desk.check_key(table, request.query_params.get("key")):
            return table, lambda: True
        log.warning("event table page for %r refused: no login and no key or a wrong key", table[:64])
        return None

    async def table_page(self, request: Any) -> Any:
        found = self._table(request)
        if found is None:
            return self.dash._html("<!doctype html><title>Not found</title><p>No such table page.</p>", 404)
        table = found[0]
        key = request.query_params.get("key")
        path = f"/event/table/{table}/events" + (f"?key={self.desk.table_key(table)}" if key else "")
        return self._page_html(f"{self.desk.session.event.spec.name}: {table}", path)

    async def table_state(self, request: Any) -> Any:
        found = self._table(request)
        if found is None:
            return self.dash._json({"error": "no such table page"}, 404)
        return self.dash._json(await self._locked(lambda: self.desk.table_message(found[0])))

    async def table_events(self, request: Any) -> Any:
        found = self._table(request)
        if found is None:
            return self.dash._json({"error": "no such table page"}, 404)
        table, alive = found
        first = json.dumps(await self._locked(lambda: self.desk.table_message(table)), separators=(",", ":"))
        return self._stream(_Client(table), first, alive)

    # -- the director's records ------------------------------------------------------------------------

    async def _checked(self, request: Any, what: str) -> tuple[str, dict[str, Any]] | Any:
        checked = await guard(request, self.dash.sessions, what, MAX_BODY)
        if isinstance(checked, Refused):
            return self.dash._json({"error": checked.error}, checked.status)
        if not isinstance(checked.data, dict):
            why = "the request is too big" if checked.too_big else "the request is not a JSON object"
            return self.dash._json({"error": why}, 400)
        return str(checked.login.user), checked.data

    async def _take(self, rec: dict[str, Any]) -> Any:
        try:
            outcome = await asyncio.to_thread(self.desk.director_record, rec)
        except SessionFileError as exc:
            return self.dash._json({"error": str(exc)}, 503)
        if outcome.status != "taken":
            return self.dash._json({"error": outcome.why or "that is taken already"}, 409)
        return self.dash._json({"ok": True})

    async def names(self, request: Any) -> Any:
        checked = await self._checked(request, "event names")
        if not isinstance(checked, tuple):
            return checked
        user, data = checked
        entries = data.get("players")
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            return self.dash._json({"error": "players is a list of member numbers or names"}, 400)
        try:
            roster = roster_of(self.desk.session.journal.path)
            players = [player_of(roster, e) for e in entries if e.strip()]
        except RosterError as exc:
            return self.dash._json({"error": str(exc)}, 409)
        return await self._take({"type": "names", "competitor": data.get("competitor"),
                                 "name": data.get("name", ""), "players": players, "by": user})

    async def correct(self, request: Any) -> Any:
        checked = await self._checked(request, "event correction")
        if not isinstance(checked, tuple):
            return checked
        user, data = checked
        result = {k: data[k] for k in ("round", "table", "board", "contract", "declarer", "tricks", "assigned")
                  if k in data}
        return await self._take({"type": "correct", "by": user, "why": data.get("why"), "result": result})

    def _stream(self, client: _Client, first: str, alive: Callable[[], bool]) -> Any:
        client.queue.put_nowait(first)
        self.clients.add(client)
        return stream.response(client.queue, alive, lambda: self.clients.discard(client), self.dash._headers())
