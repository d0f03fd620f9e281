"""A finished duplicate session (three tables, three boards, through real tables on a real Mosquitto),
made once for the broadcast's tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def session_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    from firmware_host.evening.duplicate_evening import DuplicateDemo

    out = tmp_path_factory.mktemp("bc") / "session"
    DuplicateDemo(out, 3, 3, "mitchell", seed=3, analyse=False).run(timeout=180)
    return out


@pytest.fixture(scope="module")
def journals(session_dir: Path) -> list[Path]:
    return sorted((session_dir / "tables").glob("*/journal.sqlite3"))
