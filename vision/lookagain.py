"""The second look: find every region that may hold a code, whatever the light, and read it closer.

The whole-frame read misses codes that are small (under about 3 px per module), a little out of
focus, half under a glare patch or in a dark corner. ``code_candidates`` finds code-shaped regions from
*relative* darkness (how much darker a spot is than the paper around it, ``blackhat / closing``), which
does not depend on how much light falls there: a code in a dark corner and one beside a glare patch
look alike: it is a local threshold, adapted to the light at each place, as an adaptive threshold is.
``read_candidate`` then reads each region cut out and scaled up to some 8 px per module, first as it
is, then with its local contrast normalised (a min/max stretch over three modules, for glare and
shadow, where CLAHE would equalise a whole tile), then sharpened (defocus), then deconvolved along its
blur direction when it is clearly smeared one way (a card moving while the shutter is open), stopping
at the first read. A candidate that reads as a QR code where Micro QR is wanted is foreign: no remedy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

MODULES = 13  # Micro QR M2 (CARD_CODES.md)
TARGET_PPM = 8.0  # pixels per module the crop is scaled to
MAX_CANDIDATES = 8  # per frame: the second look's time stays bounded on a cluttered table
DIRECTIONAL = 0.4  # share of edge energy lost across one direction: a code smeared by motion
SMEARS = (1.2, 1.7, 2.3)  # smear lengths (modules) tried when deconvolving; under one module reads as is


@dataclass(frozen=True)
class Candidate:
    """A region that may hold a code: centre and side (frame px), and how code-like it looks."""

    x: float
    y: float
    side: float
    score: float


def _odd(n: float) -> int:
    return max(3, int(round(n)) | 1)


def relative_darkness(gray: np.ndarray, kernel: int) -> tuple[np.ndarray, np.ndarray]:
    """How much darker each pixel is than the brightest paper within ``kernel`` px: as a share of that
    paper (0-255), and in grey levels."""
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel))
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, k)
    bh = cv2.subtract(closed, gray)
    return cv2.divide(bh, cv2.max(closed, 16), scale=255), bh


DARK = (60,)  # of 255: a pixel this much darker than the paper around it is ink (a local, adaptive
# threshold). A second, fainter level (50) finds more codes smeared by two modules but costs x1.5 in time.
MIN_INK = 12  # grey levels: darker than its surroundings by less than this is felt grain or noise, not ink


def code_candidates(gray: np.ndarray, side_range: tuple[float, float]) -> list[Candidate]:
    """Code-shaped regions of ``gray`` whose side (px) is in ``side_range``, most code-like first."""
    lo, hi = side_range
    module = max(math.sqrt(lo * hi) / MODULES, 1.0)
    small, n = gray, 1
    while module / n >= 2.2 and n < 4:  # work where a module is 1.1-2.2 px; halving is a fast resize
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        n *= 2
    f = 1.0 / n
    m = module * f
    rel, bh = relative_darkness(small, _odd(4 * m))
    ink = cv2.threshold(bh, MIN_INK, 255, cv2.THRESH_BINARY)[1]
    out: list[Candidate] = []
    for dark_at in DARK:  # crisp codes first, most code-like first; then faint ones (smeared, glare)
        level = _blobs(cv2.threshold(rel, dark_at, 255, cv2.THRESH_BINARY)[1] & ink, rel, dark_at, m, f,
                       (lo * 0.6 * f, hi * 1.3 * f))
        out += [c for c in sorted(level, key=lambda c: -c.score)
                if not any(abs(c.x - o.x) < o.side / 2 and abs(c.y - o.y) < o.side / 2 for o in out)]
    return out


def _blobs(mask: np.ndarray, rel: np.ndarray, dark_at: int, m: float, f: float,
           sides: tuple[float, float]) -> list[Candidate]:
    """Code-shaped blobs of ``mask`` (modules closed into one blob) with sides (px, working scale) in
    ``sides``, as candidates in frame pixels."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (_odd(2.2 * m),) * 2))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    lo_s, hi_s = sides
    out = []
    for c in contours:
        x0, y0, w, h = cv2.boundingRect(c)
        if max(w, h) < lo_s or min(w, h) > hi_s * 1.42 or min(w, h) < 0.6 * max(w, h):
            continue
        area = cv2.contourArea(c)
        side = math.sqrt(area)  # a code's blob is a filled square, at any angle
        fill = area / (w * h)  # 1 upright, 0.5 at 45 degrees
        if not lo_s <= side <= hi_s or fill < 0.45:
            continue
        box = rel[y0:y0 + h, x0:x0 + w]
        dark = float(np.count_nonzero(box > dark_at)) / box.size / max(fill, 0.5)
        if not 0.25 <= dark <= 0.85:  # a code is about half dark modules
            continue
        out.append(Candidate((x0 + w / 2) / f, (y0 + h / 2) / f, side / f, 1 - abs(dark - 0.5)))
    return out


def _normalise(img: np.ndarray, k: int) -> np.ndarray:
    """Local contrast stretch: each pixel between the darkest and brightest within ``k`` px."""
    se = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    hi = cv2.blur(cv2.dilate(img, se), (k, k))
    lo = cv2.blur(cv2.erode(img, se), (k, k))
    span = np.maximum(hi.astype(np.float32) - lo, 12)
    return np.clip((img.astype(np.float32) - lo) / span * 255, 0, 255).astype(np.uint8)


def _sharpen(img: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.addWeighted(img, 2.2, cv2.GaussianBlur(img, (0, 0), sigma), -1.2, 0)


def blur_direction(img: np.ndarray) -> tuple[float, float]:
    """The direction (degrees) along which ``img`` varies least, and how much less (0 none - 1 all).

    A code has edges in every direction; smeared by motion it loses those across the motion.
    """
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
    jxx, jyy, jxy = float((gx * gx).sum()), float((gy * gy).sum()), float((gx * gy).sum())
    tr, det = jxx + jyy, jxx * jyy - jxy * jxy
    disc = math.sqrt(max(tr * tr / 4 - det, 0.0))
    l1, l2 = tr / 2 + disc, tr / 2 - disc
    # eigenvector of the larger eigenvalue: across the blur; the blur runs at right angles to it
    across = 0.5 * math.degrees(math.atan2(2 * jxy, jxx - jyy))
    return across + 90.0, (1 - l2 / l1) if l1 > 0 else 0.0


def deblur(img: np.ndarray, length: float, angle: float, snr: float = 0.02) -> np.ndarray:
    """Wiener deconvolution of a straight motion smear ``length`` px long at ``angle`` degrees."""
    h, w = img.shape
    psf = np.zeros((h, w), np.float32)
    t = np.linspace(-length / 2, length / 2, max(int(length * 3), 2))
    a = math.radians(angle)
    np.add.at(psf, (np.round(t * math.sin(a)).astype(int) % h, np.round(t * math.cos(a)).astype(int) % w), 1.0)
    psf /= psf.sum()
    f_psf = np.fft.rfft2(psf)
    out = np.fft.irfft2(np.fft.rfft2(img.astype(np.float32)) * np.conj(f_psf) / (np.abs(f_psf) ** 2 + snr),
                        s=(h, w))
    return np.clip(out, 0, 255).astype(np.uint8)


RawReads = list[tuple[str, list[tuple[float, float]], float | None]]
Reader = Callable[[np.ndarray], tuple[RawReads, bool]]
"""``read(image) -> (reads, other)``: the card-code symbols read, and whether a symbol of another kind
(a QR code on a score card, a phone) was read there instead, in which case no remedy is tried."""


def read_candidate(gray: np.ndarray, cand: Candidate, read: Reader) -> RawReads:
    """Read one candidate region: cut out, scaled to ``TARGET_PPM``, then the remedies in turn.

    ``read`` (see ``Reader``) answers in the image's pixels; the answer is in frame pixels.
    """
    h, w = gray.shape
    half = cand.side * 1.15
    x0, y0 = int(max(cand.x - half, 0)), int(max(cand.y - half, 0))
    x1, y1 = int(min(cand.x + half, w)), int(min(cand.y + half, h))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    ppm = cand.side / MODULES
    k = float(np.clip(TARGET_PPM / ppm, 1.0, 4.0))
    base = gray[y0:y1, x0:x1]

    def up(img: np.ndarray) -> np.ndarray:
        return cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC) if k > 1 else img

    crop = up(base)
    tries: list[Callable[[], np.ndarray]] = [
        lambda: crop,
        lambda: up(_normalise(base, _odd(3 * ppm))),
        lambda: _sharpen(crop, 0.6 * k),
    ]
    angle, strength = blur_direction(base)
    if strength > DIRECTIONAL:  # smeared one way: undo the smear, trying the lengths it may have
        tries += [lambda m=m: up(deblur(base, m * ppm, angle, 0.03)) for m in SMEARS]  # type: ignore[misc]
    for attempt in tries:
        found, other = read(attempt())
        if found:
            return [(t, [(x / k + x0, y / k + y0) for x, y in c], u) for t, c, u in found]
        if other:
            break
    return []
