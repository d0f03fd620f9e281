"""``cardtable labels [--pack ID] [--game GAME] [--out FILE]``: printable code stickers for one pack (a vector
PDF and PNG previews; bare, pack A1's bridge stickers to ``labels-A1.pdf`` here);
``cardtable labels --bidding [--out FILE]``: a bidding box's cards for each seat (``vision/CARD_CODES.md``);
``cardtable labels --members ROSTER.csv [--out FILE]``: one member card for each member of a club's roster."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("labels", help="write a printable sheet of card-code stickers, of bidding cards or "
                                      "of member cards (PDF and PNG)",
                       epilog="example: cardtable labels --pack B7 --game euchre --out labels/b7  (writes "
                              "labels/b7.pdf, labels/b7-1.png ... in the folder labels, which must exist)")
    p.add_argument("--pack", help="pack id: two characters from 0-9 and A-Z, e.g. B7 (playing cards; default A1, "
                                  "one id per pack the club owns)")
    p.add_argument("--game", choices=["contract-bridge", "euchre"],
                   help="the pack's game (playing cards; default contract-bridge: 52 cards, euchre: 32)")
    p.add_argument("--bidding", action="store_true",
                   help="bidding cards instead of a pack: for each seat 35 bids and its passes, doubles and "
                        "redoubles, each with the bidding code the camera reads as that seat's call")
    p.add_argument("--members", metavar="ROSTER", help="member cards instead of a pack: one for each member of the "
                   "club's roster (CSV 'member number,name[,federation number]'), with the code a table's camera "
                   "reads to name the player")
    p.add_argument("--seats", default="NESW", help="with --bidding: the seats whose sets to print (default NESW)")
    p.add_argument("--passes", type=int, default=8, help="with --bidding: pass cards a seat (default 8)")
    p.add_argument("--doubles", type=int, default=2, help="with --bidding: double cards a seat (default 2)")
    p.add_argument("--redoubles", type=int, default=2, help="with --bidding: redouble cards a seat (default 2)")
    p.add_argument("--out", default=None, help="output file; writes FILE.pdf and FILE-N.png (default "
                   "labels-PACK, or bidding-cards with --bidding, in this folder)")
    p.add_argument("--variant", choices=["micro", "qr"], default="micro",
                   help="micro: Micro QR (default); qr: QR for pyzbar with 1080p cameras")
    p.add_argument("--backs", action="store_true", help="add pack-mark stickers for the backs")
    p.add_argument("--sheet", choices=["a4", "letter", "avery-22806"], default="a4",
                   help="a4 or letter: plain sticker paper, 51 x 66 mm stickers to cut out (bidding cards: 51 x "
                        "60 mm); avery-22806: Avery 22806 die-cut 2 in squares, 12 per US Letter sheet (a smaller "
                        "code: module 2.54 mm instead of 2.96 mm, so 14%% fewer pixels per module)")
    p.set_defaults(func=_run)


def _refuse(text: str) -> int:
    print(f"cardtable labels: {text}", file=sys.stderr)
    return 2


def _cannot_write(out: str, exc: OSError) -> str:
    """The one line for a sheet that cannot be written: the --out given and what the system said of which path
    (errno's "[Errno 17] File exists: 'notes.txt'" named neither the option nor the path given)."""
    where = f" ({exc.strerror}: {exc.filename})" if exc.strerror and exc.filename else f" ({exc})"
    return f"--out {out}: cannot write the sheet there{where}"


def _no_folder(out: str | None) -> str:
    """Why ``--out`` cannot be used for want of its folder ("" when it can): a missing folder was made,
    with its parents, where every other command refuses one (``export --out``), so a typing slip
    (``--out lables/b7``) left the sheet in a folder nobody looked in."""
    if out is None or Path(out).parent.exists():
        return ""
    return f"--out {out}: the folder {Path(out).parent} does not exist"


def _members(args: argparse.Namespace) -> int:
    from firmware_host.session.roster import RosterError, read_roster
    from vision.labels_pdf import MissingFont
    from vision.member_labels import write_member_labels

    given = [flag for flag, v in (("--pack", args.pack), ("--game", args.game), ("--backs", args.backs),
                                  ("--bidding", args.bidding)) if v]
    if given:
        return _refuse(f"--members prints member cards: leave out {' and '.join(given)}")
    if args.variant == "qr":  # a member code is a Micro QR (CARD_CODES.md, "Member cards"): never ignored in silence
        return _refuse("--members prints member cards, always Micro QR: leave out --variant qr")
    if args.out is not None and Path(args.out).suffix.lower() not in ("", ".pdf", ".png"):
        return _refuse(f"--out {args.out}: a label sheet is FILE.pdf with FILE-N.png pages; give FILE or FILE.pdf")
    if _no_folder(args.out):
        return _refuse(_no_folder(args.out))
    try:
        roster = read_roster(args.members)
        from vision.codes import encode_member_payload

        for m in roster.members.values():
            try:
                encode_member_payload(m.number)
            except ValueError as exc:
                return _refuse(f"{args.members}: line {m.line}: {exc}")
        try:
            sheet = write_member_labels(args.out or "member-cards",
                                        [(m.number, m.name) for m in roster.members.values()], args.sheet)
        except OSError as exc:  # the sheet's path, not the roster: the roster has been read
            return _refuse(_cannot_write(args.out or "member-cards", exc))
    except (RosterError, MissingFont) as exc:  # a missing font is this machine's, not the roster's fault
        return _refuse(str(exc))
    except (ValueError, OSError) as exc:
        return _refuse(f"{args.members}: {exc}")
    print(f"wrote {len(sheet.placed)} member cards, {sheet.pdf} and {len(sheet.pngs)} PNG page(s): "
          f"{', '.join(map(str, sheet.pngs))}")
    return 0


def _run(args: argparse.Namespace) -> int:
    from vision.bidding_labels import write_bidding_labels
    from vision.labels import write_labels

    if args.members:
        return _members(args)
    if args.bidding:
        given = [flag for flag, v in (("--pack", args.pack), ("--game", args.game), ("--backs", args.backs)) if v]
        if given:
            return _refuse(f"--bidding prints bidding cards, not a pack: leave out {' and '.join(given)}")
    else:
        extra = [f"--{name}" for name, default in (("seats", "NESW"), ("passes", 8), ("doubles", 2),
                                                  ("redoubles", 2)) if getattr(args, name) != default]
        if extra:
            return _refuse(f"{', '.join(extra)} go with --bidding")
        # a bare run works; `--pack ""` (a variable left empty in a script) printed pack A1's stickers
        args.pack, args.game = "A1" if args.pack is None else args.pack, args.game or "contract-bridge"
    if args.out is not None and Path(args.out).suffix.lower() not in ("", ".pdf", ".png"):
        return _refuse(f"--out {args.out}: a label sheet is FILE.pdf with FILE-N.png pages; give FILE or FILE.pdf "
                       f"(not {Path(args.out).suffix})")
    if _no_folder(args.out):
        return _refuse(_no_folder(args.out))
    try:
        if args.bidding:
            sheet = write_bidding_labels(args.out or "bidding-cards", args.seats.upper(), args.variant, args.sheet, args.passes,
                                         args.doubles, args.redoubles)
            what = f"{len(sheet.placed)} bidding cards, "
        else:
            sheet = write_labels(args.pack, args.game, args.out or f"labels-{args.pack}", args.variant, args.backs,
                                 args.sheet)
            what = ""
    except OSError as exc:
        return _refuse(_cannot_write(args.out or ("bidding-cards" if args.bidding else f"labels-{args.pack}"), exc))
    except ValueError as exc:
        return _refuse(str(exc))
    print(f"wrote {what}{sheet.pdf} and {len(sheet.pngs)} PNG page(s): {', '.join(map(str, sheet.pngs))}")
    return 0
