"""hardware/SETUP.md step 1 on Trixie, as far as Debian's own packages show it: what the step says apt
prints there is what Debian 13's apt prints. Runs apt (`--assume-no`: nothing is downloaded or installed)
in the Debian 13 root tools/trixie-check.sh makes (`.cache/trixie-root`, or the folder `TRIXIE_ROOT`
names), as root; skipped where there is none (`make test` makes none: it would download a Debian root)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETUP = (ROOT / "hardware" / "SETUP.md").read_text(encoding="utf-8")
TRIXIE = Path(os.environ.get("TRIXIE_ROOT", ROOT / ".cache" / "trixie-root"))


def _in_root(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["chroot", str(TRIXIE), "/usr/bin/env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
                           "LANG=C.UTF-8", *argv], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def trixie() -> Path:
    if os.geteuid() != 0 or shutil.which("chroot") is None:
        pytest.skip("needs root and chroot (as tools/trixie-check.sh)")
    if not (TRIXIE / "usr/bin/apt").exists():
        pytest.skip(f"no Debian 13 root at {TRIXIE} (sudo tools/trixie-check.sh makes one)")
    if "trixie" not in (TRIXIE / "etc/os-release").read_text():
        pytest.skip(f"{TRIXIE} is not Debian 13")
    if "Candidate: (none)" in _in_root("apt-cache", "policy", "libzbar0t64").stdout:
        pytest.skip(f"{TRIXIE} has no package lists (apt-get update in it)")
    return TRIXIE


def test_what_step_1_says_apt_prints_for_libzbar0_is_what_trixie_apt_prints(trixie: Path) -> None:
    """Step 1 said apt prints `Note, selecting 'libzbar0t64' instead of 'libzbar0'` on Trixie. Debian 13's
    apt (3.0) prints no such note: libzbar0t64 provides libzbar0, and it is listed under `Installing:`.
    A volunteer told to stop at the first step that prints something else would have stopped there."""
    proc = _in_root("apt", "install", "--assume-no", "--no-install-recommends", "libzbar0")
    out = proc.stdout + proc.stderr
    assert "libzbar0t64" in out, out[-2000:]
    step = SETUP.split("\n## 1. ", 1)[1].split("\n## ", 1)[0]
    said = re.search(r"\(On Trixie, apt (.*?)\)", step, flags=re.S)
    assert said, "step 1 no longer says what apt prints on Trixie"
    for quoted in (" ".join(q.split()) for q in re.findall(r"`([^`]+)`", said.group(1))):
        assert quoted in out, f"step 1 says apt prints {quoted!r}; Debian 13's apt printed:\n{out[-2000:]}"
