"""An outsider's table: pictures made from ``vision/CARD_CODES.md`` alone, for grading the decoder.

The house has two generators already (``vision.render``, which the decoder was tuned on, and
``vision.photo``, the degradation benchmark's). This third one was written from the document's words
only (payloads, the check character's arithmetic, the label geometry of playing-card stickers and
bidding cards, "At the table") so that the decoder is graded on pictures nobody tuned it to. It shares
no drawing code with either: its own check character (``check``, from the worked example), the symbol
from segno (not the labels' zxing-cpp writer), every module drawn as a polygon projected straight into
the picture (no card image warped), text set with OpenCV's Hershey fonts.

The camera (``Camera``): a pinhole above the table, tilted by up to 10 degrees each way, framing the
table so that a module spans 2.4 to 4.3 px at 1280x720 at the picture's centre; one scene is drawn once,
three times over-sampled, and taken down to 1280x720 and to 1920x1080 (the same camera at two
resolutions, so 1080p has 1.5 times the pixels a module). Then, in linear light: the light's level,
vignetting and a gradient, players' hands (palm, fingers, thumb, forearm) with their shadows, a specular
glare patch, defocus, shot and read noise, a Bayer mosaic demosaiced, gamma, and a JPEG round trip.

Scenes (``deal_scene``, ``auction_scene``): playing cards as they lie in play (a trick in the middle,
dummy's columns, cards here and there, some backs), and bidding cards as players lay them in front of
them (``stack``: each call over the last, shifted 10 to 50 mm; ``fan``; ``row``: side by side; ``column``),
with playing cards elsewhere. Each item's truth says whether its code, with its quiet zone, is fully in
view (inside the picture, under no later card and no hand).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MODULE_MM = 35 / 300 * 25.4  # 2.963 mm: 35 dots at 300 dpi
SYMBOL = 13  # Micro QR M2
BLOCK_MM = (SYMBOL + 4) * MODULE_MM  # the symbol with its quiet zone of two modules: 50.4 mm
PLAYING = (57.0, 89.0)  # a bridge card
STICKER = (51.0, 66.0)
BIDDING = (57.0, 66.0)  # a bidding card: the 51 x 60 mm label on stock cut 3 mm outside it
LABEL = (51.0, 60.0)
SUPER = (3840, 2160)  # the drawing's size: 3 x 1280x720, 2 x 1920x1080
SEATS = "NESW"
CALLS = ["1C", "1D", "1H", "1S", "1N", "2C", "2H", "2N", "3D", "3N", "4H", "4S", "5C", "6D", "7N", "PA", "DB", "RD"]
RANKS, SUITS = "AKQJT98765432", "SHDC"


def check(body: str) -> str:
    """ISO 7064 MOD 37,36 as CARD_CODES.md's worked example does it."""
    p = 36
    for ch in body:
        s = (p + ALPHABET.index(ch)) % 36 or 36
        p = 2 * s % 37
    return ALPHABET[(37 - p) % 36]


def symbol(text: str) -> np.ndarray:
    """The Micro QR M2-L modules of ``text`` (1 dark), from segno."""
    import segno

    return np.array(segno.make_micro(text, version="M2", error="L").matrix, np.uint8)


@dataclass(frozen=True)
class Item:
    """One card on the table: centre and turn (table mm, degrees; 0 = upright, its top towards North)."""

    kind: str  # "card" (a face), "back" (the pack mark) or "call" (a bidding card)
    text: str  # the payload
    x: float
    y: float
    angle: float
    big: str = ""  # the large print: rank and suit, or the call
    red: bool = False

    @property
    def size(self) -> tuple[float, float]:
        return BIDDING if self.kind == "call" else PLAYING

    @property
    def label(self) -> tuple[float, float]:
        return LABEL if self.kind == "call" else STICKER

    def block(self) -> tuple[float, float, float]:
        """The code block's top-left corner and side, in the item's mm (origin at its centre, y down)."""
        lw, lh = self.label
        bottom = lh / 2 - 1.0  # its lower edge 1 mm above the label's
        return -BLOCK_MM / 2, bottom - BLOCK_MM, BLOCK_MM

    def to_table(self) -> np.ndarray:
        """3x3: the item's mm -> table mm."""
        a = math.radians(self.angle)
        c, s = math.cos(a), math.sin(a)
        return np.array([[c, -s, self.x], [s, c, self.y], [0, 0, 1]])


@dataclass(frozen=True)
class Hand:
    """A player's hand over the table: the palm's centre (table mm), pointing ``angle`` degrees."""

    x: float
    y: float
    angle: float
    scale: float = 1.0
    tone: tuple[int, int, int] = (150, 170, 215)  # BGR


@dataclass(frozen=True)
class Camera:
    ppm: float  # pixels a module at 1280x720, at the picture's centre
    pitch: float = 0.0
    roll: float = 0.0
    yaw: float = 0.0
    light: float = 1.0
    vignette: float = 0.0
    gradient: float = 0.0
    glare: float = 0.0  # peak, as a share of white
    glare_at: tuple[float, float] = (0.5, 0.5)  # share of the frame
    glare_mm: float = 60.0
    blur: float = 0.5  # defocus, px at 1280x720
    shot: float = 0.004
    read: float = 0.004
    sharpen: float = 0.0
    jpeg: int = 85
    felt: tuple[int, int, int] = (50, 105, 40)  # BGR


@dataclass
class Scene:
    items: list[Item] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)
    centre: tuple[float, float] = (750.0, 420.0)  # the table point in the picture's centre


def random_camera(rng: np.random.Generator, ppm: tuple[float, float] = (2.4, 4.3)) -> Camera:
    felts = ((50, 105, 40), (110, 60, 30), (40, 40, 120), (45, 60, 75), (80, 85, 85), (30, 30, 30))
    return Camera(
        ppm=float(rng.uniform(*ppm)), pitch=float(rng.uniform(-10, 10)), roll=float(rng.uniform(-8, 8)),
        yaw=float(rng.uniform(-4, 4)), light=float(rng.uniform(0.45, 1.0)), vignette=float(rng.uniform(0, 0.35)),
        gradient=float(rng.uniform(-0.3, 0.3)), glare=float(rng.uniform(0.2, 1.3)) if rng.random() < 0.6 else 0.0,
        glare_at=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))), glare_mm=float(rng.uniform(25, 110)),
        blur=float(rng.uniform(0.3, 1.1)), shot=float(rng.uniform(0.001, 0.008)), read=float(rng.uniform(0.002, 0.008)),
        sharpen=float(rng.uniform(0, 0.8)) if rng.random() < 0.5 else 0.0, jpeg=int(rng.integers(55, 93)),
        felt=felts[int(rng.integers(len(felts)))])


def homography(cam: Camera, centre: tuple[float, float], size: tuple[int, int] = SUPER) -> np.ndarray:
    """3x3: table mm -> pixels of a picture of ``size``, for a pinhole 1.1 m above ``centre`` tilted."""
    w, h = size
    px_mm = cam.ppm / MODULE_MM * h / 720
    height = 1100.0
    f = px_mm * height
    p, r, y = (math.radians(v) for v in (cam.pitch, cam.roll, cam.yaw))
    rx = np.array([[1, 0, 0], [0, math.cos(p), -math.sin(p)], [0, math.sin(p), math.cos(p)]])
    ry = np.array([[math.cos(r), 0, math.sin(r)], [0, 1, 0], [-math.sin(r), 0, math.cos(r)]])
    rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    rot = rx @ ry @ rz  # world -> camera; the camera's axis in the world is rot's last row
    axis = rot[2]
    pos = np.array([centre[0], centre[1], 0.0]) - height / axis[2] * axis  # on the axis, 1.1 m above
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    return k @ np.column_stack([rot[:, 0], rot[:, 1], -rot @ pos])


def project(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), m).reshape(-1, 2)


def rect(x0: float, y0: float, w: float, h: float) -> np.ndarray:
    return np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float64)


def _fill(img: np.ndarray, poly: np.ndarray, colour: tuple[int, ...]) -> None:
    cv2.fillConvexPoly(img, np.round(poly * 4).astype(np.int32), colour, cv2.LINE_AA, shift=2)


def _text(img: np.ndarray, m: np.ndarray, text: str, x0: float, y0: float, height_mm: float,
          colour: tuple[int, int, int], bold: int = 2) -> None:
    """Set ``text`` with its top-left at (``x0``, ``y0``) item mm, ``height_mm`` tall, through ``m``."""
    k = 12.0  # texture px a mm
    font = cv2.FONT_HERSHEY_DUPLEX if bold > 1 else cv2.FONT_HERSHEY_SIMPLEX
    scale = height_mm * k / 22.0
    (tw, th), base = cv2.getTextSize(text, font, scale, max(1, int(bold * scale)))
    tex = np.full((th + base + 4, tw + 4), 0, np.uint8)
    cv2.putText(tex, text, (2, th + 2), font, scale, 255, max(1, int(bold * scale)), cv2.LINE_AA)
    to_item = np.array([[1 / k, 0, x0], [0, 1 / k, y0], [0, 0, 1]])
    full = m @ to_item
    corners = project(full, rect(0, 0, tex.shape[1], tex.shape[0]))
    xa, ya = np.floor(corners.min(axis=0)).astype(int) - 1
    xb, yb = np.ceil(corners.max(axis=0)).astype(int) + 1
    xa, ya, xb, yb = max(xa, 0), max(ya, 0), min(xb, img.shape[1]), min(yb, img.shape[0])
    if xb <= xa or yb <= ya:
        return
    shift = np.array([[1, 0, -xa], [0, 1, -ya], [0, 0, 1]], np.float64)
    alpha = cv2.warpPerspective(tex, shift @ full, (xb - xa, yb - ya), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    roi = img[ya:yb, xa:xb].astype(np.float32)
    roi = roi * (1 - alpha[:, :, None]) + np.float32(colour) * alpha[:, :, None]
    img[ya:yb, xa:xb] = roi.astype(np.uint8)


def _shadow(img: np.ndarray, poly: np.ndarray, depth: float, soft: int) -> None:
    """Darken the picture under ``poly`` (frame px) by ``depth``, softened over ``soft`` px."""
    xa, ya = np.maximum(np.floor(poly.min(axis=0)).astype(int) - 2 * soft, 0)
    xb, yb = np.ceil(poly.max(axis=0)).astype(int) + 2 * soft
    xb, yb = min(xb, img.shape[1]), min(yb, img.shape[0])
    if xb <= xa or yb <= ya:
        return
    mask = np.zeros((yb - ya, xb - xa), np.float32)
    cv2.fillPoly(mask, [np.round(poly - [xa, ya]).astype(np.int32)], 1.0)
    if soft:
        mask = cv2.blur(mask, (2 * soft + 1, 2 * soft + 1))
    img[ya:yb, xa:xb] = (img[ya:yb, xa:xb] * (1 - depth * mask[:, :, None])).astype(np.uint8)


def draw_item(img: np.ndarray, it: Item, h: np.ndarray, rng: np.random.Generator) -> None:
    m = h @ it.to_table()
    cw, ch = it.size
    outline = project(m, rect(-cw / 2, -ch / 2, cw, ch))
    _shadow(img, outline + [3, 4], 0.35, 3)
    stock = int(rng.integers(228, 247))
    _fill(img, outline, (stock - 4, stock, stock))
    lw, lh = it.label
    lx, ly = -lw / 2, -lh / 2
    if it.kind == "card":  # the card's own print outside the sticker: its corner indices
        ink = (40, 30, 190) if it.red else (30, 30, 30)
        _text(img, m, it.big[0], -cw / 2 + 0.8, -ch / 2 + 2.5, 7, ink)
        _text(img, m, it.big[0], cw / 2 - 6.0, ch / 2 - 10.5, 7, ink)
    if it.kind == "back":  # a patterned back around the sticker
        tint = (150, 60, 40) if rng.random() < 0.5 else (40, 40, 150)
        _fill(img, project(m, rect(-cw / 2 + 2, -ch / 2 + 2, cw - 4, ch - 4)), tint)
    _fill(img, project(m, rect(lx, ly, lw, lh)), (252, 252, 250))
    cv2.polylines(img, [np.round(project(m, rect(lx, ly, lw, lh)) * 4).astype(np.int32)], True, (200, 200, 200), 2,
                  cv2.LINE_AA, shift=2)
    if it.kind == "call":
        _text(img, m, it.big, lx + 3, ly + 0.5, 7, (30, 30, 200) if it.red else (25, 25, 25))
        _text(img, m, {"N": "North", "E": "East", "S": "South", "W": "West"}[it.text[1]], lx + 25, ly + 1, 2.6,
              (60, 60, 60), 1)
        _text(img, m, "bidding card", lx + 25, ly + 4.6, 2.6, (60, 60, 60), 1)
    elif it.kind == "card":
        _text(img, m, it.big, lx + 3, ly + 1, 9, (30, 30, 190) if it.red else (25, 25, 25))
        _text(img, m, "pack " + it.text[1:3], lx + 25, ly + 7, 2.6, (60, 60, 60), 1)
    else:
        _text(img, m, "back of pack " + it.text[1:3], lx + 3, ly + 2, 2.6, (60, 60, 60), 1)
    bx, by, _ = it.block()
    mods = symbol(it.text)
    spread = float(rng.uniform(-0.04, 0.1))  # ink spread of the printer, in modules
    ink = int(rng.integers(15, 45))
    for r, c in zip(*np.nonzero(mods)):
        x0 = bx + (c + 2 - spread) * MODULE_MM
        y0 = by + (r + 2 - spread) * MODULE_MM
        side = (1 + 2 * spread) * MODULE_MM
        _fill(img, project(m, rect(x0, y0, side, side)), (ink, ink, ink))


def hand_polys(hand: Hand) -> list[np.ndarray]:
    """The outline of a hand and forearm as convex polygons in table mm."""
    a = math.radians(hand.angle)
    ux, uy = math.cos(a), math.sin(a)  # along the fingers
    vx, vy = -uy, ux
    s = hand.scale

    def piece(along: float, across: float, length: float, width: float) -> np.ndarray:
        cx, cy = hand.x + (along * ux + across * vx) * s, hand.y + (along * uy + across * vy) * s
        hl, hw = length * s / 2, width * s / 2
        return np.array([[cx + dx * ux * hl + dy * vx * hw, cy + dx * uy * hl + dy * vy * hw]
                         for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])

    palm = cv2.ellipse2Poly((0, 0), (int(50 * s), int(42 * s)), 0, 0, 360, 10).astype(np.float64)
    palm = np.column_stack([hand.x + palm[:, 0] * ux + palm[:, 1] * vx, hand.y + palm[:, 0] * uy + palm[:, 1] * vy])
    fingers = [piece(80, off, 62 - abs(off) * 0.6, 17) for off in (-27, -9, 9, 27)]
    return [palm, *fingers, piece(20, 52, 60, 22), piece(-130, 0, 190, 72)]


def draw_hand(img: np.ndarray, hand: Hand, h: np.ndarray) -> None:
    polys = [project(h, p) for p in hand_polys(hand)]
    for p in polys:
        _shadow(img, p + [30, 40], 0.45, 25)
    for p in polys:
        _fill(img, p, hand.tone)
    for p in polys[1:5]:  # knuckle creases: a little darker along each finger's middle
        c = p.mean(axis=0)
        cv2.circle(img, (int(c[0]), int(c[1])), 3, tuple(int(v * 0.85) for v in hand.tone), -1)


def _felt(size: tuple[int, int], colour: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    low = cv2.resize(rng.normal(0, 1, (h // 64 + 1, w // 64 + 1)).astype(np.float32), (w, h))
    grain = cv2.resize(rng.normal(0, 1, (h // 4, w // 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_NEAREST)
    shade = 1 + 0.06 * low + 0.05 * grain
    return np.clip(np.float32(colour)[None, None, :] * shade[:, :, None], 0, 255).astype(np.uint8)


def draw(scene: Scene, cam: Camera, rng: np.random.Generator) -> np.ndarray:
    """The scene drawn sharp at ``SUPER``, before the camera's faults."""
    h = homography(cam, scene.centre)
    img = _felt(SUPER, cam.felt, rng)
    for it in scene.items:
        draw_item(img, it, h, rng)
    for hand in scene.hands:
        draw_hand(img, hand, h)
    return img


def expose(sharp: np.ndarray, cam: Camera, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """What the camera makes of the drawing at ``size``: light, glare, defocus, noise, mosaic, JPEG."""
    w, hgt = size
    img = cv2.resize(sharp, size, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    lin = img ** 2.2
    yy, xx = np.mgrid[0:hgt, 0:w].astype(np.float32)
    nx, ny = (xx - w / 2) / (w / 2), (yy - hgt / 2) / (hgt / 2)
    light = cam.light * (1 - cam.vignette * (nx ** 2 + ny ** 2) / 2) * (1 + cam.gradient * nx)
    lin = lin * light[:, :, None]
    if cam.glare:
        px_mm = cam.ppm / MODULE_MM * hgt / 720
        r = cam.glare_mm * px_mm
        gx, gy = cam.glare_at[0] * w, cam.glare_at[1] * hgt
        lin = lin + (cam.glare * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)))[:, :, None]
    sigma = cam.blur * hgt / 720
    lin = cv2.GaussianBlur(lin, (0, 0), sigma)
    lin = np.clip(lin, 0, 1)
    noisy = lin + rng.normal(0, 1, lin.shape).astype(np.float32) * np.sqrt(cam.shot * lin + cam.read ** 2)
    out = np.clip(np.clip(noisy, 0, 1) ** (1 / 2.2) * 255, 0, 255).astype(np.uint8)
    bayer = np.empty((hgt, w), np.uint8)  # BGGR: the sensor sees one colour a pixel
    bayer[0::2, 0::2] = out[0::2, 0::2, 0]
    bayer[0::2, 1::2] = out[0::2, 1::2, 1]
    bayer[1::2, 0::2] = out[1::2, 0::2, 1]
    bayer[1::2, 1::2] = out[1::2, 1::2, 2]
    out = cv2.cvtColor(bayer, cv2.COLOR_BayerRG2BGR)
    if cam.sharpen:
        out = cv2.addWeighted(out, 1 + cam.sharpen, cv2.GaussianBlur(out, (0, 0), 1.0), -cam.sharpen, 0)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, cam.jpeg])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)
