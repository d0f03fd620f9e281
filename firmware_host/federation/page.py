"""The federation's live page: the field's ranking and each club's own, as the release rule allows.

``cardtable federation serve --web PORT`` serves, with the standard library's HTTP server:

* ``/`` — one HTML page (no outside scripts, fonts or styles) that fetches ``/standings.json`` every
  ``POLL_MS`` milliseconds and draws the field's rankings and every club's own ranking, again only
  when the view has changed (a reader's scroll and selection on a phone stay as they were);
* ``/standings.json`` — the public view exactly as the service last published it on
  ``fed/<event>/public/standings`` (``docs/federation.md``): only boards every club has finished
  count until the event is closed, so the page can never show more than the public topic.

* ``/club/<club>`` and ``/club/<club>.json`` — the club's own page: what the club receives on its
  ``in/field`` (the boards it has finished and its own ranking on them at the field's matchpoints,
  ``docs/federation.md``, "A club's own ranking"), behind the club's own login (HTTP Basic, the login
  and password of its bridge, from ``serve --passwords``), since it counts boards another club may not
  have finished yet. Without the right login: 401; a club not in the event: 404.

Any other path is 404; only GET and HEAD are answered. The page escapes every name it draws. The server
holds a bounded number of connections, from one address and in all, each closed after a few seconds of
silence (``web.bounded``): connections an outsider opened and left idle once took every file of the
process, the service's with them.
"""

from __future__ import annotations

import base64
import hmac
import json
import logging
import threading
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler
from typing import Any

from firmware_host.web.bounded import BoundedHTTPServer

log = logging.getLogger(__name__)
POLL_MS = 1000

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Simultaneous __EVENT__</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:0.8rem;background:#f6f6f2;color:#111}
h1{font-size:1.3rem;margin:0 0 .3rem}
#state{color:#444;margin:0 0 .8rem}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(17rem,1fr));gap:.8rem}
section{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.5rem}
h2{font-size:1.05rem;margin:.1rem 0 .4rem}
table{border-collapse:collapse;width:100%}
td,th{padding:.15rem .35rem;text-align:left;border-bottom:1px solid #eee;font-variant-numeric:tabular-nums}
td.n,th.n{text-align:right}
</style></head>
<body><h1>Simultaneous __EVENT__</h1>
<p id="state">waiting for the field…</p>
<div id="field" class="grid"></div>
<h1>Each club's own ranking</h1>
<div id="clubs" class="grid"></div>
<script>
"use strict";
function cell(tag, text, cls){const c=document.createElement(tag);c.textContent=text;if(cls)c.className=cls;return c;}
function ranking(name, rows){
  const s=document.createElement("section");s.dataset.ranking=name;
  s.appendChild(cell("h2",name));
  const t=document.createElement("table");const h=document.createElement("tr");
  for(const [w,c] of [["place","n"],["club",""],["pair",""],["%","n"]])h.appendChild(cell("th",w,c));
  t.appendChild(h);
  for(const r of rows){const tr=document.createElement("tr");
    tr.appendChild(cell("td",String(r.place),"n"));tr.appendChild(cell("td",r.club));
    tr.appendChild(cell("td",r.pair));
    tr.appendChild(cell("td",r.percent===null?"":r.percent.toFixed(2),"n"));t.appendChild(tr);}
  s.appendChild(t);return s;
}
let drawn=null;
async function tick(){
  try{
    const r=await fetch("standings.json",{cache:"no-store"});const text=await r.text();
    if(text===drawn)return;
    const v=JSON.parse(text);
    const taken=Object.values(v.taken||{}).reduce((a,b)=>a+b,0);
    document.getElementById("state").textContent=(v.boards.length?
      "boards "+v.boards.join(", ")+(v.closed?" (the event is closed)":" (finished by every club)"):
      "no board finished by every club yet")+"; "+taken+" messages taken";
    const f=document.getElementById("field"),c=document.getElementById("clubs");
    f.replaceChildren();c.replaceChildren();
    for(const [name,rows] of Object.entries(v.rankings||{}))
      (name.startsWith("field ")?f:c).appendChild(ranking(name,rows));
    document.body.dataset.taken=String(taken);drawn=text;
  }catch(e){drawn=null;document.getElementById("state").textContent="the federation cannot be reached; trying again";}
}
tick();setInterval(tick,__POLL__);
</script></body></html>
"""


CLUB_PAGE = PAGE.replace("<title>Simultaneous __EVENT__</title>", "<title>__CLUB__: simultaneous __EVENT__</title>") \
    .replace("<body><h1>Simultaneous __EVENT__</h1>", "<body><h1>__CLUB__ in the simultaneous __EVENT__</h1>") \
    .replace("<h1>Each club's own ranking</h1>\n", "") \
    .replace('fetch("standings.json"', 'fetch("__CLUB__.json"') \
    .replace('"boards "+v.boards.join(", ")+(v.closed?" (the event is closed)":" (finished by every club)"):\n'
             '      "no board finished by every club yet")+"; "+taken+" messages taken"',
             '"your ranking on boards "+v.boards.join(", ")+" at the field\'s matchpoints":'
             '"no board finished yet")') \
    .replace('(name.startsWith("field ")?f:c)', "f")


class FieldPage:
    """The page's HTTP server on ``bind:port`` (0: a free port), reading the view from ``view`` and a
    club's from ``club_view`` (None: the club has no view yet) behind its login in ``logins``."""

    def __init__(self, view: Callable[[], dict[str, Any]], event: str, bind: str = "127.0.0.1",
                 port: int = 0, *, club_view: Callable[[str], dict[str, Any] | None] | None = None,
                 logins: Mapping[str, str] | None = None) -> None:
        page = PAGE.replace("__EVENT__", event).replace("__POLL__", str(POLL_MS)).encode("utf-8")
        clubs = dict(logins or {}) if club_view is not None else {}

        def club_page(club: str) -> bytes:
            return CLUB_PAGE.replace("__EVENT__", event).replace("__POLL__", str(POLL_MS)) \
                .replace("__CLUB__", club).encode("utf-8")

        def allowed(club: str, header: str | None) -> bool:
            if not header or not header.startswith("Basic "):
                return False
            try:
                user, _, password = base64.b64decode(header[6:], validate=True).decode("utf-8").partition(":")
            except (ValueError, UnicodeDecodeError):
                return False
            return hmac.compare_digest(user.encode(), club.encode()) and \
                hmac.compare_digest(password.encode(), clubs[club].encode())

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                self._answer(True)

            def do_HEAD(self) -> None:  # noqa: N802
                self._answer(False)

            def _answer(self, body: bool) -> None:
                path = self.path.split("?", 1)[0]
                club = path[len("/club/"):].removesuffix(".json") if path.startswith("/club/") else ""
                if path == "/":
                    data, kind, status = page, "text/html; charset=utf-8", 200
                elif path == "/standings.json":
                    data, kind, status = json.dumps(view(), sort_keys=True).encode(), "application/json", 200
                elif club in clubs and club_view is not None and not allowed(club, self.headers.get("Authorization")):
                    data, kind, status = b"the club's login is needed\n", "text/plain; charset=utf-8", 401
                elif club in clubs and club_view is not None and path.endswith(".json"):
                    mine = club_view(club) or {"boards": [], "rankings": {}}
                    data, kind, status = json.dumps(mine, sort_keys=True).encode(), "application/json", 200
                elif club in clubs:
                    data, kind, status = club_page(club), "text/html; charset=utf-8", 200
                else:
                    data, kind, status = b"not found\n", "text/plain; charset=utf-8", 404
                self.send_response(status)
                if status == 401:
                    self.send_header("WWW-Authenticate", f'Basic realm="club {club}", charset="UTF-8"')
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; "
                                 "style-src 'unsafe-inline'")
                self.end_headers()
                if body:
                    self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                log.debug("page: " + format, *args)

        # bounded (web.bounded): the page answers anyone, and idle connections held by an outsider took
        # every file of the process the service shares
        self.server = BoundedHTTPServer((bind, port), Handler)
        self.port = int(self.server.server_address[1])
        self._thread = threading.Thread(target=self.server.serve_forever, name="federation-page", daemon=True)

    def start(self) -> FieldPage:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
