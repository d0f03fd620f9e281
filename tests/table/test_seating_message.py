"""A table reads its seating from the session's message (``table.duplicate.seating_from_session``): the
message is checked where it enters, so a wrong kind of number is refused with its field named, never
read as another board (1.5 was board 1 and true was 1)."""

from __future__ import annotations

from typing import Any

import pytest

from firmware_host.table.duplicate import seating_from_session
from firmware_host.wire.duplicate import seating_message


def _msg(**over: Any) -> dict[str, Any]:
    seating = {"table": 2, "round": 3, "ns": "2NS", "ew": "5EW", "boards": [5, 6], "left": [6],
               "sit_out": False}
    msg = seating_message("t2", "A", seating, called=3, rounds=7, records={5: "f" * 16, 6: "e" * 16},
                          page="http://club/duplicate/table/2", answers=[], seq=9, t=1.0)
    msg.update(over)
    return msg


def test_the_sessions_own_message_reads_back() -> None:
    s = seating_from_session(_msg())
    assert (s.section, s.table, s.round, s.ns, s.ew) == ("A", 2, 3, "2NS", "5EW")
    assert s.boards == (6,) and s.records == ((5, "f" * 16), (6, "e" * 16))  # the boards still to play


@pytest.mark.parametrize(("field", "value"), [
    ("round", 1.5), ("round", True), ("round", "3"), ("table_number", None), ("left", [6.0]),
    ("boards", [{"board": True, "record": "f" * 16}]), ("boards", [{"board": 5.5, "record": "f" * 16}]),
    ("ns", ["2NS"]), ("section", {"a": 1}),
])
def test_a_wrong_kind_of_value_is_refused_with_its_field(field: str, value: Any) -> None:
    with pytest.raises(ValueError, match="usable"):
        seating_from_session(_msg(**{field: value}))
