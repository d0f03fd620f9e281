"""``cardtable labels [--pack ID] [--game GAME] [--out FILE]``: printable code stickers for one pack.

Bare, it writes pack A1's bridge stickers to ``labels-A1.pdf`` (and its PNG previews) here.
"""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("labels", help="write a printable sheet of card-code stickers (vector PDF, PNG previews)",
                       epilog="example: cardtable labels --pack B7 --game euchre --out labels/b7  (writes "
                              "labels/b7.pdf, labels/b7-1.png ...)")
    p.add_argument("--pack", default="A1",
                   help="pack id: two characters from 0-9 and A-Z, e.g. B7 (default A1); one id per pack the "
                        "club owns")
    p.add_argument("--game", default="contract-bridge", choices=["contract-bridge", "euchre"],
                   help="which cards (default contract-bridge: 52; euchre: 32)")
    p.add_argument("--out", default=None,
                   help="output file; writes FILE.pdf and FILE-N.png (default labels-PACK in this folder)")
    p.add_argument("--variant", choices=["micro", "qr"], default="micro",
                   help="micro: Micro QR (default); qr: QR for pyzbar with 1080p cameras")
    p.add_argument("--backs", action="store_true", help="add pack-mark stickers for the backs")
    p.add_argument("--sheet", choices=["a4", "letter", "avery-22806"], default="a4",
                   help="a4 or letter: plain sticker paper, 51 x 66 mm stickers to cut out; avery-22806: "
                        "Avery 22806 die-cut 2 in squares, 12 per US Letter sheet (a smaller code: module "
                        "2.54 mm instead of 2.96 mm, so 14%% fewer pixels per module)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from vision.labels import write_labels

    try:
        sheet = write_labels(args.pack, args.game, args.out or f"labels-{args.pack}", args.variant, args.backs,
                             args.sheet)
    except (ValueError, OSError) as exc:
        print(f"cardtable labels: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {sheet.pdf} and {len(sheet.pngs)} PNG page(s): {', '.join(map(str, sheet.pngs))}")
    return 0
