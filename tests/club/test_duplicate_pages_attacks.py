"""A table's duplicate page and its event stream with hostile addresses (docs/session.md, "Screens": a
wrong key or table is 404): never a 500."""

from __future__ import annotations

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
