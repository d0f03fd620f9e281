"""A duplicate session on the club's machine: the first kind of session on the journalled service
(``journalled.JournalledService``; the seam is ``laws/session/kind.py``), its model the duplicate's
pure state (``laws/session/duplicate/``), its results scored at once.

The journal (``session.sqlite3`` in the session's folder) holds, after the opening row, one ``event`` per
record taken (``laws.session.duplicate.state`` lists them), one ``note`` ``{"refused": ...}`` per record
not taken, and one ``note`` ``{"reused_number": ...}`` when a table's result is taken under a number it
had used for another (the table and the director are told).

:meth:`Session.open` replays the rows into the same state. :meth:`Session.submit` takes records (from
the tables or the director), checks each against the state as it stands after the ones before it,
journals them all in one transaction, and applies them; a refused record changes nothing.
:meth:`Session.scored` is the whole session scored by ``laws.scoring.score_session`` (recomputed after
each change, at most once per change).

**Its desk on the link** (:class:`SessionDesk`): takes the tables' ``board`` messages, hands them to the session
in batches, tells each table its seating, and tells the screens what changed.

It owns no MQTT client: whoever does (the dashboard, or ``broker_client.SessionService`` without one) gives
it each message with :meth:`SessionDesk.offer` (from any thread) and a ``publish(topic, payload, retain)``
callable; the desk's own thread (:meth:`SessionDesk.run`) calls :meth:`SessionDesk.tick` every few
tens of milliseconds. One tick takes every
message that has arrived, journals the lot in one transaction (``Session.submit``), rescores once,
republishes the seatings that changed (retained; each measured against the broker's packet first,
``answers.fitted``), and calls the listeners with the boards that changed.
The director's records (:meth:`SessionDesk.director`) go the same way at once.

What it promises the tables (answered only once committed, held while the journal cannot be written, no
message stopping another, a bounded note per refusal) is ``journalled.SessionOrdering``'s; a tick waits for the
disk, so it runs on the desk's own thread (:meth:`SessionDesk.run`, started by the dashboard or by
``broker_client``), never on the asyncio loop.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.session.analysis import Analyser, Analysis
from firmware_host.session.answers import answer_of, fitted, journaled_answers
from firmware_host.session.journalled import (
    PART,
    REFUSALS_KEPT,
    SESSION_FILE,
    JournalledService,
    Outcome,
    SessionFileError,
    SessionOrdering,
    session_path,
)
from firmware_host.session.roster import RosterError, camera_players, roster_of
from firmware_host.wire.duplicate import (
    ANSWERS_KEPT,
    LinkError,
    hand_records_part,
    next_part,
    parse_players,
    parse_result,
    players_part,
    refused_says,
    round_message,
    seating_message,
)
from firmware_host.wire.topics import TOPICS
from laws.duplicate.movement import next_moves
from laws.scoring import Pair, ScoredBoard, SessionResult, Tally, rank_tallies, score_boards, score_session
from laws.scoring.session import NO_TALLY
from laws.session.duplicate.duplicate_kind import DUPLICATE
from laws.session.duplicate.spec import SessionSetup, label
from laws.session.duplicate.state import SessionState, progress

__all__ = ["PART", "REFUSALS_KEPT", "SESSION_FILE", "Outcome", "Session", "SessionDesk", "SessionFileError",
           "fitted", "largest_seating", "session_path", "table_parts"]

log = logging.getLogger(__name__)


class Session(JournalledService):
    """A journaled duplicate session. Build one with :meth:`create` or :meth:`open`."""

    KIND = DUPLICATE
    state: SessionState

    def __init__(self, journal: Journal, state: SessionState, clock: Callable[[], float],
                 refusals: list[dict[str, Any]], *, analyse: bool = True) -> None:
        super().__init__(journal, state, clock, refusals)
        self.changed_boards: set[int] = set()
        self._scored: SessionResult | None = None
        self._scored_version = -1
        self._boards: dict[int, ScoredBoard] = {}
        self._tallies: dict[Pair, Tally] = {}
        self._stale: set[int] = set(state.movement.boards())
        self.analyser: Analyser | None = Analyser(state.setup.boards).start() if analyse else None

    @property
    def setup(self) -> SessionSetup:
        return self.state.setup

    # -- opening ------------------------------------------------------------------------------------

    @classmethod
    def create(cls, folder: str | Path, setup: SessionSetup, *, clock: Callable[[], float] = time.time,
               analyse: bool = True, synchronous: str = "FULL") -> Session:
        """A new session in ``folder`` (refused if the folder already holds one), all or nothing
        (``journalled.make_journal``).

        Raises:
            SetupError: the setup cannot be played (``spec.check_setup``).
            SessionFileError: the journal cannot be made, or a session is already there.
        """
        journal, state = cls._journal_of(folder, setup, clock, synchronous)
        return cls(journal, state, clock, [], analyse=analyse)

    @classmethod
    def open(cls, folder: str | Path, *, clock: Callable[[], float] = time.time, analyse: bool = True,
             readonly: bool = False, synchronous: str = "FULL") -> Session:
        """The session in ``folder``, rebuilt from its journal.

        Raises:
            SessionFileError: no session there, a journal that is not one, or a chain that does not verify.
        """
        journal, setup, rows = cls._read(folder, readonly=readonly, synchronous=synchronous)
        state, refusals = cls._replayed(session_path(folder), setup, rows)
        session = cls(journal, state, clock, refusals, analyse=analyse)
        session.changed_boards = set(state.movement.boards())
        return session

    @classmethod
    def _note_refusal(cls, body: Mapping[str, Any], t: float,
                      taken: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        reused = body.get("reused_number")
        if isinstance(body.get("refused"), dict) or not isinstance(reused, dict):
            return super()._note_refusal(body, t, taken)
        record = dict(taken) if taken is not None and taken.get("source") == reused.get("source") else {
            "type": "result", "source": reused.get("source"), "board": reused.get("board")}
        return {"record": record, "why": "taken, but " + str(reused.get("why")), "t": t}

    # -- the kind's hooks ---------------------------------------------------------------------------

    def _caveat(self, rec: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
        reused = self.state.reused(rec) if rec.get("type") == "result" else ""
        if not reused:
            return "", None
        return reused, {"reused_number": {"source": rec.get("source"), "board": rec.get("board"), "why": reused}}

    def _applied(self, applied: list[Mapping[str, Any]]) -> None:
        for rec in applied:
            boards = self._boards_of(rec)
            self.changed_boards |= boards
            self._stale |= boards

    def _rebuilt(self) -> None:
        self._stale = set(self.state.movement.boards())
        self._boards, self._tallies = {}, {}

    def _boards_of(self, rec: Mapping[str, Any]) -> set[int]:
        if "board" in rec:
            return {int(rec["board"])}
        key = rec.get("key")
        if isinstance(key, str) and "/" in key:
            return {int(key.split("/")[0])}
        return set()

    # -- reading ------------------------------------------------------------------------------------

    def scored(self) -> SessionResult:
        """The session scored as it stands (``laws.scoring``). Only the boards that changed since the last
        call are scored again (``score_boards``: each on its own lines and due count); each pair's running
        figures lose the board's old points and take its new ones (exact fractions), and the fields are
        ranked from them (``rank_tallies``): what ``score_session`` gives for the whole session at once
        (``rescore_all``; a test compares the two)."""
        if self._scored is None or self._scored_version != self.version or self._stale:
            st = self.state
            due = st.due()
            stale = sorted(self._stale)
            if stale:
                part = score_boards(stale, [ln for b in stale for ln in st.board_lines(b)],
                                    {b: due[b] for b in stale}, st.setup.method, st.fields)
                for bd in part:
                    old = self._boards.get(bd.number)
                    if old is not None:
                        self._count(old, -1)
                    self._count(bd, +1)
                    self._boards[bd.number] = bd
            self._stale.clear()
            boards = tuple(self._boards[b] for b in st.movement.boards())
            self._scored = SessionResult(st.setup.method, boards,
                                         rank_tallies(self._tallies, st.setup.method, st.fields))
            self._scored_version = self.version
        return self._scored

    def _count(self, board: ScoredBoard, sign: int) -> None:
        for ln in board.lines:
            for pair, pts in ((ln.ns, ln.ns_points), (ln.ew, ln.ew_points)):
                t = self._tallies.get(pair, NO_TALLY)
                self._tallies[pair] = t.add(pts, board.top) if sign > 0 else t.remove(pts, board.top)

    def rescore_all(self) -> SessionResult:
        """The whole session scored at once (``score_session``), for checking and measuring."""
        st = self.state
        return score_session(st.movement.boards(), st.lines(), st.due(), st.setup.method, st.fields)

    def analysis(self, board: int) -> Analysis | None:
        """The board's double-dummy analysis when it is ready (never waits)."""
        return None if self.analyser is None else self.analyser.get(board, timeout=0.0)

    def all_analysis(self, timeout: float | None = None) -> dict[int, Analysis]:
        """Every board's analysis, waiting for it (exports)."""
        return {} if self.analyser is None else self.analyser.all(timeout)


# -- the session's desk on the link ---------------------------------------------------------------------

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
        cache[records_key] = hand_records_part([st.records[b] for b in row["boards"]], st.index, st.commitment,
                                               st.file)
    if next_key not in cache:
        cache[next_key] = next_part(next_moves(st.movement, row["round"], row["table"]))
    return {"hand_records": cache[records_key],
            "players": players_part({side: st.players_in(row[side], row["round"]) for side in ("ns", "ew")
                                     if row[side]}),
            "next": cache[next_key]}


def largest_seating(st: SessionState) -> int:
    """The bytes of the largest seating the session can send a table, as :meth:`SessionDesk.publish_all`
    sends it, less what grows in play (its answers and players: ``SEATING_REST`` keeps room for them):
    every seating of the movement, to a table whose id is the longest, called at the last round with the
    longest message number and every board of the table's rounds to replay. The index of every board of the hand records file rides in
    each (``hand_records``), so a big file makes every seating big; ``duplicate open`` refuses a session
    whose seating would not fit a club broker's packet (``SEATING_MOST``), which the table would never
    get (``docs/mqtt.md``, "Hand records sent to the tables")."""
    table, rounds = "t" * 64, st.movement.rounds
    page = PAGE.format(table=table, key="k" * 20)
    records: dict[tuple[Any, ...], int] = {}
    # the boards to replay at their most: every board of every round the table plays (the director took
    # every line off); the list only grows with the rounds, so the last round's holds them all
    replay: dict[int, list[tuple[int, int]]] = {}
    for s in st.movement.seatings:
        if s.played:
            replay.setdefault(s.table, []).extend((s.round, b) for b in st.movement.boards_of(s.group))
    most = 0
    for s in st.movement.seatings:
        boards = list(st.movement.boards_of(s.group)) if s.played else []
        row = {"table": s.table, "round": s.round, "ns": label(s.ns), "ew": label(s.ew), "boards": boards,
               "left": boards, "sit_out": not s.played}
        parts = table_parts(st, row, {})
        key = tuple(boards)
        if key not in records:   # the index is the same in every seating: measured once a round's boards
            records[key] = len(json.dumps({"hand_records": parts.pop("hand_records")}, separators=(",", ":")))
        else:
            parts.pop("hand_records")
        rest = seating_message(table, st.setup.section, row, called=rounds, rounds=rounds, records=st.fingerprints,
                               page=page, answers=[], seq=2**62, t=9_999_999_999.999, extra=parts,
                               replay=replay.get(s.table, []))
        # {"hand_records":...} and {...the rest} joined as one object: their braces become one comma
        most = max(most, records[key] + len(json.dumps(rest, separators=(",", ":"))) - 1)
    return most


class SessionDesk:
    """The session on the link (see the module docstring).

    Args:
        session: the open session.
        publish: sends a message to the broker (QoS 1); None while there is no broker.
        clock: wall-clock seconds, for the messages' ``t``.
        keep_head: given the session journal's head (``ROW:HASH``) after each commit, to keep it where
            the club keeps the tables' heads (``club.heads.HeadBook.keeper``), or None.
    """

    def __init__(self, session: Session, publish: Publish | None = None,
                 clock: Callable[[], float] | None = None, *,
                 keep_head: Callable[[str], None] | None = None) -> None:
        self.session = session
        self.publish = publish
        self.clock = clock or session.clock
        self.ordering = SessionOrdering(session, read=self._read, says=refused_says)
        self.keep_head = keep_head
        self._progress = progress(session.state)   # where the tables were at the last commit
        self.listeners: list[Listener] = []
        self.lock = threading.RLock()
        self.answers: dict[str, deque[dict[str, Any]]] = journaled_answers(session.journal.rows())
        self._told: dict[str, str] = {}
        self._parts: dict[tuple[Any, ...], Any] = {}   # table_parts' cache
        self.taken = 0
        self.refused = 0

    # -- in -----------------------------------------------------------------------------------------

    def offer(self, topic: str, payload: bytes) -> bool:
        """A message from the broker (any thread). True when it is the session's (a table's ``board``
        message, kept for the next tick, or one of the session's own messages, ignored)."""
        name = TOPICS.parse(topic)
        if name is not None and name.family == "table" and name.kind in ("board", "players"):
            self.ordering.offer(topic, payload)
            return True
        return name is not None and name.family in ("round", "seating")

    @property
    def inbox(self) -> Any:
        """The messages that arrived and are not yet committed (``SessionOrdering.inbox``)."""
        return self.ordering.inbox

    @property
    def fault(self) -> str | None:
        """Why the session's journal cannot be written now (the messages wait, held), or None."""
        return self.ordering.fault

    def tick(self) -> bool:
        """Take what has arrived (see the module docstring); True when anything changed."""
        with self.lock:
            fault = self.ordering.fault
            outcomes = self.ordering.take()
            if outcomes is None:
                if self.ordering.fault != fault:   # the journal's fault began or changed: the director is told
                    self._tell(set(), [])
                return False
            return self._answered(outcomes)

    def run(self, stop: threading.Event, every: float, on_fault: Callable[[str], None] | None = None) -> None:
        """The desk's own thread, whoever owns the broker connection (the dashboard, or
        ``broker_client.SessionService``): a tick every ``every`` seconds until ``stop`` is set, off the
        asyncio loop since a tick waits for the disk. A tick that fails is logged and told to ``on_fault``
        (the dashboard shows it to the director), and the next tick is taken."""
        while not stop.wait(every):
            try:
                self.tick()
            except Exception as exc:
                log.exception("the session's desk failed a tick")
                if on_fault is not None:
                    on_fault(f"the duplicate session's intake failed a tick ({type(exc).__name__}: {exc})")

    def _tell(self, changed: set[int], outcomes: list[Outcome]) -> None:
        for listener in list(self.listeners):
            try:
                listener(changed, outcomes)
            except Exception:
                log.exception("a session listener failed")

    def _read(self, topic: str, payload: bytes) -> dict[str, Any]:
        """A table's message as the session's record: a ``board`` message's result, or its member cards
        (``players``). Raises LinkError saying why not."""
        name = TOPICS.parse(topic)
        return self._players(topic, payload) if name is not None and name.kind == "players" else \
            parse_result(topic, payload)

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
        # the table and the message's number go with the record, so a refusal by the naming rules (a
        # member already in another pair) is answered to the table that sent it, as any refusal is
        return {**found, "table": rec["table"], "source": rec["source"], "t": self.clock()}

    def director(self, rec: dict[str, Any]) -> Outcome:
        """A director's record (``round``, ``adjust``, ``correct``, ``cancel``, ``regroup``, ``result``).
        When the journal cannot be written it is refused with the reason: nothing was taken."""
        with self.lock:
            rec = {**rec, "t": rec.get("t", self.clock())}
            try:
                outcomes = self.session.submit([rec])
            except SessionFileError as exc:
                return Outcome("refused", f"the session's journal cannot be written now ({exc}); enter it again")
            self._answered(outcomes)
            return outcomes[0]

    def refuse_form(self, record: dict[str, Any], why: str) -> str:
        """Journal a form refused before the checks (a director's, a table page's) and say why it was.

        The refusal is the record (nothing is lost), but a journal that cannot be written (a full disk,
        a lock held past the busy timeout) must not turn a refusal into a server error that hides the
        reason from the one who typed it: the answer is the reason all the same, and says that the
        refusal is not journaled.

        Returns:
            ``why``, or ``why`` and that it could not be journaled.
        """
        with self.lock:
            try:
                self.session.refuse([(record, why)])
            except SessionFileError as exc:
                log.error("session: a refused %s could not be journaled: %s", record.get("form") or record.get("type"),
                          exc)
                return f"{why} (not journaled: the session's journal cannot be written now: {exc})"
            self._keep_head()
        return why

    def _keep_head(self) -> None:
        """The journal's head where the club keeps it, after every commit (a refusal's note too)."""
        if self.keep_head is not None:
            try:
                self.keep_head(self.session.journal.read_head())
            except Exception:  # the head is kept again after the next commit
                log.exception("session: the journal's head could not be kept")

    def _answered(self, outcomes: list[Outcome]) -> bool:
        """After a commit: answer each table's message, republish what changed, tell the listeners."""
        before = self._progress
        answered = False
        for o in outcomes:
            rec = o.record or {}
            if o.status == "taken":
                self.taken += 1
            elif o.status == "refused":
                self.refused += 1
            said = answer_of(rec, o.status, o.why)
            if said is not None:
                self.answers.setdefault(said[0], deque(maxlen=ANSWERS_KEPT)).append(said[1])
                answered = True
        self._keep_head()
        changed = set(self.session.changed_boards)
        self.session.changed_boards.clear()
        after = progress(self.session.state)
        self._progress = after
        moved = before.tables != after.tables or before.called != after.called
        named = any(o.taken and (o.record or {}).get("type") == "players" for o in outcomes)
        if changed or moved or answered or named:
            self.publish_all(only_changed=True)
            self._tell(changed, outcomes)
            return True
        return False

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
        out = [(TOPICS.round, round_message(st.setup.section, st.called, st.movement.rounds, seq, t, st.commitment))]
        records = st.fingerprints
        rows = {row["table"]: row for row in progress(st).tables}
        for tid, number in sorted(st.number_of.items()):
            page = PAGE.format(table=tid, key=self.table_key(tid))
            out.append((TOPICS.seating(tid), seating_message(
                tid, st.setup.section, rows[number], called=st.called, rounds=st.movement.rounds, records=records,
                page=page, answers=list(self.answers.get(tid, ())), seq=seq, t=t, extra=table_parts(st, rows[number], self._parts),
                replay=st.replay_at(number))))
        return out

    def connect(self, publish: Publish) -> None:
        """Give the desk its way to the broker: called once, by what owns the broker connection (the
        dashboard, or ``SessionService``), before that connection is started. A desk already connected
        refuses a second (two clients publishing one session's seatings)."""
        if self.publish is not None:
            raise RuntimeError("the session's desk is already connected to a broker client")
        self.publish = publish

    def publish_all(self, only_changed: bool = False) -> int:
        """Publish the round and the seatings (retained); ``only_changed``: those that changed since
        last told. Returns how many were sent.

        Made and handed to the broker client under the desk's lock, as a commit's are, so they reach the
        broker in the order they were made: made under it but sent after, a reconnection's (paho's thread)
        could follow the director's call of the next round and stay retained, the tables told the round
        before for good."""
        publish = self.publish
        if publish is None:
            return 0
        with self.lock:
            return self._publish_all(publish, only_changed)

    def _publish_all(self, publish: Publish, only_changed: bool) -> int:
        sent = 0
        messages = self.messages()
        for topic, msg in messages:
            # the hand records and the next moves follow from the round and boards the key already holds
            key = json.dumps({k: v for k, v in msg.items() if k not in ("t", "seq", "hand_records", "next")},
                             sort_keys=True)
            if only_changed and self._told.get(topic) == key:
                continue
            text = fitted(topic, msg)
            if not text:
                self._told.pop(topic, None)
                continue
            try:
                publish(topic, text, True)
            except Exception as exc:  # the broker may be away: the next change (or reconnection) sends again
                log.warning("session: cannot publish %s (%s)", topic, exc)
                self._told.pop(topic, None)
                continue
            self._told[topic] = key
            sent += 1
        return sent
