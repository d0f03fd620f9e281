"""The session's desk on the club link: takes the tables' ``board`` messages, hands them to the session
in batches, tells each table its seating, and tells the screens what changed.

It owns no MQTT client: whoever does (the dashboard, or ``club.duplicate_service`` without one) gives
it each message with :meth:`SessionDesk.offer` (from any thread) and a ``publish(topic, payload, retain)``
callable, and calls :meth:`SessionDesk.tick` every few tens of milliseconds. One tick takes every
message that has arrived, journals the lot in one transaction (``Session.submit``), rescores once,
republishes the seatings that changed (retained), and calls the listeners with the boards that changed.
The director's records (:meth:`SessionDesk.director`) go the same way at once.

A message the link refuses (``link.parse_result``) is journaled as a refusal too, with the message's
topic and the reason, so nothing a table sent is lost.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from firmware_host.duplicate.link import (
    ANSWERS_KEPT,
    BOARD_TOPIC,
    PLAYERS_TOPIC,
    ROUND_TOPIC,
    LinkError,
    hand_records_part,
    next_part,
    parse_players,
    parse_result,
    players_part,
    round_message,
    seating_message,
    seating_topic,
)
from firmware_host.duplicate.roster import RosterError, camera_players, roster_of
from firmware_host.duplicate.session import Outcome, Session
from firmware_host.duplicate.session_state import SessionState, progress
from laws.duplicate.movement import next_moves

log = logging.getLogger(__name__)

Publish = Callable[[str, str, bool], None]
Listener = Callable[[set[int], list[Outcome]], None]
PAGE = "/duplicate/table/{table}?key={key}"


def table_parts(st: SessionState, row: dict[str, Any], cache: dict[tuple[Any, ...], Any]) -> dict[str, Any]:
    """What a table's seating carries beside its round (issue 29): the records of the boards of its round
    with the commitment's index, the names of the players seated there (no one else's), and where pairs
    and boards go after the round. ``cache`` keeps the parts that only the round and boards decide (the
    session's hand records and movement never change)."""
    records_key, next_key = ("records", st.commitment, tuple(row["boards"])), ("next", row["round"], row["table"])
    if records_key not in cache:
        cache[records_key] = hand_records_part([st.records[b] for b in row["boards"]], st.index, st.commitment)
    if next_key not in cache:
        cache[next_key] = next_part(next_moves(st.movement, row["round"], row["table"]))
    return {"hand_records": cache[records_key],
            "players": players_part({side: st.players_of(row[side]) for side in ("ns", "ew") if row[side]}),
            "next": cache[next_key]}


class SessionDesk:
    """The session on the link (see the module docstring).

    Args:
        session: the open session.
        publish: sends a message to the broker (QoS 1); None while there is no broker.
        clock: wall-clock seconds, for the messages' ``t``.
    """

    def __init__(self, session: Session, publish: Publish | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.session = session
        self.publish = publish
        self.clock = clock or session.clock
        self.inbox: deque[tuple[str, bytes]] = deque()
        self.listeners: list[Listener] = []
        self.lock = threading.RLock()
        self.answers: dict[str, deque[dict[str, Any]]] = {}
        self._told: dict[str, str] = {}
        self._parts: dict[tuple[Any, ...], Any] = {}   # table_parts' cache
        self.taken = 0
        self.refused = 0

    # -- in -----------------------------------------------------------------------------------------

    def offer(self, topic: str, payload: bytes) -> bool:
        """A message from the broker (any thread). True when it is the session's (a table's ``board``
        message, kept for the next tick, or one of the session's own messages, ignored)."""
        if BOARD_TOPIC.match(topic) or PLAYERS_TOPIC.match(topic):
            self.inbox.append((topic, bytes(payload)))
            return True
        return topic.startswith("cardtable/session/")

    def tick(self) -> bool:
        """Take what has arrived (see the module docstring); True when anything changed."""
        if not self.inbox:
            return False
        batch = []
        while self.inbox:
            batch.append(self.inbox.popleft())
        records = []
        for topic, payload in batch:
            try:
                records.append(parse_result(topic, payload) if BOARD_TOPIC.match(topic) else self._players(topic, payload))
            except LinkError as exc:
                table = topic.split("/")[1] if topic.count("/") >= 2 else "?"
                records.append({"type": "message", "table": table, "topic": topic[:200],
                                "payload": payload[:2000].decode("utf-8", "replace"), "why_link": str(exc)})
        with self.lock:
            return self._submit(records)[0]

    def _players(self, topic: str, payload: bytes) -> dict[str, Any]:
        """A table's member cards as a ``players`` record (``roster.camera_players``); LinkError: why not."""
        rec = parse_players(topic, payload)
        try:
            roster = roster_of(self.session.journal.path)
        except RosterError as exc:
            raise LinkError(str(exc)) from None
        with self.lock:
            found, why = camera_players(self.session.state, roster, rec)
        if found is None:
            raise LinkError(why)
        return {**found, "t": self.clock()}

    def director(self, rec: dict[str, Any]) -> Outcome:
        """A director's record (``round``, ``adjust``, ``correct``, ``cancel``, ``regroup``, ``result``)."""
        with self.lock:
            rec = {**rec, "t": rec.get("t", self.clock())}
            return self._submit([rec])[1][0]

    def _submit(self, records: list[dict[str, Any]]) -> tuple[bool, list[Outcome]]:
        before = progress(self.session.state)
        link_refused = [r for r in records if r.get("type") == "message"]
        outcomes = self.session.submit([r for r in records if r.get("type") != "message"])
        if link_refused:  # journaled as refusals: what a table sent is never lost
            self.session.refuse([(r, r["why_link"]) for r in link_refused])
        for o in outcomes:
            rec = o.record or {}
            if o.status == "taken":
                self.taken += 1
            elif o.status == "refused":
                self.refused += 1
            if rec.get("type") == "result" and rec.get("table"):
                self.answers.setdefault(str(rec["table"]), deque(maxlen=ANSWERS_KEPT)).append(
                    {"source": rec.get("source", ""), "board": rec.get("board"), "status": o.status, "why": o.why})
        for r in link_refused:
            self.refused += 1
            self.answers.setdefault(str(r["table"]), deque(maxlen=ANSWERS_KEPT)).append(
                {"source": "", "board": None, "status": "refused", "why": r["why_link"]})
        changed = set(self.session.changed_boards)
        self.session.changed_boards.clear()
        after = progress(self.session.state)
        moved = before.tables != after.tables or before.called != after.called
        named = any(o.taken and (o.record or {}).get("type") == "players" for o in outcomes)
        if changed or moved or named or link_refused or any(o.status == "refused" for o in outcomes):
            self.publish_all(only_changed=True)
            for listener in list(self.listeners):
                try:
                    listener(changed, outcomes)
                except Exception:
                    log.exception("a session listener failed")
            return True, outcomes
        return False, outcomes

    # -- out ----------------------------------------------------------------------------------------

    def table_key(self, table: str) -> str:
        """The key a table's page is opened with (from the session's secret; given only to that table)."""
        secret = self.session.setup.secret.encode()
        return hmac.new(secret, table.encode(), hashlib.sha256).hexdigest()[:20]

    def check_key(self, table: str, key: str | None) -> bool:
        # as bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500 for ?key=é)
        return bool(key) and hmac.compare_digest(self.table_key(table).encode(),
                                                 str(key).encode("utf-8", "surrogatepass"))

    def messages(self) -> list[tuple[str, dict[str, Any]]]:
        """Every message the session tells the tables now: the round, then each club table's seating."""
        st = self.session.state
        seq, t = self.session.journal.head()[0], self.clock()
        out = [(ROUND_TOPIC, round_message(st.setup.section, st.called, st.movement.rounds, seq, t, st.commitment))]
        records = st.fingerprints
        rows = {row["table"]: row for row in progress(st).tables}
        for tid, number in sorted(st.number_of.items()):
            page = PAGE.format(table=tid, key=self.table_key(tid))
            out.append((seating_topic(tid), seating_message(
                tid, st.setup.section, rows[number], called=st.called, rounds=st.movement.rounds, records=records,
                page=page, answers=list(self.answers.get(tid, ())), seq=seq, t=t, extra=table_parts(st, rows[number], self._parts))))
        return out

    def publish_all(self, only_changed: bool = False) -> int:
        """Publish the round and the seatings (retained); ``only_changed``: those that changed since
        last told. Returns how many were sent."""
        if self.publish is None:
            return 0
        sent = 0
        with self.lock:
            messages = self.messages()
        for topic, msg in messages:
            # the hand records and the next moves follow from the round and boards the key already holds
            key = json.dumps({k: v for k, v in msg.items() if k not in ("t", "seq", "hand_records", "next")},
                             sort_keys=True)
            if only_changed and self._told.get(topic) == key:
                continue
            try:
                self.publish(topic, json.dumps(msg, separators=(",", ":")), True)
            except Exception as exc:  # the broker may be away: the next change (or reconnection) sends again
                log.warning("session: cannot publish %s (%s)", topic, exc)
                self._told.pop(topic, None)
                continue
            self._told[topic] = key
            sent += 1
        return sent
