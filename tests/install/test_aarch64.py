"""Every runtime dependency a table installs with pip (the ones Raspberry Pi OS does not ship through
apt) resolves, with pip's own resolver under constraints.txt, to a binary wheel for a 64-bit Pi, on both
Raspberry Pi OS releases a club may have: bookworm (CPython 3.11) and trixie (CPython 3.13), manylinux up
to each release's glibc, aarch64. A Pi has no compiler set up, and building OpenCV there would take hours
(issue 14, item 2; issue 31, item 1). The club's extra (`cardtable[club]`, endplay for double dummy and
par) must resolve the same way, and the test extras must resolve for Python 3.13 on x86-64, where the suite
runs on Debian 13 (tools/trixie-check.sh). Needs the package index (as `make test` does anyway).

pip evaluates a constraint's environment marker (``; python_version < "3.12"``) against the Python that
runs pip, not against ``--python-version``: each target's constraints are therefore written out first with
the markers evaluated for that target, as pip on that Pi would read them."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
FROM_APT = {"lgpio", "rpi-gpio", "picamera2"}  # python3-lgpio, python3-rpi.gpio, python3-picamera2
# Raspberry Pi OS release -> (its Python, its glibc's minor version)
RELEASES = {"bookworm": ("3.11", 36), "trixie": ("3.13", 41)}


def constraints_for(python: str, machine: str, text: str) -> str:
    """constraints.txt as pip on ``python`` (``3.13``) on a Linux ``machine`` reads it: each line whose
    marker does not hold is dropped, and the markers of the others are gone."""
    env = {"python_version": python, "python_full_version": f"{python}.0", "platform_machine": machine,
           "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
           "implementation_name": "cpython", "platform_python_implementation": "CPython"}
    kept = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(env):
            req.marker = None
            kept.append(str(req))
    return "\n".join(kept) + "\n"


def _resolve(tmp_path: Path, python: str, machine: str, glibc: int, requirements: list[str]) -> list[dict]:
    """pip's resolver, binary wheels only, for that Python on manylinux ``machine``: the install report."""
    constraints = tmp_path / f"constraints-{python}-{machine}.txt"
    constraints.write_text(constraints_for(python, machine, (ROOT / "constraints.txt").read_text()))
    report = tmp_path / "report.json"
    abi = "cp" + python.replace(".", "")
    argv = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed",
            "--only-binary=:all:", "--python-version", python, "--implementation", "cp", "--abi", abi,
            "--target", str(tmp_path / "target"), "--report", str(report), "-c", str(constraints)]
    # pip does not widen a manylinux --platform to older glibc versions by itself: name each one.
    for platform in [f"manylinux2014_{machine}", *(f"manylinux_2_{m}_{machine}" for m in range(17, glibc + 1))]:
        argv += ["--platform", platform]
    proc = subprocess.run([*argv, *requirements], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{python} {machine}: " + proc.stderr[-3000:]
    installs: list[dict] = json.loads(report.read_text())["install"]
    for item in installs:
        url = item["download_info"]["url"]
        assert url.endswith(".whl"), url
        tag = url.rsplit("/", 1)[-1][:-4].split("-")[-1]
        assert tag == "any" or machine in tag, url
    return installs


def _versions(installs: list[dict]) -> dict[str, str]:
    return {i["metadata"]["name"].lower(): i["metadata"]["version"] for i in installs}


@pytest.mark.parametrize("release", sorted(RELEASES))
def test_runtime_and_club_dependencies_resolve_to_aarch64_wheels(tmp_path: Path, release: str) -> None:
    python, glibc = RELEASES[release]
    deps = PROJECT["dependencies"]
    assert not {Requirement(d).name.lower() for d in deps} & FROM_APT
    versions = _versions(_resolve(tmp_path, python, "aarch64", glibc, [*deps, *PROJECT["optional-dependencies"]["club"]]))
    assert {"numpy", "opencv-python-headless", "zxing-cpp", "pillow", "paho-mqtt", "endplay"} <= set(versions)
    # apt's picamera2 is built against the release's own NumPy: 1.x on bookworm, 2.x on trixie
    assert versions["numpy"].startswith("1." if release == "bookworm" else "2."), versions["numpy"]


def test_the_test_extras_resolve_for_python_3_13_on_x86_64(tmp_path: Path) -> None:
    """What `make setup` installs on Debian 13 (x86-64), where tools/trixie-check.sh runs the suite."""
    extras = PROJECT["optional-dependencies"]
    versions = _versions(_resolve(tmp_path, "3.13", "x86_64", 41, [*PROJECT["dependencies"], *extras["test"]]))
    assert {"pytest", "endplay", "segno", "selenium"} <= set(versions)


def test_constraints_for_keeps_only_the_lines_whose_marker_holds() -> None:
    """The helper above must be able to fail: a 3.11-only line is dropped for 3.13, and kept for 3.11."""
    text = 'numpy==1.26.4; python_version < "3.12"\nnumpy==2.2.4; python_version >= "3.12"\npyserial==3.5\n'
    assert constraints_for("3.13", "aarch64", text) == "numpy==2.2.4\npyserial==3.5\n"
    assert constraints_for("3.11", "aarch64", text) == "numpy==1.26.4\npyserial==3.5\n"
