"""The event's desk: the tables' ``board`` messages in, the answers and each table's seating out, whoever
owns the broker connection (``cardtable event run``'s own client, or the director's server when the event
runs on the club's machine: ``club/event_screens.py``).

* :meth:`EventDesk.offer` takes a message from the broker (any thread) to the session's ordering
  (``firmware_host/session/journalled.py``: read by the event's reader, answered only once committed, held
  in order while the journal cannot be written, a bounded note per refusal per login);
* :meth:`EventDesk.director_record` takes the director's ``names`` and ``correct`` records
  (``laws/session/event/event_kind.py``) the same way, and republishes every seating;
* :meth:`EventDesk.step` (one tick, on a worker thread, never on paho's network thread or an event loop)
  commits what came in one transaction and then answers: each answer goes out on its table's seating
  topic ``<prefix>/session/table/<table>`` (retained) inside the table's view
  (:func:`views.table_view` plus ``answers``, the latest answers to its messages as a pairs session
  gives them, ``session/answers.py``, read back from the journal on a restart, and ``page``, the
  path of the table's page on the director's server when the desk has a page secret). When the event
  was opened with the club's hand records, a seated table's message also carries ``hand_records``: the
  records of the boards of its round, with the commitment and its index, as a pairs session sends them
  (``wire.duplicate.hand_records_part``), so the table needs no records file of its own; only the
  table's own topic carries them, never its page. When a result completes a round, every table's
  seating is republished at once with the next round's draw (after the last round: with ``finished``);
  otherwise the tables answered, and every other table whose view a result changed (the other room's
  ``released``, a board called fouled ``held`` at the tables that played it), so the one retained is the
  event as it stands for that table.
  ``event open`` measures the largest message the event can send a table (:func:`largest_table_message`)
  and refuses an event whose messages would not fit the club broker's packet; each is measured again
  before it is published (``session/answers.fitted``): one past the packet goes with its oldest answers
  left out, never as a packet the broker would refuse by dropping the desk's client.
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

from firmware_host.events.session import EventSession
from firmware_host.events.views import director_view, table_view
from firmware_host.session.answers import answer_of, fitted, journaled_answers
from firmware_host.session.journalled import Outcome, SessionOrdering
from firmware_host.wire.duplicate import hand_records_part, refused_says
from firmware_host.wire.messages import ANSWERS_KEPT
from firmware_host.wire.topics import TOPICS
from laws.competition.event import EventState, RoundDraw
from laws.competition.event_spec import EventKind, tables_of
from laws.duplicate.deal import board_index
from laws.session.event.event_kind import EventSetup, players_at_most
from laws.session.players import NAME_MAX

log = logging.getLogger(__name__)

Publish = Callable[[str, str, bool], None]   # topic, JSON text, retained
PAGE = "/event/table/{table}?key={key}"


def refusals_of(refusals: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The director's refusals as the view lists them: ``source`` and ``why``."""
    return [{"source": str((r.get("record") or {}).get("source", r.get("source", ""))), "why": str(r.get("why", ""))}
            for r in refusals]


#: a name at its longest as a table's message writes it: 60 characters beyond the BMP, 12 bytes each
LONGEST_NAME = "\U0001f600" * NAME_MAX
#: the most IMPs a board gives either way (``laws.scoring.imps``), as ``released`` writes them at their longest
IMPS_MOST = -24


def largest_table_message(setup: EventSetup) -> int:
    """The bytes of the largest message the event can send a table, as :meth:`EventDesk.publish_table`
    sends it, less its answers (``wire.duplicate.SEATING_REST`` keeps room for them): the view of every
    table the event seats in every round, to a table whose id is the longest, at its longest (every
    competitor named with the most players, each name 60 characters beyond the BMP, a team's name too;
    the competitors with the most digits; every board entered and, in a teams match, released with the
    most IMPs; the page; the longest version), with the records of the round's boards and the index of
    every board of the hand records (``hand_records``). ``event open`` refuses an event whose message
    would not fit a club broker's packet (``SEATING_MOST``): the broker would refuse it and drop the desk's
    client (``docs/competitions.md``, "The answer and the table's seating")."""
    spec = setup.spec
    state = EventState(spec)
    named = {"name": LONGEST_NAME if spec.kind.teams else "",
             "players": [{"name": LONGEST_NAME, "member": "", "federation": ""}] * players_at_most(spec.kind)}
    state.names = {n: named for n in range(1, spec.entrants + 1)}
    tables = tuple(f"{k:t>64}" for k in range(1, len(setup.tables) + 1))
    # a Swiss's or a knock-out's draw is made from results: every match between the two highest numbers,
    # and a repeat (a Swiss round no draw could make without one marks its repeated matches)
    top = () if spec.kind in (EventKind.SECTIONS, EventKind.INDIVIDUAL) else \
        ((spec.entrant(spec.entrants), spec.entrant(spec.entrants - 1)),) * (spec.entrants // 2)
    records = {b.number: b for b in setup.boards}
    index = board_index(setup.played) if setup.boards else ()
    commitment, file = (setup.commitment, setup.file) if setup.boards else ("", None)   # each made anew when read
    parts: dict[tuple[int, ...], int] = {}
    most = 0
    for r in range(1, spec.rounds + 1):
        seats = tables_of(spec, r, top)
        state.draws = {r: RoundDraw(r, top, (), seats, spec.boards(r), top)}
        # the tables of such a draw differ only in their numbers and room: the last is the longest
        for seat in seats[-1:] if top else seats:
            table = tables[seat.table - 1]
            view = table_view(state, tables, table, 2**62)
            boards = tuple(view["boards"])
            view["entered"] = list(boards)
            if "released" in view:
                view["released"] = [{"board": b, "home_imps": IMPS_MOST, "away_imps": IMPS_MOST} for b in boards]
            view.update(answers=[], page=PAGE.format(table=table, key="k" * 20))
            size = len(json.dumps(view, separators=(",", ":")))
            if records:
                if boards not in parts:   # the same for every table playing the round's boards
                    part = hand_records_part([records[b] for b in boards], index, commitment, file)
                    parts[boards] = len(json.dumps({"hand_records": part}, separators=(",", ":")))
                size += parts[boards] - 1   # {"hand_records":...} and {...the view} as one object: one comma
            most = max(most, size)
    return most


class EventDesk:
    """One event on the broker (see the module's docstring).

    Args:
        session: the journalled event.
        page_secret: the secret a table's page key is made from (the director's server's); None: no
            table pages are offered (``page`` is left out of the seatings).
    """

    def __init__(self, session: EventSession, *, page_secret: bytes | None = None) -> None:
        self.session = session
        self.lock = threading.RLock()        # the commits and the pages' reads of the state
        self.changed = threading.Condition()
        # a refused board message still names its table's seq and its board in the answer (``source``
        # ``t-a:10``, not ``t-a:?``), so the table matches the refusal to its result, as a pairs session does
        self.ordering = SessionOrdering(session, read=session.reader(), says=refused_says)
        self.publish: Publish | None = None
        self.page_secret = page_secret
        # the answers as a pairs session gives them (``session/answers.py``: each with its ``kind``), read
        # back from the journal, so a table whose result was refused just before a restart still hears
        kept = journaled_answers(session.journal.rows())
        self._answers: dict[str, deque[dict[str, Any]]] = {t: kept.get(t, deque(maxlen=ANSWERS_KEPT))
                                                           for t in session.tables}
        setup = session.state.setup
        self._records = {b.number: b for b in setup.boards}
        self._index = board_index(setup.played) if setup.boards else ()   # the boards the event plays
        self._records_parts: dict[tuple[int, ...], dict[str, Any]] = {}   # by the round's boards
        self._told: dict[str, str] = {}      # what each table's retained message last said of the event

    def connect(self, publish: Publish) -> None:
        """Give the desk its way to the broker (called once, by what owns the connection)."""
        self.publish = publish

    def table_key(self, table: str) -> str:
        """The key a table's page is opened with (given only to that table, on its seating topic)."""
        secret = self.page_secret or b""
        return hmac.new(secret, f"event-table\x00{table}".encode(), hashlib.sha256).hexdigest()[:20]

    def check_key(self, table: str, key: str | None) -> bool:
        return (self.page_secret is not None and bool(key) and table in self.session.tables
                and hmac.compare_digest(self.table_key(table).encode(), str(key).encode("utf-8", "surrogatepass")))

    def offer(self, topic: str, payload: bytes) -> bool:
        """A message from the broker (any thread): a table's ``board`` message, or its ``players`` (member
        cards), is kept for the next tick (True); anything else is not the event's (False)."""
        name = TOPICS.parse(topic)
        if name is not None and name.family == "table" and name.kind in ("board", "players"):
            self.ordering.offer(topic, payload)
            return True
        return False

    def step(self) -> bool:
        """One tick: every message that arrived read, checked, committed in one transaction (the ordering),
        then answered; every table's seating again when a round was completed (drawn next, or the end). False when nothing was taken
        (nothing came, or the journal cannot be written: held)."""
        with self.lock:
            drawn, current = self.session.state.drawn, self.session.event.current
            outcomes = self.ordering.take()
            if outcomes is None:
                return False
            tables = set()
            for outcome in outcomes:
                said = answer_of(outcome.record or {}, outcome.status, outcome.why)
                if said is not None and said[0] in self._answers:
                    self._answers[said[0]].append(said[1])
                    tables.add(said[0])
            if self.session.state.drawn != drawn or self.session.event.current != current:
                # a round complete: the next one drawn, or the event finished (no draw, but every table's
                # view now says finished, not only the view of the table that sent the last result)
                log.info("round %d complete", current)
                self.publish_all()
            else:
                # the answered tables, and every other table whose view the results changed: the other room's
                # `released` once both rooms have played a board, every table's `held` once one calls it fouled
                for table in self.session.tables:
                    if table in tables or self._told.get(table) != self._what_it_says(table):
                        self.publish_table(table)
        with self.changed:
            self.changed.notify_all()
        return True

    def director_record(self, rec: dict[str, Any]) -> Outcome:
        """The director's ``names`` or ``correct`` record: checked, journaled, applied (the session's
        promise), then every seating again and the pages told. ``refused`` with the session's reason when
        it cannot be taken (nothing changes; the refusal is journaled as a note).

        Raises:
            SessionFileError: the journal cannot be written (nothing is applied).
        """
        with self.lock:
            outcome = self.session.take(rec)     # a refusal is journaled as a note by the session
            if outcome.status == "refused":
                self.session.version += 1        # the director's page lists it
            self.publish_all()
        with self.changed:
            self.changed.notify_all()
        return outcome

    def table_message(self, table: str) -> dict[str, Any]:
        """A table's view with the answers to its messages (and its page, when offered)."""
        s = self.session
        with self.lock:   # re-entrant: held while its message is published
            view = table_view(s.event, s.tables, table, s.version)
            view["answers"] = list(self._answers.get(table, ()))
        if self.page_secret is not None and table in s.tables:
            view["page"] = PAGE.format(table=table, key=self.table_key(table))
        return view

    def _what_it_says(self, table: str) -> str:
        """What a table's message says of the event, but its ``version`` (which every change moves) and its
        answers (sent whenever they change): compared with what it last said, to send it again only when the
        event changed for that table."""
        s = self.session
        view = table_view(s.event, s.tables, table, 0)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))

    def records_part(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """The ``hand_records`` a table's view is sent with: the records of the boards it plays this round
        (None: the event has no hand records, or the table plays nothing now)."""
        if not self._records or view.get("plays") is not True or view.get("bye") or view.get("finished"):
            return None
        boards = tuple(view.get("boards") or ())
        if boards not in self._records_parts:
            setup = self.session.state.setup
            self._records_parts[boards] = hand_records_part([self._records[b] for b in boards], self._index,
                                                            setup.commitment, setup.file)
        return self._records_parts[boards]

    def publish_table(self, table: str) -> None:
        """The table's message (retained), made and handed to the broker client under the desk's lock.

        Several threads publish (the worker's step, the director's record, the client's connection on
        paho's thread): made under the lock but sent after it, a connection's message made before the
        director's change could follow the change's own and stay retained, the table told the event as it
        was; under the lock they reach the broker in the order they were made."""
        publish = self.publish
        if publish is None:
            return
        with self.lock:
            message = self.table_message(table)
            part = self.records_part(message)
            if part is not None:
                message["hand_records"] = part
            topic = TOPICS.seating(table)
            text = fitted(topic, message)   # as a pairs session's: answers trimmed, never a packet refused
            if text:
                publish(topic, text, True)
                self._told[table] = self._what_it_says(table)

    def publish_all(self) -> None:
        """Every table's message, in one hold of the desk's lock (:meth:`publish_table`)."""
        with self.lock:
            for table in self.session.tables:
                self.publish_table(table)

    def director(self) -> dict[str, Any]:
        """The director's view (``views.director_view``) as the event stands."""
        s = self.session
        with self.lock:
            return director_view(s.event, s.tables, s.version, refusals_of(s.refusals))

    @property
    def version(self) -> int:
        return self.session.version

    def wait_change(self, version: int, timeout: float) -> int:
        with self.changed:
            self.changed.wait_for(lambda: self.session.version != version, timeout)
        return self.session.version
