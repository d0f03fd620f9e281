"""The broadcast service stopped mid-evening, and the club's broker restarted, on a real Mosquitto: no board
already under way is lost (docs/broadcast.md, "A restart").

The audit's evening: a restarted service had taken 245 rows and published none (every board it had seen
begin was gone with the process, and the rows sent while it was down were never queued for it); a broker
restarted without persistence lost every released board, and the service did not publish them again."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_host.broadcast.live import Releaser
from firmware_host.broadcast.received import Received
from firmware_host.broadcast.service import BroadcastService
from firmware_host.club.broker import LocalBroker
from firmware_host.wire.subscribed import stop_loop
from laws.broadcast.release import Release, Rule

pytestmark = pytest.mark.skipif(shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists(),
                                reason="mosquitto is not installed (`make test` installs it)")
USERS = {"broadcast": "b-pw", "spectator": "s-pw", "table-01": "t1", "table-02": "t2"}
DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
TABLES = {"table-01": 1, "table-02": 2}


def _client(port: int, user: str, pw: str) -> Any:
    import paho.mqtt.client as mqtt

    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
    c.username_pw_set(user, pw)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def _play(c: Any, tid: str, seq: int, row: str, body: dict[str, object]) -> None:
    msg = {"table": tid, "kind": "play", "seq": seq, "deal": 1, "t": time.time() - 60, "body": {"row": row, "body": body}}
    c.publish(f"cardtable/{tid}/play", json.dumps(msg), qos=1).wait_for_publish(10)


def _board(table: int) -> dict[str, object]:
    return {"type": "board", "board": 1, "deal": DEAL, "table": table, "ns": f"{table} NS", "ew": f"{table} EW"}


RESULT = {"clause": "DB-77", "remedy": "score", "contract": "3NT", "declarer": "S", "tricks": 9, "score": 400}


def _wait(what: Callable[[], bool], seconds: float = 15) -> bool:
    deadline = time.monotonic() + seconds
    while not what() and time.monotonic() < deadline:
        time.sleep(0.05)
    return what()


def _service(port: int, state: Path) -> BroadcastService:
    releaser = Releaser(Release(Rule.AFTER_FIELD), TABLES, {1: frozenset({1, 2})}, session="s1")
    service = BroadcastService(releaser, "127.0.0.1", port, "b-pw", received=Received(state))
    service.start()
    assert service.connected.wait(10)
    return service


def _retained(port: int) -> dict[str, dict[str, Any]]:
    """What a spectator who opens the page now gets."""
    got: dict[str, dict[str, Any]] = {}
    c = _client(port, "spectator", "s-pw")
    c.on_message = lambda _c, _u, m: got.__setitem__(m.topic, json.loads(m.payload)) if m.payload else None
    c.subscribe("cardtable/spectate/table/#", qos=1)
    _wait(lambda: len(got) >= 2, 5)
    stop_loop(c)
    c.disconnect()
    return got


def test_a_restart_mid_board_misses_nothing(tmp_path: Path) -> None:
    with LocalBroker(tmp_path / "broker", USERS) as broker:
        t1, t2 = _client(broker.port, "table-01", "t1"), _client(broker.port, "table-02", "t2")
        first = _service(broker.port, tmp_path / "state.jsonl")
        _play(t1, "table-01", 1, "event", _board(1))
        _play(t1, "table-01", 2, "event", {"type": "call", "seat": "N", "call": "1C"})
        assert _wait(lambda: first.releaser.taken == 2)
        first.stop()                       # the board is under way, nothing of it released (after-field)
        _play(t1, "table-01", 3, "ruling", RESULT)     # sent while the service is down
        _play(t2, "table-02", 1, "event", _board(2))
        second = _service(broker.port, tmp_path / "state.jsonl")
        try:
            _play(t2, "table-02", 2, "ruling", RESULT)
            assert _wait(lambda: second.releaser.taken == 5), second.releaser.taken
            assert _wait(lambda: second.published >= 2)
            shown = _retained(broker.port)
            assert [i["kind"] for i in shown["cardtable/spectate/table/1/board/1"]["items"]] == ["board", "call", "result"]
            assert [i["kind"] for i in shown["cardtable/spectate/table/2/board/1"]["items"]] == ["board", "result"]
            assert second.recovered == 2 and second.releaser.missed == 0
        finally:
            second.stop()
            for c in (t1, t2):
                stop_loop(c)
                c.disconnect()


def test_rows_of_a_board_never_seen_begin_are_counted_as_missed(tmp_path: Path) -> None:
    releaser = Releaser(Release(Rule.AFTER_FIELD), TABLES, {1: frozenset({1, 2})})
    msg = {"table": "table-01", "kind": "play", "seq": 7, "deal": 1, "t": 1.0,
           "body": {"row": "event", "body": {"type": "call", "seat": "N", "call": "1C"}}}
    assert releaser.offer("cardtable/table-01/play", json.dumps(msg), 2.0) == []
    assert releaser.missed == 1


def test_a_broker_restarted_without_persistence_gets_every_released_board_again(tmp_path: Path) -> None:
    with LocalBroker(tmp_path / "broker", USERS, persistence=False) as broker:
        t1, t2 = _client(broker.port, "table-01", "t1"), _client(broker.port, "table-02", "t2")
        service = _service(broker.port, tmp_path / "state.jsonl")
        try:
            for c, tid, n in ((t1, "table-01", 1), (t2, "table-02", 2)):
                _play(c, tid, 1, "event", _board(n))
                _play(c, tid, 2, "ruling", RESULT)
            assert _wait(lambda: len(_retained(broker.port)) == 2)
            service.connected.clear()
            broker.stop()
            broker.start()
            assert service.connected.wait(20)
            shown: dict[str, dict[str, Any]] = {}
            assert _wait(lambda: len(shown.update(_retained(broker.port)) or shown) == 2, 20), shown
            assert all(m["finished"] for m in shown.values())
        finally:
            service.stop()
            for c in (t1, t2):
                stop_loop(c)
                c.disconnect()


def test_a_line_cut_by_a_kill_does_not_swallow_the_next_message(tmp_path: Path) -> None:
    """A ``kill -9`` mid-write leaves the file's last line cut. The next run skipped it, then appended the
    broker's resend of that message on the same line: one line neither run could read, so a second restart
    had lost a message the broker no longer held (acknowledged once written)."""
    state = tmp_path / "state.jsonl"
    whole = '{"topic":"cardtable/table-01/play","payload":"one"}\n'
    state.write_text(whole + '{"topic":"cardtable/table-01/pl')          # the process died here
    first = Received(state)
    assert first.read() == [("cardtable/table-01/play", b"one")] and first.unreadable == 1
    first.append("cardtable/table-01/play", b"two")                      # the broker's resend
    first.sync()
    first.close()
    second = Received(state)
    assert second.read() == [("cardtable/table-01/play", b"one"), ("cardtable/table-01/play", b"two")]
    assert second.unreadable == 0
    second.close()


@pytest.mark.parametrize("what, content", [
    ("a session's journal", b"SQLite format 3\x00" + bytes(range(256)) * 8 + b"\n" + b"\x00" * 900),
    ("a log", b"2026-12-02 19:00:01 INFO started\nstopped\n" + "caf\u00e9 \u2660".encode() + b" last"),
    ("one line, no line end", b"mosquitto_passwd output"),
])
def test_a_state_file_named_by_mistake_is_refused_and_left_as_it_was(tmp_path: Path, what: str,
                                                                     content: bytes) -> None:
    """``--state`` naming another file (the session's ``session.sqlite3``, a log): its "last line cut by a
    stop" was cut off, truncating the file named (a session's journal lost its last page), and then its bytes
    stopped the command with a UnicodeDecodeError traceback."""
    from firmware_host.broadcast.received import StateFileError

    path = tmp_path / "named.by.mistake"
    path.write_bytes(content)
    with pytest.raises(StateFileError, match="not a broadcast's state file"):
        Received(path)
    assert path.read_bytes() == content, what


@pytest.mark.parametrize("where", ["lin", "lin/deeper"])
def test_a_state_file_in_the_published_lin_folder_is_refused(tmp_path: Path, where: str) -> None:
    """The state file holds every card taken and not yet released (under ``after-field``, the boards under
    way); ``--state`` in the live LIN folder, which a club publishes as it is written, was taken, and the
    cards went out with the LIN."""
    import subprocess
    import sys

    from firmware_host.cli import main

    folder = tmp_path / "ev"
    assert main(["event", "open", str(folder), "--kind", "teams-round-robin", "--entrants", "4", "--rounds", "3",
                 "--boards", "2", "--tables", "table-01,table-02,table-03,table-04"]) == 0
    (tmp_path / "pw").write_text("x\n")
    lin = tmp_path / "site" / "lin"
    state = tmp_path / "site" / where / "state.jsonl"
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "broadcast", "live", "--event", str(folder),
                           "--password-file", str(tmp_path / "pw"), "--spectator-password-file", str(tmp_path / "pw"),
                           "--lin", str(lin), "--state", str(state), "--port", "1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"cardtable broadcast live: --state {state} is in {lin}, which is published as it is written, and the "
        "state holds cards not yet released: keep it elsewhere (by default it is under ~/.local/state)"]
    assert not state.exists()


def test_a_state_file_of_another_session_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    """``--state`` kept at one path from week to week (a unit file's): this week's run took last week's rows
    as its own, showed last week's boards at once as this session's, and took last week's results as facts
    that finish this week's boards: under ``after-field`` the audit's viewer got 56 board messages before the
    field had finished their boards. The file names its session on its first line."""
    from firmware_host.broadcast.received import StateFileError

    state = tmp_path / "state.jsonl"
    last_week = Received(state, "a1b2c3d4e5f60718")
    last_week.append("cardtable/table-01/play", b"one")
    last_week.sync()
    last_week.close()
    kept = state.read_bytes()
    assert kept.startswith(b'{"session":"a1b2c3d4e5f60718"}\n')
    with pytest.raises(StateFileError, match=r"the state of another session \(a1b2c3d4e5f60718\), not this one's "
                                             r"\(ffff000011112222\)"):
        Received(state, "ffff000011112222")
    assert state.read_bytes() == kept
    again = Received(state, "a1b2c3d4e5f60718")          # the same session restarted: taken back, the line skipped
    assert again.read() == [("cardtable/table-01/play", b"one")] and again.unreadable == 0
    again.close()
    older = tmp_path / "older.jsonl"                      # written before the first line named the session
    older.write_text('{"topic":"cardtable/table-01/play","payload":"one"}\n')
    assert Received(older, "ffff000011112222").read() == [("cardtable/table-01/play", b"one")]


def test_a_state_file_of_another_event_is_one_line_exit_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    from firmware_host.broadcast.live import session_id
    from firmware_host.cli import main

    folders = [tmp_path / "week-1", tmp_path / "week-2"]
    for folder in folders:
        assert main(["event", "open", str(folder), "--kind", "teams-round-robin", "--entrants", "4", "--rounds", "3",
                     "--boards", "2", "--tables", "table-01,table-02,table-03,table-04"]) == 0
    state = tmp_path / "broadcast.jsonl"
    Received(state, session_id(folders[0])).close()
    (tmp_path / "pw").write_text("x\n")
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "broadcast", "live", "--event", str(folders[1]),
                           "--password-file", str(tmp_path / "pw"), "--spectator-password-file", str(tmp_path / "pw"),
                           "--state", str(state), "--port", "1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"cardtable broadcast live: --state: {state}: the state of another session ({session_id(folders[0])}), not "
        f"this one's ({session_id(folders[1])}); nothing in it was changed (name another file, or none: the default "
        "is one a session)"]


def test_a_line_of_other_bytes_in_a_state_file_is_skipped_and_counted(tmp_path: Path) -> None:
    """A line that is not UTF-8 (a damaged disk block) stopped the command with a UnicodeDecodeError."""
    state = tmp_path / "state.jsonl"
    state.write_bytes(b'{"topic":"cardtable/table-01/play","payload":"one"}\n\xe9t\xe9\n'
                      b'{"topic":"cardtable/table-01/play","payload":"two"}\n')
    kept = Received(state)
    assert kept.read() == [("cardtable/table-01/play", b"one"), ("cardtable/table-01/play", b"two")]
    assert kept.unreadable == 1
    kept.close()


def test_a_state_file_named_by_mistake_is_one_line_exit_2_and_left_as_it_was(tmp_path: Path) -> None:
    import subprocess
    import sys

    from firmware_host.cli import main

    folder = tmp_path / "ev"
    assert main(["event", "open", str(folder), "--kind", "teams-round-robin", "--entrants", "4", "--rounds", "3",
                 "--boards", "2", "--tables", "table-01,table-02,table-03,table-04"]) == 0
    journal = folder / "session.sqlite3"
    before = journal.read_bytes()
    (tmp_path / "pw").write_text("x\n")
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "broadcast", "live", "--event", str(folder),
                           "--password-file", str(tmp_path / "pw"), "--spectator-password-file", str(tmp_path / "pw"),
                           "--state", str(journal)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"cardtable broadcast live: --state: {journal}: not a broadcast's state file (it is not text); "
        "nothing in it was changed"]
    assert journal.read_bytes() == before


def test_what_a_late_service_loses_is_that_board_at_that_table_and_no_more() -> None:
    """docs/broadcast.md, "A service started late": table 1 began board 1 before the service's first
    connection (its rows 1-2 were never queued for it). The rest of that board there is counted, never
    shown; table 1's next board is taken whole; board 1 at table 2 is released once the session's journal
    holds table 1's line (before, it was held for ever under after-field)."""
    r = Releaser(Release(Rule.AFTER_FIELD), TABLES, {1: frozenset({1, 2}), 2: frozenset({1})})

    def msg(tid: str, seq: int, row: str, body: dict[str, object]) -> bytes:
        return json.dumps({"table": tid, "kind": "play", "seq": seq, "deal": 1, "t": 5.0 + seq,
                           "body": {"row": row, "body": body}}).encode()
    out = r.offer("cardtable/table-01/play", msg("table-01", 3, "event", {"type": "call", "seat": "N", "call": "1C"}), 20.0)
    out += r.offer("cardtable/table-01/play", msg("table-01", 4, "ruling", RESULT), 20.0)
    assert out == [] and r.missed == 2
    out = r.offer("cardtable/table-02/play", msg("table-02", 1, "event", _board(2)), 20.0)
    out += r.offer("cardtable/table-02/play", msg("table-02", 2, "ruling", RESULT), 20.0)
    assert out == []                                  # table 1's result of board 1 never came
    out = r.offer("cardtable/table-01/play", msg("table-01", 5, "event", {**_board(1), "board": 2}), 20.0)
    out += r.offer("cardtable/table-01/play", msg("table-01", 6, "ruling", RESULT), 20.0)
    assert [t for t, _p in out][-1] == "cardtable/spectate/table/1/board/2"   # the next board, whole
    assert json.loads(out[-1][1])["finished"]
    out = r.learn({(1, 1): 8.0, (2, 1): 7.0}, 20.0)  # the session holds both lines of board 1
    assert [t for t, _p in out] == ["cardtable/spectate/table/2/board/1"]
    assert r.missed == 2 and (1, 1) not in r.released_items()
