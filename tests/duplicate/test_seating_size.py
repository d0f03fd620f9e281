"""A table's seating must fit the club broker's packet (``max_packet_size 65536``): it carries a hash of
every board of the hand records file (``hand_records.index`` and ``file.others``), and a pairs session put
no bound on the file, so a big file made a seating the broker refuses: the session's client is dropped,
and the table never gets its records. ``duplicate open`` now measures the largest seating the session can
send and refuses a file whose seatings would not fit (docs/mqtt.md, "Hand records sent to the tables")."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.duplicate.handrecords.handfiles import write_hand_records
from firmware_host.duplicate.handrecords.newdeals import new_boards
from firmware_host.session.duplicate_session import PAGE, Session, SessionDesk, table_parts
from firmware_host.wire.duplicate import ANSWERS_KEPT, seating_message
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS
from laws.duplicate.deal import file_part
from laws.session.duplicate.state import SessionState

from .sessionkit import make_setup

OPEN = ["--pairs", "8", "--movement", "mitchell", "--boards-per-round", "2"]   # boards 1-8 played


def _file(tmp_path: Path, count: int) -> Path:
    """A club's file of ``count`` boards whose first 8 are the session's."""
    played = make_setup({"kind": "mitchell", "tables": 4, "boards_per_round": 2}).boards
    seen = {b.fingerprint for b in played}
    more = [b for b in new_boards(count - 8, 9, shuffle=random.Random(7).shuffle) if b.fingerprint not in seen]
    path = tmp_path / f"set{count}.pbn"
    write_hand_records(path, [*played, *more])
    return path


def test_open_refuses_a_file_whose_seatings_a_club_broker_would_refuse(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """700 boards: every seating carried 700 index entries (some 50 KB with the rest of the seating, past
    what the broker leaves once answers and players come); ``open`` made the session and said nothing."""
    path = _file(tmp_path, 700)
    rc = main(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(path), *OPEN])
    err = capsys.readouterr().err
    assert rc == 2, err
    from firmware_host.wire.duplicate import SEATING_MOST

    assert err.startswith(f"cardtable duplicate open: --hand-records {path}: 700 boards are too many to send the "
                          "tables (the session plays 8): each table's seating carries a hash of every board of the "
                          "file: the largest would be ")
    assert f"over the {SEATING_MOST:,} a club broker's 64 KiB packet lets the session send a table" in err
    fits = int(err.split("give a file of at most ")[1].split()[0])
    assert err.count("\n") == 1 and "Traceback" not in err and not (tmp_path / "s").exists()
    # the count it gives is one that opens
    rc = main(["duplicate", "open", "--dir", str(tmp_path / "ok"), "--hand-records", str(_file(tmp_path, fits)), *OPEN])
    assert rc == 0, capsys.readouterr().err


def test_a_session_that_fits_sends_no_seating_past_what_was_measured(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """What ``open`` measures is an upper bound of what the desk sends (less the room kept for answers)."""
    from firmware_host.session.duplicate_session import largest_seating
    from firmware_host.wire.duplicate import SEATING_MOST, SEATING_REST

    path = _file(tmp_path, 400)
    assert main(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(path), *OPEN]) == 0
    capsys.readouterr()
    session = Session.open(tmp_path / "s", analyse=False, readonly=True)
    try:
        most = largest_seating(session.state)
        sizes = [len(json.dumps(m, separators=(",", ":"))) for t, m in SessionDesk(session).messages() if t != TOPICS.round]
    finally:
        session.close()
    assert sizes and max(sizes) <= most <= SEATING_MOST - SEATING_REST
    assert most > 400 * 70   # every seating holds an entry for each board of the file


SMILE = "\U0001f600"   # beyond the BMP: 12 bytes as JSON writes it (two \\uXXXX escapes)


def _bytes(msg: object) -> int:
    return len(json.dumps(msg, separators=(",", ":")).encode())


def test_an_answers_why_is_cut_to_300_characters_and_600_bytes_on_a_character_boundary() -> None:
    """A refusal's ``why`` quotes what the table sent and was capped nowhere: 16 answers quoting 80
    characters beyond the BMP each (a refused ``ns``) took some 15 KB of a seating, past the room kept for
    them once the players are named. Every answer is cut where it is made (``SessionAnswer``)."""
    from firmware_host.session.answers import answer_of, journaled_answers
    from firmware_host.wire.messages import WHY_BYTES, WHY_MOST, SessionAnswer, short_why

    def wire(why: str) -> int:
        return len(json.dumps(why)) - 2

    for why in ("x" * 1000, SMILE * 1000, "\u00e9" * 1000, '"' * 1000, "\x00" * 1000, "a" + SMILE * 400):
        cut = SessionAnswer("t:1", 1, "refused", why).why
        assert cut.endswith("\u2026") and len(cut) <= WHY_MOST and wire(cut) <= WHY_BYTES, (why[:3], len(cut))
        assert why.startswith(cut[:-1])
    assert len(short_why("x" * 1000)) == WHY_MOST                      # plain text: the characters' cap
    assert short_why("x" * WHY_MOST) == "x" * WHY_MOST                 # nothing cut: no ellipsis
    paired = "ab" + "\ud83d\ude00" * 400                                 # a pair as two code points
    assert not "\ud800" <= short_why(paired)[-2] <= "\udbff"          # never half a pair
    rec = {"table": "t", "type": "message", "source": "t:3", "board": 2, "topic": TOPICS.board("t")}
    said = answer_of(rec, "refused", SMILE * 500)
    assert said is not None and wire(said[1]["why"]) <= WHY_BYTES
    # read back from the journal after a restart, a reused number's word is cut the same way
    Row = type("Row", (), {})
    first, second = Row(), Row()
    first.kind, first.body = "note", {"refused": {"record": rec, "why": "x" * 900}}
    second.kind, second.body = "note", {"reused_number": {"source": "t:3", "why": "y" * 900}}
    back = journaled_answers([first, second])["t"][-1]
    assert back["why"] == "y" * (WHY_MOST - 1) + "\u2026"


def test_a_hostile_tables_refusals_stay_in_its_seatings_room_and_whole_in_the_journal(tmp_path: Path) -> None:
    """A table sending many refused messages, each quoting a long ``ns`` beyond the BMP: its seating carries
    the 16 latest answers, each cut, and the journal keeps every reason whole."""
    import random

    from firmware_host.wire.duplicate import board_topic

    from .sessionkit import result
    from .test_link import MITCHELL_3, _message

    setup = make_setup(MITCHELL_3)
    good = result(setup, 1, 2, 3, random.Random(5))
    sent: list[tuple[str, str]] = []
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"),
                       lambda topic, payload, retain: sent.append((topic, payload)))
    try:
        for seq in range(9, 29):
            env = json.loads(_message(good, seq=seq))
            env["body"]["ns"] = SMILE * 100
            desk.offer(board_topic("table-02"), json.dumps(env).encode())
        desk.tick()
        seating = json.loads([p for t, p in sent if t == TOPICS.seating("table-02")][-1])
        answers = seating["answers"]
        assert len(answers) == ANSWERS_KEPT and [a["source"] for a in answers] == [f"table-02:{n}" for n in range(13, 29)]
        assert all(len(json.dumps(a["why"])) - 2 <= 600 and a["why"].endswith("\u2026") for a in answers)   # WHY_BYTES
        notes = [r.body["refused"]["why"] for r in desk.session.journal.rows() if r.kind == "note"]
        assert len(notes) == 20 and all(len(json.dumps(w)) - 2 > 600 for w in notes)   # whole there
    finally:
        desk.session.close()


@pytest.mark.parametrize("spec", [{"kind": "mitchell", "tables": 4, "boards_per_round": 2},
                                  {"kind": "mitchell", "tables": 5, "boards_per_round": 14}])
def test_a_seating_at_its_worst_stays_within_what_open_measured_and_the_room_kept(spec: dict[str, object]) -> None:
    """Every seating of the movement at its worst: a table id of 64 characters, the longest message number
    and time, every board of its rounds to replay, four players with names of 60 characters beyond the BMP
    and 16-character member numbers, and 16 answers each at its longest (the longest source, board 9999,
    ``players``, a reason cut from thousands of characters beyond the BMP). Each is at most what ``open``
    measured (``largest_seating``, which takes the boards to replay at their most) and ``SEATING_REST``,
    so a session ``open`` let through never sends a seating the broker refuses. Five rounds of 14 boards make
    70 boards to replay at a table (some 1.9 KB), which ``open`` did not measure and the room could not
    also hold."""
    from firmware_host.session.answers import answer_of
    from firmware_host.session.duplicate_session import largest_seating
    from firmware_host.wire.duplicate import SEATING_REST
    from laws.session.duplicate.spec import label

    setup = make_setup(spec)
    st = SessionState.start(setup)
    table, rounds, mv = "t" * 64, st.movement.rounds, st.movement
    rec = {"table": table, "type": "quiet", "source": f"{table}:{2**62}", "board": 9999, "topic": TOPICS.board(table)}
    said = answer_of(rec, "refused", SMILE * 5000)
    assert said is not None
    answers = [said[1]] * ANSWERS_KEPT
    assert _bytes(answers) <= 16 * 770          # an answer at its longest: some 760 bytes
    players = {side: [{"name": SMILE * 60, "member": "9" * 16}] * 2 for side in ("ns", "ew")}
    most = largest_seating(st)
    for s in mv.seatings:
        boards = list(mv.boards_of(s.group)) if s.played else []
        row = {"table": s.table, "round": s.round, "ns": label(s.ns), "ew": label(s.ew), "boards": boards,
               "left": boards, "sit_out": not s.played}
        replay = [(x.round, b) for x in mv.seatings if x.table == s.table and x.played for b in mv.boards_of(x.group)]
        parts = table_parts(st, row, {})
        parts["players"] = players
        full = seating_message(table, "A", row, called=rounds, rounds=rounds, records=st.fingerprints,
                               page=PAGE.format(table=table, key="k" * 20), answers=answers, seq=2**62,
                               t=9_999_999_999.999, extra=parts, replay=replay)
        assert _bytes(full) <= most + SEATING_REST, (s, _bytes(full) - most)
    assert file_part(setup.boards, setup.boards) is None   # every board played: no file part to carry


def test_the_largest_seating_reaches_a_table_through_a_club_broker(tmp_path: Path) -> None:
    """``SEATING_MOST`` is what the broker's packet leaves on the longest table's topic: a seating of that
    many bytes, published as the session publishes (MQTT 5, QoS 1, retained), reaches the table."""
    import shutil
    import threading

    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (Debian package mosquitto)")
    import paho.mqtt.client as mqtt

    from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
    from firmware_host.wire.duplicate import SEATING_MOST

    table = "t" * 64
    broker = LocalBroker(tmp_path / "broker", {DASHBOARD_USER: "d-pw-1", table: "t-pw-1"})
    broker.start()
    got, ready = threading.Event(), threading.Event()
    received: list[int] = []
    clients = []
    try:
        reader = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=table, protocol=mqtt.MQTTv5)
        reader.username_pw_set(table, "t-pw-1")
        reader.on_connect = lambda c, u, f, rc, p: c.subscribe(TOPICS.seating(table), qos=1)
        reader.on_subscribe = lambda *a: ready.set()
        reader.on_message = lambda c, u, m: (received.append(len(m.payload)), got.set())
        reader.connect("127.0.0.1", broker.port)
        reader.loop_start()
        clients.append(reader)
        assert ready.wait(10)
        writer = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=DASHBOARD_USER, protocol=mqtt.MQTTv5)
        writer.username_pw_set(DASHBOARD_USER, "d-pw-1")
        writer.connect("127.0.0.1", broker.port)
        writer.loop_start()
        clients.append(writer)
        body = '{"kind":"seating","pad":"' + "x" * (SEATING_MOST - 27) + '"}'
        assert len(body) == SEATING_MOST
        writer.publish(TOPICS.seating(table), body, qos=1, retain=True).wait_for_publish(10)
        assert got.wait(10), "the broker refused a seating of SEATING_MOST bytes"
        assert received == [SEATING_MOST]
    finally:
        for c in clients:
            stop_loop(c)
            c.disconnect()
        broker.stop()


def _refused_seating(tmp_path: Path, sent: list[tuple[str, str]]) -> tuple[SessionDesk, dict[str, object]]:
    """A desk whose table-02 has had 20 messages refused (a contract spelled ``4s``), and the seating it
    was told."""
    import random

    from firmware_host.wire.duplicate import board_topic

    from .sessionkit import result
    from .test_link import MITCHELL_3, _message

    setup = make_setup(MITCHELL_3)
    good = result(setup, 1, 2, 3, random.Random(5))
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL",
                                      clock=lambda: 1764500000.0),
                       lambda topic, payload, retain: sent.append((topic, payload)))
    for seq in range(9, 29):
        env = json.loads(_message(good, seq=seq))
        env["body"]["contract"] = "4s"
        desk.offer(board_topic("table-02"), json.dumps(env).encode())
    desk.tick()
    return desk, json.loads([p for t, p in sent if t == TOPICS.seating("table-02")][-1])


def test_a_seating_too_big_for_the_packet_goes_with_its_oldest_answers_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The desk never measured a seating before publishing it: one past the broker's packet was published
    as it was, Mosquitto refused it and dropped the session's client, and the table never got its seating
    again. Now a seating that would not fit goes with its oldest answers left out, with a WARNING; one
    that would not fit even without them is not sent (an ERROR), and the others still go. The packet is
    lowered here so that a plain session's seating overflows it."""
    from firmware_host.wire import duplicate as wire

    sent: list[tuple[str, str]] = []
    desk, whole = _refused_seating(tmp_path, sent)
    topic = TOPICS.seating("table-02")
    try:
        assert len(whole["answers"]) == ANSWERS_KEPT   # type: ignore[arg-type]
        three = _bytes({**whole, "answers": whole["answers"][-3:]})   # type: ignore[index]
        monkeypatch.setattr(wire, "BROKER_PACKET", three + wire.PUBLISH_OVERHEAD + len(topic))
        sent.clear()
        caplog.clear()
        with caplog.at_level("WARNING", logger="firmware_host.session.answers"):
            desk.publish_all()
        mine = [p for t, p in sent if t == topic]
        assert len(mine) == 1 and len(mine[0].encode()) <= wire.BROKER_PACKET - wire.PUBLISH_OVERHEAD - len(topic)
        reduced = json.loads(mine[0])
        assert reduced["answers"] == whole["answers"][-3:]   # type: ignore[index]
        assert {k: v for k, v in reduced.items() if k != "answers"} == {k: v for k, v in whole.items() if k != "answers"}
        warned = [r for r in caplog.records if r.name == "firmware_host.session.answers"]
        assert len(warned) == 1 and "table table-02's seating" in warned[0].getMessage() \
            and "without its 13 oldest answers" in warned[0].getMessage()
        # a packet too small for the seating even without answers: not sent, said, the others still go
        monkeypatch.setattr(wire, "BROKER_PACKET", _bytes({**whole, "answers": []}) - 1 + wire.PUBLISH_OVERHEAD
                            + len(topic))
        sent.clear()
        caplog.clear()
        with caplog.at_level("WARNING", logger="firmware_host.session.answers"):
            desk.publish_all()
        assert topic not in [t for t, _ in sent] and TOPICS.round in [t for t, _ in sent]
        said = [r for r in caplog.records if r.name == "firmware_host.session.answers"]
        assert {r.levelname for r in said} == {"ERROR"} and any("table table-02's seating" in r.getMessage() for r in said)
    finally:
        desk.session.close()
