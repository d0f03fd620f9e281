"""Camera sources that all look like ``cv2.VideoCapture`` (``read() -> (ok, frame)``, ``release()``),
and ``CaptureThread``, which reads one in its own thread and keeps only the newest frame.

``open_camera`` takes a device index (``"0"``), a device path (``/dev/video0``), a video file, an
RTSP/HTTP URL, ``picamera2`` (a Raspberry Pi camera, when picamera2 is installed) or ``synthetic``.
Wiring note: a USB camera appears as ``/dev/videoN``; the Pi camera ribbon needs picamera2 (libcamera).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from vision.render import Degrade, Scene, random_degrade, render

log = logging.getLogger(__name__)


class CameraError(RuntimeError):
    """A camera that cannot be opened or has stopped giving frames."""


# Exposure: motion blur is the distance a card travels while the shutter is open. A card slid into a
# trick at 1 m/s moves 1 mm per millisecond; a module of the card code is 3 mm (CARD_CODES.md), so an
# exposure of 3 ms smears it by one module. The default, 2 ms, keeps the smear to two thirds of a
# module at 1 m/s (half a module up to 0.75 m/s); at 1.6 px/mm that is 3.2 px. Gain makes up the light.
DEFAULT_EXPOSURE_US = 2000
DEFAULT_GAIN = 4.0
MODULE_MM = 3.0


@dataclass(frozen=True)
class Exposure:
    """Shutter and gain. ``exposure_us`` 0 leaves the camera on its own auto exposure.

    ``gain`` is picamera2's ``AnalogueGain`` (a multiplier); ``v4l2_gain`` is the V4L2 driver's own
    number for ``CAP_PROP_GAIN`` (``v4l2-ctl -l`` shows its range), -1 leaves it alone.
    """

    exposure_us: int = DEFAULT_EXPOSURE_US
    gain: float = DEFAULT_GAIN
    v4l2_gain: int = -1

    def smear_modules(self, speed_mm_s: float = 1000.0) -> float:
        """How many modules a card moving at ``speed_mm_s`` travels during one exposure."""
        return speed_mm_s * self.exposure_us / 1e6 / MODULE_MM


AUTO = Exposure(0, 0.0, -1)


def picamera2_controls(e: Exposure) -> dict[str, Any]:
    """picamera2 controls for ``e``: auto exposure off, ``ExposureTime`` (us) and ``AnalogueGain``."""
    if e.exposure_us <= 0:
        return {"AeEnable": True}
    controls: dict[str, Any] = {"AeEnable": False, "ExposureTime": int(e.exposure_us)}
    if e.gain > 0:
        controls["AnalogueGain"] = float(e.gain)
    return controls


def v4l2_settings(e: Exposure) -> list[tuple[int, float]]:
    """OpenCV properties for a V4L2 camera: manual exposure (1; 3 is auto) in 100 us units, gain."""
    if e.exposure_us <= 0:
        return [(cv2.CAP_PROP_AUTO_EXPOSURE, 3)]
    out = [(cv2.CAP_PROP_AUTO_EXPOSURE, 1), (cv2.CAP_PROP_EXPOSURE, max(1, round(e.exposure_us / 100)))]
    if e.v4l2_gain >= 0:
        out.append((cv2.CAP_PROP_GAIN, e.v4l2_gain))
    return out


class FrameSource(Protocol):
    def read(self) -> tuple[bool, np.ndarray | None]: ...

    def release(self) -> None: ...


class SyntheticCamera:
    """Renders ``scene`` on every ``read()``: real images for the real decoder.

    ``camera.scene.place(card, pack, zone="cut")`` scripts the table; ``degrade`` fixes the picture
    quality, or ``random_degrade=True`` draws a new degraded picture each frame (seeded).
    """

    def __init__(self, scene: Scene | None = None, size: tuple[int, int] = (1280, 720),
                 degrade: Degrade | None = None, *, random_degrade: bool = False, seed: int = 0) -> None:
        self.scene = scene if scene is not None else Scene()
        self.size = size
        self.degrade = degrade or Degrade(blur=0.5, noise=3, jpeg=85)
        self.random_degrade = random_degrade
        self._rng = np.random.default_rng(seed)
        self._open = True
        self.frames = 0

    def isOpened(self) -> bool:  # noqa: N802 - cv2.VideoCapture's name
        return self._open

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self._open:
            return False, None
        d = random_degrade(self._rng) if self.random_degrade else self.degrade
        self.frames += 1
        return True, render(self.scene, self.size, d, self._rng)

    def release(self) -> None:
        self._open = False


class Picamera2Source:
    """A Raspberry Pi camera through picamera2, giving BGR frames like ``cv2.VideoCapture``."""

    def __init__(self, size: tuple[int, int] = (1280, 720), exposure: Exposure = AUTO) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise CameraError("picamera2 is not installed (apt install python3-picamera2 on a Pi)") from None
        try:
            self._cam: Any = Picamera2()
            # libcamera names formats by the 32-bit word: "RGB888" is stored [B, G, R] per pixel, which is
            # OpenCV's order ("BGR888" would give [R, G, B] and swap red and blue).
            self._cam.configure(self._cam.create_video_configuration(main={"size": size, "format": "RGB888"},
                                                                     controls=picamera2_controls(exposure)))
            self._cam.start()
        except Exception as exc:  # picamera2 raises many kinds; all mean "no camera"
            raise CameraError(f"Pi camera: cannot start ({exc})") from exc
        self._open = True

    def isOpened(self) -> bool:  # noqa: N802
        return self._open

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self._open:
            return False, None
        try:
            return True, np.asarray(self._cam.capture_array("main"))
        except Exception as exc:
            log.warning("Pi camera read failed: %s", exc)
            return False, None

    def release(self) -> None:
        if self._open:
            self._open = False
            self._cam.stop()
            self._cam.close()


def open_camera(source: str | int, size: tuple[int, int] = (1280, 720), exposure: Exposure = AUTO) -> FrameSource:
    """Open a camera by description (see the module docstring), with ``exposure`` on a Pi camera or a
    V4L2 device (a setting the driver refuses is logged, not fatal: the picture still comes).

    Raises:
        CameraError: naming the source when it cannot be opened.
    """
    if source == "synthetic":
        return SyntheticCamera(size=size)
    if source == "picamera2":
        return Picamera2Source(size, exposure)
    target: str | int = int(source) if isinstance(source, int) or str(source).isdigit() else str(source)
    cap = cv2.VideoCapture(target)
    if not cap.isOpened():
        cap.release()
        raise CameraError(f"camera {source!r}: cannot open (no such device, file or stream?)")
    if isinstance(target, int) or str(target).startswith("/dev/"):   # a V4L2 device: /dev/videoN or a udev name for
        # it such as /dev/v4l/by-id/... (a file or a stream URL has no size, shutter or gain to set)
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        for prop, value in v4l2_settings(exposure):
            if not cap.set(prop, value):
                log.warning("camera %s: the driver refused property %d = %s", source, prop, value)
    return cap


class CaptureThread:
    """Reads a source in its own thread and keeps only the newest frame, dropping stale ones.

    ``read()`` returns the newest frame not yet returned, waiting up to ``timeout`` seconds for one,
    so the consumer never works on an old picture however slow it is. ``dropped`` counts frames that
    were replaced before anyone read them. After ``max_failures`` failed reads in a row the thread
    stops and ``error`` says why; ``read()`` then returns ``(False, None)``.
    """

    def __init__(self, source: FrameSource, max_failures: int = 30,
                 on_frame: Callable[[], None] | None = None) -> None:
        self.source = source
        self.max_failures = max_failures
        self.on_frame = on_frame
        self.dropped = 0
        self.captured = 0
        self.error: str | None = None
        self._cond = threading.Condition()
        self._frame: np.ndarray | None = None
        self._fresh = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera-capture", daemon=True)

    def start(self) -> CaptureThread:
        self._thread.start()
        return self

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            ok, frame = self.source.read()
            if not ok or frame is None:
                failures += 1
                if failures >= self.max_failures:
                    with self._cond:
                        self.error = f"camera gave no frame {failures} times in a row"
                        log.error("%s; capture stopped", self.error)
                        self._cond.notify_all()
                    return
                continue
            failures = 0
            with self._cond:
                if self._fresh:
                    self.dropped += 1
                self._frame, self._fresh = frame, True
                self.captured += 1
                self._cond.notify_all()
            if self.on_frame is not None:
                self.on_frame()

    def read(self, timeout: float | None = 1.0) -> tuple[bool, np.ndarray | None]:
        with self._cond:
            if not self._cond.wait_for(lambda: self._fresh or self.error is not None or self._stop.is_set(),
                                       timeout):
                return False, None
            if not self._fresh:
                return False, None
            self._fresh = False
            return True, self._frame

    def release(self) -> None:
        """Stop the thread and release the source."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self.source.release()
