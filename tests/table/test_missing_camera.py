"""``cardtable run`` with a camera index that does not exist (issue 28 item 10): it keeps running and
logs a warning naming the camera, on every run, the one after a restart too, when the journal already
has the camera offline (that run said nothing at all before)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from tests.table.test_absent_devices import _seen, _until
from tests.table.test_run_command import _config

ROOT = Path(__file__).resolve().parent.parent.parent
NO_SUCH_CAMERA = 57          # /dev/video57: no machine this runs on has 58 cameras


def _run(cfg: Path, err: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "run", "--config", str(cfg), "--no-display"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err.open("wb"))


def _warned(err: Path) -> bool:
    return any("WARNING" in line and f"camera offline: camera {NO_SUCH_CAMERA}: cannot open" in line
               for line in err.read_text(errors="replace").splitlines())


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0


def test_a_camera_index_that_does_not_exist_is_named_in_a_warning_on_every_run(tmp_path: Path) -> None:
    data = tmp_path / "data"
    cfg = _config(tmp_path, str(tmp_path / "no-shoe"))
    cfg.write_text(cfg.read_text().replace('source = "none"', f"source = {NO_SUCH_CAMERA}"))
    for run in ("first", "after a restart"):
        err = tmp_path / f"err-{run}.txt"
        proc = _run(cfg, err)
        try:
            _until(lambda err=err: _seen(data, "camera", False) and _warned(err), proc)   # still running meanwhile
        finally:
            _stop(proc)
