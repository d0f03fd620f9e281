"""Synthetic table scenes: felt, lighting, cards at any angle, overlaps, hands, glare, blur, noise,
camera tilt and JPEG, rendered to real images that go through the real decoder.

A ``Scene`` is what lies on the table, in table millimetres (``vision.zones``): playing cards
(``place``) and bidding cards (``place_call``); ``render`` draws it as a camera of the given size would
see it. Tests, the benchmark and the demo all use it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from laws.bridge.calls import Call
from laws.cards import Card, Seat
from vision.cardart import ART_PX_PER_MM, MODULE_PX, ArtKey, Damage, card_art, symbol_origin
from vision.codes import CallCode, Variant, validate_pack
from vision.zones import CENTRE, DEFAULT_ZONES, SEAT_ZONES, Zone, Zones, default_homography

MARKER_DICT = cv2.aruco.DICT_4X4_50
MARKER_MM = 40.0
MARKER_INSET_MM = 40.0
SYMBOL_MODULES = {Variant.MICRO: 13, Variant.QR: 21}  # modules per side (CARD_CODES.md)  # marker centres, from each corner of the table area along x and y


@dataclass(frozen=True)
class Placement:
    """One card on the table: centre (x, y) in mm, angle in degrees."""

    pack: str
    card: Card | None
    x: float
    y: float
    angle: float = 0.0
    face_up: bool = True
    damage: Damage = Damage.NONE
    variant: Variant = Variant.MICRO
    zone: str | None = None
    call: CallCode | None = None  # a bidding card (``pack`` is "" and ``card`` None)


# Bidding cards (57 x 66 mm) lie upright in a grid of their seat's zone, this far apart (mm), their codes
# clear of each other: five across a 300 mm zone, three by three in a 200 x 230 mm one.
CALL_PITCH_MM = (60.0, 70.0)


@dataclass(frozen=True)
class Degrade:
    """How bad the picture is. ``tilt`` moves the image corners by up to that share of its size."""

    blur: float = 0.0
    noise: float = 0.0
    contrast: float = 1.0
    jpeg: int = 0  # quality 1-100; 0 means no JPEG round trip
    glare: float = 0.0  # 0-1 strength of a bright spot
    tilt: float = 0.0
    light: float = 0.0  # 0-1 strength of an uneven lighting gradient
    hands: int = 0


def random_degrade(rng: np.random.Generator, severity: float = 1.0) -> Degrade:
    """A random degraded picture, as the benchmark and tests use."""
    return Degrade(
        blur=float(rng.uniform(0.3, 1.0) * severity),
        noise=float(rng.uniform(2, 7) * severity),
        contrast=float(1 - rng.uniform(0.1, 0.45) * severity),
        jpeg=int(rng.integers(60, 90)),
        glare=float(rng.uniform(0, 0.5) * severity),
        tilt=float(rng.uniform(0, 0.04) * severity),
        light=float(rng.uniform(0, 0.4) * severity),
        hands=int(rng.integers(0, 2)),
    )


@dataclass
class Scene:
    """What lies on the table. The demo scripts it; ``SyntheticCamera`` renders it on each read."""

    zones: Zones = field(default_factory=lambda: Zones(DEFAULT_ZONES))
    table_mm: tuple[float, float] = (800.0, 450.0)
    markers: bool = False
    card_size: str = "bridge"
    placements: list[Placement] = field(default_factory=list)

    def place(self, card: Card | None, pack: str, zone: str | None = None, *, face_up: bool = True,
              at: tuple[float, float] | None = None, angle: float | None = None,
              toward: str | None = None, damage: Damage | str = Damage.NONE,
              variant: Variant | str = Variant.MICRO) -> Placement:
        """Put a card on the table and return where it went.

        Args:
            card: the card, or None for a card whose face shows only its back.
            pack: the pack id printed in its code.
            zone: a zone name; the card takes the next free slot there unless ``at`` is given.
            face_up: face or back towards the camera.
            at: centre in table mm (overrides the slot).
            angle: degrees; default a slight slant.
            toward: in the centre zone, the seat whose side of the trick the card lies on.
            damage: ``none``, ``worn`` (heavy error correction) or ``blotted`` (unreadable).
            variant: ``micro`` (Micro QR) or ``qr`` (QR, for pyzbar at 1080p).
        """
        validate_pack(pack)
        if at is None:
            at = self._slot(zone, toward)
        if angle is None:
            angle = 7.0 * ((len(self.placements) * 37) % 5 - 2)
        p = Placement(pack, card, float(at[0]), float(at[1]), float(angle), face_up, Damage(damage),
                      Variant(variant), zone)
        self.placements.append(p)
        return p

    def place_call(self, seat: Seat | str, call: Call, copy: str = "1", zone: str | None = None, *,
                   at: tuple[float, float] | None = None, angle: float = 0.0,
                   damage: Damage | str = Damage.NONE) -> Placement:
        """Lay a bidding card of ``seat``'s set on the table (its own seat's zone unless ``zone`` or ``at``
        says otherwise) and return where it went. Calls of a zone take the next free place of a grid
        (``CALL_PITCH_MM``), so that each code stays whole and readable, as players must lay them."""
        code = CallCode(Seat(seat), call, copy)
        where = zone if zone is not None else code.seat.value
        if at is None:
            at = self._call_slot(where)
        p = Placement("", None, float(at[0]), float(at[1]), float(angle), True, Damage(damage),
                      Variant.MICRO, where, code)
        self.placements.append(p)
        return p

    def remove_call(self, seat: Seat | str, call: Call, copy: str | None = None) -> int:
        """Take a bidding card (any copy unless ``copy``) off the table; returns how many were removed."""
        def gone(p: Placement) -> bool:
            c = p.call
            return c is not None and c.seat == Seat(seat) and c.call == call and copy in (None, c.copy)
        keep = [p for p in self.placements if not gone(p)]
        n = len(self.placements) - len(keep)
        self.placements[:] = keep
        return n

    def clear_calls(self) -> None:
        """The players put their bidding cards back in the boxes."""
        self.placements[:] = [p for p in self.placements if p.call is None]

    def _call_slot(self, zone: str) -> tuple[float, float]:
        z = self.zones.get(zone)
        taken = sum(1 for p in self.placements if p.zone == zone and p.call is not None)
        dx, dy = CALL_PITCH_MM
        cols = max(1, int((z.x1 - z.x0) // dx))
        rows = max(1, int((z.y1 - z.y0) // dy))
        row, col = divmod(taken, cols)
        row %= rows  # a zone full of calls: the next ones lie over the first (their codes then hide)
        cx, cy = z.centre
        return (cx + (col - (cols - 1) / 2) * dx, cy + (row - (rows - 1) / 2) * dy)

    def _slot(self, zone: str | None, toward: str | None) -> tuple[float, float]:
        if zone is None:
            return (self.table_mm[0] / 2, self.table_mm[1] / 2)
        z = self.zones.get(zone)
        cx, cy = z.centre
        if zone == CENTRE and toward in SEAT_ZONES:
            sx, sy = self.zones.get(str(toward)).centre
            return (cx + 0.45 * (sx - cx), cy + 0.45 * (sy - cy))
        taken = sum(1 for p in self.placements if p.zone == zone)
        return _slot_in(z, taken)

    def remove(self, card: Card | None, pack: str | None = None) -> int:
        """Take a card (of ``pack``, if given) off the table; returns how many were removed."""
        keep = [p for p in self.placements
                if p.call is not None or not (p.card == card and (pack is None or p.pack == pack))]
        n = len(self.placements) - len(keep)
        self.placements[:] = keep
        return n

    def clear(self) -> None:
        self.placements.clear()

    def turn(self, card: Card, face_up: bool) -> None:
        """Turn a card on the table face up or face down."""
        self.placements[:] = [replace(p, face_up=face_up) if p.card == card and p.call is None else p
                              for p in self.placements]


def _slot_in(z: Zone, i: int) -> tuple[float, float]:
    step = 66.0
    horizontal = (z.x1 - z.x0) >= (z.y1 - z.y0)
    span = (z.x1 - z.x0) if horizontal else (z.y1 - z.y0)
    per_row = max(1, int(span // step))
    row, col = divmod(i, per_row)
    off = (col - (per_row - 1) / 2) * step
    cx, cy = z.centre
    return (cx + off, cy + row * 20.0) if horizontal else (cx + row * 20.0, cy + off)


def table_to_frame(size: tuple[int, int], table_mm: tuple[float, float], tilt: float = 0.0,
                   rng: np.random.Generator | None = None) -> np.ndarray:
    """The camera's homography, table mm -> frame px, optionally tilted by moving the corners."""
    base = np.linalg.inv(default_homography(size, table_mm))
    if tilt <= 0 or rng is None:
        return base
    w, h = size
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    inward = np.float32([[1, 1], [-1, 1], [-1, -1], [1, -1]])  # the whole table stays in view
    dst = src + inward * rng.uniform(0, tilt, (4, 2)).astype(np.float32) * np.float32([w, h])
    return np.asarray(cv2.getPerspectiveTransform(src, dst) @ base, dtype=np.float64)


_FELT_CACHE: dict[tuple[int, int], np.ndarray] = {}


def _felt(size: tuple[int, int]) -> np.ndarray:
    if size not in _FELT_CACHE:
        w, h = size
        rng = np.random.default_rng(7)
        tex = rng.normal(0, 6, (h, w)).astype(np.float32)
        tex = cv2.GaussianBlur(tex, (0, 0), 1.2)
        base = np.empty((h, w, 3), np.float32)
        base[:] = (40, 105, 30)
        base += tex[:, :, None]
        _FELT_CACHE[size] = np.clip(base, 0, 255).astype(np.uint8)
    return _FELT_CACHE[size]


def _paste(frame: np.ndarray, art: np.ndarray, h_af: np.ndarray) -> None:
    ah, aw = art.shape[:2]
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [aw, 0], [aw, ah], [0, ah]]]), h_af)[0]
    fh, fw = frame.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, fw), min(y1, fh)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], dtype=np.float64)
    m = shift @ h_af
    roi = frame[y0:y1, x0:x1]
    warped = cv2.warpPerspective(art, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    pts = np.round((corners - [x0, y0]) * 16).astype(np.int32)
    cv2.fillConvexPoly(mask, pts, 255, cv2.LINE_AA, shift=4)
    # A soft shadow towards the bottom right, then the card.
    shadow = np.zeros_like(mask)
    shadow[3:, 3:] = mask[:-3, :-3]
    roi[:] = (roi * (1 - shadow[:, :, None] / 600.0)).astype(np.uint8)
    a = mask[:, :, None].astype(np.float32) / 255.0
    roi[:] = (warped * a + roi * (1 - a)).astype(np.uint8)


def _draw_markers(frame: np.ndarray, h_tf: np.ndarray, table_mm: tuple[float, float]) -> None:
    d = cv2.aruco.getPredefinedDictionary(MARKER_DICT)
    cells = 6  # 4x4 bits and the black border; one more cell of white around it
    px = 20
    half = MARKER_MM / 2 * (cells + 2) / cells  # half the side of the marker with its white margin
    for marker_id, (mx, my) in enumerate(marker_centres_mm(table_mm)):
        img = cv2.aruco.generateImageMarker(d, marker_id, cells * px)
        art = cv2.cvtColor(np.pad(img, px, constant_values=255), cv2.COLOR_GRAY2BGR)
        k = 2 * half / art.shape[0]
        h_at = np.array([[k, 0, mx - half], [0, k, my - half], [0, 0, 1]], dtype=np.float64)
        _paste(frame, art, h_tf @ h_at)


def marker_centres_mm(table_mm: tuple[float, float]) -> list[tuple[float, float]]:
    """Where the renderer puts the centres of ArUco markers 0-3 (clockwise from top-left)."""
    tw, th = table_mm
    c = MARKER_INSET_MM
    return [(c, c), (tw - c, c), (tw - c, th - c), (c, th - c)]


@lru_cache(maxsize=4)
def _noise_bank(size: tuple[int, int]) -> np.ndarray:
    """Unit Gaussian noise a little larger than the frame; each frame takes a random window of it."""
    w, h = size
    return np.random.default_rng(11).standard_normal((h + 64, w + 64, 3), dtype=np.float32)


@lru_cache(maxsize=512)
def _pyramid(key: ArtKey, level: int) -> np.ndarray:
    img = card_art(key)
    for _ in range(level):
        img = cv2.pyrDown(img)
    return img


def render(scene: Scene, size: tuple[int, int] = (1280, 720), degrade: Degrade = Degrade(),
           rng: np.random.Generator | None = None) -> np.ndarray:
    """Draw the scene as a BGR ``uint8`` frame of ``size`` (width, height)."""
    return render_with_cover(scene, size, degrade, rng)[0]


def render_with_cover(scene: Scene, size: tuple[int, int] = (1280, 720), degrade: Degrade = Degrade(),
                      rng: np.random.Generator | None = None) -> tuple[np.ndarray, frozenset[int]]:
    """``render``, and the ground truth of what the hands hide: the indices (in ``scene.placements``)
    of the cards whose code, with its quiet zone, a hand covers at least in part. The image is the
    same as ``render`` gives for the same arguments."""
    rng = rng if rng is not None else np.random.default_rng(0)
    w, h = size
    frame = _felt(size).copy()
    h_tf = table_to_frame(size, scene.table_mm, degrade.tilt, rng)
    if scene.markers:
        _draw_markers(frame, h_tf, scene.table_mm)
    code_quads: list[np.ndarray] = []
    for p in scene.placements:
        art_key = ArtKey(p.pack, p.card if p.face_up else None, p.variant,
                         p.damage if p.face_up else Damage.NONE, scene.card_size) if p.call is None else \
            ArtKey("", None, Variant.MICRO, p.damage, "bidding", p.call)
        art = card_art(art_key)
        ah, aw = art.shape[:2]
        a = math.radians(p.angle)
        k = 1.0 / ART_PX_PER_MM
        c, s = math.cos(a) * k, math.sin(a) * k
        # art px -> table mm: centre the art, scale to mm, rotate, move to (x, y)
        h_at = np.array([[c, -s, p.x - c * aw / 2 + s * ah / 2],
                         [s, c, p.y - s * aw / 2 - c * ah / 2],
                         [0, 0, 1]], dtype=np.float64)
        h_af = h_tf @ h_at
        level = 0
        while level < 3 and math.sqrt(abs(np.linalg.det(h_af[:2, :2]))) < 0.6:
            level += 1
            h_af = h_af @ np.diag([2.0, 2.0, 1.0])
        _paste(frame, _pyramid(art_key, level), h_af)
        if degrade.hands:  # where the code lies, to tell what a hand covers
            to_frame = h_af @ np.diag([0.5**level] * 2 + [1.0])
            code_quads.append(cv2.perspectiveTransform(_code_quad(art_key)[None], to_frame)[0])
    hand_mask = np.zeros((h, w), np.uint8) if degrade.hands else None
    for _ in range(degrade.hands):
        cx, cy = int(rng.uniform(0, w)), int(rng.choice([rng.uniform(0, h * 0.15), rng.uniform(h * 0.85, h)]))
        axes = (int(w * 0.06), int(h * 0.12))
        angle = float(rng.uniform(0, 180))
        cv2.ellipse(frame, (cx, cy), axes, angle, 0, 360, (120, 150, 205), -1, cv2.LINE_AA)
        cv2.ellipse(hand_mask, (cx, cy), axes, angle, 0, 360, 255, -1, cv2.LINE_AA)
    covered = frozenset() if hand_mask is None else _covered(hand_mask, code_quads)
    out = frame.astype(np.float32)
    gain = np.full((h, w), degrade.contrast, np.float32)
    offset = np.full((h, w), 128 * (1 - degrade.contrast), np.float32)
    if degrade.light > 0:
        ramp = np.linspace(1 - degrade.light / 2, 1 + degrade.light / 4, w, dtype=np.float32)
        gain *= ramp[None, :]
    if degrade.glare > 0:  # a soft bright spot, computed small and scaled up
        gx, gy = rng.uniform(0, w) / 8, rng.uniform(0, h) / 8
        yy, xx = np.ogrid[: (h + 7) // 8, : (w + 7) // 8]
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (w * 0.12 / 8) ** 2).astype(np.float32)
        offset += cv2.resize(spot, (w, h)) * (255 * degrade.glare * 0.6 * degrade.contrast)
    out = out * gain[:, :, None] + offset[:, :, None]
    if degrade.blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), degrade.blur)
    if degrade.noise > 0:
        bank = _noise_bank(size)
        dy, dx = int(rng.integers(0, 64)), int(rng.integers(0, 64))
        out += bank[dy:dy + h, dx:dx + w] * np.float32(degrade.noise)
    img = np.clip(out, 0, 255).astype(np.uint8)
    if degrade.jpeg:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, degrade.jpeg])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img, covered


def _code_quad(key: ArtKey) -> np.ndarray:
    """The corners of a card's code with a quiet zone of two modules, in art pixels."""
    quiet = 2 * MODULE_PX[key.variant]
    side = (SYMBOL_MODULES[key.variant] + 4) * MODULE_PX[key.variant]
    sx, sy = symbol_origin(key)
    x0, y0 = sx - quiet, sy - quiet
    return np.float32([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]])


def _covered(hand_mask: np.ndarray, quads: list[np.ndarray]) -> frozenset[int]:
    hidden = set()
    for i, quad in enumerate(quads):
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        roi = hand_mask[y0:y1, x0:x1]
        if roi.size == 0 or not roi.any():
            continue
        code = np.zeros_like(roi)
        cv2.fillConvexPoly(code, np.round(quad - [x0, y0]).astype(np.int32), 255)
        if (code & roi).any():
            hidden.add(i)
    return frozenset(hidden)
