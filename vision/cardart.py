"""Card faces and backs as images: what a labelled card looks like from straight above.

Images are drawn at ``ART_PX_PER_MM`` pixels per millimetre and cached; the scene renderer warps them
onto the felt. A face carries the card's code in the middle (``CARD_CODES.md``) and the rank and suit
in two corners; a back carries a pattern and the pack mark. A bidding card (``ArtKey.call``, size
``bidding``: the 51 x 60 mm bidding-card label on card stock cut 3 mm outside it, 57 x 66 mm) carries its
call and seat at the top and its code low, as the label prints them.
``damage`` wears or blots the code so that it reads only with heavy error correction, or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

import cv2
import numpy as np

from laws.cards import Card
from vision.codes import CallCode, Variant, encode_call_payload, encode_payload, symbol_modules

ART_PX_PER_MM = 4
CARD_MM = {"bridge": (57.0, 89.0), "poker": (63.0, 88.0), "bidding": (57.0, 66.0)}
# A bidding card's code: its lower edge this far above the card's (3 mm of card stock, 1 mm of label),
# below its quiet zone of two modules.
BIDDING_CODE_BELOW_MM = 4.0
# Module size in art pixels: Micro QR 13 modules x 12 px = 39 mm; QR 21 x 7 px = 36.75 mm.
MODULE_PX = {Variant.MICRO: 12, Variant.QR: 7}


class Damage(StrEnum):
    NONE = "none"
    WORN = "worn"  # modules rubbed off: reads only with heavy error correction
    BLOTTED = "blotted"  # ink over the code: does not read


@dataclass(frozen=True)
class ArtKey:
    pack: str
    card: Card | None  # None: the back
    variant: Variant = Variant.MICRO
    damage: Damage = Damage.NONE
    size: str = "bridge"
    call: CallCode | None = None  # a bidding card (``pack`` and ``card`` unused); size ``bidding``


def _suit_colour(card: Card) -> tuple[int, int, int]:
    return (30, 30, 200) if card.suit in "HD" else (20, 20, 20)


def _worn_modules(payload: str, variant: Variant) -> np.ndarray:
    """Modules with a few flipped, chosen so the code still reads but uses most of its correction."""
    import zxingcpp

    clean = symbol_modules(payload, variant)
    n = clean.shape[0]
    fmt = zxingcpp.BarcodeFormat.MicroQRCode if variant is Variant.MICRO else zxingcpp.BarcodeFormat.QRCode
    for seed in range(500):
        rng = np.random.default_rng(seed)
        m = clean.copy()
        flips = 2 if variant is Variant.MICRO else 6
        for _ in range(flips):
            i, j = rng.integers(n // 2, n, 2)  # the data area, away from the finder pattern
            m[i, j] = 255 - m[i, j]
        img = np.pad(np.kron(m, np.ones((6, 6), np.uint8)), 24, constant_values=255)
        found = zxingcpp.read_barcodes(img, formats=fmt)
        if found and found[0].text == payload and float(found[0].extra.get("UEC", 1.0)) <= 0.3:
            return m
    raise RuntimeError(f"could not wear {payload!r} into a heavily corrected read")


def symbol_origin(key: ArtKey) -> tuple[int, int]:
    """The top-left corner (art px) of the symbol, without its quiet zone: a card's in the middle, a
    bidding card's low (``BIDDING_CODE_BELOW_MM`` and two modules above its lower edge)."""
    w_mm, h_mm = CARD_MM[key.size]
    w, h = int(w_mm * ART_PX_PER_MM), int(h_mm * ART_PX_PER_MM)
    s = (13 if key.variant is Variant.MICRO else 21) * MODULE_PX[key.variant]
    if key.call is not None:
        return (w - s) // 2, h - s - 2 * MODULE_PX[key.variant] - round(BIDDING_CODE_BELOW_MM * ART_PX_PER_MM)
    return (w - s) // 2, (h - s) // 2


@lru_cache(maxsize=256)
def card_art(key: ArtKey) -> np.ndarray:
    """The BGR image of a card face or back (read-only; do not modify)."""
    w_mm, h_mm = CARD_MM[key.size]
    w, h = int(w_mm * ART_PX_PER_MM), int(h_mm * ART_PX_PER_MM)
    payload = (encode_payload(key.pack, key.card) if key.call is None
               else encode_call_payload(key.call.seat, key.call.call, key.call.copy))
    if key.damage is Damage.WORN:
        modules = _worn_modules(payload, key.variant)
    else:
        modules = symbol_modules(payload, key.variant)
    mpx = MODULE_PX[key.variant]
    sym = np.kron(modules, np.ones((mpx, mpx), np.uint8))
    if key.call is not None:
        img = np.full((h, w, 3), 246, np.uint8)
        colour = (30, 30, 200) if key.call.call.strain in ("H", "D") else (20, 20, 20)
        text = key.call.call.pbn  # 1H, 3NT, Pass, X, XX: what bidding boxes print
        cv2.putText(img, text, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, colour, 2, cv2.LINE_AA)
        cv2.putText(img, key.call.seat.value, (w - 28, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2,
                    cv2.LINE_AA)
    elif key.card is None:
        img = np.full((h, w, 3), (140, 60, 30), np.uint8)
        for k in range(-h, w, 14):
            cv2.line(img, (k, 0), (k + h, h), (170, 90, 50), 3)
        pad = 3 * mpx
        s = sym.shape[0] + 2 * pad
        y0, x0 = (h - s) // 2, (w - s) // 2
        img[y0:y0 + s, x0:x0 + s] = 250
    else:
        img = np.full((h, w, 3), 246, np.uint8)
        colour = _suit_colour(key.card)
        text = key.card.rank + key.card.suit
        cv2.putText(img, text, (8, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.3, colour, 3, cv2.LINE_AA)
        corner = np.full((60, 90, 3), 246, np.uint8)
        cv2.putText(corner, text, (8, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.3, colour, 3, cv2.LINE_AA)
        img[h - 60:, w - 90:] = np.minimum(img[h - 60:, w - 90:], corner[::-1, ::-1])
    s = sym.shape[0]
    x0, y0 = symbol_origin(key)
    img[y0:y0 + s, x0:x0 + s] = np.minimum(img[y0:y0 + s, x0:x0 + s], sym[:, :, None])
    if key.damage is Damage.BLOTTED:
        cv2.ellipse(img, (w // 2 + 6, h // 2 - 4), (s // 3, s // 4), 30, 0, 360, (40, 40, 60), -1, cv2.LINE_AA)
        cv2.circle(img, (w // 2 - s // 4, h // 2 + s // 4), s // 6, (40, 40, 60), -1, cv2.LINE_AA)
    img.setflags(write=False)
    return img
