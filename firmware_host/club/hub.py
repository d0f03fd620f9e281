"""Between paho's thread and the browsers: a message inbox, the club's state, one queue per browser.

MQTT messages arrive on paho's thread into a deque; one asyncio task drains it every ``tick`` seconds,
applies the messages to ``ClubState`` and sends each browser one batch (the latest view of each table that
changed, with the times of the table events folded in so the page can measure its own delay, the new feed
entries and pack rows). A ``resync`` update (a gap in a table's messages) goes to ``on_resync`` instead.
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
        # Others that take messages too (a duplicate session takes the tables' board results), each
        # called with every message, and what runs after each batch (their own screens' updates).
        self.taps: list[Callable[[str, bytes], bool]] = []
        self.tickers: list[Callable[[], None]] = []

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
            for tap in self.taps:
                tap(topic, payload)
            for up in self.state.ingest(topic, payload, now):
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
        while True:
            await asyncio.sleep(self.tick)
            self.broadcast(self.drain())
            for ticker in self.tickers:
                try:
                    ticker()
                except Exception:
                    log.exception("a dashboard ticker failed")
