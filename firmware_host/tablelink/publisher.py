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
outbox when the broker acknowledges it. That machinery is the delivery core (``delivery.Delivery``),
which holds no paho: this module is the paho shell around it (the client, its callbacks, the commands
and the session's messages in). A broker outage therefore only delays messages, and a restart of
the table sends what was not yet acknowledged. The broker may see a message twice (QoS 1 is "at least
once"); the dashboard drops repeats by ``(table, kind, seq)``.

Card identities of an open deal never reach the outbox's ``event``, ``ruling`` and ``status`` messages
(``secrecy.SecrecyFilter``). The one exception is ``play`` (``docs/broadcast.md``): each committed event
the broadcast folds (``PLAY_EVENTS``) and each ruling, as committed, for the club's broadcast service,
which alone may read that topic (the broker's ACL) and releases it to spectators by the director's rule.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any

from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink import restart
from firmware_host.tablelink.checks import (
    check_command,
    connect_problem,
    read_password,
    topic,
)
from firmware_host.tablelink.delivery import Delivery, Oversize
from firmware_host.tablelink.secrecy import SecrecyFilter, hide_cards
from firmware_host.wire.duplicate import (
    ROUND_TOPIC,
    SESSION_PREFIX,
    LinkError,
    parse_session_message,
    seating_topic,
)
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import RESERVED_IDS, TABLE_ID

log = logging.getLogger(__name__)

SESSION_EXPIRY = 7 * 24 * 3600  # seconds the broker keeps a table's session (and its commands) while away
# The committed events the broadcast folds (``laws.broadcast.feed``, ``laws.broadcast.euchre``), sent whole on
# ``play``.
PLAY_EVENTS = frozenset({"board", "call", "card_played", "claim", "claim_reply", "claim_ruled",
                         "deal_start", "card_dealt", "deal_end", "bid", "trump_turned", "trump_made", "discard",
                         "play_end", "result"})
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
        play_feed: also send each committed call, card, claim and ruling on ``play`` for the club's
            broadcast (read by the broadcast login only).
    """

    def __init__(self, config: MqttConfig, table_id: str, journal: Journal,
                 clock: Callable[[], float] = time.time, *, password: str | None = None,
                 reveal_cards: bool | None = None, heartbeat: float = 5.0, window: int = 200,
                 play_feed: bool = True, deals: tuple[int, int] | None = None) -> None:
        import paho.mqtt.client as mqtt

        if not TABLE_ID.match(table_id) or table_id in RESERVED_IDS:
            raise ValueError(f"table id {table_id!r} cannot be an MQTT topic level: use letters, digits, - or _, "
                             f"and not {', '.join(RESERVED_IDS)}")
        self.config = config
        self.table = table_id
        self.clock = clock
        self.play_feed = play_feed
        reveal = config.reveal_cards if reveal_cards is None else reveal_cards
        self.secrecy = SecrecyFilter(reveal=reveal)
        self.delivery = Delivery(table_id, journal, self.secrecy, self._send, clock, heartbeat=heartbeat,
                                 window=window)
        self.outbox = self.delivery.outbox
        self._callbacks: list[tuple[CommandCallback, bool]] = []
        self._session_callbacks: list[SessionCallback] = []
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
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self._catch_up(journal, deals)

    def _catch_up(self, journal: Journal, deals: tuple[int, int] | None) -> None:
        """What a restarted table owes the club (``tablelink.restart``), queued first and in order.

        ``deals``: how many deals the table's engine has started, and the one whose play has not ended (0:
        none), as the controller restored them (``TableController.deals``); not given, they are read from the
        journal and its newest deal is taken to be in play (its cards stay held back until it ends).

        - The rows committed after the last message ever queued (the table stopped between a commit and its
          outbox): their ``event`` and ``ruling`` messages (and ``play``, for the broadcast), each under the
          deal the controller gave it live, the deal in play's cards held back (docs/mqtt.md: nothing is
          lost, hands stay secret).
        - A deal whose play ended with no ``deal`` message (it ended in that gap) gets it now, with the
          events sent before the stop whose cards were held back, before its rows.
        - The deal still in play will release, at its end, its events sent before the stop too.

        Only when this outbox has queued before (a journal new to the club is not sent whole)."""
        since = self.delivery.last_seq
        if since <= 0:
            return
        if deals is None:
            started = restart.deals_started(journal)
            deals = (started, started)
        started, in_play = deals
        plan = restart.owed(journal, since, started, in_play, self.outbox.released())
        self.secrecy.resume(started, in_play, plan.held)
        for deal, held in plan.ended:
            self._released(deal, held)
        for row, deal in plan.rows:
            body = dict(row.body)
            if row.kind == "ruling":
                self._queue("ruling", deal, row.seq, self.secrecy.body(body, deal))
            else:
                self._queue("event", deal, row.seq, self.secrecy.event(body, deal, row.seq))
            if self.play_feed and (row.kind == "ruling" or body.get("type") in PLAY_EVENTS):
                self._queue("play", deal, row.seq, {"row": row.kind, "body": body})

    # -- life ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (the table works whether or not the broker answers)."""
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self.delivery.stopping = False
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_EXPIRY
        # Clean start off: the broker resumes our session, with the commands it queued while we were away.
        self.client.connect_async(self.config.host, self.config.port, keepalive=30, clean_start=False,
                                  properties=props)
        self.client.loop_start()
        self._thread = threading.Thread(target=self.delivery.run, name=f"mqtt-{self.table}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop sending (what is unsent stays in the outbox) and disconnect, the club told we are offline."""
        self.delivery.stop()
        if self._thread is not None:
            self._thread.join(timeout)
        # MQTT 5's "disconnect with will message" (0x04): the broker publishes our will, `online` false,
        # as when the table vanishes; a plain disconnect drops it, and a table stopped on purpose stayed
        # online on the director's page
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.reasoncodes import ReasonCode

        self.client.disconnect(reasoncode=ReasonCode(PacketTypes.DISCONNECT, identifier=4))
        stop_loop(self.client)
        self.delivery.close()

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
        ``wire.duplicate.parse_session_message``). Register before :meth:`start`: the table subscribes to
        them only then. Called on paho's network thread."""
        self._session_callbacks.append(callback)

    def on_oversize(self, callback: Oversize) -> None:
        """Call ``callback(kind, seq, size, body)`` for each message not sent because it is larger than the
        broker's packet (the broker would disconnect the table for it, and it would be sent again at every
        reconnect; ``delivery.Delivery.too_large``). Called in the thread that made the message (the
        controller's; the sender's for a status); it must return quickly."""
        self.delivery.on_oversize.append(callback)

    def board_result(self, body: dict[str, Any], seq: int, deal: int = 0) -> bool:
        """A duplicate board's confirmed result (``wire.duplicate.result_body``), journaled at row ``seq``:
        sent on ``board`` in order with the events, through the outbox (docs/mqtt.md, Duplicate). The
        board's play is over, so its cards are not held back. False: larger than the broker's packet, not
        sent (``on_oversize``): the director enters it by hand."""
        return self._queue("board", deal, seq, dict(body))

    def euchre_hand(self, body: dict[str, Any], seq: int, deal: int = 0) -> bool:
        """A euchre night's hand played (``tablelink.euchre_night``), or the table's stop after the director's
        call, journaled at row ``seq``: sent on ``hand`` in order with the events, through the outbox
        (docs/euchre.md). The hand is over, so its cards are not held back."""
        return self._queue("hand", deal, seq, dict(body))

    def players_seen(self, body: dict[str, Any], seq: int) -> bool:
        """A duplicate pair's members read from their member cards (``wire.duplicate.players_body``),
        journaled at row ``seq``: sent on ``players`` in order, through the outbox, like ``board``."""
        return self._queue("players", 0, seq, dict(body))

    @property
    def _status_msg(self) -> str | None:
        """The latest status as it would go out (for tests and diagnostics)."""
        return self.delivery.status_text()

    @property
    def connected(self) -> bool:
        return self.delivery.is_connected

    def pending(self) -> int:
        """Messages not yet acknowledged by the broker (acks are recorded by the sender thread)."""
        return self.delivery.pending()

    # -- TableObserver ------------------------------------------------------------------------------

    def status(self, snapshot: dict[str, Any]) -> None:
        raw = snapshot.get("deal")
        deal = raw if isinstance(raw, int) and not isinstance(raw, bool) else 0
        # A status without a deal number could belong to any deal: its cards are hidden all the same.
        body = self.secrecy.body(snapshot, deal) if deal or self.secrecy.reveal else hide_cards(snapshot)
        body.pop("hands", None)
        seq = int(snapshot.get("seq") or self.delivery.last_seq)
        self.delivery.status(deal, seq, body)

    def event(self, event: dict[str, Any], deal: int, seq: int) -> None:
        self._queue("event", deal, seq, self.secrecy.event(event, deal, seq))
        if self.play_feed and event.get("type") in PLAY_EVENTS:
            self._queue("play", deal, seq, {"row": "event", "body": dict(event)})

    def ruling(self, ruling: dict[str, Any], deal: int, seq: int) -> None:
        self._queue("ruling", deal, seq, self.secrecy.body(ruling, deal))
        if self.play_feed:
            self._queue("play", deal, seq, {"row": "ruling", "body": dict(ruling)})

    def deal_over(self, deal: int) -> None:
        self._released(deal, self.secrecy.deal_over(deal))

    def _released(self, deal: int, revealed: list[dict[str, Any]]) -> None:
        self._queue("deal", deal, self.delivery.last_seq, {"deal": deal, "over": True, "revealed": revealed})
        try:   # a restart reads it (``tablelink.restart``): a deal released is not released again
            self.outbox.set_released(deal)
        except sqlite3.Error as exc:
            log.warning("the outbox could not note deal %d's release (%s)", deal, exc)

    def pack_health(self, pack: str, unreadable: int, damaged: int, deals: int) -> None:
        if pack in ("", "unknown"):  # not a pack: a shoe that has not named it yet (no phantom row)
            return
        body = {"pack": pack, "unreadable": unreadable, "damaged": damaged, "deals": deals}
        safe = re.sub(r"[^A-Za-z0-9_-]", "_", pack)[:64] or "_"
        self.delivery.latest(topic(self.table, "pack", safe), "pack", self.delivery.last_seq, body)

    # -- internals ---------------------------------------------------------------------------------

    def _queue(self, kind: str, deal: int, seq: int, body: dict[str, Any]) -> bool:
        return self.delivery.queue(kind, deal, seq, body)

    def _send(self, t: str, payload: str, qos: int, retain: bool) -> int:
        """The delivery core's only way out: paho's publish (its message id)."""
        return int(self.client.publish(t, payload, qos=qos, retain=retain).mid)

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
        self.delivery.connected()
        self.connected_event.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        was = self.delivery.disconnected()
        self.connected_event.clear()
        if self.delivery.stopping:
            return
        if was:
            log.warning("table %s: lost the broker (%s); queueing in the journal", self.table, reason_code)
        elif not self._fail_said.startswith("refused:"):  # dropped before the handshake (TLS, port...)
            self._on_connect_fail(client, userdata)

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason_code: Any, properties: Any) -> None:
        self.delivery.published(mid)

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
            if cid is not None:  # told back in the next status (sent at once): no longer pending
                self.delivery.command_done(cid)

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
