"""The euchre night's pages (``docs/euchre.md``, "Pages"): the director's page and each table's page
(phones), live, and the exports, from a small HTTP server of the standard library.

| path | what |
|---|---|
| ``/`` | the director's page: the round in play, every table (seats, hands played, points each side, reneges), the next round's seats the moment a round ends, the standings, and the button that calls the round |
| ``/table/<id>`` | a table's page: who sits where at that table this round, its hands, and the standings |
| ``/static/<name>`` | the pages' script and style (``static/``: ``serve.js``, ``night_view.js``, ``serve.css``, ``sheet.css``); every answer carries a Content-Security-Policy that runs and styles nothing else |
| ``/events`` | the pages' event stream (``text/event-stream``): the view (``views.page_view``) now, and again at every change |
| ``/state.json`` | the same view, once |
| ``/standings.json``, ``/hands.json``, ``/sheet.html`` | the exports (``views``) |
| ``POST /call`` | the director calls the round in play (header ``X-Director-Token``: the token ``serve`` printed) |

The server holds at most ``MOST`` connections, 16 from one address, each closed after 10 s of silence
(``web.bounded``; an event stream is written to, a ping every ``PING`` seconds at least).
"""

from __future__ import annotations

import hmac
import html
import json
import logging
import threading
from http.server import BaseHTTPRequestHandler
from importlib import resources
from typing import Any

from firmware_host.euchre_night.service import NightService
from firmware_host.euchre_night.views import hands_export, sheet_html, standings_export
from firmware_host.web.bounded import BoundedHTTPServer

log = logging.getLogger(__name__)
PING = 15.0
MOST = 400      # connections at once: every phone's event stream at a big night, far below 1,024 files

_PAGE = """<!doctype html><html lang=en><meta charset=utf-8>
<meta name=viewport content="width=device-width,initial-scale=1"><title>Euchre night</title>
<link rel=stylesheet href=/static/serve.css>
<body data-table="__TABLE__">
<h1 id=title>Euchre night</h1><p><span id=conn role=status>connecting</span></p><p id=round></p>__CALL__
<div id=tables></div><h2>Standings</h2>
<table id=standings></table><p id=exports><a href=/sheet.html>printable sheet</a> · <a href=/standings.json>standings.json</a>
· <a href=/hands.json>hands.json</a></p><p id=head></p>
<script src=/static/night_view.js></script><script src=/static/serve.js></script>
</body></html>"""

_CALL = '<p><input id=token placeholder="director token"> <button id=call>Call the round</button> <span id=said></span></p>'

# the script and the style are our own files (static/): nothing inline runs, so markup that got into a view
# could not run either (docs/mqtt.md, "The dashboard": the same policy)
HEADERS = {"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                                      "frame-ancestors 'none'",
           "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
           "Referrer-Policy": "same-origin"}
STATIC = {"night_view.js": "text/javascript", "serve.js": "text/javascript", "serve.css": "text/css",
          "sheet.css": "text/css"}


def _static(name: str) -> str:
    return resources.files("firmware_host.euchre_night").joinpath("static", name).read_text(encoding="utf-8")


def page_html(table: str | None) -> str:
    """The director's page (``table`` None) or a table's."""
    return _PAGE.replace("__TABLE__", html.escape(table or "", quote=True)).replace("__CALL__", "" if table else _CALL)


class NightPages:
    """The pages' server (see the module docstring)."""

    def __init__(self, service: NightService, host: str = "127.0.0.1", port: int = 0, token: str = "") -> None:
        self.service = service
        self.token = token
        pages = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, fmt: str, *args: Any) -> None:
                log.debug("pages: " + fmt, *args)

            def do_GET(self) -> None:
                pages.get(self)

            def do_POST(self) -> None:
                pages.post(self)

        # bounded (web.bounded): the pages need no login, and idle connections an outsider held took every
        # file of the process the night's journal shares
        self.server = BoundedHTTPServer((host, port), Handler, most=MOST)
        self._thread: threading.Thread | None = None
        self._closing = threading.Event()

    @property
    def address(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> None:
        self._thread = threading.Thread(target=self.server.serve_forever, name="euchre-pages", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._closing.set()
        with self.service.changed:
            self.service.changed.notify_all()
        self.server.shutdown()
        self.server.server_close()

    def view(self) -> dict[str, Any]:
        return self.service.desk.view_now()[1]

    def view_bytes(self) -> tuple[int, bytes]:
        """The current view as the stream sends it: made once a version by the desk's step (never here
        behind the session's lock while the next commit waits for the disk)."""
        version, _, data = self.service.desk.view_now()
        return version, data

    def _send(self, h: BaseHTTPRequestHandler, code: int, body: str | bytes, ctype: str) -> None:
        data = body.encode("utf-8") if isinstance(body, str) else body
        h.send_response(code)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(data)))
        for k, v in HEADERS.items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(data)

    def get(self, h: BaseHTTPRequestHandler) -> None:
        path = h.path.split("?", 1)[0]
        s = self.service.session
        tables = s.night.setup.tables
        if path in ("/", "/index.html"):
            return self._send(h, 200, page_html(None), "text/html; charset=utf-8")
        if path.startswith("/table/") and path[len("/table/"):] in tables:
            return self._send(h, 200, page_html(path[len("/table/"):]), "text/html; charset=utf-8")
        if path == "/events":
            return self._events(h)
        if path.startswith("/static/") and path[len("/static/"):] in STATIC:
            name = path[len("/static/"):]
            return self._send(h, 200, _static(name), STATIC[name] + "; charset=utf-8")
        with s.lock:
            head = s.head()
            if path == "/state.json":
                body = self.view_bytes()[1].decode()
            elif path == "/standings.json":
                body = json.dumps(standings_export(s.night, head), indent=1)
            elif path == "/hands.json":
                body = json.dumps(hands_export(s.night, head), indent=1)
            elif path == "/sheet.html":
                return self._send(h, 200, sheet_html(s.night, head, "/static/sheet.css"), "text/html; charset=utf-8")
            else:
                return self._send(h, 404, f"no page {path[:100]!r}\n", "text/plain; charset=utf-8")
        self._send(h, 200, body, "application/json")

    def post(self, h: BaseHTTPRequestHandler) -> None:
        if h.path != "/call":
            return self._send(h, 404, "no such form\n", "text/plain; charset=utf-8")
        given = h.headers.get("X-Director-Token", "")
        if not self.token or not hmac.compare_digest(given.encode(), self.token.encode()):
            return self._send(h, 403, "the director's token is needed to call the round\n", "text/plain; charset=utf-8")
        why = self.service.call("director")
        self._send(h, 409 if why else 200, (why or "called") + "\n", "text/plain; charset=utf-8")

    def _events(self, h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        for k, v in HEADERS.items():
            h.send_header(k, v)
        h.end_headers()
        sent = -1
        try:
            while not self._closing.is_set():
                if self.service.session.version != sent:
                    sent, data = self.view_bytes()
                    h.wfile.write(b"data: " + data + b"\n\n")
                    h.wfile.flush()
                with self.service.changed:
                    if self.service.session.version == sent and not self._closing.is_set():
                        if not self.service.changed.wait(PING):
                            h.wfile.write(b": ping\n\n")
                            h.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return
