"""The euchre night on the club's broker (``docs/euchre.md``, "On the club's link"): the tables' hands
in, each table's seating out (retained), and the pages told of every change.

One MQTT client (the dashboard's login: it reads every table's topics and writes the session's) puts each
``<prefix>/<table>/hand`` message in a queue from paho's thread; one worker thread takes what has arrived
as a batch (:meth:`NightSession.take`: read, checked, committed, applied), then publishes every table's
seating, whose ``answers`` answer the batch (so an answer always follows its commit), and wakes the
pages. A journal that cannot be written leaves the batch in the queue, offered again a moment later.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from firmware_host.euchre_night.session import NightSession, Offered, SessionFileError
from firmware_host.euchre_night.views import seat_names
from firmware_host.wire.euchre import EuchreSeating

log = logging.getLogger(__name__)
RETRY = 0.5


class NightService:
    """The night on the broker (see the module docstring).

    Args:
        session: the open night.
        host, port, username, password: the club's broker and the dashboard's login.
        page: the base address of the pages (a table's page is ``<page>/table/<id>``), told to each table.
    """

    def __init__(self, session: NightSession, host: str, port: int, username: str, password: str,
                 page: str = "") -> None:
        import paho.mqtt.client as mqtt

        self.session = session
        self.page = page
        self.inbox: queue.Queue[Offered] = queue.Queue()
        self.changed = threading.Condition()
        self.listeners: list[Callable[[int], None]] = []
        self._stop = threading.Event()
        self._held: list[Offered] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{username}-euchre",
                                  protocol=mqtt.MQTTv5)
        self.client.username_pw_set(username, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.connected = threading.Event()
        self.host, self.port = host, port
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.client.connect_async(self.host, self.port, keepalive=30)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name="euchre-night", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.inbox.put(Offered("", b""))
        if self._thread is not None:
            self._thread.join(10)
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.warning("euchre night: the broker refused the login: %s", reason_code)
            return
        client.subscribe(self.session.topics.hands, qos=1)
        self.publish_all()
        self.connected.set()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        self.inbox.put(Offered(msg.topic, bytes(msg.payload)))

    # -- the worker -------------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                first = self.inbox.get(timeout=RETRY) if not self._held else None
            except queue.Empty:
                continue
            batch = list(self._held)
            if first is not None and first.topic:
                batch.append(first)
            while True:
                try:
                    m = self.inbox.get_nowait()
                except queue.Empty:
                    break
                if m.topic:
                    batch.append(m)
            if not batch:
                continue
            try:
                self.session.take(batch)
            except SessionFileError as exc:
                log.warning("euchre night: the journal cannot be written (%s); %d message(s) held", exc, len(batch))
                self._held = batch
                self._stop.wait(RETRY)
                continue
            self._held = []
            self._changed()      # the pages first (both show only what is committed), then the tables
            self.publish_all()

    def call(self, by: str) -> str:
        """The director ends the round in play; '' or why not."""
        why = self.session.call(by)
        if not why:
            self.publish_all()
            self._changed()
        return why

    def _changed(self) -> None:
        v = self.session.version
        with self.changed:
            self.changed.notify_all()
        for cb in list(self.listeners):
            try:
                cb(v)
            except Exception:
                log.exception("euchre night: a listener failed")

    # -- seatings out -----------------------------------------------------------------------------------

    def seating(self, table: str) -> EuchreSeating:
        s = self.session
        with s.lock:
            night = s.night
            k = night.setup.tables.index(table) + 1
            rnd = night.current
            seats = seat_names(night, rnd, k)
            return EuchreSeating(table, k, rnd, night.setup.rounds, night.setup.hands, seats,
                                 rnd in night.called, night.table_done(rnd, k) if seats else True, night.finished,
                                 tuple(s.answers.get(table, ())), f"{self.page}/table/{table}" if self.page else "",
                                 s.version, time.time())

    def publish_all(self) -> None:
        for table in self.session.night.setup.tables:
            body = json.dumps(self.seating(table).to_dict(), separators=(",", ":"))
            self.client.publish(self.session.topics.seating(table), body, qos=1, retain=True)
