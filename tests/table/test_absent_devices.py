"""``cardtable run`` with the shoe unplugged and the camera missing at boot: it does not exit; it lights
both OFFLINE lamps, says what is wrong on stderr (``--no-display``), and carries on when they appear."""

from __future__ import annotations

import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from firmware_host.records.journal import Journal
from firmware_host.shoe.virtual import VirtualShoe
from tests.table.test_run_command import _config

ROOT = Path(__file__).resolve().parent.parent.parent


def _notes(data: Path) -> list[dict[str, Any]]:
    if not (data / "journal.sqlite3").exists():
        return []
    try:
        with Journal.open(data) as j:
            return [r.body for r in j.rows() if r.kind == "note" and "device" in r.body]
    except Exception:  # noqa: BLE001 - being created by the other process
        return []


def _seen(data: Path, device: str, online: bool) -> bool:
    return any(n["device"] == device and n.get("online") is online for n in _notes(data))


def _until(what, proc: subprocess.Popen, timeout: float = 40.0) -> None:  # type: ignore[no-untyped-def, type-arg]
    """Poll the other process's journal until ``what()``; it must not have exited meanwhile."""
    deadline = time.monotonic() + timeout
    while not what():
        assert proc.poll() is None, f"cardtable run exited {proc.returncode}"
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _write_video(path: Path) -> None:
    tmp = path.with_name("part.avi")
    out = cv2.VideoWriter(str(tmp), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for i in range(40):
        out.write(np.full((240, 320, 3), 40 + i, np.uint8))
    out.release()
    tmp.rename(path)  # appears whole, as a camera does


def test_boot_without_shoe_and_camera_then_both_appear(tmp_path: Path) -> None:
    data = tmp_path / "data"
    video = tmp_path / "camera.avi"
    with tempfile.TemporaryDirectory() as folder:
        shoe = VirtualShoe("contract-bridge", seed=31, directory=folder)  # not plugged in yet
        cfg = _config(tmp_path, shoe.path)
        cfg.write_text(cfg.read_text().replace('source = "none"', f'source = "{video}"'))
        proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "run", "--config", str(cfg),
                                 "--no-display"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        try:
            _until(lambda: _seen(data, "shoe", False) and _seen(data, "camera", False), proc)
            with Journal.open(data) as j:
                lamps = j.last_lamps() or {}
            assert lamps.get("shoe_offline") and lamps.get("camera_offline")
            shoe.open()
            _write_video(video)
            _until(lambda: _seen(data, "shoe", True) and _seen(data, "camera", True), proc)
            with Journal.open(data) as j:
                _until(lambda: sum(e["type"] == "card_dealt" for e in j.events()) >= 52, proc)
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=20)
            shoe.close()
    assert proc.returncode == 0, err
    assert f"serial port {shoe.path} does not exist" in err  # said on stderr, at WARNING
    assert "Traceback" not in err


def test_a_missing_camera_alone_is_a_lit_lamp_not_a_crash(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=32) as shoe:
        cfg = _config(tmp_path, shoe.path)
        cfg.write_text(cfg.read_text().replace('source = "none"', 'source = "/dev/video-cardtable-missing"'))
        proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "run", "--config", str(cfg),
                                 "--no-display"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        try:
            _until(lambda: _seen(data, "camera", False), proc)
            with Journal.open(data) as j:
                _until(lambda: sum(e["type"] == "card_dealt" for e in j.events()) >= 52, proc)
                assert (j.last_lamps() or {}).get("camera_offline")
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "/dev/video-cardtable-missing" in err and "Traceback" not in err
    # why, in the journal (and so on the display and the dashboard), not only in the log; said once
    note = next(n for n in _notes(data) if n["device"] == "camera" and not n["online"])
    assert "/dev/video-cardtable-missing" in note["reason"], note
    assert err.count("/dev/video-cardtable-missing") == 1, err


def test_a_journal_that_cannot_be_written_at_boot_is_not_a_configuration_error(tmp_path: Path) -> None:
    """No room for the journal (a file size limit of zero, as a full data folder gives): exit 1, which
    the unit retries, not 2 (a configuration error, which it does not)."""
    import resource

    def no_room() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    cfg = _config(tmp_path, "/dev/cardtable-shoe-not-plugged")
    (tmp_path / "data").mkdir()
    p = subprocess.run([sys.executable, "-B", "-m", "firmware_host.cli", "run", "--config", str(cfg), "--no-display"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60, preexec_fn=no_room)
    assert p.returncode == 1, p.stderr
    assert "journal.sqlite3" in p.stderr and "Traceback" not in p.stderr


def test_a_pin_backend_that_cannot_start_is_an_offline_panel_not_a_configuration_error(tmp_path: Path) -> None:
    """``pins.factory = "lgpio"`` where lgpio cannot start (here: not installed; on a Pi 4 with a 6.6
    kernel: RPi.GPIO's edge detection): the table runs, deals from the shoe, and journals the panel
    offline with the backend's own reason; it does not exit 2 (the unit would give up)."""
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=33) as shoe:
        cfg = _config(tmp_path, shoe.path)
        cfg.write_text(cfg.read_text().replace('factory = "mock"', 'factory = "lgpio"'))
        proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "run", "--config", str(cfg),
                                 "--no-display"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        try:
            _until(lambda: _seen(data, "panel", False), proc)
            with Journal.open(data) as j:
                _until(lambda: sum(e["type"] == "card_dealt" for e in j.events()) >= 52, proc)
            note = next(n for n in _notes(data) if n["device"] == "panel")
            assert "lgpio" in note["reason"]
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert err.count("panel offline") == 1, err
