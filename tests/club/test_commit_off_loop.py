"""Issue 36: the session journal's commit (its fsync) never runs on the dashboard's event loop. A form the
session refuses is journaled (the refusal is the record), and a pair's players named on the director's
page are journaled: both commits run on a worker thread, and the page is answered after the commit.
Before the fix both ran on the loop (``_refuse_form`` and ``name_players`` called the journal directly)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.web.auth import hash_password
from tests.duplicate.sessionkit import make_setup

from .conftest import PASSWORDS, csrf, login


def _on_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.fixture
def dup(broker: Any, tmp_path: Path) -> Any:
    from starlette.testclient import TestClient

    from firmware_host.club.dashboard import Dashboard

    desk = SessionDesk(Session.create(tmp_path / "s", make_setup({"kind": "mitchell", "tables": 3,
                                                                  "boards_per_round": 2}),
                                      analyse=False, synchronous="NORMAL"))
    commits: list[tuple[bool, str]] = []
    journal = desk.session.journal
    real = journal.append_many

    def watched(rows: Any) -> Any:
        commits.append((_on_loop(), threading.current_thread().name))
        return real(rows)

    journal.append_many = watched  # type: ignore[method-assign]
    d = Dashboard("127.0.0.1", broker.port, "dashboard", PASSWORDS["dashboard"],
                  {"director": hash_password("right-horse-1")}, duplicate=desk)
    with TestClient(d.app, base_url="http://club.test") as client:
        login(client)
        yield desk, client, csrf(client), commits
    desk.session.close()


def _post(client: Any, path: str, body: Any, token: str) -> Any:
    return client.post(path, json=body, headers={"X-CSRF-Token": token, "Origin": "http://club.test"})


def test_a_refused_form_is_journaled_off_the_event_loop(dup: Any) -> None:
    desk, client, token, commits = dup
    before = len(commits)
    r = _post(client, "/api/duplicate/adjust", {"board": 1, "ns": "1 NS", "ew": "1 EW", "kind": "nonsense"}, token)
    assert r.status_code == 409, r.text
    assert len(commits) > before                         # the refusal was committed before the answer
    assert [on for on, _ in commits[before:]] == [False] * (len(commits) - before)


def test_a_request_that_is_not_an_object_is_journaled_off_the_event_loop(dup: Any) -> None:
    desk, client, token, commits = dup
    before = len(commits)
    r = _post(client, "/api/duplicate/round", ["not", "an", "object"], token)
    assert r.status_code == 400, r.text
    assert len(commits) > before and not any(on for on, _ in commits[before:])


def test_players_named_by_the_director_are_journaled_off_the_event_loop(dup: Any) -> None:
    desk, client, token, commits = dup
    before = len(commits)
    r = _post(client, "/api/duplicate/players", {"pair": "1 NS", "players": ["Ann Visitor", "Bob Visitor"]}, token)
    assert r.status_code in (200, 409), r.text
    assert len(commits) > before and not any(on for on, _ in commits[before:])
