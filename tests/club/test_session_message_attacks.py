"""A session message a duplicate table cannot use (docs/mqtt.md, "Duplicate"; the brief: every refusal at a
table is journaled as a note): not JSON, a lone surrogate, another table's seating. The publisher refused
it with a log line only; the table's journal now holds a note saying what was refused and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.table.controller import SessionInput, TableController
from firmware_host.tablelink.publisher import MqttPublisher
from tests.table.fakes import Clock

BAD = [
    ("cardtable/session/table/table-01", b"\xff\xfe not text"),
    ("cardtable/session/table/table-01", b'{"kind": "seating", "table": "table-01", "ns": "\\ud800"}'),
    ("cardtable/session/table/table-01", b'{"kind": "seating", "table": "table-02"}'),
    ("cardtable/session/round", b"[" * 70000),
]


@pytest.mark.parametrize(("topic", "payload"), BAD, ids=["utf8", "surrogate", "other-table", "too-large"])
def test_a_refused_session_message_is_journaled_at_the_table(tmp_path: Path, topic: str, payload: bytes) -> None:
    j = Journal.open(tmp_path, synchronous="NORMAL")
    ctl = TableController(game="duplicate-bridge", journal=j, panel=None, clock=Clock())
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=1), "table-01", j)
    pub.on_session(lambda msg: ctl.submit(SessionInput(msg)))
    seen: list[dict[str, object]] = []
    ctl.on_session(seen.append)
    pub._on_session(topic, payload)  # noqa: SLF001 - what paho's thread calls with a message
    ctl.drain()
    notes = [r.body["session"] for r in j.rows() if r.kind == "note" and "session" in r.body]
    j.close()
    assert len(notes) == 1, notes
    assert notes[0]["kind"] == "refused" and notes[0]["topic"] == topic and notes[0]["why"]
    assert seen and seen[0]["kind"] == "refused"   # told, and not taken as a seating
