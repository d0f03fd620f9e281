"""``cardtable bench vision --degradations``: single-frame recall by degradation and by pixels per module.

The frames come from ``vision.photo``, the second generator (written from ``CARD_CODES.md`` alone, not
the renderer the decoder was tuned on). Each frame holds 13 cards of one pack (11 faces, 2 backs) and
two foreign codes that decode but are no card, spread over the table the camera sees, and is degraded
in one way (``KINDS``) on top of a mild baseline (any felt colour, any rotation, slight tilt, some
sensor noise). Every frame is read by the decoder as it was before the second look (``before``) and
as it is now (``now``), side by side, one thread; the figures are single-frame (no confirmation).

Counted: a visible card is one whose code and quiet zone lie wholly in the frame, none of it under a
hand. Recall of face-up cards is by degradation (every card), by pixels per module at the code
(``PPM_BINS``; cards that moved less than one module during the exposure) and, for moving cards, by
smear during the exposure in modules and by exposure time; shares over all visible cards are given
with moving cards of any smear, of up to two modules and of up to one module (``Figures``). A false
card is a card read that is not in the frame (foreign codes included). Each frame's time is the
fastest of ``REPEATS`` reads, so that other work on a shared machine does not count.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace

import numpy as np

from vision.codes import parse_payload
from vision.decode import ZxingDecoder
from vision.photo import Hand, Item, Shot, Truth, foreign_texts, pack_cards, payload, photo_frame

KINDS = ("clean", "noise", "defocus", "motion", "glare", "dark-corners", "uneven", "tilt", "small", "jpeg",
         "hands", "mixed")
PPM_BINS = (0.0, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 99.0)
SMEAR_BINS = (0.0, 0.5, 1.0, 2.0, 3.0, 99.0)
SIZES = ((1280, 720), (1920, 1080))
EXPOSURES_S = (0.002, 0.004, 0.008, 0.016)  # a capped exposure ... a dim room under auto exposure


def _bin(v: float, edges: tuple[float, ...]) -> str:
    for lo, hi in zip(edges, edges[1:]):
        if lo <= v < hi:
            return f"{lo:g}-{hi:g}" if hi < 99 else f">={lo:g}"
    return "?"


def random_shot(rng: np.random.Generator, size: tuple[int, int], kind: str) -> Shot:
    """One frame's scene and camera for degradation ``kind``."""
    w, h = size
    field_mm = float(rng.uniform(800, 1500))
    s = Shot(size=size, field_mm=field_mm, tilt_deg=float(rng.uniform(0, 6)), yaw_deg=float(rng.uniform(-5, 5)),
             felt=int(rng.integers(0, 6)), exposure_s=0.004, gain=float(rng.uniform(1.5, 4)),
             light=float(rng.uniform(0.6, 0.9)), vignette=float(rng.uniform(0.1, 0.3)),
             jpeg=int(rng.choice([0, 0, 85, 92])))
    if kind == "noise":
        s = replace(s, gain=float(rng.uniform(8, 16)), light=float(rng.uniform(0.35, 0.6)), read_noise_e=6.0)
    elif kind == "defocus":
        s = replace(s, defocus_px=float(rng.uniform(0.8, 2.0)))
    elif kind == "motion":
        s = replace(s, exposure_s=float(rng.choice(EXPOSURES_S)))
    elif kind == "glare":
        s = replace(s, glare=float(rng.uniform(0.4, 1.5)), glare_size=float(rng.uniform(0.03, 0.09)))
    elif kind == "dark-corners":
        s = replace(s, vignette=float(rng.uniform(0.5, 0.75)), light=float(rng.uniform(0.45, 0.7)))
    elif kind == "uneven":
        s = replace(s, gradient=float(rng.uniform(0.4, 0.7)), gradient_deg=float(rng.uniform(0, 360)),
                    shadow=float(rng.uniform(0.3, 0.6)))
    elif kind == "tilt":
        s = replace(s, tilt_deg=float(rng.uniform(10, 25)), yaw_deg=float(rng.uniform(-30, 30)))
    elif kind == "small":
        s = replace(s, field_mm=float(rng.uniform(1400, 1900)))
    elif kind == "jpeg":
        s = replace(s, jpeg=int(rng.integers(35, 60)))
    elif kind == "mixed":
        s = replace(s, gain=float(rng.uniform(4, 8)), defocus_px=float(rng.uniform(0.5, 1.2)),
                    vignette=float(rng.uniform(0.3, 0.5)), gradient=float(rng.uniform(0.2, 0.4)),
                    gradient_deg=float(rng.uniform(0, 360)), glare=float(rng.uniform(0.2, 0.8)),
                    tilt_deg=float(rng.uniform(5, 15)), jpeg=int(rng.integers(60, 85)),
                    exposure_s=float(rng.choice(EXPOSURES_S[:2])))
    s = replace(s, items=_layout(rng, s, moving=kind in ("motion", "mixed")),
                glare_at=(float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.15, 0.85))))
    if kind == "hands":  # one or two hands reaching over the cards, from any side
        s = replace(s, hands=tuple(Hand(float(rng.uniform(-0.35, 0.35) * s.field_mm),
                                        float(rng.uniform(-0.2, 0.2) * s.field_mm), float(rng.uniform(0, 360)),
                                        float(rng.uniform(0, 1))) for _ in range(int(rng.integers(1, 3)))))
    return s


def _layout(rng: np.random.Generator, s: Shot, moving: bool) -> tuple[Item, ...]:
    w, h = s.size
    fw, fh = s.field_mm * 0.94, s.field_mm * h / w * 0.92
    cols, rows = 5, 3
    cw, ch = fw / cols, fh / rows
    cells = rng.permutation(cols * rows)
    cards = rng.choice(len(pack_cards()), 13, replace=False)
    foreign = foreign_texts()
    picks = rng.choice(len(foreign), 2, replace=False)
    items = []
    for n, cell in enumerate(cells):
        r, c = divmod(int(cell), cols)
        jx, jy = max(cw - 100, 0) / 2, max(ch - 100, 0) / 2
        x = -fw / 2 + (c + 0.5) * cw + rng.uniform(-jx, jx)
        y = -fh / 2 + (r + 0.5) * ch + rng.uniform(-jy, jy)
        angle = float(rng.uniform(-180, 180))
        if n < 13:
            card = pack_cards()[int(cards[n])]
            face = n < 11
            speed = float(rng.uniform(200, 1000)) if moving and n < 4 else 0.0
            items.append(Item(payload("B7", card if face else None), x, y, angle, card if face else None,
                              speed=speed, heading=float(rng.uniform(0, 360)), tint=int(rng.integers(0, 12))))
        else:
            text, micro = foreign[int(picks[n - 13])]
            items.append(Item(text, x, y, angle, foreign=True, micro=micro))
    return tuple(items)


@dataclass
class Tally:
    read: int = 0
    seen: int = 0

    def share(self) -> float:
        return self.read / self.seen if self.seen else float("nan")


@dataclass
class Figures:
    ms: list[float] = field(default_factory=list)
    by_kind: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_ppm: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_smear: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    faces: Tally = field(default_factory=Tally)
    faces_3ppm: Tally = field(default_factory=Tally)  # face-up, >= 3 px/module, moving at most 1 module
    faces_3ppm_any: Tally = field(default_factory=Tally)  # face-up, >= 3 px/module, moving or not
    moderate: Tally = field(default_factory=Tally)  # every visible card, moving cards up to 1 module
    moderate2: Tally = field(default_factory=Tally)  # every visible card, moving cards up to 2 modules
    every: Tally = field(default_factory=Tally)  # every visible card, moving or not
    by_exposure: dict[float, Tally] = field(default_factory=lambda: defaultdict(Tally))  # ms: moving face-up cards
    backs: Tally = field(default_factory=Tally)
    false_cards: int = 0
    rejected: int = 0

    def summary(self) -> dict[str, object]:
        return {"frames": len(self.ms), "median_ms": float(np.median(self.ms)) if self.ms else float("nan"),
                "p90_ms": float(np.percentile(self.ms, 90)) if self.ms else float("nan"),
                "faces": self.faces.share(), "faces_3ppm": self.faces_3ppm.share(),
                "faces_3ppm_any": self.faces_3ppm_any.share(), "all_moderate_motion": self.moderate.share(),
                "all_motion_2": self.moderate2.share(), "all": self.every.share(), "backs": self.backs.share(),
                "false_cards": self.false_cards, "rejected_texts": self.rejected,
                "by_kind": {k: (t.share(), t.seen) for k, t in self.by_kind.items()},
                "by_ppm": {k: (t.share(), t.seen) for k, t in sorted(self.by_ppm.items())},
                "by_smear": {k: (t.share(), t.seen) for k, t in sorted(self.by_smear.items())},
                "by_exposure": {f"{k:g} ms": (t.share(), t.seen) for k, t in sorted(self.by_exposure.items())}}


def score(fig: Figures, kind: str, truths: list[Truth], got: set[str], rejected: int, ms: float,
          exposure_s: float = 0.0) -> None:
    """Add one frame's reads (``got``: payload texts of the cards read; ``exposure_s``: the shot's) to ``fig``."""
    fig.ms.append(ms)
    fig.rejected += rejected
    cards = {t.text for t in truths if not t.foreign}
    fig.false_cards += len(got - cards)
    for t in truths:
        if t.foreign or not t.inside or t.covered:
            continue
        ok = t.text in got
        moderate = t.smear_modules <= 1.0
        if t.card is None:
            _add(fig.backs, ok)
        else:
            _add(fig.faces, ok)
            if t.px_per_module >= 3.0:
                _add(fig.faces_3ppm_any, ok)
                if moderate:
                    _add(fig.faces_3ppm, ok)
            _add(fig.by_kind[kind], ok)
            if moderate:  # by size, cards that moved a module or more are left to the smear figures
                _add(fig.by_ppm[_bin(t.px_per_module, PPM_BINS)], ok)
            if t.smear_modules > 0:
                _add(fig.by_smear[_bin(t.smear_modules, SMEAR_BINS)], ok)
                _add(fig.by_exposure[exposure_s * 1000], ok)
        _add(fig.every, ok)
        if moderate:
            _add(fig.moderate, ok)
        if t.smear_modules <= 2.0:
            _add(fig.moderate2, ok)


def _add(t: Tally, ok: bool) -> None:
    t.seen += 1
    t.read += ok


REPEATS = 3  # each frame is read this many times and the fastest counts: the machine is shared


def _read(decoder: ZxingDecoder, frame: np.ndarray, repeats: int = REPEATS) -> tuple[set[str], int, float]:
    """Read ``frame``; the payloads read, the texts rejected and the fastest of ``repeats`` reads (ms)."""
    before = sum(decoder.rejected.values())
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        reading = decoder.read(frame)
        best = min(best, (time.perf_counter() - t0) * 1000)
    got = {payload(s.code.pack, s.code.card) for s in reading.sightings}
    return got, (sum(decoder.rejected.values()) - before) // repeats, best


def speed_on_existing(frames: int, seed: int = 3) -> dict[str, object]:
    """Before and now on the existing benchmark's main case (``vision.measure``: ``vision.render`` frames,
    1280x720, 13 cards, random degradation, hands), the same frames, interleaved."""
    from vision.codes import CardCode
    from vision.measure import PACK, layout
    from vision.render import random_degrade, render_with_cover

    decoders = {"before": ZxingDecoder(second_look=False), "now": ZxingDecoder()}
    ms: dict[str, list[float]] = {k: [] for k in decoders}
    read = dict.fromkeys(decoders, 0)
    false = dict.fromkeys(decoders, 0)
    in_view = 0
    rng = np.random.default_rng(seed)
    while len(ms["now"]) < frames:
        case = int(rng.integers(1 << 30))
        scene = layout(np.random.default_rng(case), 13, "micro")
        truth = {CardCode(PACK, p.card) for p in scene.placements}
        r = np.random.default_rng(case)
        for _ in range(3):
            frame, hidden = render_with_cover(scene, (1280, 720), random_degrade(np.random.default_rng(case)), r)
            shown = {CardCode(PACK, p.card) for i, p in enumerate(scene.placements) if i not in hidden}
            in_view += len(shown)
            for name in (list(decoders) if len(ms["now"]) % 2 else list(decoders)[::-1]):
                got, _, t = _read(decoders[name], frame)
                ms[name].append(t)
                codes = {parse_payload(x) for x in got}
                read[name] += len(codes & shown)
                false[name] += len(codes - truth)
    out: dict[str, object] = {"frames": len(ms["now"])}
    for name in decoders:
        out[name] = {"median_ms": float(np.median(ms[name])), "p90_ms": float(np.percentile(ms[name], 90)),
                     "read_in_view": read[name] / max(in_view, 1), "false_cards": false[name]}
    out["time_ratio"] = float(np.median(ms["now"]) / np.median(ms["before"]))
    return out



def run_degradations(frames: int, sizes: tuple[tuple[int, int], ...] = SIZES, seed: int = 13,
                     progress: bool = True) -> list[dict[str, object]]:
    """``frames`` frames per size, the kinds in turn; both decoders read every frame."""
    import cv2

    cv2.setNumThreads(1)
    rows = []
    for size in sizes:
        decoders = {"before": ZxingDecoder(second_look=False), "now": ZxingDecoder()}
        figs = {name: Figures() for name in decoders}
        rng = np.random.default_rng(seed + size[0])
        for i in range(frames):
            kind = KINDS[i % len(KINDS)]
            shot = random_shot(rng, size, kind)
            frame, truths = photo_frame(shot, rng)
            order = list(decoders.items())
            if i % 2:  # alternate who goes first, so neither always reads a warm cache
                order.reverse()
            for name, dec in order:
                got, rej, ms = _read(dec, frame)
                score(figs[name], kind, truths, got, rej, ms, shot.exposure_s)
            if progress and (i + 1) % 50 == 0:
                print(f"  {size[0]}x{size[1]}: {i + 1}/{frames} frames", flush=True)
        b, n = figs["before"].summary(), figs["now"].summary()
        ratio = float(n["median_ms"]) / float(b["median_ms"]) if b["median_ms"] else math.nan  # type: ignore[arg-type]
        rows.append({"size": f"{size[0]}x{size[1]}", "before": b, "now": n, "time_ratio": ratio})
    return rows
