"""The decoder as issue 37 was filed, from its own commit, timed beside ``bench.vision.filed`` and today's.

    python tools/time_as_filed.py [--seeds 3,19,23,29] [--frames 8] [--commit 119efc7]

``cardtable bench vision --against filed`` stands for the decoder of when issue 37 was filed by today's code
with the rounds' remedies turned off (``firmware_host/bench/vision.py:filed``). This reads the ``vision``
package of that commit (``git archive``, run in this clone) into a temporary folder under another name,
and reads the outsider's playing cards at 1280x720 (``vision.measure_outsider_run.outsider_frames``) with all
three decoders in one process on the same frames, taking turns, each frame's fastest of 3 reads; it prints
each seed's medians (ms a frame) and their ratios. Exit 2 with one line when the commit cannot be read.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def import_as_filed(commit: str, into: Path) -> object:
    """``vision.decode`` of ``commit``, imported as ``vision_filed.decode`` from ``into``."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "vision"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later; Raspberry Pi OS 12 has 3.11.2
            t.extractall(into, filter="data")
        else:  # this clone's own archive: its paths are all under vision/
            t.extractall(into)
    (into / "vision").rename(into / "vision_filed")
    for py in (into / "vision_filed").glob("*.py"):
        text = re.sub(r"^(\s*)(from|import) vision([. ])", r"\1\2 vision_filed\3", py.read_text(), flags=re.M)
        py.write_text(text)
    sys.path.insert(0, str(into))
    import importlib

    return importlib.import_module("vision_filed.decode")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="tools/time_as_filed.py", description=__doc__.split("\n", 1)[0])
    ap.add_argument("--seeds", default="3,19,23,29")
    ap.add_argument("--frames", type=int, default=8)
    ap.add_argument("--commit", default="119efc7", help="the commit of when issue 37 was filed")
    args = ap.parse_args(argv)
    import cv2
    import numpy as np

    from firmware_host.bench.vision import filed
    from vision.decode import ZxingDecoder
    from vision.measure_outsider_run import outsider_frames

    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            old = import_as_filed(args.commit, Path(tmp))
        except subprocess.CalledProcessError as exc:
            print(f"tools/time_as_filed.py: cannot read commit {args.commit}'s vision package: "
                  f"{exc.stderr.decode(errors='replace').strip()}", file=sys.stderr)
            return 2
        decoders = {"as filed (git)": old.ZxingDecoder(find_unreadable=True),  # type: ignore[attr-defined]
                    "filed (flags)": filed(), "now": ZxingDecoder(find_unreadable=True)}
        names = list(decoders)
        for seed in (int(s) for s in args.seeds.split(",")):
            best: dict[str, list[float]] = {k: [] for k in names}
            for i, item in enumerate(outsider_frames(("deal",), args.frames, seed, ((1280, 720),))):
                frame, fastest = item[5], dict.fromkeys(names, float("inf"))
                for r in range(3):
                    for k in names if (i + r) % 2 == 0 else names[::-1]:
                        t = time.perf_counter()
                        decoders[k].read(frame)
                        fastest[k] = min(fastest[k], time.perf_counter() - t)
                for k in names:
                    best[k].append(fastest[k] * 1000)
            med = {k: float(np.median(v)) for k, v in best.items()}
            git, flags, now = (med[k] for k in names)
            print(f"seed {seed}: " + ", ".join(f"{k} {v:.1f} ms" for k, v in med.items())
                  + f"; now / as filed x{now / git:.2f}, now / flags x{now / flags:.2f}, as filed / flags x{git / flags:.2f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
