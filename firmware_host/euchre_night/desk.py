"""The euchre night's desk: the tables' hands in, each table's seating out, whoever owns the broker
connection (``cardtable euchre serve``'s own client in ``service.py``, or the director's server when the
night runs on the club's machine: ``screens.py``), as the events' desk is for an event.

* :meth:`NightDesk.offer` keeps a table's ``hand`` message (any thread) for the next step;
* :meth:`NightDesk.step` (a worker thread, never paho's network thread or an event loop) takes what has
  arrived as one batch (:meth:`NightSession.take`: read, checked, committed, applied), then tells the
  pages (``listeners``, ``changed``) and publishes every table's seating, whose ``answers`` answer the
  batch, so an answer always follows its commit. A journal that cannot be written keeps the batch,
  offered again at the next step;
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
import queue
import threading
import time
from collections.abc import Callable

from firmware_host.euchre_night.session import NightSession, Offered, SessionFileError
from firmware_host.euchre_night.views import seat_names
from firmware_host.wire.euchre import EuchreSeating

log = logging.getLogger(__name__)

Publish = Callable[[str, str, bool], None]   # topic, JSON text, retained
PAGE = "/euchre/table/{table}?key={key}"
RETRY = 0.5     # seconds before a batch the journal could not take is offered again


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
        self.inbox: queue.Queue[Offered] = queue.Queue()
        self.changed = threading.Condition()
        self.listeners: list[Callable[[int], None]] = []
        self.publish: Publish | None = None
        self._held: list[Offered] = []
        self._retry_at = 0.0

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
        """A message from the broker (any thread): a table's ``hand`` message is kept for the next step;
        anything else is not ours (False)."""
        name = self.session.topics.parse(topic)
        if name is None or name.family != "table" or name.kind != "hand":
            return False
        self.inbox.put(Offered(topic, payload))
        return True

    def step(self) -> bool:
        """Take what has arrived (and what a failed commit held) as one batch; True when it was taken.
        While the journal cannot be written, a held batch is offered again ``RETRY`` seconds later."""
        if self._held and time.monotonic() < self._retry_at:
            return False
        batch = list(self._held)
        while True:
            try:
                m = self.inbox.get_nowait()
            except queue.Empty:
                break
            if m.topic:
                batch.append(m)
        if not batch:
            return False
        try:
            self.session.take(batch)
        except SessionFileError as exc:
            log.warning("euchre night: the journal cannot be written (%s); %d message(s) held", exc, len(batch))
            self._held = batch
            self._retry_at = time.monotonic() + RETRY
            return False
        self._held = []
        self.changed_now()      # the pages first (both show only what is committed), then the tables
        self.publish_all()
        return True

    @property
    def holding(self) -> bool:
        return bool(self._held)

    def call(self, by: str) -> str:
        """The director ends the round in play; '' or why not."""
        why = self.session.call(by)
        if not why:
            self.publish_all()
            self.changed_now()
        return why

    def correct(self, table: object, rnd: object, hand: object, facts: object, why: object, by: str) -> str:
        """The director corrects a hand taken; '' or why not."""
        why_not = self.session.correct(table, rnd, hand, facts, why, by)
        if not why_not:
            self.changed_now()
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
                                 tuple(s.answers.get(table, ())), self.page_of(table), s.version, time.time())

    def publish_all(self) -> None:
        if self.publish is None:
            return
        for table in self.session.night.setup.tables:
            body = json.dumps(self.seating(table).to_dict(), separators=(",", ":"))
            self.publish(self.session.topics.seating(table), body, True)
