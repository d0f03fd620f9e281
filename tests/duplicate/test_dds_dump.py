"""DDS writes ``dump.txt`` in the working folder when it refuses a deal (issue 30: one was committed at
the repository's root). Every call into the solver runs in a scratch folder of its own: a refused deal
leaves nothing in the user's folder, and the process's working folder never moves."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware_host.duplicate.analysis import Analyser, AnalysisError, analyse
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


def test_a_deal_the_solver_refuses_leaves_no_dump_in_the_working_folder(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AnalysisError, match="boards 1-1: the solver failed"):
        analyse([_BrokenBoard()])  # type: ignore[list-item]
    assert os.getcwd() == str(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_background_analyser_leaves_no_dump_either(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    analyser = Analyser([_BrokenBoard()]).start()  # type: ignore[list-item]
    assert analyser.all(timeout=60) == {} and analyser.problem is not None
    assert list(tmp_path.iterdir()) == []
