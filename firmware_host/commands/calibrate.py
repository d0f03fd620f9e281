"""``cardtable calibrate``: find the four corner markers and store the table homography."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("calibrate", help="find the ArUco markers at the table corners, store the homography")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", help="camera: index, /dev/videoN, file, URL, picamera2 or synthetic")
    src.add_argument("--image", help="a still image of the table instead of a camera")
    p.add_argument("--out", required=True, help="where to write the calibration (JSON)")
    p.add_argument("--table-mm", type=float, nargs=2, default=(800.0, 450.0), metavar=("W", "H"),
                   help="size of the table area, in mm; the markers' centres lie 40 mm in from its corners (default 800 450)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    import math
    from pathlib import Path

    from vision.calibrate import CalibrationError, calibrate, save_homography
    from vision.camera import CameraError, SyntheticCamera, open_camera
    from vision.scan import ImageError, load_image

    table = (float(args.table_mm[0]), float(args.table_mm[1]))
    if not all(math.isfinite(v) and 0 < v <= 10_000 for v in table):
        print(f"cardtable calibrate: --table-mm {args.table_mm[0]} {args.table_mm[1]}: want two sizes in mm, "
              "each above 0 and at most 10000", file=sys.stderr)
        return 2
    if not Path(args.out).resolve().parent.is_dir():
        print(f"cardtable calibrate: --out {args.out}: the folder {Path(args.out).parent} does not exist",
              file=sys.stderr)
        return 2
    try:
        if args.image:
            frame = load_image(args.image)
        else:
            cam = open_camera(args.camera)
            if isinstance(cam, SyntheticCamera):
                cam.scene.markers = True
            try:
                ok, got = cam.read()
            finally:
                cam.release()
            if not ok or got is None:
                raise CameraError(f"camera {args.camera!r}: gave no frame")
            frame = got
        h = calibrate(frame, table)
        save_homography(args.out, h, (frame.shape[1], frame.shape[0]), table)
    except (CalibrationError, CameraError, ImageError, OSError) as exc:
        print(f"cardtable calibrate: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0
