"""`make test` sets up what the suite needs (README.md, "The two commands"): every program a test looks
for with ``shutil.which`` comes from a Debian package the Makefile's ``TEST_DEBS`` installs (or from
the step that installs Node for MicroPython). A test that skips when its program is missing would
otherwise skip on every fresh machine, and `make test` would pass without running it: the terminal
screen's tests skipped so for want of tmux."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The Debian package each program comes from. A test that looks for a program not named here fails
# `test_every_program_a_test_looks_for_is_installed_by_make_test` until it is added (and installed).
PACKAGE = {
    "mosquitto": "mosquitto",
    "mosquitto_passwd": "mosquitto",
    "openssl": "openssl",
    "pdftoppm": "poppler-utils",
    "systemd-analyze": "systemd",
    "tmux": "tmux",
    "node": "nodejs",
    "chroot": "coreutils",
}
# Installed on every Debian system, or by another step of `make test` than TEST_DEBS.
ESSENTIAL = {"coreutils"}
NODE_STEP = ROOT / "tools" / "ensure-micropython.sh"


def programs_looked_for(root: Path = ROOT / "tests") -> set[str]:
    """Every program a test file asks ``shutil.which`` for (module docstring)."""
    found: set[str] = set()
    for path in root.rglob("*.py"):
        found |= set(re.findall(r"""shutil\.which\(\s*["']([^"']+)["']""", path.read_text(encoding="utf-8")))
    return found


def makefile_test_debs(makefile: str) -> set[str]:
    """The packages of the Makefile's ``TEST_DEBS`` line."""
    line = re.search(r"^TEST_DEBS\s*:?=(.*)$", makefile, re.M)
    assert line, "the Makefile has no TEST_DEBS line"
    return set(line.group(1).split())



def not_installed(programs: set[str], debs: set[str], node_step: str) -> list[str]:
    """The programs of ``programs`` that no step of `make test` installs, each with why."""
    bad = []
    for program in sorted(programs):
        package = PACKAGE.get(program)
        if package is None:
            bad.append(f"{program}: which Debian package? (add it to PACKAGE and to TEST_DEBS)")
        elif package in ESSENTIAL or package in debs or (package == "nodejs" and "nodejs" in node_step):
            continue
        else:
            bad.append(f"{program}: Debian package {package} is not in the Makefile's TEST_DEBS")
    return bad


def test_every_program_a_test_looks_for_is_installed_by_make_test() -> None:
    programs = programs_looked_for()
    assert {"mosquitto", "tmux", "openssl"} <= programs        # the finder finds
    debs = makefile_test_debs((ROOT / "Makefile").read_text(encoding="utf-8"))
    assert not_installed(programs, debs, NODE_STEP.read_text(encoding="utf-8")) == []


def test_the_check_fails_on_a_package_left_out_or_a_program_unknown() -> None:
    debs = makefile_test_debs((ROOT / "Makefile").read_text(encoding="utf-8"))
    node = NODE_STEP.read_text(encoding="utf-8")
    assert not_installed({"tmux"}, debs - {"tmux"}, node) == [
        "tmux: Debian package tmux is not in the Makefile's TEST_DEBS"]
    assert not_installed({"gnuplot"}, debs, node)[0].startswith("gnuplot: which Debian package?")
    assert not_installed({"node"}, debs, "") != []
