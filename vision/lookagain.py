"""The second look: find every region that may hold a code, whatever the light, and read it closer.

The whole-frame read misses codes that are small (under about 3 px per module), a little out of
focus, half under a glare patch or in a dark corner. ``code_candidates`` finds code-shaped regions from
*relative* darkness (how much darker a spot is than the paper around it, ``blackhat / closing``), which
does not depend on how much light falls there: a code in a dark corner and one beside a glare patch
look alike: it is a local threshold, adapted to the light at each place, as an adaptive threshold is.
``read_candidate`` then reads each region cut out and scaled up to some 6 px per module, first as it
is, then with its local contrast normalised (a min/max stretch over three modules, for glare and
shadow, where CLAHE would equalise a whole tile), then sharpened (defocus), then at 8 px per module,
then (a code out of focus at under 3.6 px a module) at 10 px per module strongly sharpened, read with
zxing's local threshold and then at one threshold for the whole crop, stopping at the first read. A
region whose blob is over 0.85 ink (a small code found at half scale, or often no code) gets only the first
two of these (``INKY_TRIES``). A candidate that reads as a QR code where Micro QR is wanted is foreign:
no remedy.

Glare: a glare patch squeezes a code's ink up towards paper that clips, under the darkness the second
look takes for ink. Round paper that bright, ``glare_candidates`` stretches the picture locally and finds
code-shaped blobs there too; such a candidate left unread is read once more stretched
(``read_glare_candidate``).
Under a stronger patch a code's lone modules are only 10-20 grey levels under the clipped paper, and
only its finder counts as ink: the same stretched picture is then looked at with fainter ink
(``FAINT_GLARE_INK``), and those blobs are candidates after all the others (the decoder's ``faint_glare``,
issue 37's fourteenth round; off by default, for its time at 720p).

Small and out of focus: a candidate of under 3.6 px a module that none of these reads is read once more
module by module (``vision.regrid``, called by the decoder's second look): its grid fitted to the parts
every symbol has and to its quiet zone, each module sampled at its centre and decided by a small model of
how the blur mixes a module with its neighbours, and the modules redrawn clean for zxing. At 2.3-2.7 px
a module and a defocus of about one pixel no threshold on the picture parts a code's modules, though their
centres still do.

Lean (``lean=True``, the decoder's default since issue 37's eighth round): the same looks done cheaper. The
strong unsharp mask's blur is taken at the crop's own scale and scaled with it (``sharpen_up``; a Gaussian of
6 px on a crop at 10 px a module was a fifth of a playing-card frame's time); candidates are found with
blobs ruled out by their boxes before any outline is traced (``may_be_code``), labelled in half the time
(``_label``), their ink counted from summed-area tables (``ink_sums``, also for the blobs whose outlines are
traced), and the frame halved and closed once for every pass (``Shared``): the same candidates. Only
the mask is not bit for bit the same image; on the tuning seeds it reads what the costlier one read, and one
code more. Since issue 37's eleventh round the strongly sharpened crop's one threshold for the whole crop
(``read_global``) is taken on the very image the local threshold was given (scaled linearly), not on a
second one scaled bicubically: two bicubic scalings of a crop to 10 px a module were about a quarter of an
unread small candidate's time, and on the tuning seeds (240 frames) the reads are the same, one code more,
and 14 codes' places moved by under half a pixel.

Motion: a card moving while the shutter is open is smeared along its path. When a region is smeared
one way, ``smear`` (``vision/deblur.py``) measures the smear's direction and length, ``Deblur`` undoes it (Wiener
deconvolution in linear light) and a median filter quietens the speckle that leaves
(``DEBLUR_TRIES``). A code smeared by two modules or more is often too faint and ragged to be found
as code-shaped at all; ``look_at_card`` looks at each pale card shape in which nothing was read, the
whole card cut out, so that this costs time only where a card went unread.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import chain

import cv2
import numpy as np

from vision.deblur import DIRECTIONAL, GAMMA, Deblur, blur_direction, smear

MODULES = 13  # Micro QR M2 (CARD_CODES.md)
TARGET_PPM = 6.0  # pixels per module a candidate is scaled to
SMEARED_PPM = 8.0  # the same for a deconvolved candidate, whose edges are less sure
MAX_CANDIDATES = 16  # per frame: the second look's time stays bounded on a cluttered table (a row of
# eight bidding cards a seat is sixteen codes in two zones; 8 left half of such a row unread)
DEFOCUS_PPM = 10.0  # px a module a candidate the other remedies left unread is scaled to (linearly, at
# most 4 times), then unsharp-masked by DEFOCUS_SHARPEN: (sigma in frame px, amount). A code out of focus by
# 0.6-1.1 px (sigma) at 2.3-3.4 px a module: 12 of the 17 playing cards main missed on the outsider's table
# (720p, 40 frames, seed 2026) were candidates, and a mask this strong at this scale read 10 of those 12,
# where the mild one (0.6 px, 1.2) at 6 px a module read none.
DEFOCUS_SHARPEN = (1.5, 2.0)
MAX_CARD_LOOKS = 6  # smeared unread card shapes per frame deconvolved (``look_at_card``), for the same reason
DEBLUR_TRIES = ((0.93, 0.005, 0.7), (1.0, 0.01, 0.7), (0.93, 0.01, 0.0))  # (share of the measured smear, Wiener
# noise-to-signal in linear light, median filter afterwards in modules), in turn, for a code cut out
CARD_DEBLUR_TRIES = ((0.93, 0.002, 0.7), (0.93, 0.005, 0.7), (1.0, 0.002, 0.7))  # the same for a whole card
# Both chosen by ``tools/tune_deblur.py`` on the first generator's cards (``vision.render``) smeared in
# linear light, three of 60 tries each; the measured trough lies a little beyond the smear (by the width
# of the derivative filter), hence 0.93.


@dataclass(frozen=True)
class Candidate:
    """A region that may hold a code: centre and side (frame px), and how code-like it looks."""

    x: float
    y: float
    side: float
    score: float
    card: bool = False  # a whole card in which nothing was read (``look_at_card``): read only if smeared
    reach: float = 0.0  # half the side of the region cut out (px); 0: 1.15 sides
    inky: bool = False  # its blob is over 0.85 ink (``MAX_DARK_SHARE``): read with ``INKY_TRIES`` tries only
    glare: bool = False  # found under a glare patch (``glare_candidates``)


def _cut(gray: np.ndarray, x: float, y: float, half: float) -> tuple[np.ndarray, int, int]:
    """The square of ``gray`` ``half`` px either side of (``x``, ``y``), clipped to the frame, and its
    top-left corner."""
    h, w = gray.shape
    x0, y0 = int(max(x - half, 0)), int(max(y - half, 0))
    return gray[y0:int(min(y + half, h)), x0:int(min(x + half, w))], x0, y0


def _odd(n: float) -> int:
    return max(3, int(round(n)) | 1)


def relative_darkness(gray: np.ndarray, kernel: int, closed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """How much darker each pixel is than the brightest paper within ``kernel`` px: as a share of that
    paper (0-255), and in grey levels. ``closed``: that paper (``gray`` closed by ``kernel``), if known."""
    if closed is None:
        closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel)))
    bh = cv2.subtract(closed, gray)
    return cv2.divide(bh, cv2.max(closed, 16), scale=255), bh


MIN_DARK_SHARE, MAX_DARK_SHARE = 0.25, 0.95  # a code blob's share of ink: a sharp code's is about half, but
# found at 1.1-1.5 px a module (a code of 2.2-3 px a module, halved) its light modules take in their dark
# neighbours and it is 0.85-0.95 ink. The bound was 0.85: on the outsider's table (seeds 7 and 11, 720p) that
# refused more fully visible codes than any other cause (``tests/vision/test_code_blob_ink.py``). Solid ink
# wider than the blackhat's kernel (``relative_darkness``) is not ink to the second look at all.
INKY, INKY_TRIES = 0.85, 2  # a blob over INKY ink is more often not a code than one under it: on the
# outsider's frames where such codes were missed, 21 of the 25 such candidates that read did at one of the
# first two tries (as it is, contrast-stretched), and the rest cost a full set of remedies each (x1.27 the
# zxing-cpp calls a frame on seed 3's playing cards), so such a candidate gets only those two.
DARK = 60  # of 255: a pixel this much darker than the paper around it is ink (a local, adaptive threshold)
MIN_INK = 12  # grey levels: darker than its surroundings by less than this is felt grain or noise, not ink


Shared = dict[tuple[str, int, int], np.ndarray]
"""Work the second look's passes over one frame share (``code_candidates``, ``glare_candidates``): the frame
halved and closed at a scale, computed by the first pass that needs it; give a new one for each frame."""


def _shrunk(gray: np.ndarray, module: float, shared: Shared | None = None) -> tuple[np.ndarray, int]:
    """``gray`` halved until a module of ``module`` px is 1.1-2.2 px (at most 4 times less; halving is a fast
    resize), and how many times less."""
    small, n = gray, 1
    while module / n >= 2.2 and n < 4:
        n *= 2
        if shared is not None and ("half", n, 0) in shared:
            small = shared[("half", n, 0)]
            continue
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        if shared is not None:
            shared[("half", n, 0)] = small
    return small, n


def _paper(small: np.ndarray, n: int, k: int, shared: Shared | None = None) -> np.ndarray:
    """``small`` (the frame ``n`` times less) closed by a ``k`` px square: the paper round each pixel."""
    if shared is not None and ("paper", n, k) in shared:
        return shared[("paper", n, k)]
    paper = cv2.morphologyEx(small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    if shared is not None:
        shared[("paper", n, k)] = paper
    return paper


def code_candidates(gray: np.ndarray, side_range: tuple[float, float], split_joined: bool = False,
                    max_ink: float = MAX_DARK_SHARE, narrow: bool = True, lean: bool = False,
                    shared: Shared | None = None) -> list[Candidate]:
    """Code-shaped regions of ``gray`` whose side (px) is in ``side_range``, most code-like first.

    With ``split_joined``, a code whose blob the closing joined to its card's edge or to the codes
    peeking out beside it (the top card of a fan or a stack of bidding cards) is found too, and so is a
    code lying inside a hole of another blob (a card on a dark felt that reads as ink; ``_blobs``).
    ``max_ink``: the largest share of ink a code's blob may have (``MAX_DARK_SHARE``); ``narrow`` (with
    ``split_joined``): also close the ink by two pixels less (``_blobs``). ``lean``: blobs that cannot be a
    code's by their boxes' ink are left out before any outline is traced (``may_be_code``; the same
    candidates, found sooner). ``shared``: see ``Shared``.
    """
    lo, hi = side_range
    module = max(math.sqrt(lo * hi) / MODULES, 1.0)
    small, n = _shrunk(gray, module, shared)
    f = 1.0 / n
    m = module * f
    rel, bh = relative_darkness(small, _odd(4 * m), _paper(small, n, _odd(4 * m), shared))
    ink = cv2.threshold(bh, MIN_INK, 255, cv2.THRESH_BINARY)[1]
    found = _blobs(cv2.threshold(rel, DARK, 255, cv2.THRESH_BINARY)[1] & ink, m, f, (lo * 0.6 * f, hi * 1.3 * f),
                   math.sqrt(lo * hi) if split_joined else 0.0, bh, max_ink, narrow, lean)
    return sorted(found, key=lambda c: -c.score)


def look_at_card(gray: np.ndarray, box: tuple[int, int, int, int], side: float,
                 read: Reader, lean: bool = False) -> tuple[RawReads, bool]:
    """Look again at one card in which nothing was read, for a code smeared by motion: ``box`` its
    bounds (x0, y0, x1, y1, frame px), ``side`` the side of a code there (px). Returns the reads and
    whether the card is smeared one way (and so was deconvolved).

    A code smeared by two modules or more is too faint, and its blob too ragged, for
    ``code_candidates``; but the card it is on still shows as a pale card shape. The whole card is cut
    out (the code lies within 2.3 modules of its centre, CARD_CODES.md), and read only if it is smeared
    one way: the card's own edges, smeared alike, help measure the smear. So this costs time only on
    cards nothing was read in.
    """
    x0, y0, x1, y1 = box
    if x1 - x0 < side or y1 - y0 < side:
        return [], False
    reach = 1.15 * side + 2.3 * side / MODULES
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if blur_direction(_cut(gray, cx, cy, reach)[0])[1] <= DIRECTIONAL:
        return [], False
    return read_candidate(gray, Candidate(cx, cy, side, 1.0, True, reach), read, lean=lean), True


GLARE_PAPER = 240  # grey level: paper this bright at the second look's scale is under a glare patch (or beside one)
GLARE_SPAN = 30  # grey levels: the least local span (paper less ink) ``glare_candidates`` stretches to full contrast
GLARE_INK = 20  # grey levels: the least darkness under its paper a pixel needs there to be ink (noise is less)
GLARE_REACH = 6.0  # modules: the window of that stretch, and how far round the bright paper it looks
FAINT_GLARE_INK = 10  # grey levels: the same for the fainter look, whose candidates come after all the others
# (``glare_candidates(faint=True)``): under a stronger patch a code's lone modules, blurred, are only 10-20
# grey levels under the paper, so at ``GLARE_INK`` only its finder is ink and its blob is no code's shape


def glare_candidates(gray: np.ndarray, side_range: tuple[float, float], near: Sequence[Candidate] = (),
                     max_ink: float = MAX_DARK_SHARE, lean: bool = False,
                     shared: Shared | None = None, faint: bool = False) -> list[Candidate]:
    """Code-shaped regions under a glare patch, which ``code_candidates`` does not see.

    A glare patch adds light to paper and ink alike; the camera's gamma then squeezes the ink up towards
    the paper, and where the paper clips a code 40 to 60 grey levels under it is under ``DARK`` (a quarter
    of the paper) relative darkness: no ink at all to the second look. Only round paper at least
    ``GLARE_PAPER`` bright, the picture is stretched locally (each pixel between the darkest and brightest
    within ``GLARE_REACH`` modules, a span under ``GLARE_SPAN`` stretched only as much as one of
    ``GLARE_SPAN``, so that the paper's noise is not), a pixel is ink where it is ``DARK`` in the stretched
    picture and ``GLARE_INK`` grey levels under its paper in the picture itself, and the code-shaped blobs of
    that ink not already ``near`` (another candidate) are candidates. Elsewhere nothing is done. Bright paper
    with no glare (a strongly lit table) is looked at too, and its codes are found the same way.

    ``faint``: the same stretched picture is also looked at with ink only ``FAINT_GLARE_INK`` grey levels under
    its paper, and the code-shaped blobs of that ink not near any candidate are candidates too, after all
    the others (so under the cap they never take another's place).
    """
    lo, hi = side_range
    module = max(math.sqrt(lo * hi) / MODULES, 1.0)
    small, n = _shrunk(gray, module, shared)
    f = 1.0 / n
    m = module * f
    k = _odd(4 * m)
    paper = _paper(small, n, k, shared)
    bright = cv2.threshold(paper, GLARE_PAPER - 1, 255, cv2.THRESH_BINARY)[1]
    if cv2.countNonZero(bright) < (lo * f) ** 2:  # less bright paper than one code: no glare patch
        return []
    reach = _odd(GLARE_REACH * m)
    se = cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach))
    zone = cv2.dilate(bright, se)
    out: list[Candidate] = []
    fainter: list[Candidate] = []
    inks = ((GLARE_INK, out), (FAINT_GLARE_INK, fainter)) if faint else ((GLARE_INK, out),)
    count, _, stats, _ = _label(zone) if lean else cv2.connectedComponentsWithStats(zone, connectivity=8)
    for i in range(1, count):
        x0, y0, w, h = (int(v) for v in stats[i, :4])
        if min(w, h) < lo * f * 0.6:
            continue
        box = small[y0:y0 + h, x0:x0 + w]
        top = cv2.blur(cv2.dilate(box, se), (reach, reach)).astype(np.float32)
        low = cv2.blur(cv2.erode(box, se), (reach, reach)).astype(np.float32)
        span = top - low
        flat = np.clip((box.astype(np.float32) - low) / np.maximum(span, GLARE_SPAN) * 255, 0, 255).astype(np.uint8)
        rel, _ = relative_darkness(flat, k)
        _, bh = relative_darkness(box, k)  # the ink's own darkness under its paper, in the picture's grey levels
        dark = cv2.threshold(rel, DARK, 255, cv2.THRESH_BINARY)[1]
        for ink, into in inks:
            mask = cv2.bitwise_and(dark, cv2.threshold(bh, ink, 255, cv2.THRESH_BINARY)[1])
            for c in _blobs(mask, m, f, (lo * 0.6 * f, hi * 1.3 * f), math.sqrt(lo * hi), None, max_ink, True,
                            lean):
                c = replace(c, x=c.x + x0 / f, y=c.y + y0 / f, side=max(c.side, math.sqrt(lo * hi)), glare=True)
                if all(math.dist((c.x, c.y), (d.x, d.y)) >= 0.5 * min(c.side, d.side)
                       for d in chain(near, out, fainter)):
                    into.append(c)
    return sorted(out, key=lambda c: -c.score) + sorted(fainter, key=lambda c: -c.score)


def read_glare_candidate(gray: np.ndarray, cand: Candidate, read: Reader, defocus: bool = True,
                         read_global: Reader | None = None, lean: bool = False) -> RawReads:
    """``read_candidate``, then, for a candidate under a glare patch left unread, the same on its
    surroundings (two sides either way) stretched from their 2nd to their 98th percentile of grey."""
    found = read_candidate(gray, cand, read, defocus, read_global, lean)
    if found or not cand.glare:
        return found
    win, x0, y0 = _cut(gray, cand.x, cand.y, 2 * cand.side)
    if min(win.shape) < 8:
        return []
    lo, hi = np.percentile(win, (2, 98))
    flat = np.clip((win.astype(np.float32) - lo) * (255 / max(hi - lo, 1.0)), 0, 255).astype(np.uint8)
    found = read_candidate(flat, replace(cand, x=cand.x - x0, y=cand.y - y0), read, defocus, read_global, lean)
    return [(t, [(x + x0, y + y0) for x, y in c], u, s) for t, c, u, s in found]


def _blobs(mask: np.ndarray, m: float, f: float, sides: tuple[float, float],
           split_joined: float = 0.0, bh: np.ndarray | None = None, max_ink: float = MAX_DARK_SHARE,
           narrow: bool = False, lean: bool = False) -> list[Candidate]:
    """Code-shaped blobs of ``mask`` (modules closed into one blob) with sides (px, working scale) in
    ``sides``, as candidates in frame pixels. A felt or a card face gives hundreds of specks: they are
    left out by their boxes, all at once, before any is measured.

    The closing that joins a code's modules also joins the code to dark lines a few modules away: its
    card's edge and shadow, and the strips of codes peeking out from under it (a fan or a stack of
    bidding cards, whose code lies three modules from the card's edge), into one blob of no code's
    shape. With ``split_joined`` (the side a code is expected to have, frame px) the closed blobs are
    also opened by ``JOINED_OPEN`` modules, which a filled code blob survives and lines and strips a
    module or two wide do not, and the blobs that opening leaves are candidates too (those not already
    found) when their ink is printed ink (``bh``: darker than the paper around by ``JOINED_INK`` grey
    levels on average, where a felt's grain, closed into a network and opened into lumps, is a few).
    Such a blob may be only the code's solid part, so it is cut out at least as large as the expected
    code.

    A closing kernel is a whole odd number of pixels: where a module is 1.6 to 2 px it is 5, nearly three
    modules, and it bridges the white around a code (its two-module quiet zone and the card's 3 mm margin,
    about three modules) to the card's edge and shadow, and through them to a dark felt's grain or a
    neighbouring card: the code is then part of a blob the size of the frame, which no opening splits.
    With ``narrow`` (and ``split_joined``) the ink is also closed by a kernel two pixels narrower, and the
    code-shaped blobs of printed ink (as above) that this leaves are candidates too (those not already
    found)."""
    k = _odd(2.2 * m)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    sums = ink_sums(mask, bh) if lean and split_joined else None
    found = _code_blobs(mask, closed, f, sides, nested=bool(split_joined), max_ink=max_ink, sums=sums)
    if split_joined:
        opened = cv2.morphologyEx(closed, cv2.MORPH_OPEN,
                                  cv2.getStructuringElement(cv2.MORPH_RECT, (_odd(JOINED_OPEN * m),) * 2))
        found += [replace(c, side=max(c.side, split_joined))
                  for c in _code_blobs(mask, opened, f, sides, bh, True, max_ink, sums=sums)
                  if all(math.dist((c.x, c.y), (d.x, d.y)) >= 0.5 * min(c.side, d.side) for d in found)]
        if narrow and k > 3:
            tight = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k - 2, k - 2)))
            found += [c for c in _code_blobs(mask, tight, f, sides, bh, True, max_ink, prefilter=True, sums=sums)
                      if all(math.dist((c.x, c.y), (d.x, d.y)) >= 0.5 * min(c.side, d.side) for d in found)]
    return found


def _label(img: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats(img, connectivity=8)``'s labels in about half its time: 16-bit where
    the image cannot hold more blobs than they count (8-connected blobs lie a pixel apart, so at most a quarter
    of its pixels are blobs), else by Grana's algorithm (the same labels)."""
    few = ((img.shape[0] + 1) // 2) * ((img.shape[1] + 1) // 2) < 65535
    count, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        img, 8, cv2.CV_16U if few else cv2.CV_32S, cv2.CCL_DEFAULT if few else cv2.CCL_GRANA)
    return int(count), labels, stats, centroids


InkSums = tuple[np.ndarray, np.ndarray | None]


def ink_sums(mask: np.ndarray, bh: np.ndarray | None) -> InkSums:
    """Summed-area tables of ``mask``'s ink pixels and (with ``bh``) of their darkness, for ``may_be_code``."""
    on = (mask > 0).astype(np.uint8)
    return cv2.integral(on, sdepth=cv2.CV_32S), None if bh is None else cv2.integral(bh * on, sdepth=cv2.CV_32S)


def _box_sums(table: np.ndarray, x0: np.ndarray, y0: np.ndarray, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    xa, ya = x0.astype(np.intp), y0.astype(np.intp)
    xb, yb = xa + w.astype(np.intp), ya + h.astype(np.intp)
    return (table[yb, xb].astype(np.float64) - table[ya, xb] - table[yb, xa] + table[ya, xa])


def may_be_code(sums: InkSums, x0: np.ndarray, y0: np.ndarray, w: np.ndarray, h: np.ndarray, min_side: float,
                max_ink: float, ink_check: bool) -> np.ndarray:
    """Which blobs (boxes ``x0``, ``y0``, ``w``, ``h``) ``_code_blobs`` could keep, from their boxes alone: a
    blob's outline lies within its box, so its area is at most ``(w - 1) * (h - 1)`` (under ``min_side``
    squared: too small), and its share of ink (ink pixels in the box over the area, the area then at least
    0.45 of the box) lies between bounds the box's ink count gives; with ``ink_check``, the ink's mean
    darkness in the box is ``JOINED_INK`` at least. Only blobs that fail for certain are left out."""
    inner = (w - 1) * (h - 1)
    box = np.maximum(w * h, 1.0)
    ink = _box_sums(sums[0], x0, y0, w, h)
    share = ink / box
    most = np.maximum(inner / box, 0.5)  # the largest max(fill, 0.5) can be
    eps = 1e-9
    ok = (inner >= min_side * min_side - eps) & (inner >= 0.45 * box - eps)
    ok &= (share / 0.5 >= MIN_DARK_SHARE - eps) & (share / most <= max_ink + eps)
    if ink_check and sums[1] is not None:
        ok &= _box_sums(sums[1], x0, y0, w, h) >= (JOINED_INK - eps) * ink
    return ok


JOINED_OPEN = 3.0  # modules: ``_blobs``'s opening of joined blobs (a code blob is 13 wide, a card edge 1-2)
JOINED_INK = 36  # grey levels: the least mean darkness of a split blob's ink below its paper (3 x MIN_INK)


def _code_blobs(mask: np.ndarray, closed: np.ndarray, f: float, sides: tuple[float, float],
                bh: np.ndarray | None = None, nested: bool = False, max_ink: float = MAX_DARK_SHARE,
                prefilter: bool = False, sums: InkSums | None = None) -> list[Candidate]:
    """The blobs of ``closed`` of a code's size and shape, ``mask`` giving their share of ink (and, with
    ``bh``, only those whose ink is on average ``JOINED_INK`` darker than the paper around it).

    With ``nested``, blobs lying inside a hole of another blob count too: on a dark felt in dim light
    the felt's noise is darker than the cards beside it, so the felt is one blob of "ink" with every
    card a hole in it, and each code a blob inside a hole, which the outer contours alone never show."""
    if nested:
        # Every blob, nested or not, and its box in one pass (the felt's many specks never reach Python);
        # the outline (and so the area, holes included) only of those whose box may be a code's.
        _, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8) if sums is None \
            else _label(closed)
        x0, y0, w, h = stats[1:, :4].T.astype(np.float64)
        contours: Sequence[np.ndarray] = ()
    else:
        contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            return []
        x0, y0, w, h = np.array([cv2.boundingRect(c) for c in contours], np.float64).T
    if not len(x0):
        return []
    lo_s, hi_s = sides
    big, small = np.maximum(w, h), np.minimum(w, h)
    shaped = (big >= lo_s) & (small <= hi_s * 1.42) & (small >= 0.6 * big)
    if sums is not None and shaped.any():  # ``may_be_code``: the same blobs kept, fewer outlines traced
        shaped[shaped] = may_be_code(sums, x0[shaped], y0[shaped], w[shaped], h[shaped], lo_s, max_ink, bh is not None)
    if prefilter and nested and bh is not None:
        # ``prefilter``: leave out at once, before any outline is traced, the blobs whose own ink is on average
        # fainter than ``JOINED_INK`` (a felt's grain closed into lumps by the narrow closing: many a frame)
        if sums is not None:  # lean: the few blobs ``may_be_code`` left, each in its own box (the same sums)
            for i in np.flatnonzero(shaped):
                xa, ya, xb, yb = int(x0[i]), int(y0[i]), int(x0[i] + w[i]), int(y0[i] + h[i])
                sel = (labels[ya:yb, xa:xb] == i + 1) & (mask[ya:yb, xa:xb] > 0)
                shaped[i] = float(bh[ya:yb, xa:xb][sel].sum()) >= JOINED_INK * max(int(sel.sum()), 1)
        else:  # every blob at once, by two counts over the whole image
            lab = labels.ravel()
            on = mask.ravel() > 0
            ink_sum = np.bincount(lab[on], weights=bh.ravel()[on].astype(np.float64), minlength=len(x0) + 1)[1:]
            ink_n = np.bincount(lab[on], minlength=len(x0) + 1)[1:]
            shaped &= ink_sum >= JOINED_INK * np.maximum(ink_n, 1)
    keep = np.flatnonzero(shaped)
    if not len(keep):
        return []
    out = []
    # lean: each box's ink count and darkness from the summed-area tables (the same integers as counting them)
    inks = _box_sums(sums[0], x0[keep], y0[keep], w[keep], h[keep]) if sums is not None else None
    darkness = _box_sums(sums[1], x0[keep], y0[keep], w[keep], h[keep]) \
        if sums is not None and sums[1] is not None and bh is not None else None
    for j, i in enumerate(keep):
        xa, ya, xb, yb = int(x0[i]), int(y0[i]), int(x0[i] + w[i]), int(y0[i] + h[i])
        if nested:
            own = cv2.compare(labels[ya:yb, xa:xb], float(i + 1), cv2.CMP_EQ)  # the blob's own pixels, 255
            outline, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            area = max(cv2.contourArea(c) for c in outline)
        else:
            area = cv2.contourArea(contours[i])
        side = math.sqrt(area)  # a code's blob is a filled square, at any angle
        fill = area / (w[i] * h[i])  # 1 upright, 0.5 at 45 degrees
        if not lo_s <= side <= hi_s or fill < 0.45:
            continue
        ink = int(inks[j]) if inks is not None else cv2.countNonZero(mask[ya:yb, xa:xb])
        dark = ink / (w[i] * h[i]) / max(fill, 0.5)  # codes: about half
        if bh is not None and MIN_DARK_SHARE <= dark <= max_ink:
            if darkness is not None:  # the mean below JOINED_INK exactly when the sum is below JOINED_INK times the count
                if darkness[j] < JOINED_INK * ink:
                    continue
            else:
                sel = mask[ya:yb, xa:xb] > 0
                if float(bh[ya:yb, xa:xb][sel].mean()) < JOINED_INK:
                    continue
        if MIN_DARK_SHARE <= dark <= max_ink:
            out.append(Candidate((x0[i] + w[i] / 2) / f, (y0[i] + h[i] / 2) / f, side / f, 1 - abs(dark - 0.5),
                                 inky=dark > INKY))
    return out


def _normalise(img: np.ndarray, k: int) -> np.ndarray:
    """Local contrast stretch: each pixel between the darkest and brightest within ``k`` px."""
    se = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    hi = cv2.blur(cv2.dilate(img, se), (k, k))
    lo = cv2.blur(cv2.erode(img, se), (k, k))
    span = np.maximum(hi.astype(np.float32) - lo, 12)
    return np.clip((img.astype(np.float32) - lo) / span * 255, 0, 255).astype(np.uint8)


def _quiet(img: np.ndarray, size: float, nearest: bool = False) -> np.ndarray:
    """A median filter ``size`` px across (odd, at least 3), or the image as it is for a size under 2:
    a deconvolved image carries speckle that zxing's binariser takes for modules.

    ``nearest``: the odd size nearest ``size`` (5 for 5.6 px); else ``_odd``'s, which rounds an even size up
    (7 for 5.6 px). OpenCV's median of 8-bit pixels is a quick sorting network up to 5 px and a histogram
    over 7 px or more, about four times slower on a crop (2.7 against 0.6 ms at 240 px square): the
    decoder's own time a frame with codes smeared by motion went mostly there (issue 37's twelfth round)."""
    if size < 2:
        return img
    return cv2.medianBlur(img, max(3, 2 * int(round((size - 1) / 2)) + 1) if nearest else _odd(size))


def _sharpen(img: np.ndarray, sigma: float, amount: float = 1.2) -> np.ndarray:
    """An unsharp mask: ``img`` plus ``amount`` times its difference from a Gaussian blur of ``sigma`` px."""
    return cv2.addWeighted(img, 1 + amount, cv2.GaussianBlur(img, (0, 0), sigma), -amount, 0)


def sharpen_up(img: np.ndarray, k: float, sigma: float, amount: float = 1.2, interpolation: int = cv2.INTER_CUBIC,
               big: np.ndarray | None = None, soft: np.ndarray | None = None) -> np.ndarray:
    """``img`` scaled ``k`` times and unsharp-masked as ``_sharpen`` would with a blur of ``sigma * k`` px,
    the blur taken at ``img``'s own scale and scaled with it: a blur and a scaling, both linear, nearly
    commute, and a Gaussian at the small scale costs a sixteenth of one at 4 times it (an 8-bit Gaussian
    of 6 px on a crop scaled to 10 px a module was a fifth of a frame's time). ``big`` (``img`` scaled so) and
    ``soft`` (its blur) when the caller has them already."""
    soft = cv2.GaussianBlur(img, (0, 0), sigma) if soft is None else soft
    if k <= 1:
        return cv2.addWeighted(img, 1 + amount, soft, -amount, 0)
    big = cv2.resize(img, None, fx=k, fy=k, interpolation=interpolation) if big is None else big
    return cv2.addWeighted(big, 1 + amount, cv2.resize(soft, None, fx=k, fy=k, interpolation=interpolation), -amount, 0)


RawReads = list[tuple[str, list[tuple[float, float]], float | None, str]]  # text, corners, unused EC, symbol
Reader = Callable[[np.ndarray], tuple[RawReads, bool]]
"""``read(image) -> (reads, other)``: the card-code symbols read, and whether a symbol of another kind
(a QR code on a score card, a phone) was read there instead, in which case no remedy is tried."""


def read_candidate(gray: np.ndarray, cand: Candidate, read: Reader, defocus: bool = True,
                   read_global: Reader | None = None, lean: bool = False) -> RawReads:
    """Read one candidate region: cut out, scaled to ``TARGET_PPM``, then the remedies in turn.

    First as it is, contrast-stretched and sharpened (not for a whole ``card``), and (``defocus``) at
    ``DEFOCUS_PPM`` strongly sharpened for a code out of focus (``DEFOCUS_SHARPEN``): scaled linearly and
    read by ``read``, then read by ``read_global`` when given (a reader that binarises the whole crop at one
    threshold, which a small crop of one code suits): with ``lean``, that same image; else scaled again
    bicubically (as before issue 37's eleventh round); then, when it is
    smeared one way (``smear``), deconvolved in linear light at about the length measured, with the
    speckle deconvolution leaves quietened (``DEBLUR_TRIES``; with ``lean``, by a median of the odd size
    nearest the one asked for, ``_quiet``). ``read`` (see ``Reader``) answers in the
    image's pixels; the answer is in frame pixels.
    """
    base, x0, y0 = _cut(gray, cand.x, cand.y, cand.reach or cand.side * 1.15)
    if min(base.shape) < 8:
        return []
    ppm = cand.side / MODULES

    def up(img: np.ndarray, k: float) -> np.ndarray:
        return cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC) if k > 1 else img

    def scale(target: float) -> float:
        return float(np.clip(target / ppm, 1.0, 4.0))

    def as_it_is() -> Iterator[tuple[np.ndarray, float]]:
        k = scale(TARGET_PPM)
        crop = up(base, k)
        yield crop, k
        yield up(_normalise(base, _odd(3 * ppm)), k), k
        yield sharpen_up(base, k, 0.6, big=crop) if lean else _sharpen(crop, 0.6 * k), k
        if scale(SMEARED_PPM) > k:  # some codes read at one scale only
            yield up(base, scale(SMEARED_PPM)), scale(SMEARED_PPM)
        if defocus:
            kd = scale(DEFOCUS_PPM)
            sigma, amount = DEFOCUS_SHARPEN
            if lean:
                soft = cv2.GaussianBlur(base, (0, 0), sigma)
                crisp = sharpen_up(base, kd, sigma, amount, cv2.INTER_LINEAR, soft=soft)
                yield crisp, kd
                if read_global is not None:
                    yield crisp, -kd
                return
            crisp = cv2.resize(base, None, fx=kd, fy=kd, interpolation=cv2.INTER_LINEAR) if kd > 1 else base
            yield _sharpen(crisp, sigma * kd, amount), kd
            if read_global is not None:
                yield _sharpen(up(base, kd), sigma * kd, amount), -kd

    def smeared() -> Iterator[tuple[np.ndarray, float]]:
        angle, length, _ = smear(base, ppm)
        if length:
            k = scale(SMEARED_PPM)
            undo = Deblur(base, GAMMA)
            for f, nsr, quiet in CARD_DEBLUR_TRIES if cand.card else DEBLUR_TRIES:
                yield _quiet(up(undo(f * length, angle, nsr), k), quiet * ppm * k, lean), k

    for n, (img, k) in enumerate(chain(() if cand.card else as_it_is(), smeared())):
        if cand.inky and n >= INKY_TRIES:
            break
        if k < 0:  # read with one threshold for the whole crop (``read_global``)
            assert read_global is not None
            k = -k
            found, other = read_global(img)
        else:
            found, other = read(img)
        if found:
            return [(t, [(x / k + x0, y / k + y0) for x, y in c], u, s) for t, c, u, s in found]
        if other:
            break
    return []
