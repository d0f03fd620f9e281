"""The club side of a soak (``--broker``): a real Mosquitto the table publishes to, and a subscriber that
stands for the dashboard, counting every ruling the way the dashboard does (one per table and ``seq``).

The broker keeps sessions across restarts (persistence on) and the subscriber's session is persistent
(QoS 1, a fixed client id), so a ruling published while the subscriber reconnects waits for it; a broker
outage is a fault (``broker``): Mosquitto is stopped and started again on the same port.

The same client sends the director's commands (``command``) exactly as the dashboard publishes them
(``firmware_host/club/dashboard.py``: ``Dashboard._send``): ``cardtable/<table>/command/<kind>``, QoS 1,
``{"table", "by", "t", "id", ...}`` with a fresh 16-hex-digit id, from the dashboard's login.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.wire.reader import read_json
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS


class Club:
    """A broker for one table, and the dashboard's ear on it."""

    def __init__(self, workdir: Path, table: str) -> None:
        self.table = table
        self.secret = secrets.token_urlsafe(12)
        self.password_file = workdir / "mqtt-password"
        self.password_file.write_text(self.secret + "\n")
        self.password_file.chmod(0o600)
        self._dash = secrets.token_urlsafe(12)
        self.broker = LocalBroker(workdir / "broker", {DASHBOARD_USER: self._dash, table: self.secret},
                                  persistence=True)
        self.seqs: Counter[int] = Counter()   # ruling seq -> deliveries
        self._lock = threading.Lock()
        self.client: Any = None

    def config(self) -> str:
        """The ``[mqtt]`` section for the table's configuration."""
        return (f'\n[mqtt]\nhost = "127.0.0.1"\nport = {self.broker.port}\nusername = "{self.table}"\n'
                f'password_file = "{self.password_file}"\n')

    def start(self) -> None:
        import paho.mqtt.client as mqtt

        self.broker.start()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"soak-dashboard-{self.table}",
                        clean_session=False)
        c.username_pw_set(DASHBOARD_USER, self._dash)
        c.on_connect = lambda cl, u, f, rc, p: cl.subscribe(TOPICS.table(self.table, "ruling"), qos=1)
        c.on_message = self._message
        c.reconnect_delay_set(0.1, 1.0)
        c.connect("127.0.0.1", self.broker.port)
        c.loop_start()
        self.client = c

    def _message(self, client: Any, userdata: Any, msg: Any) -> None:
        read = read_json(msg.payload)   # the one checked reader of what comes over the wire
        seq = read.value.get("seq", -1) if read.ok and isinstance(read.value, dict) else -1
        seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else -1
        with self._lock:
            self.seqs[seq] += 1

    def command(self, kind: str, fields: dict[str, Any]) -> str:
        """Publish one director's command to the table as the dashboard does; returns its id."""
        cid = secrets.token_hex(8)
        body = {"table": self.table, "by": "soak", "t": time.time(), "id": cid, **fields}
        self.client.publish(TOPICS.command(self.table, kind), json.dumps(body), qos=1)
        return cid

    def received(self) -> set[int]:
        with self._lock:
            return set(self.seqs)

    def close(self) -> None:
        if self.client is not None:
            stop_loop(self.client)
            self.client.disconnect()
        self.broker.stop()
