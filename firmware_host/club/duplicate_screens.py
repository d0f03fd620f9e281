"""The duplicate session's screens on the dashboard: the director's page and each table's page for its
players, live over server-sent events. Their own routes and static files, beside the dashboard's.

Routes (``docs/session.md``, "Screens"):

* ``GET /duplicate``: the director's page (a live login, as the dashboard's). ``GET /duplicate/events``:
  a snapshot (``views.director_view``), then after each change an update with the travellers of the
  boards that changed, the rankings, progress, fouled-board calls and refusals.
* ``POST /api/duplicate/round`` (``{"round": N}``: "move for round N"), ``/api/duplicate/adjust``
  (``{"board", "ns", "ew", "kind": "artificial"|"assigned", "ns_value", "ew_value", "why"}``),
  ``/api/duplicate/correct`` (``{"key", "contract", "declarer", "tricks", "lead", "why"}``),
  ``/api/duplicate/cancel`` (``{"key", "why"}``), ``/api/duplicate/regroup`` (``{"key", "group"}``): the
  director's records, each with the session's CSRF token and from our own origin; 409 with the
  session's reason when it refuses one (nothing changes), 200 when it is journaled and scored.
* ``POST /api/duplicate/players`` (``{"pair": "3 NS", "players": ["1021", "Jane Visitor"]}``): the director
  names a pair's players (member numbers looked up in the session's roster, else visitors by name);
  ``POST /api/duplicate/table/<table>/players?key=K`` (``{"side": "ns"|"ew", "players": [...], "confirm":
  false|true}``): the players at that table name themselves: without ``confirm`` the names are only
  shown back, with it they are journaled (``club_players``; ``docs/session.md``, "Players").
* ``GET /duplicate/table/<table>?key=K``: the players' page of club table ``<table>`` (``K`` is the key
  the session gives that table only, ``SessionDesk.table_key``); ``GET /duplicate/table/<table>/events?key=K``
  its stream: the table's seating, its seated pairs' standing, and the travellers of the boards those
  pairs may see (``views.table_view``); when the pairs seated there change, a new snapshot. Beside them,
  ``game``: "At the table", the game as the table's own screen shows it, the ruling waiting or last
  given with its law, the lamps lit, and whether the table's device is online (``_game``), sent again
  (``{"type": "game"}``) whenever it changes.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from importlib import resources
from typing import Any

from firmware_host.club.club_players import name_players
from firmware_host.club.words import lamp_words
from firmware_host.duplicate import forms
from firmware_host.duplicate.views import director_view, table_view, traveller
from firmware_host.session.duplicate_session import Outcome, SessionDesk
from firmware_host.web import screens, stream
from firmware_host.web.guard import MAX_BODY, Refused, guard, not_an_object, own_origin, read_body, token_of

log = logging.getLogger(__name__)

BACKLOG = 200
STATIC = {"duplicate.js": "text/javascript", "table.js": "text/javascript", "dupview.js": "text/javascript",
          "duplicate.css": "text/css"}


def _static(name: str) -> str:
    return resources.files("firmware_host.club").joinpath("static", name).read_text(encoding="utf-8")


def _line(rec: dict[str, Any]) -> str:
    """The traveller line a record names ("5/3 NS/4 EW"), or "" (a result and an adjusted score name it by
    board and pairs, the other forms by their ``key``)."""
    if rec.get("key"):
        return str(rec["key"])
    if rec.get("type") not in ("result", "adjust") or not all(rec.get(k) for k in ("board", "ns", "ew")):
        return ""
    return f"{rec['board']}/{rec['ns']}/{rec['ew']}"


class _Client:
    def __init__(self, table: int | None) -> None:
        self.table = table
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.seen_version = -1
        self.seated: tuple[str, str, int] | None = None
        self.visible: set[int] = set()
        self.game: dict[str, Any] = {}


class DuplicateScreens:
    """The screens of one session (see the module docstring).

    Args:
        desk: the session on the link.
        dashboard: the dashboard whose logins, headers and JSON answers these pages share.
        clock: wall-clock seconds (the pages are told ``now``).
    """

    def __init__(self, desk: SessionDesk, dashboard: Any, clock: Callable[[], float]) -> None:
        self.desk = desk
        self.dash = dashboard
        self.clock = clock
        self.clients: set[_Client] = set()
        self._order: list[_Client] = []   # the tables' pages' streams, oldest first (``join``)
        self._changed: set[int] = set()
        self._dirty = False
        desk.listeners.append(self._on_change)

    # -- the link's side ----------------------------------------------------------------------------

    def _on_change(self, changed: set[int], outcomes: list[Outcome]) -> None:
        self._changed |= changed
        self._dirty = True

    def _game(self, table: int) -> dict[str, Any]:
        """The game at table ``table`` as its own screen shows it (the club's latest status of the
        duplicate table seated there: ``ClubState``), in parts (``table_view.game_parts``), with the
        ruling waiting or last given and its lamps lit (``TableView.players_ruling``, the terminal's
        words), and whether the table's device is online; {} when no table there has sent a status.
        Nothing in it is a card of an open deal: the table hid them before they left it."""
        state = getattr(self.dash, "state", None)
        for view in list(state.tables.values()) if state is not None else ():
            if view.board_at is not None and view.board_at[1] == table:
                return {**view.game_parts, "ruling": view.players_ruling(), "lamps": lamp_words(view.lamps),
                        "online": view.online}
        return {}

    def tick(self) -> None:
        """Send each page what changed for it (on the event loop; the desk's own tick, which commits to
        the journal, runs on the desk's own thread (``SessionDesk.run``), and while it holds the session this waits for
        the next tick rather than the disk); and each table's page the game at its table, as its screen
        shows it."""
        for client in list(self.clients):   # the game at the table, as its screen shows it
            if client.table is not None and client.seated is not None:
                lines = self._game(client.table)
                if lines != client.game:
                    client.game = lines
                    self._put(client, self._text({"type": "game", "game": lines}))
        if not self._dirty or not self.clients:
            self._dirty = False
            self._changed.clear()
            return
        if not self.desk.lock.acquire(blocking=False):
            return
        changed, self._changed, self._dirty = self._changed, set(), False
        session = self.desk.session
        try:
            scored = {b.number: b for b in session.scored().boards}
            boards = {n: traveller(session, scored[n]) for n in sorted(changed) if n in scored}
            director = None
            views: dict[int, dict[str, Any]] = {}   # one table's view made once, however many pages show it
            for client in list(self.clients):
                if client.table is None:
                    if director is None:
                        view = director_view(session, boards=())
                        view["boards"] = list(boards.values())
                        director = self._text({"type": "update", **view})
                    self._put(client, director)
                else:
                    if client.table not in views:
                        views[client.table] = table_view(session, client.table)
                    self._put(client, self._text(self._table_update(client, boards, dict(views[client.table]))))
        finally:
            self.desk.lock.release()

    def _table_update(self, client: _Client, boards: dict[int, dict[str, Any]],
                      view: dict[str, Any]) -> dict[str, Any]:
        assert client.table is not None
        seated = (view["ns"], view["ew"], view["round"])
        visible = {t["board"] for t in view["travellers"]}
        view["game"] = client.game = self._game(client.table)
        if seated != client.seated:
            client.seated, client.visible = seated, visible
            return {"type": "snapshot", **view}
        shown = [t for t in view["travellers"] if t["board"] in boards]
        hide = sorted(client.visible - visible)
        client.visible = visible
        view["travellers"] = shown
        return {"type": "update", "hide": hide, **view}

    def join(self, client: _Client) -> None:
        """A page's stream joins those sent updates, at most ``TABLE_STREAMS`` of one table
        (``web/screens.py:join_stream``, as every kind of session's pages): a phone opening a thousand streams
        with a table's key cannot make every update, on the event loop and under the session's lock, a
        thousand views long."""
        screens.join_stream(self.clients, self._order, client)

    def _put(self, client: _Client, text: str) -> None:
        if client.queue.qsize() >= BACKLOG:
            self.clients.discard(client)
            client.queue.put_nowait("")
            log.warning("a duplicate page fell %d updates behind and was sent a fresh snapshot", BACKLOG)
        else:
            client.queue.put_nowait(text)

    def _text(self, obj: dict[str, Any]) -> str:
        return json.dumps({**obj, "now": self.clock()}, separators=(",", ":"))

    # -- routes -------------------------------------------------------------------------------------

    async def _locked(self, read: Callable[[], Any]) -> Any:
        """``read()`` under the session's lock, on a worker thread: the desk's commit holds the lock while
        it waits for the disk, and the event loop must not wait with it."""
        def run() -> Any:
            with self.desk.lock:
                return read()
        return await asyncio.to_thread(run)

    def routes(self) -> list[Any]:
        from starlette.routing import Route

        return [Route("/duplicate", self.page), Route("/duplicate/events", self.events),
                Route("/api/duplicate/state", self.state),
                Route("/api/duplicate/round", self.round, methods=["POST"]),
                Route("/api/duplicate/adjust", self.adjust, methods=["POST"]),
                Route("/api/duplicate/correct", self.correct, methods=["POST"]),
                Route("/api/duplicate/cancel", self.cancel, methods=["POST"]),
                Route("/api/duplicate/regroup", self.regroup, methods=["POST"]),
                Route("/api/duplicate/players", self.players, methods=["POST"]),
                Route("/api/duplicate/table/{table}/players", self.table_players, methods=["POST"]),
                Route("/api/duplicate/enter", self.enter, methods=["POST"]),
                Route("/api/duplicate/uncall", self.uncall, methods=["POST"]),
                Route("/api/duplicate/resolve", self.resolve, methods=["POST"]),
                Route("/api/duplicate/table/{table}/enter", self.table_enter, methods=["POST"]),
                Route("/duplicate/export/{fmt}", self.export),
                Route("/duplicate/table/{table}", self.table_page),
                Route("/duplicate/table/{table}/events", self.table_events),
                Route("/api/duplicate/table/{table}", self.table_state),
                Route("/duplicate/static/{name}", self.static)]

    async def static(self, request: Any) -> Any:
        from starlette.responses import Response

        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found", 404)
        return Response(_static(name), media_type=STATIC[name], headers=self.dash._headers())

    async def page(self, request: Any) -> Any:
        from html import escape

        from starlette.responses import RedirectResponse

        s = self.dash._session(request)
        if s is None:
            return RedirectResponse("/login?next=/duplicate", 303)
        text = _static("duplicate.html").replace("{{csrf}}", escape(s.csrf, quote=True))
        return self.dash._html(text.replace("{{user}}", escape(s.user)))

    async def state(self, request: Any) -> Any:
        if self.dash._session(request) is None:
            return self.dash._json({"error": "login required"}, 401)
        return self.dash._json(await self._locked(lambda: director_view(self.desk.session)))

    async def events(self, request: Any) -> Any:
        if self.dash._session(request) is None:
            return self.dash._json({"error": "login required"}, 401)
        token = token_of(request)
        first = self._text({"type": "snapshot", **await self._locked(lambda: director_view(self.desk.session))})
        return self._stream(_Client(None), first, lambda: self.dash.sessions.get(token) is not None)

    def _table_id(self, request: Any) -> tuple[str, int] | None:
        tid = request.path_params["table"]
        number = self.desk.session.state.number_of.get(tid)
        if number is None or not self.desk.check_key(tid, request.query_params.get("key")):
            log.warning("table page for %r refused: unknown table or wrong key", str(tid)[:64])
            return None
        return tid, number

    async def table_page(self, request: Any) -> Any:
        from html import escape

        found = self._table_id(request)
        if found is None:
            return self.dash._html("<!doctype html><title>Not found</title><p>No such table page.</p>", 404)
        tid, _ = found
        text = _static("table.html").replace("{{table}}", escape(tid))
        return self.dash._html(text)

    async def table_state(self, request: Any) -> Any:
        found = self._table_id(request)
        if found is None:
            return self.dash._json({"error": "no such table page"}, 404)
        view = await self._locked(lambda: table_view(self.desk.session, found[1]))
        return self.dash._json({**view, "game": self._game(found[1])})

    async def table_events(self, request: Any) -> Any:
        found = self._table_id(request)
        if found is None:
            return self.dash._json({"error": "no such table page"}, 404)
        client = _Client(found[1])
        view = await self._locked(lambda: table_view(self.desk.session, found[1]))
        client.seated = (view["ns"], view["ew"], view["round"])
        client.visible = {t["board"] for t in view["travellers"]}
        view["game"] = client.game = self._game(found[1])
        return self._stream(client, self._text({"type": "snapshot", **view}), lambda: True)

    def _stream(self, client: _Client, first: str, alive: Callable[[], bool]) -> Any:
        client.queue.put_nowait(first)
        self.join(client)
        return stream.response(client.queue, alive, lambda: self.clients.discard(client), self.dash._headers())

    # -- the director's records ------------------------------------------------------------------------

    async def _checked(self, request: Any, what: str) -> tuple[str, dict[str, Any]] | Any:
        checked = await guard(request, self.dash.sessions, what, MAX_BODY)
        if isinstance(checked, Refused):
            return self.dash._json({"error": checked.error}, checked.status)
        s, data = checked.login, checked.data
        if checked.not_an_object:  # journaled: the refusal is the record (issue 25)
            return await self._unreadable(what, s.user, checked.body, checked.not_an_object)
        return s.user, data

    async def _unreadable(self, what: str, user: str, body: bytes, why: str) -> Any:
        """A body that is no JSON object of at most ``MAX_BODY`` bytes (not UTF-8, a lone surrogate, a
        list...): answered 400 with the reader's true reason (``Passed.not_an_object``), and journaled as
        a refusal (nothing is lost), the same for the director's forms and a table's page."""
        log.warning("%s by %s refused: %s", what, user, why)
        record = {"type": "form", "form": what, "by": user, "payload": body[:2000].decode("utf-8", "replace")}
        said = await asyncio.to_thread(self.desk.refuse_form, record, why)   # a commit: off the loop
        self._dirty = True   # the director's page lists it at once
        return self.dash._json({"error": said}, 400)

    async def _refuse_form(self, kind: str, user: str, data: dict[str, Any], why: str) -> Any:
        """A form that cannot be read: journaled as a refusal (nothing is lost; the commit on a worker
        thread, off the loop), answered 409."""
        log.warning("%s by %s refused: %s", kind, user, why)
        payload = json.dumps(data, ensure_ascii=False, default=str)[:2000]
        record = {"type": "form", "form": kind, "by": user, "payload": payload}
        said = await asyncio.to_thread(self.desk.refuse_form, record, why)
        self._dirty = True   # the pages list it at once
        self.tick()
        return self.dash._json({"error": said}, 409)

    def _mitchell(self) -> bool:
        return any(p.direction for p in self.desk.session.state.movement.pairs())

    async def _record(self, request: Any, kind: str, fields: tuple[str, ...]) -> Any:
        checked = await self._checked(request, kind)
        if not isinstance(checked, tuple):
            return checked
        user, data = checked
        try:
            if kind == "adjust":
                rec = forms.adjust(data, user, self._mitchell())
            elif kind == "correct":
                rec = forms.correct(data, user, self._mitchell())
            elif kind == "regroup":
                rec = forms.regroup(data, user, self._mitchell())
            elif kind == "enter":   # read under the session's lock, which a commit holds: off the loop
                rec = await self._locked(lambda: forms.enter(data, user, self.desk.session.state))
            else:
                rec = {"type": kind, "by": user, **{k: data[k] for k in fields if k in data}}
                if isinstance(rec.get("key"), str):   # anything else: the session's checks answer it
                    rec["key"] = forms.read_key(rec["key"], self._mitchell())
        except forms.FormError as exc:
            return await self._refuse_form(kind, user, data, str(exc))
        return await self._submit(rec, kind, user)

    async def _submit(self, rec: dict[str, Any], kind: str, user: str) -> Any:
        outcome = await asyncio.to_thread(self.desk.director, rec)   # the journal's commit: off the loop
        self.tick()
        if outcome.status == "repeat" and kind == "enter":   # the same line entered again as it stands
            log.info("%s by %s: line %s is in already, as entered", kind, user, _line(rec))
            return self.dash._json({"ok": True, "already": True, "version": self.desk.session.version,
                                    "key": _line(rec)})
        if outcome.status != "taken":
            log.warning("%s by %s refused: %s", kind, user, outcome.why)
            return self.dash._json({"error": outcome.why or "already done"}, 409)
        log.info("director %s: %s %s", user, kind, {k: v for k, v in rec.items() if k not in ("type", "by")})
        return self.dash._json({"ok": True, "version": self.desk.session.version, "key": _line(rec)})

    async def round(self, request: Any) -> Any:
        return await self._record(request, "round", ("round",))

    async def uncall(self, request: Any) -> Any:
        return await self._record(request, "uncall", ("round",))

    async def adjust(self, request: Any) -> Any:
        return await self._record(request, "adjust", ())

    async def correct(self, request: Any) -> Any:
        return await self._record(request, "correct", ("key", "contract", "declarer", "tricks", "lead", "why"))

    async def cancel(self, request: Any) -> Any:
        return await self._record(request, "cancel", ("key", "why", "then"))

    async def regroup(self, request: Any) -> Any:
        return await self._record(request, "regroup", ("key", "group"))

    async def enter(self, request: Any) -> Any:
        return await self._record(request, "enter", ())

    async def resolve(self, request: Any) -> Any:
        return await self._record(request, "resolve", ("key", "keep", "why"))

    async def table_enter(self, request: Any) -> Any:
        """A result entered on a table's own page (as a Bridgemate's): the table's key in ``X-Table-Key``
        (a page of another site cannot send it), from our own origin; only the table's own lines."""
        tid = request.path_params["table"]
        number = self.desk.session.state.number_of.get(tid)
        if number is None or not self.desk.check_key(tid, request.headers.get("x-table-key")):
            log.warning("result entry for table %r refused: unknown table or wrong key", str(tid)[:64])
            return self.dash._json({"error": "no such table page"}, 404)
        if not own_origin(request):
            log.warning("result entry for table %s refused: not from our own origin (Origin %r, Referer %r)", tid,
                        str(request.headers.get("origin"))[:200], str(request.headers.get("referer"))[:200])
            return self.dash._json({"error": "cross-origin request"}, 403)
        body, data, refused = await read_body(request, MAX_BODY)
        user = f"{tid}'s page"
        if not isinstance(data, dict):   # as the director's forms answer it: 400, the reader's reason
            return await self._unreadable("enter", user, body, not_an_object(body, data, refused, MAX_BODY))
        try:
            rec = await self._locked(lambda: forms.enter(data, user, self.desk.session.state, table=tid))
        except forms.FormError as exc:
            return await self._refuse_form("enter", user, data, str(exc))
        rec["page"] = tid
        return await self._submit(rec, "enter", user)

    async def export(self, request: Any) -> Any:
        """A results file for the director to download (``results.export``; waits for the analysis)."""
        from starlette.responses import Response

        from firmware_host.duplicate.results.export import SUFFIX, ExportError
        from firmware_host.duplicate.results.export import export as make

        if self.dash._session(request) is None:
            return self.dash._json({"error": "login required"}, 401)
        fmt = request.path_params["fmt"]
        if fmt not in SUFFIX:
            return self.dash._json({"error": f"the format is pbn, usebio or html, not {fmt[:20]!r}"}, 404)

        def made() -> bytes:
            self.desk.session.all_analysis(60.0)   # waited for outside the lock: the tables' results go on
            with self.desk.lock:
                return make(self.desk.session, fmt, analysis_timeout=0.0)

        try:
            data = await asyncio.to_thread(made)
        except ExportError as exc:
            return self.dash._json({"error": str(exc)}, 409)
        name = f"results{SUFFIX[fmt]}"
        media = {"pbn": "application/x-pbn", "usebio": "application/xml", "html": "text/html"}[fmt]
        return Response(data, media_type=media, headers={
            **self.dash._headers(), "Content-Disposition": f'attachment; filename="{name}"'})

    # -- the players named (issue 29; the rules in ``club_players``) -----------------------------------

    async def players(self, request: Any) -> Any:
        checked = await self._checked(request, "players")
        if not isinstance(checked, tuple):
            return checked
        user, data = checked
        status, answer = await asyncio.to_thread(name_players, self.desk, data, by=user)  # a commit: off the loop
        self.tick()
        return self.dash._json(answer, status)

    async def table_players(self, request: Any) -> Any:
        found = self._table_id(request)
        if found is None:
            return self.dash._json({"error": "no such table page"}, 404)
        if not own_origin(request):
            log.warning("players for table %s refused: not from our own origin (Origin %r, Referer %r)", found,
                        str(request.headers.get("origin"))[:200], str(request.headers.get("referer"))[:200])
            return self.dash._json({"error": "cross-origin request"}, 403)
        _, data, _ = await read_body(request, MAX_BODY)
        if not isinstance(data, dict):
            return self.dash._json({"error": "the request is not a JSON object"}, 400)
        # naming players is a commit to the session's journal: on a worker thread, off the loop
        status, answer = await asyncio.to_thread(name_players, self.desk, data, table=found)
        self.tick()
        return self.dash._json(answer, status)
