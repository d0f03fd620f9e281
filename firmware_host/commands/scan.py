"""``cardtable scan IMAGE...``: the cards the camera code reads in still images, one JSON line each."""

from __future__ import annotations

import argparse
import json
import sys

FIELDS = """\
output: one JSON line per image, {"image", "cards": [...], "unreadable": [{"x", "y"}...], "calls": [...]};
each card is
  card           the card ("TD"), or null for a back's pack mark
  pack           the pack id its code names
  x, y           centre of the CODE (the symbol), frame pixels from the top-left
  card_x, card_y centre of the CARD, from the code's size and direction and the label geometry
                 (vision/CARD_CODES.md: the code sits 2.3 modules below the sticker's centre)
  px_per_module  the code's pixels per module (the decoder wants 3 or more)
  face_up        false for a back's pack mark
  zone           the table zone holding the code's centre, or null
  unreadable     centres of card-shaped objects in which no code read
each call (a bidding card read) is
  seat           the seat whose set the card belongs to (N, E, S, W)
  call           the call in the event format ("1H", "3NT", "pass", "double", "redouble")
  copy           the copy character of its code (several pass cards of one seat differ by it)
  x, y           centre of the code, frame pixels; zone: the table zone holding it, or null
with --stats a last line {"stats": {"images", "cards", "calls", "unreadable", "rejected": {REASON: N}}}
counts the images read, the cards (playing cards and backs' pack marks) and calls (bidding cards) read,
the unreadable card shapes, and the decoded texts that are neither card nor bidding codes by the rule
they broke, every rule named (0 when none broke it), in this order: length, charset, version,
check, card (a card code's card), seat and call (a bidding code's seat or call): vision/CARD_CODES.md.
remedies: the zxing decoder's costly second-look remedies, glare, regrid, narrow and faint_glare (the last
only with glare); the default is the config's [vision] remedies, or glare,regrid,narrow; "none" uses none.
What each reads and costs: vision/CARD_CODES.md, "The [vision] section".
zones: the default zones, the [zones] syntax and what a point between zones gives are in
vision/CARD_CODES.md, "Table zones".
an image in which no code was read but codes of ours in the symbol not read are (QR labels read with
--variants micro) is said on stderr, naming --variants micro,qr.
exit status: 0 every image read; 1 with --decoder pyzbar, an image in which it read no code (pyzbar reads
full QR only, not the Micro QR the labels carry by default); 2 an image or the configuration could not be
used (named on stderr)."""
PYZBAR_NOTE = ("pyzbar (zbar) reads full QR codes only, not Micro QR, which the labels carry by default: "
               "use --decoder zxing (Micro QR and QR by default), or print QR labels "
               "(cardtable labels --variant qr)")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("scan", help="read the card codes in images (one JSON line per image)",
                       epilog=FIELDS, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files")
    p.add_argument("--json", action="store_true", help="JSON lines (the default and only format)")
    p.add_argument("--decoder", choices=["zxing", "pyzbar"],
                   help="decoder backend: zxing (Micro QR and QR) or pyzbar (full QR only); default: the config's "
                        "[vision] decoder, else zxing")
    p.add_argument("--variants",
                   help="symbols the zxing decoder reads: micro, qr or both (default: the config's [vision] "
                        "variants, else micro,qr, as the table's)")
    p.add_argument("--remedies", help="the zxing decoder's second-look remedies, comma-separated, or none "
                   "(default: the config's [vision] remedies, else glare,regrid,narrow)")
    p.add_argument("--config", help="the table's TOML file, or one with [vision] and [zones]: read as the table "
                   "reads them (camera.decoder, a homography file beside it, variants, remedies, zones)")
    p.add_argument("--stats", action="store_true", help="end with a line counting the images, cards, calls and unreadable shapes, "
                        "and the rejected codes by reason")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from vision.calibrate import CalibrationError, load_homography
    from vision.codes import RejectReason
    from vision.decode import FrameError, make_decoder
    from vision.scan import ImageError, load_image, scan_image
    from vision.zones import VARIANTS, ConfigError, VisionConfig, load_vision_config, parse_remedies

    try:
        cfg = load_vision_config(args.config) if args.config else VisionConfig()
        try:
            hom = load_homography(cfg.homography_file) if cfg.homography_file else None
        except CalibrationError as exc:  # named as the table names it at start: the file and the key
            raise ConfigError(f"{args.config}: vision.homography_file: {exc}") from None
        args.decoder = args.decoder or cfg.decoder
        # one default, the table's (VisionConfig's): scan without --config used micro,qr, so a picture read
        # differently with a --config that did not name its variants (audit 61)
        variants = (tuple(v.strip() for v in args.variants.split(",") if v.strip()) if args.variants
                    else cfg.variants)
        if args.variants is not None and (not variants or any(v not in VARIANTS for v in variants)):
            raise ConfigError(f"--variants: want micro, qr or both, comma-separated, got {args.variants!r}")
        remedies = cfg.remedies if args.decoder == "zxing" else None
        if args.remedies is not None:
            names = [r.strip() for r in args.remedies.split(",") if r.strip()]
            remedies = () if names == ["none"] else parse_remedies(names, "--remedies")
            if remedies and args.decoder == "pyzbar":
                raise ConfigError("--remedies: the pyzbar decoder has no second look, so it takes none")
        decoder = make_decoder(args.decoder, cfg.heavy_ec_below, variants, remedies, cfg.table_mm)
    except (ConfigError, CalibrationError, ValueError, OSError) as exc:
        print(f"cardtable scan: {exc}", file=sys.stderr)
        return 2
    rc = 0
    if args.decoder == "pyzbar":
        print(f"cardtable scan: note: {PYZBAR_NOTE}", file=sys.stderr)
    totals = {"images": 0, "cards": 0, "calls": 0, "unreadable": 0}
    for path in args.images:
        try:
            image = load_image(path)
        except ImageError as exc:
            print(f"cardtable scan: {exc}", file=sys.stderr)
            rc = 2
            continue
        try:
            record = scan_image(decoder, image, path, cfg.zones, hom, cfg.table_mm)
        except FrameError as exc:  # an image the decoder refuses: named, and the batch goes on
            print(f"cardtable scan: {path}: {exc}", file=sys.stderr)
            rc = 2
            continue
        print(json.dumps(record), flush=True)
        if args.decoder == "pyzbar" and not record["cards"]:
            print(f"cardtable scan: {path}: pyzbar read no code here (it reads full QR only)", file=sys.stderr)
            rc = max(rc, 1)
        elif not record["cards"] and not record["calls"]:
            unasked = decoder.unasked_variant(image)   # labels of the symbol not read: say which, and how
            if unasked:
                words = {"micro": "Micro QR", "qr": "QR"}
                print(f"cardtable scan: {path}: no code read, but card codes printed as {words[unasked]} are "
                      f"here, and only {' and '.join(words[v] for v in variants)} is read: give --variants micro,qr",
                      file=sys.stderr)
        totals["images"] += 1
        totals["cards"] += len(record["cards"])
        totals["calls"] += len(record["calls"])
        totals["unreadable"] += len(record["unreadable"])
    if args.stats:
        rejected = {r.value: decoder.rejected[r.value] for r in RejectReason}
        print(json.dumps({"stats": {**totals, "rejected": rejected}}), flush=True)
    return rc
