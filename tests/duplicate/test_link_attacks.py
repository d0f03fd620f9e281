"""Hostile ``board`` messages (docs/mqtt.md, "Duplicate"; issue 25: text from outside is checked where it
enters and every refusal is journaled): each is refused with a note naming the field, and a good result
arriving in the same tick is still taken."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.wire.duplicate import board_topic

from .sessionkit import make_setup, result
from .test_link import MITCHELL_3, _message

SETUP = make_setup(MITCHELL_3)
GOOD = result(SETUP, 1, 2, 3, random.Random(5))


def _hostile(**change: Any) -> bytes:
    env = json.loads(_message(GOOD, seq=9))
    env["body"].update(change)
    return json.dumps(env).encode()


def _run(tmp_path: Path, payload: bytes) -> tuple[SessionDesk, list[dict[str, Any]]]:
    desk = SessionDesk(Session.create(tmp_path / "s", SETUP, analyse=False, synchronous="NORMAL"), lambda *a: None)
    desk.offer(board_topic("table-02"), payload)
    desk.offer(board_topic("table-02"), _message(GOOD))
    desk.tick()
    notes = [r.body["refused"] for r in desk.session.journal.rows() if r.kind == "note"]
    return desk, notes


HOSTILE = {
    "a lone surrogate in ns": (_hostile(ns="\ud800"), "lone surrogate"),
    "a lone surrogate in the contract": (_hostile(contract="\udfff"), "lone surrogate"),
    "a lone surrogate in the section": (_hostile(section="A\ud800"), "lone surrogate"),
    "a lone surrogate in the auction": (_hostile(auction=["\ud800"]), "lone surrogate"),
    "nesting deeper than the parser": (b"[" * 60000, "nested too deeply"),
    "NaN for the time": (_message(GOOD, seq=9).replace(b'"t": 1764500000.5', b'"t": NaN'), "t must be a finite number"),
    "Infinity for the time": (_message(GOOD, seq=9).replace(b'"t": 1764500000.5', b'"t": -Infinity'), "t must be a finite number"),
    "a time too large for a float": (_message(GOOD, seq=9).replace(b'"t": 1764500000.5', b'"t": 1e400'), "t must be a finite number"),
    "a seq of 5000 digits": (_message(GOOD, seq=9).replace(b'"seq": 9', b'"seq": ' + b"9" * 5000), "seq"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_message_is_refused_with_a_note_and_the_good_one_beside_it_is_taken(tmp_path: Path,
                                                                                     name: str) -> None:
    payload, words = HOSTILE[name]
    desk, notes = _run(tmp_path, payload)
    assert len(desk.session.state.entries) == 1, "the good result of the same tick was lost"
    assert len(notes) == 1 and words in notes[0]["why"], notes
    assert "Exceeds the limit" not in notes[0]["why"]   # Python's words are not the message
    desk.session.close()
    again = Session.open(tmp_path / "s", analyse=False)   # and the journal still opens
    assert len(again.state.entries) == 1
    again.close()


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                     lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                     max_leaves=12)
FIELDS = ["section", "table_number", "round", "board", "ns", "ew", "contract", "declarer", "lead", "tricks",
          "auction", "play", "record", "verified", "foul", "confirmed"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.dictionaries(st.sampled_from(FIELDS), _json, min_size=1, max_size=4))
def test_any_field_of_any_value_is_taken_or_refused_never_raised_and_always_journaled(
        tmp_path_factory: pytest.TempPathFactory, changes: dict[str, Any]) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")
    try:
        payload = _hostile(**changes)
    except ValueError:  # json.dumps cannot write it: nothing a broker could carry
        return
    desk, notes = _run(tmp, payload)
    taken = len(desk.session.state.entries)
    assert taken >= 1   # the good result beside it
    rows = [r for r in desk.session.journal.rows()][1:]
    assert len(rows) == taken + len(notes) and len(rows) >= 1
    desk.session.close()
