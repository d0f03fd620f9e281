"""The table's own ``[vision]`` and ``[zones]`` sections reach the camera's watcher (found in issue 37's
fifteenth round).

Before, ``cardtable run`` handed the vision module the ``[vision]`` table's contents where it wanted the
whole document, so every key was silently ignored (a calibrated homography, the zones' table size, the
decoder and its remedies, k of n): the table ran on the defaults. A ``[zones]`` section, which
vision/CARD_CODES.md says replaces the default zones, was refused as an unknown section. And a wrong key
in ``[vision]`` was accepted by ``check-config`` and by ``run``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from firmware_host.config import load_config
from firmware_host.live import build_table
from tests.table.test_run_command import _config
from vision.calibrate import save_homography

ROOT = Path(__file__).resolve().parent.parent.parent


def _table_toml(tmp_path: Path, extra: str, camera: str = "synthetic") -> Path:
    cfg = _config(tmp_path, "loop://")
    text = cfg.read_text().replace('source = "none"', f'source = "{camera}"')
    cfg.write_text(text + "\n" + extra)
    return cfg


def _watcher(cfg_path: Path) -> object:
    cfg = load_config(str(cfg_path), env={}, check_devices=False)
    table = build_table(cfg)
    try:
        assert table.camera is not None
        return table.camera.watcher
    finally:
        table.stop()


def test_the_vision_sections_keys_reach_the_watcher(tmp_path: Path) -> None:
    w = _watcher(_table_toml(tmp_path, '[vision]\nconfirm_k = 3\nconfirm_n = 5\ngone_m = 7\n'
                                       'table_mm = [900, 500]\nremedies = ["regrid"]\n'))
    assert (w.k, w.n, w.m) == (3, 5, 7)
    assert w.table_mm == (900.0, 500.0)
    assert (w.decoder.glare, w.decoder.regrid, w.decoder.narrow) == (False, True, False)


def test_a_zones_section_replaces_the_default_zones(tmp_path: Path) -> None:
    w = _watcher(_table_toml(tmp_path, "[zones.N]\nrect = [0, 0, 800, 100]\n[zones.centre]\nrect = [100, 120, 700, 330]\n"))
    assert [(z.name, z.x0, z.y0, z.x1, z.y1) for z in w.zones.zones] == [
        ("N", 0, 0, 800, 100), ("centre", 100, 120, 700, 330)]


def test_a_homography_file_is_found_beside_the_configuration(tmp_path: Path) -> None:
    h = np.array([[0.5, 0, 10], [0, 0.5, 20], [0, 0, 1]], dtype=np.float64)
    save_homography(tmp_path / "homography.json", h, (1280, 720), (800.0, 450.0))
    w = _watcher(_table_toml(tmp_path, '[vision]\nhomography_file = "homography.json"\n'))
    assert w.homography is not None and np.allclose(w.homography, h)


@pytest.mark.parametrize(("extra", "says"), [
    ('[vision]\nconfirm_k = 0\n', "vision.confirm_k"),
    ('[vision]\nspeed = 3\n', "vision.speed: unknown key"),
    ('[vision]\nremedies = ["sharpen"]\n', "vision.remedies: 'sharpen' is not a remedy"),
    ("[zones.N]\nrect = [0, 0, 10]\n", "zones.N.rect"),
    ("[zones]\n", "zones: want one table per zone"),           # an empty section: no zones, not the defaults
    ('[vision]\nhomography_file = "none-such.json"\n', "none-such.json"),
])
@pytest.mark.parametrize("command", ["run", "check-config"])
def test_a_wrong_vision_or_zones_value_is_named_with_exit_2(tmp_path: Path, extra: str, says: str,
                                                            command: str) -> None:
    """Even with no camera configured: a wrong key is a wrong configuration, found at start."""
    cfg = _table_toml(tmp_path, extra, camera="none")
    argv = [sys.executable, "-m", "firmware_host.cli", command, "--config", str(cfg)]
    argv += ["--no-display"] if command == "run" else ["--no-devices"]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and str(cfg) in lines[0], done.stderr


def test_a_singular_homography_file_is_refused_at_start(tmp_path: Path) -> None:
    """Audit 61: a homography of zeros passed the check at start, and the table placed every code nowhere."""
    (tmp_path / "zero.json").write_text('{"homography": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}')
    cfg = _table_toml(tmp_path, '[vision]\nhomography_file = "zero.json"\n', camera="none")
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "check-config", "--config", str(cfg),
                           "--no-devices"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert str(cfg) in line and "vision.homography_file" in line and "zero.json" in line and "singular" in line


def test_the_cameras_decoder_reaches_the_watcher(tmp_path: Path) -> None:
    """``camera.decoder``, in the configuration as shipped, was checked and then never used."""
    from vision.decode import PyzbarDecoder

    cfg = _table_toml(tmp_path, "")
    cfg.write_text(cfg.read_text().replace('decoder = "zxing"', 'decoder = "pyzbar"', 1))
    assert isinstance(_watcher(cfg).decoder, PyzbarDecoder)


def test_a_vision_decoder_that_contradicts_the_cameras_is_named(tmp_path: Path) -> None:
    cfg = _table_toml(tmp_path, '[vision]\ndecoder = "pyzbar"\n', camera="none")
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "check-config", "--config", str(cfg),
                           "--no-devices"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "vision.decoder: 'pyzbar' but camera.decoder is 'zxing'" in done.stderr


def test_check_config_prints_the_vision_and_zones_it_will_use(tmp_path: Path) -> None:
    cfg = _table_toml(tmp_path, '[vision]\nremedies = []\n[zones.N]\nrect = [0, 0, 800, 100]\n', camera="none")
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "check-config", "--config", str(cfg),
                           "--no-devices"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "#   remedies = []" in done.stdout
    assert "#   zones.N = " + json.dumps({"rect": [0, 0, 800, 100]}).replace('"', "'") in done.stdout


def test_the_documented_keys_and_defaults_are_the_codes() -> None:
    """vision/CARD_CODES.md's ``[vision]`` table names every key the vision module takes, with its default."""
    import re

    from vision.zones import ConfigError, VisionConfig, parse_vision_config

    doc = (ROOT / "vision" / "CARD_CODES.md").read_text(encoding="utf-8")
    part = doc.split("## The `[vision]` section", 1)[1].split("\n\n**The remedies.**", 1)[0]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)`(?:, `\w+`)? \| ([^|]+) \|", part, re.M)}
    keys = set(re.findall(r"^\| `(\w+)`(?:, `(\w+)`)?", part, re.M))
    named = {k for pair in keys for k in pair if k}
    with pytest.raises(ConfigError) as err:
        parse_vision_config({"vision": {"none_such": 1}})
    known = set(str(err.value).split("(known: ")[1].rstrip(")").split(", "))
    assert named == known
    d = VisionConfig()
    assert rows["table_mm"].strip() == f"`[{d.table_mm[0]:.0f}, {d.table_mm[1]:.0f}]`"
    assert rows["confirm_k"].strip() == f"{d.confirm_k}, {d.confirm_n}"
    assert rows["gone_m"].strip() == str(d.gone_m) and rows["heavy_ec_below"].strip() == str(d.heavy_ec_below)
    assert rows["remedies"].strip() == "`" + json.dumps(list(d.remedies)) + "`"
    assert rows["variants"].strip() == "`" + json.dumps(list(d.variants)) + "`"


def test_the_shipped_configurations_commented_vision_block_is_valid(tmp_path: Path) -> None:
    """Uncommenting config/table.toml's ``[vision]`` and ``[zones.N]`` lines gives a configuration that starts."""
    text = (ROOT / "config" / "table.toml").read_text()
    _, tail = text.split("\n# [vision]", 1)
    lines = ("# [vision]" + tail).splitlines()
    block = [ln[2:].split("#")[0].rstrip() for ln in lines if ln.startswith("# [") or (ln.startswith("# ") and "=" in ln)]
    cfg = _table_toml(tmp_path, "\n".join(block) + "\n", camera="none")
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "check-config", "--config", str(cfg),
                           "--no-devices"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "#   remedies = ['glare', 'regrid', 'narrow']" in done.stdout and "#   zones.N = " in done.stdout


def test_doctor_fails_its_config_check_on_a_wrong_vision_value(tmp_path: Path) -> None:
    cfg = _table_toml(tmp_path, '[vision]\nremedies = ["sharpen"]\n', camera="none")
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "doctor", "--config", str(cfg)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout.startswith("FAIL  config  ") and "vision.remedies: 'sharpen' is not a remedy" in done.stdout


def test_scan_takes_its_decoder_from_the_configuration(tmp_path: Path) -> None:
    """``scan --config`` reads the same sections: a ``[vision] decoder`` of pyzbar is used (its note says so)."""
    import cv2

    image = tmp_path / "felt.png"
    cv2.imwrite(str(image), np.full((90, 160, 3), 40, np.uint8))
    cfg = tmp_path / "vision.toml"
    cfg.write_text('[vision]\ndecoder = "pyzbar"\n')
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "scan", "--config", str(cfg), str(image)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "pyzbar read no code here" in done.stderr


def test_scan_reads_a_tables_configuration_as_the_table_does(tmp_path: Path) -> None:
    """``scan --config`` with a table's file: its ``camera.decoder``, a homography file named beside it (read
    from another folder), and its ``[vision] variants``."""
    import cv2

    from vision.zones import load_vision_config

    image = tmp_path / "felt.png"
    cv2.imwrite(str(image), np.full((90, 160, 3), 40, np.uint8))
    folder = tmp_path / "etc"
    folder.mkdir()
    h = np.array([[0.5, 0, 10], [0, 0.5, 20], [0, 0, 1]], dtype=np.float64)
    save_homography(folder / "homography.json", h, (1280, 720), (800.0, 450.0))
    cfg = folder / "table.toml"
    cfg.write_text('[camera]\ndecoder = "pyzbar"\n[vision]\nhomography_file = "homography.json"\nvariants = ["qr"]\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "scan", "--config", str(cfg), str(image)],
                          cwd=elsewhere, capture_output=True, text=True, timeout=60,
                          env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 1 and "pyzbar read no code here" in done.stderr, done.stderr
    vc = load_vision_config(cfg)
    assert vc.decoder == "pyzbar" and vc.variants == ("qr",)
    assert vc.homography_file == str(folder.resolve() / "homography.json")
