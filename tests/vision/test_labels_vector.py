"""Label sheets a print shop can use (issue 21): a vector PDF (code modules and letters as paths, no
picture in it), small, whose every code reads back at its place when the PDF itself is rendered; and a bare
``cardtable labels`` that works."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from firmware_host.cli import main
from vision.decode import make_decoder
from vision.labels import pack_cards, write_labels
from vision.scan import load_image


def _streams(pdf: bytes) -> list[bytes]:
    return [zlib.decompress(m.group(1)) for m in re.finditer(rb"stream\n(.*?)\nendstream", pdf, re.S)]


def test_the_pdf_is_vector_and_small(tmp_path: Path) -> None:
    sheet = write_labels("B7", "contract-bridge", tmp_path / "b7")
    pdf = sheet.pdf.read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/Image" not in pdf and b"/DCTDecode" not in pdf  # no raster anywhere
    text = b"\n".join(_streams(pdf))
    assert text.count(b" re") >= 52 * 20  # the code modules as rectangles
    assert b" c" in text and b"/G" in text  # letters as curves, each glyph drawn once and placed
    assert pdf.count(b"/Type /Page ") == len(sheet.pngs) == 5
    assert len(pdf) < 100_000, len(pdf)  # was 2 MB as a raster PDF


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm is not installed (Debian: poppler-utils)")
@pytest.mark.parametrize(("game", "variant", "sheet_name"), [("euchre", "micro", "a4"),
                                                             ("contract-bridge", "qr", "avery-22806")])
def test_every_code_of_the_rendered_pdf_reads_at_its_place(tmp_path: Path, game: str, variant: str,
                                                           sheet_name: str) -> None:
    sheet = write_labels("C4", game, tmp_path / "c4", variant, sheet=sheet_name)
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(sheet.pdf), str(tmp_path / "r")], check=True, timeout=120)
    decoder = make_decoder("zxing", variants=(variant,))
    found = []
    for page_no, png in enumerate(sorted(tmp_path.glob("r-*.png"))):
        for s in decoder.read(load_image(png)).sightings:
            assert s.code.pack == "C4"
            found.append((page_no, s.code.card.code if s.code.card else None, s.x * 3, s.y * 3))  # 100 -> 300 dpi
    assert sorted(c for _, c, _, _ in found) == sorted(c.code for c in pack_cards(game))
    for page_no, card, (x, y) in sheet.placed:  # where the raster preview puts it, within 1 mm
        assert any(p == page_no and c == card.code and abs(fx - x) < 12 and abs(fy - y) < 12  # type: ignore[union-attr]
                   for p, c, fx, fy in found), (page_no, card)


def test_bare_labels_writes_pack_a1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["labels"]) == 0
    finally:
        os.chdir(here)
    assert (tmp_path / "labels-A1.pdf").is_file() and (tmp_path / "labels-A1-1.png").is_file()
    assert "labels-A1.pdf" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm is not installed (Debian: poppler-utils)")
def test_bidding_cards_are_a_vector_pdf_whose_every_call_reads_at_its_place(tmp_path: Path) -> None:
    """The bidding box's cards (``labels --bidding``) go to the same print shop: vector too."""
    from vision.bidding_labels import write_bidding_labels

    sheet = write_bidding_labels(tmp_path / "bid", seats="NS", passes=2, doubles=1, redoubles=1)
    pdf = sheet.pdf.read_bytes()
    assert b"/Image" not in pdf and b"/DCTDecode" not in pdf  # no raster anywhere
    assert len(pdf) < 100_000, len(pdf)
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(sheet.pdf), str(tmp_path / "r")], check=True, timeout=120)
    decoder = make_decoder("zxing")
    found = []
    for page_no, png in enumerate(sorted(tmp_path.glob("r-*.png"))):
        for c in decoder.read(load_image(png)).calls:
            found.append((page_no, (c.code.seat.value, c.code.call.code, c.code.copy), c.x * 3, c.y * 3))  # 100 -> 300 dpi
    assert sorted(k for _, k, _, _ in found) == sorted((code.seat.value, code.call.code, code.copy) for _, code, _ in sheet.placed)
    for page_no, code, (x, y) in sheet.placed:  # where the raster preview puts it, within 1 mm
        assert any(p == page_no and k == (code.seat.value, code.call.code, code.copy) and abs(fx - x) < 12 and abs(fy - y) < 12
                   for p, k, fx, fy in found), (page_no, code)
