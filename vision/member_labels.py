"""Printable member cards: one card for each member of a club's roster, with the member's name and
number and the member code (``vision/CARD_CODES.md``, "Member cards") the table's camera reads to name
a player.

``write_member_labels`` lays 51 x 60 mm labels with a cut line (the bidding cards' size: nearly square,
so the decoder never takes one for a playing card's shape) on ``a4`` or ``letter`` pages, saved as one
vector PDF and one PNG a page. The code is a Micro QR symbol (as a playing card's, so the decoder every table runs reads it) with
1.86 mm modules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from vision.codes import encode_member_payload, member_symbol
from vision.labels import PX_PER_MM, SHEETS, _font, _slots, write_sheet
from vision.labels_pdf import VectorPage, text_width

MEMBER_STICKER_MM = (51.0, 60.0)
MODULE_PX = 22          # 1.86 mm at 300 dpi: an M4 symbol (17 modules) with its 2-module quiet zone is 39.1 mm
MEMBER_QUIET = 2


@dataclass(frozen=True)
class MemberSheet:
    """What ``write_member_labels`` wrote, and where each member's code sits (page, number, centre px)."""

    pdf: Path
    pngs: tuple[Path, ...]
    placed: tuple[tuple[int, str, tuple[int, int]], ...]


def _fit(name: str, size: float, width_mm: float) -> float:
    while size > 1.0 and text_width(name, size) > width_mm:
        size -= 0.17
    return size


def _modules(number: str) -> np.ndarray:
    return np.pad(member_symbol(encode_member_payload(number)), MEMBER_QUIET, constant_values=255)


def _sticker(number: str, name: str) -> tuple[Image.Image, int]:
    w, h = (round(v * PX_PER_MM) for v in MEMBER_STICKER_MM)
    img = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, w - 1, h - 1), outline=(200, 200, 200), width=2)
    modules = _modules(number)
    sym = np.kron(modules, np.ones((MODULE_PX, MODULE_PX), np.uint8))
    block = Image.fromarray(sym).convert("RGB")
    x0, y0 = (w - block.width) // 2, h - block.height - round(2 * PX_PER_MM)
    img.paste(block, (x0, y0))
    size = _fit(name, 4.0, MEMBER_STICKER_MM[0] - 6)
    draw.text((w // 2, round(4 * PX_PER_MM)), name, fill=(0, 0, 0), font=_font(round(size * PX_PER_MM)), anchor="mm")
    draw.text((w // 2, round(9 * PX_PER_MM)), f"member {number}", fill=(0, 0, 0),
              font=_font(round(2.6 * PX_PER_MM)), anchor="mm")
    return img, y0 + block.height // 2


def _sticker_vector(page: VectorPage, left: int, top: int, number: str, name: str) -> None:
    def mm(px: float) -> float:
        return px / PX_PER_MM

    w, h = (round(v * PX_PER_MM) for v in MEMBER_STICKER_MM)
    page.frame(mm(left + 1), mm(top + 1), mm(w - 2), mm(h - 2), gray=200 / 255)
    modules = _modules(number)
    side = modules.shape[0] * MODULE_PX
    x0, y0 = (w - side) // 2, h - side - round(2 * PX_PER_MM)
    page.modules(modules == 0, mm(left + x0), mm(top + y0), mm(MODULE_PX))
    x, y = mm(left), mm(top)
    page.text(name, x + MEMBER_STICKER_MM[0] / 2, y + 4, _fit(name, 4.0, MEMBER_STICKER_MM[0] - 6), anchor="mm")
    page.text(f"member {number}", x + MEMBER_STICKER_MM[0] / 2, y + 9, 2.6, anchor="mm")


def write_member_labels(out: str | Path, members: Sequence[tuple[str, str]], sheet: str = "a4") -> MemberSheet:
    """Write one card for each ``(member number, name)`` as ``OUT.pdf`` and ``OUT-1.png``, ...

    Raises:
        ValueError: no member, a sheet other than ``a4`` or ``letter``, or a member number that cannot go
            on a card (``codes.encode_member_payload``); the message names it.
    """
    if sheet not in ("a4", "letter"):
        raise ValueError(f"member cards print on a4 or letter sticker paper, not {sheet!r}")
    if not members:
        raise ValueError("no member to print")
    for number, _ in members:
        encode_member_payload(number)                 # refused before anything is written
    layout = SHEETS[sheet]
    base = Path(out)
    if base.suffix.lower() in (".pdf", ".png"):
        base = base.with_suffix("")
    pw, ph = (round(v * PX_PER_MM) for v in layout.page_mm)
    sw, sh = (round(v * PX_PER_MM) for v in MEMBER_STICKER_MM)
    slots = _slots(replace(layout, sticker_mm=MEMBER_STICKER_MM), pw, ph, sw, sh)
    pages: list[Image.Image] = []
    vectors: list[VectorPage] = []
    placed: list[tuple[int, str, tuple[int, int]]] = []
    for i, (number, name) in enumerate(members):
        page_no, slot = divmod(i, len(slots))
        if slot == 0:
            pages.append(Image.new("RGB", (pw, ph), "white"))
            vectors.append(VectorPage(*layout.page_mm, glyphs=vectors[0].glyphs) if vectors
                           else VectorPage(*layout.page_mm))
        x, y = slots[slot]
        img, cy = _sticker(number, name)
        pages[-1].paste(img, (x, y))
        _sticker_vector(vectors[-1], x, y, number, name)
        placed.append((page_no, number, (x + sw // 2, y + cy)))
    return MemberSheet(*write_sheet(base, pages, vectors), tuple(placed))

