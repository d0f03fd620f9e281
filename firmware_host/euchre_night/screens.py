"""A euchre night's pages on the director's server (``docs/euchre.md``, "On the director's server"),
beside the dashboard's and behind its logins, when the night runs on the club's machine
(``cardtable club dashboard --euchre DIR``). :func:`mount` puts the night's desk
(``desk.py``) on the dashboard's client and hub: the tables' ``hand`` messages go to it, its
seatings and answers go out on it, and these routes join the dashboard's.

Routes:

* ``GET /euchre``: the director's page (a live login, else to ``/login``); ``GET /euchre/events``: its
  stream (``web/stream.py``): the night's view (``views.page_view``) at once and again after every
  change, ``event: expired`` once the login ends; ``GET /api/euchre/state``: the view as JSON;
  ``GET /euchre/standings.json``, ``/euchre/hands.json``, ``/euchre/sheet.html``: the exports now.
  Without a live login: 401 (the page: a redirect to the login) and nothing of the night.
* ``GET /euchre/table/<table>?key=K``: club table ``<table>``'s page (phones); ``.../events?key=K`` its
  stream; ``/api/euchre/table/<table>?key=K`` as JSON: the view with that table's row only. ``K`` is
  the key given to that table only (on its retained seating, ``page``); a live login opens any table's
  page without it. Otherwise 404 and nothing of the night.
* ``POST /api/euchre/call``: the director's call of the round in play, and ``POST /api/euchre/correct``
  (``{"table", "round", "hand", "facts", "why"}``): the director's correction of a hand taken, each
  through the one guard (``web/guard.py``: a live login, our own origin, the login's CSRF token); 409
  with the night's reason when it is refused (nothing journaled), 200 once journaled.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import Callable, Collection
from importlib import resources
from typing import Any

from firmware_host.euchre_night.desk import NightDesk
from firmware_host.euchre_night.views import hands_export, sheet_html, standings_export
from firmware_host.session.journalled import SessionFileError
from firmware_host.web.guard import Refused, guard
from firmware_host.web.screens import LiveScreens

log = logging.getLogger(__name__)

STATIC = {"euchre.js": "text/javascript", "night_view.js": "text/javascript", "sheet.css": "text/css"}


def _static(name: str) -> str:
    return resources.files("firmware_host.euchre_night").joinpath("static", name).read_text(encoding="utf-8")


def mount(dashboard: Any, desk: NightDesk) -> EuchreScreens:
    """Carry ``desk`` on ``dashboard`` (before it serves): its client, its hub, its routes."""
    desk.page_secret = dashboard.devices.derived("euchre-pages")
    desk.connect(dashboard.publish)
    screens = EuchreScreens(desk, dashboard)
    dashboard.hub.taps.append(desk.offer)
    dashboard.hub.workers.append(desk.step)        # the journal's commit waits for the disk: off the loop
    dashboard.hub.tickers.append(screens.tick)
    dashboard.on_connected.append(desk.publish_all)  # the seatings, retained, once more on every connection
    dashboard.app.router.routes.extend(screens.routes())
    return screens


class EuchreScreens(LiveScreens):
    """The pages of one night (see the module's docstring).

    Args:
        desk: the night's desk (connected to the dashboard's broker client by :func:`mount`).
        dashboard: the dashboard whose logins, headers and JSON answers these pages share.
    """

    def __init__(self, desk: NightDesk, dashboard: Any) -> None:
        super().__init__(dashboard, desk.session.lock, STATIC, _static, "euchre")
        self.desk = desk
        self._told = desk.session.version

    def director_message(self) -> Any:
        return self.view()

    def table_message(self, table: str) -> Any:
        return self.table_view(table)

    def tables(self) -> Collection[str]:
        return self.desk.session.night.setup.tables

    def key_ok(self, table: str, key: str | None) -> bool:
        return bool(self.desk.check_key(table, key))

    # -- views ------------------------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        return self.desk.view_now()[1]

    def table_view(self, table: str, whole: dict[str, Any] | None = None) -> dict[str, Any]:
        """The view a table's phone draws: the night's, with that table's row only."""
        v = dict(whole if whole is not None else self.view())
        v["tables"] = [t for t in v["tables"] if t["table"] == table]
        v["previous"] = [t for t in v["previous"] if t["table"] == table]
        v["table"] = table
        return v

    def tick(self) -> None:
        """On the event loop after each batch: when the night changed, every page its view again. The view
        is the one the desk's step made after its commit (``NightDesk.view``), so this never waits for the
        session's lock, which the next commit holds while the disk writes."""
        version, whole, director = self.desk.view
        if version == self._told:
            return
        self._told = version
        if not self.clients:
            return
        text = director.decode()
        texts: dict[str, str] = {}   # one table's view made once, however many pages show it
        for client in list(self.clients):
            if client.table is not None and client.table not in texts:
                texts[client.table] = json.dumps(self.table_view(client.table, whole), separators=(",", ":"))
            self._put(client, text if client.table is None else texts[client.table])

    def routes(self) -> list[Any]:
        from starlette.routing import Route

        return [Route("/euchre", self.page), Route("/euchre/events", self.events),
                Route("/api/euchre/state", self.state),
                Route("/euchre/standings.json", self.export), Route("/euchre/hands.json", self.export),
                Route("/euchre/sheet.html", self.export),
                Route("/euchre/table/{table}", self.table_page),
                Route("/euchre/table/{table}/events", self.table_events),
                Route("/api/euchre/table/{table}", self.table_state),
                Route("/api/euchre/call", self.call, methods=["POST"]),
                Route("/api/euchre/correct", self.correct, methods=["POST"]),
                Route("/api/euchre/substitute", self.substitute, methods=["POST"]),
                Route("/euchre/static/{name}", self.static)]

    # -- the director's -----------------------------------------------------------------------------------

    def _page_html(self, title: str, stream_path: str, csrf: str = "", table: str = "") -> Any:
        text = _static("euchre.html").replace("{{title}}", html.escape(title))
        text = text.replace("{{csrf}}", html.escape(csrf, quote=True)).replace("{{table}}", html.escape(table, quote=True))
        text = text.replace("{{call}}", "" if table else _CALL)
        return self.dash._html(text.replace("{{stream}}", html.escape(stream_path, quote=True)))

    async def page(self, request: Any) -> Any:
        from starlette.responses import RedirectResponse

        s = self.dash._session(request)
        if s is None:
            return RedirectResponse("/login?next=/euchre", 303)
        return self._page_html(self.desk.session.night.setup.name, "/euchre/events", s.csrf)

    async def export(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        if self.dash._session(request) is None:
            return self.dash._json({"error": "login required"}, 401)
        s = self.desk.session
        path = request.url.path
        if path.endswith("sheet.html"):
            # the sheet's style as our own stylesheet, which the dashboard's policy allows (style-src 'self')
            return self.dash._html(await self._locked(lambda: sheet_html(s.night, s.head(), "/euchre/static/sheet.css")))
        make = standings_export if path.endswith("standings.json") else hands_export
        body = await self._locked(lambda: make(s.night, s.head()))
        return JSONResponse(body, headers={**self.dash._headers(),
                                           "Content-Disposition": f'attachment; filename="{path.rsplit("/", 1)[1]}"'})

    async def call(self, request: Any) -> Any:
        return await self._command(request, "euchre call", False,
                                   lambda data, user: self.desk.call(user))

    async def correct(self, request: Any) -> Any:
        return await self._command(request, "euchre correction", True, lambda data, user: self.desk.correct(
            data.get("table"), data.get("round"), data.get("hand"), data.get("facts"), data.get("why"), user))

    async def substitute(self, request: Any) -> Any:
        return await self._command(request, "euchre substitution", True, lambda data, user: self.desk.substitute(
            data.get("player"), data.get("name"), data.get("member", ""), data.get("from_round"), data.get("why"),
            user))

    async def _command(self, request: Any, what: str, needs_object: bool,
                       act: Callable[[dict[str, Any], str], str | None]) -> Any:
        """A director's command: the one request guard, its body a JSON object where ``needs_object``, then
        ``act(body, director)`` on a thread (it commits): 200 done, 409 with the desk's reason it was not,
        503 when the night's file cannot be written, 400 for a body that is not an object."""
        checked = await guard(request, self.dash.sessions, what)
        if isinstance(checked, Refused):
            return self.dash._json({"error": checked.error}, checked.status)
        data = checked.data
        if needs_object and checked.not_an_object:
            return self.dash._json({"error": checked.not_an_object}, 400)
        try:
            why_not = await asyncio.to_thread(act, data if isinstance(data, dict) else {}, str(checked.login.user))
        except SessionFileError as exc:
            return self.dash._json({"error": str(exc)}, 503)
        if why_not:
            return self.dash._json({"error": why_not}, 409)
        return self.dash._json({"ok": True})

    # -- a table's ------------------------------------------------------------------------------------

    async def table_page(self, request: Any) -> Any:
        found = self._table(request)
        if found is None:
            return self.dash._html("<!doctype html><title>Not found</title><p>No such table page.</p>", 404)
        table = found[0]
        key = request.query_params.get("key")
        path = f"/euchre/table/{table}/events" + (f"?key={self.desk.table_key(table)}" if key else "")
        return self._page_html(f"{self.desk.session.night.setup.name}: {table}", path, table=table)


_SEAT_OPTIONS = '<option value="">as taken</option><option value="none">nobody</option>' + "".join(
    f'<option value="{x}">{x}</option>' for x in "NESW")
# each select in its own label (a screen reader names it "Penalty 1", "against"; axe-core's select-name)
_PENALTY_ROW = ('<span class="pen"><label>Penalty {i} <select id="c-pen-clause-{i}" name="pen-clause-{i}"><option value="">none'
                '</option><option value="EU-63">EU-63 renege (law 63)</option><option value="EU-90">EU-90 wrong '
                'number of cards (law 90)</option><option value="EU-50">EU-50 lone hand abandoned (law 50)</option>'
                '</select></label> <label>against <select aria-label="Penalty {i} against" id="c-pen-side-{i}" name="pen-side-{i}"><option value="NS">NS</option>'
                '<option value="EW">EW</option></select></label> <label>points <input id="c-pen-points-{i}" name="pen-points-{i}" type="number" '
                'min="2" max="5" size="2"></label></span> ')
_CALL = ('<p><button type="button" id="call">Call the round</button> '
         '<span id="said" role="status"></span></p>'
         '<form id="correct"><fieldset><legend>Correct a hand</legend>'
         '<label>Table <input id="c-table" name="table" size="9"></label> '
         '<label>Round <input id="c-round" name="round" type="number" min="1" size="3"></label> '
         '<label>Hand <input id="c-hand" name="hand" type="number" min="1" size="3"></label> '
         '<label>Makers <select id="c-makers" name="makers"><option value="">as taken</option>'
         '<option>NS</option><option>EW</option></select></label> '
         '<label>Tricks <input id="c-tricks" name="tricks" type="number" min="0" max="5" size="2"></label> '
         f'<label>Alone <select id="c-alone" name="alone">{_SEAT_OPTIONS}</select></label> '
         '<label>Scores nothing on the hand (law 90, law 50) <select id="c-void" name="void">'
         '<option value="">as taken</option><option value="none">neither side</option>'
         '<option value="NS">NS</option><option value="EW">EW</option><option value="NS EW">both sides</option></select></label><br>'
         '<label>Penalties <select id="c-pen" name="penalties"><option value="">as taken</option>'
         '<option value="none">none</option><option value="below">these:</option></select></label> '
         + _PENALTY_ROW.format(i=1) + _PENALTY_ROW.format(i=2) + '<br>'
         '<label>Why <input id="c-why" name="why" size="30"></label> '
         '<button type="submit" id="c-send">Correct</button> '
         '<span id="c-said" role="status"></span></fieldset></form>'
         '<form id="substitute"><fieldset><legend>A substitute</legend>'
         '<label>For player number <input id="s-player" name="player" type="number" min="1" size="3"></label> '
         '<label>Name <input id="s-name" name="name" size="20" maxlength="60"></label> '
         '<label>Member number <input id="s-member" name="member" size="8" maxlength="20"></label> '
         '<label>From round <input id="s-round" name="from_round" type="number" min="1" size="3"></label> '
         '<label>Why <input id="s-why" name="why" size="30"></label> '
         '<button type="submit" id="s-send">Put the substitute in</button> '
         '<span id="s-said" role="status"></span></fieldset></form>')
