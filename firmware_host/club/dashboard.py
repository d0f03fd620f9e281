"""The director's dashboard: a small ASGI app (Starlette) fed by the broker, live over server-sent events.

Routes: ``GET /login`` and ``POST /login`` (form), ``POST /logout``, ``GET /`` (the page), ``GET /events``
(server-sent events: a snapshot, then batches of updates), ``GET /api/state`` (the snapshot as JSON),
``POST /api/ack`` (the director acknowledges a table: JSON ``{"table": id}``, header ``X-CSRF-Token``),
``POST /api/result`` (the director enters a hand's result: ``{"table": id, "result": {fields}}``, the
fields of a ``result`` event for the table's game, checked by ``club.results``).
Every route but the login page needs a live session; the session cookie is HttpOnly and SameSite=Strict,
and a command must also carry the session's CSRF token and come from our own origin.

MQTT messages arrive on paho's thread into a deque; one asyncio task drains it every ``tick`` seconds,
applies the messages to ``ClubState`` and sends each browser one batch (the latest view of each table
that changed, with the times of the table events folded in, so the page can measure its own delay).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import secrets
import time
import urllib.parse
from collections import deque
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from firmware_host.club.auth import Sessions
from firmware_host.club.results import ResultError, parse_result
from firmware_host.club.state import ClubState
from laws.events import event_to_dict

log = logging.getLogger(__name__)

COOKIE = "ct_session"
MAX_BODY = 4096
RESULT_PHASES = frozenset({"auction", "play", "scoring"})  # a table's phases in which a hand awaits its result
CLIENT_BACKLOG = 500


def _static(name: str) -> str:
    return resources.files("firmware_host.club").joinpath("static", name).read_text(encoding="utf-8")


class Hub:
    """Between paho's thread and the browsers: a message inbox, the state, the browsers' queues."""

    def __init__(self, state: ClubState, tick: float = 0.025, clock: Callable[[], float] = time.time) -> None:
        self.state = state
        self.tick = tick
        self.clock = clock
        self.inbox: deque[tuple[str, bytes]] = deque()
        self.clients: set[asyncio.Queue[str]] = set()
        self.ingested = 0

    def put(self, topic: str, payload: bytes) -> None:
        """From any thread: one MQTT message."""
        self.inbox.append((topic, payload))

    def drain(self) -> list[dict[str, Any]]:
        """Apply what has arrived; coalesce to one update per table (times of folded events kept)."""
        tables: dict[str, dict[str, Any]] = {}
        times: dict[str, list[float]] = {}
        others: list[dict[str, Any]] = []
        now = self.clock()
        while self.inbox:
            topic, payload = self.inbox.popleft()
            self.ingested += 1
            for up in self.state.ingest(topic, payload, now):
                if up["type"] == "table":
                    name = up["table"]["table"]
                    tables[name] = up["table"]
                    if "t" in up:
                        times.setdefault(name, []).append(up["t"])
                else:
                    others.append(up)
        return [{"type": "table", "table": v, "ts": times.get(k, [])} for k, v in tables.items()] + others

    def broadcast(self, updates: list[dict[str, Any]]) -> None:
        if not updates or not self.clients:
            return
        text = json.dumps({"type": "batch", "updates": updates}, separators=(",", ":"))
        for q in list(self.clients):
            if q.qsize() >= CLIENT_BACKLOG:
                # A browser that cannot keep up is dropped; EventSource reconnects and gets a snapshot.
                self.clients.discard(q)
                q.put_nowait("")
                log.warning("a browser fell %d batches behind and was sent a fresh snapshot", CLIENT_BACKLOG)
            else:
                q.put_nowait(text)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            self.broadcast(self.drain())


class Dashboard:
    """The dashboard app and its MQTT subscription.

    Args:
        host, port: the broker.
        mqtt_user, mqtt_password: the dashboard's broker login (user ``dashboard`` in the ACL).
        users: director name -> scrypt hash (``auth.load_users``).
        session_ttl: seconds a login lasts.
        tls: TLS to the broker.
        ca_file: with ``tls``, the club's CA (PEM) that signed the broker's certificate; default the
            system's CAs.
        secure_cookie: mark the session cookie Secure (when served behind HTTPS).
        tick: seconds between batches sent to the browsers.
        clock: monotonic seconds, for session expiry.
    """

    def __init__(self, host: str, port: int, mqtt_user: str, mqtt_password: str, users: dict[str, str], *,
                 session_ttl: float = 8 * 3600, tls: bool = False, ca_file: str | None = None,
                 secure_cookie: bool = False,
                 tick: float = 0.025, clock: Callable[[], float] = time.monotonic) -> None:
        import paho.mqtt.client as mqtt

        self.sessions = Sessions(users, session_ttl, clock)
        self.state = ClubState()
        self.hub = Hub(self.state, tick)
        self.secure_cookie = secure_cookie
        self.broker = (host, port)
        # A persistent session: while the dashboard is away the broker keeps its subscription and queues
        # the tables' messages for it (up to the broker's max_queued_messages), so the feed has no holes.
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"cardtable-dashboard-{mqtt_user}",
                                  clean_session=False)
        self.client.username_pw_set(mqtt_user, mqtt_password)
        if tls:
            self.client.tls_set(ca_certs=ca_file)
        self.client.reconnect_delay_set(1, 5)
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self.hub.put(m.topic, bytes(m.payload))
        self.app = self._build_app()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.error("the broker refused the dashboard's login: %s", reason_code)
            return
        log.info("dashboard connected to the broker %s:%s", *self.broker)
        client.subscribe("cardtable/#", qos=1)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Any) -> AsyncIterator[None]:
        self.client.connect_async(*self.broker, keepalive=30)
        self.client.loop_start()
        task = asyncio.create_task(self.hub.run())
        try:
            yield
        finally:
            task.cancel()
            self.client.disconnect()
            self.client.loop_stop()

    def _build_app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.routing import Route

        routes = [Route("/", self.page), Route("/login", self.login_page, methods=["GET"]),
                  Route("/login", self.login, methods=["POST"]), Route("/logout", self.logout, methods=["POST"]),
                  Route("/events", self.events), Route("/api/state", self.api_state),
                  Route("/api/ack", self.ack, methods=["POST"]),
                  Route("/api/result", self.result, methods=["POST"]),
                  Route("/static/{name}", self.static)]
        return Starlette(routes=routes, lifespan=self._lifespan)

    # -- helpers ------------------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        return {"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                                           "frame-ancestors 'none'",
                "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
                "Referrer-Policy": "same-origin"}

    def _session(self, request: Any) -> Any:
        return self.sessions.get(request.cookies.get(COOKIE))

    def _html(self, text: str, status: int = 200) -> Any:
        from starlette.responses import HTMLResponse
        return HTMLResponse(text, status, headers=self._headers())

    def _json(self, obj: Any, status: int = 200) -> Any:
        from starlette.responses import JSONResponse
        return JSONResponse(obj, status, headers=self._headers())

    # -- routes -------------------------------------------------------------------------------------

    async def static(self, request: Any) -> Any:
        from starlette.responses import Response
        name = request.path_params["name"]
        types = {"app.js": "text/javascript", "style.css": "text/css"}
        if name not in types:
            return Response("not found", 404)
        return Response(_static(name), media_type=types[name], headers=self._headers())

    async def login_page(self, request: Any, message: str = "", status: int = 200) -> Any:
        note = f'<p class="error">{html.escape(message)}</p>' if message else ""
        return self._html(_static("login.html").replace("<!--message-->", note), status)

    async def login(self, request: Any) -> Any:
        from starlette.responses import RedirectResponse
        body = await request.body()
        if len(body) > MAX_BODY:
            return await self.login_page(request, "That form was too large.", 413)
        form = urllib.parse.parse_qs(body.decode("utf-8", "replace"))
        name = (form.get("username") or [""])[0]
        token = self.sessions.login(name, (form.get("password") or [""])[0])
        if token is None:
            return await self.login_page(request, "Wrong user name or password.", 401)
        resp = RedirectResponse("/", 303, headers=self._headers())
        resp.set_cookie(COOKIE, token, max_age=int(self.sessions.ttl), httponly=True, samesite="strict",
                        secure=self.secure_cookie, path="/")
        return resp

    async def logout(self, request: Any) -> Any:
        from starlette.responses import RedirectResponse
        self.sessions.logout(request.cookies.get(COOKIE))
        resp = RedirectResponse("/login", 303, headers=self._headers())
        resp.delete_cookie(COOKIE, path="/")
        return resp

    async def page(self, request: Any) -> Any:
        from starlette.responses import RedirectResponse
        s = self._session(request)
        if s is None:
            return RedirectResponse("/login", 303)
        text = _static("dashboard.html").replace("{{csrf}}", html.escape(s.csrf, quote=True))
        return self._html(text.replace("{{user}}", html.escape(s.user)))

    async def api_state(self, request: Any) -> Any:
        if self._session(request) is None:
            return self._json({"error": "login required"}, 401)
        return self._json(self.state.snapshot())

    async def events(self, request: Any) -> Any:
        from starlette.responses import StreamingResponse
        if self._session(request) is None:
            return self._json({"error": "login required"}, 401)
        token = request.cookies.get(COOKIE)
        q: asyncio.Queue[str] = asyncio.Queue()
        q.put_nowait(json.dumps(self.state.snapshot(), separators=(",", ":")))
        self.hub.clients.add(q)

        async def stream() -> AsyncIterator[str]:
            try:
                while True:
                    try:
                        text = await asyncio.wait_for(q.get(), 15.0)
                    except TimeoutError:
                        text = None
                    if self.sessions.get(token) is None:
                        yield "event: expired\ndata: {}\n\n"
                        return
                    if text is None:
                        yield ": keep-alive\n\n"
                    elif text == "":
                        return  # dropped for lagging: the browser reconnects
                    else:
                        yield f"data: {text}\n\n"
            finally:
                self.hub.clients.discard(q)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**self._headers(), "X-Accel-Buffering": "no"})

    async def _director_post(self, request: Any, what: str) -> tuple[Any, str, dict[str, Any]] | Any:
        """The checks every command from the page passes: a live session, our own origin, the session's
        CSRF token, a JSON object naming a known table. Returns (session, table, data) or the refusal."""
        s = self._session(request)
        if s is None:
            log.warning("%s refused: no live session", what)
            return self._json({"error": "login required"}, 401)
        origin = request.headers.get("origin")
        host = request.headers.get("host", "")
        if origin is not None and urllib.parse.urlsplit(origin).netloc != host:
            log.warning("%s by %s refused: cross-origin request from %r", what, s.user, origin[:200])
            return self._json({"error": "cross-origin request"}, 403)
        if not self.sessions.check_csrf(s, request.headers.get("x-csrf-token")):
            log.warning("%s by %s refused: missing or wrong CSRF token", what, s.user)
            return self._json({"error": "bad CSRF token"}, 403)
        body = await request.body()
        try:
            data = json.loads(body) if len(body) <= MAX_BODY else None
        except ValueError:
            data = None
        table = data.get("table") if isinstance(data, dict) else None
        if not isinstance(table, str) or table not in self.state.tables:
            log.warning("%s by %s refused: unknown table %r", what, s.user, str(table)[:80])
            return self._json({"error": "unknown table"}, 404)
        assert isinstance(data, dict)
        return s, table, data

    async def ack(self, request: Any) -> Any:
        checked = await self._director_post(request, "acknowledgement")
        if not isinstance(checked, tuple):
            return checked
        s, table, _ = checked
        view = self.state.tables[table]
        cmd = {"table": table, "by": s.user, "seq": view.ruling_seq, "t": time.time(),
               "id": secrets.token_hex(8)}
        self.client.publish(f"cardtable/{table}/command/ack", json.dumps(cmd), qos=1)
        log.info("director %s acknowledged table %s (ruling %s)", s.user, table, view.ruling_seq)
        self.hub.broadcast(self.state.acknowledged(table, s.user))
        return self._json({"ok": True, "command": cmd})

    async def result(self, request: Any) -> Any:
        """The director enters a hand's result for a table; checked here, sent as ``command/result``."""
        checked = await self._director_post(request, "result")
        if not isinstance(checked, tuple):
            return checked
        s, table, data = checked
        view = self.state.tables[table]
        if view.phase not in RESULT_PHASES:
            why = (f"table {table} is in phase {view.phase!r}: no hand there waits for its result (one is "
                   "entered once its deal is over, until the next deal)")
            log.warning("result by %s refused: %s", s.user, why)
            return self._json({"error": why}, 409)
        try:
            event = parse_result(view.game, data.get("result"))
        except ResultError as exc:
            log.warning("result by %s for table %s refused: %s", s.user, table, exc)
            return self._json({"error": str(exc)}, 400)
        cmd = {"table": table, "by": s.user, "t": time.time(), "id": secrets.token_hex(8),
               "result": {k: v for k, v in event_to_dict(event).items() if k != "type"}}
        self.client.publish(f"cardtable/{table}/command/result", json.dumps(cmd), qos=1)
        log.info("director %s entered a result for table %s: %s", s.user, table, cmd["result"])
        return self._json({"ok": True, "command": cmd})

def serve(dashboard: Dashboard, host: str, port: int, *, log_level: str = "warning") -> Any:
    """A ``uvicorn.Server`` for the dashboard (call ``.run()``, or run it in a thread)."""
    import uvicorn

    config = uvicorn.Config(dashboard.app, host=host, port=port, log_level=log_level, access_log=False,
                            lifespan="on", timeout_graceful_shutdown=1)
    return uvicorn.Server(config)
