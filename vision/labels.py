"""Printable sticker sheets for one pack: each card's code with its rank and suit beside it.

``write_labels`` makes A4 pages at 300 dpi, saved as one PDF and one PNG per page. A sticker is
51 x 66 mm, which fits the face of bridge (57 x 89 mm) and poker (63 x 88 mm) cards: the code sits
in its lower part with its quiet zone, the rank and suit (with the card's name and the pack id) above.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from laws.cards import Card, full_pack
from vision.codes import Variant, encode_payload, symbol_modules, validate_pack

DPI = 300
PX_PER_MM = DPI / 25.4
PAGE_MM = (210.0, 297.0)
STICKER_MM = (51.0, 66.0)
# Module size in print pixels: Micro QR 35 px = 2.96 mm (38.5 mm symbol), QR 21 px = 1.78 mm (37.3 mm).
MODULE_PX = {Variant.MICRO: 35, Variant.QR: 21}
QUIET = 2  # modules of white on the sticker; the white card face around it adds more
GAMES = {"contract-bridge": "AKQJT98765432", "euchre": "AKQJT987"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
FONT_PATHS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
              "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@dataclass(frozen=True)
class LabelSheet:
    """What ``write_labels`` wrote and where each sticker's code sits on each page (px)."""

    pdf: Path
    pngs: tuple[Path, ...]
    placed: tuple[tuple[int, Card | None, tuple[int, int]], ...]  # (page, card, code centre px)


def pack_cards(game: str) -> tuple[Card, ...]:
    """The cards of one pack for ``game`` (contract-bridge: 52, euchre: 32)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} (want {' or '.join(GAMES)})")
    return full_pack(GAMES[game])


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in FONT_PATHS:
        if Path(path).is_file():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def sticker_modules(variant: Variant) -> int:
    """Modules across the printed symbol with its quiet zone."""
    return (13 if variant is Variant.MICRO else 21) + 2 * QUIET


def _sticker(pack: str, card: Card | None, variant: Variant) -> Image.Image:
    w, h = (round(v * PX_PER_MM) for v in STICKER_MM)
    img = Image.new("L", (w, h), 255)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, w - 1, h - 1), outline=200, width=2)  # cut line
    modules = symbol_modules(encode_payload(pack, card), variant)
    mpx = MODULE_PX[variant]
    sym = np.kron(np.pad(modules, QUIET, constant_values=255), np.ones((mpx, mpx), np.uint8))
    code = Image.fromarray(sym)
    x0, y0 = (w - code.width) // 2, h - code.height - round(1 * PX_PER_MM)
    img.paste(code, (x0, y0))
    big, small = _font(round(9 * PX_PER_MM)), _font(round(2.6 * PX_PER_MM))
    if card is None:
        draw.text((round(3 * PX_PER_MM), round(2 * PX_PER_MM)), f"back of pack {pack}", fill=0, font=small)
    else:
        fill = 0
        label = card.rank.replace("T", "10") + SUIT_SYMBOLS[card.suit]
        draw.text((round(3 * PX_PER_MM), round(1 * PX_PER_MM)), label, fill=fill, font=big)
        draw.text((round(25 * PX_PER_MM), round(3 * PX_PER_MM)), card.name, fill=fill, font=small)
        draw.text((round(25 * PX_PER_MM), round(7 * PX_PER_MM)),
                  f"pack {pack}", fill=fill, font=small)
    return img.convert("RGB") if card is None or card.suit in "SC" else _tint_red(img, y0 - 2)


def _tint_red(img: Image.Image, text_bottom: int) -> Image.Image:
    """Hearts and diamonds: text in red; the code stays black (the camera reads it in gray)."""
    a = np.array(img.convert("RGB"))
    top = a[2:text_bottom, 2:-2]
    dark = top[:, :, 0] < 128
    top[dark] = (190, 20, 20)
    return Image.fromarray(a)


def write_labels(pack: str, game: str, out: str | Path, variant: Variant | str = Variant.MICRO,
                 backs: bool = False) -> LabelSheet:
    """Write the sticker sheet for ``pack`` as ``OUT.pdf`` and ``OUT-1.png``, ``OUT-2.png``, ...

    Args:
        pack: the pack id (two of 0-9, A-Z).
        game: ``contract-bridge`` or ``euchre``.
        out: output path; a ``.pdf`` or ``.png`` suffix is dropped.
        variant: ``micro`` (the card code) or ``qr`` (its QR variant for pyzbar at 1080p and up).
        backs: add one pack-mark sticker per card, for the backs.
    """
    validate_pack(pack)
    variant = Variant(variant)
    cards: list[Card | None] = list(pack_cards(game))
    if backs:
        cards += [None] * len(cards)
    base = Path(out)
    if base.suffix.lower() in (".pdf", ".png"):
        base = base.with_suffix("")
    pw, ph = (round(v * PX_PER_MM) for v in PAGE_MM)
    sw, sh = (round(v * PX_PER_MM) for v in STICKER_MM)
    gap = round(6 * PX_PER_MM)
    cols, rows = (pw - gap) // (sw + gap), (ph - gap) // (sh + gap)
    per_page = cols * rows
    pages: list[Image.Image] = []
    placed: list[tuple[int, Card | None, tuple[int, int]]] = []
    for i, card in enumerate(cards):
        page_no, slot = divmod(i, per_page)
        if slot == 0:
            pages.append(Image.new("RGB", (pw, ph), "white"))
        r, c = divmod(slot, cols)
        x = (pw - cols * sw - (cols - 1) * gap) // 2 + c * (sw + gap)
        y = gap + r * (sh + gap)
        sticker = _sticker(pack, card, variant)
        pages[-1].paste(sticker, (x, y))
        side = (sticker_modules(variant)) * MODULE_PX[variant]
        placed.append((page_no, card, (x + sw // 2, y + sh - round(PX_PER_MM) - side // 2)))
    base.parent.mkdir(parents=True, exist_ok=True)
    pdf = base.with_suffix(".pdf")
    pages[0].save(pdf, "PDF", resolution=DPI, save_all=True, append_images=pages[1:])
    pngs = []
    for n, page in enumerate(pages, 1):
        p = base.parent / f"{base.name}-{n}.png"
        page.save(p, dpi=(DPI, DPI))
        pngs.append(p)
    return LabelSheet(pdf, tuple(pngs), tuple(placed))
