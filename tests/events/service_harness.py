"""A test harness, not shipped: an event on its own broker client and its own plain pages, with **no
login**: what ``cardtable event run`` served before it ran the event on the director's server
(``club/event_screens.py``, behind the director's login). It lives under tests/ because no command uses
it and an HTTP server with no login must not ship; the tests drive the desk through it (the tables'
``board`` messages in, the answers and each table's seating out, retained). Never serve its HTTP on a
network.

* **MQTT.** The service reads ``<prefix>/+/board`` (QoS 1) with a login of the dashboard's rights. Each
  message goes to the session's ordering (``firmware_host/session/journalled.py``: read by the event's
  reader, answered only once committed, held in order while the journal cannot be written, a bounded
  note per refusal per login), taken every ``tick`` seconds on a worker thread (never on paho's network
  thread); once committed, each answer goes out on its table's seating topic
  ``<prefix>/session/table/<table>`` (retained) inside the table's view (:func:`views.table_view` plus
  ``answers``: the latest answers to its messages). When a result completes a round, every table's
  seating is republished at once with the next round's draw (after the last round: with ``finished``).
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
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from firmware_host.events.desk import EventDesk
from firmware_host.events.session import EventSession
from firmware_host.wire.subscribed import stop_loop, track_connected
from firmware_host.wire.topics import TOPICS

log = logging.getLogger(__name__)

PAGE_TABLE = re.compile(r"^/event/table/([A-Za-z0-9_-]{1,64})(\.json)?$")


class EventService:
    """The event's desk (``events/desk.py``) on its own MQTT client and HTTP server (see the module's
    docstring)."""

    def __init__(self, session: EventSession, host: str, port: int, user: str, password: str, *,
                 http_host: str = "127.0.0.1", http_port: int = 0, tick: float = 0.025) -> None:
        import paho.mqtt.client as mqtt

        self.session = session
        self.desk = EventDesk(session)
        self.desk.connect(lambda topic, text, retain: self.client.publish(topic, text, qos=1, retain=retain))
        self.broker = (host, port)
        self.connected = threading.Event()
        self.ordering = self.desk.ordering
        self.tick = tick
        self._stop = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{user}-event", protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        track_connected(self.client, self.connected, "the event", log)
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
        client.subscribe([(TOPICS.boards, 1), (TOPICS.players, 1)])
        self.desk.publish_all()

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
        stop_loop(self.client)
        self.client.disconnect()
        with self.desk.changed:
            self.desk.changed.notify_all()

    def offer(self, topic: str, payload: bytes) -> None:
        """A message from the broker (any thread): to the ordering, taken on the next tick."""
        self.desk.ordering.offer(topic, payload)

    def _work(self) -> None:
        while not self._stop.wait(self.tick):
            try:
                self.step()
            except Exception:  # one tick never stops the desk: it is logged and the next one runs
                log.exception("the event's desk could not take its messages")

    def step(self) -> bool:
        """One tick of the desk (``EventDesk.step``)."""
        return self.desk.step()

    def table_message(self, table: str) -> dict[str, Any]:
        return self.desk.table_message(table)

    def director(self) -> dict[str, Any]:
        return self.desk.director()

    def wait_change(self, version: int, timeout: float) -> int:
        return self.desk.wait_change(version, timeout)


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
    if (view.repeat) {{ out.push(`<p id="repeat">A repeat: these two have met before</p>`); }}
  }} else if (view.draws) {{
    const d = view.draws[view.draws.length - 1];
    out.push(`<p id="round">Round ${{d.round}} of ${{view.rounds}}${{view.finished ? " (finished)" : ""}}</p>`);
    const again = (m) => (d.repeats || []).some(x => x[0] === m[0] && x[1] === m[1]) ? " (repeat)" : "";
    out.push(`<ul id="draw">` + d.matches.map(m => `<li>${{m[0]}} v ${{m[1]}}${{again(m)}}</li>`).join("")
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
