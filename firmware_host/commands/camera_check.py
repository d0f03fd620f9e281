"""``cardtable camera-check``: can this camera, mounted this way with these settings, read the cards?

Exit codes: 0 every check passed; 1 a check is marginal or failed (the report says what to change);
2 bad input (a camera that does not open or gives no frame, an unreadable image, a wrong config);
3 no card code was read, so the size check cannot be judged (the other checks are still printed).
"""

from __future__ import annotations

import argparse
import json
import sys

from firmware_host.commands.guard import number, whole


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "camera-check", help="measure sharpness, brightness, glare and px per module of the codes in view",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", help="camera: index, /dev/videoN, picamera2, a file or URL, or synthetic")
    src.add_argument("--image", help="a still image taken by the table camera")
    p.add_argument("--config", help="table.toml: its [camera] exposure_us, gain, v4l2_gain, width, height")
    # the ranges of [camera] exposure_us and gain (config/load.py)
    p.add_argument("--exposure-us", type=whole(0, 1_000_000), default=None,
                   help="try this shutter (us, 0 to 1000000; 0 = auto)")
    p.add_argument("--gain", type=number(0, 64), default=None, help="try this analogue gain (picamera2; 0 to 64, 0 = auto)")
    p.add_argument("--frames", type=whole(1, 1000), default=10, help="frames to take from a camera; the one "
                   "with the most codes read is judged (1 to 1000, default 10)")
    p.add_argument("--variant", choices=["micro", "qr"], default="micro", help="which symbol the labels carry")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from vision.camcheck import check_frame
    from vision.camera import CameraError, Exposure, open_camera
    from vision.decode import FrameError, make_decoder
    from vision.scan import ImageError, load_image

    def bad(msg: object) -> int:
        print(f"cardtable camera-check: {msg}", file=sys.stderr)
        return 2

    exposure_us: int | None = None
    try:
        size, exp = (1280, 720), Exposure()
        if args.config:
            from firmware_host.config import ConfigError, load_config

            try:
                cam = load_config(args.config, check_devices=False).camera
            except ConfigError as exc:
                return bad(exc)
            size, exp = (cam.width, cam.height), Exposure(cam.exposure_us, cam.gain, cam.v4l2_gain)
        if args.exposure_us is not None or args.gain is not None:
            exp = Exposure(exp.exposure_us if args.exposure_us is None else args.exposure_us,
                           exp.gain if args.gain is None else args.gain, exp.v4l2_gain)
        if args.frames < 1:
            return bad(f"--frames must be at least 1, got {args.frames}")
        decoder = make_decoder("zxing", variants=(args.variant,))
        if args.image:
            frames = [load_image(args.image)]
        else:
            exposure_us = exp.exposure_us
            source = open_camera(args.camera, size, exp)
            try:
                frames = [f for ok, f in (source.read() for _ in range(args.frames)) if ok and f is not None]
            finally:
                source.release()
            if not frames:
                raise CameraError(f"camera {args.camera!r}: gave no frame")
        reports = [check_frame(decoder, f, exposure_us, args.variant) for f in frames]
    except FrameError as exc:  # a picture the decoder refuses: named when it came from a file
        return bad(f"{args.image}: {exc}" if args.image else exc)
    except (CameraError, ImageError, OSError) as exc:
        return bad(exc)
    report = max(reports, key=lambda r: len(r.codes))
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        print(f"frame {report.size[0]}x{report.size[1]}: {len(report.codes)} card code(s) read, "
              f"{len(report.unread_regions)} code-like region(s) not read")
        for c in sorted(report.codes, key=lambda c: c.ppm):
            print(f"  {c.words} at ({c.x:.0f}, {c.y:.0f}): {c.ppm:.2f} px/module, edges {c.edge_sigma_modules:.2f} "
                  "module")
        for x, y, p in report.unread_regions:
            print(f"  not read: code-like region at ({x:.0f}, {y:.0f}), about {p:.2f} px/module")
        for ch in report.checks:
            print(f"{ch.status.upper():9s}{ch.name}: {ch.advice}")
        print(f"verdict: {report.worst}")
    if not report.codes:
        return 3
    return 0 if report.worst == "ok" else 1
