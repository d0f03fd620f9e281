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
for the time ratio. ``--degradations`` runs ``vision.bench_degrade`` instead (the second generator).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, replace

import numpy as np

from laws.cards import full_pack
from vision.codes import CardCode
from vision.decode import Decoder, PyzbarDecoder, ZxingDecoder
from vision.render import Degrade, Scene, random_degrade, render_with_cover

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


def run(args: argparse.Namespace) -> int:
    """Print the figures; ``--frames N`` sets the frames for 1280x720 with 13 cards (default 10,000)."""
    import cv2

    if getattr(args, "degradations", False):
        from vision.bench_degrade import run as run_degradations

        return run_degradations(args)
    cv2.setNumThreads(1)  # single-threaded figures, for both decoders
    quick = bool(getattr(args, "quick", False))
    main_frames = getattr(args, "frames", None) or (9 if quick else 10_000)
    other_frames = 9 if quick else 300
    baseline_share = 1 / 3 if quick else 0.05
    ours = ZxingDecoder(find_unreadable=True)
    before = ZxingDecoder(find_unreadable=True, second_look=False)
    baseline = PyzbarDecoder(find_unreadable=False, whole_frame=True)
    cropped = PyzbarDecoder(find_unreadable=False)
    rows = []
    grid = [(size, n, True) for size in SIZES for n in COUNTS] + [((1280, 720), 13, False)]
    for size, n, hands in grid:
        frames = main_frames if (size, n) == ((1280, 720), 13) else other_frames
        cases = max(1, -(-frames // FRAMES_PER_CASE))
        base_cases = max(1, int(cases * baseline_share))
        f_ours, f_base, f_crop, f_before = Figures([]), Figures([]), Figures([]), Figures([])
        main = (size, n) == ((1280, 720), 13)
        rng = np.random.default_rng(hash((size, n)) & 0xFFFF)
        for case in range(cases):
            seed = int(rng.integers(1 << 30))
            degrade = random_degrade(np.random.default_rng(seed))
            if not hands:
                degrade = replace(degrade, hands=0)
            _case(ours, layout(np.random.default_rng(seed), n, "micro"), size, degrade, seed, f_ours,
                  (before, f_before) if main else None)
            if case < base_cases:
                qr_scene = layout(np.random.default_rng(seed), n, "qr")
                _case(baseline, qr_scene, size, degrade, seed, f_base)
                _case(cropped, qr_scene, size, degrade, seed, f_crop)
        o, b = f_ours.summary(), f_base.summary()
        rows.append({"size": f"{size[0]}x{size[1]}", "cards": n, "hands": hands, "ours": o, "baseline": b,
                     "pyzbar_cropped": f_crop.summary(),
                     "before_second_look": f_before.summary() if main else None,
                     "speedup": b["median_ms"] / o["median_ms"] if o["median_ms"] else float("nan")})
        if not args.json:
            _print_row(rows[-1])
    if args.json:
        print(json.dumps({"bench": "vision", "rows": rows}))
    return 0


def _print_row(r: dict) -> None:  # type: ignore[type-arg]
    o, b, c = r["ours"], r["baseline"], r["pyzbar_cropped"]
    print(f"{r['size']:>9} {r['cards']:>2} cards{'' if r['hands'] else ', no hands'} | zxing Micro QR: {o['frames']:>5} frames, median "
          f"{o['median_ms']:.2f} ms, p90 {o['p90_ms']:.2f} ms, read {o['read_share_in_view']:.4f} in view "
          f"({o['read_share']:.4f} of all, {o['hidden_share']:.4f} hidden by hands), confirmed<=3 in view "
          f"{o['confirmed_share']:.4f} (every card of the case: {o['all_confirmed_share']:.4f}; raw "
          f"{o['confirmed_share_raw']:.4f}, {o['all_confirmed_share_raw']:.4f}), false "
          f"{o['false_reads']} | pyzbar whole-frame QR: {b['frames']} frames, "
          f"median {b['median_ms']:.1f} ms, p90 {b['p90_ms']:.1f} ms, read {b['read_share_in_view']:.3f}, confirmed "
          f"{b['confirmed_share']:.3f}, false {b['false_reads']} | speed-up x{r['speedup']:.1f} | our pyzbar "
          f"backend (card crops), QR: median {c['median_ms']:.1f} ms, read {c['read_share_in_view']:.3f}", flush=True)
    w = r.get("before_second_look")
    if w:
        print(f"{'':>9} without the second look, same frames: median {w['median_ms']:.2f} ms, read "
              f"{w['read_share_in_view']:.4f} in view, false {w['false_reads']}; time now / before "
              f"x{o['median_ms'] / w['median_ms']:.2f}", flush=True)
