"""`cardtable soak`: bad options are one message and exit 2; a failed invariant is exit 1 with the table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.soak.checker import Findings


@pytest.mark.parametrize("args, word", [(["--games", "whist"], "--games"), (["--deals", "0"], "--deals"),
                                        (["--fault-kinds", "flood"], "--fault-kinds"),
                                        (["--mistake-rate", "2"], "--mistake-rate"),
                                        (["--duplicate", "--session-faults", "flood"], "--session-faults")])
def test_bad_options_are_one_message_and_exit_2(args: list[str], word: str) -> None:
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "soak", *args], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and word in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_a_failed_invariant_is_exit_1_and_names_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    def fake_evening(**kw: Any) -> list[Findings]:
        good = Findings("contract-bridge", deals=3, deal_starts=3, verified=True)
        bad = Findings("euchre", deals=3, deal_starts=3, verified=True, false_rulings=1,
                       problems=["deal 2: expected none, got EU-33/redeal"])
        return [good, bad]

    monkeypatch.setattr("firmware_host.soak.driver.evening", fake_evening)
    assert main(["soak", "--deals", "6", "--workdir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "false rulings" in out and "FAIL" in out and "euchre: deal 2: expected none" in out


def test_duplicate_boards_is_named_boards_a_round(capsys: pytest.CaptureFixture[str]) -> None:
    """``--boards`` is the Mitchell's boards a round (``dup_evening.evening``), not every table's boards."""
    with pytest.raises(SystemExit):
        main(["soak", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "boards a round of the session's Mitchell (default 6; 2 or more)" in text, text
    assert "boards every table plays" not in text
