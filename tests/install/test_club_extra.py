"""The club's machine installs endplay through an extra of its own, `cardtable[club]` (issue 31): the
session's double dummy and par need it, and a machine without it is told that extra's name."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from firmware_host.session import analysis
from firmware_host.session.analysis import AnalysisError, SolvedDeals, analyse
from laws.duplicate.deal import Board, Deal

ROOT = Path(__file__).resolve().parents[2]
BOARD = Board.numbered(1, Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"))


def test_the_club_extra_names_endplay_at_the_tested_major_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    club = project["optional-dependencies"]["club"]
    assert any(req.replace(" ", "").startswith("endplay>=0.5,<0.6") for req in club), club
    assert "endplay" not in " ".join(project["dependencies"]), "a table does not need the solver"


def test_without_endplay_the_analysis_names_the_club_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "endplay" or m.startswith("endplay.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "endplay", None)  # `import endplay` now raises ImportError
    monkeypatch.setattr(analysis, "SOLVED", SolvedDeals())  # nothing solved before in this process
    with pytest.raises(AnalysisError) as caught:
        analyse([BOARD])
    assert "cardtable[club]" in str(caught.value) and "duplicate extras" not in str(caught.value)
