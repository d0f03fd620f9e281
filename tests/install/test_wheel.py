"""The wheel is the program (issue 14, item 3): built from this repository, installed into a fresh venv
and run from another folder, it has its firmware, example logs, configuration template, unit and udev
rule, and builds without setuptools deprecation warnings.

The fresh venv gets the program only from the wheel (``--no-deps``); its third-party dependencies come
from this test venv's site-packages through a ``.pth`` line. Those are the versions of constraints.txt,
which is what a table's ``pip install -c constraints.txt`` gets, without unpacking OpenCV and NumPy
again (that would take longer than the rest of the test). The test checks that ``firmware_host`` is
imported from the new venv, not from the checkout.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _copy_source(dest: Path) -> None:
    """The files a clone of this checkout would have (tracked, or new and not ignored): never the
    ignored caches, venvs or a chroot under ``.cache`` whose ``/dev`` nodes would be read for ever."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True, timeout=60).stdout
    for name in filter(None, listed.decode().split("\0")):
        src = ROOT / name
        if src.is_file() and not src.is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    _copy_source(src)
    dist = tmp / "dist"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(dist), str(src)],
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    log = build.stdout + build.stderr
    assert "Deprecat" not in log and "license" not in log.lower(), log[-3000:]
    wheel = next(dist.glob("cardtable-*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    vpy = venv / "bin" / "python"
    site = Path(subprocess.run([str(vpy), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "test-venv-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    inst = subprocess.run([sys.executable, "-m", "pip", "--python", str(vpy), "install", "--no-deps",
                           "--ignore-installed", str(wheel)], capture_output=True, text=True, timeout=300)
    assert inst.returncode == 0, inst.stdout[-3000:] + inst.stderr[-3000:]
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    return {"venv": venv, "site": site, "cwd": elsewhere, "wheel": wheel}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CARDTABLE_"))}
    env["COLUMNS"] = "80"
    return env


def _run(inst: dict[str, Path], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(inst["venv"] / "bin" / "cardtable"), *args], cwd=inst["cwd"], env=_env(),
                          capture_output=True, text=True, timeout=timeout)


def test_program_and_its_files_come_from_the_wheel(installed: dict[str, Path]) -> None:
    code = ("import firmware_host; from firmware_host.resources import resource_dir as r; "
            "print(firmware_host.__file__); [print(r(n)) for n in ('firmware', 'examples', 'config', "
            "'systemd', 'udev', 'docs')]")
    out = subprocess.run([str(installed["venv"] / "bin" / "python"), "-c", code], cwd=installed["cwd"],
                         env=_env(), capture_output=True, text=True, check=True).stdout.split()
    for path in out:
        assert path.startswith(str(installed["site"])), path
    import zipfile

    names = zipfile.ZipFile(installed["wheel"]).namelist()
    for must in ("firmware_host/shipped/firmware/shoefw/shoe.py", "firmware_host/shipped/firmware/main.py",
                 "firmware_host/shipped/examples/bridge-rubber.jsonl", "firmware_host/shipped/config/table.toml",
                 "firmware_host/shipped/systemd/cardtable.service",
                 "firmware_host/shipped/udev/99-cardtable-shoe.rules", "firmware_host/shipped/docs/SETUP.md"):
        assert must in names, must


def test_quick_demo_runs(installed: dict[str, Path]) -> None:
    proc = _run(installed, "demo", "--quick", "--out", "demo-out")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stdout.count("journal intact") == 2
    assert "Traceback" not in proc.stderr


def test_shoe_sim_starts(installed: dict[str, Path]) -> None:
    (installed["cwd"] / "sim").mkdir()
    proc = subprocess.Popen([str(installed["venv"] / "bin" / "cardtable"), "shoe-sim", "--link", "sim"],
                            cwd=installed["cwd"], env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        path = proc.stdout.readline().strip()
        assert path == "sim/shoe" and os.path.islink(installed["cwd"] / path)
    finally:
        # SIGTERM, not SIGINT: a shell's background job (and so `make test` started as one) inherits
        # SIGINT ignored, and Ctrl-C's signal would never arrive (issue 20)
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert not os.path.lexists(installed["cwd"] / path)  # the link went with it


def test_replay_of_a_shipped_example(installed: dict[str, Path]) -> None:
    examples = installed["site"] / "firmware_host" / "shipped" / "examples"
    proc = _run(installed, "replay", str(examples / "bridge-irregularities.jsonl"), "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert "rulings" in proc.stderr and proc.stdout.strip()


def test_club_demo_finds_its_example_logs(installed: dict[str, Path]) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    from firmware_host.club.broker import free_port

    for _ in range(3):   # a free port can be taken by another process before the demo binds it
        proc = _run(installed, "club", "demo", "--tables", "2", "--duration", "2", "--port", str(free_port()))
        if "address already in use" not in proc.stderr:
            break
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "2 simulated tables" in proc.stdout


def test_config_init_and_install_files(installed: dict[str, Path]) -> None:
    cfg = installed["cwd"] / "etc" / "table.toml"
    proc = _run(installed, "config", "init", str(cfg), "--id", "table-03", "--name", "Table 3")
    assert proc.returncode == 0, proc.stderr
    text = cfg.read_text()
    assert 'id = "table-03"' in text and 'name = "Table 3"' in text and 'source = "picamera2"' in text
    assert _run(installed, "check-config", "--config", str(cfg), "--no-devices").returncode == 0
    again = _run(installed, "config", "init", str(cfg))
    assert again.returncode == 2 and "exists" in again.stderr and len(again.stderr.splitlines()) == 1
    root = installed["cwd"] / "root"
    proc = _run(installed, "install-files", "--root", str(root))
    assert proc.returncode == 0, proc.stderr
    unit = (root / "etc/systemd/system/cardtable.service").read_text()
    assert f"ExecStart={installed['venv'] / 'bin' / 'cardtable'} run " in unit
    assert (root / "etc/udev/rules.d/99-cardtable-shoe.rules").read_text().count("cardtable-shoe") >= 2
    club = _run(installed, "install-files", "--club", "--root", str(root))
    assert club.returncode == 0, club.stderr
    for name in ("cardtable-broker.service", "cardtable-dashboard.service", "cardtable-session@.service"):
        assert f"ExecStart={installed['venv'] / 'bin' / 'cardtable'} club " in (root / "etc/systemd/system" / name).read_text()
    assert "BROKER_ARGS=" in (root / "etc/cardtable/club.env").read_text()
