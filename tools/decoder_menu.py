"""What each of the second look's costlier remedies costs and reads: a menu for choosing between time and reads.

    python tools/decoder_menu.py [--seeds 3,19,23,29] [--frames 20] [--size 1280x720]

Issue 37 asks for both: today's reads (and more) and a time a frame within x1.5 of the decoder as filed. At
720p they do not go together (docs/benchmarks.md, issue 37's thirteenth round). This reads the outsider's
frames (``vision.measure_outsider_run``: playing cards in play and the four layouts of bidding cards,
``--frames`` of each kind, at ``--size``) with the decoder as filed (its own commit, as
``tools/time_as_filed.py`` reads it), today's, and today's with a remedy turned on or off as ``[vision] remedies``
chooses (``VARIANTS``), all on the same frames, taking turns. For each seed and decoder it prints the time a
playing-card frame (median of each frame's fastest of 3 reads) over the filed decoder's, and the share read of
fully visible playing cards, of fully visible bidding cards, and of each seat's last call where its card is
fully visible, and false reads (as ``cardtable bench vision --outsider`` scores them). Exit 2 with one line
when an argument is wrong or the filed commit cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from time_as_filed import run_tool  # noqa: E402

VARIANTS: dict[str, tuple[str, ...]] = {
    "today": ("glare", "regrid", "narrow"),
    "with the fainter glare look": ("glare", "regrid", "narrow", "faint_glare"),
    "no glare look": ("regrid", "narrow"),
    "no module-by-module read": ("glare", "narrow"),
    "neither": ("narrow",),
    "neither, nor narrow closing": (),
}
"""Today's decoder with each choice of ``[vision] remedies`` (vision/CARD_CODES.md, "The [vision] section"),
printed beside each row: the glare look's fainter ink on (``faint_glare``, ``lookagain.FAINT_GLARE_INK``: off by
default), or some of issue 37's remedies off: ``glare`` (candidates under a glare patch,
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
    return run_tool("tools/decoder_menu.py", __doc__, "frames of each kind a seed", argv, menu)


def menu(args: argparse.Namespace, size: tuple[int, int], seeds: list[int], old: Any) -> int:
    """Read each seed's frames with the filed decoder and every variant; print their times and reads."""
    import numpy as np

    from vision.decode import make_decoder

    def share(xs: list[bool]) -> str:
        return f"{sum(xs) / len(xs):.3f}" if xs else "-"

    for seed in seeds:
        decoders: dict[str, Any] = {"as filed": old.ZxingDecoder(find_unreadable=True)}  # type: ignore[attr-defined]
        decoders.update({n: make_decoder("zxing", remedies=r) for n, r in VARIANTS.items()})
        t = tally(decoders, seed, args.frames, size)
        base = float(np.median(t["as filed"]["ms"]))
        print(f"seed {seed} ({size[0]}x{size[1]}, {args.frames} frames a kind): time a playing-card frame over "
              f"the filed decoder's; playing cards, bidding cards, last calls read; false reads", flush=True)
        for name, v in t.items():
            ms = float(np.median(v["ms"]))
            print(f"  {name:28} x{ms / base:.2f} ({ms:.1f} ms)  cards {share(v['cards'])} of {len(v['cards'])}  "
                  f"calls {share(v['calls'])} of {len(v['calls'])}  last calls {share(v['tops'])} of "
                  f"{len(v['tops'])}  false {v['false']}"
                  + (f"  remedies = {list(VARIANTS[name])}" if name in VARIANTS else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
