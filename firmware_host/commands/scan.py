"""``cardtable scan IMAGE...``: the cards the camera code reads in still images, one JSON line each."""

from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("scan", help="read the card codes in images (one JSON line per image)")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files")
    p.add_argument("--json", action="store_true", help="JSON lines (the default and only format)")
    p.add_argument("--decoder", choices=["zxing", "pyzbar"], default="zxing", help="decoder backend")
    p.add_argument("--variants", default="micro,qr",
                   help="symbols zxing-cpp looks for: micro, qr or both (default micro,qr)")
    p.add_argument("--config", help="TOML file with [vision] and [zones] (zones and homography)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from vision.calibrate import CalibrationError, load_homography
    from vision.decode import make_decoder
    from vision.scan import ImageError, load_image, scan_image
    from vision.zones import ConfigError, VisionConfig, load_vision_config

    try:
        cfg = load_vision_config(args.config) if args.config else VisionConfig()
        hom = load_homography(cfg.homography_file) if cfg.homography_file else None
        variants = tuple(v.strip() for v in args.variants.split(",") if v.strip())
        decoder = make_decoder(args.decoder, cfg.heavy_ec_below, variants)
    except (ConfigError, CalibrationError, ValueError, OSError) as exc:
        print(f"cardtable scan: {exc}", file=sys.stderr)
        return 2
    rc = 0
    for path in args.images:
        try:
            image = load_image(path)
        except ImageError as exc:
            print(f"cardtable scan: {exc}", file=sys.stderr)
            rc = 2
            continue
        record = scan_image(decoder, image, path, cfg.zones, hom, cfg.table_mm)
        print(json.dumps(record), flush=True)
    return rc
