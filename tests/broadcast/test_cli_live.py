"""``cardtable broadcast live``: what it refuses (one line, exit 2), and a real run on a real broker: a
table's play in, the page's event stream out, SIGTERM stops it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_host.club.broker import LocalBroker, free_port
from firmware_host.wire.subscribed import stop_loop

CLI = [sys.executable, "-m", "firmware_host.cli", "broadcast", "live"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """The command with ``args``, on a free page port unless ``args`` name one: the default (8090) may be
    held by another run on the machine, and a port in use is refused before what a case means to name."""
    listen = [] if "--listen" in args else ["--listen", f"127.0.0.1:{free_port()}"]
    return subprocess.run([*CLI, *args, *listen], capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def session(session_dir: Path) -> Path:
    return session_dir / "session"


@pytest.mark.parametrize("extra, said", [
    (["--rule", "delay", "--delay", "-1"], "a delay is 0 to 86400 seconds"),
    (["--rule", "teams", "--teams", "1:x"], "'1:x': a match is OPEN:CLOSED"),
    (["--rule", "teams", "--teams", "1:9"], "--teams names table 9, which is not in the session"),
    (["--listen", "nowhere"], "--listen 'nowhere': HOST:PORT"),
    # every card would be shown as it is played (a delay of 0); options of another rule were silently ignored
    (["--rule", "delay"], "--rule delay needs --delay S"),
    (["--delay", "30"], "--delay goes with --rule delay; the rule is after-field"),
    (["--teams", "1:2"], "--teams goes with --rule teams; the rule is after-field"),
])
def test_what_cannot_be_used_is_named(session: Path, tmp_path: Path, extra: list[str], said: str) -> None:
    pw = tmp_path / "pw"
    pw.write_text("x\n")
    done = _run("--session", str(session), "--password-file", str(pw), "--spectator-password-file", str(pw), *extra)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_no_session_and_no_password_file(tmp_path: Path) -> None:
    pw = tmp_path / "pw"
    pw.write_text("x\n")
    done = _run("--session", str(tmp_path), "--password-file", str(pw), "--spectator-password-file", str(pw))
    assert done.returncode == 2 and "no session here" in done.stderr
    done = _run("--session", str(tmp_path), "--password-file", str(tmp_path / "none"),
                "--spectator-password-file", str(pw))
    assert done.returncode == 2 and "--password-file" in done.stderr and "Traceback" not in done.stderr


def test_a_listen_address_in_use_is_named_before_the_broker_is_touched(session: Path, tmp_path: Path) -> None:
    """It printed the page's address, uvicorn's bind error and "stopped", exit 0, having first cleared the
    boards of the run that held the port."""
    import socket

    import paho.mqtt.client as mqtt

    def client(user: str, pw: str) -> mqtt.Client:
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
        c.username_pw_set(user, pw)
        return c

    topic = "cardtable/spectate/table/1/board/1"
    with LocalBroker(tmp_path / "broker", {"broadcast": "b-pw", "spectator": "s-pw"}) as broker:
        other = client("broadcast", "b-pw")     # the run holding the port left a board
        other.connect("127.0.0.1", broker.port)
        other.loop_start()
        other.publish(topic, json.dumps({"table": 1, "board": 1, "release": {"session": "other"}}),
                      qos=1, retain=True).wait_for_publish(10)
        other.disconnect()
        stop_loop(other)
        (tmp_path / "b").write_text("b-pw\n")
        with socket.create_server(("127.0.0.1", 0)) as held:
            port = held.getsockname()[1]
            done = _run("--session", str(session), "--port", str(broker.port), "--lin", str(tmp_path / "lin"),
                        "--password-file", str(tmp_path / "b"), "--spectator-password-file",
                        str(tmp_path / "b"), "--listen", f"127.0.0.1:{port}")
        assert done.returncode == 2, done
        assert done.stderr.strip() == (f"cardtable broadcast live: --listen 127.0.0.1:{port}: cannot listen on "
                                       f"127.0.0.1:{port} (Address already in use)"), done.stderr
        assert "broadcasting" not in done.stdout
        got: list[bytes] = []
        watch = client("spectator", "s-pw")
        watch.on_message = lambda c, u, m: got.append(m.payload)
        watch.connect("127.0.0.1", broker.port)
        watch.subscribe(topic, qos=1)
        watch.loop_start()
        try:
            deadline = time.monotonic() + 60    # a bound on a hang: a retained message comes on subscribing
            while not got and time.monotonic() < deadline:
                time.sleep(0.05)
            assert got and got[0], "the other run's board was cleared"
        finally:
            stop_loop(watch)
            watch.disconnect()


def _start(tmp_path: Path, broker_port: int, *args: str) -> tuple[subprocess.Popen[str], int]:
    """The command running on the test's broker (logins ``broadcast``/``b-pw`` and ``spectator``/``s-pw``),
    its page on a free port."""
    (tmp_path / "b").write_text("b-pw\n")
    (tmp_path / "s").write_text("s-pw\n")
    port = free_port()
    proc = subprocess.Popen([*CLI, *args, "--port", str(broker_port), "--password-file", str(tmp_path / "b"),
                             "--spectator-password-file", str(tmp_path / "s"), "--listen", f"127.0.0.1:{port}",
                             "--state", str(tmp_path / "state.jsonl")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc, port


def test_a_real_run(session: Path, tmp_path: Path) -> None:
    import httpx  # a test dependency: the Pi's hardware venv (SETUP step 6) must still collect this file

    users = {"broadcast": "b-pw", "spectator": "s-pw", "table-01": "t-pw"}
    with LocalBroker(tmp_path / "broker", users) as broker:
        proc, port = _start(tmp_path, broker.port, "--session", str(session), "--rule", "delay", "--delay", "0.2", "--lin",
                            str(tmp_path / "lin"))
        try:
            import paho.mqtt.client as mqtt
            table = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="table-01")
            table.username_pw_set("table-01", "t-pw")
            table.connect("127.0.0.1", broker.port)
            table.loop_start()
            deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
            deadline = time.monotonic() + 90  # a full run at load 8 once had no page up in 30 s
            first = ""
            while time.monotonic() < deadline and '"board":1' not in first:
                body = {"table": "table-01", "kind": "play", "seq": 1, "t": time.time(),
                        "body": {"row": "event", "body": {"type": "board", "board": 1, "table": 1, "deal": deal,
                                                          "ns": "1 NS", "ew": "1 EW"}}}
                table.publish("cardtable/table-01/play", json.dumps(body), qos=1).wait_for_publish(5)
                time.sleep(0.3)
                try:
                    with httpx.Client(timeout=5) as c, c.stream("GET", f"http://127.0.0.1:{port}/events") as r:
                        for line in r.iter_lines():
                            if line.startswith("data:"):
                                first = line
                                break
                except httpx.HTTPError:
                    continue
            assert '"board":1' in first and '"kind":"board"' in first
            assert (tmp_path / "lin" / "board-01-table-01.lin").read_text().startswith("pn|")
            stop_loop(table)
            # a browser still watching when the command is stopped (SIGTERM): its stream ends, no traceback
            watching = threading.Event()

            def watch() -> None:
                try:
                    with httpx.Client(timeout=30) as c, c.stream("GET", f"http://127.0.0.1:{port}/events") as r:
                        for _ in r.iter_lines():
                            watching.set()
                except httpx.HTTPError:
                    pass
            threading.Thread(target=watch, daemon=True).start()
            assert watching.wait(60), "the page's event stream sent nothing in 60 s"   # a bound on a hang
        finally:
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=20)
        assert proc.returncode == 0 and "stopped: 1 rows taken, 0 refused" in out, out
        assert "Traceback" not in out and "CancelledError" not in out, out


@pytest.mark.parametrize("extra, said", [
    ([], "name the duplicate session (--session DIR), the event (--event DIR), the euchre night (--euchre-night DIR) "
         "or the euchre tables"),
    (["--euchre-tables", "t1,t1", "--out", "x"], "table ids, each once"),
    (["--euchre-tables", "t1,spectator", "--out", "x"], "not a reserved id"),
    (["--euchre-tables", "t1"], "--euchre-night and --euchre-tables need --out DIR"),
    (["--euchre-night", "no-such-night", "--out", "x"], "no euchre night there"),
    (["--euchre-night", "n", "--euchre-tables", "t1", "--out", "x"], "one of them"),
    (["--euchre-tables", "t1", "--out", "x", "--rule", "teams", "--teams", "1:2"], "a euchre evening takes"),
    # without --teams it was refused for the matches missing, not for being euchre (docs/broadcast.md)
    (["--euchre-tables", "t1", "--out", "x", "--rule", "teams"], "a euchre evening takes"),
])
def test_a_euchre_evening_refused_as_named(tmp_path: Path, extra: list[str], said: str) -> None:
    pw = tmp_path / "pw"
    pw.write_text("x\n")
    done = _run("--password-file", str(pw), "--spectator-password-file", str(pw), *extra)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr


def _event(folder: Path, kind: str = "teams-round-robin", tables: str = "table-01,table-02,table-03,table-04") -> Path:
    from firmware_host.cli import main

    assert main(["event", "open", str(folder), "--kind", kind, "--entrants", "4", "--rounds", "3", "--boards", "2",
                 "--tables", tables]) == 0
    return folder


@pytest.mark.parametrize("extra, said", [
    (["--teams", "1:2"], "--teams is not given with --event"),
    (["--rule", "teams"], "--rule teams is for a teams event; Event is swiss-pairs"),
])
def test_an_event_refused_as_named(tmp_path: Path, extra: list[str], said: str) -> None:
    pw = tmp_path / "pw"
    pw.write_text("x\n")
    folder = _event(tmp_path / "ev", "swiss-pairs", "table-01,table-02")
    done = _run("--event", str(folder), "--password-file", str(pw), "--spectator-password-file", str(pw), *extra)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    done = _run("--event", str(tmp_path), "--password-file", str(pw), "--spectator-password-file", str(pw))
    assert done.returncode == 2 and "no event there" in done.stderr


def test_a_teams_event_is_broadcast_with_no_operator(tmp_path: Path) -> None:
    """``--event DIR --rule teams``: nothing typed but the folder. The open room's board is held until the
    closed room has played it (the rooms come from the event's matches), and the LIN names the team that
    was named (team 4, East-West at the open room in round 1).

    The closed room's play of a board the open room has finished goes out as it comes, so its first row
    shows board 1 on the page while the open room's is still held: the test waited for "board 1 shown" and
    read the open room's LIN, which is written only when that board is released (the closed room's
    result, a later message), and failed on a loaded machine that took the two rows in two steps. The
    closed room's rows are sent one at a time here, each waited for, so that order is the one tested."""
    import httpx

    from firmware_host.events.session import EventSession

    folder = _event(tmp_path / "ev")
    ev = EventSession.open(folder)
    assert ev.take({"type": "names", "competitor": 4, "name": "Hearts", "by": "director", "players": []}).status == "taken"
    ev.close()
    users = {"broadcast": "b-pw", "spectator": "s-pw", "table-01": "t1-pw", "table-02": "t2-pw"}
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    with LocalBroker(tmp_path / "broker", users) as broker:
        proc, port = _start(tmp_path, broker.port, "--event", str(folder), "--rule", "teams")
        import paho.mqtt.client as mqtt

        clients = []
        try:
            for tid in ("table-01", "table-02"):
                c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=tid)
                c.username_pw_set(tid, users[tid])
                c.connect("127.0.0.1", broker.port)
                c.loop_start()
                clients.append(c)

            def board(c: mqtt.Client, tid: str, number: int, ns: str, ew: str, *which: int) -> None:
                """Row 1 (the board) and row 2 (its result) of board 1 at event table ``number``."""
                rows = [("event", {"type": "board", "board": 1, "table": number, "deal": deal, "ns": ns, "ew": ew}),
                        ("ruling", {"clause": "DB-77", "remedy": "score", "contract": "3NT", "declarer": "S",
                                    "tricks": 9, "score": 400})]
                for seq in which:
                    kind, row = rows[seq - 1]
                    body = {"table": tid, "kind": "play", "seq": seq, "t": time.time(), "body": {"row": kind, "body": row}}
                    c.publish(f"cardtable/{tid}/play", json.dumps(body), qos=1).wait_for_publish(5)

            def shown() -> dict[tuple[int, int], bool]:
                """The page's snapshot: (table, board) -> finished ({} while the page does not answer)."""
                try:
                    with httpx.Client(timeout=3) as h, h.stream("GET", f"http://127.0.0.1:{port}/events") as r:
                        for line in r.iter_lines():
                            if line.startswith("data:"):
                                return {(b["table"], b["board"]): b["finished"] for b in json.loads(line[5:])["boards"]}
                except httpx.HTTPError:
                    return {}
                return {}

            def until(what: Callable[[dict[tuple[int, int], bool]], bool], why: str) -> dict[tuple[int, int], bool]:
                """The page's snapshot once ``what`` holds; the deadline only stops a hang, saying what was shown."""
                deadline = time.monotonic() + 120
                seen = shown()
                while not what(seen):
                    assert time.monotonic() < deadline, f"{why}; the page showed {seen}"
                    time.sleep(0.1)
                    seen = shown()
                return seen

            def taken() -> int:
                state = tmp_path / "state.jsonl"                    # what the service took, written before its ack
                lines = state.read_text().splitlines() if state.exists() else []
                return sum('"topic"' in line for line in lines)     # (its first line names the session)

            assert proc.stdout is not None
            line = ""    # said once its subscriptions are granted: a play sent before would reach no session
            while "broadcasting 4 tables by the rule teams" not in line:
                line = proc.stdout.readline()
                assert line, "the command ended before it said it was broadcasting"
            board(clients[0], "table-01", 1, "1", "4", 1, 2)       # the open room plays board 1
            deadline = time.monotonic() + 120                       # a bound on a hang, not a wait for time
            while time.monotonic() < deadline and taken() < 2:
                time.sleep(0.05)
            assert taken() == 2                                     # both rows of the open room taken ...
            assert (1, 1) not in shown()                            # ... and held: the closed room has not played it
            board(clients[1], "table-02", 2, "4", "1", 1)          # the closed room starts it: shown as it comes
            seen = until(lambda s: (2, 1) in s, "the closed room's board 1 never shown")
            assert (1, 1) not in seen and not (folder / "lin" / "board-01-table-01.lin").exists()  # still held
            board(clients[1], "table-02", 2, "4", "1", 2)          # the closed room's result releases the open room's
            until(lambda s: s.get((1, 1)) is True and s.get((2, 1)) is True, "board 1 never shown finished at both")
            lin = (folder / "lin" / "board-01-table-01.lin").read_text()   # written before it was published
            assert lin.startswith("pn|1,Hearts,1,Hearts|qx|o1|")
        finally:
            for c in clients:
                stop_loop(c)
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=20)
        assert proc.returncode == 0 and "stopped: 4 rows taken, 0 refused" in out, out


def test_a_broker_that_cannot_be_reached_is_said(session: Path, tmp_path: Path) -> None:
    """It printed "broadcasting ..." and waited, saying nothing, with no broker on its port."""
    proc, _ = _start(tmp_path, free_port(), "--session", str(session), "--lin", str(tmp_path / "lin"))
    try:
        deadline = time.monotonic() + 20
        seen = ""
        import selectors

        sel = selectors.DefaultSelector()
        assert proc.stdout is not None
        sel.register(proc.stdout, selectors.EVENT_READ)
        while time.monotonic() < deadline and "cannot reach the broker" not in seen:
            if sel.select(0.5):
                seen += proc.stdout.readline()
        assert "cannot reach the broker at 127.0.0.1:" in seen, seen
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)


def test_a_wrong_broadcast_password_is_refused_in_one_line(session: Path, tmp_path: Path) -> None:
    """It printed "broadcasting" and repeated "the broker refused the login: Not authorized" forever."""
    with LocalBroker(tmp_path / "broker", {"broadcast": "b-pw", "spectator": "s-pw"}) as broker:
        (tmp_path / "wrong").write_text("nope\n")
        (tmp_path / "s").write_text("s-pw\n")
        port = free_port()
        done = subprocess.run([*CLI, "--session", str(session), "--port", str(broker.port), "--lin",
                               str(tmp_path / "lin"), "--password-file", str(tmp_path / "wrong"),
                               "--spectator-password-file", str(tmp_path / "s"), "--listen", f"127.0.0.1:{port}",
                               "--state", str(tmp_path / "state.jsonl")],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done
        assert "broadcasting" not in done.stdout
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "refused the login 'broadcast'" in done.stderr and "--password-file" in done.stderr


def test_a_run_killed_mid_evening_and_started_again_shows_every_board(tmp_path: Path) -> None:
    """The audit's evening: ``kill -9`` of ``broadcast live`` mid-evening, started again with the same
    ``--state``; a live viewer saw 37 boards of 60 finished when it stopped, the LIN folder held 60. Here a
    spectator's client stays subscribed across the kill, a page opened after it takes its snapshot, and
    both must get every board of every table finished (``after-field``), whatever was under way, sent while
    the service was down, or sent after."""
    import httpx
    import paho.mqtt.client as mqtt

    folder = _event(tmp_path / "ev")
    tids = ("table-01", "table-02", "table-03", "table-04")
    users = {"broadcast": "b-pw", "spectator": "s-pw", **{t: f"{t}-pw" for t in tids}}
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    seq = dict.fromkeys(tids, 0)
    with LocalBroker(tmp_path / "broker", users, persistence=True) as broker:
        seen: dict[str, dict[str, object]] = {}
        lock = threading.Lock()
        watching = threading.Event()

        def got(_c: object, _u: object, m: mqtt.MQTTMessage) -> None:
            if m.payload and "/board/" in m.topic:
                with lock:
                    seen[m.topic] = json.loads(m.payload)
        clients: dict[str, mqtt.Client] = {}
        for tid in (*tids, "spectator"):
            c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{tid}-test")
            c.username_pw_set(tid, users[tid])
            if tid == "spectator":   # the viewer: subscribed from before the first card to after the last
                c.on_message = got
                c.on_connect = lambda c, *_a: c.subscribe("cardtable/spectate/#", qos=1)
                c.on_subscribe = lambda *_a: watching.set()
            c.connect("127.0.0.1", broker.port)
            c.loop_start()
            clients[tid] = c
        assert watching.wait(30)

        def rows(tid: str, number: int, board: int, *which: str) -> None:
            side = ("1", "4") if number in (1, 2) else ("2", "3")
            ns, ew = side if number % 2 else side[::-1]
            made = {"board": ("event", {"type": "board", "board": board, "table": number, "deal": deal,
                                        "ns": ns, "ew": ew}),
                    "call": ("event", {"type": "call", "seat": "N", "call": "1C"}),
                    "result": ("ruling", {"clause": "DB-77", "remedy": "score", "contract": "3NT",
                                          "declarer": "S", "tricks": 9, "score": 400})}
            for what in which:
                seq[tid] += 1
                kind, row = made[what]
                body = {"table": tid, "kind": "play", "seq": seq[tid], "t": time.time(), "body": {"row": kind, "body": row}}
                clients[tid].publish(f"cardtable/{tid}/play", json.dumps(body), qos=1).wait_for_publish(10)

        def start() -> tuple[subprocess.Popen[str], int]:
            proc, port = _start(tmp_path, broker.port, "--event", str(folder), "--rule", "after-field")
            assert proc.stdout is not None
            line = ""
            while "broadcasting" not in line:
                line = proc.stdout.readline()
                assert line, "the command ended before it said it was broadcasting"
            return proc, port

        def taken() -> int:
            state = tmp_path / "state.jsonl"
            lines = state.read_text().splitlines() if state.exists() else []
            return sum('"topic"' in line for line in lines)         # (its first line names the session)

        def wait(what: Callable[[], bool], seconds: float = 120) -> bool:
            """A condition, not a time: the deadline only stops a run that would otherwise hang."""
            deadline = time.monotonic() + seconds
            while not what() and time.monotonic() < deadline:
                time.sleep(0.1)
            return what()

        proc, port = start()
        try:
            for board in (1, 2, 3):
                for k, tid in enumerate(tids, 1):
                    rows(tid, k, board, "board", "call", "result")
            for k, tid in enumerate(tids, 1):
                rows(tid, k, 4, "board", "call")                 # board 4 under way at every table
            assert wait(lambda: taken() == 4 * 3 * 3 + 4 * 2), taken()
            proc.kill()                                          # kill -9: no goodbye, no flush
            proc.communicate(timeout=20)
            for k, tid in enumerate(tids, 1):                    # sent while the service is down
                rows(tid, k, 4, "result")
                rows(tid, k, 5, "board")
            proc, port = start()
            for k, tid in enumerate(tids, 1):
                rows(tid, k, 5, "call", "result")
                rows(tid, k, 6, "board", "call", "result")
            every = {f"cardtable/spectate/table/{k}/board/{b}" for k in range(1, 5) for b in range(1, 7)}

            def finished() -> set[str]:
                with lock:
                    return {t for t, m in seen.items() if m.get("finished")}
            assert wait(lambda: finished() == every), (taken(), sorted(every - finished()))

            def on_the_page() -> list[tuple[int, int]]:
                """The boards a new viewer's first snapshot shows finished (the page takes what the service
                releases on its own loop, so it may trail the broker's spectators by a moment)."""
                with httpx.Client(timeout=10) as h, h.stream("GET", f"http://127.0.0.1:{port}/events") as r:
                    first = next(line for line in r.iter_lines() if line.startswith("data:"))
                return sorted((b["table"], b["board"]) for b in json.loads(first[5:])["boards"] if b["finished"])
            want = [(k, b) for k in range(1, 5) for b in range(1, 7)]
            assert wait(lambda: on_the_page() == want, 60), on_the_page()
            lin = (folder / "lin" / "session.lin").read_text().splitlines()
            assert len(lin) == 24
        finally:
            for c in clients.values():
                stop_loop(c)
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                out, _ = proc.communicate(timeout=20)
                assert "Traceback" not in out, out


def test_a_page_that_cannot_bind_after_the_check_is_exit_2(session: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The page's address is checked before the broker is touched, but another program may take it before
    uvicorn binds it (the driver's two runs on 8090 did): it printed uvicorn's ERROR line, "broadcasting
    ...", then "stopped: 0 rows taken ...", exit 0, as if the spectators had had their page. The check is
    made to pass here while the port is held."""
    import socket

    from firmware_host.cli import main

    monkeypatch.setattr("firmware_host.commands.guard.cannot_listen", lambda host, port: "")
    (tmp_path / "b").write_text("b-pw\n")
    with LocalBroker(tmp_path / "broker", {"broadcast": "b-pw", "spectator": "b-pw"}) as broker:
        with socket.create_server(("127.0.0.1", 0)) as held:
            port = held.getsockname()[1]
            rc = main(["broadcast", "live", "--session", str(session), "--port", str(broker.port), "--lin",
                       str(tmp_path / "lin"), "--password-file", str(tmp_path / "b"), "--spectator-password-file",
                       str(tmp_path / "b"), "--listen", f"127.0.0.1:{port}", "--state", str(tmp_path / "s.jsonl")])
    out, err = capsys.readouterr()
    assert rc == 2, (out, err)
    assert f"cardtable broadcast live: --listen 127.0.0.1:{port}: the page did not start there" in err, err
    assert "stopped:" not in out
