"""The double-dummy solver's scratch folder of a process killed outright (``kill -9``, a power cut) is removed
by the next process that uses the solver, so a club machine's /tmp does not fill evening by evening; a
folder whose process still runs is left. (Before: each process removed only its own folder at exit, and
29 were left in /tmp here by processes the tests kill.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from firmware_host.session.analysis import SCRATCH_PREFIX, sweep_stale_scratch


def _gone_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_dead_process_s_folder_goes_and_a_live_one_s_stays(tmp_path: Path) -> None:
    dead = tmp_path / f"{SCRATCH_PREFIX}{_gone_pid()}-abc"
    mine = tmp_path / f"{SCRATCH_PREFIX}{os.getpid()}-def"
    parent = tmp_path / f"{SCRATCH_PREFIX}{os.getppid()}-ghi"
    other = tmp_path / "cardtable-dds-notapid"
    for folder in (dead, mine, parent, other):
        folder.mkdir()
        (folder / "dump.txt").write_text("x", encoding="ascii")
    assert sweep_stale_scratch(tmp_path) == [dead.name]
    assert not dead.exists() and mine.is_dir() and parent.is_dir() and other.is_dir()


def test_the_solver_s_own_folder_is_named_with_its_process(tmp_path: Path) -> None:
    """Run in a process of its own: its scratch folder carries its number, and a stale one is swept first."""
    stale = tmp_path / f"{SCRATCH_PREFIX}{_gone_pid()}-old"
    stale.mkdir()
    code = (
        "import tempfile, sys; tempfile.tempdir = sys.argv[1]\n"
        "from firmware_host.session.analysis import in_scratch_folder, _SCRATCH\n"
        "import os; in_scratch_folder(lambda: None); print(os.path.basename(_SCRATCH.folder))\n"
    )
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 0, run.stderr
    name = run.stdout.strip()
    assert name.startswith(SCRATCH_PREFIX) and name.split("-")[2].isdigit(), name
    assert not stale.exists()
    assert not (tmp_path / name).exists()          # its own, removed at its exit
