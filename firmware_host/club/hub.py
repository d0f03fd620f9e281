"""Between paho's thread and the browsers: a message inbox, the club's state, one queue per browser.

MQTT messages arrive on paho's thread into a deque; one asyncio task drains it every ``tick`` seconds,
applies the messages to ``ClubState`` and sends each browser one batch (the latest view of each table that
changed, with the times of the table events folded in so the page can measure its own delay, the new feed
entries and pack rows). A ``resync`` update (a gap in a table's messages) goes to ``on_resync`` instead.

No message can stop the loop (``docs/mqtt.md``, "The dashboard keeps going"): every payload is read by
the one checked reader (``wire.reader``, in ``ClubState.ingest``), and whatever still fails on one message
(a tap, a ticker, the state) is logged with its topic and counted, and the next message is taken. Should
the task itself end, :meth:`Hub.supervise` logs it, shows it (``faults`` in the snapshot, a ``fault``
update to the browsers) and starts it again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from firmware_host.club.state import ClubState

log = logging.getLogger(__name__)

CLIENT_BACKLOG = 500
FAULTS_KEPT = 20
RESTART_AFTER = 1.0


class Hub:
    """The inbox, the state and the browsers' queues.

    Args:
        state: the club's state.
        tick: seconds between batches.
        clock: wall-clock seconds (a call's waiting time is measured on it; the page is told ``now``).
        on_resync: called with a table id whose messages had a gap.
    """

    def __init__(self, state: ClubState, tick: float = 0.025, clock: Callable[[], float] = time.time,
                 on_resync: Callable[[str], None] | None = None) -> None:
        self.state = state
        self.tick = tick
        self.clock = clock
        self.on_resync = on_resync
        self.inbox: deque[tuple[str, bytes]] = deque()
        self.clients: set[asyncio.Queue[str]] = set()
        self.ingested = 0
        # Others that take messages too (an event's desk takes the tables' board results; a duplicate
        # session's desk gets them from the client itself), each called with every message, and what runs
        # after each batch (their own screens' updates).
        self.taps: list[Callable[[str, bytes], bool]] = []
        self.tickers: list[Callable[[], None]] = []
        # Work that may wait on a disk (the session's journal commit): run on a worker thread each
        # tick, never on the event loop, before the tickers.
        self.workers: list[Callable[[], object]] = []
        self.failed = 0      # messages that failed to apply (logged each, with their topic)
        self.restarts = 0    # times the task ended and was started again

    def fault(self, what: str) -> None:
        """A fault the director must see: kept in the snapshot's ``faults`` and put in the feed (the
        page shows it like a ruling, from "The dashboard"), sent to the pages at once."""
        now = self.clock()
        entry = {"t": now, "what": what[:300]}
        faults = self.state.faults
        faults.append(entry)
        del faults[:-FAULTS_KEPT]
        feed = {"id": f"dashboard:fault:{len(faults)}:{now}", "table": "dashboard", "name": "The dashboard",
                "seq": 0, "deal": 0, "t": now, "kind": "fault", "acked_by": "", "headline": "DASHBOARD FAULT",
                "law": "", "clause": "", "reason": entry["what"]}
        self.state.feed.appendleft(feed)
        self.broadcast([{"type": "fault", "fault": entry}, {"type": "feed", "entry": feed}])

    def put(self, topic: str, payload: bytes) -> None:
        """From any thread: one MQTT message."""
        self.inbox.append((topic, payload))

    def drain(self) -> list[dict[str, Any]]:
        """Apply what has arrived; coalesce to one update per table (times of folded events kept)."""
        tables: dict[str, dict[str, Any]] = {}
        times: dict[str, list[float]] = {}
        others: list[dict[str, Any]] = []
        now = self.clock()
        while self.inbox:
            topic, payload = self.inbox.popleft()
            self.ingested += 1
            try:
                for tap in self.taps:
                    tap(topic, payload)
                ups = self.state.ingest(topic, payload, now)
            except Exception as exc:  # one message never stops the others
                self.failed += 1
                log.exception("a message on %r (%d bytes) could not be applied; the next is taken", topic[:200],
                              len(payload))
                self.fault(f"a message on {topic[:120]} could not be applied ({type(exc).__name__}); "
                           "the dashboard goes on with the next")
                continue
            for up in ups:
                if up["type"] == "table":
                    name = up["table"]["table"]
                    tables[name] = up["table"]
                    if "t" in up:
                        times.setdefault(name, []).append(up["t"])
                elif up["type"] == "resync":
                    if self.on_resync is not None:
                        self.on_resync(up["table"])
                else:
                    others.append(up)
        return [{"type": "table", "table": v, "ts": times.get(k, [])} for k, v in tables.items()] + others

    def broadcast(self, updates: list[dict[str, Any]]) -> None:
        if not updates or not self.clients:
            return
        text = json.dumps({"type": "batch", "now": self.clock(), "updates": updates}, separators=(",", ":"))
        for q in list(self.clients):
            if q.qsize() >= CLIENT_BACKLOG:
                # A browser that cannot keep up is dropped; EventSource reconnects and gets a snapshot.
                self.clients.discard(q)
                q.put_nowait("")
                log.warning("a browser fell %d batches behind and was sent a fresh snapshot", CLIENT_BACKLOG)
            else:
                q.put_nowait(text)

    async def run(self) -> None:
        """Every ``tick``: the messages (given to the taps, the pages told), the workers (on a thread: they
        commit what the taps were given in this same tick, not a tick later), then the tickers; forever."""
        while True:
            await asyncio.sleep(self.tick)
            self.broadcast(self.drain())
            for worker in self.workers:
                try:
                    await asyncio.to_thread(worker)
                except Exception as exc:
                    log.exception("a dashboard worker failed")
                    self.fault(f"the duplicate session's intake failed a tick ({type(exc).__name__}: {exc})")
            for ticker in self.tickers:
                try:
                    ticker()
                except Exception:
                    log.exception("a dashboard ticker failed")

    async def supervise(self) -> None:
        """Run :meth:`run`; should it ever end (a fault it did not catch), log it, show it and start it
        again after ``RESTART_AFTER`` seconds. Ends only when cancelled."""
        while True:
            try:
                await self.run()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a RecursionError once ended it, and nothing said so
                self.restarts += 1
                log.critical("the dashboard's message task stopped (%s: %s); starting it again",
                             type(exc).__name__, exc, exc_info=exc)
                try:
                    self.fault(f"the dashboard's message task stopped ({type(exc).__name__}) and was started again")
                except Exception:
                    log.exception("the fault could not be shown")
                await asyncio.sleep(RESTART_AFTER)
