"""``cardtable labels --pack ID --game GAME --out FILE``: printable code stickers for one pack."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("labels", help="write a printable sheet of card-code stickers (PDF and PNG)")
    p.add_argument("--pack", required=True, help="pack id: two characters from 0-9 and A-Z, e.g. B7")
    p.add_argument("--game", required=True, choices=["contract-bridge", "euchre"])
    p.add_argument("--out", required=True, help="output file; writes FILE.pdf and FILE-N.png")
    p.add_argument("--variant", choices=["micro", "qr"], default="micro",
                   help="micro: Micro QR (default); qr: QR for pyzbar with 1080p cameras")
    p.add_argument("--backs", action="store_true", help="add pack-mark stickers for the backs")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from vision.labels import write_labels

    try:
        sheet = write_labels(args.pack, args.game, args.out, args.variant, args.backs)
    except (ValueError, OSError) as exc:
        print(f"cardtable labels: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {sheet.pdf} and {len(sheet.pngs)} PNG page(s): {', '.join(map(str, sheet.pngs))}")
    return 0
