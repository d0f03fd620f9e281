"""A table's duplicate page and its event stream with hostile addresses (docs/session.md, "Screens": a
wrong key or table is 404): never a 500."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .test_duplicate_screens_http import dup  # noqa: F401  (the fixture)

PATHS = [
    "/duplicate/table/table-01?key=" + "x" * 5000,
    "/duplicate/table/table-01?key=%ED%A0%80",
    "/duplicate/table/table-01?key=%C3%A9",
    "/api/duplicate/table/table-01?key=%C3%A9",
    "/duplicate/table/%ED%A0%80?key=abc",
    "/duplicate/table/table-01?key=a&key=b",
    "/duplicate/table/" + "t" * 3000 + "?key=abc",
    "/duplicate/table/table-01",
    "/duplicate/table/table-01/events?key=%C3%A9",
    "/api/duplicate/table/table-01?key=%00",
    "/duplicate/table/..%2F..%2Fetc%2Fpasswd?key=abc",
]


@pytest.mark.parametrize("path", PATHS)
def test_a_hostile_table_address_is_refused_not_a_server_error(dup: Any, path: str) -> None:  # noqa: F811
    _d, _desk, client = dup
    r = client.get(path)
    assert r.status_code in (400, 404), (path[:80], r.status_code)


def _streams(screens: Any, table: int, n: int, *, join: bool) -> list[Any]:
    from firmware_host.club.duplicate_screens import _Client

    out = []
    for _ in range(n):
        c = _Client(table)
        c.seated = ("", "", 0)
        (screens.join if join else screens.clients.add)(c)
        out.append(c)
    return out


def test_many_streams_of_one_table_page_cost_one_view_an_update(dup: Any, monkeypatch: Any) -> None:  # noqa: F811
    """Every update made the table's view once for each of its page's streams, on the event loop and under
    the session's lock: a phone with the table's key opening a thousand streams made each change a
    thousand views long for the whole server. Now one view a table an update, however many streams."""
    from firmware_host.club import duplicate_screens

    d, _desk, _client = dup
    screens = d.duplicate
    made: list[int] = []
    real = duplicate_screens.table_view
    monkeypatch.setattr(duplicate_screens, "table_view", lambda s, t: made.append(t) or real(s, t))
    clients = _streams(screens, 1, 12, join=False)
    screens._dirty, screens._changed = True, {1}
    for _ in range(2000):   # tick waits for the next tick while the desk's own thread holds the session
        screens.tick()
        if not screens._dirty:
            break
        time.sleep(0.005)
    assert made == [1]
    assert all(c.queue.qsize() == 1 for c in clients)


def test_a_table_page_keeps_at_most_table_streams_streams_the_oldest_ended(dup: Any) -> None:  # noqa: F811
    """A table's page has only its key: streams of one table beyond ``TABLE_STREAMS`` end the oldest (its
    browser reconnects), so the key cannot hold the server's streams without end; other tables' and the
    director's streams are untouched."""
    from firmware_host.club.duplicate_screens import _Client
    from firmware_host.web.screens import TABLE_STREAMS

    d, _desk, _client = dup
    screens = d.duplicate
    director = _Client(None)
    screens.join(director)
    other = _streams(screens, 2, 3, join=True)
    first = _streams(screens, 1, 40, join=True)
    kept = [c for c in screens.clients if c.table == 1]
    assert len(kept) == TABLE_STREAMS and set(kept) == set(first[-TABLE_STREAMS:])
    assert all(c.queue.get_nowait() == "" for c in first[:-TABLE_STREAMS])
    assert director in screens.clients and all(c in screens.clients for c in other)
