"""``cardtable doctor --club`` on a real club machine in miniature (issue 31): the club's certificates made
by `cardtable club certs` (openssl), the broker (`cardtable club broker`, Mosquitto with TLS), the
dashboard running the evening's session (`cardtable club dashboard --session`), a session journal, and the
options file the services read. Then each check is broken on purpose: a journal row edited, a folder
missing, a certificate about to expire, the dashboard stopped, a wrong password, a wrong options file."""

from __future__ import annotations

import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.commands.doctor import ClubOptions
from firmware_host.doctor_club import (
    CLUB_CHECKS,
    check_backup,
    check_club_broker,
    check_club_service,
    check_dashboard,
    check_session,
    check_tls,
    run_club_checks,
)
from firmware_host.records.journal import Journal
from tests.duplicate.sessionkit import make_setup

ROOT = Path(__file__).resolve().parents[2]
SESSION = "2026-12-02"
needs = pytest.mark.skipif(shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists(),
                           reason="mosquitto is not installed (`make test` installs it)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=60, cwd=ROOT)


def _wait(what: str, ready: object, proc: subprocess.Popen[str], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{what} exited {proc.returncode}: {proc.stderr.read() if proc.stderr else ''}")
        if ready():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not start")


def _serve(what: str, argv: Callable[[int], list[str]], procs: list[subprocess.Popen[str]], tries: int = 3) -> int:
    """Start ``cardtable ARGV(port)`` on a free port and wait until it answers there; its port. A port
    chosen free can be taken (another test's connection) before the server binds it: then another."""
    for attempt in range(tries):
        port = _free_port()
        proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", *argv(port)], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(proc)
        try:
            _wait(what, lambda p=port: _answers(p), proc)
            return port
        except AssertionError as exc:
            if "address already in use" not in str(exc).lower() or attempt == tries - 1:
                raise
    raise AssertionError(f"{what} never started")


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _env(path: Path, broker: str, dashboard: str, sessions: Path, backups: Path) -> Path:
    path.write_text(f"# test club\nBROKER_ARGS={broker}\nDASHBOARD_ARGS=\"{dashboard}\"\nSESSIONS={sessions}\n"
                    f"BACKUPS={backups}\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """A running club machine; yields its folders and club.env."""
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    from firmware_host.session.duplicate_session import Session

    base = tmp_path_factory.mktemp("club")
    certs, state, backups = base / "certs", base / "state", base / "backups"
    sessions = state / "sessions"
    sessions.mkdir(parents=True)
    backups.mkdir()
    made = _cli("club", "certs", "--dir", str(certs), "--host", "localhost", "--host", "127.0.0.1")
    assert made.returncode == 0, made.stderr
    Session.create(sessions / SESSION, make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2}),
                   analyse=False, synchronous="NORMAL").close()
    users = state / "users"
    added = _cli("club", "adduser", "--users", str(users), "director", "--password-stdin", stdin="a long secret\n")
    assert added.returncode == 0, added.stderr

    def broker_args(mqtt: int) -> str:
        return (f"--dir {state}/broker --bind 127.0.0.1 --port {mqtt} --tables 3 --certfile {certs}/broker.pem "
                f"--keyfile {certs}/broker.key")

    def dash_args(http: int) -> str:
        return (f"--broker-host localhost --broker-port {mqtt} --tls --ca-file {certs}/club-ca.pem "
                f"--mqtt-password-file {state}/broker/passwords/dashboard.password --users {users} "
                f"--host 127.0.0.1 --port {http}")

    procs: list[subprocess.Popen[str]] = []
    try:
        mqtt = _serve("the broker", lambda port: ["club", "broker", *broker_args(port).split()], procs)
        http = _serve("the dashboard", lambda port: ["club", "dashboard", *dash_args(port).split(), "--session",
                                                     str(sessions / SESSION)], procs)
        env = _env(base / "club.env", broker_args(mqtt), dash_args(http), sessions, backups)
        yield {"env": env, "certs": certs, "state": state, "sessions": sessions, "backups": backups, "base": base}
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()


def _setup(env: Path, session: str = "") -> object:
    return ClubOptions.parse(env.read_text(), str(env)).setup(session)


@needs
def test_a_ready_club_machine_passes_and_leaves_a_checked_backup(club: dict[str, Path],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["doctor", "--club", "--club-env", str(club["env"]), "--skip", "clock,service"])
    out = capsys.readouterr().out
    assert rc == 0, out
    names = [line.split()[1] for line in out.splitlines()]
    assert names == ["config", "broker", "dashboard", "tls", "disk", "session", "backup"], out
    assert "accepts the dashboard's user 'dashboard'" in out and "(TLS)" in out
    assert "broker certificate until" in out and "club CA until" in out
    (copy,) = club["backups"].glob(f"{SESSION}-*.sqlite3")
    with Journal.open_readonly(copy) as journal, \
            Journal.open_readonly(club["sessions"] / SESSION / "session.sqlite3") as live:
        assert journal.verify().ok and journal.head() == live.head()


@needs
def test_clock_and_service_lines_with_the_machine_answers(club: dict[str, Path]) -> None:
    """What the kernel and systemctl say is injected; every other check runs on the machine above."""
    def systemctl(argv: Sequence[str]) -> tuple[int, str]:
        if argv[1] == "list-units":
            return 0, f"cardtable-session@{SESSION}.service loaded active running cardtable: the duplicate session"
        return 0, "active" if argv[2] == "cardtable-broker.service" else "inactive"

    checks = run_club_checks(_setup(club["env"]), clock=lambda: 0, run=systemctl)  # type: ignore[arg-type]
    assert [c.name for c in checks] == list(CLUB_CHECKS)
    assert all(c.ok for c in checks), [c.line() for c in checks]
    assert f"cardtable-session@{SESSION}.service are active" in checks[-1].text
    unsynced = run_club_checks(_setup(club["env"]), ["broker", "dashboard", "tls", "disk", "session", "backup",
                                                     "service"], clock=lambda: 5)  # type: ignore[arg-type]
    assert [(c.name, c.ok) for c in unsynced] == [("clock", False)]


def test_services_down_name_the_unit_to_start() -> None:
    def down(argv: Sequence[str]) -> tuple[int, str]:
        return (3, "inactive") if argv[1] == "is-active" else (0, "")

    check = check_club_service(down)
    assert not check.ok and "cardtable-broker.service is inactive" in check.text and "enable --now" in check.text
    only_broker = check_club_service(lambda argv: (0, "active") if "cardtable-broker.service" in argv else (0, ""))
    assert not only_broker.ok and "no session runs" in only_broker.text
    assert "systemctl is not here" in check_club_service(lambda argv: (127, "")).text


@needs
def test_an_edited_journal_row_fails_the_session_check_and_the_cli_exits_1(
        club: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    other = club["base"] / "tampered"
    shutil.copytree(club["sessions"] / SESSION, other / SESSION)
    with sqlite3.connect(other / SESSION / "session.sqlite3") as db:
        db.execute("DROP TRIGGER journal_no_update")  # as someone editing the file by hand would
        db.execute("UPDATE journal SET body = replace(body, 'Test pairs', 'Fake pairs') WHERE seq = 1")
    env = _env(club["base"] / "tampered.env", "--tables 3", "--mqtt-password-file x --users y", other,
               club["backups"])
    rc = main(["doctor", "--club", "--club-env", str(env), "--skip", "broker,dashboard,tls,clock,service,backup"])
    out = capsys.readouterr().out
    assert rc == 1, out
    assert "FAIL  session" in out and "row 1" in out and "fix:" in out


@needs
def test_missing_folders_and_a_stopped_dashboard_and_a_wrong_password(club: dict[str, Path]) -> None:
    setup = _setup(club["env"])
    nowhere = club["base"] / "nowhere"
    assert "install -d" in check_session(replace(setup, sessions=nowhere)).text  # type: ignore[type-var]
    no_backups = check_backup(replace(setup, backups=nowhere))  # type: ignore[type-var]
    assert not no_backups.ok and str(nowhere) in no_backups.text and "install -d" in no_backups.text
    stopped = check_dashboard(replace(setup, dashboard_port=_free_port()), timeout=2)  # type: ignore[type-var]
    assert not stopped.ok and "no answer" in stopped.text
    mqtt_port = int(str(setup.broker_port))  # type: ignore[attr-defined]
    not_http = check_dashboard(replace(setup, dashboard_port=mqtt_port), timeout=2)  # type: ignore[type-var]
    assert not not_http.ok and "no answer" in not_http.text, not_http.text  # the broker's TLS port: not HTTP
    wrong = club["base"] / "wrong.password"
    wrong.write_text("not-the-password\n")
    refused = check_club_broker(replace(setup, password_file=wrong))  # type: ignore[type-var]
    assert not refused.ok and "refused user 'dashboard'" in refused.text
    plain = check_club_broker(replace(setup, broker_tls=False), timeout=2)  # type: ignore[type-var]
    assert not plain.ok and "fix:" in plain.text
    no_session = check_session(replace(setup, session="1999-01-01"))  # type: ignore[type-var]
    assert not no_session.ok and "1999-01-01" in no_session.text


@needs
def test_a_certificate_about_to_expire_or_not_a_certificate(club: dict[str, Path]) -> None:
    from firmware_host.club.certs import make_broker_cert

    soon = club["base"] / "soon"
    shutil.copytree(club["certs"], soon)
    (soon / "broker.pem").unlink()
    cert, key = make_broker_cert(soon, ["localhost"], days=10)
    setup = replace(_setup(club["env"]), tls_files=(("broker certificate", cert, True),))  # type: ignore[type-var]
    check = check_tls(setup)
    assert not check.ok and "expires" in check.text and "less than 30 days" in check.text
    key_as_cert = replace(setup, tls_files=(("broker certificate", key, True),))
    assert "is not a PEM certificate" in check_tls(key_as_cert).text
    missing = replace(setup, tls_files=(("club CA", soon / "gone.pem", True),))
    assert "does not exist" in check_tls(missing).text
    assert check_tls(replace(setup, tls_files=())).ok


@pytest.mark.parametrize(("text", "says"), [
    ("BROKER_ARGS=--tables 2\nSESSIONS=/s\nBACKUPS=/b\n", "no DASHBOARD_ARGS"),
    ("BROKER_ARGS=--tables 2\nDASHBOARD_ARGS=--users u --mqtt-password-file p --port eighty\nSESSIONS=/s\n"
     "BACKUPS=/b\n", "DASHBOARD_ARGS: argument --port: a port is a whole number from 0 to 65535, not 'eighty'"),
    ("BROKER_ARGS=--tables 2 --colour red\nDASHBOARD_ARGS=--users u --mqtt-password-file p\nSESSIONS=/s\n"
     "BACKUPS=/b\n", "BROKER_ARGS: unrecognized arguments: --colour red"),
    ("BROKER_ARGS=--tables 2\nDASHBOARD_ARGS=--users u --mqtt-password-file p\nSESSIONS=/my sessions\n"
     "BACKUPS=/b\n", "SESSIONS must be one folder"),
    ("just words\n", "line 1: not KEY=VALUE"),
    ("BROKER_ARGS=--tables 2 --dir 'a\nDASHBOARD_ARGS=--users u --mqtt-password-file p\nSESSIONS=/s\nBACKUPS=/b\n",
     "BROKER_ARGS: No closing quotation"),
    ("BROKER_ARGS=--tables 2 --help\nDASHBOARD_ARGS=--users u --mqtt-password-file p\nSESSIONS=/s\nBACKUPS=/b\n",
     "BROKER_ARGS: --help is not an option"),
    ("BROKER_ARGS=--tables 2\nDASHBOARD_ARGS=--users u\nSESSIONS=/s\nBACKUPS=/b\n",
     "the following arguments are required: --mqtt-password-file"),
])
def test_a_wrong_options_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     text: str, says: str) -> None:
    env = tmp_path / "club.env"
    env.write_text(text)
    assert main(["doctor", "--club", "--club-env", str(env)]) == 2
    captured = capsys.readouterr()
    assert captured.out.startswith("FAIL  config  ") and says in captured.out, captured.out
    assert str(env) in captured.out and len(captured.out.splitlines()) == 1
    assert "Traceback" not in captured.err


def test_an_unreadable_options_file_or_a_table_check_with_club(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--club", "--club-env", str(tmp_path / "none.env")]) == 2
    out = capsys.readouterr().out
    assert "none.env: cannot read it" in out and "install-files --club" in out
    env = tmp_path / "club.env"
    env.write_bytes(b"BROKER_ARGS=\xff\n")
    assert main(["doctor", "--club", "--club-env", str(env)]) == 2
    assert "cannot read it" in capsys.readouterr().out
    assert main(["doctor", "--club", "--club-env", str(env), "--skip", "camera"]) == 2
    assert "a table's check" in capsys.readouterr().err
    assert main(["doctor", "--club", "--club-env", str(env), "--session", "../etc"]) == 2
    assert "not a path" in capsys.readouterr().err


def test_the_shipped_options_file_is_read_by_the_doctor() -> None:
    setup = _setup(ROOT / "config" / "club.env")
    assert setup.broker_port == 8883 and setup.broker_tls and setup.mqtt_user == "dashboard"  # type: ignore[attr-defined]
    whats = [w for w, _, _ in setup.tls_files]  # type: ignore[attr-defined]
    assert whats == ["broker certificate", "broker key", "club CA"]


def test_every_command_doctor_club_prints_names_the_program_by_its_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """doctor --club's fixes said `cardtable club certs ...`, `cardtable duplicate open ...`, `sudo
    cardtable install-files --club`: the program is /opt/cardtable/venv/bin/cardtable (hardware/SETUP.md
    C1), not on the admin's PATH, so each copied as printed was "command not found"."""
    from tests.install.test_doctor import BARE

    program = str(Path(sys.executable).parent / "cardtable")
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    setup = replace(_setup(ROOT / "config" / "club.env"), sessions=sessions, backups=tmp_path)  # type: ignore[type-var]
    pem = tmp_path / "broker.pem"
    pem.write_text("not a certificate\n")

    def openssl(answer: tuple[int, str]) -> Callable[[Sequence[str]], tuple[int, str]]:
        return lambda argv: answer

    fixes = [
        check_tls(replace(setup, tls_files=(("club CA", tmp_path / "gone.pem", True),))).text,
        check_tls(replace(setup, tls_files=(("broker certificate", pem, True),)), run=openssl((1, ""))).text,
        check_tls(replace(setup, tls_files=(("broker certificate", pem, True),)),
                  run=openssl((1, "notAfter=Jan  1 00:00:00 2027 GMT"))).text,
        check_session(setup).text,
    ]
    assert main(["doctor", "--club", "--club-env", str(tmp_path / "none.env")]) == 2
    fixes.append(capsys.readouterr().out)
    for text in fixes:
        assert program in text and not BARE.search(text), text
    for text in fixes[:3]:
        assert f"sudo {program} club certs --dir {tmp_path} --host NAME" in text, text
    assert f"sudo -u cardtable {program} duplicate open --dir {sessions}/NAME" in fixes[3]
    assert f"sudo {program} install-files --club" in fixes[4]
