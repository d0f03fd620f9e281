"""The duplicate soak's session faults (issue 28): the session as the club runs it (the dashboard's
process), a small Mitchell through a real Mosquitto, failed one way per test; the evening must end with
every confirmed result in the session exactly once (judged from the folder, ``dup_judge``) and no secret
shown.

The stall and the hostile messages failed on the session for the defects issue 28 names (items 3 and 1),
fixed there. The run then still failed on a table-side finding: the shoe dealt a board from a short pack
while the people were held up by the stall, the dealer's next pack was loaded first and the missing card
found in it (law 14 allows a card of another pack of the same back); the judge wanted no DB-14 because the
people had put nothing back (it now takes the shoe's own fault as the truth, ``short_pack``), and the table
sent the board to the shoe once more with all 52 cards placed, which was refused and journaled as an
error (``tests/table/test_duplicate_shoe.py``)."""

from __future__ import annotations

import shutil
import urllib.request
from pathlib import Path

import pytest

from firmware_host.soak.dup_club import ClubProcess, hostile_messages, secrets_shown
from firmware_host.soak.dup_evening import evening, table

needs_broker = pytest.mark.skipif(shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists(),
                                  reason="mosquitto is not installed (make test installs it)")


def _evening(tmp_path: Path, faults: tuple[str, ...]) -> None:
    result = evening(tmp_path, tables=3, boards=1, seed=11, faults=0, misboard_rate=0.3, session_faults=faults)
    text = table(result)
    assert all(result.table_faults.get(f"session {k}") for k in faults), text
    assert result.ok, text
    assert result.session["entries"] == result.session["due"] == 9, text


@needs_broker
@pytest.mark.slow
def test_the_session_killed_right_after_a_table_sent_keeps_every_result(tmp_path: Path) -> None:
    _evening(tmp_path, ("kill",))


@needs_broker
@pytest.mark.slow
def test_the_session_stalled_and_sent_hostile_messages_keeps_every_result(tmp_path: Path) -> None:
    _evening(tmp_path, ("stall", "hostile"))


def test_the_hostile_messages_are_what_the_soak_says() -> None:
    taken = {"type": "result", "table": "table-01", "source": "table-01:41", "t": 5.0, "board": 3, "tricks": 9}
    msgs = hostile_messages("table-01", taken)
    assert [t for t, _ in msgs].count("cardtable/table-01/status") == 1
    assert max(p.count(b"[") for _, p in msgs) == 2000 and len(msgs[-1][1]) > 65536
    reused = next(p for _, p in msgs if b'"seq": 41' in p)
    assert b'"tricks": 10' in reused and b'"board": 3' in reused


def test_a_secret_in_the_output_is_found() -> None:
    found = secrets_shown({"the secret": "s3cret-value", "table-01's password": "pw-12345678"},
                          ["log: ok", "state {'x': 'pw-12345678'}"])
    assert found == ["table-01's password"]
    assert secrets_shown({"the secret": "s3cret-value"}, ["nothing here"]) == []


def test_a_round_call_the_dashboard_does_not_answer_is_not_taken_and_says_why(tmp_path: Path) -> None:
    """A call not answered (the process being started again, or slow behind its stalled journal) is one the
    director makes again; it ended the soak with a traceback (URLError) before."""
    club = ClubProcess(tmp_path, tmp_path / "session", 1, tmp_path / "dashboard.password")
    club.opener, club.csrf = urllib.request.build_opener(), "token"   # logged in; its process is not running
    taken, why = club.call(2)
    assert not taken and why.startswith("the dashboard did not answer the call of round 2 ("), why
