"""Hostile ``board`` messages through a real Mosquitto (docs/mqtt.md, "Duplicate"): a lone surrogate or a
NaN time from one table is refused with a note, and that table's own good result is still taken."""

from __future__ import annotations

import json
from typing import Any

from .test_duplicate_link import _until, club  # noqa: F401  (the fixture)


def test_a_hostile_board_message_through_the_broker_is_journaled_and_the_next_result_is_taken(club: Any) -> None:  # noqa: F811
    broker, desk, service, tables = club
    t1 = tables[0]
    assert _until(lambda: t1.seating is not None)
    client = t1.publisher.client
    for bad in ('{"table": "table-01", "kind": "board", "seq": 900, "t": 1.0, "body": {"ns": "\\ud800"}}',
                '{"table": "table-01", "kind": "board", "seq": 901, "t": NaN, "body": {}}'):
        client.publish("cardtable/table-01/board", bad, qos=1).wait_for_publish(5)
    assert t1.step()   # the table's own, honest result
    assert _until(lambda: len(desk.session.state.entries) == 1)
    assert _until(lambda: len([r for r in desk.session.journal.rows() if r.kind == "note"]) >= 2)
    notes = [r.body["refused"] for r in desk.session.journal.rows() if r.kind == "note" and "refused" in r.body]
    whys = " | ".join(n["why"] for n in notes)
    assert "lone surrogate" in whys and "t must be a finite number" in whys, whys
    assert json.dumps(notes)   # and the journal holds them as text
