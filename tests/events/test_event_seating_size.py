"""An event's seating messages, as a pairs session's (``tests/duplicate/test_seating_size.py``), must fit the
club broker's packet: the answers in them quoted what a table sent without a cap (a table sending refused
messages with long text grew its message by some 1 KB an answer; docs/competitions.md, "The answer and the
table's seating")."""

from __future__ import annotations

import json
from pathlib import Path

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

