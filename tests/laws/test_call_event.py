"""The bridge ``call`` event in the event format: the spellings it takes, the one it writes, and every
malformed call refused with the field named (the producers of the bridge-io branch build it)."""

from __future__ import annotations

import pytest

from laws.cards import Seat
from laws.events import CallMade, EventFormatError, event_from_dict, event_to_dict

BIDS = [f"{level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")]


@pytest.mark.parametrize("text", [*BIDS, "pass", "double", "redouble"])
def test_every_call_reads_and_writes_back_unchanged(text: str) -> None:
    e = event_from_dict({"type": "call", "seat": "E", "call": text})
    assert e == CallMade(Seat.E, text)
    assert event_to_dict(e) == {"type": "call", "seat": "E", "call": text}


def test_n_is_read_as_notrump_and_written_nt() -> None:
    assert event_from_dict({"type": "call", "seat": "S", "call": "3N"}) == CallMade(Seat.S, "3NT")


@pytest.mark.parametrize("bad, named", [
    ({"type": "call", "seat": "N", "call": "100S"}, "'call'"),   # 8S is a bid above seven: taken, ruled by the laws
    ({"type": "call", "seat": "N", "call": "0H"}, "'call'"),
    ({"type": "call", "seat": "N", "call": "Pass"}, "'call'"),   # PBN's spelling is not the event format's
    ({"type": "call", "seat": "N", "call": "X"}, "'call'"),
    ({"type": "call", "seat": "N", "call": "order"}, "'call'"),  # a euchre bid's call
    ({"type": "call", "seat": "N", "call": 3}, "'call'"),
    ({"type": "call", "seat": "N"}, "'call'"),
    ({"type": "call", "seat": "X", "call": "pass"}, "'seat'"),
])
def test_a_malformed_call_is_refused_naming_the_field(bad: dict, named: str) -> None:
    with pytest.raises(EventFormatError, match=named):
        event_from_dict(bad)


def test_the_euchre_bid_keeps_its_own_calls() -> None:
    with pytest.raises(EventFormatError):
        event_from_dict({"type": "bid", "seat": "N", "call": "1H"})
    assert event_from_dict({"type": "bid", "seat": "N", "call": "pass"}).TYPE == "bid"
