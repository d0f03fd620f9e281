"""A second scene generator, written from ``vision/CARD_CODES.md`` alone, for the degradation benchmark.

``vision.render`` is the generator the decoder was tuned on; grading the decoder with it alone would be
the renderer grading itself. This module shares none of its code or drawing: the symbol comes from a
different encoder (``segno`` instead of zxing-cpp's writer), card faces, backs and stickers are drawn
with Pillow after the document's label geometry, the camera is a pinhole looking down at a tilt, each
card is sampled through the camera's own homography (3 x 3 supersampling, not a warp of an image), and
the picture goes through a sensor model in linear light: illumination with vignetting and uneven light,
a specular glare patch, a defocus disc, motion of single cards along their direction of travel for the
camera's exposure time, players' hands (palm, fingers, thumb and forearm in a skin tone) over the
cards, shot and read noise at the sensor's gain, gamma, JPEG.

``photo_frame(spec)`` returns the frame and the ground truth of every code in it (which card, face or
back, pixels per module at the code, how far it moved during the exposure, whether a hand covers it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from laws.cards import Card, full_pack
from vision.codes import ALPHABET, check_char

# Geometry from CARD_CODES.md (bridge card, sticker centred on it, code in the sticker's lower part).
CARD_MM = (57.0, 89.0)
STICKER_MM = (51.0, 66.0)
MODULE_MM = 3.0
MODULES = 13  # Micro QR M2
QUIET = 2
CODE_BOTTOM_MM = 1.0  # from the sticker's lower edge to the quiet zone's lower edge
TEX_PX_PER_MM = 8
SUPER = 3  # samples per frame pixel along each axis
FELTS = ((34, 92, 40), (30, 52, 110), (110, 30, 36), (70, 55, 40), (90, 90, 86), (20, 20, 24))  # RGB
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def code_centre_mm() -> tuple[float, float]:
    """Centre of the symbol relative to the card's centre, in card mm (x right, y down the face)."""
    side = (MODULES + 2 * QUIET) * MODULE_MM
    y = STICKER_MM[1] / 2 - CODE_BOTTOM_MM - side / 2
    return (0.0, y)


def payload(pack: str, card: Card | None) -> str:
    body = "1" + pack + ("ZZ" if card is None else card.code)
    return body + check_char(body)


def _matrix(text: str, micro: bool = True) -> np.ndarray:
    """1 for dark modules, from segno."""
    import segno

    sym = segno.make_micro(text, version="M2", error="L") if micro else segno.make_qr(text, error="M")
    return np.array([[1 if v else 0 for v in row] for row in sym.matrix], np.uint8)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:
        return ImageFont.load_default(size)


def _mm(v: float) -> int:
    return round(v * TEX_PX_PER_MM)


def _draw_code(draw: ImageDraw.ImageDraw, m: np.ndarray, x0: float, y0: float, module_mm: float) -> None:
    for i, j in zip(*np.nonzero(m)):
        draw.rectangle((_mm(x0 + j * module_mm), _mm(y0 + i * module_mm),
                        _mm(x0 + (j + 1) * module_mm) - 1, _mm(y0 + (i + 1) * module_mm) - 1), fill=(12, 12, 14))


@lru_cache(maxsize=160)
def card_texture(pack: str, card: Card | None, tint: int = 0) -> np.ndarray:
    """The card (face or back) as a float32 RGB image in linear light, ``TEX_PX_PER_MM`` px/mm."""
    w, h = _mm(CARD_MM[0]), _mm(CARD_MM[1])
    paper = (250 - tint, 247 - tint, 238 - 2 * tint)
    img = Image.new("RGB", (w, h), paper)
    d = ImageDraw.Draw(img)
    if card is None:  # a back: red lattice with a white border
        d.rectangle((_mm(3), _mm(3), w - _mm(3), h - _mm(3)), fill=(150, 28, 40))
        for k in range(-h, w + h, _mm(4)):
            d.line((k, 0, k + h, h), fill=(190, 60, 70), width=_mm(0.8))
            d.line((k, h, k + h, 0), fill=(190, 60, 70), width=_mm(0.8))
        d.rectangle((0, 0, w, _mm(3)), fill=paper)
        d.rectangle((0, h - _mm(3), w, h), fill=paper)
        d.rectangle((0, 0, _mm(3), h), fill=paper)
        d.rectangle((w - _mm(3), 0, w, h), fill=paper)
    else:  # a face: corner indices and a few pips around the sticker
        red = card.suit in "HD"
        ink = (200, 20, 30) if red else (15, 15, 20)
        sym = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[card.suit]
        f = _font(_mm(6))
        rank = card.rank.replace("T", "10")
        d.text((_mm(1.5), _mm(1)), rank, fill=ink, font=f)
        d.text((_mm(1.5), _mm(7.5)), sym, fill=ink, font=f)
        corner = Image.new("RGB", (_mm(10), _mm(14)), paper)
        cd = ImageDraw.Draw(corner)
        cd.text((_mm(0.5), _mm(0)), rank, fill=ink, font=f)
        cd.text((_mm(0.5), _mm(6.5)), sym, fill=ink, font=f)
        img.paste(corner.rotate(180), (w - _mm(11.5), h - _mm(15)))
    sx0 = (CARD_MM[0] - STICKER_MM[0]) / 2
    sy0 = (CARD_MM[1] - STICKER_MM[1]) / 2
    d.rectangle((_mm(sx0), _mm(sy0), _mm(sx0 + STICKER_MM[0]), _mm(sy0 + STICKER_MM[1])),
                fill=(253, 253, 251), outline=(215, 215, 215))
    side = (MODULES + 2 * QUIET) * MODULE_MM
    qx0 = sx0 + (STICKER_MM[0] - side) / 2
    qy0 = sy0 + STICKER_MM[1] - CODE_BOTTOM_MM - side
    _draw_code(d, _matrix(payload(pack, card)), qx0 + QUIET * MODULE_MM, qy0 + QUIET * MODULE_MM, MODULE_MM)
    label = "back of pack " + pack if card is None else f"{card.rank.replace('T', '10')} {card.suit}  pack {pack}"
    d.text((_mm(sx0 + 3), _mm(sy0 + 3)), label, fill=(20, 20, 20) if card is None or card.suit in "SC"
           else (190, 20, 20), font=_font(_mm(4 if card is None else 8)))
    lin = (np.asarray(img, np.float32) / 255.0) ** 2.2
    lin.setflags(write=False)
    return lin


@lru_cache(maxsize=8)
def foreign_texture(text: str, micro: bool) -> np.ndarray:
    """A foreign code on a white slip (a score card, a product label), linear light."""
    m = _matrix(text, micro)
    module = 2.5
    side = (m.shape[0] + 4) * module
    img = Image.new("RGB", (_mm(side), _mm(side)), (248, 248, 248))
    _draw_code(ImageDraw.Draw(img), m, 2 * module, 2 * module, module)
    return (np.asarray(img, np.float32) / 255.0) ** 2.2


@dataclass(frozen=True)
class Item:
    """One thing lying on the table: a card (face or back) or a foreign code slip."""

    text: str
    x: float  # table mm of its centre
    y: float
    angle: float  # degrees
    card: Card | None = None
    pack: str = "B7"
    foreign: bool = False
    micro: bool = True
    speed: float = 0.0  # mm/s during the exposure
    heading: float = 0.0  # degrees
    tint: int = 0


@dataclass(frozen=True)
class Hand:
    """A player's hand reaching over the table: where its palm's centre is (table mm), which way the
    fingers point (degrees), and its skin tone (0 pale - 1 dark)."""

    x: float
    y: float
    heading: float
    tone: float = 0.3


@dataclass(frozen=True)
class Shot:
    """How one frame is taken. Lengths in mm, times in seconds."""

    size: tuple[int, int] = (1280, 720)
    field_mm: float = 1000.0  # table width seen across the frame centre
    tilt_deg: float = 0.0  # camera pitch away from straight down
    yaw_deg: float = 0.0
    felt: int = 0
    exposure_s: float = 0.004
    gain: float = 2.0  # sensor gain: more gain, fewer electrons, more shot noise
    light: float = 0.8  # scene brightness at the centre (1.0 fills the sensor on white paper)
    vignette: float = 0.25  # share of light lost in the frame corners
    gradient: float = 0.0  # uneven light: share lost from one side to the other
    gradient_deg: float = 0.0
    shadow: float = 0.0  # a soft dark blob (a head, a lamp arm)
    glare: float = 0.0  # specular patch, added light relative to white paper
    glare_at: tuple[float, float] = (0.5, 0.5)  # frame share
    glare_size: float = 0.08  # radius, share of the frame width
    defocus_px: float = 0.0  # radius of the defocus disc
    read_noise_e: float = 3.0
    full_well_e: float = 6000.0
    jpeg: int = 0
    items: tuple[Item, ...] = field(default_factory=tuple)
    hands: tuple[Hand, ...] = ()  # over the cards, nearer the camera than the table by ``Hand.lift_mm``


@dataclass(frozen=True)
class Truth:
    """A code in the frame, as the generator placed it."""

    text: str
    card: Card | None
    foreign: bool
    px_per_module: float
    smear_modules: float  # motion during the exposure, in modules
    x: float  # frame px of the code's centre
    y: float
    inside: bool  # the whole symbol and its quiet zone lie inside the frame
    covered: bool = False  # a hand hides some of the symbol or its quiet zone
    quad: tuple[tuple[float, float], ...] = ()  # frame px corners of the symbol with its quiet zone


def camera_homography(shot: Shot) -> np.ndarray:
    """Table mm -> frame px for a pinhole camera above the table centre, pitched by ``tilt_deg``."""
    w, h = shot.size
    f = w / shot.field_mm  # px per mm at the centre, for a unit distance; the scene is scaled to it
    dist = 1000.0
    focal = f * dist
    k = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]])
    t, yw = math.radians(shot.tilt_deg), math.radians(shot.yaw_deg)
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    rz = np.array([[math.cos(yw), -math.sin(yw), 0], [math.sin(yw), math.cos(yw), 0], [0, 0, 1]])
    r = rx @ rz
    # table point (X, Y, 0) relative to the point under the optical axis; camera at distance ``dist``
    tvec = np.array([0.0, 0.0, dist])
    m = k @ np.column_stack([r[:, 0], r[:, 1], tvec])
    return m / m[2, 2]


def _item_homography(it: Item, tex_shape: tuple[int, int], dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
    """Texture px -> table mm (centred on the item, rotated, moved to its place, relative to the view)."""
    th, tw = tex_shape
    a = math.radians(it.angle)
    c, s = math.cos(a) / TEX_PX_PER_MM, math.sin(a) / TEX_PX_PER_MM
    return np.array([[c, -s, it.x + dx - c * tw / 2 + s * th / 2],
                     [s, c, it.y + dy - s * tw / 2 - c * th / 2], [0, 0, 1]])


def _sample(tex: np.ndarray, tex_to_frame: np.ndarray, size: tuple[int, int],
            pad: int) -> tuple[tuple[int, int, int, int], np.ndarray, np.ndarray] | None:
    """Supersample a texture onto the frame; returns (bbox, colour, coverage) within the bbox."""
    th, tw = tex.shape[:2]
    corners = cv2.perspectiveTransform(np.float64([[[0, 0], [tw, 0], [tw, th], [0, th]]]), tex_to_frame)[0]
    w, h = size
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    inv = np.linalg.inv(tex_to_frame)
    xs = x0 + (np.arange((x1 - x0) * SUPER) + 0.5) / SUPER - 0.5
    ys = y0 + (np.arange((y1 - y0) * SUPER) + 0.5) / SUPER - 0.5
    gx, gy = np.meshgrid(xs, ys)
    den = inv[2, 0] * gx + inv[2, 1] * gy + inv[2, 2]
    mx = ((inv[0, 0] * gx + inv[0, 1] * gy + inv[0, 2]) / den).astype(np.float32)
    my = ((inv[1, 0] * gx + inv[1, 1] * gy + inv[1, 2]) / den).astype(np.float32)
    col = cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    inside = ((mx >= 0) & (mx <= tw - 1) & (my >= 0) & (my <= th - 1)).astype(np.float32)
    out_size = (x1 - x0, y1 - y0)
    col = cv2.resize(col, out_size, interpolation=cv2.INTER_AREA)
    cov = cv2.resize(inside, out_size, interpolation=cv2.INTER_AREA)
    return (x0, y0, x1, y1), col, cov


def _line_kernel(length_px: float, angle_deg: float) -> np.ndarray:
    n = int(math.ceil(length_px)) | 1
    n = max(n, 3)
    k = np.zeros((n, n), np.float32)
    c = (n - 1) / 2
    a = math.radians(angle_deg)
    for t in np.linspace(-length_px / 2, length_px / 2, max(int(length_px * 4), 2)):
        x, y = c + t * math.cos(a), c + t * math.sin(a)
        xi, yi = int(math.floor(x)), int(math.floor(y))
        fx, fy = x - xi, y - yi
        for ddx, ddy, wgt in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
            if 0 <= xi + ddx < n and 0 <= yi + ddy < n:
                k[yi + ddy, xi + ddx] += wgt
    return k / k.sum()


def _disc_kernel(radius: float) -> np.ndarray:
    r = int(math.ceil(radius)) + 1
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float32)
    # soft edge: coverage of each pixel by the disc, approximately
    k = np.clip(radius + 0.5 - np.sqrt(xx**2 + yy**2), 0, 1)
    return k / k.sum()


@lru_cache(maxsize=12)
def _felt(size: tuple[int, int], felt: int) -> np.ndarray:
    w, h = size
    rng = np.random.default_rng(100 + felt)
    base = np.array(FELTS[felt % len(FELTS)], np.float32)[::-1] / 255.0  # BGR
    low = cv2.resize(rng.normal(0, 1, (h // 32 + 2, w // 32 + 2)).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC)
    fibre = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.7)
    img = base[None, None, :] * (1 + 0.05 * low[:, :, None] + 0.08 * fibre[:, :, None])
    return np.asarray(np.clip(img, 0, 1) ** 2.2, np.float32)


def photo_frame(shot: Shot, rng: np.random.Generator) -> tuple[np.ndarray, list[Truth]]:
    """Take the picture: a BGR uint8 frame and the truth of every code placed in it."""
    w, h = shot.size
    hom = camera_homography(shot)
    # view-relative: table mm are measured from the point under the optical axis
    frame = _felt(shot.size, shot.felt).copy()
    truths: list[Truth] = []
    for it in shot.items:
        tex = foreign_texture(it.text, it.micro) if it.foreign else card_texture(it.pack, it.card, it.tint)
        tex_bgr = np.ascontiguousarray(tex[:, :, ::-1])
        to_table = _item_homography(it, tex.shape[:2])
        to_frame = hom @ to_table
        smear_px = 0.0
        # pixels per mm at the item (the Jacobian of the homography there)
        cx_t, cy_t = tex.shape[1] / 2, tex.shape[0] / 2
        if not it.foreign:
            ox, oy = code_centre_mm()
            cx_t += ox * TEX_PX_PER_MM
            cy_t += oy * TEX_PX_PER_MM
        p = cv2.perspectiveTransform(np.float64([[[cx_t, cy_t], [cx_t + TEX_PX_PER_MM, cy_t],
                                                  [cx_t, cy_t + TEX_PX_PER_MM]]]), to_frame)[0]
        (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
        px_per_mm = math.sqrt(abs(ax * by - ay * bx))
        module_mm = 2.5 if it.foreign else MODULE_MM
        if it.speed > 0:
            smear_px = it.speed * shot.exposure_s * px_per_mm
        pad = int(smear_px) + 3
        got = _sample(tex_bgr, to_frame, shot.size, pad)
        if got is not None:
            (x0, y0, x1, y1), col, cov = got
            premul = col * cov[:, :, None]
            if smear_px > 0.5:
                d = cv2.perspectiveTransform(np.float64([[[it.x, it.y], [it.x + math.cos(math.radians(it.heading)),
                                                                          it.y + math.sin(math.radians(it.heading))]]]), hom)[0]
                ang = math.degrees(math.atan2(d[1][1] - d[0][1], d[1][0] - d[0][0]))
                k = _line_kernel(smear_px, ang)
                premul = cv2.filter2D(premul, -1, k, borderType=cv2.BORDER_CONSTANT)
                cov = cv2.filter2D(cov, -1, k, borderType=cv2.BORDER_CONSTANT)
            roi = frame[y0:y1, x0:x1]
            roi[:] = roi * (1 - cov[:, :, None]) + premul
        side = (MODULES + 2 * QUIET) * module_mm / 2 if not it.foreign else 0
        r = side * TEX_PX_PER_MM
        quad = cv2.perspectiveTransform(np.float64([[[cx_t - r, cy_t - r], [cx_t + r, cy_t - r], [cx_t + r, cy_t + r],
                                                     [cx_t - r, cy_t + r]]]), to_frame)[0]
        inside = bool((quad.min() >= 0) and (quad[:, 0].max() < w) and (quad[:, 1].max() < h))
        cxf, cyf = cv2.perspectiveTransform(np.float64([[[cx_t, cy_t]]]), to_frame)[0][0]
        truths.append(Truth(it.text, it.card, it.foreign, px_per_mm * module_mm,
                            smear_px / max(px_per_mm * module_mm, 1e-6), float(cxf), float(cyf), inside,
                            quad=tuple((float(x), float(y)) for x, y in quad)))
    if shot.hands:
        truths = _hands(frame, shot, hom, truths)
    # illumination (linear light)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    light = shot.light * (1 - shot.vignette * r2)
    if shot.gradient:
        a = math.radians(shot.gradient_deg)
        u = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h) + 0.5
        light *= 1 - shot.gradient * np.clip(u, 0, 1)
    if shot.shadow:
        sx, sy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        light *= 1 - shot.shadow * np.exp(-((xx - sx) ** 2 + (yy - sy) ** 2) / (0.15 * w) ** 2)
    img = frame * light[:, :, None]
    if shot.glare:
        gx, gy = shot.glare_at[0] * w, shot.glare_at[1] * h
        rad = shot.glare_size * w
        spot = np.exp(-(((xx - gx) ** 2 + ((yy - gy) * 1.4) ** 2) / rad**2) ** 2)  # flat-topped
        img = img + (shot.glare * spot)[:, :, None]
    if shot.defocus_px > 0.3:
        img = cv2.filter2D(img, -1, _disc_kernel(shot.defocus_px), borderType=cv2.BORDER_REFLECT)
    # sensor: electrons, shot and read noise, gain, clipping, gamma, JPEG
    e_max = shot.full_well_e / shot.gain
    electrons = np.clip(img, 0, None) * e_max
    electrons = electrons + rng.standard_normal(img.shape, dtype=np.float32) * np.sqrt(
        electrons + shot.read_noise_e**2)
    out = np.clip(electrons / e_max, 0, 1) ** (1 / 2.2)
    bgr = (out * 255 + 0.5).astype(np.uint8)
    if shot.jpeg:
        ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg])
        bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return bgr, truths


SKIN_LIGHT, SKIN_DARK = (0.80, 0.62, 0.52), (0.36, 0.22, 0.16)  # sRGB-ish reflectance, pale and dark (R, G, B)


def _hand_outline(hand: Hand) -> list[np.ndarray]:
    """A hand and forearm seen from above as polygons in table mm: the palm, four fingers, a thumb and
    the forearm going back 300 mm (an adult's: palm 85 x 95 mm, fingers 18 mm wide)."""
    a = math.radians(hand.heading)
    fwd, side = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    centre = np.array([hand.x, hand.y])

    def box(along: float, across: float, length: float, width: float) -> np.ndarray:
        c = centre + fwd * along + side * across
        return np.array([c + fwd * sl + side * sw for sl, sw in ((-length / 2, -width / 2), (length / 2, -width / 2),
                                                                 (length / 2, width / 2), (-length / 2, width / 2))])

    palm = np.array([centre + fwd * 47 * math.cos(t) + side * 42 * math.sin(t) for t in np.linspace(0, 2 * math.pi, 24)])
    fingers = [box(70 + (10 if i in (1, 2) else 0), -30 + 20 * i, 70 - (15 if i == 3 else 0), 17) for i in range(4)]
    thumb = box(10, 55, 60, 22)
    arm = box(-190, 0, 300, 75)
    return [palm, *fingers, thumb, arm]


def _hands(frame: np.ndarray, shot: Shot, hom: np.ndarray, truths: list[Truth]) -> list[Truth]:
    """Draw ``shot.hands`` over the cards in ``frame`` (linear light, in place): flat-lit skin with a
    soft edge; a code any of whose symbol or quiet zone a hand covers is ``covered``."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for hand in shot.hands:
        one = np.zeros((h, w), np.uint8)
        for poly in _hand_outline(hand):
            px = cv2.perspectiveTransform(poly[None].astype(np.float64), hom)[0]
            cv2.fillPoly(one, [np.round(px * 4).astype(np.int32)], 255, lineType=cv2.LINE_AA, shift=2)
        tone = np.array(SKIN_LIGHT) * (1 - hand.tone) + np.array(SKIN_DARK) * hand.tone
        colour = (tone[::-1] ** 2.2).astype(np.float32)  # BGR, linear light
        cover = cv2.GaussianBlur(one.astype(np.float32) / 255, (0, 0), 1.0)[:, :, None]
        frame[:] = frame * (1 - cover) + colour[None, None, :] * cover
        mask |= one
    out = []
    for t in truths:
        if t.quad:  # the hands' mask within the code's box, and the code's own shape there
            quad = np.round(np.array(t.quad)).astype(np.int32)
            x0, y0 = np.clip(quad.min(axis=0), 0, None)
            x1, y1 = np.minimum(quad.max(axis=0) + 1, (w, h))
            if x1 > x0 and y1 > y0:
                code = np.zeros((y1 - y0, x1 - x0), np.uint8)
                cv2.fillPoly(code, [quad - (x0, y0)], 255)
                if cv2.countNonZero(code & mask[y0:y1, x0:x1]):
                    t = replace(t, covered=True)
        out.append(t)
    return out


def foreign_texts() -> tuple[tuple[str, bool], ...]:
    """Foreign codes that decode but are no card: wrong check, another version, other texts."""
    body = "1B7AS"
    wrong = ALPHABET[(ALPHABET.index(check_char(body)) + 1) % len(ALPHABET)]
    return ((body + wrong, True), ("2B7AS" + check_char("2B7AS"), True), ("A1B2C3", True),
            ("HTTPS://CLUB.EXAMPLE/SCORE", False), ("1B7ZZ", True))


def pack_cards() -> tuple[Card, ...]:
    return full_pack()
