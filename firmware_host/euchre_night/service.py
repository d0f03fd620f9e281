"""The euchre night on the club's broker with its own client (``cardtable euchre serve``; ``docs/euchre.md``,
"On the club's link"): the night's desk (``desk.py``: the tables' hands in, each table's seating out,
retained, and the pages told of every change) on one MQTT client of its own.

The client (the dashboard's login: it reads every table's topics and writes the session's) hands each
``<prefix>/<table>/hand`` message to the desk (the session's ordering) from paho's thread; one thread
steps the desk whenever something arrived, and every ``WAKE`` seconds besides, so messages the ordering
holds while the journal cannot be written are tried again after its back-off. On the director's server the dashboard's client and hub carry the same desk instead
(``screens.py``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from firmware_host.euchre_night.desk import WAKE, NightDesk
from firmware_host.euchre_night.session import NightSession
from firmware_host.wire.euchre import EuchreSeating
from firmware_host.wire.subscribed import stop_loop, track_connected

log = logging.getLogger(__name__)


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
        self.desk = NightDesk(session, page)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{username}-euchre",
                                  protocol=mqtt.MQTTv5)
        self.client.username_pw_set(username, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.desk.connect(self._publish)
        self.connected = threading.Event()
        track_connected(self.client, self.connected, "euchre night", log)
        self.host, self.port = host, port
        self._thread: threading.Thread | None = None
        self.faults = 0      # steps that raised (logged each; the loop goes on)

    def _publish(self, topic: str, body: str, retain: bool) -> None:
        self.client.publish(topic, body, qos=1, retain=retain)

    @property
    def page(self) -> str:
        return self.desk.page

    @page.setter
    def page(self, value: str) -> None:
        self.desk.page = value

    @property
    def changed(self) -> threading.Condition:
        return self.desk.changed

    @property
    def listeners(self) -> list[Callable[[int], None]]:
        return self.desk.listeners

    def start(self) -> None:
        self.client.connect_async(self.host, self.port, keepalive=30)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name="euchre-night", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)
        self.client.disconnect()
        stop_loop(self.client)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.warning("euchre night: the broker refused the login: %s", reason_code)
            return
        client.subscribe(self.session.topics.hands, qos=1)
        self.desk.publish_all()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        if self.desk.offer(msg.topic, bytes(msg.payload)):
            self._wake.set()

    # -- the worker -------------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(WAKE)
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                self.desk.step()
            except Exception:   # one step's fault (a bug, not a message: those are refusals) never ends the loop
                self.faults += 1
                log.exception("euchre night: a step failed; the next one runs")

    def call(self, by: str) -> str:
        """The director ends the round in play; '' or why not."""
        return self.desk.call(by)

    def seating(self, table: str) -> EuchreSeating:
        return self.desk.seating(table)

    def publish_all(self) -> None:
        self.desk.publish_all()
