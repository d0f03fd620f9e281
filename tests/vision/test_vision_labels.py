"""Label sheets a club can print: A4, US Letter and the Avery 22806 die-cut squares."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
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


# -- bidding cards (``labels --bidding``) -------------------------------------------------------------

@pytest.mark.parametrize(("sheet", "variant"), [("a4", "micro"), ("letter", "micro"), ("avery-22806", "micro"),
                                                ("a4", "qr")])
def test_every_bidding_card_printed_reads_back_as_its_seat_call_and_copy(tmp_path: Path, sheet: str,
                                                                         variant: str) -> None:
    from vision.bidding_labels import seat_set, write_bidding_labels

    sheet_ = write_bidding_labels(tmp_path / "bid", seats="E", sheet=sheet, variant=variant, passes=3)
    want = seat_set("E", passes=3)
    assert [code for _, code, _ in sheet_.placed] == want and len(want) == 35 + 3 + 2 + 2
    assert sum(1 for page, _, _ in sheet_.placed if page == 0) == 12
    decoder = make_decoder("zxing", variants=(variant,))
    found = []
    for png in sheet_.pngs:
        small = cv2.GaussianBlur(cv2.resize(load_image(png), None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA),
                                 (0, 0), 0.7)
        reading = decoder.read(small)
        assert reading.sightings == ()  # never a playing card
        found += [c.code for c in reading.calls]
    assert sorted(found, key=want.index) == want


def test_the_bidding_label_is_51_by_60_mm_and_its_code_where_the_document_says(tmp_path: Path) -> None:
    from vision.bidding_labels import write_bidding_labels

    sheet = write_bidding_labels(tmp_path / "bid", seats="N", passes=1, doubles=1, redoubles=1)
    page = cv2.cvtColor(load_image(sheet.pngs[0]), cv2.COLOR_BGR2GRAY)
    _, code, (cx, cy) = sheet.placed[0]
    assert code.call.code == "1C"
    first = page[:840, :930]  # the first label and its margins (the next one begins 6 mm on)
    grey = np.argwhere((first > 150) & (first < 230))  # its cut line
    (top, left), (bottom, right) = grey.min(axis=0), grey.max(axis=0)
    assert (right - left + 1, bottom - top + 1) == (602, 709)
    assert cx == left + 301 and cy == top + 709 - 12 - 595 // 2


def test_labels_command_prints_bidding_cards_and_refuses_mixed_flags(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.cli import main

    assert main(["labels", "--bidding", "--seats", "NS", "--passes", "2", "--out", str(tmp_path / "b")]) == 0
    assert "82 bidding cards" in capsys.readouterr().out
    for argv, said in ((["--bidding", "--pack", "B7"], "leave out --pack"),
                       (["--bidding", "--game", "euchre", "--backs"], "leave out --game and --backs"),
                       (["--pack", "B7", "--game", "euchre", "--seats", "N"], "--seats go with --bidding"),
                       (["--bidding", "--passes", "0"], "passes: want 1 to 35"),
                       (["--bidding", "--redoubles", "36"], "redoubles: want 1 to 35"),
                       (["--bidding", "--seats", "NN"], "each once")):
        assert main(["labels", *argv, "--out", str(tmp_path / "x")]) == 2, argv
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err, (argv, err)
    for flags in (["--bidding"], ["--pack", "B7"]):  # a sheet named like another file is refused, not renamed
        assert main(["labels", *flags, "--out", str(tmp_path / "cards.pbn")]) == 2
        err = capsys.readouterr().err
        assert "FILE or FILE.pdf (not .pbn)" in err and not (tmp_path / "cards.pdf").exists(), err
    # a pack's flags have defaults (issue 21: a bare `cardtable labels` works): --game alone is pack A1
    assert main(["labels", "--game", "euchre", "--out", str(tmp_path / "a1")]) == 0
    assert (tmp_path / "a1.pdf").is_file()


def _documented_grid(sheet: str) -> tuple[list[int], list[int], int]:
    """The columns' left edges, the rows' top edges and the dots left below, as CARD_CODES.md's table of
    the sticker sheets gives them for ``sheet`` (``A4``, ``Letter``)."""
    import re

    doc = (Path(__file__).resolve().parents[2] / "vision" / "CARD_CODES.md").read_text(encoding="utf-8")
    row = re.search(rf"^\| {sheet} \| [^|]+ \| [^|]+ \| ([\d, ]+) dots \| ([\d, ]+) dots \| (\d+) dots", doc, re.M)
    assert row, sheet
    cols, rows = ([int(v) for v in g.split(",")] for g in row.groups()[:2])
    return cols, rows, int(row.group(3))


def _cut_line_corners(png: Path) -> tuple[list[int], list[int]]:
    """Where the stickers' grey cut lines start on a printed page: their left edges and top edges (dots)."""
    page = np.array(Image.open(png).convert("L"))
    grey = page == 200
    def starts(lines: np.ndarray) -> list[int]:  # where each run of grey lines starts (a line may be 2 dots)
        at = np.flatnonzero(lines > 1000)
        return [int(v) for i, v in enumerate(at) if i == 0 or at[i - 1] != v - 1]

    # each sticker has two lines each way: its top and bottom, its left and right
    return starts(grey.sum(axis=0))[0::2], starts(grey.sum(axis=1))[0::2]


@pytest.mark.parametrize(("sheet", "name"), [("a4", "A4"), ("letter", "Letter")])
def test_the_sticker_grid_is_where_the_document_says_down_the_page_too(tmp_path: Path, sheet: str, name: str) -> None:
    """Audit 61: "Label geometry" said the stickers lie 6 mm apart, centred across the page, but not where
    they sit from top to bottom. The table it gives now is read here and checked against a printed page's
    cut lines: the first row 71 dots (6 mm) below the page's top, rows 851 dots apart, the rest left below."""
    cols, rows, below = _documented_grid(name)
    png = write_labels("E5", "contract-bridge", tmp_path / sheet, sheet=sheet).pngs[0]
    lefts, tops = _cut_line_corners(png)
    assert (lefts, tops) == (cols, rows)
    sticker_h = round(SHEETS[sheet].sticker_mm[1] * PX_PER_MM)
    assert Image.open(png).size[1] - (rows[-1] + sticker_h) == below
    assert rows[0] == round(SHEETS[sheet].gap_mm * PX_PER_MM) == 71


@pytest.mark.parametrize(("sheet", "name", "below_mm"), [("a4", "A4", 32.9), ("letter", "Letter", 15.2)])
def test_the_bidding_labels_lie_down_the_page_where_the_document_says(tmp_path: Path, sheet: str, name: str,
                                                                      below_mm: float) -> None:
    """The bidding labels (51 x 60 mm) are laid as the stickers are: the same columns, rows from 71 dots down,
    as "The printed bidding card" now says."""
    import re

    from vision.bidding_labels import write_bidding_labels

    doc = (Path(__file__).resolve().parents[2] / "vision" / "CARD_CODES.md").read_text(encoding="utf-8")
    said = re.search(r"rows' top edges at ([\d, ]+) dots, leaving (\d+) dots \(([\d.]+) mm\) below the last row\s+on "
                     r"A4 and (\d+) dots \(([\d.]+) mm\) on Letter", doc)
    assert said
    rows = [int(v) for v in said.group(1).split(",")]
    below = int(said.group(2 if sheet == "a4" else 4))
    assert float(said.group(3 if sheet == "a4" else 5)) == below_mm == round(below / PX_PER_MM, 1)
    png = write_bidding_labels(tmp_path / "bid", seats="N", sheet=sheet).pngs[0]
    lefts, tops = _cut_line_corners(png)
    assert (lefts, tops) == (_documented_grid(name)[0], rows)
    assert Image.open(png).size[1] - (rows[-1] + round(60 * PX_PER_MM)) == below


def test_the_qr_variant_on_die_cut_squares_is_as_the_document_says(tmp_path: Path) -> None:
    """p1: CARD_CODES.md gave the die-cut label's code block for Micro QR only (17 modules of 30 dots);
    ``--variant qr --sheet avery-22806`` prints the A4 sticker's QR block (25 modules of 21 dots), which moves
    the card centre ``scan`` reports 7.6 mm, not 3 mm. The document now says so; the label is checked here."""
    doc = (Path(__file__).resolve().parents[2] / "vision" / "CARD_CODES.md").read_text(encoding="utf-8")
    assert "With `--variant qr` the die-cut label's code block is the A4 sticker's: 25 modules of 21 dots" in doc
    labels = write_labels("B7", "contract-bridge", tmp_path / "sq", variant="qr", sheet="avery-22806")
    page = cv2.cvtColor(load_image(labels.pngs[0]), cv2.COLOR_BGR2GRAY)
    x0 = y0 = round(0.625 * 300)
    ys, xs = np.nonzero(page[y0 + 70:y0 + 600, x0:x0 + 600] < 100)   # below the line of text: the symbol
    assert xs.max() + 1 - xs.min() == 21 * 21 and ys.max() + 1 - ys.min() == 21 * 21
    assert abs(xs.min() - (600 - 21 * 21) / 2) <= 1                   # centred across the 600-dot square
    assert abs(ys.max() + 1 + 70 - (600 - 12 - 2 * 21)) <= 1           # 2 quiet modules and 1 mm above its edge
