"""Decoders: a frame in, the card codes in it out, behind one interface for zxing-cpp and pyzbar.

``make_decoder("zxing")`` (the default) reads Micro QR and QR on the whole frame with zxing-cpp;
``make_decoder("pyzbar")`` reads the QR variant with ZBar, decoding each card-shaped region of the
frame rather than the whole frame (ZBar is slow on large images). Both return a ``FrameReading``:
the valid card codes seen, the bidding cards seen (the same code family, told apart by the first
character, ``vision/CARD_CODES.md``), the texts rejected (counted in ``decoder.rejected`` and logged),
and the card-shaped objects in which no code was read.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from vision import lookagain, regrid
from vision.codes import CallCode, CardCode, CodeRejected, parse_code
from vision.zones import DEFAULT_REMEDIES, parse_remedies

log = logging.getLogger(__name__)

# A bridge card, in millimetres, and its area relative to the code's (a 57 x 89 mm card around a 39 mm code).
CARD_MM = (57.0, 89.0)
CARD_PER_CODE_AREA = CARD_MM[0] * CARD_MM[1] / 39.0**2
# The fewest pixels a frame may have each way: less is no picture of a table (``as_gray`` refuses it).
MIN_FRAME_SIDE = 16
# Frames less tall than this are scaled up twice before zxing reads them (see ``ZxingDecoder._raw``).
UPSCALE_BELOW = 600


Point = tuple[float, float]
RawRead = tuple[str, list[Point], float | None, str]  # text, corners (px), unused error correction, symbol


def _centre(corners: list[Point]) -> Point:
    return (sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners))


def _area(corners: list[Point]) -> float:
    """Polygon area by the shoelace formula."""
    n = len(corners)
    return abs(sum(corners[i][0] * corners[(i + 1) % n][1] - corners[(i + 1) % n][0] * corners[i][1]
                   for i in range(n))) / 2


class FrameError(ValueError):
    """A frame that is not an image the decoder can use (missing, empty, wrong type or shape)."""


@dataclass(frozen=True)
class Sighting:
    """One valid card code in a frame: where (pixel centre and corners) and how well it read."""

    code: CardCode
    x: float
    y: float
    corners: tuple[tuple[float, float], ...]
    ec_used: float = 0.0  # share of the symbol's error correction used (zxing-cpp); 0 when unknown
    heavy_ec: bool = False
    # the symbol read, "micro" or "qr": the decoder knows it when it reads; asked again afterwards at the
    # frame's scale, a small QR the second look had read did not read, and was sized as a Micro QR
    symbol: str = "micro"


@dataclass(frozen=True)
class Rejection:
    """A decoded text that is not a valid card code, with the reason and where it was."""

    reason: str
    text: str
    x: float
    y: float


@dataclass(frozen=True)
class CallSighting:
    """One valid bidding card's code in a frame, and where (pixel centre and corners)."""

    code: CallCode
    x: float
    y: float
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class FrameReading:
    sightings: tuple[Sighting, ...]
    rejections: tuple[Rejection, ...]
    unreadable: tuple[tuple[float, float], ...]  # centres of card shapes with no code read
    calls: tuple[CallSighting, ...] = ()  # bidding cards: never among the sightings of playing cards


class Decoder(Protocol):
    """What every backend offers: ``read(frame)``, a count of rejected texts by reason, and
    ``unasked_variant(frame)``: the symbol not read in which the frame holds codes of ours."""

    name: str
    rejected: Counter[str]

    def read(self, frame: np.ndarray) -> FrameReading: ...

    def unasked_variant(self, frame: np.ndarray) -> str | None: ...


def as_gray(frame: object) -> np.ndarray:
    """Check a frame and return it as a 2-D ``uint8`` array.

    Raises:
        FrameError: naming what is wrong with the frame.
    """
    if frame is None:
        raise FrameError("no frame (the camera returned nothing)")
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy array, got {type(frame).__name__}")
    if frame.size == 0 or frame.ndim not in (2, 3) or min(frame.shape[:2]) < MIN_FRAME_SIDE:
        raise FrameError(f"frame of shape {frame.shape} is not an image")
    if frame.dtype != np.uint8:
        raise FrameError(f"frame of dtype {frame.dtype}: want uint8")
    if frame.ndim == 2:
        return frame
    if frame.shape[2] == 3:
        return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2GRAY)
    if frame.shape[2] == 1:
        return frame[:, :, 0]
    raise FrameError(f"frame with {frame.shape[2]} channels: want 1, 3 or 4")


def card_shapes(frame: np.ndarray, area_px: float) -> list[np.ndarray]:
    """Pale card-like quadrilaterals on the felt, as 4x2 corner arrays in frame pixels.

    Only lone cards count: shapes whose area is far from ``area_px`` (overlapping cards, hands, a
    corner showing) are left out. Works on every second or fourth pixel, for speed.
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or area_px <= 0:
        return []
    k = 4 if area_px >= 8000 else 2  # shrink so that a card stays some 500 px in area
    small = cv2.resize(frame, (frame.shape[1] // k, frame.shape[0] // k), interpolation=cv2.INTER_NEAREST)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    s, v = hsv[:, :, 1], hsv[:, :, 2]
    mask = ((s < 70) & (v > 110)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        area = cv2.contourArea(c) * k * k
        if not 0.6 * area_px <= area <= 1.5 * area_px:
            continue
        (cx, cy), (w, h), ang = cv2.minAreaRect(c)
        if min(w, h) == 0 or not 1.25 <= max(w, h) / min(w, h) <= 1.9:
            continue
        if area < 0.8 * w * h * k * k:  # not rectangular enough
            continue
        box = cv2.boxPoints(((cx * k, cy * k), (w * k, h * k), ang))
        out.append(box.astype(np.float32))
    return out


class _Base:
    name = "base"
    upscale_small = False  # scale frames less tall than UPSCALE_BELOW up twice before reading

    def __init__(self, heavy_ec_below: float = 0.5, find_unreadable: bool = True,
                 card_area_px: float = 0.0, table_mm: tuple[float, float] | None = None) -> None:
        self.heavy_ec_below = heavy_ec_below
        self.card_area_px = card_area_px
        # The table area the frame shows (``[vision] table_mm``), which sizes a card in a frame where no code
        # read; None: the default play area's share of any frame (``_card_area``)
        self.table_mm = table_mm
        self.find_unreadable = find_unreadable
        self.rejected: Counter[str] = Counter()
        self._seen_rejects: set[str] = set()

    def _raw(self, gray: np.ndarray, frame: np.ndarray) -> list[RawRead]:
        raise RuntimeError("a decoder backend must define _raw")  # pragma: no cover

    def _retry(self, gray: np.ndarray, box: np.ndarray) -> list[RawRead]:
        """A second, closer look at one card shape in which the whole-frame pass read nothing."""
        return []

    def unasked_variant(self, frame: np.ndarray) -> str | None:
        """The symbol not read (``micro`` or ``qr``) in which ``frame`` holds a card or bidding code of ours,
        None when it holds none or every symbol is read: asked when nothing was read, so that labels
        printed as QR and read as Micro QR alone say why, not only "no card code read"."""
        return None

    def _look_again(self, gray: np.ndarray, raw: list[RawRead]) -> list[RawRead]:
        """Reads of code-shaped regions the whole-frame pass did not read (none by default)."""
        return []

    def _card_area(self, frame: np.ndarray, codes: list[RawRead], framed: bool = True) -> float:
        """A card's area (px) in ``frame``: from the codes read, else ``card_area_px``, else (``framed``) a
        57 x 89 mm card at the frame's px/mm when it shows ``table_mm`` (centred, aspect kept, as
        ``vision.zones.default_homography`` takes it), else a 75th of the frame (about a card of the default
        800 x 450 mm play area in a 16:9 frame). Before ``table_mm`` was used, a frame of a wider framing
        with no code read looked for cards far too big, and ``unreadable`` stayed empty (audit 61)."""
        if codes:
            return float(np.median([_area(c) for _, c, *_ in codes])) * CARD_PER_CODE_AREA
        if self.card_area_px:
            return self.card_area_px
        if framed and self.table_mm is not None:
            h, w = frame.shape[:2]
            px_per_mm = min(w / self.table_mm[0], h / self.table_mm[1])
            return CARD_MM[0] * CARD_MM[1] * px_per_mm**2
        return frame.shape[0] * frame.shape[1] / 75.0  # the default table area seen at any size

    def read(self, frame: np.ndarray) -> FrameReading:
        """Decode every card code in ``frame`` (BGR or grayscale ``uint8``).

        Raises:
            FrameError: the frame is not a usable image.
        """
        gray = as_gray(frame)
        k = 2 if self.upscale_small and gray.shape[0] < UPSCALE_BELOW else 1
        if k == 2:
            # Small frames put under 2 px on a module: zxing reads the frame scaled up twice (bicubic)
            # far better (640x480, 13 cards: about 0.92 of cards per frame against 0.74). Coordinates
            # are worked out on the scaled image and given back in the frame's pixels.
            gray = cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        raw = self._raw(gray, frame)
        raw = _one_per_code(raw + self._look_again(gray, raw))
        unreadable: list[tuple[float, float]] = []
        if self.find_unreadable:
            read_at = [_centre(c) for _, c, *_ in raw]
            # from the codes read (scaled pixels) or from the frame's size (its own pixels)
            area = self._card_area(frame, raw) / (k * k if raw else 1)
            for shape in card_shapes(frame, area):
                box = shape * k
                if any(cv2.pointPolygonTest(box, p, False) >= 0 for p in read_at):
                    continue
                again = self._retry(gray, box)
                if again:
                    raw.extend(again)
                else:
                    c = shape.mean(axis=0)
                    unreadable.append((float(c[0]), float(c[1])))
        if k != 1:
            raw = [(text, [(x / k, y / k) for x, y in corners], uec, sym) for text, corners, uec, sym in raw]
        sightings: list[Sighting] = []
        calls: list[CallSighting] = []
        rejections: list[Rejection] = []
        for text, corners, uec, sym in raw:
            cx, cy = _centre(corners)
            try:
                code = parse_code(text)
            except CodeRejected as exc:
                self.rejected[exc.reason.value] += 1
                if text not in self._seen_rejects:
                    if len(self._seen_rejects) > 1000:  # log each foreign text once, within reason
                        self._seen_rejects.clear()
                    self._seen_rejects.add(text)
                    # not its text: a misread card's code still names the card, and hands are secret
                    log.warning("a code not read as a card (%s) at (%.0f, %.0f)", exc.reason.value, cx, cy)
                rejections.append(Rejection(exc.reason.value, text, cx, cy))
                continue
            if isinstance(code, CallCode):
                calls.append(CallSighting(code, cx, cy, tuple(corners)))
                continue
            used = 0.0 if uec is None else max(0.0, 1.0 - uec)
            heavy = uec is not None and uec < self.heavy_ec_below
            sightings.append(Sighting(code, cx, cy, tuple(corners), used, heavy, sym))
        return FrameReading(tuple(sightings), tuple(rejections), tuple(unreadable), tuple(calls))


def _one_per_code(raw: list[RawRead]) -> list[RawRead]:
    """The same text read twice at (nearly) the same place is one code: keep the first read."""
    out: list[RawRead] = []
    for text, corners, uec, sym in raw:
        c = _centre(corners)
        reach = math.sqrt(_area(corners)) * 0.5  # two reads of one symbol; never two stickers
        if any(t == text and math.dist(c, _centre(k)) < reach for t, k, *_ in out):
            continue
        out.append((text, corners, uec, sym))
    return out


class ZxingDecoder(_Base):
    """zxing-cpp on the whole frame: Micro QR (the card code) and QR (its variant)."""

    name = "zxing"
    upscale_small = True

    def __init__(self, heavy_ec_below: float = 0.5, find_unreadable: bool = True,
                 card_area_px: float = 0.0, variants: tuple[str, ...] = ("micro",),
                 second_look: bool = True, max_candidates: int = lookagain.MAX_CANDIDATES,
                 size_bands: bool = True, split_joined: bool = True, defocus: bool = True,
                 mostly_ink: bool = True, narrow: bool = True, glare: bool = True, regrid: bool = True,
                 lean: bool = True, faint_glare: bool = False, table_mm: tuple[float, float] | None = None) -> None:
        super().__init__(heavy_ec_below, find_unreadable, card_area_px, table_mm)
        import zxingcpp

        self.second_look = second_look
        # The second look's bounds; ``max_candidates=8, size_bands=False`` is the decoder of before the
        # bidding-card layouts were measured (the benchmark runs both side by side).
        self.max_candidates = max_candidates
        self.size_bands = size_bands
        # ``split_joined=False``: the second look of before the outsider's table (``vision.measure_outsider``):
        # a code's blob joined to its card's edge not split, a code inside a hole of a dark felt's blob unseen
        self.split_joined = split_joined
        # ``defocus=False``: the second look of before its candidates were also read strongly sharpened at
        # 10 px a module (``lookagain.DEFOCUS_SHARPEN``), for codes out of focus at under 3.6 px a module
        self.defocus = defocus
        # ``mostly_ink=False``: the second look of before code blobs of 0.85-0.95 ink were taken (a code of
        # 2.2-3 px a module at the second look's halved scale, ``lookagain.MAX_DARK_SHARE``): main's of 2026-12-02
        self.max_ink = lookagain.MAX_DARK_SHARE if mostly_ink else 0.85
        # ``narrow=False``: the second look of before the ink was also closed two pixels narrower (a code
        # whose blob the closing joined through its white margin to a dark felt's grain; ``lookagain._blobs``)
        self.narrow = narrow
        # ``glare=False``: the second look of before codes under a glare patch were looked for on a locally
        # stretched copy (``lookagain.glare_candidates``): main of 2026-12-03
        self.glare = glare
        # ``faint_glare=True``: the glare look also takes ink only ``lookagain.FAINT_GLARE_INK`` grey levels
        # under its paper (candidates after all others). Off by default: on the measure seeds it read one call
        # more of about 2,100 at each size, for x1.09-1.24 of a playing-card frame's time at 720p, where the
        # time goal is missed, and x1.04-1.14 at 1080p (docs/benchmarks.md, issue 37's fourteenth round)
        self.faint_glare = faint_glare
        # ``regrid=False``: the second look of before a small candidate left unread was read module by module,
        # its grid fitted and its modules decided by a model of the blur (``vision.regrid``): main of 2026-12-03
        self.regrid = regrid
        # ``lean=False``: the second look of before the eighth round made it cheaper (the strong unsharp mask
        # taken at the crop's own scale, ``lookagain.sharpen_up``), and of before the eleventh (one scaling of a
        # crop fewer) and the twelfth (a deconvolved crop's median 5 px, not 7, ``lookagain._quiet``): main of
        # 2026-12-03 after the sixth round
        self.lean = lean
        self._card_looks = 0

        self._zx = zxingcpp
        fmts = {"micro": zxingcpp.BarcodeFormat.MicroQRCode, "qr": zxingcpp.BarcodeFormat.QRCode}
        unknown = set(variants) - set(fmts)
        if unknown or not variants:
            raise ValueError(f"unknown code variants {sorted(unknown)} (want micro and/or qr)")
        self._formats = [fmts[v] for v in variants]
        self._crop_formats = list(fmts.values())  # a QR where only Micro QR is wanted: a foreign code
        self._micro = zxingcpp.BarcodeFormat.MicroQRCode
        self.variants = tuple(variants)

    def unasked_variant(self, frame: np.ndarray) -> str | None:
        unasked = [v for v in ("micro", "qr") if v not in self.variants]
        if not unasked:
            return None
        gray = as_gray(frame)
        fmts = {"micro": self._micro, "qr": self._zx.BarcodeFormat.QRCode}
        found = self._zx.read_barcodes(gray, formats=fmts[unasked[0]], try_downscale=gray.shape[0] > 1100)
        for b in found:   # asked for QR, zxing-cpp returns Micro QR too (``_ours``): each symbol by its format
            if b.format == fmts[unasked[0]]:
                try:
                    parse_code(b.text)
                except CodeRejected:
                    continue
                return unasked[0]
        return None

    def _ours(self, found: list) -> list:
        """The symbols of ``variants`` among zxing-cpp's reads: asked for QR alone, zxing-cpp returns the
        Micro QR codes it finds too (the format asked for is not a filter for the QR family), so ``variants =
        ["qr"]`` read Micro QR cards (audit 61). Asked for Micro QR alone it returns no QR: a no-op there."""
        return [b for b in found if b.format in self._formats]

    def _raw(self, gray: np.ndarray, frame: np.ndarray) -> list[RawRead]:
        found = self._zx.read_barcodes(gray, formats=self._formats, try_rotate=False, try_invert=False,
                                       try_downscale=gray.shape[0] > 1100)
        return self._convert(self._ours(found), 0.0, 0.0, 1.0)

    def _look_again(self, gray: np.ndarray, raw: list[RawRead]) -> list[RawRead]:
        """The second look (``vision.lookagain``): code-shaped regions found whatever the light, read
        closer. Regions that hold a code already read (or a foreign text) are skipped."""
        if not self.second_look:
            return []
        if raw:
            side = float(np.median([math.sqrt(_area(c)) for _, c, *_ in raw]))
            bands = [(0.65 * side, 1.45 * side)]
        else:
            # No code read, so no scale known: look in two bands of sizes, small codes first. One wide
            # band works at the scale of its middle, where the closing that joins a code's modules also
            # joins small codes lying close together (a stack of bidding cards) into one blob that is no
            # code's shape.
            top = max(lookagain.MODULES * 8.0, gray.shape[1] / 12)
            bands = [(lookagain.MODULES * 1.8, lookagain.MODULES * 4.0), (lookagain.MODULES * 3.6, top)] \
                if self.size_bands else [(lookagain.MODULES * 1.8, top)]
        candidates: list[lookagain.Candidate] = []
        shared: lookagain.Shared | None = {} if self.lean else None  # this frame's, for every pass
        for band in bands:
            for cand in lookagain.code_candidates(gray, band, self.split_joined, self.max_ink, self.narrow,
                                                      self.lean, shared):
                if all(math.dist((c.x, c.y), (cand.x, cand.y)) >= 0.5 * min(c.side, cand.side) for c in candidates):
                    candidates.append(cand)
        if self.glare:  # after all others: a glare candidate never takes another's place under the cap
            for band in bands:
                candidates += lookagain.glare_candidates(gray, band, candidates, self.max_ink, self.lean, shared,
                                                         self.faint_glare)
        done = [(*_centre(c), math.sqrt(_area(c))) for _, c, *_ in raw]  # codes read: centre, side
        out: list[RawRead] = []
        tried = 0
        for cand in candidates:
            if tried >= self.max_candidates:
                break
            # Skip a region only when its centre lies inside a code already read: the region of an unread
            # code beside a read one (the felt between them merged into it) has its centre pulled towards
            # the neighbour, but not into it.
            if any(math.dist((x, y), (cand.x, cand.y)) < 0.5 * s for x, y, s in done):
                continue
            tried += 1
            found = lookagain.read_glare_candidate(gray, cand, self._read_crop, self.defocus,
                                                    self._read_crop_global if self.defocus else None, self.lean)
            if not found and self.regrid and cand.side < regrid.MAX_PPM * lookagain.MODULES:
                found = regrid.read_by_grid(gray, cand.x, cand.y, cand.side, self._read_crop_global)
            out.extend(found)
            done.extend((*_centre(c), math.sqrt(_area(c))) for _, c, *_ in found)
        return out

    def _read_crop(self, img: np.ndarray) -> tuple[list[RawRead], bool]:
        """Read a candidate: our symbols, and whether a symbol of the other QR kind is there instead."""
        found = self._zx.read_barcodes(img, formats=self._crop_formats, try_rotate=False, try_downscale=False,
                                       try_invert=False)
        ours = [b for b in found if b.format in self._formats]
        return self._convert(ours, 0.0, 0.0, 1.0), len(ours) < len(found)

    def _read_crop_global(self, img: np.ndarray) -> tuple[list[RawRead], bool]:
        """``_read_crop`` with one threshold for the whole crop: Otsu's, which splits a crop of one code (ink
        and paper, two heaps of grey levels) where they part; zxing-cpp takes the result as it is."""
        binary = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]
        found = self._zx.read_barcodes(binary, formats=self._crop_formats, try_rotate=False, try_downscale=False,
                                       try_invert=False, binarizer=self._zx.Binarizer.BoolCast)
        ours = [b for b in found if b.format in self._formats]
        return self._convert(ours, 0.0, 0.0, 1.0), len(ours) < len(found)

    def _retry(self, gray: np.ndarray, box: np.ndarray) -> list[RawRead]:
        h, w = gray.shape
        x0, y0 = (max(int(v) - 6, 0) for v in box.min(axis=0))
        x1, y1 = (min(int(v) + 6, lim) for v, lim in zip(box.max(axis=0), (w, h)))
        if x1 - x0 < 8 or y1 - y0 < 8:
            return []
        crop = cv2.resize(gray[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        found = self._convert(self._ours(self._zx.read_barcodes(crop, formats=self._formats, try_downscale=False)),
                              x0, y0, 0.5)
        if found or not self.second_look or self._card_looks >= lookagain.MAX_CARD_LOOKS:
            return found
        side = math.sqrt(cv2.contourArea(box.astype(np.float32)) / CARD_PER_CODE_AREA)  # a code's on this card
        found, smeared = lookagain.look_at_card(gray, (x0, y0, x1, y1), side, self._read_crop, self.lean)
        self._card_looks += smeared
        return found

    def read(self, frame: np.ndarray) -> FrameReading:
        self._card_looks = 0  # smeared cards deconvolved in this frame (``lookagain.MAX_CARD_LOOKS``)
        return super().read(frame)

    def _convert(self, found: list, x0: float, y0: float, k: float) -> list[RawRead]:
        out = []
        for b in found:
            p = b.position
            corners = [(q.x * k + x0, q.y * k + y0)
                       for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)]
            uec = b.extra.get("UEC") if isinstance(b.extra, dict) else None
            symbol = "micro" if b.format == self._micro else "qr"
            out.append((b.text, corners, None if uec is None else float(uec), symbol))
        return out


class PyzbarDecoder(_Base):
    """ZBar (pyzbar) on each card-shaped region, and on the whole frame.

    The whole frame too, not only when no card shape is found: a bidding card (57 x 66 mm, nearly square) is
    never card-shaped, so with a playing card in view its QR (``labels --bidding --variant qr``, printed for
    pyzbar tables) was never read. The same code read in a region and in the whole frame is one read.

    ZBar reads only the QR variant of the card code and does not say how much error correction a
    read used, so it never reports heavy error correction.
    """

    name = "pyzbar"

    def __init__(self, heavy_ec_below: float = 0.5, find_unreadable: bool = True,
                 whole_frame: bool = False, card_area_px: float = 0.0,
                 table_mm: tuple[float, float] | None = None) -> None:
        super().__init__(heavy_ec_below, find_unreadable, card_area_px, table_mm)
        from pyzbar import pyzbar

        self._zbar = pyzbar
        self.whole_frame = whole_frame

    def _regions(self, gray: np.ndarray, frame: np.ndarray) -> list[tuple[int, int, int, int]]:
        h, w = gray.shape
        if self.whole_frame:
            return [(0, 0, w, h)]
        # the regions to read keep the frame's 75th (``framed=False``): ``table_mm`` changes which card shapes
        # are listed as unreadable, never what is read
        boxes = card_shapes(frame, self._card_area(frame, [], framed=False)) if frame.ndim == 3 else []
        out = []
        for box in boxes:
            x0, y0 = np.floor(box.min(axis=0)).astype(int) - 4
            x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 4
            out.append((max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)))
        return out + [(0, 0, w, h)]  # bidding cards are never card-shaped: the whole frame reads them

    def _raw(self, gray: np.ndarray, frame: np.ndarray) -> list[RawRead]:
        out = []
        qr = [self._zbar.ZBarSymbol.QRCODE]
        for x0, y0, x1, y1 in self._regions(gray, frame):
            for d in self._zbar.decode(np.ascontiguousarray(gray[y0:y1, x0:x1]), symbols=qr):
                try:
                    text = d.data.decode("ascii")
                except UnicodeDecodeError:
                    text = d.data.decode("latin-1")
                pts = [(float(p.x + x0), float(p.y + y0)) for p in d.polygon]
                if len(pts) < 3:
                    continue
                out.append((text, _symbol_order(pts, getattr(d, "orientation", None)), None, "qr"))
        return out


_UP = {"UP": (0.0, -1.0), "RIGHT": (1.0, 0.0), "DOWN": (0.0, 1.0), "LEFT": (-1.0, 0.0)}


def _symbol_order(pts: list[Point], orientation: object) -> list[Point]:
    """ZBar's polygon in the symbol's own corner order (top-left, top-right, bottom-right, bottom-left), as
    zxing-cpp gives it and ``vision.scan.card_centre`` needs: ZBar gives the corners in the picture's order
    and the symbol's turn apart (``orientation``, to a quarter turn). Wound clockwise on the screen, then
    started at the corner that makes the symbol's up nearest that quarter."""
    name = orientation if isinstance(orientation, str) else getattr(orientation, "name", None)
    if len(pts) != 4 or name not in _UP:
        return pts
    area = sum(pts[i][0] * pts[(i + 1) % 4][1] - pts[(i + 1) % 4][0] * pts[i][1] for i in range(4))
    ring = pts if area > 0 else [pts[0], pts[3], pts[2], pts[1]]   # clockwise with y down
    ux, uy = _UP[name]

    def up_along(k: int) -> float:
        a, b, c, d = (ring[(k + i) % 4] for i in range(4))
        return (a[0] + b[0] - c[0] - d[0]) * ux + (a[1] + b[1] - c[1] - d[1]) * uy

    k = max(range(4), key=up_along)
    return [ring[(k + i) % 4] for i in range(4)]


def make_decoder(name: str = "zxing", heavy_ec_below: float = 0.5,
                 variants: tuple[str, ...] = ("micro",), remedies: tuple[str, ...] | None = None,
                 table_mm: tuple[float, float] | None = None) -> Decoder:
    """The decoder backend called ``name``: ``zxing`` (default) or ``pyzbar``.

    ``variants`` says which symbols zxing-cpp looks for (``micro``, ``qr``); pyzbar reads only ``qr``.
    ``remedies`` names the zxing decoder's costly second-look remedies to use (``vision.zones.REMEDIES``;
    None: ``DEFAULT_REMEDIES``); pyzbar has no second look, so it takes none. ``table_mm``, the table area
    the frames show (``[vision] table_mm``), sizes the card shapes listed as unreadable in a frame where
    no code read (None: a 75th of the frame).
    """
    if remedies is not None:
        parse_remedies(list(remedies), "remedies")  # a ConfigError, which is a ValueError, naming what is wrong
    if name == "zxing":
        chosen = DEFAULT_REMEDIES if remedies is None else remedies
        return ZxingDecoder(heavy_ec_below, variants=variants, glare="glare" in chosen, regrid="regrid" in chosen,
                            narrow="narrow" in chosen, faint_glare="faint_glare" in chosen, table_mm=table_mm)
    if name == "pyzbar":
        if remedies:
            raise ValueError("remedies: the pyzbar decoder has no second look, so it takes none")
        return PyzbarDecoder(heavy_ec_below, table_mm=table_mm)
    raise ValueError(f"unknown decoder {name!r} (want zxing or pyzbar)")
