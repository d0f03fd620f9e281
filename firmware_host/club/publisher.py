"""The table's MQTT publisher: a ``TableObserver`` that tells the club's broker what happens at the table.

Topic tree (``docs/mqtt.md``), all under ``cardtable/<table>/``: ``status`` and ``pack/<pack>`` (retained,
latest value), ``event``, ``ruling``, ``deal`` (ordered, QoS 1, each carrying its journal ``seq``),
``heartbeat`` (QoS 0), ``online`` (retained; the broker publishes ``false`` as our will), ``board`` (a
duplicate board's confirmed result, ordered), and the table subscribes to ``command/+`` for the
director's acknowledgements (and, in a duplicate session, to its seating under ``cardtable/session/``).

The table holds a persistent MQTT 5 session (clean start off, ``SESSION_EXPIRY`` seconds): while it is
away (restarting, unplugged) the broker keeps its subscription and queues the director's commands for it,
and delivers them when it returns. A command is acknowledged to the broker (PUBACK, paho's manual
acknowledgement) only when the table says it is committed (``on_command(..., acknowledges=True)``), so a
command the table had not journaled when it stopped is delivered again. Each ordered message names the journal seq of the one before it
(``prev``), so the dashboard can tell a gap from the ordinary holes in journal seqs; each status names the
ids of the last commands the table has taken in (``done``), so the dashboard can stop showing them pending.

Every ordered message is first written to the outbox in the journal's SQLite file (``outbox.Outbox``),
then handed to paho by a sender thread, in order, while the broker is connected; a message leaves the
outbox when the broker acknowledges it. A broker outage therefore only delays messages, and a restart of
the table sends what was not yet acknowledged. The broker may see a message twice (QoS 1 is "at least
once"); the dashboard drops repeats by ``(table, kind, seq)``.

Card identities of an open deal never reach the outbox (``secrecy.SecrecyFilter``).
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from firmware_host.club.link import (
    check_command,
    connect_problem,
    read_password,
    topic,
)
from firmware_host.club.outbox import Outbox
from firmware_host.club.secrecy import SecrecyFilter, hide_cards
from firmware_host.config import MqttConfig
from firmware_host.duplicate.link import (
    ROUND_TOPIC,
    SESSION_PREFIX,
    LinkError,
    parse_session_message,
    seating_topic,
)
from firmware_host.records.journal import Journal
from firmware_host.wire.topics import TABLE_ID

log = logging.getLogger(__name__)

FRESH_MAX = 1000     # messages kept in memory for the sender beside the outbox
ACK_BATCH, ACK_EVERY = 64, 0.25  # acknowledged outbox rows are deleted in batches
STATUS_EVERY = 0.1   # seconds between two status messages at most (the newest one wins)
SESSION_EXPIRY = 7 * 24 * 3600  # seconds the broker keeps a table's session (and its commands) while away
DONE_KEPT = 32       # ids of the latest commands handed to the table, told in every status
CommandCallback = Callable[..., None]
SessionCallback = Callable[[dict[str, Any]], None]


class MqttPublisher:
    """Publishes one table to the club's broker; implements ``firmware_host.table.observer.TableObserver``.

    Args:
        config: the ``[mqtt]`` section.
        table_id: the table's id (also its broker username by default); letters, digits, ``-``, ``_``.
        journal: the table's open journal; the outbox lives in the same file.
        clock: wall-clock seconds for the ``t`` of each message (``time.time``).
        password: overrides ``config.password_file`` (for a simulated club).
        reveal_cards: show card identities live (the club opted in); default from the config.
        heartbeat: seconds between heartbeats.
        window: how many messages may wait for the broker's acknowledgement at once.
    """

    def __init__(self, config: MqttConfig, table_id: str, journal: Journal,
                 clock: Callable[[], float] = time.time, *, password: str | None = None,
                 reveal_cards: bool | None = None, heartbeat: float = 5.0, window: int = 200) -> None:
        import paho.mqtt.client as mqtt

        if not TABLE_ID.match(table_id):
            raise ValueError(f"table id {table_id!r} cannot be an MQTT topic level: use letters, digits, - or _")
        self.config = config
        self.table = table_id
        self.clock = clock
        self.heartbeat = heartbeat
        self.window = window
        self.outbox = Outbox(journal.path, journal.synchronous)
        reveal = config.reveal_cards if reveal_cards is None else reveal_cards
        self.secrecy = SecrecyFilter(reveal=reveal)
        self._journal = journal
        self._callbacks: list[tuple[CommandCallback, bool]] = []
        self._session_callbacks: list[SessionCallback] = []
        self._wake = threading.Condition()
        self._stop = False
        self._connected = False
        self._latest_dirty = True  # retained values left unsent by an earlier run go out first
        self._status_env: dict[str, Any] | None = None
        self._status_dirty = False
        self._status_at = 0.0
        self._sent_id = 0            # highest outbox id handed to paho in this process
        self._inflight: dict[int, int] = {}  # paho mid -> outbox id (sender thread only)
        self._acked_mids: deque[int] = deque()
        self._acked: list[int] = []
        self._acked_at = 0.0
        self._fresh: deque[tuple[int, str, str]] = deque()
        self._backlog = True  # the outbox may hold rows not in _fresh (from an earlier run, an outage)
        # The seq of the last ordered message ever queued (this run or an earlier one): the next one's ``prev``.
        self._last_seq = self.outbox.last_queued_seq()
        self._done: deque[str] = deque(maxlen=DONE_KEPT)
        self._thread: threading.Thread | None = None
        self.refused_commands = 0
        self.connected_event = threading.Event()
        user = config.username or table_id
        # The broker binds a client id to its login (use_username_as_clientid); ours is the login too.
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5,
                                  manual_ack=True)  # a command is acknowledged once the table committed it
        self.client.username_pw_set(user, password if password is not None else read_password(config))
        if config.tls:  # the broker's certificate checked against the club's CA, or the system's
            self.client.tls_set(ca_certs=str(config.ca_file) if config.ca_file else None,
                                cert_reqs=ssl.CERT_REQUIRED)
        self.client.will_set(topic(table_id, "online"), json.dumps({"table": table_id, "online": False}),
                             qos=1, retain=True)
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.client.max_inflight_messages_set(min(window, 100))
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self._fail_said = ""
        self._owed: deque[tuple[int, str, str]] = deque()  # committed, not yet in the outbox
        self._owed_said = False
        self._send_problem = ""
        self._resend_latest = False
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message

    # -- life ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (the table works whether or not the broker answers)."""
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self._stop = False
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_EXPIRY
        # Clean start off: the broker resumes our session, with the commands it queued while we were away.
        self.client.connect_async(self.config.host, self.config.port, keepalive=30, clean_start=False,
                                  properties=props)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name=f"mqtt-{self.table}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop sending (what is unsent stays in the outbox) and disconnect."""
        with self._wake:
            self._stop = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
        self._flush_acks(force=True)
        self.client.disconnect()
        self.client.loop_stop()
        self.outbox.close()

    def on_command(self, callback: CommandCallback, *, acknowledges: bool = False) -> None:
        """Call ``callback(kind, body)`` for each valid command from the dashboard (``kind`` one of
        ``COMMANDS``); the broker is acknowledged when every callback has returned.

        With ``acknowledges``, call ``callback(kind, body, problem, ack)`` for every command, refused ones
        too (``problem`` says why, ``body`` is ``{}`` when the payload could not be read), and
        acknowledge the broker only when the callback calls ``ack()`` (from any thread; once the command,
        or its refusal, is committed). The command's id goes into the status's ``done`` then.

        Called on paho's network thread; the callback must return quickly.
        """
        self._callbacks.append((callback, acknowledges))

    def on_session(self, callback: SessionCallback) -> None:
        """Call ``callback(message)`` for each duplicate session message meant for this table (the round
        called, ``cardtable/session/round``, and its seating, ``cardtable/session/table/<id>``; checked by
        ``duplicate.link.parse_session_message``). Register before :meth:`start`: the table subscribes to
        them only then. Called on paho's network thread."""
        self._session_callbacks.append(callback)

    def board_result(self, body: dict[str, Any], seq: int, deal: int = 0) -> None:
        """A duplicate board's confirmed result (``duplicate.link.result_body``), journaled at row ``seq``:
        sent on ``board`` in order with the events, through the outbox (docs/mqtt.md, Duplicate). The
        board's play is over, so its cards are not held back."""
        self._queue("board", deal, seq, dict(body))

    def euchre_hand(self, body: dict[str, Any], seq: int, deal: int = 0) -> None:
        """A euchre night's hand played (``euchre_night.table``), or the table's stop after the director's
        call, journaled at row ``seq``: sent on ``hand`` in order with the events, through the outbox
        (docs/euchre.md). The hand is over, so its cards are not held back."""
        self._queue("hand", deal, seq, dict(body))

    def players_seen(self, body: dict[str, Any], seq: int) -> None:
        """A duplicate pair's members read from their member cards (``duplicate.link.players_body``),
        journaled at row ``seq``: sent on ``players`` in order, through the outbox, like ``board``."""
        self._queue("players", 0, seq, dict(body))

    @property
    def _status_msg(self) -> str | None:
        """The latest status as it would go out (for tests and diagnostics)."""
        env = self._status_env
        return None if env is None else self._dump({**env, "done": list(self._done)})

    @property
    def connected(self) -> bool:
        return self._connected

    def pending(self) -> int:
        """Messages not yet acknowledged by the broker (acks are recorded by the sender thread)."""
        return self.outbox.count()

    # -- TableObserver ------------------------------------------------------------------------------

    def status(self, snapshot: dict[str, Any]) -> None:
        raw = snapshot.get("deal")
        deal = raw if isinstance(raw, int) and not isinstance(raw, bool) else 0
        # A status without a deal number could belong to any deal: its cards are hidden all the same.
        body = self.secrecy.body(snapshot, deal) if deal or self.secrecy.reveal else hide_cards(snapshot)
        body.pop("hands", None)
        seq = int(snapshot.get("seq") or self._last_seq)
        # The status is kept in memory only: the controller tells it again after a restart, and only the
        # newest one matters. It goes out at most every STATUS_EVERY seconds (retained).
        envelope = self._envelope("status", deal, seq, body)
        with self._wake:
            self._status_env, self._status_dirty = envelope, True
            self._wake.notify()

    def event(self, event: dict[str, Any], deal: int, seq: int) -> None:
        self._queue("event", deal, seq, self.secrecy.event(event, deal, seq))

    def ruling(self, ruling: dict[str, Any], deal: int, seq: int) -> None:
        self._queue("ruling", deal, seq, self.secrecy.body(ruling, deal))

    def deal_over(self, deal: int) -> None:
        released = self.secrecy.deal_over(deal)
        self._queue("deal", deal, self._last_seq, {"deal": deal, "over": True, "revealed": released})

    def pack_health(self, pack: str, unreadable: int, damaged: int, deals: int) -> None:
        if pack in ("", "unknown"):  # not a pack: a shoe that has not named it yet (no phantom row)
            return
        body = {"pack": pack, "unreadable": unreadable, "damaged": damaged, "deals": deals}
        safe = re.sub(r"[^A-Za-z0-9_-]", "_", pack)[:64] or "_"
        self._latest(topic(self.table, "pack", safe), "pack", self._last_seq, body)

    # -- internals ---------------------------------------------------------------------------------

    def _envelope(self, kind: str, deal: int, seq: int, body: dict[str, Any]) -> dict[str, Any]:
        # "secret": the deal's cards were being held back when this was written
        return {"table": self.table, "kind": kind, "seq": seq, "deal": deal,
                "secret": self.secrecy.is_open(deal), "t": self.clock(), "body": body}

    @staticmethod
    def _dump(envelope: dict[str, Any]) -> str:
        return json.dumps(envelope, separators=(",", ":"), allow_nan=False)

    def _message(self, kind: str, deal: int, seq: int, body: dict[str, Any]) -> str:
        return self._dump(self._envelope(kind, deal, seq, body))

    def _queue(self, kind: str, deal: int, seq: int, body: dict[str, Any]) -> None:
        t = topic(self.table, kind)
        with self._wake:
            envelope = self._envelope(kind, deal, seq, body)
            envelope["prev"] = self._last_seq  # the chain the dashboard checks for gaps
            self._last_seq = max(self._last_seq, seq)
            self._owed.append((seq, t, self._dump(envelope)))
            self._put_owed()
            self._wake.notify()

    def _put_owed(self) -> None:
        """Move the messages not yet in the outbox into it, in order (the caller holds ``_wake``). While
        the outbox cannot be written (a full disk) they wait here and the sender tries again: a message
        the journal committed is never dropped because its copy for the club could not be stored."""
        while self._owed:
            seq, t, payload = self._owed[0]
            try:
                oid = self.outbox.put(seq, t, payload)
            except (sqlite3.Error, OSError) as exc:
                if not self._owed_said:
                    self._owed_said = True
                    log.warning("table %s: the club outbox cannot be written (%s); %d message(s) wait in "
                                "memory and are stored when it can", self.table, exc, len(self._owed))
                return
            self._owed.popleft()
            # A copy in memory spares the sender a read back while all is well; during an outage (or
            # past FRESH_MAX) the sender reads the outbox instead.
            if self._connected and len(self._fresh) < FRESH_MAX:
                self._fresh.append((oid, t, payload))
            else:
                self._fresh.clear()
                self._backlog = True
        if self._owed_said:
            self._owed_said = False
            log.warning("table %s: the club outbox is writable again", self.table)

    def _latest(self, t: str, kind: str, seq: int, body: dict[str, Any]) -> None:
        deal = int(body.get("deal") or 0) if kind == "status" else 0
        self.outbox.set_latest(t, self._message(kind, deal, seq, body))
        with self._wake:
            self._latest_dirty = True
            self._wake.notify()

    def _run(self) -> None:
        next_beat = time.monotonic()
        while True:
            with self._wake:
                if self._stop:
                    return
                due = [next_beat, time.monotonic() + 0.5]
                if self._status_dirty and self._connected:
                    due.append(self._status_at + STATUS_EVERY)
                self._wake.wait(timeout=max(0.0, min(due) - time.monotonic()))
                if self._stop:
                    return
            try:
                with self._wake:
                    self._put_owed()
                self._flush_acks()
                if not self._connected:
                    continue
                self._send_ordered()  # first, so a status never overtakes what happened before it
                self._send_latest()
                self._send_status()
                if time.monotonic() >= next_beat:
                    next_beat = time.monotonic() + self.heartbeat
                    beat = {"table": self.table, "t": self.clock(), "seq": self._last_seq,
                            "pending": self.outbox.count(), "head": self._journal.read_head()}
                    self.client.publish(topic(self.table, "heartbeat"), json.dumps(beat), qos=0)
            except Exception as exc:  # the table must keep working whatever the broker or the disk does
                problem = f"{type(exc).__name__}: {exc}"
                if problem != self._send_problem:  # said once per problem, not once per retry
                    self._send_problem = problem
                    log.warning("table %s: publishing failed (%s); retrying", self.table, problem)
                with self._wake:
                    self._wake.wait(timeout=1.0)  # not at once: the cause (a full disk) takes a while
            else:
                if self._send_problem:
                    self._send_problem = ""
                    log.info("table %s: publishing again", self.table)

    def _send_status(self) -> None:
        now = time.monotonic()
        with self._wake:
            if not self._status_dirty or self._status_env is None or now - self._status_at < STATUS_EVERY:
                return
            self._status_dirty, self._status_at = False, now
            envelope = {**self._status_env, "done": list(self._done)}
        message = self._dump(envelope)
        self.client.publish(topic(self.table, "status"), message, qos=1, retain=True)

    def _send_latest(self) -> None:
        if self._resend_latest:  # after a (re)connection every retained value goes again
            self.outbox.resend_all_latest()
            self._resend_latest = False
        if not self._latest_dirty:
            return
        self._latest_dirty = False
        for t, payload in self.outbox.unsent_latest():
            self.client.publish(t, payload, qos=1, retain=True)
            self.outbox.mark_latest(t, payload, True)

    def _send_ordered(self) -> None:
        room = self.window - len(self._inflight)
        if room <= 0:
            return
        with self._wake:
            if self._backlog:
                self._fresh.clear()
                batch = [(o, t, p) for o, _s, t, p in self.outbox.pending(self._sent_id, room)]
                self._backlog = len(batch) == room  # more may wait in the outbox
            else:
                batch = []
                while self._fresh and len(batch) < room:
                    batch.append(self._fresh.popleft())
        for oid, t, payload in batch:
            if oid <= self._sent_id:
                continue
            # Never hold our lock across publish(): paho calls on_publish holding its own mutex.
            info = self.client.publish(t, payload, qos=1)
            self._sent_id = oid
            self._inflight[info.mid] = oid

    def _flush_acks(self, force: bool = False) -> None:
        while self._acked_mids:
            oid = self._inflight.pop(self._acked_mids.popleft(), None)
            if oid is not None:  # None: a retained value or the online flag, not from the outbox
                self._acked.append(oid)
        # Acknowledged rows are dropped in batches: one that outlives a crash is sent again and the
        # dashboard drops the repeat.
        now = time.monotonic()
        if self._acked and (force or len(self._acked) >= ACK_BATCH or now - self._acked_at >= ACK_EVERY):
            self.outbox.delivered(self._acked)
            self._acked, self._acked_at = [], now

    # paho callbacks (network thread)

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        """paho retries quietly; say once (and again when it changes) why the broker cannot be reached."""
        why = connect_problem(self.config)
        if why != self._fail_said:
            self._fail_said = why
            log.warning("table %s: cannot connect to broker %s:%s: %s (retrying; the table goes on and "
                        "keeps what it would send)", self.table, self.config.host, self.config.port, why)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:  # said once (paho retries); the hang-up that follows is no TLS matter
            why = f"refused: {reason_code}"
            if why != self._fail_said:
                self._fail_said = why
                log.warning("table %s: broker %s:%s refused the connection: %s (retrying; check [mqtt] "
                            "username, which must be a table the broker knows, and the password in "
                            "password_file)", self.table, self.config.host, self.config.port, reason_code)
            return
        self._fail_said = ""
        log.info("table %s: connected to broker %s:%s", self.table, self.config.host, self.config.port)
        client.subscribe(topic(self.table, "command", "+"), qos=1)
        if self._session_callbacks:
            client.subscribe([(ROUND_TOPIC, 1), (seating_topic(self.table), 1)])
        client.publish(topic(self.table, "online"), json.dumps({"table": self.table, "online": True}),
                       qos=1, retain=True)
        with self._wake:  # the sender marks them (a write: never in paho's thread, where a full disk
            self._resend_latest = True  # would raise into the network loop)
            self._latest_dirty = True
            self._status_dirty = self._status_env is not None
            self._connected = True
            self._wake.notify_all()
        self.connected_event.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        with self._wake:
            was = self._connected
            self._connected = False
            self._backlog = True
            self._fresh.clear()
        self.connected_event.clear()
        if self._stop:
            return
        if was:
            log.warning("table %s: lost the broker (%s); queueing in the journal", self.table, reason_code)
        elif not self._fail_said.startswith("refused:"):  # dropped before the handshake (TLS, port...)
            self._on_connect_fail(client, userdata)

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason_code: Any, properties: Any) -> None:
        # Resolved to outbox ids by the sender thread, which alone owns ``_inflight``; paho holds its
        # own mutex here, so no lock of ours is taken.
        self._acked_mids.append(mid)
        if len(self._acked_mids) >= self.window // 2:
            with self._wake:
                self._wake.notify()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        if msg.topic.startswith(SESSION_PREFIX):
            self._on_session(msg.topic, msg.payload)
            # The client acknowledges by hand (``manual_ack``): a session message is taken once its
            # handler has it (the session sends its seatings again, retained, so nothing waits on a commit).
            self._acker(msg.mid, msg.qos, None)()
            return
        kind, body, problem = check_command(self.table, msg.topic, msg.payload)
        if problem:
            self.refused_commands += 1
            log.warning("table %s: refused command on %s: %s", self.table, msg.topic[:200], problem)
        else:
            log.info("table %s: command %s from %s", self.table, kind, str(body.get("by", "?"))[:40])
        cid = body.get("id") if isinstance(body, dict) and not problem else None
        ack = self._acker(msg.mid, msg.qos, cid[:64] if isinstance(cid, str) else None)
        waits = False
        for cb, acknowledges in list(self._callbacks):
            if problem and not acknowledges:
                continue
            try:
                if acknowledges:
                    cb(kind, body if isinstance(body, dict) else {}, problem, ack)
                    waits = True
                else:
                    cb(kind, body)
            except Exception:
                log.exception("table %s: command handler failed", self.table)
                waits = False
                break
        if not waits:
            ack()

    def _acker(self, mid: int, qos: int, cid: str | None) -> Callable[[], None]:
        """What tells the broker that delivery ``mid`` is taken (once; from any thread), and puts the
        command's id into the status's ``done``."""
        lock = threading.Lock()
        said = [False]

        def ack() -> None:
            with lock:
                if said[0]:
                    return
                said[0] = True
            if qos > 0:
                try:
                    self.client.ack(mid, qos)
                except Exception as exc:  # not connected: the broker sends it again, and it is done once
                    log.info("table %s: acknowledgement of a command not sent (%s)", self.table, exc)
            if cid is not None:
                with self._wake:  # told back in the next status (sent at once): no longer pending
                    if cid not in self._done:
                        self._done.append(cid)
                    self._status_dirty = self._status_env is not None
                    self._wake.notify()

        return ack

    def _on_session(self, topic_name: str, payload: bytes) -> None:
        try:
            message = parse_session_message(self.table, topic_name, payload)
        except LinkError as exc:
            self.refused_commands += 1
            log.warning("table %s: refused session message on %s: %s", self.table, topic_name, exc)
            # told to the table as a refusal, which it journals like any session message: never lost
            message = {"kind": "refused", "topic": topic_name[:200], "why": str(exc),
                       "payload": payload[:2000].decode("utf-8", "replace")}
        for cb in list(self._session_callbacks):
            try:
                cb(message)
            except Exception:
                log.exception("table %s: session message handler failed", self.table)
