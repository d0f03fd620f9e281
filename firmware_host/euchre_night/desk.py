"""The euchre night's desk: the tables' hands in, each table's seating out, whoever owns the broker
connection (``cardtable euchre serve``'s own client in ``service.py``, or the director's server when the
night runs on the club's machine: ``screens.py``), as the events' desk is for an event.

* :meth:`NightDesk.offer` gives a table's ``hand`` message (any thread) to the session's ordering
  (``firmware_host/session/journalled.py``, the seam every session's intake uses: read by the night's
  reader, answered only once committed, one bad message never stopping the others, held in order with a
  back-off while the journal cannot be written, a bounded note per refusal per login, a hand that came
  ahead of a missing one ``held``: neither journaled nor answered);
* :meth:`NightDesk.step` (a worker thread, never paho's network thread or an event loop) commits what has
  arrived in one transaction, makes the pages' view once (:attr:`NightDesk.view`: the pages read it
  without waiting for the session's lock, so a page is never held behind the next commit's disk sync),
  tells the pages (``listeners``, ``changed``), then publishes the seatings whose answers changed (every
  seating when a round ended or was called), so an answer always follows its commit; each seating measured
  against the club broker's packet first, as every desk's (``session/answers.fitted``): one that would not
  fit goes with its oldest answers left out, never as a packet the broker refuses by dropping the desk's
  client;
* :meth:`NightDesk.call` is the director's call of the round in play.

A table's page address goes out on its seating (``page``): ``<page>/table/<table>`` for the stdlib pages,
or, when the desk has a page secret (the director's server's), ``/euchre/table/<table>?key=K`` with a key
made for that table only.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from firmware_host.euchre_night.session import NightSession
from firmware_host.euchre_night.views import page_view, seat_names
from firmware_host.session.answers import fitted
from firmware_host.wire.euchre import EuchreSeating

log = logging.getLogger(__name__)

Publish = Callable[[str, str, bool], None]   # topic, JSON text, retained
PAGE = "/euchre/table/{table}?key={key}"
WAKE = 0.25     # seconds a worker waits for a message before stepping anyway (the ordering's back-off)


class NightDesk:
    """One night on the broker (see the module docstring).

    Args:
        session: the open night.
        page: the base address of the stdlib pages (a table's page is ``<page>/table/<id>``), or ''.
        page_secret: the secret a table's page key is made from (the director's server's); when set the
            seatings carry ``/euchre/table/<id>?key=K``.
    """

    def __init__(self, session: NightSession, page: str = "", page_secret: bytes | None = None) -> None:
        self.session = session
        self.page = page
        self.page_secret = page_secret
        self.changed = threading.Condition()
        self.listeners: list[Callable[[int], None]] = []
        self.publish: Publish | None = None
        self._out = threading.Lock()    # a seating made and handed to the broker client as one step
        self.view: tuple[int, dict[str, Any], bytes] = (-1, {}, b"")
        self._was = self._where()
        with session.lock:
            self._made()

    def connect(self, publish: Publish) -> None:
        """Give the desk its way to the broker (called once, by what owns the connection)."""
        self.publish = publish

    # -- table pages' keys ------------------------------------------------------------------------------

    def table_key(self, table: str) -> str:
        """The key a table's page is opened with (given only to that table, on its seating topic)."""
        return hmac.new(self.page_secret or b"", f"euchre-table\x00{table}".encode(), hashlib.sha256).hexdigest()[:20]

    def check_key(self, table: str, key: str | None) -> bool:
        return (self.page_secret is not None and bool(key) and table in self.session.night.setup.tables
                and hmac.compare_digest(self.table_key(table).encode(), str(key).encode("utf-8", "surrogatepass")))

    def page_of(self, table: str) -> str:
        if self.page_secret is not None:
            return PAGE.format(table=table, key=self.table_key(table))
        return f"{self.page}/table/{table}" if self.page else ""

    # -- messages in ------------------------------------------------------------------------------------

    def offer(self, topic: str, payload: bytes) -> bool:
        """A message from the broker (any thread): a table's ``hand`` message goes to the ordering for the
        next step; anything else is not ours (False)."""
        name = self.session.topics.parse(topic)
        if name is None or name.family != "table" or name.kind != "hand":
            return False
        self.session.ordering.offer(topic, bytes(payload))
        return True

    def step(self) -> bool:
        """Commit what has arrived (held messages first) and answer it; True when something was committed.
        While the journal cannot be written the ordering holds everything and tries again after its
        back-off (0.25 s, 0.5 s, ... 8 s), and the pages are told the fault once."""
        s = self.session
        with s.lock:
            fault = s.ordering.fault
            outcomes = s.ordering.take()
            if outcomes is None:
                if s.ordering.fault != fault:
                    if s.ordering.fault is not None:
                        log.warning("euchre night: %s; %d message(s) held", s.ordering.fault, s.ordering.waiting)
                    s.version += 1
                    self._made()
                else:
                    return False
                told: set[str] = set()
                moved = False
            else:
                told = s.answered(outcomes)
                moved = self._where() != self._was
                self._made()
        self.changed_now()      # the pages first (both show only what is committed), then the tables
        if moved:
            self.publish_all()
        else:
            self.publish_tables(sorted(told))
        return outcomes is not None

    @property
    def holding(self) -> bool:
        """Messages wait for the journal (``ordering``'s held ones)."""
        return bool(self.session.ordering.held)

    @property
    def fault(self) -> str | None:
        return self.session.ordering.fault

    def _where(self) -> tuple[int, int, bool]:
        n = self.session.night
        return n.current, len(n.called), n.finished

    def _made(self) -> None:
        """The pages' view of the night as it is now, made once (the session's lock held)."""
        s = self.session
        view = page_view(s.night, s.head(), s.version, s.refused)
        view["fault"] = s.ordering.fault
        self.view = (s.version, view, json.dumps(view, separators=(",", ":")).encode())
        self._was = self._where()

    def view_now(self) -> tuple[int, dict[str, Any], bytes]:
        """The latest view (version, view, its JSON): made by the step that changed the night; made here
        only when something else changed it (a correction), under the session's lock."""
        got = self.view
        if got[0] != self.session.version:
            with self.session.lock:
                if self.view[0] != self.session.version:
                    self._made()
                got = self.view
        return got

    def call(self, by: str) -> str:
        """The director ends the round in play; '' or why not."""
        why = self.session.call(by)
        if not why:
            self.view_now()
            self.changed_now()
            self.publish_all()
        return why

    def correct(self, table: object, rnd: object, hand: object, facts: object, why: object, by: str) -> str:
        """The director corrects a hand taken; '' or why not."""
        why_not = self.session.correct(table, rnd, hand, facts, why, by)
        if not why_not:
            self.view_now()
            self.changed_now()
        return why_not

    def substitute(self, player: object, name: object, member: object, from_round: object, why: object,
                   by: str) -> str:
        """The director's substitution; '' or why not. Every seating again (the names on them)."""
        why_not = self.session.substitute(player, name, member, from_round, why, by)
        if not why_not:
            self.view_now()
            self.changed_now()
            self.publish_all()
        return why_not

    def changed_now(self) -> None:
        v = self.session.version
        with self.changed:
            self.changed.notify_all()
        for cb in list(self.listeners):
            try:
                cb(v)
            except Exception:
                log.exception("euchre night: a listener failed")

    # -- seatings out -----------------------------------------------------------------------------------

    def seating(self, table: str) -> EuchreSeating:
        s = self.session
        with s.lock:
            night = s.night
            k = night.setup.tables.index(table) + 1
            rnd = night.current
            seats = seat_names(night, rnd, k)
            return EuchreSeating(table, k, rnd, night.setup.rounds, night.setup.hands, seats,
                                 rnd in night.called, night.table_done(rnd, k) if seats else True, night.finished,
                                 tuple(s.answers.get(table, ())), self.page_of(table), s.version, time.time(),
                                 bool(seats) and k in night.round(rnd).repeats, night.setup.id)

    def publish_all(self) -> None:
        """Every table's seating (retained): after a round ends or is called, and on every connection."""
        self.publish_tables(self.session.night.setup.tables)

    def publish_tables(self, tables: Iterable[str]) -> None:
        """These tables' seatings (retained): after a commit that answered them; each fitted to the broker's
        packet on its topic (``session/answers.fitted``), a table's whose seating would not fit even without
        its answers not sent (logged), the others still.

        Several threads publish (the worker's step, the director's call, the client's connection): each
        seating is made and handed to the client under one lock, so they reach the broker in the order
        they were made. Made under the session's lock but sent after it, an older seating (a reconnection's
        round 1) could follow a newer one (the commit that seated round 2) and stay retained: the table
        then waited in round 1 for good, since no answer was due to it any more."""
        if self.publish is None:
            return
        for table in tables:
            topic = self.session.topics.seating(table)
            with self._out:
                body = fitted(topic, self.seating(table).to_dict())   # as a pairs session's: never a packet refused
                if body:
                    self.publish(topic, body, True)
