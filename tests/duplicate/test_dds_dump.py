"""DDS writes ``dump.txt`` in the working folder when it refuses a deal (issue 30: one was committed at
the repository's root). Every call into the solver runs in a scratch folder of its own: a refused deal
leaves nothing in the user's folder, and the process's working folder never moves."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from laws.cards import Seat
from laws.duplicate.boards import Vulnerability

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class _ShortDeal:
    """A deal one card short: what a hand record can never be, fed straight to the solver on purpose."""

    def pbn(self) -> str:
        return "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ8"


@dataclass(frozen=True)
class _BrokenBoard:
    number: int = 1
    deal: _ShortDeal = _ShortDeal()
    dealer: Seat = Seat.N
    vulnerability: Vulnerability = Vulnerability.NONE


def test_the_repository_holds_no_solver_dump() -> None:
    assert not (ROOT / "dump.txt").exists()


_CHILD = """
import os, sys
sys.path.insert(0, {root!r})
from tests.duplicate.test_dds_dump import _BrokenBoard
from firmware_host.session.analysis import Analyser, AnalysisError, analyse
if sys.argv[1] == "analyse":
    try:
        analyse([_BrokenBoard()])
    except AnalysisError as exc:
        assert "boards 1-1: the solver failed" in str(exc), exc
    else:
        raise SystemExit("the solver took a deal one card short")
else:
    analyser = Analyser([_BrokenBoard()]).start()
    assert analyser.all(timeout=60) == {{}} and analyser.problem is not None
assert os.getcwd() == sys.argv[2], os.getcwd()
print("done")
"""


def _in_child(how: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """The solver fed a deal one card short, in a process of its own: DDS may crash the process on such
    a deal (it did, once in a full run, after other solves in the same process), and a crash must not
    take the test run with it. Whatever it did, nothing may be left in the working folder."""
    return subprocess.run([sys.executable, "-c", _CHILD.format(root=str(ROOT)), how, str(folder)], cwd=folder,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("how", ["analyse", "analyser"])
def test_a_deal_the_solver_refuses_leaves_no_dump_in_the_working_folder(tmp_path: Path, how: str) -> None:
    done = _in_child(how, tmp_path)
    assert list(tmp_path.iterdir()) == []
    if done.returncode >= 0:      # not killed by a signal (a DDS crash): then it must have said why
        assert done.returncode == 0 and "done" in done.stdout, done.stderr[-2000:]
