"""Printable sticker sheets for one pack: each card's code with its rank and suit beside it.

``write_labels`` writes one vector PDF (code modules and letters as filled paths, ``vision.labels_pdf``:
what a print shop prints and cuts) and one 300 dpi PNG per page (a preview, and what the tests photograph),
both from the same geometry, on one of ``SHEETS``:

- ``a4`` (default) and ``letter``: plain self-adhesive paper of that size, stickers of 51 x 66 mm with
  a cut line, 6 mm apart; they fit the face of bridge (57 x 89 mm) and poker (63 x 88 mm) cards. The
  code (module 35 dots = 2.963 mm) sits in the lower part with its quiet zone, the rank and suit (with
  the card's name and the pack id) above.
- ``avery-22806``: Avery 22806 die-cut square labels, 2 x 2 in (50.8 mm), 12 per US Letter sheet in 3
  columns and 4 rows, 0.625 in from the sheet's left and top edges, at a pitch of 2.625 in across and
  2.5833 in down. The code is smaller there (module 30 dots = 2.54 mm, 0.857 of the A4 sticker's),
  with one line of text above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from laws.cards import Card, full_pack
from vision.codes import Variant, encode_payload, symbol_modules, validate_pack
from vision.labels_pdf import VectorPage, font_file, text_width, write_pdf

DPI = 300
PX_PER_MM = DPI / 25.4
PAGE_MM = (210.0, 297.0)
STICKER_MM = (51.0, 66.0)
# Module size in print pixels: Micro QR 35 px = 2.96 mm (38.5 mm symbol), QR 21 px = 1.78 mm (37.3 mm).
MODULE_PX = {Variant.MICRO: 35, Variant.QR: 21}
CODE_BOTTOM_MM = 1.0  # from the sticker's lower edge to the lower edge of the code's quiet zone
INCH = 25.4


@dataclass(frozen=True)
class SheetLayout:
    """A page and where its stickers go (mm). ``grid`` None: as many as fit, centred, ``gap`` apart."""

    name: str
    page_mm: tuple[float, float]
    sticker_mm: tuple[float, float]
    module_px: dict[Variant, int]
    grid: tuple[int, int, float, float, float, float] | None = None  # cols, rows, x0, y0, pitch x, pitch y
    gap_mm: float = 6.0
    cut_line: bool = True


SHEETS = {
    "a4": SheetLayout("a4", PAGE_MM, STICKER_MM, MODULE_PX),
    "letter": SheetLayout("letter", (8.5 * INCH, 11 * INCH), STICKER_MM, MODULE_PX),
    "avery-22806": SheetLayout("avery-22806", (8.5 * INCH, 11 * INCH), (2 * INCH, 2 * INCH),
                               {Variant.MICRO: 30, Variant.QR: 21},
                               (3, 4, 0.625 * INCH, 0.625 * INCH, 2.625 * INCH, 2.5833 * INCH), cut_line=False),
}
QUIET = 2  # modules of white on the sticker; the white card face around it adds more
GAMES = {"contract-bridge": "AKQJT98765432", "euchre": "AKQJT987"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


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


def _font(size: int) -> ImageFont.FreeTypeFont:
    """The PNG pages' font: the PDF's own (``font_file``), so a machine with only matplotlib's DejaVu Sans
    draws its previews in it too, not in Pillow's default, and one without any refuses them as the PDF
    does (``MissingFont``) rather than printing stickers unlike vision/CARD_CODES.md's."""
    return ImageFont.truetype(font_file(), size)


def sticker_modules(variant: Variant) -> int:
    """Modules across the printed symbol with its quiet zone."""
    return (13 if variant is Variant.MICRO else 21) + 2 * QUIET


def _sticker(pack: str, card: Card | None, variant: Variant, layout: SheetLayout = SHEETS["a4"]) -> Image.Image:
    w, h = (round(v * PX_PER_MM) for v in layout.sticker_mm)
    img = Image.new("L", (w, h), 255)
    draw = ImageDraw.Draw(img)
    if layout.cut_line:
        draw.rectangle((0, 0, w - 1, h - 1), outline=200, width=2)
    modules = symbol_modules(encode_payload(pack, card), variant)
    mpx = layout.module_px[variant]
    sym = np.kron(np.pad(modules, QUIET, constant_values=255), np.ones((mpx, mpx), np.uint8))
    code = Image.fromarray(sym)
    x0, y0 = (w - code.width) // 2, h - code.height - round(CODE_BOTTOM_MM * PX_PER_MM)
    img.paste(code, (x0, y0))
    band_mm = y0 / PX_PER_MM  # the text above the code
    label = "" if card is None else card.rank.replace("T", "10") + SUIT_SYMBOLS[card.suit]
    if band_mm >= 12:  # the A4 / Letter sticker: big rank and suit, name and pack beside
        big, small = _font(round(9 * PX_PER_MM)), _font(round(2.6 * PX_PER_MM))
        if card is None:
            draw.text((round(3 * PX_PER_MM), round(2 * PX_PER_MM)), f"back of pack {pack}", fill=0, font=small)
        else:
            draw.text((round(3 * PX_PER_MM), round(1 * PX_PER_MM)), label, fill=0, font=big)
            draw.text((round(25 * PX_PER_MM), round(3 * PX_PER_MM)), card.name, fill=0, font=small)
            draw.text((round(25 * PX_PER_MM), round(7 * PX_PER_MM)), f"pack {pack}", fill=0, font=small)
    else:  # a small die-cut label: one line
        line = f"back of pack {pack}" if card is None else f"{label}  {card.name}  pack {pack}"
        size = round(min(band_mm * 0.62, 4.2) * PX_PER_MM)
        font = _font(size)
        while size > 12 and draw.textlength(line, font=font) > w - 2 * PX_PER_MM:
            size -= 2
            font = _font(size)
        draw.text((w // 2, round(band_mm * PX_PER_MM / 2)), line, fill=0, font=font, anchor="mm")
    return img.convert("RGB") if card is None or card.suit in "SC" else _tint_red(img, y0 - 2)


RED = (190 / 255, 20 / 255, 20 / 255)


def _sticker_vector(page: VectorPage, left: int, top: int, pack: str, card: Card | None, variant: Variant,
                    layout: SheetLayout) -> None:
    """The sticker of ``_sticker`` drawn as paths on ``page``, its top-left corner at print px (left, top)."""
    def mm(px: float) -> float:
        return px / PX_PER_MM

    w, h = (round(v * PX_PER_MM) for v in layout.sticker_mm)
    if layout.cut_line:
        page.frame(mm(left + 1), mm(top + 1), mm(w - 2), mm(h - 2), gray=200 / 255)
    modules = np.pad(symbol_modules(encode_payload(pack, card), variant), QUIET, constant_values=255)
    mpx = layout.module_px[variant]
    side = modules.shape[0] * mpx
    x0, y0 = (w - side) // 2, h - side - round(CODE_BOTTOM_MM * PX_PER_MM)
    page.modules(modules == 0, mm(left + x0), mm(top + y0), mm(mpx))
    band_mm = y0 / PX_PER_MM
    rgb = RED if card is not None and card.suit in "HD" else (0.0, 0.0, 0.0)
    label = "" if card is None else card.rank.replace("T", "10") + SUIT_SYMBOLS[card.suit]
    x, y = mm(left), mm(top)
    if band_mm >= 12:
        if card is None:
            page.text(f"back of pack {pack}", x + 3, y + 2, 2.6)
        else:
            page.text(label, x + 3, y + 1, 9, rgb)
            page.text(card.name, x + 25, y + 3, 2.6, rgb)
            page.text(f"pack {pack}", x + 25, y + 7, 2.6, rgb)
    else:
        line = f"back of pack {pack}" if card is None else f"{label}  {card.name}  pack {pack}"
        size = min(band_mm * 0.62, 4.2)
        while size > 1.0 and text_width(line, size) > layout.sticker_mm[0] - 2:
            size -= 0.17
        page.text(line, x + layout.sticker_mm[0] / 2, y + band_mm / 2, size, rgb, anchor="mm")


def _tint_red(img: Image.Image, text_bottom: int) -> Image.Image:
    """Hearts and diamonds: text in red; the code stays black (the camera reads it in gray)."""
    a = np.array(img.convert("RGB"))
    top = a[2:text_bottom, 2:-2]
    dark = top[:, :, 0] < 128
    top[dark] = (190, 20, 20)
    return Image.fromarray(a)


def write_labels(pack: str, game: str, out: str | Path, variant: Variant | str = Variant.MICRO,
                 backs: bool = False, sheet: str = "a4") -> LabelSheet:
    """Write the sticker sheet for ``pack`` as ``OUT.pdf`` and ``OUT-1.png``, ``OUT-2.png``, ...

    Args:
        pack: the pack id (two of 0-9, A-Z).
        game: ``contract-bridge`` or ``euchre``.
        out: output path; a ``.pdf`` or ``.png`` suffix is dropped.
        variant: ``micro`` (the card code) or ``qr`` (its QR variant for pyzbar at 1080p and up).
        backs: add one pack-mark sticker per card, for the backs.
        sheet: a name from ``SHEETS`` (``a4``, ``letter``, ``avery-22806``).
    """
    validate_pack(pack)
    variant = Variant(variant)
    if sheet not in SHEETS:
        raise ValueError(f"unknown sheet {sheet!r} (want {', '.join(SHEETS)})")
    layout = SHEETS[sheet]
    cards: list[Card | None] = list(pack_cards(game))
    if backs:
        cards += [None] * len(cards)
    base = Path(out)
    if base.suffix.lower() in (".pdf", ".png"):
        base = base.with_suffix("")
    pw, ph = (round(v * PX_PER_MM) for v in layout.page_mm)
    sw, sh = (round(v * PX_PER_MM) for v in layout.sticker_mm)
    slots = _slots(layout, pw, ph, sw, sh)
    pages: list[Image.Image] = []
    vectors: list[VectorPage] = []
    placed: list[tuple[int, Card | None, tuple[int, int]]] = []
    for i, card in enumerate(cards):
        page_no, slot = divmod(i, len(slots))
        if slot == 0:
            pages.append(Image.new("RGB", (pw, ph), "white"))
            vectors.append(VectorPage(*layout.page_mm, glyphs=vectors[0].glyphs) if vectors
                           else VectorPage(*layout.page_mm))
        x, y = slots[slot]
        sticker = _sticker(pack, card, variant, layout)
        pages[-1].paste(sticker, (x, y))
        _sticker_vector(vectors[-1], x, y, pack, card, variant, layout)
        side = (sticker_modules(variant)) * layout.module_px[variant]
        placed.append((page_no, card, (x + sw // 2, y + sh - round(CODE_BOTTOM_MM * PX_PER_MM) - side // 2)))
    return LabelSheet(*write_sheet(base, pages, vectors), tuple(placed))


def write_sheet(base: Path, pages: list[Image.Image], vectors: list[VectorPage]) -> tuple[Path, tuple[Path, ...]]:
    """Write a sheet's pages: ``base``.pdf (the vector pages) and ``base``-N.png (the raster proofs), in
    ``base``'s folder, which must exist (a missing one is not made: ``cardtable labels`` refuses it)."""
    pdf = base.with_suffix(".pdf")
    write_pdf(pdf, vectors)
    pngs = []
    for n, page in enumerate(pages, 1):
        p = base.parent / f"{base.name}-{n}.png"
        page.save(p, dpi=(DPI, DPI))
        pngs.append(p)
    return pdf, tuple(pngs)


def _slots(layout: SheetLayout, pw: int, ph: int, sw: int, sh: int) -> list[tuple[int, int]]:
    """Top-left corners (print px) of the stickers on one page, row by row."""
    if layout.grid is not None:
        cols, rows, x0, y0, dx, dy = layout.grid
        return [(round((x0 + c * dx) * PX_PER_MM), round((y0 + r * dy) * PX_PER_MM))
                for r in range(rows) for c in range(cols)]
    gap = round(layout.gap_mm * PX_PER_MM)
    cols, rows = (pw - gap) // (sw + gap), (ph - gap) // (sh + gap)
    left = (pw - cols * sw - (cols - 1) * gap) // 2
    return [(left + c * (sw + gap), gap + r * (sh + gap)) for r in range(rows) for c in range(cols)]
