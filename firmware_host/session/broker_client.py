"""A duplicate session on the broker without the dashboard: an MQTT client of its own feeding a
``SessionDesk`` and a thread that ticks it. ``cardtable duplicate demo`` runs the session this way; a
club runs it inside the dashboard (``cardtable club dashboard --session DIR``), where the dashboard's
client feeds it and the desk's own thread (``SessionDesk.run``) ticks it likewise.

The desk's ticks (each a commit to the session's journal) run on a thread of their own, so a journal
that waits for the disk holds nothing else up. The client logs in with the dashboard's rights (it must
read the tables' ``board`` topics and write the session's topics); like any login it is one connection, so it needs a login of its own when a
dashboard runs beside it.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from firmware_host.session.duplicate_session import SessionDesk
from firmware_host.wire.subscribed import stop_loop, track_connected
from firmware_host.wire.topics import TOPICS

log = logging.getLogger(__name__)

SESSION_EXPIRY = 24 * 3600


class SessionService:
    """The desk on its own client.

    Args:
        desk: the session's desk.
        host, port: the broker.
        user, password: a login with the dashboard's rights.
        tick: seconds between two ticks of the desk.
        tls, ca_file: TLS to the broker, checked against ``ca_file`` (default the system's CAs).
    """

    def __init__(self, desk: SessionDesk, host: str, port: int, user: str, password: str, *,
                 tick: float = 0.025, tls: bool = False, ca_file: str | None = None) -> None:
        import paho.mqtt.client as mqtt

        self.desk = desk
        self.tick = tick
        self.broker = (host, port)
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password)
        if tls:
            self.client.tls_set(ca_certs=ca_file)
        self.client.reconnect_delay_set(1, 5)
        self.client.on_connect = self._on_connect
        track_connected(self.client, self.connected, "the session", log)
        self.client.on_message = lambda c, u, m: desk.offer(m.topic, bytes(m.payload))
        desk.connect(self.publish)

    def publish(self, topic: str, payload: str, retain: bool) -> None:
        """Send a message of the session's to the broker (QoS 1) on this client."""
        self.client.publish(topic, payload, qos=1, retain=retain)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.error("the broker refused the session's login: %s", reason_code)
            return
        client.subscribe([(TOPICS.boards, 1), (TOPICS.players, 1)])
        self.desk.publish_all()

    def start(self) -> None:
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_EXPIRY
        self.client.connect_async(*self.broker, keepalive=30, clean_start=False, properties=props)
        self.client.loop_start()
        self._thread = threading.Thread(target=self.desk.run, args=(self._stop, self.tick), name="duplicate-session",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        self.desk.tick()
        self.client.disconnect()
        stop_loop(self.client)
