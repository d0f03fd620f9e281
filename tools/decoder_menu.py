"""What each of the second look's costlier remedies costs and reads: a menu for choosing between time and reads.

    python tools/decoder_menu.py [--seeds 3,19,23,29] [--frames 20] [--size 1280x720]

Issue 37 asks for both: today's reads (and more) and a time a frame within x1.5 of the decoder as filed. At
720p they do not go together (docs/benchmarks.md, issue 37's thirteenth round). This reads the outsider's
frames (``vision.measure_outsider_run``: playing cards in play and the four layouts of bidding cards,
``--frames`` of each kind, at ``--size``) with the decoder as filed (its own commit, as
``tools/time_as_filed.py`` reads it), today's, and today's with remedies turned off by the flags it already
has (``VARIANTS``), all on the same frames, taking turns. For each seed and decoder it prints the time a
playing-card frame (median of each frame's fastest of 3 reads) over the filed decoder's, and the share read of
fully visible playing cards, of fully visible bidding cards, and of each seat's last call where its card is
fully visible, and false reads (as ``cardtable bench vision --outsider`` scores them). Exit 2 with one line
when an argument is wrong or the filed commit cannot be read.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from time_as_filed import import_as_filed, parse_size  # noqa: E402

VARIANTS: dict[str, dict[str, bool]] = {
    "today": {},
    "no glare look": {"glare": False},
    "no module-by-module read": {"regrid": False},
    "neither": {"glare": False, "regrid": False},
    "neither, nor narrow closing": {"glare": False, "regrid": False, "narrow": False},
}
"""Today's decoder with some of issue 37's remedies off: ``glare`` (candidates under a glare patch,
``lookagain.glare_candidates``), ``regrid`` (a small candidate left unread read module by module,
``vision.regrid``), ``narrow`` (the ink also closed two pixels narrower, ``lookagain._blobs``)."""


def tally(decoders: dict[str, Any], seed: int, frames: int, size: tuple[int, int]) -> dict[str, dict[str, Any]]:
    """Each decoder's times and scores on ``seed``'s frames: ``ms`` (playing-card frames, fastest of 3),
    ``cards``, ``calls``, ``tops`` (lists of read or not) and ``false`` (a count)."""
    from vision.measure_outsider_run import LAYOUTS, _fastest, outsider_frames, score

    out: dict[str, dict[str, Any]] = {n: {"ms": [], "cards": [], "calls": [], "tops": [], "false": 0} for n in decoders}
    for kind, _f, _cam, scene, _size, frame, view in outsider_frames(("deal", *LAYOUTS), frames, seed, (size,)):
        for name, (reading, ms) in _fastest(decoders, frame, 3 if kind == "deal" else 1).items():
            s, t = score(scene, view, reading), out[name]
            if kind == "deal":
                t["ms"].append(ms)
                t["cards"] += [g for g, _ in s["cards"]]
            else:
                t["calls"] += [g for g, _ in s["calls"]]
                t["tops"] += s["tops"]
            t["false"] += s["false"]
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="tools/decoder_menu.py", description=__doc__.split("\n", 1)[0])
    ap.add_argument("--seeds", default="3,19,23,29")
    ap.add_argument("--frames", type=int, default=20, help="frames of each kind a seed")
    ap.add_argument("--size", default="1280x720", help="frame size, WIDTHxHEIGHT")
    ap.add_argument("--commit", default="119efc7", help="the commit of when issue 37 was filed")
    args = ap.parse_args(argv)
    size = parse_size(args.size)
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        seeds = []
    if size is None or not seeds or args.frames < 1:
        what = (f"--size {args.size!r} is not WIDTHxHEIGHT (1280x720)" if size is None else
                f"--seeds {args.seeds!r} is not a list of whole numbers" if not seeds else
                f"--frames {args.frames} is under 1")
        print(f"tools/decoder_menu.py: {what}", file=sys.stderr)
        return 2
    import cv2
    import numpy as np

    from vision.decode import ZxingDecoder

    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            old = import_as_filed(args.commit, Path(tmp))
        except subprocess.CalledProcessError as exc:
            print(f"tools/decoder_menu.py: cannot read commit {args.commit}'s vision package: "
                  f"{exc.stderr.decode(errors='replace').strip()}", file=sys.stderr)
            return 2

        def share(xs: list[bool]) -> str:
            return f"{sum(xs) / len(xs):.3f}" if xs else "-"

        for seed in seeds:
            decoders: dict[str, Any] = {"as filed": old.ZxingDecoder(find_unreadable=True)}  # type: ignore[attr-defined]
            decoders.update({n: ZxingDecoder(find_unreadable=True, **flags) for n, flags in VARIANTS.items()})
            t = tally(decoders, seed, args.frames, size)
            base = float(np.median(t["as filed"]["ms"]))
            print(f"seed {seed} ({size[0]}x{size[1]}, {args.frames} frames a kind): time a playing-card frame over "
                  f"the filed decoder's; playing cards, bidding cards, last calls read; false reads", flush=True)
            for name, v in t.items():
                ms = float(np.median(v["ms"]))
                print(f"  {name:28} x{ms / base:.2f} ({ms:.1f} ms)  cards {share(v['cards'])} of {len(v['cards'])}  "
                      f"calls {share(v['calls'])} of {len(v['calls'])}  last calls {share(v['tops'])} of "
                      f"{len(v['tops'])}  false {v['false']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
