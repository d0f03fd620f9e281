"""``cardtable bench vision``: decoding speed and accuracy on degraded synthetic frames.

For each frame size and card count, random layouts ("cases") are rendered frame after frame with the
same degradation (new noise, hands, glare spot and JPEG each frame). Hands over the table hide a card's
code now and then; the renderer says which (``render_with_cover``), so two figures are kept apart:

- in view: a card is confirmed when it is read in 2 of the first 3 frames in which its code is not
  under a hand (the watcher's default k=2 of n=3). Frames are rendered until every card of the case has
  had 3 such frames (at most ``MAX_FRAMES``). This is the decoder's figure: what the camera could see.
- raw: read in 2 of the first 3 frames of the case, hidden or not. The difference is the hands.

Reported, single-threaded: median and p90 ms per frame of ``decoder.read``, the share of cards read
per frame (of those in view, and of all), the share of cards confirmed and of cases with every card
confirmed (both ways), the share of card-frames under a hand, and false reads (a valid code that is
not on the table). Side by side, on the same layouts and degradations with the QR variant printed
instead: the naive baseline, pyzbar on the whole frame, and for information our pyzbar backend (card
crops). The main case is run again without hands. In the 1280x720 13-card rows the decoder without
its second look (``ZxingDecoder(second_look=False)``, the decoder before it) reads the same frames too,
for the time ratio. ``--degradations`` runs ``vision.measure_degrade`` instead (the second generator).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from laws.cards import full_pack
from vision.codes import CardCode
from vision.decode import Decoder
from vision.render import Degrade, Scene, render_with_cover

SIZES = ((640, 480), (1280, 720), (1920, 1080))
COUNTS = (1, 4, 13)
PACK = "B7"
FRAMES_PER_CASE = 3
MAX_FRAMES = 12  # per case, while waiting for a hidden card to come into view


@dataclass
class Figures:
    ms: list[float]
    read: int = 0  # card-frames read, of ``shown``
    shown: int = 0
    read_in_view: int = 0  # card-frames read, of ``in_view``
    in_view: int = 0
    card_frames: int = 0  # every card in every frame, hidden or not
    confirmed: int = 0  # cards confirmed in their first 3 frames in view, of ``cases_cards``
    confirmed_raw: int = 0  # cards confirmed in the first 3 frames of the case
    cases_cards: int = 0
    cases: int = 0
    cases_all: int = 0  # cases in which every card was confirmed (in view)
    cases_all_raw: int = 0
    false_reads: int = 0
    frames: int = 0

    def summary(self) -> dict[str, float]:
        ms = np.array(self.ms) if self.ms else np.array([np.nan])
        return {"frames": self.frames, "median_ms": float(np.median(ms)), "p90_ms": float(np.percentile(ms, 90)),
                "read_share": self.read / max(self.shown, 1),
                "read_share_in_view": self.read_in_view / max(self.in_view, 1),
                "hidden_share": 1 - self.in_view / max(self.card_frames, 1),
                "confirmed_share": self.confirmed / max(self.cases_cards, 1),
                "all_confirmed_share": self.cases_all / max(self.cases, 1),
                "confirmed_share_raw": self.confirmed_raw / max(self.cases_cards, 1),
                "all_confirmed_share_raw": self.cases_all_raw / max(self.cases, 1),
                "false_reads": self.false_reads}


def layout(rng: np.random.Generator, n: int, variant: str) -> Scene:
    """``n`` cards of one pack on a jittered 5 x 3 grid, at any angle."""
    scene = Scene()
    cards = rng.choice(len(full_pack()), n, replace=False)
    cells = rng.choice(15, n, replace=False)
    for c, cell in zip(cards, cells):
        r, col = divmod(int(cell), 5)
        at = (80 + col * 160 + rng.uniform(-12, 12), 75 + r * 150 + rng.uniform(-10, 10))
        scene.place(full_pack()[int(c)], PACK, at=at, angle=float(rng.uniform(-180, 180)), variant=variant)
    return scene


def _timed(decoder: Decoder, frame: np.ndarray, fig: Figures) -> set[CardCode]:
    t0 = time.perf_counter()
    got = {s.code for s in decoder.read(frame).sightings}
    fig.ms.append((time.perf_counter() - t0) * 1000)
    fig.frames += 1
    return got


def _case(decoder: Decoder, scene: Scene, size: tuple[int, int], degrade: Degrade, seed: int,
          fig: Figures, before: tuple[Decoder, Figures] | None = None) -> None:
    codes = [CardCode(p.pack, p.card) for p in scene.placements]
    truth = set(codes)
    history: list[list[tuple[bool, bool]]] = [[] for _ in codes]  # per card, per frame: (read, in view)
    rng = np.random.default_rng(seed)
    for frame_no in range(MAX_FRAMES):
        if frame_no >= FRAMES_PER_CASE and all(sum(v for _, v in h) >= FRAMES_PER_CASE for h in history):
            break
        frame, hidden = render_with_cover(scene, size, degrade, rng)
        old: set[CardCode] | None = None
        if before is not None and fig.frames % 2:  # the decoder without its second look, on the same
            old = _timed(before[0], frame, before[1])  # frame; first every other frame (warm caches)
        t0 = time.perf_counter()
        reading = decoder.read(frame)
        fig.ms.append((time.perf_counter() - t0) * 1000)
        fig.frames += 1
        got = {s.code for s in reading.sightings}
        if before is not None:
            if old is None:
                old = _timed(before[0], frame, before[1])
            before[1].false_reads += len(old - truth)
            before[1].read_in_view += sum(c in old for i, c in enumerate(codes) if i not in hidden)
            before[1].in_view += sum(1 for i in range(len(codes)) if i not in hidden)
        fig.false_reads += len(got - truth)
        for i, code in enumerate(codes):
            history[i].append((code in got, i not in hidden))
            fig.card_frames += 1
            if frame_no < FRAMES_PER_CASE:
                fig.read += code in got
                fig.shown += 1
            if i not in hidden:
                fig.read_in_view += code in got
                fig.in_view += 1
    confirmed = sum(sum([r for r, v in h if v][:FRAMES_PER_CASE]) >= 2 for h in history)
    confirmed_raw = sum(sum(r for r, _ in h[:FRAMES_PER_CASE]) >= 2 for h in history)
    fig.cases_cards += len(codes)
    fig.confirmed += confirmed
    fig.confirmed_raw += confirmed_raw
    fig.cases += 1
    fig.cases_all += confirmed == len(codes)
    fig.cases_all_raw += confirmed_raw == len(codes)
