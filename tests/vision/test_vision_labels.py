"""Label sheets a club can print: A4, US Letter and the Avery 22806 die-cut squares."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from PIL import Image

from vision.codes import Variant
from vision.decode import make_decoder
from vision.labels import PX_PER_MM, SHEETS, pack_cards, write_labels
from vision.scan import load_image


@pytest.mark.parametrize(("sheet", "page_px", "per_page"), [("a4", (2480, 3508), 12), ("letter", (2550, 3300), 9),
                                                            ("avery-22806", (2550, 3300), 12)])
def test_each_sheet_has_its_page_size_and_every_code_reads(tmp_path: Path, sheet: str, page_px: tuple[int, int],
                                                           per_page: int) -> None:
    labels = write_labels("E5", "euchre", tmp_path / sheet, backs=False, sheet=sheet)
    assert Image.open(labels.pngs[0]).size == page_px
    assert sum(1 for page, _, _ in labels.placed if page == 0) == per_page
    found = []
    decoder = make_decoder("zxing")
    for png in labels.pngs:  # a phone photo: a quarter of the size, a little blur
        small = cv2.GaussianBlur(cv2.resize(load_image(png), None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA),
                                 (0, 0), 0.7)
        found += [s.code.card.code for s in decoder.read(small).sightings if s.code.card is not None]
    assert sorted(found) == sorted(c.code for c in pack_cards("euchre"))


def test_avery_22806_stickers_sit_on_the_die_cut_squares(tmp_path: Path) -> None:
    """2 x 2 in squares, 3 across and 4 down, 0.625 in from the left and top edges, 2.625 in and
    2.5833 in apart: every sticker's ink lies inside its square and the code is 30 dots a module."""
    labels = write_labels("E5", "euchre", tmp_path / "sq", sheet="avery-22806")
    page = cv2.cvtColor(load_image(labels.pngs[0]), cv2.COLOR_BGR2GRAY)
    dpi = 300
    ink = page < 200
    squares = [(round((0.625 + c * 2.625) * dpi), round((0.625 + r * 2.5833) * dpi))
               for r in range(4) for c in range(3)]
    inside = ink.copy()
    for x, y in squares:
        assert ink[y:y + 2 * dpi, x:x + 2 * dpi].any()
        inside[y:y + 2 * dpi, x:x + 2 * dpi] = False
    assert not inside.any()  # no ink off the labels
    layout = SHEETS["avery-22806"]
    assert layout.module_px[Variant.MICRO] / PX_PER_MM == pytest.approx(2.54, abs=0.01)
    assert SHEETS["a4"].module_px[Variant.MICRO] / layout.module_px[Variant.MICRO] == pytest.approx(35 / 30)


def test_labels_command_takes_a_sheet_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    from firmware_host.cli import main

    assert main(["labels", "--pack", "B7", "--game", "euchre", "--out", str(tmp_path / "l"), "--sheet", "letter"]) == 0
    with pytest.raises(ValueError, match="unknown sheet"):
        write_labels("B7", "euchre", tmp_path / "x", sheet="a5")
