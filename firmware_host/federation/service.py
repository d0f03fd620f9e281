"""The federation's service: every club's messages taken exactly once, journaled, the field scored live.

The event lives in a folder (:mod:`firmware_host.federation.event`): its hash-chained journal, one row a
message taken, committed **before** the club is answered. On start the ledger and the field are rebuilt
from the journal alone, so a federation killed at any point answers as if it never stopped: a message
whose row was not committed is simply taken again when the club sends it again.

For each message from a club's ``out/result`` topic: the checked reader (size and depth limits) reads it;
its form is checked (``laws.federation.messages.message_problem``: its keys, the types of its values, its
``club`` the topic's), before its digest is made or anything of it kept; the ledger judges its number (:mod:`laws.federation.ledger`); a message that is next is checked against
the field (its pairs and board, its line's format) and, if sound, committed, taken and applied; the club
is answered on its ``in/answer`` topic with the verdict and the number expected next; then the field's
public ranking and each club's released view are published (retained).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from firmware_host.federation.brokers import FEDERATION_MAX_PACKET
from firmware_host.federation.event import (
    JOURNAL,
    EventSetup,
    EventState,
    FederationError,
    create_event,
    hold_event,
    open_event,
)
from firmware_host.federation.files import close_requested, kept_records, write_final
from firmware_host.federation.topics import SERVICE_USER, EventTopics
from firmware_host.federation.views import (
    fit,
    own_dict,
    public_summary,
    rankings_dict,
    records_message,
    view_from,
)
from firmware_host.wire.reader import read_json
from firmware_host.wire.subscribed import stop_loop
from laws.federation.field import FieldError, Scored
from laws.federation.ledger import Answer, Verdict
from laws.federation.messages import digest, message_problem
from laws.federation.own import by_club, own_rankings
from laws.federation.ranking import LiveRanking
from laws.federation.release import board_releases, club_may_see, public_boards
from laws.scoring.session_values import Pair

__all__ = ["JOURNAL", "EventSetup", "EventState", "FederationError", "FederationService", "create_event",
           "field_view", "hold_event", "open_event", "prepare_view", "read_outside"]

log = logging.getLogger(__name__)
MAX_BYTES = 65536
MAX_DEPTH = 12
BOARD_EVERY = 2.0       # seconds: a board's field is published again at most this often while it is played
OWN_EVERY = 10.0        # seconds: a club's own ranking made again at most this often while only the field of
                        # its boards moves (at once when it finishes a board, a club enters, the event closes)


def read_outside(payload: bytes) -> dict[str, Any] | str:
    """A message from outside as a JSON object, or the reason it is refused (too big, too deep, not JSON):
    read by the club's one checked reader (``wire.reader.read_json``)."""
    read = read_json(payload, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH)
    if read.refusal is not None:
        r = read.refusal
        if r.kind == "size":
            return f"a message of {len(payload)} bytes (at most {MAX_BYTES})"
        if r.kind == "nesting":
            return f"a message nested more than {MAX_DEPTH} deep (at most {MAX_DEPTH})"
        return f"not JSON ({r.why})"
    if not isinstance(read.value, dict):
        return "not a JSON object"
    return read.value


def number_of(payload: bytes) -> int:
    """The number of a message refused for its size or its nesting, when it can still be read (a message of
    up to :data:`~firmware_host.federation.brokers.FEDERATION_MAX_PACKET` bytes nested up to the checked
    reader's own limit, 32): the club is answered about that message, as for every other refusal; 0 when
    it cannot be read or has no whole number from 1."""
    read = read_json(payload, max_bytes=FEDERATION_MAX_PACKET)
    number = read.value.get("number") if read.ok and isinstance(read.value, dict) else None
    return number if isinstance(number, int) and not isinstance(number, bool) and number >= 1 else 0


class FederationService:
    """The service on the federation's broker (see the module docstring).

    Besides the answers, it publishes (retained, QoS 1): the public view (the view loop: views
    coalesced, the ranking made again only when the pairs' figures changed); on the releaser's own
    thread, so that no result waits for it, each club's ``in/board/<n>`` once the release rule lets the
    club see board n (made again when the board's field changed) and each club's ``in/field`` (the boards
    it may see and its own ranking on them); and each club's ``in/records`` (the hand records with their
    commitment) on connecting. It
    closes the event when ``cardtable federation close`` asks it to (``close.request`` in the folder),
    then publishes every board and writes the field's files (``field.pbn``, ``field.usebio.xml``).
    """

    def __init__(self, folder: str | Path, host: str, port: int, password: str, *,
                 clock: Callable[[], float] = time.time, publish_every: float = 0.2) -> None:
        import paho.mqtt.client as mqtt

        self.folder = Path(folder)
        self._held = hold_event(folder)          # one service an event; `close` asks it (not the journal)
        try:
            self.journal, self.state = open_event(folder)
        except BaseException:
            self._held.close()
            raise
        for words in self.state.left_out:        # an old journal's line the field cannot score
            log.error("%s", words)
        self.topics = EventTopics(self.state.setup.event)
        self.records = kept_records(self.folder, self.state)
        self.clock = clock
        self.refusals = 0
        self.taken_at: list[tuple[str, int, float]] = []
        self._lock = threading.Lock()
        self.publish_every = publish_every
        self.last_view: dict[str, Any] = {"boards": [], "rankings": {}, "taken": {}, "closed": self.state.closed}
        self._ranked: tuple[Any, dict[str, Any]] = (None, {})     # (stamp, rankings) last made
        self._live: tuple[LiveRanking, LiveRanking] | None = None   # the rankings kept pair by pair
        self._sent: dict[str, Any] = {}             # the views' topics -> what was last published there
        self._sent_boards: dict[str, Any] = {}      # the boards' topics: the releaser's own (see release_boards)
        self.final_files: list[Path] = []
        self._resend_views = threading.Event()      # set on each connect: publish everything again
        self._resend_boards = threading.Event()
        self._released: dict[int, tuple[Any, frozenset[str]]] = {}   # board -> (its lines' version, clubs)
        self._release_lock = threading.Lock()       # one release pass at a time (the releaser's, or the close's)
        self._board_scores: dict[int, tuple[Any, int]] = {}   # board -> (its score last released, by club; how often)
        self._unscorable: set[int] = set()          # boards whose scoring failed (a guard: see release_boards)
        self._own_made: dict[str, Any] = {}          # club -> (what its own ranking was made from, when)
        self.club_views: dict[str, dict[str, Any]] = {}   # club -> its in/field as last published
        self.own_every = OWN_EVERY
        self._dirty = threading.Event()
        self._boards_dirty = threading.Event()
        self._stopping = threading.Event()
        self._publisher = threading.Thread(target=self._publish_loop, name="federation-views", daemon=True)
        self._releaser = threading.Thread(target=self._release_loop, name="federation-boards", daemon=True)
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=SERVICE_USER, clean_session=False)
        self.client.username_pw_set(SERVICE_USER, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(0.2, 5)
        self.client.connect_async(host, port, keepalive=10)

    def start(self) -> FederationService:
        self.client.loop_start()
        self._dirty.set()                       # the views as the journal left them, once connected
        self._boards_dirty.set()
        self._publisher.start()
        self._releaser.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._dirty.set()
        self._boards_dirty.set()
        for thread in (self._publisher, self._releaser):
            if thread.is_alive():
                thread.join(10)
        stop_loop(self.client)
        self.client.disconnect()
        self.journal.close()
        self._held.close()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        client.subscribe(self.topics.all_results, qos=1)
        self._resend_views.set()                # a broker that lost its retained messages gets them all again
        self._resend_boards.set()
        with self._lock:
            expect = {c: self.state.ledger.expect(c) for c in self.state.setup.clubs}
        for club, n in expect.items():          # each club sends again from there now, not after its back-off
            client.publish(self.topics.answer(club), json.dumps(
                {"verdict": "gap", "number": 0, "expect": n, "why": f"the federation is back: send from {n}"}),
                qos=1)
        if self.records:
            message = json.dumps(records_message(self.state.setup.event, list(self.records.values())), sort_keys=True)
            for club in self.state.setup.clubs:
                client.publish(self.topics.records(club), message, qos=1, retain=True)
        self._dirty.set()
        self._boards_dirty.set()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        try:
            self.receive(msg.topic, bytes(msg.payload))
        except Exception:  # one message never stops the service: logged, and the next is taken
            log.exception("a message on %s could not be handled", msg.topic)

    def receive(self, topic: str, payload: bytes) -> Answer | None:
        """Judge, commit and answer one message (called on paho's thread, one at a time)."""
        club = self.topics.club_of(topic)
        if club is None:
            return None
        value = read_outside(payload)
        with self._lock:
            if isinstance(value, str):
                self.refusals += 1
                expect = self.state.ledger.expect(club) if club in self.state.ledger.clubs else 0
                answer = Answer(Verdict.CONFLICT, club, number_of(payload), expect, value)
            else:
                answer = self._judge(club, value)
        self.client.publish(self.topics.answer(club), json.dumps(
            {"verdict": answer.verdict.value, "number": answer.number, "expect": answer.expect, "why": answer.why}),
            qos=1)
        if answer.verdict is Verdict.TAKEN:
            self._dirty.set()                   # the views follow within ``publish_every`` (coalesced)
            self._boards_dirty.set()            # the boards released within ``BOARD_EVERY``
        return answer

    def _judge(self, club: str, message: dict[str, Any]) -> Answer:
        ledger = self.state.ledger
        if club not in ledger.clubs:
            return ledger.judge(club, 0, "")
        number = message.get("number")
        form = message_problem(club, message)    # before its digest: nothing outside the format is kept
        if form:
            self.refusals += 1
            ok = not isinstance(number, bool) and isinstance(number, int) and number >= 1
            return Answer(Verdict.CONFLICT, club, number if ok else 0, ledger.expect(club), form)
        body = message
        try:
            mark = digest(body)
        except (TypeError, ValueError):         # a guard: the form check leaves nothing JSON cannot write
            self.refusals += 1
            return Answer(Verdict.CONFLICT, club, number, ledger.expect(club), "a value JSON cannot write")
        answer = ledger.judge(club, number, mark)
        if answer.verdict is not Verdict.TAKEN:
            return answer
        problem = self.state.problem(club, body)
        if problem:
            self.refusals += 1
            return Answer(Verdict.CONFLICT, club, answer.number, answer.number, problem)
        self.journal.append("event", {"type": "message", "club": club, "number": answer.number, "message": body},
                            self.clock())
        self.state.ledger.offer(club, answer.number, digest(body))
        try:
            self.state.apply(club, body)
        except FieldError as exc:  # checked above; kept as a guard
            log.error("club %s message %s: %s", club, answer.number, exc)
        self.taken_at.append((club, answer.number, self.clock()))
        return answer

    def standings(self, *, public: bool = True) -> dict[str, Any]:
        """The field's ranking (on the boards every club finished, when ``public``)."""
        with self._lock:
            return field_view(self.state, public=public)

    def _publish_loop(self) -> None:
        """The views: made and published at most every ``publish_every`` seconds while results come. A
        pass is the ranking and its publishes only (milliseconds); the boards released to the clubs are
        the releaser's (:meth:`_release_loop`), so a result never waits for a release pass."""
        while not self._stopping.is_set():
            self._dirty.wait(0.5)
            if self._stopping.is_set():
                return
            closing = not self.state.closed and close_requested(self.folder)
            if not self._dirty.is_set() and not closing:
                continue
            self._dirty.clear()
            began = time.monotonic()
            try:
                if closing:
                    self.close()
                self.publish_views()
                if closing:
                    self.release_boards()       # every board to every club now, not within BOARD_EVERY
                    self._write_final()
            except Exception:  # a view not published is published with the next message
                log.exception("the field's views could not be published")
            # at least as long as the view took: ranking a big field never takes more than half the
            # process's time (one interpreter lock), so results keep being taken at the field's pace
            self._stopping.wait(max(self.publish_every, time.monotonic() - began))

    def _release_loop(self) -> None:
        """The boards released to the clubs: a pass (:meth:`release_boards`) whenever results were taken,
        at most one every ``BOARD_EVERY`` seconds, and after a pass at least as long as it took (so the
        releases take at most half the interpreter, the views and the results the rest)."""
        while not self._stopping.is_set():
            self._boards_dirty.wait(0.5)
            if self._stopping.is_set():
                return
            if not self._boards_dirty.is_set():
                continue
            self._boards_dirty.clear()
            began = time.monotonic()
            try:
                self.release_boards()
            except Exception:  # a board not released is released by the next pass
                log.exception("the boards could not be released")
                self._boards_dirty.set()
            took = time.monotonic() - began
            self._stopping.wait(max(BOARD_EVERY - took, took))

    def close(self) -> None:
        """Close the event (``cardtable federation close`` asked for it): one ``closed`` row, committed,
        then the request is taken away; from now on every club may see every board."""
        with self._lock:
            if not self.state.closed:
                self.journal.append("event", {"type": "closed"}, self.clock())
                self.state.closed = True
        close_requested(self.folder, done=True)

    def _write_final(self) -> None:
        with self._lock:
            self.final_files = write_final(self.folder, self.state, self.records, self.journal)

    def _publish(self, topic: str, text: str, sent: dict[str, Any] | None = None) -> None:
        """Publish retained, unless the same text was published there since the last connect."""
        sent = self._sent if sent is None else sent
        if sent.get(topic) == text:
            return
        self.client.publish(topic, text, qos=1, retain=True)
        sent[topic] = text

    def publish_views(self) -> None:
        """Publish the public view (retained). The public boards whose lines changed are scored outside
        the lock (their lines read under it, the scores given back if still current), and so is the
        ranking (made only when the pairs' figures changed), so messages keep being taken. What each
        club may see (its ``in/field`` and ``in/board/<n>``) is not published here
        (:meth:`release_boards`)."""
        if self._resend_views.is_set():
            self._resend_views.clear()
            self._sent.clear()
        with self._lock:                        # the public boards whose lines changed: scored outside
            field = self.state.scores
            shown = public_boards(self.state.setup.boards, self.state.finished(), frozenset(self.state.setup.clubs),
                                  self.state.closed) if field is not None else ()
            jobs = field.dirty(shown) if field is not None else {}
        made = {b: (version, job()) for b, (version, job) in jobs.items()}
        with self._lock:
            if field is not None and field is self.state.scores:
                for b, (version, board) in made.items():
                    field.keep(b, version, board)
            shown, scored, taken = prepare_view(self.state, public=True)
            closed = self.state.closed
        stamp, rankings = self._ranked
        if scored is not None and scored.stamp != stamp:
            if self._live is None or self._live[0].fields != scored.event_fields:
                self._live = scored.live()          # a club's entry came: its pairs join the fields
            rankings = rankings_dict(scored.rank(self._live))
            self._ranked = (scored.stamp, rankings)
        view = view_from(shown, scored, taken, closed, rankings)
        self.last_view = view
        self.client.publish(self.topics.standings, fit(public_summary(view)), qos=1, retain=True)

    def release_boards(self) -> int:
        """Publish what each club may now see (retained): each board some club may see (on the club's
        ``in/board/<n>``) whose lines, or whose set of clubs that may see it, changed since it was last
        published, and each club's ``in/field`` (the boards it may see and its own ranking on them,
        :func:`laws.federation.own.own_rankings`) when one of those boards or their field changed; how
        many boards. The lines are read under the service's lock; each board is scored, the rankings
        made and the messages written outside it, so results keep being taken meanwhile. One pass at a
        time (the releaser's, or the close's)."""
        with self._release_lock:
            if self._resend_boards.is_set():
                self._resend_boards.clear()
                self._sent_boards.clear()
                self._released.clear()
            with self._lock:
                finished = self.state.finished()
                closed = self.state.closed
                # every club named at open once the event is closed, entered or not (the final view is
                # everyone's); before, a club not entered has finished nothing and sees nothing
                released = {club: [b for b in self.state.setup.boards if club_may_see(club, b, finished, closed)]
                            for club in self.state.setup.clubs if closed or club in self.state.entries}
                boards, local = self._boards_to_release(released)
                field = self.state.scores
                club_fields = field.club_fields() if field is not None else {}
            todo = list(boards)
            try:
                while todo:
                    job, clubs = boards[todo[0]]
                    try:
                        scored = job()
                    except Exception as exc:  # a guard (the field takes no line its board's scoring
                        # refuses): one board that cannot be scored never stops the others' release
                        log.error("board %s could not be scored, its field is not published until its lines "
                                  "change (the other boards are): %s", todo[0], exc)
                        self._unscorable.add(todo.pop(0))
                        continue
                    self._unscorable.discard(todo[0])
                    texts = board_releases(scored, clubs, local, self.records.get(todo[0]))
                    for club, value in texts.items():
                        self._publish(self.topics.board(club, todo[0]), fit(value), self._sent_boards)
                    parts = by_club(scored, lambda p: local(p).section)
                    self._board_scores[todo[0]] = (parts, self._board_scores.get(todo[0], (None, 0))[1] + 1)
                    todo.pop(0)
            finally:
                for b in todo:                  # not published: due again at the next pass
                    self._released.pop(b, None)
            for club, mine in released.items():
                self._publish_own(club, mine, field, local, club_fields)
            return len(boards)

    def _publish_own(self, club: str, boards: list[int], field: Any, local: Any,
                     club_fields: Mapping[Pair, str]) -> None:
        """A club's ``in/field``: the boards it may see and its own ranking on them, each board at the
        score last released; made again when its boards change (it finished one, the event closed, a
        club entered), or when one of them was released again since, at most every ``own_every``
        seconds (a club's ranking is 12 clubs' worth of exact fractions to rank every 2 s otherwise)."""
        boards = [b for b in boards if b not in self._unscorable]
        if any(b not in self._board_scores for b in boards):
            return                              # a board not yet scored (its release failed): next pass
        key = (field, tuple((b, self._board_scores[b][1]) for b in boards))
        made = self._own_made.get(club)
        if made is not None and made[0] == key:
            return
        now = time.monotonic()
        if made is not None and made[0][0] is field and [b for b, _n in made[0][1]] == boards \
                and now - made[1] < self.own_every:
            self._boards_dirty.set()            # only the field of its boards moved: made again soon
            return
        method = field.method if field is not None else None
        mine = [self._board_scores[b][0][club] for b in boards if club in self._board_scores[b][0]]
        rankings = () if method is None else own_rankings(club, mine, lambda p: local(p).section, method,
                                                          club_fields)
        value = {"boards": boards, "rankings": own_dict(rankings, local)}
        self._publish(self.topics.field(club), fit(value), self._sent_boards)
        self.club_views[club] = value
        self._own_made[club] = (key, now)

    def _boards_to_release(self, released: dict[str, list[int]]) -> tuple[
            dict[int, tuple[Any, frozenset[str]]], Any]:
        """The boards whose field is to be published again (called under both locks), each as a job
        that scores it outside the service's lock: a board some club may now see whose lines, or whose
        set of clubs that may see it, changed since it was last published."""
        field = self.state.scores
        if field is None:
            return {}, None
        who: dict[int, set[str]] = {}
        for club, mine in released.items():
            for b in mine:
                who.setdefault(b, set()).add(club)
        out: dict[int, tuple[Any, frozenset[str]]] = {}
        for b, clubs in sorted(who.items()):
            lines = (field, field.version(b))      # the field object too: a club's entry makes a new one
            last = self._released.get(b)
            if last is not None and last[0][0] is field and last[0][1] == lines[1] and frozenset(clubs) == last[1]:
                continue
            out[b] = (field.board_job(b), frozenset(clubs))
            self._released[b] = (lines, frozenset(clubs))
        return out, field.namer()


def prepare_view(state: EventState, *, public: bool = True) -> tuple[tuple[int, ...], Scored | None, dict[str, int]]:
    """The boards shown (only those every club has finished, when ``public``), the field's scores of
    them (None when none) and the messages taken from each club so far."""
    taken = dict(state.ledger.state())
    f = state.scores
    if f is None:
        return (), None, taken
    shown = public_boards(state.setup.boards, state.finished(), frozenset(state.setup.clubs), state.closed) \
        if public else state.setup.boards
    return shown, (f.prepare(shown) if shown else None), taken


def field_view(state: EventState, *, public: bool = True) -> dict[str, Any]:
    """The field's rankings as plain values; with ``public`` only boards every club has finished count."""
    shown, scored, taken = prepare_view(state, public=public)
    return view_from(shown, scored, taken, state.closed)
