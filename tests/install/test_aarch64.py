"""Every runtime dependency a table installs with pip (the ones Raspberry Pi OS does not ship through
apt) resolves, with pip's own resolver under constraints.txt, to a binary wheel for a 64-bit Pi:
CPython 3.11 (bookworm's), manylinux up to glibc 2.28, aarch64. A Pi has no compiler set up, and
building OpenCV there would take hours (issue 14, item 2). Needs the package index (as `make test`
does anyway)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# pip does not widen a manylinux --platform to older glibc versions by itself: name each one.
PLATFORMS = ["manylinux2014_aarch64", *(f"manylinux_2_{minor}_aarch64" for minor in range(17, 29))]
FROM_APT = {"lgpio", "rpi-gpio", "picamera2"}  # python3-lgpio, python3-rpi.gpio, python3-picamera2


def test_runtime_dependencies_resolve_to_aarch64_wheels(tmp_path: Path) -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert not {d.split(">")[0].split("=")[0].split("<")[0].strip().lower() for d in deps} & FROM_APT
    report = tmp_path / "report.json"
    argv = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed",
            "--only-binary=:all:", "--python-version", "3.11", "--implementation", "cp", "--abi", "cp311",
            "--target", str(tmp_path / "target"), "--report", str(report), "-c", str(ROOT / "constraints.txt")]
    for platform in PLATFORMS:
        argv += ["--platform", platform]
    proc = subprocess.run([*argv, *deps], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    installs = json.loads(report.read_text())["install"]
    names = {item["metadata"]["name"].lower() for item in installs}
    assert {"numpy", "opencv-python-headless", "zxing-cpp", "pillow", "paho-mqtt"} <= names
    for item in installs:
        url = item["download_info"]["url"]
        assert url.endswith(".whl"), url
        tag = url.rsplit("/", 1)[-1][:-4].split("-")[-1]
        assert tag == "any" or "aarch64" in tag, url
