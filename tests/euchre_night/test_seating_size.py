"""A night's seating must fit the club broker's packet, as a pairs session's and an event's
(``tests/duplicate/test_seating_size.py``, ``tests/events/test_event_seating_size.py``): the night's desk
published whatever it made, so a seating past the packet would have been refused by Mosquitto, the
night's client dropped and every table's link with it (docs/euchre.md, "Seats to a table")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_host.euchre_night.desk import NightDesk
from firmware_host.euchre_night.session import NightSession
from firmware_host.wire.topics import TOPICS
from tests.euchre_night.test_session import setup


def test_a_seating_too_big_for_the_packet_goes_with_its_oldest_answers_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The packet is lowered so that table-01's seating with its 16 answers overflows it: the desk sends it
    with only the latest answers that fit, and says so (WARNING); the other tables' go whole."""
    from firmware_host.wire import duplicate as wire

    s = NightSession.create(tmp_path / "n", setup())
    desk = NightDesk(s)
    sent: list[tuple[str, str]] = []
    desk.connect(lambda topic, body, retain: sent.append((topic, body)))
    topic = s.topics.seating("table-01")
    try:
        for seq in range(1, 21):   # 20 hands that do not read, each answered refused
            body = {"table": "table-01", "kind": "hand", "seq": seq, "t": 1.0, "body": {"hand": "x" * 60}}
            desk.offer(TOPICS.table("table-01", "hand"), json.dumps(body).encode())
        desk.step()
        whole = desk.seating("table-01").to_dict()
        assert len(whole["answers"]) == 16 and all(a["status"] == "refused" for a in whole["answers"])
        four = len(json.dumps({**whole, "answers": whole["answers"][-4:]}, separators=(",", ":")).encode())
        monkeypatch.setattr(wire, "BROKER_PACKET", four + 40 + wire.PUBLISH_OVERHEAD + len(topic))
        sent.clear()
        caplog.clear()
        with caplog.at_level("WARNING", logger="firmware_host.session.answers"):
            desk.publish_all()
        mine = [json.loads(b) for t, b in sent if t == topic]
        assert len(mine) == 1 and [a["source"] for a in mine[0]["answers"]] == \
            [a["source"] for a in whole["answers"][-4:]]
        assert sorted(t for t, _ in sent) == sorted(s.topics.seating(t) for t in s.night.setup.tables)
        said = [r for r in caplog.records if r.name == "firmware_host.session.answers"]
        assert [r.levelname for r in said] == ["WARNING"] and "table table-01's seating" in said[0].getMessage() \
            and "without its 12 oldest answers" in said[0].getMessage()
    finally:
        s.close()
