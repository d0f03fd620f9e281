"""An event on the broker and its pages: the tables' ``board`` messages in, the answers and each table's
seating out (retained), and the director's and tables' pages over HTTP.

* **MQTT.** The service reads ``<prefix>/+/board`` (QoS 1) with a login of the dashboard's rights. Each
  message goes to the session's ordering (``firmware_host/session/ordering.py``: read by the event's
  reader, answered only once committed, held in order while the journal cannot be written, a bounded
  note per refusal per login), taken every ``tick`` seconds on a worker thread (never on paho's network
  thread); once committed, each answer goes out on its table's seating topic
  ``<prefix>/session/table/<table>`` (retained) inside the table's view (:func:`views.table_view` plus
  ``answers``: the latest answers to its messages). When a result completes a round, every table's
  seating is republished at once with the next round's draw.
* **HTTP** (``http.server`` on its own thread; it binds 127.0.0.1 unless told otherwise, and has no
  login: put it behind the club's dashboard or a trusted network). ``/event`` is the director's page and
  ``/event/table/<table>`` a table's; each page's script listens to ``/event/stream`` (server-sent
  events: the event's version each time it changes) and fetches ``/event/view.json`` or
  ``/event/table/<table>.json`` again, so a new draw is on every page as soon as it is made.
"""

from __future__ import annotations

import html
import json
import logging
import re
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from firmware_host.events.session import EventSession
from firmware_host.events.views import director_view, table_view
from firmware_host.session.ordering import SessionOrdering
from firmware_host.wire.messages import ANSWERS_KEPT
from firmware_host.wire.topics import TOPICS

log = logging.getLogger(__name__)

PAGE_TABLE = re.compile(r"^/event/table/([A-Za-z0-9_-]{1,64})(\.json)?$")


def _refusals(refusals: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The director's refusals as the view lists them: ``source`` and ``why``."""
    return [{"source": str((r.get("record") or {}).get("source", r.get("source", ""))), "why": str(r.get("why", ""))}
            for r in refusals]


class EventService:
    """The event on its own MQTT client and HTTP server (see the module's docstring)."""

    def __init__(self, session: EventSession, host: str, port: int, user: str, password: str, *,
                 http_host: str = "127.0.0.1", http_port: int = 0, tick: float = 0.025) -> None:
        import paho.mqtt.client as mqtt

        self.session = session
        self.broker = (host, port)
        self.connected = threading.Event()
        self.changed = threading.Condition()
        self.lock = threading.RLock()   # the worker's commits and the pages' reads of the state
        self.ordering = SessionOrdering(session, read=session.reader())
        self.tick = tick
        self._stop = threading.Event()
        self._answers: dict[str, deque[dict[str, Any]]] = {t: deque(maxlen=ANSWERS_KEPT) for t in session.tables}
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{user}-event", protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self.connected.clear()
        self.client.on_message = lambda c, u, m: self.offer(m.topic, bytes(m.payload))
        self.http = ThreadingHTTPServer((http_host, http_port), _handler(self))
        self.http.daemon_threads = True
        self._threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        host, port = self.http.server_address[:2]
        return f"http://{host!s}:{port}"

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.error("the broker refused the event's login: %s", reason_code)
            return
        client.subscribe([(TOPICS.boards, 1)])
        self.publish_all()
        self.connected.set()

    def start(self) -> None:
        self.client.connect_async(*self.broker, keepalive=30)
        self.client.loop_start()
        for target, name in ((self._work, "event-desk"), (self.http.serve_forever, "event-http")):
            th = threading.Thread(target=target, name=name, daemon=True)
            th.start()
            self._threads.append(th)

    def stop(self) -> None:
        self._stop.set()
        self.http.shutdown()
        self.http.server_close()
        self.client.loop_stop()
        self.client.disconnect()
        with self.changed:
            self.changed.notify_all()

    # -- the desk -------------------------------------------------------------------------------------

    def offer(self, topic: str, payload: bytes) -> None:
        """A message from the broker (any thread): to the ordering, taken on the next tick."""
        self.ordering.offer(topic, payload)

    def _work(self) -> None:
        while not self._stop.wait(self.tick):
            try:
                self.step()
            except Exception:  # one tick never stops the desk: it is logged and the next one runs
                log.exception("the event's desk could not take its messages")

    def step(self) -> bool:
        """One tick: every message that arrived read, checked, committed in one transaction (the ordering),
        then answered; every table's seating again when a round was drawn. False when nothing was taken
        (nothing came, or the journal cannot be written: held)."""
        with self.lock:
            drawn = self.session.state.drawn
            outcomes = self.ordering.take()
            if outcomes is None:
                return False
            tables = set()
            for outcome in outcomes:
                taken = self.session.taken(outcome, drawn)
                table = str((outcome.record or {}).get("table", ""))
                if table in self._answers:
                    self._answers[table].append(taken.answer())
                    tables.add(table)
            if self.session.state.drawn != drawn:
                log.info("round %d drawn", self.session.state.drawn)
                self.publish_all()
            else:
                for table in sorted(tables):
                    self.publish_table(table)
        with self.changed:
            self.changed.notify_all()
        return True

    def table_message(self, table: str) -> dict[str, Any]:
        s = self.session
        with self.lock:   # re-entrant: the worker holds it while it publishes
            view = table_view(s.event, s.tables, table, s.version)
            view["answers"] = list(self._answers.get(table, ()))
        return view

    def publish_table(self, table: str) -> None:
        self.client.publish(TOPICS.seating(table), json.dumps(self.table_message(table)), qos=1, retain=True)

    def publish_all(self) -> None:
        for table in self.session.tables:
            self.publish_table(table)

    def director(self) -> dict[str, Any]:
        s = self.session
        with self.lock:
            return director_view(s.event, s.tables, s.version, _refusals(s.refusals))

    def wait_change(self, version: int, timeout: float) -> int:
        with self.changed:
            self.changed.wait_for(lambda: self.session.version != version, timeout)
        return self.session.version


PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head>
<body><h1>{title}</h1><div id="view">…</div>
<script>
const source = {source};
function cell(v) {{ return String(v === null || v === undefined ? "" : v)
  .replace(/&/g, "&amp;").replace(/</g, "&lt;"); }}
function draw(view) {{
  const out = [];
  if (view.seat) {{
    const s = view.seat;
    out.push(`<p id="round">Round ${{view.round}} of ${{view.rounds}}: boards ${{view.boards.join(", ")}}</p>`);
    out.push(`<p id="seats">N ${{cell(s.north)}} S ${{cell(s.south)}} E ${{cell(s.east)}} W ${{cell(s.west)}}`
             + (s.room ? ` (${{cell(s.room)}} room, match ${{s.match}})` : "")
             + (s.section ? ` (section ${{cell(s.section)}})` : "") + `</p>`);
  }} else if (view.draws) {{
    const d = view.draws[view.draws.length - 1];
    out.push(`<p id="round">Round ${{d.round}} of ${{view.rounds}}${{view.finished ? " (finished)" : ""}}</p>`);
    out.push(`<ul id="draw">` + d.matches.map(m => `<li>${{m[0]}} v ${{m[1]}}</li>`).join("")
             + d.byes.map(b => `<li>${{b}}: bye</li>`).join("") + `</ul>`);
    const who = view.kind.startsWith("teams") || view.kind === "swiss-teams" ? "team"
      : view.kind === "individual" ? "player" : "pair";
    out.push(`<ul id="standings">` + view.standings.map(s => `<li>${{s.field ? cell(s.field) + ": " : ""}}`
             + `${{cell(s.place)}} ${{who}} ${{cell(s.competitor || s.player || s.pair)}}, `
             + (s.vp ? `${{cell(s.vp)}} VP` : `${{cell(s.percent)}} %`) + `</li>`).join("") + `</ul>`);
  }} else {{
    out.push(`<p id="round">Round ${{view.round}}: this table has a bye</p>`);
  }}
  document.getElementById("view").innerHTML = out.join("");
}}
function refresh() {{ fetch(source, {{cache: "no-store"}}).then(r => r.json()).then(draw); }}
new EventSource("/event/stream").onmessage = refresh;
refresh();
</script></body></html>
"""


def _handler(service: EventService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, fmt: str, *args: Any) -> None:
            log.debug(fmt, *args)

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = self.path.split("?", 1)[0]
            if path == "/event":
                self._page(service.session.event.spec.name, "/event/view.json")
            elif path == "/event/view.json":
                self._json(service.director())
            elif path == "/event/stream":
                self._stream()
            elif (m := PAGE_TABLE.match(path)) is not None:
                if m.group(1) not in service.session.tables:
                    self._send(404, f"no table {m.group(1)} in the event\n".encode(), "text/plain; charset=utf-8")
                elif m.group(2):
                    self._json(service.table_message(m.group(1)))
                else:
                    self._page(f"{service.session.event.spec.name}: {m.group(1)}", f"/event/table/{m.group(1)}.json")
            else:
                self._send(404, b"not found\n", "text/plain; charset=utf-8")

        def _page(self, title: str, source: str) -> None:
            body = PAGE.format(title=html.escape(title), source=json.dumps(source))
            self._send(200, body.encode(), "text/html; charset=utf-8")

        def _json(self, value: Any) -> None:
            self._send(200, json.dumps(value).encode(), "application/json")

        def _stream(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            version = -1
            try:
                while True:
                    now = service.wait_change(version, 15.0)
                    if now == version:
                        self.wfile.write(b": still here\n\n")
                    else:
                        version = now
                        self.wfile.write(f"data: {version}\n\n".encode())
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError, OSError):
                return

    return Handler
