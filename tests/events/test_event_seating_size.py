"""An event's seating messages, as a pairs session's (``tests/duplicate/test_seating_size.py``), must fit the
club broker's packet: the answers in them quoted what a table sent without a cap (a table sending refused
messages with long text grew its message by some 1 KB an answer), and the desk published whatever it made,
so a message past the packet would have been refused by Mosquitto, the desk's client dropped, and no table
told its round again (docs/competitions.md, "The answer and the table's seating")."""

from __future__ import annotations

import json
import random
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


def _records(tmp_path: Path, count: int) -> Path:
    from firmware_host.duplicate.handrecords.handfiles import write_hand_records
    from firmware_host.duplicate.handrecords.newdeals import new_boards

    path = tmp_path / f"set{count}.pbn"
    write_hand_records(path, new_boards(count, 1, shuffle=random.Random(7).shuffle))
    return path


SWISS_30 = ["--kind", "swiss-teams", "--entrants", "30", "--rounds", "13",
            "--tables", ",".join(f"t{k}" for k in range(1, 31))]


def test_open_refuses_an_event_whose_messages_a_club_broker_would_refuse(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Swiss teams of 30, 13 rounds of 36 boards, a file of 500: each table's message carries the 500
    boards' hashes, its round's 36 records and two teams' names; at their longest, with the answers, that
    is past the packet. ``event open`` measured nothing and made the event; only the desk's check before
    publishing stood between it and a packet the broker refuses."""
    from firmware_host.cli import main
    from firmware_host.wire.duplicate import SEATING_MOST, SEATING_REST

    path = _records(tmp_path, 500)
    rc = main(["event", "open", str(tmp_path / "ev"), *SWISS_30, "--boards", "36", "--records", str(path)])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.startswith(f"cardtable event: --records {path}: the event's messages to its tables would be too "
                          "big: the largest would be ")
    assert (f"({SEATING_REST:,} of them kept for its answers), over the {SEATING_MOST:,} a club broker's 64 KiB "
            "packet lets the event send a table; each carries a hash of each of the file's 500 boards, the records "
            "of its round's 36 boards") in err
    assert err.count("\n") == 1 and "Traceback" not in err and not (tmp_path / "ev").exists()
    # 8 boards a round from the same file fit
    rc = main(["event", "open", str(tmp_path / "ok"), *SWISS_30, "--boards", "8", "--records", str(path)])
    assert rc == 0, capsys.readouterr().err


def test_what_open_measures_holds_every_message_the_desk_sends(tmp_path: Path) -> None:
    """Every team named with six players and a team's name at their longest, every board entered, the page
    given: no message the desk publishes, less its answers, is past what ``event open`` measured."""
    from firmware_host.duplicate.handrecords.handfiles import read_hand_records
    from firmware_host.events.desk import LONGEST_NAME, largest_table_message

    boards = tuple(read_hand_records(str(_records(tmp_path, 12))))
    tables = tuple("t" * 63 + c for c in "abcd")
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2), tables,
                                  synchronous="NORMAL", clock=lambda: 1764500000.0, boards=boards)
    desk = EventDesk(session, page_secret=b"s" * 32)
    sent: list[tuple[str, str]] = []
    desk.connect(lambda topic, payload, retain: sent.append((topic, payload)))
    try:
        player = {"name": LONGEST_NAME, "member": "", "federation": ""}
        for n in range(1, 5):
            assert desk.director_record({"type": "names", "competitor": n, "name": LONGEST_NAME,
                                         "players": [player] * 6, "by": "td"}).status == "taken"
        most = largest_table_message(session.state.setup)
        sent.clear()
        desk.publish_all()
        assert len(sent) == 4
        for _, text in sent:
            msg = json.loads(text)
            assert msg["hand_records"]["deals"] and len(msg["names"]) == 2
            size = len(json.dumps({**msg, "answers": []}, separators=(",", ":")))
            assert 0 < most - size < 200   # measured at the most, and not far past it
    finally:
        session.close()
