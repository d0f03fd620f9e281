"""The directors' logins kept across a restart of the dashboard (``web.auth.Sessions``' store): a restart
logged every director out mid-evening. The file holds no token a reader could use (each is hashed), never
brings back a login that ended or whose director left the users file, and a file that cannot be read or
written costs the logins (as before there was one), never the dashboard."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from firmware_host.web.auth import Sessions, hash_password

USERS = {"alice": hash_password("pw-a"), "bob": hash_password("pw-b")}


class Clocks:
    def __init__(self) -> None:
        self.mono, self.wall = 100.0, 1_800_000_000.0

    def step(self, s: float) -> None:
        self.mono += s
        self.wall += s


def _sessions(store: Path, c: Clocks, users: dict[str, str] = USERS, ttl: float = 3600) -> Sessions:
    return Sessions(users, ttl, lambda: c.mono, store=store, wall=lambda: c.wall)


def test_a_login_and_its_csrf_token_outlive_a_restart_and_the_file_holds_no_token(tmp_path: Path) -> None:
    c, store = Clocks(), tmp_path / "users.logins"
    first = _sessions(store, c)
    token = first.open("alice")
    csrf = first.get(token).csrf  # type: ignore[union-attr]
    assert token not in store.read_text() and store.stat().st_mode & 0o777 == 0o600
    c.mono = 5.0   # a new process: its monotonic clock starts elsewhere; the wall clock goes on
    c.step(600)
    again = _sessions(store, c)
    s = again.get(token)
    assert s is not None and s.user == "alice" and again.check_csrf(s, csrf)
    c.step(3600 - 600)   # the login ends when it would have ended without the restart
    assert again.get(token) is None


def test_a_logout_an_ended_login_and_a_director_taken_off_are_not_brought_back(tmp_path: Path) -> None:
    c, store = Clocks(), tmp_path / "users.logins"
    first = _sessions(store, c, ttl=100)
    a, b = first.open("alice"), first.open("bob")
    first.logout(a)
    assert _sessions(store, c).get(a) is None
    assert _sessions(store, c, users={"alice": USERS["alice"]}).get(b) is None   # bob left the users file
    c.step(101)
    assert _sessions(store, c).get(b) is None


@pytest.mark.parametrize("text", ["{not json", '{"logins": [{"user": "alice"}]}', '{"logins": 3}', "[]",
                                  '{"logins": [{"token_sha256": "x", "user": "alice", "ends": "nan", "csrf": "y"}]}'])
def test_a_file_not_ours_is_left_aside_with_a_warning(tmp_path: Path, text: str,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    store = tmp_path / "users.logins"
    store.write_text(text)
    c = Clocks()
    with caplog.at_level(logging.WARNING):
        s = _sessions(store, c)
    assert "not the logins this server keeps" in caplog.text
    token = s.open("alice")               # the dashboard goes on, and writes the file anew
    assert json.loads(store.read_text())["logins"][0]["user"] == "alice" and s.get(token) is not None


def test_a_store_that_cannot_be_written_is_said_once_and_logins_go_on(tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    c = Clocks()
    s = _sessions(tmp_path / "no-such-folder" / "users.logins", c)
    with caplog.at_level(logging.WARNING):
        t1, t2 = s.open("alice"), s.open("bob")
    assert caplog.text.count("the logins cannot be kept") == 1
    assert s.get(t1) is not None and s.get(t2) is not None
