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
  or ``"assigned"`` (North-South's score), or ``"adjusted"`` (``"A+/A-"``) in place of the contract): the
  director's records, through the one guard (``web/guard.py``: a live login, our own origin, the login's
  CSRF token); 409 with the event's reason when it refuses one (nothing changes; the refusal is
  journaled), 200 once journaled.

The next round's draw is made in the same commit as the round's last result, so the update that tells
the pages of that result carries the draw.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import Collection
from importlib import resources
from typing import Any

from firmware_host.events.desk import EventDesk
from firmware_host.events.names import player_of, section_record
from firmware_host.session.journalled import SessionFileError
from firmware_host.session.roster import RosterError, roster_of
from firmware_host.web.guard import MAX_BODY, Refused, guard
from firmware_host.web.screens import LiveScreens

log = logging.getLogger(__name__)

STATIC = {"event.js": "text/javascript"}


def _static(name: str) -> str:
    return resources.files("firmware_host.club").joinpath("static", name).read_text(encoding="utf-8")


class EventScreens(LiveScreens):
    """The pages of one event (see the module's docstring).

    Args:
        desk: the event's desk (connected here to the dashboard's broker client).
        dashboard: the dashboard whose logins, headers and JSON answers these pages share.
    """

    def __init__(self, desk: EventDesk, dashboard: Any) -> None:
        super().__init__(dashboard, desk.lock, STATIC, _static, "event")
        self.desk = desk
        self._told = desk.version

    def director_message(self) -> Any:
        return self.desk.director()

    def table_message(self, table: str) -> Any:
        return self.desk.table_message(table)

    def tables(self) -> Collection[str]:
        return self.desk.session.tables

    def key_ok(self, table: str, key: str | None) -> bool:
        return bool(self.desk.check_key(table, key))

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
            texts: dict[str, str] = {}   # one table's view made once, however many pages show it
            for client in list(self.clients):
                if client.table is None:
                    director = director or json.dumps(self.desk.director(), separators=(",", ":"))
                    self._put(client, director)
                else:
                    if client.table not in texts:
                        texts[client.table] = json.dumps(self.desk.table_message(client.table), separators=(",", ":"))
                    self._put(client, texts[client.table])
        finally:
            self.desk.lock.release()

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

    def _page_html(self, title: str, stream_path: str, csrf: str = "") -> Any:
        text = _static("event.html").replace("{{title}}", html.escape(title))
        text = text.replace("{{forms}}", _static("event_forms.html") if csrf else "")
        text = text.replace("{{csrf}}", html.escape(csrf, quote=True))
        return self.dash._html(text.replace("{{stream}}", html.escape(stream_path, quote=True)))

    async def page(self, request: Any) -> Any:
        from starlette.responses import RedirectResponse

        s = self.dash._session(request)
        if s is None:
            return RedirectResponse("/login?next=/event", 303)
        return self._page_html(self.desk.session.event.spec.name, "/event/events", s.csrf)

    async def table_page(self, request: Any) -> Any:
        found = self._table(request)
        if found is None:
            return self.dash._html("<!doctype html><title>Not found</title><p>No such table page.</p>", 404)
        table = found[0]
        key = request.query_params.get("key")
        path = f"/event/table/{table}/events" + (f"?key={self.desk.table_key(table)}" if key else "")
        return self._page_html(f"{self.desk.session.event.spec.name}: {table}", path)

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
        who: dict[str, Any] = {"competitor": data.get("competitor")}
        if "section" in data:       # a pair of an event of sections is named by section and pair
            who = section_record(self.desk.session.event.spec, data.get("section"), data.get("pair"))
        return await self._take({"type": "names", **who, "name": data.get("name", ""), "players": players,
                                 "by": user})

    async def correct(self, request: Any) -> Any:
        checked = await self._checked(request, "event correction")
        if not isinstance(checked, tuple):
            return checked
        user, data = checked
        result = {k: data[k] for k in ("round", "table", "board", "contract", "declarer", "tricks", "assigned",
                                             "adjusted")
                  if k in data}
        return await self._take({"type": "correct", "by": user, "why": data.get("why"), "result": result})
