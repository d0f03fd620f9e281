"""`cardtable club ...` and `cardtable bench club --quick`: arguments, messages, exit codes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.web.auth import check_password, load_users


def test_adduser_from_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    users = tmp_path / "directors"
    monkeypatch.setattr("sys.stdin", io.StringIO("long-password-9\n"))
    assert main(["club", "adduser", "--users", str(users), "alice", "--password-stdin"]) == 0
    assert check_password("long-password-9", load_users(users)["alice"])
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert main(["club", "adduser", "--users", str(users), "bob", "--password-stdin"]) == 2
    assert "at least 8 characters" in capsys.readouterr().err


def test_bad_arguments_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["club", "broker", "--dir", str(tmp_path / "b"), "--table", "dashboard"]) == 2
    assert "not allowed" in capsys.readouterr().err
    assert main(["club", "broker", "--dir", str(tmp_path / "b")]) == 2
    assert "name the tables" in capsys.readouterr().err
    assert main(["club", "demo", "--tables", "0"]) == 2
    assert "--tables must be 1-500" in capsys.readouterr().err
    pw = tmp_path / "pw"
    pw.write_text("x\n")
    assert main(["club", "dashboard", "--users", str(tmp_path / "none"), "--mqtt-password-file", str(pw)]) == 2
    err = capsys.readouterr().err
    # SETUP C6: without a director the dashboard says to add one (the file does not exist before the first)
    assert "cannot read the users file" in err and "`cardtable club adduser --users" in err, err
    assert len(err.strip().splitlines()) == 1 and "Errno" not in err, err


def test_dashboard_on_a_busy_port_says_so_in_one_line_before_any_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Audit 65 F10: on a port already taken it printed "dashboard on http://...", then uvicorn's raw
    "ERROR: [Errno 98] ..." and exited 3 (or 1). Now one line naming the port, nothing announced, exit 2."""
    import socket

    users = tmp_path / "directors"
    monkeypatch.setattr("sys.stdin", io.StringIO("long-password-9\n"))
    assert main(["club", "adduser", "--users", str(users), "alice", "--password-stdin"]) == 0
    capsys.readouterr()
    pw = tmp_path / "pw"
    pw.write_text("x\n")
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        code = main(["club", "dashboard", "--users", str(users), "--mqtt-password-file", str(pw),
                     "--host", "127.0.0.1", "--port", str(port), "--broker-port", "1"])
    out = capsys.readouterr()
    assert code == 2
    assert out.out == ""                                      # no address announced
    assert out.err.strip().splitlines() == [
        f"club dashboard: --port {port}: cannot listen on 127.0.0.1:{port} (Address already in use)"]


def test_bench_club_quick_prints_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.club.broker import mosquitto_binary
    from tests.browser import missing

    try:
        mosquitto_binary()
    except RuntimeError as exc:
        pytest.skip(str(exc))
    if missing():
        pytest.skip(missing())
    assert main(["bench", "club", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    run = figures["runs"][0]
    assert run["tables"] == 5 and run["displayed_per_s"] > 0 and run["p99_ms"] > 0


def test_broker_refuses_a_busy_port_and_a_certificate_that_is_no_pem_before_mosquitto_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``club broker --port P`` with P taken, and ``--certfile``/``--keyfile`` naming files that are not a
    PEM pair, started mosquitto, which said so in five lines of its own log ("Error: Address already in
    use", "Unable to load server certificate ... PEM routines::no start line"), exit 1: the exit status a
    unit restarts on, for a fault only the user can fix. Now one line naming the option, exit 2."""
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        busy = taken.getsockname()[1]
        assert main(["club", "broker", "--dir", str(tmp_path / "b"), "--tables", "1", "--port", str(busy)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"club broker: --port {busy}: cannot listen on 127.0.0.1:{busy} ("), err
    assert len(err.strip().splitlines()) == 1 and "mosquitto" not in err
    junk = tmp_path / "junk.pem"
    junk.write_bytes(b"\x98\x00 not a certificate")
    assert main(["club", "broker", "--dir", str(tmp_path / "b"), "--tables", "1", "--port", "0",
                 "--certfile", str(junk), "--keyfile", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"club broker: --certfile {junk} --keyfile {junk}: not a PEM certificate"), err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "b" / "mosquitto.conf").exists()


def test_demo_refuses_a_busy_port_and_a_dir_that_cannot_be_a_folder(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``club demo --port P`` with P taken started the broker and the tables, then said "the dashboard did
    not start on port P" after uvicorn's own ERROR line, exit 1; ``--dir notes.txt`` said "[Errno 20] Not a
    directory: 'notes.txt/broker'", exit 1. Both are bad input: one line naming the option, exit 2."""
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        busy = taken.getsockname()[1]
        assert main(["club", "demo", "--tables", "1", "--dir", str(tmp_path / "d"), "--port", str(busy)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"club demo: --port {busy}: cannot listen on 127.0.0.1:{busy} ("), err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "d").exists()
    notes = tmp_path / "notes.txt"
    notes.write_text("x\n")
    for folder in (notes, notes / "demo"):
        assert main(["club", "demo", "--tables", "1", "--dir", str(folder), "--duration", "1"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"club demo: --dir {folder}: cannot be the demo's folder ("), err
        assert len(err.strip().splitlines()) == 1 and notes.read_text() == "x\n"
