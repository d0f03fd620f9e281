"""hardware/SETUP.md on Trixie, as far as Debian's own packages show it: what a step says apt or systemctl
prints there is what Debian 13's print. Runs apt (`--assume-no`: nothing is downloaded or installed)
and systemctl (offline, on a folder of its own)
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


@pytest.mark.parametrize(("step", "verb", "unit", "wanted"), [
    ("7. ", "enable", "cardtable.service", "multi-user.target.wants/cardtable.service"),
    ("C1. ", "disable", "mosquitto.service", "multi-user.target.wants/mosquitto.service")])
def test_what_systemctl_prints_on_trixie_is_what_the_step_says(trixie: Path, tmp_path: Path, step: str, verb: str,
                                                               unit: str, wanted: str) -> None:
    """Steps 7 and C1 quoted systemd 252's lines (Bookworm's). Debian 13's systemd 257 quotes the paths
    (`Created symlink '...' → '...'.`, `Removed '...'.`): each step now gives the line as Trixie prints it.
    systemctl runs offline on a folder under the root's /tmp (`--root`), so the root's units stay as they
    are."""
    inner = Path("/tmp") / f"cardtable-{tmp_path.name}"
    base = trixie / inner.relative_to("/")
    try:
        system = base / "etc/systemd/system"
        system.mkdir(parents=True)
        shutil.copy(ROOT / "hardware/systemd/cardtable.service", system / "cardtable.service")
        (system / "mosquitto.service").write_text("[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n")
        if verb == "disable":
            assert _in_root("systemctl", f"--root={inner}", "enable", unit).returncode == 0
        proc = _in_root("systemctl", f"--root={inner}", verb, unit)
        assert proc.returncode == 0, proc.stderr
        line = next(ln for ln in (proc.stdout + proc.stderr).splitlines() if wanted in ln).replace(str(inner), "")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    text = " ".join(SETUP.split(f"\n## {step}", 1)[1].split("\n## ", 1)[0].split())
    assert f"`{line}`" in text, f"systemd 257 prints {line!r}; step {step.strip()} does not say so"
