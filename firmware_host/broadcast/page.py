"""The spectators' page on the club's machine: every table at a glance and one table's four hands, live.

The page's server never holds anything that is not released: it logs in to the club's broker as
``spectator`` (the ACL lets that login read ``<prefix>/spectate/#`` and nothing else), keeps the newest
retained message of each topic, and fans each new one out to every browser over server-sent events
(``GET /events``: a ``snapshot`` with everything so far, then every ``BATCH`` seconds one ``batch`` of
what changed: ``items`` messages, the new items of one board, or ``board`` when a board is sent whole)
encoded once for all, from
uvicorn's event loop, one queue a browser, as the director's dashboard does. A browser that falls
``CLIENT_BACKLOG`` messages behind is dropped; ``EventSource`` reconnects and gets a fresh snapshot.

A public event needs no login. A private one (``password`` given) shows a password form first; the
right password gives a cookie (HttpOnly, SameSite=Strict) for the evening, and ``/events`` refuses any
browser without it; guesses are throttled per client address with the director's login's throttle
(``web.throttle``: three free, then waits of 1, 2, 4 ... 60 s, answered 429). Routes: ``GET /`` (the page, or the form), ``POST /login``, ``GET /events``,
``GET /spectate.js``, ``GET /health`` (how many browsers are connected).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
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
from typing import Any

from firmware_host.web.throttle import Throttle
from firmware_host.wire.reader import read_json
from firmware_host.wire.subscribed import stop_loop, track_connected
from firmware_host.wire.topics import SPECTATOR_USER, TOPICS, Topics

log = logging.getLogger(__name__)

COOKIE = "ct_spectator"
COOKIE_SECONDS = 12 * 3600   # a spectator's cookie lasts the evening, here as in the browser
COOKIES_MOST = 10_000        # browsers let in at once; past it the longest let in is forgotten first
CLIENT_BACKLOG = 2000
BATCH = 0.1       # seconds: what arrives within it goes to every browser as one event
MAX_FORM = 1024


def _static(name: str) -> str:
    return resources.files("firmware_host.broadcast").joinpath("static", name).read_text(encoding="utf-8")


class SpectatorPage:
    """The page's app and its broker login.

    Args:
        host, port: the club's broker.
        broker_password: the ``spectator`` login's password on the broker.
        title: the event's name.
        password: a private event's spectator password (None: a public event, no login).
        topics: the topic tree.
    """

    def __init__(self, host: str, port: int, broker_password: str, *, title: str = "",
                 password: str | None = None, topics: Topics = TOPICS, user: str = SPECTATOR_USER,
                 client_id: str = "spectator-page", clock: Callable[[], float] = time.monotonic) -> None:
        import paho.mqtt.client as mqtt
        from starlette.applications import Starlette
        from starlette.routing import Route

        self.title = title
        self.password = password
        self.throttle = Throttle(clock)   # the director's login's throttle (docs/mqtt.md), per client address
        self.topics = topics
        self.latest: dict[str, Any] = {}
        self.clients: set[asyncio.Queue[bytes]] = set()
        self._pending: list[dict[str, Any]] = []
        self._flush_due = False
        self.dropped = 0
        self.clock = clock
        self._tokens: dict[str, float] = {}   # sha-256 of a cookie given -> when it ends (``clock``), oldest first
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.connected = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, broker_password)
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        track_connected(self.client, self.connected, "spectator page", log)
        self.host, self.port = host, port
        self.app = Starlette(routes=[Route("/", self.page), Route("/login", self.login, methods=["POST"]),
                                     Route("/events", self.events), Route("/spectate.js", self.script),
                                     Route("/health", self.health)],
                             lifespan=self._lifespan)

    # -- the broker side ----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Any) -> AsyncIterator[None]:
        self._loop = asyncio.get_running_loop()
        self.client.connect_async(self.host, self.port, keepalive=30)
        self.client.loop_start()
        try:
            yield
        finally:
            self.client.disconnect()
            stop_loop(self.client)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.warning("spectator page: the broker refused the login: %s", reason_code)
            return
        client.subscribe(self.topics.spectate_all, qos=1)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        name = self.topics.parse(msg.topic)
        if name is None or name.family != "spectate":
            return
        if not msg.payload:      # the broadcast cleared what an earlier run left (docs/broadcast.md)
            if self._loop is not None:
                self._loop.call_soon_threadsafe(self._clear, msg.topic)
            return
        read = read_json(msg.payload)
        if read.refusal is not None or not isinstance(read.value, dict):
            log.warning("spectator page: a message on %s was not read", msg.topic[:200])
            return
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(self._take, msg.topic, read.value)

    def _take(self, topic: str, body: dict[str, Any]) -> None:
        """On the event loop: keep the newest value, and queue what a browser needs for it (sent in the
        next batch). The snapshot a new browser gets and the batches are made on this one loop, so a
        browser never gets an update its snapshot already holds."""
        with self._lock:
            before = self.latest.get(topic)
            self.latest[topic] = body
        self._pending.append({"type": "event", "body": body} if topic == self.topics.spectate_event
                             else _delta(before, body))
        if not self._flush_due and self._loop is not None:
            self._flush_due = True
            self._loop.call_later(BATCH, self._flush)

    def _clear(self, topic: str) -> None:
        """On the event loop: a topic cleared is gone from the snapshot, and every browser starts again
        from a fresh one (``cleared``), so none keeps showing it."""
        with self._lock:
            if self.latest.pop(topic, None) is None:
                return
        self._pending.append({"type": "cleared"})
        if not self._flush_due and self._loop is not None:
            self._flush_due = True
            self._loop.call_later(BATCH, self._flush)

    def _flush(self) -> None:
        """Send what arrived since the last batch to every browser: encoded once, one event."""
        self._flush_due = False
        if not self._pending:
            return
        data = f"data: {json.dumps({'type': 'batch', 'messages': self._pending}, separators=(',', ':'))}\n\n".encode()
        self._pending = []
        for q in list(self.clients):
            if q.qsize() >= CLIENT_BACKLOG:
                self.clients.discard(q)
                self.dropped += 1
                q.put_nowait(b"")
            else:
                q.put_nowait(data)

    def snapshot(self) -> str:
        with self._lock:
            event = self.latest.get(self.topics.spectate_event, {})
            boards = [v for k, v in self.latest.items() if k != self.topics.spectate_event]
        return json.dumps({"type": "snapshot", "event": event, "boards": boards}, separators=(",", ":"))

    # -- the web side -------------------------------------------------------------------------------

    @staticmethod
    def _digest(token: str) -> str:
        """What is kept of a cookie: its hash, looked up in a dict, so neither a cookie's bytes (any bytes a
        browser sends: ``compare_digest`` refused a str with a non-ASCII character, a 500) nor the number of
        cookies given (each was compared in turn) changes what a check costs."""
        return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()

    def _allowed(self, request: Any) -> bool:
        if self.password is None:
            return True
        ends = self._tokens.get(self._digest(request.cookies.get(COOKIE, "")))
        return ends is not None and self.clock() < ends

    def _give(self) -> str:
        """A new cookie for a browser that gave the right password: kept ``COOKIE_SECONDS``, and at most
        ``COOKIES_MOST`` at once (a script logging in again and again grew the set without end)."""
        now = self.clock()
        for digest in [d for d, ends in self._tokens.items() if ends <= now]:
            del self._tokens[digest]
        while len(self._tokens) >= COOKIES_MOST:
            del self._tokens[next(iter(self._tokens))]
        token = secrets.token_urlsafe(24)
        self._tokens[self._digest(token)] = now + COOKIE_SECONDS
        return token

    @staticmethod
    def _headers() -> dict[str, str]:
        return {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                           "frame-ancestors 'none'"}

    async def page(self, request: Any) -> Any:
        from starlette.responses import HTMLResponse
        title = html.escape(self.title or "Live tables")
        if not self._allowed(request):
            return self._form("That password is not right." if request.query_params.get("wrong") is not None else "")
        return HTMLResponse(_static("spectate.html").replace("{{title}}", title), headers=self._headers())

    def _form(self, message: str, status: int = 200) -> Any:
        """A private event's password form, with ``message`` above it when there is one."""
        from starlette.responses import HTMLResponse
        title = html.escape(self.title or "Live tables")
        said = f"<p role=alert>{html.escape(message)}</p>" if message else ""
        body = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
                    f'content="width=device-width, initial-scale=1"><title>{title}</title></head><body '
                    f'style="font-family:system-ui,sans-serif;padding:16px"><main><h1>{title}</h1>'
                    f'<p>This event is private: the spectator password is on the club\'s notice.</p>'
                f'{said}'
                f'<form method="post" action="/login"><label>Spectator password '
                f'<input type="password" name="password" autocomplete="current-password" required></label> '
                f'<button type="submit">Watch</button></form></main></body></html>')
        return HTMLResponse(body, status, headers=self._headers())

    async def script(self, request: Any) -> Any:
        from starlette.responses import Response
        return Response(_static("spectate.js"), media_type="text/javascript", headers=self._headers())

    async def login(self, request: Any) -> Any:
        from starlette.responses import RedirectResponse
        raw = await request.body()
        fields = urllib.parse.parse_qs(raw[:MAX_FORM].decode("utf-8", "replace"))
        given = (fields.get("password") or [""])[0]
        if self.password is None:
            return RedirectResponse("/", 303)
        address = request.client.host if request.client else "?"
        keys = [f"address:{address}"]    # one password for every spectator: no name to count against
        wait = self.throttle.wait(keys)
        if wait > 0:
            seconds = max(1, math.ceil(wait))     # rounded up: never "try again in 0 s"
            log.warning("spectator password from %s refused: too many attempts; %d s to wait", address, seconds)
            resp = self._form(f"Too many attempts: try again in {seconds} s.", 429)
            resp.headers["Retry-After"] = str(seconds)
            return resp
        self.throttle.attempt(keys)
        if not hmac.compare_digest(given.encode(), self.password.encode()):
            return RedirectResponse("/?wrong", 303)
        self.throttle.succeeded(keys)
        token = self._give()
        response = RedirectResponse("/", 303)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", max_age=COOKIE_SECONDS)
        return response

    async def health(self, request: Any) -> Any:
        from starlette.responses import JSONResponse
        return JSONResponse({"browsers": len(self.clients), "dropped": self.dropped,
                             "broker": self.connected.is_set()}, headers=self._headers())

    def end_streams(self) -> None:
        """Every browser's stream ends now (the page is stopping; from any thread), so the server stops at
        once instead of cancelling them (uvicorn printed a CancelledError traceback for each)."""
        loop = self._loop

        def close() -> None:
            for q in list(self.clients):
                q.put_nowait(b"")
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(close)
            except RuntimeError:       # the loop closed in between
                pass

    async def events(self, request: Any) -> Any:
        from starlette.responses import JSONResponse, StreamingResponse
        if not self._allowed(request):
            return JSONResponse({"error": "the spectator password is needed"}, 401, headers=self._headers())
        self._flush()          # what is pending goes to the others first: the snapshot below holds it
        q: asyncio.Queue[bytes] = asyncio.Queue()
        q.put_nowait(f"data: {self.snapshot()}\n\n".encode())
        self.clients.add(q)

        async def stream() -> AsyncIterator[bytes]:
            try:
                while True:
                    try:
                        data = await asyncio.wait_for(q.get(), 15.0)
                    except TimeoutError:
                        yield b": keep-alive\n\n"
                        continue
                    if data == b"":
                        return
                    yield data
            finally:
                self.clients.discard(q)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**self._headers(), "X-Accel-Buffering": "no"})


def _delta(before: Any, after: dict[str, Any]) -> dict[str, Any]:
    """What a browser that has ``before`` needs to have ``after``: the new items only (``items``, with
    ``from``, the index of the first), or the whole board (``board``) when ``after`` does not extend
    ``before`` (a board played again)."""
    old = before.get("items") if isinstance(before, dict) else None
    new = after.get("items")
    if isinstance(old, list) and isinstance(new, list) and len(new) >= len(old) and new[:len(old)] == old:
        return {"type": "items", "body": {**{k: v for k, v in after.items() if k != "items"},
                                          "from": len(old), "items": new[len(old):]}}
    return {"type": "board", "body": after}


# Spectators at once: the page is public. Its bound is this, or a quarter of the process's limit on files
# when that is lower (256 under the usual soft limit of 1,024; raise the limit, `ulimit -n` or systemd's
# LimitNOFILE, for more). No bound from one address of its own: the spectators in one club's hall, or
# behind one operator's NAT, share one public address, and the dashboard's 16 would have shown the page to
# 16 of them (`cardtable bench broadcast` reads it with 200 from one machine). Idle and slow connections
# still give their place back within ``web.bounded_asgi.REQUEST_SECONDS``.
SPECTATORS = 2048


def serve(page: SpectatorPage, host: str, port: int, *, log_level: str = "warning") -> Any:
    """A ``uvicorn.Server`` for the page (call ``.run()``, or run it in a thread), its connections and
    requests bounded (``web.bounded_asgi``): idle and slow connections cannot take the process's files."""
    import uvicorn

    from firmware_host.web.bounded import within_files
    from firmware_host.web.bounded_asgi import config

    most = within_files(SPECTATORS)
    return uvicorn.Server(config(page.app, host, port, most=most, per_address=most, log_level=log_level,
                                 access_log=False, lifespan="on", timeout_graceful_shutdown=1))
