"""`cardtable federation open|show` and `cardtable club federate`: what they write, and one clear line with
exit 2 for what they cannot use."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main

PBN = """[Board "1"]
[Dealer "N"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 654.8765.876.876 32.432.5432.5432"]

[Board "2"]
[Dealer "E"]
[Deal "N:T987.JT9.JT9.JT9 AKQJ.AKQ.AKQ.AKQ 32.432.5432.5432 654.8765.876.876"]
"""


@pytest.fixture()
def records(tmp_path: Path) -> Path:
    path = tmp_path / "boards.pbn"
    path.write_text(PBN, encoding="utf-8")
    return path


def test_open_then_show(tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["federation", "open", "--dir", str(tmp_path / "e"), "--event", "sim1", "--hand-records",
                 str(records), "--clubs", "c1,c2"]) == 0
    out = capsys.readouterr().out
    assert "2 boards, commitment " in out
    acl = (tmp_path / "e" / "mosquitto.acl").read_text(encoding="utf-8")
    assert "user c2\ntopic write fed/sim1/club/c2/out/#\ntopic read fed/sim1/club/c2/in/#" in acl
    assert main(["federation", "show", "--dir", str(tmp_path / "e")]) == 0
    assert "no board finished by every club yet" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["--event", "a b", "--clubs", "c1"], "cannot be a topic level"),
    (["--event", "e", "--clubs", "c1,c1"], "give each club once"),
    (["--event", "e", "--clubs", "c/1"], "cannot be a topic level"),
    (["--event", "e", "--clubs", "a:b"], "cannot be a topic level"),
    (["--event", "e", "--clubs", "a,federation"],
     "a club id 'federation' is the federation service's own login on the broker: give the club another id"),
])
def test_open_refuses(tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                      words: str) -> None:
    assert main(["federation", "open", "--dir", str(tmp_path / "e"), "--hand-records", str(records), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert not (tmp_path / "e" / "federation.sqlite3").exists()


def test_show_without_an_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["federation", "show", "--dir", str(tmp_path)]) == 2
    assert "no event there" in capsys.readouterr().err


def test_federate_writes_the_bridge_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pw = tmp_path / "pw"
    pw.write_text("s3cret\n", encoding="utf-8")
    ca = tmp_path / "ca.pem"
    ca.write_text("-", encoding="utf-8")
    out = tmp_path / "bridge.conf"
    argv = ["club", "federate", "--event", "sim1", "--club", "c1", "--remote", "fed.example.org:8883",
            "--password-file", str(pw), "--cafile", str(ca), "--out", str(out)]
    assert main(argv) == 0
    text = out.read_text(encoding="utf-8")
    assert "address fed.example.org:8883" in text and "topic fed/sim1/club/c1/out/# out 1" in text
    assert f"bridge_cafile {ca.resolve()}" in text and "bridge_tls_version tlsv1.2" in text
    assert oct(out.stat().st_mode & 0o777) == "0o600"
    capsys.readouterr()
    # docs/federation.md sends a club whose file was edited by hand to write it again with `club federate`:
    # the refusal of the file already there says how, and the file is left as it was
    assert main(argv) == 2 and capsys.readouterr().err.strip() == (
        f"cardtable federation: --out {out}: there is a file there already (a bridge is never replaced: remove it "
        "first to write it again)")
    assert out.read_text(encoding="utf-8") == text


def test_club_records_refuses_what_it_cannot_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pw = tmp_path / "pw"
    pw.write_text("up\n", encoding="utf-8")
    there = tmp_path / "there.pbn"
    there.write_text("x", encoding="utf-8")
    base = ["club", "records", "--event", "sim1", "--club", "c1", "--password-file", str(pw)]
    for extra, words in ((["--broker=127.0.0.1:1", "--out", str(there)], "there is a file there already"),
                         (["--broker=127.0.0.1:1", "--out", str(tmp_path / "r.txt")], "written as PBN"),
                         (["--broker=nowhere", "--out", str(tmp_path / "r.pbn")], "--broker 'nowhere': not HOST:PORT"),
                         (["--broker=127.0.0.1:1", "--out", str(tmp_path / "r.pbn"), "--timeout", "0.3"],
                          "the club's broker 127.0.0.1:1: connection refused (is Mosquitto running there?)"),
                         (["--broker=127.0.0.1:1", "--out", str(tmp_path / "r.pbn"), "--timeout", "-1"],
                          "--timeout -1: seconds to wait, more than 0"),
                         (["--broker=127.0.0.1:1", "--out", str(tmp_path / "r.pbn"), "--commitment", "00"],
                          "--commitment '00': the event's commitment is 64 hex digits")):
        assert main(base + extra) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and "Traceback" not in err
    assert there.read_text(encoding="utf-8") == "x" and not (tmp_path / "r.pbn").exists()


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text(encoding="ascii").split()
        out |= {int(c) for c in text}
    return out


def _event_to_serve(tmp_path: Path, records: Path) -> Path:
    """An event of two clubs opened in ``tmp_path / "e"``; the passwords file ``serve`` reads."""
    import shutil

    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (make test installs it)")
    assert main(["federation", "open", "--dir", str(tmp_path / "e"), "--event", "sim1", "--hand-records",
                 str(records), "--clubs", "c1,c2"]) == 0
    pw = tmp_path / "passwords"
    pw.write_text("federation:fed-pw-1\nc1:c1-pw-1\nc2:c2-pw-1\n", encoding="utf-8")
    return pw


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_serve_stopped_by_sigterm_stops_its_broker(tmp_path: Path, records: Path) -> None:
    """systemd and supervisors stop a service with SIGTERM: ``federation serve`` must stop the Mosquitto it
    started as it does on Ctrl-C (it left it running, holding the port, before)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    pw = _event_to_serve(tmp_path, records)
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "federation", "serve", "--dir",
                             str(tmp_path / "e"), "--passwords", str(pw)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    kids: set[int] = set()
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "Ctrl-C stops" in line, line + proc.stderr.read() if proc.poll() is not None else line
        kids = _children(proc.pid)
        assert kids, "no broker was started"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
        end = time.monotonic() + 20
        alive = kids
        while alive and time.monotonic() < end:
            alive = {k for k in alive if Path(f"/proc/{k}").exists()
                     and Path(f"/proc/{k}/stat").read_text().split()[2] != "Z"}
            time.sleep(0.1)
        assert not alive, f"the broker is still running after SIGTERM: {alive}"
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            kids |= _children(proc.pid)
            proc.kill()
        for k in kids:                          # never leave a broker behind, whatever failed
            if Path(f"/proc/{k}").exists():
                os.kill(k, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_serve_on_a_broker_it_did_not_start_stops_cleanly_on_sigterm(tmp_path: Path, records: Path) -> None:
    """``serve --broker HOST:PORT`` (the benchmark's way, and a clustered broker's): SIGTERM ends it with exit 0,
    no traceback, the event's lock let go (a second serve may start at once), and the broker it was given
    still running: it is not ``serve``'s to stop."""
    import shutil
    import signal
    import subprocess
    import sys

    from firmware_host.federation.brokers import EventBroker
    from firmware_host.federation.service import hold_event
    from firmware_host.federation.topics import EventTopics

    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (make test installs it)")
    assert main(["federation", "open", "--dir", str(tmp_path / "e"), "--event", "sim1", "--hand-records",
                 str(records), "--clubs", "c1,c2"]) == 0
    users = {"federation": "fed-pw-1", "c1": "c1-pw-1", "c2": "c2-pw-1"}
    pw = tmp_path / "passwords"
    pw.write_text("".join(f"{u}:{p}\n" for u, p in users.items()), encoding="utf-8")
    broker = EventBroker(tmp_path / "b", users, EventTopics("sim1").acl(("c1", "c2")))
    broker.start()
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "federation", "serve", "--dir",
                             str(tmp_path / "e"), "--passwords", str(pw), "--broker", f"127.0.0.1:{broker.port}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline()
        assert "Ctrl-C stops" in line, line + proc.stderr.read() if proc.poll() is not None else line
        assert not _children(proc.pid), "serve --broker started a broker of its own"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
        err = proc.stderr.read()
        assert "Traceback" not in err, err
        hold_event(tmp_path / "e").close()     # the lock is free: the event can be served again
        assert broker.proc is not None and broker.proc.poll() is None, "serve stopped a broker it did not start"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        broker.stop()


def test_a_sigterm_just_as_serve_says_ready_still_stops_its_broker(tmp_path: Path, records: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """CI caught the race: the signal's ``SystemExit`` raised between the "Ctrl-C stops" line and the
    ``try`` that stops the broker left Mosquitto running. Here the signal arrives while that line is written."""

    import firmware_host.commands.federation as command
    from firmware_host.federation.brokers import EventBroker

    pw = _event_to_serve(tmp_path, records)
    real_start = EventBroker.start
    procs: list = []

    def start(self: EventBroker, timeout: float = 10.0) -> None:
        real_start(self, timeout)
        assert self.proc is not None
        procs.append(self.proc)

    def signalled_print(*a: object, **kw: object) -> None:
        if any("Ctrl-C stops" in str(x) for x in a):
            raise SystemExit(0)        # what exit_on_sigterm's handler raises

    monkeypatch.setattr(EventBroker, "start", start)
    monkeypatch.setattr(command, "print", signalled_print, raising=False)
    with pytest.raises(SystemExit):
        main(["federation", "serve", "--dir", str(tmp_path / "e"), "--passwords", str(pw), "--port", "0"])
    assert procs, "no broker was started"
    try:
        assert procs[0].poll() is not None, "the broker is still running after SIGTERM"
    finally:
        if procs[0].poll() is None:
            procs[0].kill()
            procs[0].wait(5)


@pytest.mark.parametrize("extra, words", [
    (["--certfile", "CERT"], "TLS needs --keyfile naming an existing PEM file (got None)"),
    (["--certfile", "CERT", "--keyfile", "nowhere.pem"], "TLS needs --keyfile naming an existing PEM file"),
    (["--keyfile", "CERT"], "TLS needs --certfile naming an existing PEM file"),
    (["--certfile", "CERT", "--keyfile", "CERT", "--broker", "127.0.0.1:1"], "with --broker, that broker has its own"),
])
def test_serve_refuses_tls_it_cannot_use(tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str],
                                         extra: list[str], words: str) -> None:
    assert main(["federation", "open", "--dir", str(tmp_path / "e"), "--event", "sim1", "--hand-records",
                 str(records), "--clubs", "c1"]) == 0
    capsys.readouterr()
    pw = tmp_path / "passwords"
    pw.write_text("federation:f\nc1:c\n", encoding="utf-8")
    cert = tmp_path / "cert.pem"
    cert.write_text("not checked here\n", encoding="utf-8")
    argv = [str(cert) if a == "CERT" else a for a in extra]
    assert main(["federation", "serve", "--dir", str(tmp_path / "e"), "--passwords", str(pw), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "e" / "broker").exists()


@pytest.mark.parametrize("extra, words", [
    (["--port", "-1"], "--port -1: a port is 0 to 65535 (0: any free port)"),
    (["--port", "99999"], "--port 99999: a port is 0 to 65535 (0: any free port)"),
    (["--web", "70000"], "--web 70000: a port is 0 to 65535 (0: any free port)"),
])
def test_serve_refuses_a_port_out_of_range_in_one_line(tmp_path: Path, records: Path,
                                                      capsys: pytest.CaptureFixture[str], extra: list[str],
                                                      words: str) -> None:
    """An audit: on an event served once these ended in a traceback, exit 1."""
    assert main(["federation", "open", "--dir", str(tmp_path / "e"), "--event", "sim1", "--hand-records",
                 str(records), "--clubs", "c1"]) == 0
    (tmp_path / "e" / "broker").mkdir()
    (tmp_path / "e" / "broker" / "mosquitto.conf").write_text("listener 1 127.0.0.1\n", encoding="utf-8")
    capsys.readouterr()
    pw = tmp_path / "passwords"
    pw.write_text("federation:f\nc1:c\n", encoding="utf-8")
    assert main(["federation", "serve", "--dir", str(tmp_path / "e"), "--passwords", str(pw), *extra]) == 2
    assert capsys.readouterr().err == f"cardtable federation: {words}\n"


def test_a_broker_that_does_not_start_is_one_line(tmp_path: Path, records: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pw = _event_to_serve(tmp_path, records)
    capsys.readouterr()
    assert main(["federation", "serve", "--dir", str(tmp_path / "e"), "--passwords", str(pw),
                 "--bind", "999.1.1.1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable federation: mosquitto did not start on port ") and err.count("\n") == 1, err
    assert "Error creating listener" in err


@pytest.mark.parametrize("verb", ["show", "close"])
@pytest.mark.parametrize("content", [b"junk\n", b""])
def test_show_and_close_refuse_a_file_that_is_not_an_event_s_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], verb: str, content: bytes) -> None:
    """An audit: ``DIR/federation.sqlite3`` holding something else gave a traceback, exit 1."""
    (tmp_path / "federation.sqlite3").write_bytes(content)
    assert main(["federation", verb, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardtable federation: {tmp_path / 'federation.sqlite3'}: not an event's journal (")
    assert err.count("\n") == 1, err


def test_show_refuses_another_kind_of_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.records.journal import Journal

    with Journal.open(tmp_path / "federation.sqlite3") as journal:
        journal.append("event", {"type": "opened", "setup": {"tables": 3}}, 0.0)
    assert main(["federation", "show", "--dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"cardtable federation: {tmp_path / 'federation.sqlite3'}: not an event's "
                                       "journal (its first row is not the event's setup: no 'event' in it)\n")


def test_open_names_the_folder_it_cannot_make(tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An audit: ``open --dir /proc/nope`` named the hand-records file, with a raw errno."""
    (tmp_path / "file").write_text("x", encoding="utf-8")
    where = tmp_path / "file" / "e"
    assert main(["federation", "open", "--dir", str(where), "--event", "e", "--hand-records", str(records),
                 "--clubs", "c1"]) == 2
    assert capsys.readouterr().err == f"cardtable federation: --dir {where}: not a directory\n"


@pytest.mark.parametrize("content, words", [
    (b"federation:f\nc1:\xff\n", "--passwords {pw}: not UTF-8 text (byte 17)"),
    (None, "--passwords {pw}: no such file or directory"),
    (b"federation:f\nc1\n", "--passwords {pw} line 2: a line is login:password"),
])
def test_serve_names_a_passwords_file_it_cannot_read(tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str],
                                                     content: bytes | None, words: str) -> None:
    assert main(["federation", "open", "--dir", str(tmp_path / "e"), "--event", "sim1", "--hand-records",
                 str(records), "--clubs", "c1"]) == 0
    capsys.readouterr()
    pw = tmp_path / "passwords"
    if content is not None:
        pw.write_bytes(content)
    assert main(["federation", "serve", "--dir", str(tmp_path / "e"), "--passwords", str(pw)]) == 2
    assert capsys.readouterr().err == f"cardtable federation: {words.format(pw=pw)}\n"


def test_serve_names_a_web_bind_it_cannot_use(tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An audit: a bad ``--web-bind`` was reported as ``--web 0: ...``."""
    pw = _event_to_serve(tmp_path, records)
    capsys.readouterr()
    assert main(["federation", "serve", "--dir", str(tmp_path / "e"), "--passwords", str(pw), "--web", "0",
                 "--web-bind", "999.1.1.1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable federation: --web-bind 999.1.1.1: not an address of this machine (")
    assert err.count("\n") == 1


@pytest.mark.parametrize("password, extra, words", [
    ("", [], "--password-file {pw}: the file is empty (it holds the login's password)"),
    ("s3cret", ["--uplink-user", "bad user"],
     "--uplink-user: the uplink's login 'bad user' cannot be a topic level: 1 to 32 letters, digits, - or _"),
    # a login the club's broker keeps: written, it was refused only later, by `club broker --federation`
    ("s3cret", ["--uplink-user", "dashboard"],
     "--uplink-user 'dashboard': a login the club's broker keeps for itself (dashboard, session, spectate, "
     "broadcast, spectator): choose another (the default is uplink)"),
    ("s3cret", ["--uplink-user", "spectator"],
     "--uplink-user 'spectator': a login the club's broker keeps for itself (dashboard, session, spectate, "
     "broadcast, spectator): choose another (the default is uplink)"),
])
def test_federate_refuses_what_would_write_a_broken_bridge(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          password: str, extra: list[str], words: str) -> None:
    """An audit: an empty password file exited 0 with an empty ``remote_password``, and ``--uplink-user
    'bad user'`` wrote the ACL line ``user bad user``."""
    pw = tmp_path / "pw"
    pw.write_text(password + "\n", encoding="utf-8")
    out = tmp_path / "bridge.conf"
    assert main(["club", "federate", "--event", "sim1", "--club", "c1", "--remote", "fed.example.org:8883",
                 "--password-file", str(pw), "--out", str(out), *extra]) == 2
    assert capsys.readouterr().err == f"cardtable federation: {words.format(pw=pw)}\n"
    assert not out.exists()


def test_club_records_says_the_login_was_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An audit: a wrong password said "no hand records ... (is the bridge up ...)" after the timeout."""
    import shutil

    from firmware_host.club.broker import LocalBroker

    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (make test installs it)")
    pw = tmp_path / "pw"
    pw.write_text("wrong\n", encoding="utf-8")
    with LocalBroker(tmp_path / "broker", {"dashboard": "d", "uplink": "right"}) as broker:
        assert main(["club", "records", "--event", "sim1", "--club", "c1", "--password-file", str(pw),
                     "--broker", f"127.0.0.1:{broker.port}", "--out", str(tmp_path / "r.pbn"), "--timeout", "30"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardtable federation: the club's broker 127.0.0.1:{broker.port} refused the login "
                          "'uplink': "), err
    assert err.count("\n") == 1 and not (tmp_path / "r.pbn").exists()


@pytest.mark.parametrize("argv, said", [
    (["--clubs", "c1,c2,c1", "--hand-records", "RECORDS"], "--clubs: club c1 is given twice; give each club once"),
    (["--clubs", "", "--hand-records", "RECORDS"], "--clubs: no club given (the clubs' ids, separated by commas)"),
    (["--clubs", "c1", "--hand-records", "nope.pbn"], "nope.pbn: cannot be read (No such file or directory)"),
])
def test_open_names_the_club_or_file_once(tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str],
                                          argv: list[str], said: str) -> None:
    """Found checking `federation open` by hand: a club given twice was "--clubs: give each club once"
    (which club?), an empty --clubs said the same, and a file that cannot be read was named twice
    ("nope.pbn: nope.pbn: cannot be read")."""
    argv = [str(records) if a == "RECORDS" else a for a in argv]
    assert main(["federation", "open", "--dir", str(tmp_path / "e"), "--event", "e", *argv]) == 2
    err = capsys.readouterr().err
    assert err == f"cardtable federation: {said}\n"


@pytest.mark.parametrize("remote, said", [
    ("nohost", "--remote 'nohost': not HOST:PORT (the broker's name or address, a colon, a port 1 to 65535)"),
    ("h:99999", "--remote 'h:99999': not HOST:PORT (the broker's name or address, a colon, a port 1 to 65535)"),
])
def test_federate_names_the_option_whose_address_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         remote: str, said: str) -> None:
    """Found by hand: "'nohost' is not HOST:PORT" named neither the option nor what a port may be."""
    pw = tmp_path / "pw"
    pw.write_text("secret\n")
    out = tmp_path / "bridge.conf"
    assert main(["club", "federate", "--event", "e", "--club", "c1", "--remote", remote, "--password-file",
                 str(pw), "--out", str(out)]) == 2
    assert capsys.readouterr().err.endswith(f": {said}\n") and not out.exists()


def test_uplink_and_open_refuse_a_folder_of_another_kind(tmp_path: Path, records: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``club uplink --session NIGHT`` (a euchre night's folder) started, and warned "the session journal
    cannot be read now: the session's opening row cannot be read ('boards')" every second, for ever;
    ``federation open --dir SESSION`` wrote the event's journal, ACL and hand records into a club's
    session folder (exit 0). Each is now one line naming the folder, exit 2, nothing written."""
    players = tmp_path / "players.txt"
    players.write_text("".join(f"Player {k}\n" for k in range(1, 9)), encoding="utf-8")
    night = tmp_path / "night"
    assert main(["euchre", "open", "--dir", str(night), "--players", str(players), "--format", "progressive",
                 "--rounds", "2"]) == 0
    pw = tmp_path / "pw"
    pw.write_text("secret\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["club", "uplink", "--session", str(night), "--event", "sim1", "--club", "c1", "--broker",
                 "127.0.0.1:1", "--password-file", str(pw)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardtable federation: --session {night}: ") and "a euchre night" in err, err
    assert err.count("\n") == 1
    before = sorted(p.name for p in night.iterdir())
    assert main(["federation", "open", "--dir", str(night), "--event", "sim1", "--hand-records", str(records),
                 "--clubs", "c1,c2"]) == 2
    err = capsys.readouterr().err
    assert err == (f"cardtable federation: --dir {night}: the folder holds a club's session (session.sqlite3); "
                   "open the event in a folder of its own\n")
    assert sorted(p.name for p in night.iterdir()) == before
