"""The broadcast service on the club's machine: the thin shell around :class:`live.Releaser`.

It logs in to the club's broker as ``broadcast`` (the one login the ACL lets read the tables' ``play``
topics), subscribes to ``<prefix>/+/play``, and on one thread of its own, every ``tick`` seconds, hands
what arrived to the releaser and publishes what it releases on ``<prefix>/spectate/...`` (retained,
QoS 1). Nothing else is published; the spectators' page (``page.py``) reads only those topics, with the
``spectator`` login.

It also subscribes to ``<prefix>/spectate/#``: the retained messages an earlier run left there (last
week's session, or this one under another rule) would stay on every spectator's page, hands and all,
though this run released none of them. Each one found that this run's rule does not release for this
session (``Releaser.stale``) is cleared (an empty retained message) on the next step.

A restart misses nothing (``docs/broadcast.md``, "A restart"): the service's MQTT session is persistent (a
stable client id, its login; clean start off; ``SESSION_EXPIRY``), so the broker queues the tables' play
while it is away; a message is acknowledged (manual acknowledgement) only once it is written to the
:class:`received.Received` file, which the next run reads back first. On every connection it publishes
again every board it has released (a broker restarted without its retained messages has lost them).

The session's word (``session_word``, the session's journal read only: ``SessionFold.done``) is read again
every ``word_every`` seconds and handed to the releaser (``Releaser.learn``): a result entered by hand at
the club reaches the broadcast by no message, and ``after-field`` waits for every table's.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from firmware_host.broadcast.live import Publication, Releaser
from firmware_host.broadcast.received import Received
from firmware_host.wire.duplicate import BROKER_PACKET, seating_room
from firmware_host.wire.subscribed import stop_loop, track_connected
from firmware_host.wire.topics import BROADCAST_USER

log = logging.getLogger(__name__)
SESSION_EXPIRY = 24 * 3600   # seconds the broker keeps the broadcast's session, queueing the tables' play


class BroadcastService:
    """Moves messages between the broker and a :class:`Releaser`.

    Args:
        releaser: the pure core.
        host, port: the club's broker.
        password: the ``broadcast`` login's password.
        user: the login (``broadcast``).
        tick: seconds between two looks at what arrived.
        clock: wall-clock seconds (compared with the tables' commit times).
        received: where what is taken is kept across restarts (None: nowhere, a restart starts empty).
        session_word: the lines the session's journal holds now, (table number, board) -> since when
            (``SessionFold.done``; None: the tables' own results alone).
        word_every: seconds between two reads of ``session_word``.
    """

    def __init__(self, releaser: Releaser, host: str, port: int, password: str, *, user: str = BROADCAST_USER,
                 tick: float = 0.02, clock: Callable[[], float] = time.time,
                 received: Received | None = None,
                 session_word: Callable[[], Mapping[tuple[int, int], float]] | None = None,
                 word_every: float = 1.0) -> None:
        import paho.mqtt.client as mqtt

        self.releaser = releaser
        self.session_word = session_word
        self.word_every = word_every
        self._word_next = float("-inf")
        self.tick = tick
        self.clock = clock
        self.inbox: deque[tuple[str, bytes, int, int, bool]] = deque()   # topic, payload, mid, qos, retained
        self.received = received
        self.recovered = 0
        self._republish = False
        self._connections = 0
        self.login_refused = ""              # the broker's refusal of the login at the first connection
        self.answered = threading.Event()    # the broker answered the first connection (or cannot be reached)
        self.connected = threading.Event()
        self.published = 0
        self.oversize = 0                    # publications not sent: over the broker's packet limit
        self.cleared = 0
        self.found: deque[tuple[str, bytes]] = deque()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5,
                                  manual_ack=True)   # a play message is acknowledged once written down
        self.client.username_pw_set(user, password)
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.client.on_connect = self._on_connect
        track_connected(self.client, self.connected, "broadcast", log)
        self.client.on_message = self._on_message
        self.client.on_connect_fail = self._on_connect_fail
        self.host, self.port = host, port
        self._fail_said = False

    def start(self) -> None:
        """Read back what earlier runs of this session took, then connect (its boards go out on connecting)."""
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        if self.received is not None:
            for topic, raw in self.received.read():
                try:
                    self.releaser.offer(topic, raw, self.clock())
                    self.recovered += 1
                except Exception:   # one message never stops the broadcast
                    log.exception("broadcast: a message kept in %s could not be taken again", self.received.path)
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_EXPIRY
        self.client.connect_async(self.host, self.port, keepalive=30, clean_start=False, properties=props)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name="broadcast", daemon=True)
        self._thread.start()

    def wait_ready(self, timeout: float) -> None:
        """Wait until the broker answered the first connection and, if it took the login, granted the
        subscriptions (``connected``): a table's ``play`` sent before that reaches no session of the
        broadcast's at its first connection, so "broadcasting" is said only after it (or after ``timeout``)."""
        deadline = time.monotonic() + timeout
        self.answered.wait(timeout)
        if self._connections and not self.login_refused:
            self.connected.wait(max(0.0, deadline - time.monotonic()))

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)   # a step under way ends first (it may be writing LIN)
        self.client.disconnect()
        stop_loop(self.client)
        if self.received is not None:
            self.received.close()

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        """paho retries quietly: say once that the broker cannot be reached (nothing is released meanwhile)."""
        self.answered.set()
        if not self._fail_said:
            self._fail_said = True
            log.warning("broadcast: cannot reach the broker at %s:%s (retrying; nothing reaches the spectators "
                        "until it answers)", self.host, self.port)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        self._fail_said = False
        if reason_code.is_failure:
            if self._connections == 0 and reason_code.value in (134, 135):   # bad user name or password, not authorized
                self.login_refused = str(reason_code)   # never accepted: a wrong password file, the command stops
                self.answered.set()
                return
            log.warning("broadcast: the broker refused the login: %s (retrying)", reason_code)
            return
        self.answered.set()
        self._connections += 1
        if self._connections > 1 and not flags.session_present:
            log.warning("broadcast: the broker kept no session for the broadcast (restarted without persistence, "
                        "or the session expired): play the tables sent meanwhile is lost to it; a board begun "
                        "meanwhile is not shown and its rows are counted as missed")
        self._republish = True   # every board released so far goes out again (the broker may have lost them)
        client.subscribe(self.releaser.topics.play("+"), qos=1)
        client.subscribe(self.releaser.topics.spectate_all, qos=1)   # to learn what earlier runs left
        topic, payload = self.releaser.event_message()
        client.publish(topic, payload, qos=1, retain=True)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        if msg.topic.startswith(self.releaser.topics.spectate_root):
            if msg.retain and msg.payload:      # left on the broker (ours as we publish come unretained)
                self.found.append((msg.topic, msg.payload))
            client.ack(msg.mid, msg.qos)
            return
        self.inbox.append((msg.topic, msg.payload, msg.mid, msg.qos, bool(msg.retain)))

    def step(self) -> list[Publication]:
        """Hand what arrived to the releaser, and what time released; publish it all."""
        out: list[Publication] = []
        acks: list[tuple[int, int]] = []
        with self._lock:
            while self.found:
                topic, raw = self.found.popleft()
                if self.releaser.stale(topic, raw):
                    self.client.publish(topic, b"", qos=1, retain=True)   # an empty retained message clears it
                    self.cleared += 1
                    log.info("broadcast: cleared %s, left by an earlier run and not released by this one", topic[:200])
            if self._republish:
                self._republish = False
                out += self.releaser.snapshots()
            while self.inbox:
                topic, raw, mid, qos, retained = self.inbox.popleft()
                taken = self.releaser.taken
                try:
                    out += self.releaser.offer(topic, raw, self.clock(), retained=retained)
                except Exception:   # one message never stops the broadcast
                    log.exception("broadcast: a message on %s could not be taken", topic[:200])
                if self.received is not None and self.releaser.taken > taken:
                    self.received.append(topic, raw)
                acks.append((mid, qos))
            if acks and self.received is not None:
                self.received.sync()   # on the disk before the broker forgets it (a failure: no ack, resent)
            now = self.clock()
            if self.session_word is not None and now >= self._word_next:
                self._word_next = now + self.word_every
                try:
                    out += self.releaser.learn(self.session_word(), now)
                except Exception:   # the session's word only adds facts: the tables' own go on without it
                    log.exception("broadcast: the session's journal could not be read for its results")
            out += self.releaser.tick(now)
        for mid, qos in acks:
            self.client.ack(mid, qos)
        latest: dict[str, str] = {}
        for topic, payload in out:   # one board's snapshot is whole: only the newest of a batch goes
            latest.pop(topic, None)
            latest[topic] = payload
        for topic, payload in latest.items():
            # over the club broker's packet (``wire.duplicate.seating_room``, docs/mqtt.md), Mosquitto would
            # disconnect this login and paho send it again at every reconnect: no spectator would see anything
            size = len(payload.encode() if isinstance(payload, str) else payload)
            if size > seating_room(topic):
                self.oversize += 1
                log.warning("broadcast: %s not published: %d bytes, over the %d the broker's %d-byte packet "
                            "leaves it (%d so far)", topic[:200], size, seating_room(topic), BROKER_PACKET,
                            self.oversize)
                continue
            self.client.publish(topic, payload, qos=1, retain=True)
            self.published += 1
        return out

    def _run(self) -> None:
        while not self._stop.wait(self.tick):
            try:
                self.step()
            except Exception:
                log.exception("broadcast: a step failed; going on")
