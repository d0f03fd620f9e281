"""An event's seating messages, as a pairs session's (``tests/duplicate/test_seating_size.py``), must fit the
club broker's packet: the answers in them quoted what a table sent without a cap (a table sending refused
messages with long text grew its message by some 1 KB an answer), and the desk published whatever it made,
so a message past the packet would have been refused by Mosquitto, the desk's client dropped, and no table
told its round again (docs/competitions.md, "The answer and the table's seating")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_host.events.desk import EventDesk
from firmware_host.events.session import EventSession
from firmware_host.wire.topics import TOPICS
from laws.competition.event_spec import EventKind, EventSpec

TABLES = ("t-a", "t-b", "t-c", "t-d")
SMILE = "\U0001f600"   # 12 bytes as JSON writes it


def _message(seq: int, ns: str) -> bytes:
    body = {"section": "A", "table_number": 1, "round": 1, "board": 1, "ns": ns, "ew": "away",
            "contract": "3NT", "declarer": "N", "lead": None, "tricks": 9, "auction": [], "play": [],
            "record": "", "verified": False, "foul": None, "confirmed": {"ns": "N", "ew": "E"}}
    return json.dumps({"table": "t-a", "kind": "board", "seq": seq, "deal": 0, "secret": False, "t": 1.0,
                       "body": body}).encode()


def _desk(tmp_path: Path, sent: list[tuple[str, str]]) -> EventDesk:
    """A Swiss teams event whose table t-a has had 20 messages refused, each quoting a long ``ns``."""
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2), TABLES,
                                  synchronous="NORMAL", clock=lambda: 1764500000.0)
    desk = EventDesk(session)
    desk.connect(lambda topic, payload, retain: sent.append((topic, payload)))
    for seq in range(3, 23):
        desk.offer(TOPICS.board("t-a"), _message(seq, SMILE * 100))
    desk.step()
    return desk


def test_an_events_answers_carry_the_16_latest_reasons_each_cut(tmp_path: Path) -> None:
    sent: list[tuple[str, str]] = []
    desk = _desk(tmp_path, sent)
    try:
        view = json.loads([p for t, p in sent if t == TOPICS.seating("t-a")][-1])
        answers = view["answers"]
        assert [a["source"] for a in answers] == [f"t-a:{n}" for n in range(7, 23)]   # the latest 16
        # each reason at most 600 bytes as the message writes it (WHY_BYTES), ending in an ellipsis
        assert all(len(json.dumps(a["why"])) - 2 <= 600 and a["why"].endswith("\u2026") for a in answers)
        assert all(a["status"] == "refused" and a["board"] == 1 for a in answers)
    finally:
        desk.session.close()


def test_an_events_message_too_big_for_the_packet_goes_with_its_oldest_answers_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The packet is lowered so that t-a's message with its 16 answers overflows it: the desk sends it with
    only the latest answers that fit, and says so (WARNING); the other tables' go whole."""
    from firmware_host.wire import duplicate as wire

    sent: list[tuple[str, str]] = []
    desk = _desk(tmp_path, sent)
    topic = TOPICS.seating("t-a")
    try:
        whole = desk.table_message("t-a")
        assert len(whole["answers"]) == 16
        four = len(json.dumps({**whole, "answers": whole["answers"][-4:]}, separators=(",", ":")).encode())
        monkeypatch.setattr(wire, "BROKER_PACKET", four + wire.PUBLISH_OVERHEAD + len(topic))
        sent.clear()
        caplog.clear()
        with caplog.at_level("WARNING", logger="firmware_host.session.answers"):
            desk.publish_all()
        mine = [p for t, p in sent if t == topic]
        assert len(mine) == 1 and len(mine[0].encode()) <= wire.BROKER_PACKET - wire.PUBLISH_OVERHEAD - len(topic)
        assert json.loads(mine[0])["answers"] == whole["answers"][-4:]
        assert sorted(t for t, _ in sent) == sorted(TOPICS.seating(t) for t in TABLES)
        said = [r for r in caplog.records if r.name == "firmware_host.session.answers"]
        assert [r.levelname for r in said] == ["WARNING"] and "table t-a's seating" in said[0].getMessage() \
            and "without its 12 oldest answers" in said[0].getMessage()
    finally:
        desk.session.close()
