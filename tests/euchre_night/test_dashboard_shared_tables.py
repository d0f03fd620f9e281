"""Audit a11 #4: ``club dashboard --euchre`` beside ``--session`` (or an ``--event`` on the same club
tables) published both seatings, retained, on the one topic each table reads,
``cardtable/session/table/<table>``: the later overwrote the earlier, a table connecting later got only
one, and a restarting euchre table never got its seating back. Refused at the start instead, one line,
exit 2, nothing served (``docs/euchre.md``, "On the director's server")."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.club.broker import DASHBOARD_USER, free_port
from firmware_host.commands.club import shared_tables
from firmware_host.euchre_night.session import NightSession
from firmware_host.events.session import EventSession
from firmware_host.session.duplicate_session import Session
from firmware_host.web.auth import add_user
from laws.competition.event_spec import EventKind, EventSpec
from tests.duplicate.sessionkit import make_setup
from tests.euchre_night.test_pages import USERS
from tests.euchre_night.test_session import setup


def _base(tmp: Path) -> list[str]:
    add_user(tmp / "directors", "director", "table-talk-1")
    (tmp / "dash.pw").write_text(USERS[DASHBOARD_USER] + "\n")
    NightSession.create(tmp / "night", setup()).close()
    return ["club", "dashboard", "--users", str(tmp / "directors"), "--mqtt-password-file", str(tmp / "dash.pw"),
            "--port", str(free_port()), "--euchre", str(tmp / "night")]


def test_a_euchre_night_beside_a_session_on_the_same_tables_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Session.create(tmp_path / "s", make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2}),
                   analyse=False).close()
    assert main([*_base(tmp_path), "--session", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("club dashboard: --euchre and --session both seat table-01, table-02: ")
    assert "cardtable/session/table/<table>" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    Session.open(tmp_path / "s", analyse=False).close()     # left closed: it opens again


def test_a_euchre_night_beside_an_event_is_refused_only_on_shared_tables(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    EventSession.create(tmp_path / "e", EventSpec(EventKind.INDIVIDUAL, 8, 7, 2), ("table-02", "x9")).close()
    assert main([*_base(tmp_path), "--event", str(tmp_path / "e")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("club dashboard: --euchre and --event both seat table-02: ") and len(err.splitlines()) == 1
    assert shared_tables(("table-01", "table-02"), ("x1", "x2")) == ""
    many = tuple(f"table-{k:02d}" for k in range(1, 7))
    assert shared_tables(many, many) == "table-01, table-02, table-03 and 3 more"
