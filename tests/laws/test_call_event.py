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


@pytest.mark.parametrize("bad, message", [
    ({"type": "call", "seat": None, "call": "1H"}, "field 'seat': unknown seat nothing (want N, E, S or W)"),
    ({"type": "call", "seat": True, "call": "1H"}, "field 'seat': unknown seat true (want N, E, S or W)"),
    ({"type": "call", "seat": "X", "call": "1H"}, "field 'seat': unknown seat 'X' (want N, E, S or W)"),
    ({"type": "card_played", "seat": "N", "card": None}, "field 'card': unknown card nothing (want rank then "
                                                         "suit, e.g. 'TS')"),
    ({"type": "draw", "cuts": [["Ann", "AS"], {"Bob": "KH"}]},
     "field 'cuts': want [name, card] pairs, got {\"Bob\": \"KH\"}"),
])
def test_a_refusal_quotes_the_value_as_written_not_as_python_spells_it(bad: dict[str, object], message: str) -> None:
    """Audit a3 finding 9's kind: a message showed Python's ``None``, ``True`` and ``{'Bob': 'KH'}`` for what
    the line held as ``null`` (nothing), ``true`` and ``{"Bob": "KH"}``."""
    with pytest.raises(EventFormatError) as err:
        event_from_dict(bad)
    assert str(err.value) == message


def test_a_quoted_value_stays_on_one_line_whatever_it_holds() -> None:
    """A key holding NEL (U+0085) or a line separator, quoted as JSON writes it, split the one-line message
    into two (``str.splitlines`` breaks there): they are escaped like any character that does not print."""
    from laws.errors import as_typed, quoted

    for value in ({"\x85": None}, "a\u2028b", ["x\ny"], "tab\there"):
        for text in (as_typed(value, 80), quoted(value, 80)):
            assert len(text.splitlines()) == 1 and text.isprintable(), (value, text)
