"""Camera sources and the capture thread: synthetic frames, a real video file, missing devices."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest
from conftest import MILD, SMALL, card, spread_scene

from vision.camera import CameraError, CaptureThread, SyntheticCamera, open_camera
from vision.codes import CardCode
from vision.decode import make_decoder


def test_synthetic_camera_yields_frames_like_video_capture() -> None:
    cam = SyntheticCamera(spread_scene(["AS", "KD"]), size=SMALL, degrade=MILD)
    ok, frame = cam.read()
    assert ok and frame is not None and frame.shape == (540, 960, 3) and frame.dtype == np.uint8
    assert {s.code for s in make_decoder().read(frame).sightings} == {CardCode("B7", card("AS")),
                                                                     CardCode("B7", card("KD"))}
    cam.release()
    assert cam.read() == (False, None) and not cam.isOpened()


def test_missing_device_and_file_give_camera_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="video99"):
        open_camera("/dev/video99")
    with pytest.raises(CameraError, match="nothing.mp4"):
        open_camera(str(tmp_path / "nothing.mp4"))


def test_video_file_source_reads_cards(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    cam = SyntheticCamera(spread_scene(["QS", "3H"]), size=SMALL, degrade=MILD)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, SMALL)
    for _ in range(3):
        writer.write(cam.read()[1])
    writer.release()
    src = open_camera(str(path))
    ok, frame = src.read()
    assert ok
    assert {s.code.card for s in make_decoder().read(frame).sightings} == {card("QS"), card("3H")}
    src.release()


def test_an_http_stream_is_a_camera_and_a_dead_url_is_named(tmp_path: Path) -> None:
    """OpenCV (FFmpeg) reads a video served over HTTP, as from an IP camera; a URL nobody answers is a
    CameraError that names it."""
    import functools
    import http.server

    cam = SyntheticCamera(spread_scene(["QS", "3H"]), size=SMALL, degrade=MILD)
    writer = cv2.VideoWriter(str(tmp_path / "table.avi"), cv2.VideoWriter_fourcc(*"MJPG"), 10, SMALL)
    for _ in range(5):
        writer.write(cam.read()[1])
    writer.release()
    quiet = type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *a: None})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        src = open_camera(f"http://127.0.0.1:{server.server_address[1]}/table.avi")
        ok, frame = src.read()
        assert ok and frame is not None
        assert {s.code.card for s in make_decoder().read(frame).sightings} == {card("QS"), card("3H")}
        src.release()
        with pytest.raises(CameraError, match="nothing.avi"):
            open_camera(f"http://127.0.0.1:{server.server_address[1]}/nothing.avi")
    finally:
        server.shutdown()


class ScriptedSource:
    """A frame source that gives numbered frames, then fails (a camera unplugged)."""

    def __init__(self, good: int) -> None:
        self.good = good
        self.calls = 0
        self.released = False

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.calls += 1
        if self.calls > self.good:
            return False, None
        return True, np.full((20, 20), self.calls, np.uint8)

    def release(self) -> None:
        self.released = True


def test_capture_thread_keeps_only_the_newest_frame() -> None:
    src = ScriptedSource(good=6)
    cap = CaptureThread(src, max_failures=2)
    cap.start()
    cap._thread.join(timeout=10)  # the source runs dry: the thread stops by itself
    ok, frame = cap.read(timeout=0)
    assert ok and frame is not None and int(frame[0, 0]) == 6  # the newest, not the first
    assert cap.dropped == 5 and cap.captured == 6
    assert cap.read(timeout=0) == (False, None)  # nothing fresh, camera gone
    assert cap.error is not None and "no frame" in cap.error
    cap.release()
    assert src.released


def test_capture_thread_on_a_live_synthetic_camera() -> None:
    cam = SyntheticCamera(spread_scene(["7C"]), size=(480, 270), degrade=MILD)
    got = threading.Event()
    cap = CaptureThread(cam, on_frame=got.set).start()
    assert got.wait(timeout=30)
    ok, frame = cap.read(timeout=30)
    assert ok and frame is not None and frame.shape == (270, 480, 3)
    cap.release()
    assert not cam.isOpened()


def test_capture_thread_on_a_closed_camera_reports_it() -> None:
    cam = SyntheticCamera(size=(320, 180))
    cam.release()
    cap = CaptureThread(cam, max_failures=3).start()
    assert cap.read(timeout=30) == (False, None)
    cap._thread.join(timeout=10)
    assert cap.error is not None and "3 times" in cap.error
    cap.release()
