"""Many streams of one table's event page (docs/competitions.md, "Pages"): the page has only its key, so a
phone holding it could open streams without end, each sent the table's view made again at every update,
on the director's server's one event loop and under the event's lock."""

from __future__ import annotations

import threading
from typing import Any

from firmware_host.club.event_screens import EventScreens
from firmware_host.web.screens import TABLE_STREAMS, PageClient


class _Desk:
    """What the event's screens read of the desk: its lock, its version and its views (counted)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.version = 0
        self.made: list[str] = []

    def director(self) -> dict[str, Any]:
        return {"director": True}

    def table_message(self, table: str) -> dict[str, Any]:
        self.made.append(table)
        return {"table": table}


def _screens() -> tuple[EventScreens, _Desk]:
    desk = _Desk()
    return EventScreens(desk, dashboard=None), desk   # type: ignore[arg-type]


def test_every_update_makes_one_view_a_table_however_many_streams_show_it() -> None:
    screens, desk = _screens()
    clients = [PageClient("t-a") for _ in range(12)] + [PageClient("t-b")]
    for c in clients:
        screens.clients.add(c)
    desk.version = 1
    screens.tick()
    assert sorted(desk.made) == ["t-a", "t-b"]
    assert all(c.queue.qsize() == 1 for c in clients)


def test_a_table_page_keeps_at_most_table_streams_streams_the_oldest_ended() -> None:
    screens, _desk = _screens()
    director, other = PageClient(None), PageClient("t-b")
    screens.join(director)
    screens.join(other)
    first = [PageClient("t-a") for _ in range(40)]
    for c in first:
        screens.join(c)
    kept = {c for c in screens.clients if c.table == "t-a"}
    assert kept == set(first[-TABLE_STREAMS:])
    assert all(c.queue.get_nowait() == "" for c in first[:-TABLE_STREAMS])
    assert director in screens.clients and other in screens.clients
