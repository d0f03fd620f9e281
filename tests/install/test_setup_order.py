"""hardware/SETUP.md run in order (issue 21): each step's own checks pass when the steps before it were
done, and no step tells the volunteer to do something that fails because a later step is not done yet."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.cli import main

ROOT = Path(__file__).resolve().parents[2]
SETUP = (ROOT / "hardware" / "SETUP.md").read_text(encoding="utf-8")


def test_install_files_does_not_say_enable_before_a_configuration_exists(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install-files", "--root", str(tmp_path), "--program", "/opt/cardtable/venv/bin/cardtable"]) == 0
    out = capsys.readouterr().out
    assert "enable --now" not in out, out
    assert "config init" in out
    conf = tmp_path / "etc" / "cardtable" / "table.toml"
    conf.parent.mkdir(parents=True)
    conf.write_text("[table]\n")
    assert main(["install-files", "--root", str(tmp_path), "--program", "/opt/cardtable/venv/bin/cardtable"]) == 0
    assert "enable --now cardtable" in capsys.readouterr().out


def _steps() -> list[tuple[str, str]]:
    """(heading, text) of each numbered section."""
    parts = re.split(r"^## ", SETUP, flags=re.M)[1:]
    return [(p.splitlines()[0], p) for p in parts]


def test_the_state_folder_is_made_before_doctor_runs() -> None:
    text = SETUP
    made = text.find("install -d -o cardtable -g cardtable -m 0750 /var/lib/cardtable")
    doctor = text.find("cardtable doctor --config")
    assert 0 <= made < doctor, "the state folder must exist before `doctor` checks it"


def test_setup_says_the_unit_takes_the_login_prompt_off_the_screen() -> None:
    assert "Conflicts=getty@tty1" in SETUP
    assert "login prompt" in SETUP


def test_the_contract_tests_step_gives_lgpio_a_folder() -> None:
    step = next(t for h, t in _steps() if h.startswith("6."))
    assert "LG_WD" in step


def test_setup_says_auto_prefers_lgpio_on_every_model() -> None:
    assert "RPi.GPIO on a Pi 4" not in SETUP
    assert "lgpio on every model" in SETUP or "lgpio first" in SETUP
