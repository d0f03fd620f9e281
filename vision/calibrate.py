"""Table calibration: four ArUco markers (4x4, ids 0-3, clockwise from the top-left corner of the
table area) give the homography from frame pixels to table millimetres.

The markers' centres are expected at ``MARKER_INSET_MM`` from each corner of the ``table_mm`` area
(where ``vision.render`` draws them, and where the printed markers go on a real table). The result is
stored as JSON: ``{"homography": 3x3, "frame_size": [w, h], "table_mm": [w, h]}``.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.render import MARKER_DICT, marker_centres_mm


class CalibrationError(ValueError):
    """Markers missing from the frame, or a calibration file that cannot be used."""


def find_markers(frame: np.ndarray) -> dict[int, tuple[float, float]]:
    """Centres (px) of the ArUco markers 0-3 found in ``frame``."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(MARKER_DICT),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, tuple[float, float]] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel()):
        if 0 <= int(i) <= 3:
            centre = c.reshape(-1, 2).mean(axis=0)
            found[int(i)] = (float(centre[0]), float(centre[1]))
    return found


def calibrate(frame: np.ndarray, table_mm: tuple[float, float] = (800.0, 450.0)) -> np.ndarray:
    """The homography frame px -> table mm from the four corner markers.

    Raises:
        CalibrationError: naming the markers that were not found.
    """
    found = find_markers(frame)
    missing = [i for i in range(4) if i not in found]
    if missing:
        raise CalibrationError(f"ArUco marker(s) {missing} not found (want ids 0-3 at the table corners)")
    src = np.float32([found[i] for i in range(4)])
    dst = np.float32(marker_centres_mm(table_mm))
    return np.asarray(cv2.getPerspectiveTransform(src, dst), dtype=np.float64)


def save_homography(path: str | Path, h: np.ndarray, frame_size: tuple[int, int],
                    table_mm: tuple[float, float]) -> None:
    Path(path).write_text(json.dumps({"homography": h.tolist(), "frame_size": list(frame_size),
                                      "table_mm": list(table_mm)}, indent=1) + "\n")


def load_homography(path: str | Path) -> np.ndarray:
    """Read a homography written by ``save_homography``.

    Raises:
        CalibrationError: naming the file and what is wrong.
    """
    p = Path(path)
    try:
        doc = json.loads(p.read_text())
        h = np.array(doc["homography"], dtype=np.float64)
    except OSError as exc:
        raise CalibrationError(f"{p}: cannot read ({exc.strerror})") from None
    except (ValueError, KeyError, TypeError):
        raise CalibrationError(f"{p}: not a calibration file (want JSON with a 3x3 'homography')") from None
    if h.shape != (3, 3) or not np.isfinite(h).all():
        raise CalibrationError(f"{p}: 'homography' must be a 3x3 matrix of numbers")
    if _singular(h):
        raise CalibrationError(f"{p}: 'homography' is singular (all zeros, or it maps the frame onto a line or a "
                               "point, not the table): run cardtable calibrate again")
    return h


SINGULAR_BELOW = 1e-10  # a homography's least singular value over its greatest, below which it is refused


def _singular(h: np.ndarray) -> bool:
    """Whether ``h`` cannot map frame pixels to table millimetres: a matrix of zeros, or one of rank under 3,
    sends every pixel to one point or line (or divides by zero), so every code's zone came out null and numpy
    warned on stderr (audit 61). A calibration's spread of singular values is about 1e-3 (a translation of
    hundreds of millimetres beside a scale under one), far from ``SINGULAR_BELOW``."""
    s = np.linalg.svd(h, compute_uv=False)
    return bool(s[0] == 0 or s[-1] / s[0] < SINGULAR_BELOW)
