"""hardware/SETUP.md step 6 as a volunteer runs it (issue 31): with only what step 1 and step 6 install in
the table's venv, `pytest -m hardware tests/` collects every test file (it stopped with "6 errors during
collection": five files import endplay, one segno, which step 6 did not install).

The venv is imitated in a subprocess of this one: an import hook refuses every installed distribution that
is neither cardtable's runtime dependency (with theirs) nor one step 6 names (with theirs), so a module a
test file needs and the step does not install fails collection here as it would on the Pi."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
SETUP = (ROOT / "hardware" / "SETUP.md").read_text(encoding="utf-8")

_CHILD = r"""
import importlib.abc, importlib.metadata as md, json, sys
from packaging.requirements import Requirement

allowed_roots = json.loads(sys.argv[1])

def closure(names):
    seen, todo = set(), [n.lower().replace("_", "-") for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            reqs = md.requires(name) or []
        except md.PackageNotFoundError:
            continue
        for text in reqs:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name.lower().replace("_", "-"))
    return seen

allowed = closure(allowed_roots) | {"cardtable"}
blocked = {mod for mod, dists in md.packages_distributions().items()
           if not {d.lower().replace("_", "-") for d in dists} & allowed}
blocked -= set(sys.stdlib_module_names) | {"laws", "firmware_host", "vision", "tests", "_pytest", "pytest",
                                            "py", "pluggy", "iniconfig", "packaging"}

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r} (not installed by SETUP steps 1 and 6)")
        return None

sys.meta_path.insert(0, NotInstalled())
import pytest
sys.exit(pytest.main(["--collect-only", "-q", "-m", "hardware", "-p", "no:cacheprovider", "-p", "no:xdist",
                      "-p", "no:randomly", *sys.argv[2:]]))
"""


def step6_packages() -> list[str]:
    """The packages step 6's `pip install` line names."""
    step = SETUP.split("\n## 6.", 1)[1].split("\n## ", 1)[0]
    line = next(ln for ln in step.splitlines() if "/pip install" in ln)
    words = line.split("pip install", 1)[1].split()
    names, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-c", "--constraint"):
            skip = True
        elif not word.startswith("-"):
            names.append(Requirement(word.strip("'\"")).name)
    return names


def _collect(roots: list[str], *paths: str) -> subprocess.CompletedProcess[str]:
    import json

    project = __import__("tomllib").loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = [Requirement(d).name for d in project["dependencies"]]
    return subprocess.run([sys.executable, "-c", _CHILD, json.dumps(runtime + roots), *paths], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          # plugins of distributions the Pi has not (trio registers one with hypothesis) stay out
                          env={"PATH": "/usr/bin:/bin", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
                               "HYPOTHESIS_NO_PLUGINS": "1"})


def test_step6_installs_what_the_hardware_tests_need_to_collect() -> None:
    packages = step6_packages()
    assert {"pytest", "pytest-timeout"} <= set(packages), packages
    proc = _collect(packages, "tests/")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    selected = re.findall(r"^(tests/\S+_hardware\.py)::", proc.stdout, flags=re.M)
    assert {"tests/devices/test_panel_hardware.py", "tests/vision/test_camera_hardware.py"} <= set(selected)


def test_the_check_sees_a_package_the_step_leaves_out() -> None:
    """Without endplay (as step 6 was), the files that import it fail collection here."""
    packages = [p for p in step6_packages() if p.lower() != "endplay"]
    proc = _collect(packages, "tests/records/test_pbn.py")
    assert proc.returncode != 0 and "endplay" in proc.stdout + proc.stderr
