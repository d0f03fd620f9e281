"""Printable bidding cards: a bidding box's cards for each seat, with the bidding code
(``vision/CARD_CODES.md``, "Bidding cards") and the call printed above it.

``write_bidding_labels`` makes pages at 300 dpi on one of ``vision.labels.SHEETS``, saved as one PDF and
one PNG per page. Each seat's set is the 35 bids (one copy each), ``passes`` pass cards, ``doubles`` double
cards and ``redoubles`` redouble cards (copies numbered ``1``, ``2``, ... in their codes), so that a player
can lay a new card for every call he makes.

- ``a4`` and ``letter``: labels of 51 x 60 mm with a cut line, 6 mm apart (12 a page), to stick on white
  card stock cut 3 mm outside the line (57 x 66 mm, so that white surrounds the code's quiet zone); nearly
  square on purpose, so that the decoder never takes one for a playing card's shape
  (``vision.decode.card_shapes`` looks for 1.25 to 1.9 times as long as wide).
- ``avery-22806``: the die-cut 2 x 2 in squares, one line of text above a smaller code.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from laws.bridge.calls import DOUBLE, PASS, REDOUBLE, Call, bid_of_rank
from laws.cards import Seat
from vision.codes import ALPHABET, CallCode, Variant, encode_call_payload, symbol_modules
from vision.labels import (
    CODE_BOTTOM_MM,
    PX_PER_MM,
    QUIET,
    SHEETS,
    SUIT_SYMBOLS,
    SheetLayout,
    _font,
    _slots,
    write_sheet,
)
from vision.labels_pdf import VectorPage, text_width

BIDDING_STICKER_MM = (51.0, 60.0)  # on plain A4 / Letter sticker paper
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
MAX_COPIES = len(ALPHABET) - 1  # copies 1-9 and A-Z
# What a bidding box prints in colour (never part of the code, which stays black).
GREEN, RED, BLUE, BLACK = (20, 130, 40), (190, 20, 20), (20, 60, 170), (0, 0, 0)


@dataclass(frozen=True)
class BiddingSheet:
    """What ``write_bidding_labels`` wrote, and where each bidding card's code sits on each page (px)."""

    pdf: Path
    pngs: tuple[Path, ...]
    placed: tuple[tuple[int, CallCode, tuple[int, int]], ...]  # (page, code, code centre px)


def seat_set(seat: Seat | str, passes: int = 8, doubles: int = 2, redoubles: int = 2) -> list[CallCode]:
    """One seat's bidding cards in print order: the 35 bids from one club up, then the passes, doubles and
    redoubles.

    Raises:
        ValueError: a count below one or above ``MAX_COPIES``.
    """
    s = Seat(seat)
    out = [CallCode(s, bid_of_rank(r)) for r in range(35)]
    for call, n, what in ((PASS, passes, "passes"), (DOUBLE, doubles, "doubles"), (REDOUBLE, redoubles, "redoubles")):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_COPIES:
            raise ValueError(f"{what}: want 1 to {MAX_COPIES} cards a seat, got {n!r}")
        out += [CallCode(s, call, ALPHABET[i]) for i in range(1, n + 1)]
    return out


def call_text(call: Call) -> str:
    """What the card shows in big type: ``1♥``, ``3NT``, ``Pass``, ``X``, ``XX``."""
    if call.is_bid:
        return f"{call.level}{'NT' if call.strain == 'NT' else SUIT_SYMBOLS[call.strain]}"
    return call.pbn


def _colour(call: Call) -> tuple[int, int, int]:
    if call.is_bid:
        return RED if call.strain in ("H", "D") else BLACK
    return {PASS: GREEN, DOUBLE: RED, REDOUBLE: BLUE}[call]


def _words(code: CallCode) -> str:
    words = code.call.words
    return words if code.copy == "1" else f"{words}, copy {code.copy}"


def _sticker(code: CallCode, variant: Variant, layout: SheetLayout) -> Image.Image:
    w, h = (round(v * PX_PER_MM) for v in layout.sticker_mm)
    img = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(img)
    if layout.cut_line:
        draw.rectangle((0, 0, w - 1, h - 1), outline=(200, 200, 200), width=2)
    modules = symbol_modules(encode_call_payload(code.seat, code.call, code.copy), variant)
    mpx = layout.module_px[variant]
    sym = np.kron(np.pad(modules, QUIET, constant_values=255), np.ones((mpx, mpx), np.uint8))
    block = Image.fromarray(sym).convert("RGB")
    x0, y0 = (w - block.width) // 2, h - block.height - round(CODE_BOTTOM_MM * PX_PER_MM)
    img.paste(block, (x0, y0))
    band_mm = y0 / PX_PER_MM
    seat = SEAT_WORDS[code.seat.value]
    colour = _colour(code.call)
    if layout.cut_line:  # the 51 x 60 mm label: the call big, the seat and the call in words beside it
        draw.text((round(3 * PX_PER_MM), round(0.5 * PX_PER_MM)), call_text(code.call), fill=colour,
                  font=_font(round(7 * PX_PER_MM)))
        small = _font(round(2.6 * PX_PER_MM))
        draw.text((round(25 * PX_PER_MM), round(1 * PX_PER_MM)), seat, fill=BLACK, font=small)
        draw.text((round(25 * PX_PER_MM), round(4.6 * PX_PER_MM)), _words(code), fill=BLACK, font=small)
    else:  # a die-cut square: one line
        line = f"{call_text(code.call)}  {seat}  {_words(code)}"
        size = round(min(band_mm * 0.62, 4.2) * PX_PER_MM)
        font = _font(size)
        while size > 12 and draw.textlength(line, font=font) > w - 2 * PX_PER_MM:
            size -= 2
            font = _font(size)
        draw.text((w // 2, round(band_mm * PX_PER_MM / 2)), line, fill=colour, font=font, anchor="mm")
    return img


def _sticker_vector(page: VectorPage, left: int, top: int, code: CallCode, variant: Variant,
                    layout: SheetLayout) -> None:
    """The sticker of ``_sticker`` drawn as paths on ``page`` (the vector PDF a print shop's cutter lines up
    with), its top-left corner at print px (left, top)."""
    def mm(px: float) -> float:
        return px / PX_PER_MM

    w, h = (round(v * PX_PER_MM) for v in layout.sticker_mm)
    if layout.cut_line:
        page.frame(mm(left + 1), mm(top + 1), mm(w - 2), mm(h - 2), gray=200 / 255)
    modules = np.pad(symbol_modules(encode_call_payload(code.seat, code.call, code.copy), variant), QUIET,
                     constant_values=255)
    mpx = layout.module_px[variant]
    side = modules.shape[0] * mpx
    x0, y0 = (w - side) // 2, h - side - round(CODE_BOTTOM_MM * PX_PER_MM)
    page.modules(modules == 0, mm(left + x0), mm(top + y0), mm(mpx))
    band_mm = y0 / PX_PER_MM
    r, g, b = _colour(code.call)
    rgb = (r / 255, g / 255, b / 255)
    seat, x, y = SEAT_WORDS[code.seat.value], mm(left), mm(top)
    if layout.cut_line:  # as ``_sticker``: the call big, the seat and the call in words beside it
        page.text(call_text(code.call), x + 3, y + 0.5, 7, rgb)
        page.text(seat, x + 25, y + 1, 2.6)
        page.text(_words(code), x + 25, y + 4.6, 2.6)
    else:
        line = f"{call_text(code.call)}  {seat}  {_words(code)}"
        size = min(band_mm * 0.62, 4.2)
        while size > 1.0 and text_width(line, size) > layout.sticker_mm[0] - 2:
            size -= 0.17
        page.text(line, x + layout.sticker_mm[0] / 2, y + band_mm / 2, size, rgb, anchor="mm")


def bidding_layout(sheet: str) -> SheetLayout:
    """The sheet's layout with bidding labels: 51 x 60 mm on ``a4`` and ``letter``, the die-cut squares
    as they are.

    Raises:
        ValueError: an unknown sheet.
    """
    if sheet not in SHEETS:
        raise ValueError(f"unknown sheet {sheet!r} (want {', '.join(SHEETS)})")
    layout = SHEETS[sheet]
    return replace(layout, sticker_mm=BIDDING_STICKER_MM) if layout.grid is None else layout


def write_bidding_labels(out: str | Path, seats: str = "NESW", variant: Variant | str = Variant.MICRO,
                         sheet: str = "a4", passes: int = 8, doubles: int = 2, redoubles: int = 2) -> BiddingSheet:
    """Write the bidding cards of ``seats`` as ``OUT.pdf`` and ``OUT-1.png``, ``OUT-2.png``, ...

    Args:
        out: output path; a ``.pdf`` or ``.png`` suffix is dropped.
        seats: the seats whose sets to print (letters of ``NESW``, each once).
        variant: ``micro`` (default) or ``qr``, as for playing cards.
        sheet: a name from ``vision.labels.SHEETS``.
        passes, doubles, redoubles: how many of each a seat's set holds (1 to ``MAX_COPIES``).

    Raises:
        ValueError: unknown seats, sheet or variant, or a count out of range; the message names it.
    """
    if not seats or any(s not in "NESW" for s in seats) or len(set(seats)) != len(seats):
        raise ValueError(f"seats {seats!r}: want letters of NESW, each once (e.g. NESW or NS)")
    variant = Variant(variant)
    layout = bidding_layout(sheet)
    codes = [c for s in seats for c in seat_set(s, passes, doubles, redoubles)]
    base = Path(out)
    if base.suffix.lower() in (".pdf", ".png"):
        base = base.with_suffix("")
    pw, ph = (round(v * PX_PER_MM) for v in layout.page_mm)
    sw, sh = (round(v * PX_PER_MM) for v in layout.sticker_mm)
    slots = _slots(layout, pw, ph, sw, sh)
    side = (13 if variant is Variant.MICRO else 21) + 2 * QUIET
    pages: list[Image.Image] = []
    vectors: list[VectorPage] = []
    placed: list[tuple[int, CallCode, tuple[int, int]]] = []
    for i, code in enumerate(codes):
        page_no, slot = divmod(i, len(slots))
        if slot == 0:
            pages.append(Image.new("RGB", (pw, ph), "white"))
            vectors.append(VectorPage(*layout.page_mm, glyphs=vectors[0].glyphs) if vectors
                           else VectorPage(*layout.page_mm))
        x, y = slots[slot]
        pages[-1].paste(_sticker(code, variant, layout), (x, y))
        _sticker_vector(vectors[-1], x, y, code, variant, layout)
        block = side * layout.module_px[variant]
        placed.append((page_no, code, (x + sw // 2, y + sh - round(CODE_BOTTOM_MM * PX_PER_MM) - block // 2)))
    return BiddingSheet(*write_sheet(base, pages, vectors), tuple(placed))
