"""How deep JSON from outside may nest is the program's decision, not the Python version's (issue 31:
under Python 3.13 the decoder takes 5000 nested lists, which Python 3.11 refused, and the value then
reached a check that recursed over it: `cardtable replay` of such a line ended in a RecursionError, and
the test of it ran into pytest's timeout, on Debian 13)."""

from __future__ import annotations

import pytest

from firmware_host.records.lines import LineRefused, loads
from firmware_host.wire.reader import MAX_DEPTH


def _nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 150, 5000, 100_000])
def test_deeper_than_max_depth_is_refused_on_every_python(depth: int) -> None:
    for text in (_nested(depth), '{"type":"cut","note":' + _nested(depth, '"\\ud800"') + "}"):
        with pytest.raises(LineRefused) as caught:
            loads(text)
        assert caught.value.kind == "nesting"


def test_max_depth_itself_is_taken() -> None:
    assert loads(_nested(MAX_DEPTH)) == eval(_nested(MAX_DEPTH))  # noqa: S307 (our own literal)
    assert loads('{"a": {"b": [1, {"c": []}]}}') == {"a": {"b": [1, {"c": []}]}}
