"""The duplicate soak judged from its folder alone (issue 38): one small evening through the real
processes (the dealing station, tables with physical boards and with their shoe dealing, the club's
session on a real Mosquitto), judged honest; then every broken copy of its folder
(``tests/soak/dup_breakers.py``: journals re-hashed so the chain still verifies unless the break is the
chain) judged broken, by ``dup_judge`` and by ``cardtable soak --check DIR`` (exit 1), and a folder that is
not a soak's refused with one line and exit 2."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.soak.dup_disk import NotASoak
from firmware_host.soak.dup_evening import evening, table
from firmware_host.soak.dup_judge import judge
from firmware_host.soak.dup_schedule import make_dup_schedule
from firmware_host.soak.dup_session import boards_needed, boards_played
from tests.soak.dup_breakers import BREAKERS

pytestmark = pytest.mark.skipif(shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists(),
                                reason="mosquitto is not installed (make test installs it)")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("dupjudge")
    s = make_dup_schedule(3, boards_needed(3, 2), seed=5, faults=0, plays=boards_played(3, 2))
    first = {t.table: t.boards[0] for t in s.tables}
    # a misboarding at a table with boards and at the shoe's, a pack short of a card at the shoe's
    s = replace(s, misboard={(1, first[1]): "moved", (2, s.tables[1].boards[2]): "swapped",
                             (3, first[3]): "turned"}, short={2: (2,)})
    result = evening(work, tables=3, boards=2, schedule=s, session=True)
    assert result.ok, table(result)
    return work


def _copy(folder: Path, to: Path) -> Path:
    shutil.copytree(folder, to, ignore=shutil.ignore_patterns("*.fifo", "broker", "*.log", "shoe", "*.password"))
    return to


def test_the_honest_folder_holds_every_invariant(folder: Path, tmp_path: Path) -> None:
    v = judge(_copy(folder, tmp_path / "copy"))
    assert v.ok, v.all_problems
    assert v.tables.misboarded == v.tables.caught_first >= 3 and v.tables.false_alarms == 0
    assert v.session == {"results": 18, "due": 18, "refused": 0} and len(v.chains) == 5
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "soak", "--check", str(tmp_path / "copy")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "every invariant holds" in p.stdout, p.stdout + p.stderr


def test_issue_38s_kinds_are_all_here() -> None:
    assert len(BREAKERS) >= 48


@pytest.mark.parametrize("name", sorted(BREAKERS))
def test_every_broken_copy_fails(folder: Path, tmp_path: Path, name: str) -> None:
    copy = _copy(folder, tmp_path / "copy")
    BREAKERS[name](copy)
    v = judge(copy)                      # never an exception: a broken soak is a verdict
    assert not v.ok, f"{name} passed"


@pytest.mark.parametrize("name, said", [("session: a result dropped", "PROBLEM: session:"),
                                        ("table: its journal's bytes overwritten", "PROBLEM: table 1's journal:")])
def test_the_command_says_a_broken_copy_fails_with_exit_1(folder: Path, tmp_path: Path, name: str, said: str) -> None:
    copy = _copy(folder, tmp_path / "copy")
    BREAKERS[name](copy)
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "soak", "--check", str(copy)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and said in p.stdout and "Traceback" not in p.stderr, p.stdout + p.stderr


@pytest.mark.parametrize("plan", [None, "{not json", '{"soak": "table"}', '{"soak": "duplicate", "version": 1}',
                                  '{"soak": "duplicate", "version": 1, "seed": 1, "session": true, '
                                  '"tables": [{"table": 1, "how": "board", "boards": [1], "journal": "../x"}]}'])
def test_a_folder_that_is_not_a_soaks_is_one_line_and_exit_2(tmp_path: Path, plan: str | None) -> None:
    if plan is not None:
        (tmp_path / "soak.json").write_text(plan, encoding="utf-8")
    with pytest.raises(NotASoak):
        judge(tmp_path)
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "soak", "--check", str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr and str(tmp_path) in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
