"""What ``cardtable camera-check`` measures in a frame: can this mount and these settings read the cards?

``check_frame`` reads the frame with the real decoder and reports, for the installer:

- pixels per module of every card code it reads (the code's side / 13 for Micro QR, / 21 for QR) and of
  code-shaped regions it could not read; the decoder needs ``NEED_PPM`` (3 px per module: single-frame
  recall 0.996 and up on the degradation benchmark, 0.989-0.991 at 2-3; 3 leaves margin for tilt and blur);
- sharpness: the width of the codes' edges (a Gaussian blur's sigma, in modules), from the steepest
  slope across an edge against the code's contrast; a sharp code has 0.3 module or less (the estimate reads low when the blur spans more than a module);
- brightness: how bright white paper comes out (the white around the codes read, else the frame's 99th
  percentile) and the frame's median;
- glare: bright spots clipped at the top level (255) on a darker surround (a lamp's reflection), their
  share of the frame and whether one lies on a code. White paper evenly at the top level is no glare
  but an overexposed picture, and paper just under it (a plain white sheet) is neither;
- motion: with the exposure time in use, how far a card slid at 1 m/s smears, in modules.

Each check gives ``ok``, ``marginal`` or ``fail`` with a sentence saying what to change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import lookagain
from vision.codes import encode_payload
from vision.decode import Decoder, as_gray

NEED_PPM = 3.0
GOOD_PPM = 3.5
MODULES = {"micro": 13, "qr": 21}


@dataclass(frozen=True)
class Check:
    name: str
    status: str  # "ok", "marginal" or "fail"
    value: float | None
    advice: str


def code_words(pack: str, card: object) -> str:
    """A code as a person reads it: "7 of hearts, pack B7", "ace of spades, pack B7", "back of pack B7"."""
    if card is None:
        return f"back of pack {pack}"
    rank, suit = str(getattr(card, "rank", "?")), str(getattr(card, "name", "")).split(" of ")[-1]
    said = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}.get(rank, rank)
    return f"{said} of {suit}, pack {pack}"


@dataclass(frozen=True)
class CodeSeen:
    text: str  # the code's payload, for tools (``--json``)
    words: str  # what it says, for people
    x: float
    y: float
    ppm: float
    edge_sigma_modules: float


@dataclass(frozen=True)
class Report:
    size: tuple[int, int]
    codes: tuple[CodeSeen, ...]
    unread_regions: tuple[tuple[float, float, float], ...]  # x, y, estimated px per module
    checks: tuple[Check, ...]
    paper_level: float
    median_level: float
    clipped_share: float
    smear_modules: float | None

    @property
    def worst(self) -> str:
        order = {"ok": 0, "marginal": 1, "fail": 2}
        return max((c.status for c in self.checks), key=order.__getitem__, default="ok")

    def as_dict(self) -> dict[str, object]:
        return {"size": list(self.size), "verdict": self.worst,
                "codes": [{"text": c.text, "card": c.words, "x": round(c.x), "y": round(c.y), "px_per_module": round(c.ppm, 2),
                           "edge_sigma_modules": round(c.edge_sigma_modules, 2)} for c in self.codes],
                "unread_code_regions": [{"x": round(x), "y": round(y), "px_per_module": round(p, 2)}
                                        for x, y, p in self.unread_regions],
                "paper_level": round(self.paper_level, 1), "median_level": round(self.median_level, 1),
                "clipped_share": round(self.clipped_share, 5),
                "smear_modules_at_1m_s": None if self.smear_modules is None else round(self.smear_modules, 2),
                "checks": [{"name": c.name, "status": c.status, "value": c.value, "advice": c.advice}
                           for c in self.checks]}


def edge_sigma(gray: np.ndarray) -> float:
    """Blur of the edges in ``gray`` as a Gaussian's sigma in px: contrast / (steepest slope * sqrt(2 pi))."""
    g = gray.astype(np.float32)
    lo, hi = np.percentile(g, (5, 95))
    contrast = float(hi - lo)
    if contrast < 10:
        return float("inf")
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8
    slope = float(np.percentile(np.hypot(gx, gy), 99))
    # a 3x3 Sobel averages the slope over about 2 px: a perfect step still reads some 0.5 px of blur
    return contrast / max(slope, 1e-6) / math.sqrt(2 * math.pi)


def _area(corners: tuple[tuple[float, float], ...]) -> float:
    return float(cv2.contourArea(np.float32(corners)))


def check_frame(decoder: Decoder, frame: np.ndarray, exposure_us: int | None = None,
                variant: str = "micro") -> Report:
    """Measure ``frame`` (see the module docstring). ``exposure_us`` None: unknown (an image file)."""
    gray = as_gray(frame)
    h, w = gray.shape
    reading = decoder.read(frame)
    modules = MODULES[variant]
    codes = []
    whites: list[float] = []  # the white of each code's sticker
    for s in reading.sightings:
        side = math.sqrt(_area(s.corners))
        ppm = side / modules
        x0, y0 = int(max(s.x - side * 0.6, 0)), int(max(s.y - side * 0.6, 0))
        crop = gray[y0:int(s.y + side * 0.6), x0:int(s.x + side * 0.6)]
        text = encode_payload(s.code.pack, s.code.card)
        codes.append(CodeSeen(text, code_words(s.code.pack, s.code.card), s.x, s.y, ppm,
                              edge_sigma(crop) / ppm if crop.size else float("inf")))
        if crop.size:
            whites.append(float(np.percentile(crop, 90)))
    done = [(c.x, c.y, c.ppm * modules) for c in codes] + [(r.x, r.y, 20.0) for r in reading.rejections]
    if codes:
        side = float(np.median([c.ppm for c in codes])) * modules
        rng = (0.5 * side, 2.0 * side)
    else:
        rng = (modules * 1.6, max(modules * 10.0, w / 10))
    unread = tuple((c.x, c.y, c.side / modules) for c in lookagain.code_candidates(gray, rng)
                   if not any(math.dist((c.x, c.y), (x, y)) < 0.8 * max(sd, c.side) for x, y, sd in done))
    paper = float(np.median(whites)) if whites else float(np.percentile(gray, 99))
    median = float(np.median(gray))
    glare, flooded = glare_map(gray)
    clipped = float(np.count_nonzero(glare)) / gray.size
    # labels of the other symbol (QR read as Micro QR alone): say so, not only "no card code read"
    unasked = decoder.unasked_variant(frame) if not codes else None
    checks = [_size_check(codes, unread, unasked), _sharp_check(codes),
              _light_check(paper, clipped, codes, glare, flooded)]
    smear = None
    if exposure_us is not None and exposure_us > 0:
        smear = 1000.0 * exposure_us / 1e6 / 3.0  # 1 m/s, 3 mm modules
        st = "ok" if smear <= 1 else "marginal" if smear <= 2 else "fail"
        checks.append(Check("motion", st, round(smear, 2),
                            f"a card slid at 1 m/s smears {smear:.2f} modules in {exposure_us} us"
                            + ("" if st == "ok" else ": shorten camera.exposure_us (3000 us is one module) and "
                               "raise camera.gain")))
    elif exposure_us == 0:
        checks.append(Check("motion", "marginal", None, "auto exposure: indoors it often picks 10-30 ms, a "
                            "smear of 3-10 modules for a card slid at 1 m/s; set camera.exposure_us (2000)"))
    return Report((w, h), tuple(codes), unread, tuple(checks), paper, median, clipped, smear)


SYMBOL_WORDS = {"micro": "Micro QR", "qr": "QR"}


def _size_check(codes: list[CodeSeen], unread: tuple[tuple[float, float, float], ...],
                unasked: str | None = None) -> Check:
    if not codes and unasked:
        asked = next(v for v in SYMBOL_WORDS if v != unasked)
        return Check("size", "fail", None, f"no card code read as {SYMBOL_WORDS[asked]}, but card codes printed as "
                     f"{SYMBOL_WORDS[unasked]} are in view: these labels are the {unasked} variant; run again "
                     f"with --variant {unasked}")
    if not codes:
        return Check("size", "fail", None, "no card code read: put labelled cards face up at the far corners "
                     "of the play area and run again")
    low = min(c.ppm for c in codes)
    if low >= GOOD_PPM:
        return Check("size", "ok", round(low, 2), f"smallest code {low:.2f} px per module (need {NEED_PPM:g}, "
                     f"{GOOD_PPM:g} gives margin)")
    if low >= NEED_PPM:
        return Check("size", "ok", round(low, 2), f"smallest code {low:.2f} px per module: enough, with little "
                     "margin for tilt and blur")
    st = "marginal" if low >= 2.5 else "fail"
    return Check("size", st, round(low, 2), f"smallest code {low:.2f} px per module, the decoder needs "
                 f"{NEED_PPM:g}: raise the resolution (1920x1080), mount the camera lower, or frame less "
                 "of the table")


def _sharp_check(codes: list[CodeSeen]) -> Check:
    if not codes:
        return Check("sharpness", "marginal", None, "no code read to judge focus by")
    worst = max(c.edge_sigma_modules for c in codes)
    if worst <= 0.3:
        return Check("sharpness", "ok", round(worst, 2), f"edges blurred by at most {worst:.2f} module")
    st = "marginal" if worst <= 0.5 else "fail"
    return Check("sharpness", st, round(worst, 2), f"edges blurred by up to {worst:.2f} module: focus the lens "
                 "on the table surface (or shorten the exposure if cards were moving)")


TOP = 255  # a pixel at the top level is clipped: the sensor saw more light than it can tell
FLOODED = 0.2  # a clipped area this share of the frame is paper overexposed, not a reflection


def glare_map(gray: np.ndarray) -> tuple[np.ndarray, float]:
    """(the pixels of glare, the share of the frame clipped in large areas). Glare is a clipped spot on a
    darker surround: each clipped area smaller than ``FLOODED`` of the frame whose ring of neighbours is
    below 240. A large clipped area is white paper overexposed, counted apart."""
    clipped = (gray >= TOP).astype(np.uint8)
    glare = np.zeros(gray.shape, bool)
    flooded = 0
    if not clipped.any():
        return glare, 0.0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(clipped, connectivity=8)
    kernel = np.ones((9, 9), np.uint8)
    for i in range(1, n):
        area = int(stats[i, cv2.CC_STAT_AREA])
        if area >= FLOODED * gray.size:
            flooded += area
            continue
        x, y, w, h = (int(stats[i, k]) for k in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH,
                                                 cv2.CC_STAT_HEIGHT))
        x0, y0, x1, y1 = max(x - 6, 0), max(y - 6, 0), min(x + w + 6, gray.shape[1]), min(y + h + 6, gray.shape[0])
        blob = labels[y0:y1, x0:x1] == i
        ring = cv2.dilate(blob.astype(np.uint8), kernel).astype(bool) & ~blob
        if ring.any() and float(np.median(gray[y0:y1, x0:x1][ring])) < 240:
            glare[y0:y1, x0:x1] |= blob
    return glare, flooded / gray.size


def _light_check(paper: float, clipped: float, codes: list[CodeSeen], glare: np.ndarray, flooded: float) -> Check:
    on_code = any(glare[int(c.y), int(c.x)] for c in codes if 0 <= int(c.y) < glare.shape[0]
                  and 0 <= int(c.x) < glare.shape[1])
    if flooded > 0:
        return Check("light", "marginal", round(flooded, 4), f"{flooded:.0%} of the picture is white at the top "
                     "of the range (overexposed, not glare): lower camera.gain or camera.exposure_us")
    if paper < 80:
        return Check("light", "fail", round(paper, 1), f"white paper comes out at {paper:.0f} of 255: raise "
                     "camera.gain or add light")
    if clipped > 0.02 or on_code:
        return Check("light", "fail" if on_code else "marginal", round(clipped, 4),
                     f"{clipped:.1%} of the picture is clipped white (glare{' on a code' if on_code else ''}): "
                     "move or diffuse the lamp, lower camera.gain")
    if paper < 120:
        return Check("light", "marginal", round(paper, 1), f"white paper at {paper:.0f} of 255: a little dark")
    spots = f"{clipped:.2%} of the picture in reflections" if clipped else "no reflections"
    return Check("light", "ok", round(paper, 1), f"white paper at {paper:.0f} of 255, {spots}")
