"""``cardtable camera-check`` and the camera's exposure settings (``[camera]`` exposure_us, gain)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware_host.cli import main
from firmware_host.config import ConfigError, load_config
from laws.cards import Card
from vision.camcheck import check_frame, edge_sigma
from vision.camera import AUTO, Exposure, picamera2_controls, v4l2_settings
from vision.decode import make_decoder
from vision.photo import Item, Shot, payload, photo_frame


def _frame(field_mm: float, defocus: float = 0.0, glare: float = 0.0, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    cards = [Card.parse(c) for c in ("AS", "KH", "7D", "2C")]
    items = tuple(Item(payload("B7", c), -200 + 130 * i, 30 * (i % 2), 25.0 * i, c) for i, c in enumerate(cards))
    shot = Shot(size=size, field_mm=field_mm, items=items, defocus_px=defocus, glare=glare,
                glare_at=(0.5, 0.5), glare_size=0.25)
    return photo_frame(shot, np.random.default_rng(1))[0]


def test_the_default_exposure_keeps_a_card_at_1_m_s_within_one_module() -> None:
    e = Exposure()
    assert e.exposure_us == 2000 and e.smear_modules(1000.0) == pytest.approx(2 / 3)
    assert picamera2_controls(e) == {"AeEnable": False, "ExposureTime": 2000, "AnalogueGain": 4.0}
    assert picamera2_controls(AUTO) == {"AeEnable": True}
    assert v4l2_settings(e) == [(cv2.CAP_PROP_AUTO_EXPOSURE, 1), (cv2.CAP_PROP_EXPOSURE, 20)]
    assert v4l2_settings(Exposure(1500, 2.0, 40))[-1] == (cv2.CAP_PROP_GAIN, 40)
    assert v4l2_settings(AUTO) == [(cv2.CAP_PROP_AUTO_EXPOSURE, 3)]


def test_exposure_and_gain_come_from_the_config_and_bad_values_name_the_key(tmp_path: Path) -> None:
    p = tmp_path / "t.toml"
    p.write_text('[camera]\nexposure_us = 1500\ngain = 6.5\nv4l2_gain = 30\n')
    cam = load_config(p, check_devices=False).camera
    assert (cam.exposure_us, cam.gain, cam.v4l2_gain) == (1500, 6.5, 30)
    for text, key in (("exposure_us = -1", "exposure_us"), ("gain = 100", "gain"), ('exposure_us = "fast"', "exposure_us")):
        p.write_text(f"[camera]\n{text}\n")
        with pytest.raises(ConfigError, match=rf"camera\.{key}"):
            load_config(p, check_devices=False)


def test_a_well_framed_sharp_frame_passes_and_reports_px_per_module() -> None:
    report = check_frame(make_decoder("zxing"), _frame(800), exposure_us=2000)
    assert len(report.codes) == 4 and report.worst == "ok"
    for c in report.codes:
        assert c.ppm == pytest.approx(1280 / 800 * 3, rel=0.08)
    assert {c.name for c in report.checks} == {"size", "sharpness", "light", "motion"}


def test_small_codes_blur_and_glare_are_each_named() -> None:
    dec = make_decoder("zxing")
    small = check_frame(dec, _frame(1350))
    assert next(c for c in small.checks if c.name == "size").status in ("marginal", "fail")
    blurred = check_frame(dec, _frame(700, defocus=5.0))
    assert next(c for c in blurred.checks if c.name == "sharpness").status != "ok"
    glare = check_frame(dec, _frame(800, glare=2.0))
    assert next(c for c in glare.checks if c.name == "light").status != "ok"


def test_edge_sigma_measures_a_known_blur() -> None:
    step = np.zeros((64, 64), np.uint8)
    step[:, 32:] = 200
    for sigma in (1.5, 3.0):
        assert edge_sigma(cv2.GaussianBlur(step, (0, 0), sigma)) == pytest.approx(sigma, rel=0.2)


def test_camera_check_on_an_image_and_on_a_live_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = tmp_path / "table.png"
    cv2.imwrite(str(img), _frame(800))
    assert main(["camera-check", "--image", str(img), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "ok" and len(doc["codes"]) == 4 and doc["smear_modules_at_1m_s"] is None
    video = tmp_path / "live.avi"  # a stream read through OpenCV like a USB camera
    out = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (1280, 720))
    for field in (1350, 1350, 1350):
        out.write(_frame(field))
    out.release()
    assert main(["camera-check", "--camera", str(video), "--frames", "3"]) == 1
    text = capsys.readouterr().out
    assert "px/module" in text and "size:" in text and "smears 0.67 modules" in text


def test_camera_check_bad_input_is_one_message_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    bad_cfg = tmp_path / "bad.toml"
    bad_cfg.write_text("[camera]\ngain = -2\n")
    for argv in (["--image", str(junk)], ["--image", str(tmp_path / "none.png")],
                 ["--camera", str(tmp_path / "nothing.mp4")], ["--image", str(junk), "--config", str(bad_cfg)]):
        assert main(["camera-check", *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("cardtable camera-check: ") and "Traceback" not in err[0]


def test_camera_check_names_an_image_too_small_for_the_decoder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Audit 61: ``--image one.png`` (1x1) exited 2 with ``frame of shape (1, 1, 3) is not an image``, which
    did not say which file; the message names it, whether the image is refused on loading or by the
    decoder (``load_image``'s size check taken away)."""
    tiny = tmp_path / "one.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    for decoder_sees_it in (False, True):
        if decoder_sees_it:
            monkeypatch.setattr("vision.scan.MIN_FRAME_SIDE", 0)
        assert main(["camera-check", "--image", str(tiny)]) == 2
        (message,) = capsys.readouterr().err.strip().splitlines()
        assert message.startswith(f"cardtable camera-check: {tiny}: ")


def test_camera_check_without_codes_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = tmp_path / "felt.png"
    cv2.imwrite(str(img), np.full((720, 1280, 3), (40, 100, 30), np.uint8))
    assert main(["camera-check", "--image", str(img)]) == 3
    assert "no card code read" in capsys.readouterr().out


class _FakeCapture:
    """Stands in for ``cv2.VideoCapture`` on a V4L2 device: records the properties set."""

    def __init__(self, target: object) -> None:
        self.target = target
        self.props: list[tuple[int, float]] = []

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        self.props.append((prop, value))
        return prop != cv2.CAP_PROP_GAIN  # a driver without gain control refuses it

    def release(self) -> None:
        pass


def test_a_v4l2_camera_gets_manual_exposure_and_a_refused_setting_is_only_logged(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import vision.camera as camera

    monkeypatch.setattr(camera.cv2, "VideoCapture", _FakeCapture)
    cap = camera.open_camera("/dev/video9", (1280, 720), Exposure(1500, 4.0, 20))
    assert isinstance(cap, _FakeCapture)
    assert cap.props[-3:] == [(cv2.CAP_PROP_AUTO_EXPOSURE, 1), (cv2.CAP_PROP_EXPOSURE, 15), (cv2.CAP_PROP_GAIN, 20)]
    assert "refused" in caplog.text
    file_cap = camera.open_camera("clip.mp4", (1280, 720), Exposure())
    assert isinstance(file_cap, _FakeCapture) and file_cap.props == []  # a file has no shutter


@pytest.mark.parametrize("path", ["/dev/v4l/by-id/usb-Logitech_C920-video-index0", "/dev/cardtable-camera"])
def test_a_v4l2_camera_named_by_a_stable_path_gets_its_size_and_exposure_too(
        monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """config/table.toml and hardware/SETUP.md let a USB camera be named by its path; before, only /dev/videoN
    got the capture size, the 2 ms shutter and the gain, and a by-id or udev name silently kept the driver's."""
    import vision.camera as camera

    monkeypatch.setattr(camera.cv2, "VideoCapture", _FakeCapture)
    cap = camera.open_camera(path, (1280, 720), Exposure(2000, 4.0, 20))
    assert isinstance(cap, _FakeCapture)
    assert (cv2.CAP_PROP_FRAME_WIDTH, 1280) in cap.props and (cv2.CAP_PROP_EXPOSURE, 20) in cap.props


def test_the_pi_camera_is_configured_with_the_exposure_controls(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    configured: dict[str, object] = {}

    class FakePicamera2:
        def create_video_configuration(self, main: dict[str, object], controls: dict[str, object]) -> dict[str, object]:
            return {"main": main, "controls": controls}

        def configure(self, cfg: dict[str, object]) -> None:
            configured.update(cfg)

        def start(self) -> None:
            pass

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    from vision.camera import open_camera

    open_camera("picamera2", (1920, 1080), Exposure(2500, 6.0))
    assert configured["controls"] == {"AeEnable": False, "ExposureTime": 2500, "AnalogueGain": 6.0}
    assert configured["main"] == {"size": (1920, 1080), "format": "RGB888"}


# --- issue 21: what people read, and a white sheet is not glare -----------------------------------------

def test_codes_are_said_as_cards_not_payloads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.camcheck import code_words

    assert code_words("B7", Card("7", "H")) == "7 of hearts, pack B7"
    assert code_words("B7", Card("A", "S")) == "ace of spades, pack B7"
    assert code_words("B7", Card("T", "D")) == "10 of diamonds, pack B7"
    assert code_words("B7", None) == "back of pack B7"
    img = tmp_path / "table.png"
    cv2.imwrite(str(img), _frame(800))
    main(["camera-check", "--image", str(img)])
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if ln.startswith("  ") and " at (" in ln]
    assert lines and all(re.match(r"  (ace|king|queen|jack|10|[2-9]) of (spades|hearts|diamonds|clubs), pack ", ln)
                         for ln in lines), out


@pytest.mark.parametrize("level", [252, 255])
def test_a_plain_white_sheet_is_not_called_glare(level: int) -> None:
    rng = np.random.default_rng(3)
    sheet = np.clip(rng.normal(level, 1.2, (720, 1280)), 0, 255).astype(np.uint8)
    if level == 255:
        sheet[:] = 255
    report = check_frame(make_decoder("zxing"), cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR))
    light = next(c for c in report.checks if c.name == "light")
    assert "glare" not in light.advice.replace("not glare", ""), light.advice
    if level == 255:
        assert "overexposed" in light.advice


def test_a_reflection_on_the_felt_is_still_glare() -> None:
    felt = np.full((720, 1280), 90, np.uint8)
    cv2.circle(felt, (640, 360), 120, 255, -1)  # 5% of the frame
    report = check_frame(make_decoder("zxing"), cv2.cvtColor(felt, cv2.COLOR_GRAY2BGR))
    light = next(c for c in report.checks if c.name == "light")
    assert "glare" in light.advice and light.status != "ok"


def _qr_labels_frame() -> np.ndarray:
    """Two cards whose codes are printed as QR (``labels --variant qr``), as the camera sees them."""
    cards = [Card.parse(c) for c in ("AS", "KH")]
    items = tuple(Item(payload("B7", c), -150 + 300 * i, 0, 10.0 * i, c, foreign=True, micro=False)
                  for i, c in enumerate(cards))
    return photo_frame(Shot(size=(1280, 720), field_mm=800, items=items), np.random.default_rng(1))[0]


def test_camera_check_on_qr_labels_names_the_variant_to_give(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A table whose labels are the QR variant, checked without ``--variant qr``, said only "no card code
    read" (exit 3), and the installer moved the camera about; the decoder sees codes of ours printed as
    QR, so the check says so and names ``--variant qr``. Checked as QR, the same picture reads."""
    img = tmp_path / "qr-table.png"
    cv2.imwrite(str(img), _qr_labels_frame())
    assert main(["camera-check", "--image", str(img)]) == 3
    out = capsys.readouterr().out
    assert ("FAIL     size: no card code read as Micro QR, but card codes printed as QR are in view: these labels "
            "are the qr variant; run again with --variant qr") in out
    assert main(["camera-check", "--image", str(img), "--variant", "qr", "--json"]) in (0, 1)
    assert len(json.loads(capsys.readouterr().out)["codes"]) == 2
    blank = tmp_path / "felt.png"   # nothing of ours in view: the advice of before
    cv2.imwrite(str(blank), np.full((720, 1280, 3), (40, 100, 30), np.uint8))
    assert main(["camera-check", "--image", str(blank)]) == 3
    assert "no card code read: put labelled cards" in capsys.readouterr().out
