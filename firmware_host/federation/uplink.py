"""A club's uplink: its session's results, numbered, sent to the federation until each is answered.

**The messages** (:func:`club_messages`) are derived from the club's session journal alone, the same way
every time: message 1 is the club's entry (its pairs and how many results each board is due), then each
journal record that changes the travellers (a result, a correction, an adjusted score, a regroup, a line
taken off) gives one message per line it changes, in journal order. So a restarted uplink numbers every
message as before, and nothing needs keeping but the session's journal.

**The promise** (the table-to-session promise one level up, ``docs/ordering.md``): the uplink sends from
the first number the federation has not acknowledged, a window at a time, and sends again whenever no
answer moves that number on within ``resend`` seconds, twice as long after each such resend with no
answer (up to 30 s; back to ``resend`` as soon as an answer moves it on: a federation that is behind is
not buried under the same window again and again); a ``gap`` answer sends again from the number the
federation expects (the federation also sends one, numbered 0, to every club each time it connects to
its broker, so the clubs send again at once after its outage rather than after their back-off); a
``repeat`` moves on; a ``conflict`` stops the uplink with the federation's words
(a person must look: the club's journal does not match what it sent before).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.federation.topics import EventTopics
from firmware_host.records.journal import Journal
from firmware_host.wire.reader import read_json
from firmware_host.wire.subscribed import stop_loop
from laws.duplicate.deal import Board, commitment
from laws.federation.messages import line_to_dict
from laws.session.duplicate.spec import SessionSetup
from laws.session.duplicate.state import SessionState

log = logging.getLogger(__name__)
WINDOW = 64
MAX_WAIT = 30.0
MAX_MESSAGE = 65536     # a message's bytes at most: the club's broker drops a client's larger packet


def _key(board: int, ns: Any, ew: Any) -> tuple[int, tuple[int, str], tuple[int, str]]:
    return (board, ns.key, ew.key)


def club_messages(club: str, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The club's numbered messages from its session journal's event bodies (the first is ``opened``)."""
    bodies = list(rows)
    if not bodies or bodies[0].get("type") != "opened":
        raise ValueError("a session journal starts with its 'opened' record")
    setup = SessionSetup.from_dict(bodies[0]["setup"])
    state = SessionState.start(setup)
    due = state.due()
    pairs = sorted({p.key for p in state.fields})
    out: list[dict[str, Any]] = [{"op": "entry", "pairs": [[n, d or None] for n, d in pairs],
                                  "fields": {f"{p.number}{p.direction.value if p.direction else ''}": f
                                             for p, f in state.fields.items()},
                                  "due": max(due.values()) if due else 1,
                                  "boards": sorted(due)}]
    before = {_key(ln.board, ln.ns, ln.ew): ln for ln in state.lines()}
    for rec in bodies[1:]:
        problem = state.check(rec)
        if problem:
            continue
        state.apply(rec)
        now = {_key(ln.board, ln.ns, ln.ew): ln for ln in state.lines()}
        # the lines taken off first: a line moved to other pairs must never stand twice in the field,
        # which refuses a pair on two lines of a board (docs/federation.md)
        for k in sorted(before):
            if k not in now:
                out.append({"op": "remove", "line": line_to_dict(before[k])})
        for k in sorted(now):
            if before.get(k) != now[k]:
                out.append({"op": "line", "line": line_to_dict(now[k])})
        before = now
    for n, msg in enumerate(out, 1):
        msg["number"] = n
        msg["club"] = club
    return out


def read_session(path: str | Path) -> list[dict[str, Any]]:
    """The event bodies of a session journal, in order (opened read-only)."""
    with Journal.open_readonly(path) as journal:
        return [r.body for r in journal.rows() if r.kind == "event"]


class ClubUplink:
    """Sends a club's messages to the federation over the club's own broker (which bridges them).

    Args:
        club: the club's id in the event.
        topics: the event's topics.
        session: the club's session journal file, or a function giving the club's messages so far (the
            benchmark's simulated clubs).
        host, port, user, password: the club's broker and the uplink's login there.
        resend: seconds without progress before sending again.
        poll: seconds between two reads of the session journal.
        max_wait: the longest wait between two resends with no answer (``MAX_WAIT``).
    """

    def __init__(self, club: str, topics: EventTopics, session: str | Path | Callable[[], list[dict[str, Any]]],
                 host: str, port: int, user: str,
                 password: str, *, resend: float = 2.0, poll: float = 0.5, max_wait: float = MAX_WAIT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        import paho.mqtt.client as mqtt

        self.club, self.topics = club, topics
        self.source = session if callable(session) else (lambda: club_messages(club, read_session(Path(session))))
        self.resend, self.poll, self.clock, self.max_wait = resend, poll, clock, max_wait
        self.expect = 1
        self.stopped_for = ""
        self.stopped_here = False               # stopped by the uplink itself (a message too big), not an answer
        self.messages: list[dict[str, Any]] = []
        self._progress_at = 0.0
        self._wait = resend
        self._sent_upto = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, clean_session=False)
        self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(0.2, 5)
        self.client.connect_async(host, port, keepalive=10)

    def start(self) -> ClubUplink:
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name=f"uplink-{self.club}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        stop_loop(self.client)
        self.client.disconnect()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        client.subscribe(self.topics.answer(self.club), qos=1)
        with self._lock:
            self._sent_upto = self.expect - 1      # send again what was not answered

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        read = read_json(msg.payload, max_bytes=4096)   # the one checked reader of outside JSON
        try:
            answer = read.value if read.ok else None
            verdict, expect = str(answer["verdict"]), int(answer["expect"])  # type: ignore[index]
        except (ValueError, KeyError, TypeError):
            log.warning("club %s: an answer that is not the federation's format, ignored", self.club)
            return
        with self._lock:
            if verdict == "conflict" or verdict == "unknown club":
                self.stopped_for = str(answer.get("why") or verdict)
                log.error("club %s: the federation refused message %s: %s", self.club, answer.get("number"),
                          self.stopped_for)
                return
            if expect > self.expect:
                self.expect = expect
                self._progress_at = self.clock()
                self._wait = self.resend            # answers come: back to the first wait
            if verdict == "gap":                    # a gap, or the federation back after an outage
                self.expect = expect
                self._sent_upto = expect - 1
                self._wait = self.resend

    def _run(self) -> None:
        last_read = -1e9
        while not self._stop.is_set():
            now = self.clock()
            if now - last_read >= self.poll:
                try:
                    self.messages = self.source()
                except (OSError, ValueError) as exc:
                    log.warning("club %s: the session journal cannot be read now: %s", self.club, exc)
                last_read = now
            self.pump(now)
            self._stop.wait(min(self.poll, self.resend) / 4)

    def pump(self, now: float) -> int:
        """Send what is due now; how many messages were sent."""
        with self._lock:
            if self.stopped_for:
                return 0
            if self._sent_upto >= self.expect and now - self._progress_at >= self._wait:
                self._sent_upto = self.expect - 1   # no progress: send the window again
                self._progress_at = now
                self._wait = min(self._wait * 2, self.max_wait)   # and twice as long before the next time
            start = max(self._sent_upto + 1, self.expect)
            end = min(len(self.messages), self.expect + WINDOW - 1)
            batch = [json.dumps(m, sort_keys=True) for m in self.messages[start - 1:end]]
            for k, text in enumerate(batch):
                size = len(text.encode("utf-8"))
                if size > MAX_MESSAGE:          # never sent: the brokers would drop the connection, for ever
                    self.stopped_for = (f"message {start + k} is {size} bytes, over the {MAX_MESSAGE} a "
                                        "message may have: not sent")
                    self.stopped_here = True
                    log.error("club %s: %s", self.club, self.stopped_for)
                    batch, end = batch[:k], start + k - 1
                    break
            if batch:
                if start == self.expect:         # nothing was waiting for an answer: the wait starts now
                    self._progress_at = now
                self._sent_upto = end
        for text in batch:
            self.client.publish(self.topics.result(self.club), text, qos=1)
        return len(batch)

    @property
    def done(self) -> bool:
        """Every message so far has been taken by the federation."""
        with self._lock:
            return bool(self.messages) and self.expect > len(self.messages)


class RecordsError(RuntimeError):
    """Hand records from the federation that cannot be used (not sent in time, not the format, not
    matching their commitment); the message says which."""


@dataclass(frozen=True)
class Received:
    """The event's hand records as the club took them: the boards, their commitment, the PBN text."""

    boards: tuple[Board, ...]
    commitment: str
    text: str


MAX_RECORDS = 4 * 1024 * 1024


def check_records_message(value: Any, event: str, expected: str | None = None) -> Received:
    """The boards of an ``in/records`` message, once they hash to the commitment it carries (and to
    ``expected``, the commitment the federation announced, when given); :class:`RecordsError` otherwise."""
    from firmware_host.duplicate.handrecords.handfiles import HandRecordError, parse_hand_records

    if not isinstance(value, Mapping) or not isinstance(value.get("records"), str) \
            or not isinstance(value.get("commitment"), str) or value.get("format") != "pbn":
        raise RecordsError("in/records: not the federation's records message (records, commitment, format pbn)")
    if value.get("event") != event:
        raise RecordsError(f"in/records: the records of event {value.get('event')!r}, not {event!r}")
    try:
        boards = tuple(parse_hand_records(value["records"].encode("utf-8"), "pbn", "in/records"))
    except HandRecordError as exc:
        raise RecordsError(f"in/records: {exc}") from None
    mine = commitment(list(boards))
    if mine != value["commitment"]:
        raise RecordsError(f"in/records: the records hash to {mine[:16]}..., not to the commitment they came with "
                           f"({value['commitment'][:16]}...): refused")
    if expected is not None and mine != expected.strip().lower():
        raise RecordsError(f"in/records: the records hash to {mine[:16]}..., not to the commitment announced "
                           f"({expected.strip()[:16]}...): refused")
    return Received(boards, mine, value["records"])


def fetch_records(topics: EventTopics, club: str, host: str, port: int, user: str, password: str, *,
                  commitment: str | None = None, timeout: float = 60.0) -> Received:
    """The event's hand records from the club's own broker (the bridge brings the federation's retained
    ``in/records`` message), checked (:func:`check_records_message`)."""
    import paho.mqtt.client as mqtt

    got: list[bytes] = []
    refused: list[str] = []
    arrived = threading.Event()     # the records came, or the broker refused the login

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            refused.append(str(reason))
            arrived.set()
            return
        client.subscribe(topics.records(club), qos=1)

    def on_message(client: Any, userdata: Any, msg: Any) -> None:
        got.append(bytes(msg.payload))
        arrived.set()

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{user}-records")
    client.username_pw_set(user, password)
    client.on_connect = on_connect
    client.on_message = on_message
    try:
        # at once, so that no broker there is said as such (not as "no records" after the timeout)
        client.connect(host, port, keepalive=10)
    except (OSError, ValueError) as exc:
        words = getattr(exc, "strerror", None) or str(exc)
        raise RecordsError(f"the club's broker {host}:{port}: {words[:1].lower()}{words[1:]} "
                           "(is Mosquitto running there?)") from None
    client.loop_start()
    try:
        if not arrived.wait(timeout):
            raise RecordsError(f"no hand records from the federation on {topics.records(club)} within {timeout:g} s "
                               "(is the bridge up, and the event's service running?)")
        if refused:
            raise RecordsError(f"the club's broker {host}:{port} refused the login {user!r}: {refused[0]} "
                               "(--user and --password-file are the uplink's login there)")
    finally:
        stop_loop(client)
        client.disconnect()
    read = read_json(got[-1], max_bytes=MAX_RECORDS)
    if not read.ok:
        raise RecordsError("in/records: not JSON within the size limit")
    return check_records_message(read.value, topics.event, commitment)
