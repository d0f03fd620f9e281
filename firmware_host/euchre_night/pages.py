"""The euchre night's pages (``docs/euchre.md``, "Pages"): the director's page and each table's page
(phones), live, and the exports, from a small HTTP server of the standard library.

| path | what |
|---|---|
| ``/`` | the director's page: the round in play, every table (seats, hands played, points each side, reneges), the next round's seats the moment a round ends, the standings, and the button that calls the round |
| ``/table/<id>`` | a table's page: who sits where at that table this round, its hands, and the standings |
| ``/events`` | the pages' event stream (``text/event-stream``): the view (``views.page_view``) now, and again at every change |
| ``/state.json`` | the same view, once |
| ``/standings.json``, ``/hands.json``, ``/sheet.html`` | the exports (``views``) |
| ``POST /call`` | the director calls the round in play (header ``X-Director-Token``: the token ``serve`` printed) |
"""

from __future__ import annotations

import hmac
import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from firmware_host.euchre_night.service import NightService
from firmware_host.euchre_night.views import hands_export, sheet_html, standings_export

log = logging.getLogger(__name__)
PING = 15.0

_PAGE = """<!doctype html><html lang=en><meta charset=utf-8>
<meta name=viewport content="width=device-width,initial-scale=1"><title>Euchre night</title>
<style>body{font-family:sans-serif;margin:8px;overflow-wrap:anywhere}table{border-collapse:collapse;margin:6px 0}
td,th{border:1px solid #999;padding:2px 6px}.n{text-align:right}.renege{color:#a00}
th{white-space:nowrap;overflow-wrap:normal}#conn{font-size:.9em;color:#555}
@media (max-width:599px){table{font-size:.85em}td,th{padding:2px 3px}
#exports a{display:inline-flex;align-items:center;min-height:44px}}</style>
<h1 id=title>Euchre night</h1><p><span id=conn role=status>connecting</span></p><p id=round></p>__CALL__
<div id=tables></div><h2>Standings</h2>
<table id=standings></table><p id=exports><a href=/sheet.html>printable sheet</a> · <a href=/standings.json>standings.json</a>
· <a href=/hands.json>hands.json</a></p><p id=head></p>
<script>
const TABLE = __TABLE__;
const e = s => String(s).replace(/[&<>"]/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c]));
function seats(t){return ["N","S","E","W"].map(s=>s+": "+e(t.seats[s].name)).join(", ");}
function draw(v){
  document.getElementById("title").textContent = v.name;
  document.getElementById("round").textContent = (v.finished ? "Final standings" :
     "Round " + v.round + " of " + v.rounds + (v.called ? " (called: finish the hand in play)" : "")) +
     " · hands taken: " + v.hands_taken;
  let rows = v.tables.filter(t => !TABLE || t.table === TABLE);
  let h = "<table><tr><th>Table</th><th>Seats</th><th>Hands</th><th>NS</th><th>EW</th><th>Reneges</th></tr>";
  for (const t of rows) h += "<tr><td>"+e(t.table)+"</td><td>"+seats(t)+"</td><td class=n>"+t.hands+"/"+t.of+
     "</td><td class=n>"+t.ns+"</td><td class=n>"+t.ew+"</td><td class=renege>"+
     t.reneges.map(r=>"hand "+r.hand+": "+e(r.seat)+" trick "+r.trick+" ("+e(r.law)+")").join("; ")+"</td></tr>";
  if (TABLE && !rows.length) h += "<tr><td colspan=6>This table sits out this round.</td></tr>";
  h += "</table>";
  if (v.out.length) h += "<p>Sitting out: " + v.out.map(p=>e(p.name)).join(", ") + "</p>";
  document.getElementById("tables").innerHTML = h;
  let s = "<tr><th>Place</th><th>Player</th><th>Points</th><th>Hands won</th><th>Loners</th></tr>";
  for (const r of v.standings) s += "<tr><td>"+e(r.place)+"</td><td>"+e(r.shown)+"</td><td class=n>"+
     e(r.points_shown)+"</td><td class=n>"+r.hands_won+"</td><td class=n>"+r.loners+"</td></tr>";
  document.getElementById("standings").innerHTML = s;
  document.getElementById("head").textContent = "journal head " + v.head;
  document.body.dataset.version = v.version;
}
const es = new EventSource("/events");
const conn = document.getElementById("conn");
es.onopen = () => { conn.textContent = "live"; };
es.onerror = () => { conn.textContent = "reconnecting"; };   // the browser tries again on its own
es.onmessage = m => draw(JSON.parse(m.data));
__CALLJS__
</script></html>"""

_CALL = '<p><input id=token placeholder="director token"> <button id=call>Call the round</button> <span id=said></span></p>'
_CALLJS = """document.getElementById("call").onclick = async () => {
  const r = await fetch("call", {method: "POST", headers: {"X-Director-Token": document.getElementById("token").value}});
  document.getElementById("said").textContent = await r.text();
};"""


def page_html(table: str | None) -> str:
    """The director's page (``table`` None) or a table's page."""
    return (_PAGE.replace("__TABLE__", json.dumps(table)).replace("__CALL__", "" if table else _CALL)
            .replace("__CALLJS__", "" if table else _CALLJS))


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

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
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
        h.send_header("Cache-Control", "no-store")
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
        with s.lock:
            head = s.head()
            if path == "/state.json":
                body = self.view_bytes()[1].decode()
            elif path == "/standings.json":
                body = json.dumps(standings_export(s.night, head), indent=1)
            elif path == "/hands.json":
                body = json.dumps(hands_export(s.night, head), indent=1)
            elif path == "/sheet.html":
                return self._send(h, 200, sheet_html(s.night, head), "text/html; charset=utf-8")
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
        h.send_header("Cache-Control", "no-store")
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
