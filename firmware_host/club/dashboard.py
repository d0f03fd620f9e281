"""The director's dashboard: a small ASGI app (Starlette) fed by the broker, live over server-sent events.

Routes: ``GET /login`` and ``POST /login`` (form; ``?next=PATH``, a path of this server, is where a login
sends the browser back to, ``web.auth.back_to``), ``POST /logout``, ``GET /`` (the page), ``GET /events``
(server-sent events: a snapshot, then batches of updates), ``GET /api/state`` (the snapshot as JSON),
``GET /api/history?table=id`` (a table's feed entries), ``POST /api/take`` (a director takes a table's
call: ``{"table": id}``), ``POST /api/ack`` (the director acknowledges a table: the table puts its lamps
out), ``POST /api/result`` (the director enters a hand's result: ``{"table": id, "result": {fields}}``, the
fields of a ``result`` event for the table's game, checked by ``club.results``), ``POST /api/correct``
(the director corrects a deal's result: ``{"table", "deal", "result"}``), ``POST /api/choose``
(the director takes an option of an open claim for a player: ``{"table", "seat", "what", "clause", "card"?,
"suit"?}``) and ``POST /api/search`` (the outcome of the missing-card search: ``{"table", "found"}``, a
seat, ``loose``, ``trick`` or null), both checked by ``club.claims`` against what the table last said is
open, and again at the table, whose refusal (with its reason) the page shows; ``POST /api/bid`` and
``POST /api/discard`` (a euchre declaration or the dealer's discard entered for a player: the fields of a
``bid`` or ``discard`` event with ``table``), checked the same way, and ``POST /api/call`` (a bridge call
entered for a player: ``{"table", "seat", "call"}``, any call of the event format; the table's engine judges
whose turn it was), and the director's bridge answers, ``POST /api/accept``, ``/api/withdraw``, ``/api/bar``,
``/api/correct_revoke``, ``/api/claim``, ``/api/claim_reply``, ``/api/claim_ruled`` (the fields of the
``accept``, ``withdraw``, ``bar``, ``correct``, ``claim``, ``claim_reply``, ``claim_ruled`` event with
``table``; ``club.bridge_answers``). A command sent to a table
is pending (on the page) until the table's status lists its id as done; a table that is away gets it when
it returns (its persistent session at the broker).
With a duplicate session (``duplicate=``, a ``session.duplicate_session.SessionDesk``) the session's own screens are
added (``club.duplicate_screens``: ``/duplicate`` for the director, ``/duplicate/table/<id>`` for a
table's players) and the desk takes the tables' ``board`` messages, straight from the client into its own
inbox, committed on its own thread (``SessionDesk.run``). With an event (``event=``, an
``events.desk.EventDesk``) the event's pages are added likewise (``club.event_screens``: ``/event`` for the
director, ``/event/table/<id>`` for a table) and its desk takes the tables' ``board`` messages.
Every route but the login page (and a table's page, opened with its key) needs a live session; the session cookie is HttpOnly and SameSite=Strict
(and Secure whenever the page is served over HTTPS), and a command must also carry the session's CSRF token
and come from our own origin. Logins are throttled (``web.throttle``).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import math
import secrets
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from firmware_host.club.bridge_answers import AnswerError, check_answer
from firmware_host.club.claims import ChoiceError, check_choice, check_entry, check_search
from firmware_host.club.hub import Hub
from firmware_host.club.results import ResultError, no_such_deal, parse_result
from firmware_host.club.state import RESULT_PHASES, ClubState
from firmware_host.table.bridge_choices import ANSWERS
from firmware_host.web import stream
from firmware_host.web.auth import Sessions, back_to
from firmware_host.web.guard import (
    COOKIE,
    DEVICE_COOKIE,
    MAX_BODY,
    Refused,
    guard,
    login_of,
    same_origin,
    token_of,
)
from firmware_host.web.throttle import DEVICE_DAYS, Busy, Devices, HashPool, Throttle
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS
from laws.events import event_to_dict

log = logging.getLogger(__name__)

SESSION_EXPIRY = 24 * 3600  # seconds the broker keeps the dashboard's session (and queues for it) while away


def _static(name: str) -> str:
    return resources.files("firmware_host.club").joinpath("static", name).read_text(encoding="utf-8")


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
        secure_cookie: mark the cookies Secure even on plain HTTP (behind a proxy that speaks HTTPS and
            does not say so); a request that came over HTTPS always gets Secure cookies.
        device_key: the secret that signs known-device cookies (kept across restarts by the CLI, so a
            director's browser stays known); random when None.
        heads: where the club keeps every table's journal heads (``club.heads.HeadBook``), or None.
        tick: seconds between batches sent to the browsers.
        clock: monotonic seconds, for session expiry and login throttling.
        logins: the file that keeps the directors' logins across a restart (``web.auth.Sessions``' store;
            the CLI's is ``<users>.logins``), or None: in memory only.
    """

    def __init__(self, host: str, port: int, mqtt_user: str, mqtt_password: str, users: dict[str, str], *,
                 session_ttl: float = 8 * 3600, tls: bool = False, ca_file: str | None = None,
                 secure_cookie: bool = False, device_key: bytes | None = None, heads: Any | None = None,
                 tick: float = 0.025, clock: Callable[[], float] = time.monotonic,
                 duplicate: Any = None, event: Any = None, logins: str | Path | None = None) -> None:
        import paho.mqtt.client as mqtt

        self.sessions = Sessions(users, session_ttl, clock, store=logins)
        self.throttle = Throttle(clock)
        self.devices = Devices(device_key)
        self.hashing = HashPool()
        self.state = ClubState(heads)
        self.hub = Hub(self.state, tick, on_resync=self._resync)
        self.secure_cookie = secure_cookie
        self.broker = (host, port)
        # What rooms mounted on this server do on every connection to the broker (euchre_night.screens.mount).
        self.on_connected: list[Callable[[], None]] = []
        # A persistent session: while the dashboard is away the broker keeps its subscription and queues
        # the tables' messages for it (up to the broker's max_queued_messages), so the feed has no holes.
        # The broker binds the client id to the login (use_username_as_clientid).
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=mqtt_user, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(mqtt_user, mqtt_password)
        if tls:
            self.client.tls_set(ca_certs=ca_file)
        self.client.reconnect_delay_set(1, 5)
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self._arrived(m.topic, bytes(m.payload))
        self.duplicate = None
        if duplicate is not None:  # a duplicate session's desk: its screens and its side of the link
            from firmware_host.club.duplicate_screens import DuplicateScreens

            duplicate.connect(self.publish)
            self.duplicate = DuplicateScreens(duplicate, self, time.time)
            # the desk has its own inbox (``_arrived``) and its own thread (``SessionDesk.run``, started with
            # the server): the journal's commit waits for the disk, off the loop
            self.hub.tickers.append(self.duplicate.tick)
        self.event = None
        if event is not None:  # an event's desk (events/desk.py): its pages here, its messages on our client
            from firmware_host.club.event_screens import EventScreens

            event.page_secret = self.devices.derived("event-pages")
            event.connect(self.publish)
            self.event = EventScreens(event, self)
            self.hub.taps.append(event.offer)
            self.hub.workers.append(event.step)            # the journal's commit waits for the disk: off the loop
            self.hub.tickers.append(self.event.tick)
        self.app = self._build_app()

    def _arrived(self, topic: str, payload: bytes) -> None:
        """paho's thread: a message from the broker. A table's message for the duplicate session goes
        straight to its desk's inbox (``SessionDesk.offer``: thread-safe; it ignores what is not the
        session's); every message goes to the hub for the club's state."""
        if self.duplicate is not None:
            self.duplicate.desk.offer(topic, payload)
        self.hub.put(topic, payload)

    def publish(self, topic: str, payload: str, retain: bool) -> None:
        """Send a message of the session's to the broker (QoS 1) on the dashboard's client."""
        self.client.publish(topic, payload, qos=1, retain=retain)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.error("the broker refused the dashboard's login: %s", reason_code)
            return
        log.info("dashboard connected to the broker %s:%s", *self.broker)
        for hook in self.on_connected:
            hook()
        client.subscribe(TOPICS.everything, qos=1)
        if self.duplicate is not None:  # the tables' seatings, retained, once more on every connection
            self.duplicate.desk.publish_all()
        if self.event is not None:  # the event's seatings, retained, likewise
            self.event.desk.publish_all()

    def _resync(self, table: str) -> None:
        """A gap in ``table``'s messages: subscribe again to its retained topics, so the broker sends its
        latest status and the health of the packs shown again (on paho's thread; the answers arrive like
        any message). Never ``pack/+``: each re-read would bring every retained pack topic the table left."""
        self.client.subscribe([(topic, 1) for topic in self.state.resync_topics(table)])

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Any) -> AsyncIterator[None]:
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_EXPIRY
        self.client.connect_async(*self.broker, keepalive=30, clean_start=False, properties=props)
        self.client.loop_start()
        task = asyncio.create_task(self.hub.supervise())
        desk_stop, desk_thread = threading.Event(), None
        if self.duplicate is not None:
            loop = asyncio.get_running_loop()
            desk_thread = threading.Thread(target=self.duplicate.desk.run, name="duplicate-session", daemon=True,
                                           args=(desk_stop, self.hub.tick,
                                                 lambda what: loop.call_soon_threadsafe(self.hub.fault, what)))
            desk_thread.start()
        try:
            yield
        finally:
            task.cancel()
            desk_stop.set()
            if desk_thread is not None:
                desk_thread.join(10)
            self.client.disconnect()
            stop_loop(self.client)
            self.hashing.close()

    def _build_app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.routing import Route

        routes = [Route("/", self.page), Route("/login", self.login_page, methods=["GET"]),
                  Route("/login", self.login, methods=["POST"]), Route("/logout", self.logout, methods=["POST"]),
                  Route("/events", self.events), Route("/api/state", self.api_state),
                  Route("/api/history", self.api_history),
                  Route("/api/take", self.take, methods=["POST"]),
                  Route("/api/ack", self.ack, methods=["POST"]),
                  Route("/api/result", self.result, methods=["POST"]),
                  Route("/api/correct", self.correct, methods=["POST"]),
                  Route("/api/choose", self.choose, methods=["POST"]),
                  Route("/api/search", self.search, methods=["POST"]),
                  Route("/api/bid", self.bid, methods=["POST"]),
                  Route("/api/discard", self.discard, methods=["POST"]),
                  Route("/api/call", self.call, methods=["POST"]),
                  *(Route(f"/api/{kind}", self._answer_route(kind), methods=["POST"]) for kind in ANSWERS),
                  Route("/static/{name}", self.static)]
        if self.duplicate is not None:
            routes += self.duplicate.routes()
        if self.event is not None:
            routes += self.event.routes()
        return Starlette(routes=routes, lifespan=self._lifespan)

    # -- helpers ------------------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        return {"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                                           "frame-ancestors 'none'",
                "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
                "Referrer-Policy": "same-origin"}

    def _session(self, request: Any) -> Any:
        return login_of(request, self.sessions)

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
        types = {"app.js": "text/javascript", "formcheck.js": "text/javascript", "style.css": "text/css"}
        if name not in types:
            return Response("not found", 404)
        return Response(_static(name), media_type=types[name], headers=self._headers())

    async def login_page(self, request: Any, message: str = "", status: int = 200, back: object = None) -> Any:
        """The login form; ``?next=PATH`` (or, for a login refused, the form's ``next``) rides along in a
        hidden field, so the login sends the browser back to the page that lost its login (``back_to``)."""
        note = f'<p class="error">{html.escape(message)}</p>' if message else ""
        where = back_to(request.query_params.get("next") if back is None else back)
        hidden = f'<input type="hidden" name="next" value="{html.escape(where, quote=True)}">' if where != "/" else ""
        text = _static("login.html").replace("<!--message-->", note).replace("<!--next-->", hidden)
        return self._html(text, status)

    def _secure(self, request: Any) -> bool:
        return self.secure_cookie or request.url.scheme == "https"

    async def login(self, request: Any) -> Any:
        """Throttled per client address and name (a known device of the name: per device), then the
        password checked on a worker thread."""
        from starlette.responses import RedirectResponse
        body = await request.body()
        if len(body) > MAX_BODY:
            return await self.login_page(request, "That form was too large.", 413, "/")
        form = urllib.parse.parse_qs(body.decode("utf-8", "replace"))
        name = (form.get("username") or [""])[0][:64]
        password = (form.get("password") or [""])[0]
        back = back_to((form.get("next") or [""])[0])
        device = self.devices.check(request.cookies.get(DEVICE_COOKIE), name)
        address = request.client.host if request.client else "?"
        keys = [f"device:{device}"] if device else [f"address:{address}", f"name:{name}"]
        wait = self.throttle.wait(keys)
        if wait > 0:
            log.warning("login for user %r from %s refused: too many attempts; %.0f s to wait", name, address, wait)
            seconds = max(1, math.ceil(wait))     # rounded up: never "try again in 0 s"
            resp = await self.login_page(request, f"Too many attempts: try again in {seconds} s.", 429, back)
            resp.headers["Retry-After"] = str(seconds)
            return resp
        self.throttle.attempt(keys)
        try:
            ok = await self.hashing.run(lambda: self.sessions.verify(name, password), trusted=device is not None)
        except Busy as exc:
            log.warning("login for user %r from %s refused: %s", name, address, exc)
            resp = await self.login_page(request, "The server is busy: try again in a moment.", 503, back)
            resp.headers["Retry-After"] = "2"
            return resp
        if not ok:
            return await self.login_page(request, "Wrong user name or password.", 401, back)
        self.throttle.succeeded(keys)
        token = self.sessions.open(name)
        resp = RedirectResponse(back, 303, headers=self._headers())
        secure = self._secure(request)
        resp.set_cookie(COOKIE, token, max_age=int(self.sessions.ttl), httponly=True, samesite="strict",
                        secure=secure, path="/")
        resp.set_cookie(DEVICE_COOKIE, device and request.cookies[DEVICE_COOKIE] or self.devices.make(name),
                        max_age=DEVICE_DAYS * 86400, httponly=True, samesite="strict", secure=secure,
                        path="/login")
        return resp

    async def logout(self, request: Any) -> Any:
        """The pages' "Log out" form: from our own origin with the login's CSRF token (the form's hidden
        ``csrf`` field, or ``X-CSRF-Token``), as every other request that changes something; a page of
        another site could log the director out. Without a live login there is nothing to end."""
        from starlette.responses import RedirectResponse
        s = login_of(request, self.sessions)
        if s is not None:
            body = await request.body()
            form = urllib.parse.parse_qs(body[:MAX_BODY].decode("utf-8", "replace"))
            token = request.headers.get("x-csrf-token") or (form.get("csrf") or [None])[0]
            if not same_origin(request):
                log.warning("logout of %s refused: cross-origin request from %r", s.user,
                            str(request.headers.get("origin"))[:200])
                return self._json({"error": "cross-origin request"}, 403)
            if not self.sessions.check_csrf(s, token):
                log.warning("logout of %s refused: missing or wrong CSRF token", s.user)
                return self._json({"error": "bad CSRF token"}, 403)
            self.sessions.logout(request.cookies.get(COOKIE))
        resp = RedirectResponse("/login", 303, headers=self._headers())
        resp.delete_cookie(COOKIE, path="/", secure=self._secure(request), httponly=True, samesite="strict")
        return resp

    async def page(self, request: Any) -> Any:
        from starlette.responses import RedirectResponse
        s = self._session(request)
        if s is None:
            return RedirectResponse("/login", 303)
        text = _static("dashboard.html").replace("{{csrf}}", html.escape(s.csrf, quote=True))
        if self.duplicate is not None:  # the duplicate session's page, when there is one
            text = text.replace("<!--duplicate-->", '<a href="/duplicate" id="duplicate-link">Duplicate session</a>')
        return self._html(text.replace("{{user}}", html.escape(s.user)))

    async def api_state(self, request: Any) -> Any:
        if self._session(request) is None:
            return self._json({"error": "login required"}, 401)
        return self._json(self.state.snapshot(self.hub.clock()))

    async def api_history(self, request: Any) -> Any:
        if self._session(request) is None:
            return self._json({"error": "login required"}, 401)
        table = request.query_params.get("table", "")
        if table not in self.state.tables:
            return self._json({"error": "unknown table"}, 404)
        return self._json({"table": table, "history": self.state.table_history(table)})

    async def events(self, request: Any) -> Any:
        if self._session(request) is None:
            return self._json({"error": "login required"}, 401)
        token = token_of(request)
        q: asyncio.Queue[str] = asyncio.Queue()
        q.put_nowait(json.dumps(self.state.snapshot(self.hub.clock()), separators=(",", ":")))
        self.hub.clients.add(q)
        return stream.response(q, lambda: self.sessions.get(token) is not None,
                               lambda: self.hub.clients.discard(q), self._headers())

    async def _director_post(self, request: Any, what: str) -> tuple[Any, str, dict[str, Any]] | Any:
        """The checks every command from the page passes (``web.guard``), and a JSON object (else 400 with
        the reason, ``Passed.not_an_object``) naming a known table (else 404). Returns (session, table,
        data) or the refusal."""
        checked = await guard(request, self.sessions, what, MAX_BODY)
        if isinstance(checked, Refused):
            return self._json({"error": checked.error}, checked.status)
        s, data = checked.login, checked.data
        if checked.refused is not None and checked.refused.kind in ("utf8", "surrogate"):
            log.warning("%s by %s refused: %s", what, s.user, checked.refused)
            return self._json({"error": str(checked.refused)}, 400)
        if checked.not_an_object:     # not JSON, a list, too big: the reason, never "unknown table"
            log.warning("%s by %s refused: %s", what, s.user, checked.not_an_object)
            return self._json({"error": checked.not_an_object}, 400)
        table = data.get("table")
        if not isinstance(table, str) or table not in self.state.tables:
            log.warning("%s by %s refused: unknown table %r", what, s.user, str(table)[:80])
            return self._json({"error": "unknown table"}, 404)
        assert isinstance(data, dict)
        return s, table, data

    async def take(self, request: Any) -> Any:
        """A director takes a table's call (is on the way): shown to every director; no message to the table."""
        checked = await self._director_post(request, "taking a call")
        if not isinstance(checked, tuple):
            return checked
        s, table, _ = checked
        try:
            updates = self.state.take(table, s.user, self.hub.clock())
        except (LookupError, PermissionError) as exc:
            log.warning("taking a call by %s refused: %s", s.user, exc)
            return self._json({"error": str(exc)}, 409)
        log.info("director %s took table %s's call", s.user, table)
        self.hub.broadcast(updates)
        return self._json({"ok": True})

    def _send(self, table: str, what: str, cmd: dict[str, Any], by: str, deal: int = 0) -> dict[str, Any]:
        """Publish a command (QoS 1: the broker keeps it for a table that is away) and mark it pending."""
        self.client.publish(TOPICS.command(table, what), json.dumps(cmd), qos=1)
        self.hub.broadcast(self.state.sent(table, cmd["id"], what, by, self.hub.clock(), deal=deal,
                                           fields=cmd.get("result")))
        online = self.state.tables[table].online
        return {"ok": True, "pending": True, "online": online, "command": cmd}

    async def ack(self, request: Any) -> Any:
        checked = await self._director_post(request, "acknowledgement")
        if not isinstance(checked, tuple):
            return checked
        s, table, _ = checked
        view = self.state.tables[table]
        cmd = {"table": table, "by": s.user, "seq": view.ruling_seq, "t": time.time(),
               "id": secrets.token_hex(8)}
        log.info("director %s acknowledged table %s (ruling %s)", s.user, table, view.ruling_seq)
        return self._json(self._send(table, "ack", cmd, s.user))

    async def result(self, request: Any) -> Any:
        """The director enters a hand's result for a table; checked here, sent as ``command/result``. A
        second result for the same deal is refused, saying whether the first was taken (and that a
        correction changes it)."""
        checked = await self._director_post(request, "result")
        if not isinstance(checked, tuple):
            return checked
        s, table, data = checked
        view = self.state.tables[table]
        name = view.name or table
        first = view.entered(view.deal)
        if first is not None:
            fate = ("the table has taken it" if first["taken"] else
                    "it is on its way: the table has not taken it yet")
            why = (f"a result of deal {view.deal} at {name} was already entered by {first['by']} "
                   f"({first['words']}), and {fate}; to change it, correct it")
            log.warning("result by %s refused: %s", s.user, why)
            return self._json({"error": why}, 409)
        if view.phase not in RESULT_PHASES:
            why = (f"{name} is not waiting for a result: its deal {view.deal} is not over yet (a result is "
                   "entered once the deal is over, until the next deal)")
            log.warning("result by %s refused: %s", s.user, why)
            return self._json({"error": why}, 409)
        try:
            event = parse_result(view.game, data.get("result"))
        except ResultError as exc:
            log.warning("result by %s for table %s refused: %s", s.user, table, exc)
            return self._json({"error": str(exc)}, 400)
        cmd = {"table": table, "by": s.user, "t": time.time(), "id": secrets.token_hex(8),
               "result": {k: v for k, v in event_to_dict(event).items() if k != "type"}}
        log.info("director %s entered a result for table %s: %s", s.user, table, cmd["result"])
        return self._json(self._send(table, "result", cmd, s.user, deal=view.deal))

    async def correct(self, request: Any) -> Any:
        """The director corrects a deal's result (``{"table", "deal", "result"}``); checked here and at the
        table, which journals it as a correction (docs/events.md) and answers it in its status."""
        checked = await self._director_post(request, "correction")
        if not isinstance(checked, tuple):
            return checked
        s, table, data = checked
        view = self.state.tables[table]
        deal = data.get("deal", view.deal)
        if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= max(view.deal, 1):
            return self._json({"error": no_such_deal(view.name or table, view.deal, deal)}, 409)
        try:
            event = parse_result(view.game, data.get("result"))
        except ResultError as exc:
            return self._json({"error": str(exc)}, 400)
        fields = {k: v for k, v in event_to_dict(event).items() if k != "type"}
        cmd = {"table": table, "by": s.user, "t": time.time(), "id": secrets.token_hex(8), "deal": deal,
               "result": fields}
        log.info("director %s corrected deal %s at table %s: %s", s.user, deal, table, fields)
        return self._json(self._send(table, "correct", cmd, s.user, deal=deal))

    async def choose(self, request: Any) -> Any:
        """The director takes an option of a table's open claim for one of its players; sent as
        ``command/choose``, entered by the table as that player's ``demand`` from source ``director``."""
        checked = await self._director_post(request, "choice")
        if not isinstance(checked, tuple):
            return checked
        s, table, data = checked
        view = self.state.tables[table]
        try:
            fields = check_choice(view.game, view.claims, data)
        except ChoiceError as exc:
            log.warning("choice by %s for table %s refused: %s", s.user, table, exc)
            return self._json({"error": str(exc)}, 409)
        cmd = {"table": table, "by": s.user, "t": time.time(), "id": secrets.token_hex(8), **fields}
        log.info("director %s chose %s for %s at table %s", s.user, fields["what"], fields["seat"], table)
        return self._json(self._send(table, "choose", cmd, s.user))

    async def search(self, request: Any) -> Any:
        """The director records the outcome of a table's missing-card search; sent as ``command/search``,
        entered by the table as a ``missing_card`` event from source ``director``."""
        checked = await self._director_post(request, "search outcome")
        if not isinstance(checked, tuple):
            return checked
        s, table, data = checked
        try:
            found = check_search(self.state.tables[table].search, data)
        except ChoiceError as exc:
            log.warning("search outcome by %s for table %s refused: %s", s.user, table, exc)
            return self._json({"error": str(exc)}, 409)
        cmd = {"table": table, "by": s.user, "t": time.time(), "id": secrets.token_hex(8), "found": found}
        log.info("director %s recorded the search at table %s: %s", s.user, table, found)
        return self._json(self._send(table, "search", cmd, s.user))

    async def bid(self, request: Any) -> Any:
        """A euchre declaration the director enters for a player; sent as ``command/bid``."""
        return await self._entry(request, "bid")

    async def discard(self, request: Any) -> Any:
        """The euchre dealer's discard, entered by the director; sent as ``command/discard``."""
        return await self._entry(request, "discard")

    async def call(self, request: Any) -> Any:
        """A bridge call the director enters for a player (a club without bidding cards, or a call the
        camera did not see); sent as ``command/call``."""
        return await self._entry(request, "call")

    async def _entry(self, request: Any, kind: str) -> Any:
        return await self._checked(request, kind, check_entry, ChoiceError)

    async def _checked(self, request: Any, kind: str, check: Callable[[str, str, str, Any], dict[str, Any]],
                       refused: type[Exception]) -> Any:
        """A director's entry or answer: checked by ``check`` for the table's game and phase (409 with its
        words when it raises ``refused``), then sent as ``command/<kind>`` with a fresh id."""
        checked = await self._director_post(request, kind)
        if not isinstance(checked, tuple):
            return checked
        s, table, data = checked
        view = self.state.tables[table]
        try:
            fields = check(view.game, view.phase, kind, data)
        except refused as exc:
            log.warning("%s by %s for table %s refused: %s", kind, s.user, table, exc)
            return self._json({"error": str(exc)}, 409)
        cmd = {"table": table, "by": s.user, "t": time.time(), "id": secrets.token_hex(8), **fields}
        log.info("director %s entered a %s at table %s: %s", s.user, kind, table, fields)
        return self._json(self._send(table, kind, cmd, s.user))


    def _answer_route(self, kind: str) -> Callable[[Any], Any]:
        async def route(request: Any) -> Any:
            return await self.answer(request, kind)
        return route

    async def answer(self, request: Any, kind: str) -> Any:
        """A bridge answer the director enters (``accept``, ``withdraw``, ``bar``, ``correct_revoke``,
        ``claim``, ``claim_reply``, ``claim_ruled``): checked for the game and phase and as the event format
        goes, sent as ``command/<kind>``; the table's engine judges it."""
        return await self._checked(request, kind, check_answer, AnswerError)


def serve(dashboard: Dashboard, host: str, port: int, *, log_level: str = "warning",
          certfile: str | None = None, keyfile: str | None = None,
          forwarded_allow_ips: str | None = None) -> Any:
    """A ``uvicorn.Server`` for the dashboard (call ``.run()``, or run it in a thread).

    ``certfile``/``keyfile``: serve HTTPS itself. ``forwarded_allow_ips``: the reverse proxy's address,
    whose ``X-Forwarded-Proto``/``-For`` headers are believed (the client's address for throttling, and
    HTTPS for Secure cookies). Connections and requests are bounded (``web.bounded_asgi``): idle and slow
    connections cannot take the process's files, nor a large body its memory."""
    import uvicorn

    from firmware_host.web.bounded_asgi import config

    return uvicorn.Server(config(dashboard.app, host, port, forwarded_allow_ips=forwarded_allow_ips,
                                 log_level=log_level, access_log=False, lifespan="on",
                                 timeout_graceful_shutdown=1, ssl_certfile=certfile, ssl_keyfile=keyfile))
