"""How ``vision.lookagain``'s deconvolution tries (``DEBLUR_TRIES``, ``CARD_DEBLUR_TRIES``) were chosen.

Not on the degradation benchmark's frames (``vision.photo``): those grade the decoder, so they must not
tune it. The tuning frames come from the *first* generator (``vision.render``, the benchmark's
``layout``): 13 cards, the whole frame smeared in linear light by 1.2-5 modules at any angle, with shot
and read noise, at 1280x720 and 1920x1080. Every smeared region the decoder looks at (a code cut out,
or a whole unread card) is deconvolved with each of 60 tries (share of the measured smear x Wiener
noise-to-signal x median filter) and read; tries are then picked greedily, three per kind of region,
for the most regions read.

    .venv/bin/python tools/tune_deblur.py            # about 15 minutes on two cores
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator

import cv2
import numpy as np

from vision import deblur, lookagain
from vision.decode import ZxingDecoder
from vision.measure import PACK, layout
from vision.render import Degrade, render

TRIES = [(f, s, q) for f in (0.85, 0.93, 1.0, 1.08, 1.16) for s in (0.002, 0.005, 0.01, 0.02) for q in (0, 0.4, 0.7)]


def _line(length: float, angle: float) -> np.ndarray:
    n = int(math.ceil(length)) + 3 | 1
    k = np.zeros((n, n), np.float32)
    a = math.radians(angle)
    for t in np.linspace(-length / 2, length / 2, int(length * 8) + 2):
        k[int(round(n // 2 + t * math.sin(a))), int(round(n // 2 + t * math.cos(a)))] += 1
    return k / k.sum()


def frames(per_size: int = 36, seed: int = 2024) -> Iterator[tuple[np.ndarray, set[str]]]:
    """The tuning frames and the payload prefixes (version, pack, card) of the cards in each."""
    rng = np.random.default_rng(seed)
    for size in ((1280, 720), (1920, 1080)):
        ppm = 3.0 * size[0] / 800  # the render's 800 mm table across the frame, 3 mm modules
        for i in range(per_size):
            scene = layout(np.random.default_rng(1000 + i), 13, "micro")
            img = render(scene, size, Degrade(blur=float(rng.uniform(0.2, 0.6)), contrast=float(rng.uniform(0.7, 1))),
                         np.random.default_rng(i))
            lin = cv2.filter2D((img.astype(np.float32) / 255) ** 2.2, -1,
                               _line(float(rng.uniform(1.2, 5.0)) * ppm, float(rng.uniform(0, 180))),
                               borderType=cv2.BORDER_REFLECT)
            lin = np.clip(lin, 0, 1)
            lin = lin + rng.normal(0, 0.004 + 0.01 * np.sqrt(lin))  # shot and read noise
            yield ((np.clip(lin, 0, 1) ** (1 / 2.2) * 255 + 0.5).astype(np.uint8),
                   {f"1{PACK}{p.card}" for p in scene.placements})


def main() -> None:
    logging.disable(logging.WARNING)
    cv2.setNumThreads(1)
    table: dict[bool, list[list[bool]]] = {False: [], True: []}  # whole card?: per region, per try: read
    truth: set[str] = set()
    decoder = ZxingDecoder()
    plain = lookagain.read_candidate

    def every_try(gray: np.ndarray, cand: lookagain.Candidate, read: lookagain.Reader) -> lookagain.RawReads:
        base = lookagain._cut(gray, cand.x, cand.y, cand.reach or cand.side * 1.15)[0]
        ppm = cand.side / lookagain.MODULES
        angle, length, _ = deblur.smear(base, ppm)
        if length:
            k = float(np.clip(lookagain.SMEARED_PPM / ppm, 1.0, 4.0))
            undo = deblur.Deblur(base, deblur.GAMMA)
            row = []
            for f, nsr, quiet in TRIES:
                img = cv2.resize(undo(f * length, angle, nsr), None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
                found, _ = read(lookagain._quiet(img, quiet * ppm * k))
                row.append(any(t[:5] in truth for t, *_ in found))
            table[cand.card].append(row)
        return plain(gray, cand, read)

    lookagain.read_candidate = every_try  # type: ignore[assignment]
    for img, cards in frames():
        truth = cards
        decoder.read(img)
    for card, rows in table.items():
        ok = np.array(rows, bool)
        chosen: list[int] = []
        for _ in range(3):
            chosen.append(max((i for i in range(len(TRIES)) if i not in chosen),
                              key=lambda i: int(ok[:, chosen + [i]].any(axis=1).sum())))
        print(("whole cards" if card else "codes cut out") + f": {len(ok)} smeared regions, "
              f"{int(ok.any(axis=1).sum())} read by some try; chosen {[TRIES[i] for i in chosen]} read "
              f"{[int(ok[:, chosen[:n]].any(axis=1).sum()) for n in (1, 2, 3)]}")


if __name__ == "__main__":
    main()
