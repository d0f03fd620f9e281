"""The decoder as issue 37 was filed, from its own commit, timed beside ``bench.vision.filed`` and today's.

    python tools/time_as_filed.py [--seeds 3,19,23,29] [--frames 20] [--size 1280x720] [--parts]
                                  [--commit 119efc7]

``cardtable bench vision --against filed`` stands for the decoder of when issue 37 was filed by today's code
with the rounds' remedies turned off (``firmware_host/bench/vision.py:filed``). This reads the ``vision``
package of that commit (``git archive``, run in this clone) into a temporary folder under another name,
and reads the outsider's playing cards (``vision.measure_outsider_run.outsider_frames``; 1280x720 unless
``--size`` says otherwise) with all three decoders in one process on the same frames, taking turns, each
frame's fastest of 3 reads; it prints each seed's medians (ms a frame) and their ratios.

``--parts``: where today's decoder spends a frame, from the same reads (each frame's fastest): finding the
second look's candidates (``lookagain.code_candidates`` and ``glare_candidates``), the remedies of candidates
that read and of those left unread (``lookagain.read_glare_candidate``, ``regrid.read_by_grid``), and the rest
(the whole-frame pass, card shapes, the closer look at card shapes); each a median over the frames. Then what
today's time would be with a part taken away (each frame's time less that part, the median over the frames),
as a ratio of the filed decoder's time: a bound on what making that part cheaper can give.

Exit 2 with one line when the commit cannot be read or an argument is wrong.
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FIND, READ, UNREAD = "finding candidates", "remedies that read", "remedies left unread"


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


@contextmanager
def parts_timed(spent: dict[str, float]) -> Iterator[None]:
    """While open, today's second look adds the seconds it spends to ``spent`` (``FIND``, ``READ``, ``UNREAD``):
    its functions are wrapped where the decoder calls them (module attributes), and put back on leaving."""
    from vision import lookagain, regrid

    def timed(fn: Callable[..., Any], part: str | None) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            out = fn(*args, **kwargs)
            key = part or (READ if out else UNREAD)
            spent[key] = spent.get(key, 0.0) + time.perf_counter() - t
            return out
        return run

    wrapped = [(lookagain, "code_candidates", FIND), (lookagain, "glare_candidates", FIND),
               (lookagain, "read_glare_candidate", None), (regrid, "read_by_grid", None)]
    saved = [(mod, name, getattr(mod, name)) for mod, name, _ in wrapped]
    try:
        for mod, name, part in wrapped:
            setattr(mod, name, timed(getattr(mod, name), part))
        yield
    finally:
        for mod, name, fn in saved:
            setattr(mod, name, fn)


def parse_size(text: str) -> tuple[int, int] | None:
    m = re.fullmatch(r"(\d{2,5})x(\d{2,5})", text.strip())
    return (int(m[1]), int(m[2])) if m else None


def parsed(prog: str, doc: str, frames_help: str, argv: list[str], parts: bool = False
           ) -> tuple[argparse.Namespace, tuple[int, int], list[int]] | None:
    """The arguments this tool and ``tools/decoder_menu.py`` share (with ``parts``, this tool's ``--parts``)
    and the size and seeds they give, or None after one line on standard error naming what is wrong."""
    ap = argparse.ArgumentParser(prog=prog, description=doc.split("\n", 1)[0])
    ap.add_argument("--seeds", default="3,19,23,29")
    ap.add_argument("--frames", type=int, default=20, help=frames_help)
    ap.add_argument("--size", default="1280x720", help="frame size, WIDTHxHEIGHT (1280x720 or 1920x1080)")
    ap.add_argument("--commit", default="119efc7", help="the commit of when issue 37 was filed")
    if parts:
        ap.add_argument("--parts", action="store_true", help="also where today's decoder spends a frame")
    args = ap.parse_args(argv)
    size = parse_size(args.size)
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        seeds = []
    if size is not None and seeds and args.frames >= 1:
        return args, size, seeds
    what = (f"--size {args.size!r} is not WIDTHxHEIGHT (1280x720)" if size is None else
            f"--seeds {args.seeds!r} is not a list of whole numbers" if not seeds else
            f"--frames {args.frames} is under 1")
    print(f"{prog}: {what}", file=sys.stderr)
    return None


def run_tool(prog: str, doc: str | None, frames_help: str, argv: list[str],
             body: Callable[[argparse.Namespace, tuple[int, int], list[int], Any], int], parts: bool = False) -> int:
    """Parse ``argv`` (``parsed``), import the filed decoder's package into a temporary folder
    (``import_as_filed``), set OpenCV to one thread, and run ``body`` with the arguments, the size, the seeds
    and that package; 2 after one line on standard error when the arguments are wrong or the commit cannot be
    read."""
    given = parsed(prog, doc or "", frames_help, argv, parts)
    if given is None:
        return 2
    args, size, seeds = given
    import cv2

    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            old = import_as_filed(args.commit, Path(tmp))
        except subprocess.CalledProcessError as exc:
            print(f"{prog}: cannot read commit {args.commit}'s vision package: "
                  f"{exc.stderr.decode(errors='replace').strip()}", file=sys.stderr)
            return 2
        return body(args, size, seeds, old)


def main(argv: list[str]) -> int:
    return run_tool("tools/time_as_filed.py", __doc__, "frames a seed (the time goal is judged on 20)", argv, timed,
                    parts=True)


def timed(args: argparse.Namespace, size: tuple[int, int], seeds: list[int], old: Any) -> int:
    """Time the three decoders (and with ``--parts`` today's parts) on each seed's frames; print the medians."""
    import numpy as np

    from firmware_host.bench.vision import filed
    from vision.decode import ZxingDecoder
    from vision.measure_outsider_run import outsider_frames

    decoders = {"as filed (git)": old.ZxingDecoder(find_unreadable=True),  # type: ignore[attr-defined]
                "filed (flags)": filed(), "now": ZxingDecoder(find_unreadable=True)}
    names = list(decoders)
    for seed in seeds:
        best: dict[str, list[float]] = {k: [] for k in names}
        parts: list[dict[str, float]] = []  # today's, each frame's fastest read
        for i, item in enumerate(outsider_frames(("deal",), args.frames, seed, (size,))):
            frame, fastest = item[5], dict.fromkeys(names, float("inf"))
            fastest_parts: dict[str, float] = {}
            for r in range(3):
                for k in names if (i + r) % 2 == 0 else names[::-1]:
                    spent: dict[str, float] = {}
                    with parts_timed(spent) if k == "now" and args.parts else nullcontext():
                        t = time.perf_counter()
                        decoders[k].read(frame)
                        took = time.perf_counter() - t
                    if took < fastest[k]:
                        fastest[k] = took
                        if k == "now":
                            fastest_parts = spent
            for k in names:
                best[k].append(fastest[k] * 1000)
            parts.append({p: fastest_parts.get(p, 0.0) * 1000 for p in (FIND, READ, UNREAD)})
        med = {k: float(np.median(v)) for k, v in best.items()}
        git, flags, now = (med[k] for k in names)
        print(f"seed {seed} ({size[0]}x{size[1]}, {args.frames} frames): "
              + ", ".join(f"{k} {v:.1f} ms" for k, v in med.items())
              + f"; now / as filed x{now / git:.2f}, now / flags x{now / flags:.2f}, as filed / flags x{git / flags:.2f}",
              flush=True)
        if args.parts:
            total = np.array(best["now"])
            each = {p: np.array([f[p] for f in parts]) for p in (FIND, READ, UNREAD)}
            rest = total - sum(each.values())
            print("  now's parts (medians, ms a frame): "
                  + ", ".join(f"{p} {float(np.median(v)):.1f}" for p, v in each.items())
                  + f", the rest {float(np.median(rest)):.1f}", flush=True)
            without = {f"without {FIND}": each[FIND], f"without {UNREAD}": each[UNREAD],
                       "without both": each[FIND] + each[UNREAD]}
            print("  now / as filed with a part taken away: "
                  + ", ".join(f"{k} x{float(np.median(total - v)) / git:.2f}" for k, v in without.items()),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
