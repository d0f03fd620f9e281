"""``scan`` sizes each code as the symbol it is, and places the card from it whichever decoder read it
(vision/CARD_CODES.md, "Reading a frame": ``px_per_module`` over 13 or 21 modules, the card's centre 2.3 or
5.5 modules up the sticker). Before: a zxing reading both symbols (``scan``'s default then) sized every code as
a Micro QR, so a QR label's ``px_per_module`` and card centre were wrong; and pyzbar's corners came in the
picture's order, not the symbol's, so its card centre ignored which way the card lay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from laws.cards import Card
from vision.decode import make_decoder
from vision.render import Degrade, Scene, render
from vision.scan import scan_image

ROOT = Path(__file__).resolve().parent.parent.parent


def _cards(decoder: object, img: np.ndarray) -> dict[str, tuple[int, int, float]]:
    return {c["card"]: (c["card_x"], c["card_y"], c["px_per_module"]) for c in scan_image(decoder, img, "x")["cards"]}


@pytest.mark.parametrize("angle", [0, 90, 30])
def test_a_qr_and_a_micro_qr_in_one_frame_are_each_sized_as_themselves(angle: int) -> None:
    scene = Scene()
    scene.place(Card.parse("TD"), "B7", at=(400, 225), angle=angle, variant="qr")
    scene.place(Card.parse("AS"), "B7", at=(200, 225), angle=angle)
    img = render(scene, (1280, 720), Degrade(), np.random.default_rng(0))
    both = _cards(make_decoder("zxing", variants=("micro", "qr")), img)
    assert both["TD"] == _cards(make_decoder("zxing", variants=("qr",)), img)["TD"]
    assert both["AS"] == _cards(make_decoder("zxing", variants=("micro",)), img)["AS"]
    assert both["TD"][2] < both["AS"][2]       # the QR's 21 modules are smaller on the same sticker


def test_a_small_qr_is_sized_as_a_qr() -> None:
    """p1: at the 1200 x 675 mm band's framing at 720p (CARD_CODES.md, "Table framing") a QR label's module
    is 1.9 px; the decoder read it (its second look) but ``scan`` asked zxing-cpp again on the code's crop at
    the frame's own scale, read nothing there and sized the QR as a Micro QR: ``px_per_module`` 3.0 instead
    of 1.9, and the card's centre 3 mm off. The decoder now says which symbol each read was."""
    scene = Scene(table_mm=(1200.0, 675.0))
    scene.place(Card.parse("TD"), "B7", at=(600, 337), angle=20, variant="qr")
    scene.place(Card.parse("AS"), "B7", at=(400, 337), angle=20)
    img = render(scene, (1280, 720), Degrade(blur=0.5, noise=2), np.random.default_rng(0))
    px_mm = 720 / 675
    for variants in (("micro", "qr"), ("qr",)):
        got = _cards(make_decoder("zxing", variants=variants), img)
        assert abs(got["TD"][2] - 1.778 * px_mm) < 0.15, (variants, got)
    got = _cards(make_decoder("zxing", variants=("micro", "qr")), img)
    assert abs(got["AS"][2] - 2.963 * px_mm) < 0.15, got


@pytest.mark.parametrize("angle", [0, 90, 180, -90, 30, 135])
def test_pyzbar_places_the_card_up_the_sticker_whichever_way_it_lies(angle: int) -> None:
    scene = Scene()
    scene.place(Card.parse("TD"), "B7", at=(400, 225), angle=angle, variant="qr")
    img = render(scene, (1920, 1080), Degrade(), np.random.default_rng(0))
    zbar = _cards(make_decoder("pyzbar"), img)["TD"]
    zx = _cards(make_decoder("zxing", variants=("qr",)), img)["TD"]
    assert abs(zbar[0] - zx[0]) <= 2 and abs(zbar[1] - zx[1]) <= 2


def test_an_empty_zones_section_is_refused_not_the_default_zones(tmp_path: Path) -> None:
    """CARD_CODES.md: ``[zones]`` replaces the defaults as a whole, and an empty one is refused at start. It
    was taken as no section at all: the default zones."""
    cfg = tmp_path / "table.toml"
    cfg.write_text("[zones]\n")
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "scan", "--config", str(cfg), str(cfg)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "zones: want one table per zone" in done.stderr


def test_variants_qr_reads_no_micro_qr() -> None:
    """Audit 61: asked for QR alone, zxing-cpp returns the Micro QR codes it finds too, and ``--variants qr``
    read Micro QR cards in the whole-frame pass; the decoder reads the symbols of its ``variants`` only."""
    scene = Scene()
    scene.place(Card.parse("TD"), "B7", at=(400, 225), angle=20, variant="qr")
    scene.place(Card.parse("AS"), "B7", at=(200, 225), angle=20)
    img = render(scene, (1280, 720), Degrade(blur=0.5, noise=2), np.random.default_rng(0))
    for remedies in ((), None):
        read = {v: set(_cards(make_decoder("zxing", variants=v, remedies=remedies), img))
                for v in (("qr",), ("micro",), ("micro", "qr"))}
        assert read == {("qr",): {"TD"}, ("micro",): {"AS"}, ("micro", "qr"): {"TD", "AS"}}, remedies


def test_scan_has_one_default_variants_with_or_without_a_config(tmp_path: Path) -> None:
    """Audit 61: without ``--config`` scan read ``micro,qr``, with a ``--config`` whose ``[vision]`` did not
    name ``variants`` it read the table's default, ``micro``: the same picture read 119 QR codes or none.
    Both are the table's default now (both symbols, as CARD_CODES.md says a reader accepts either), and
    ``--variants`` or the config's key choose one."""
    scene = Scene()
    scene.place(Card.parse("TD"), "B7", at=(400, 225), angle=20, variant="qr")
    scene.place(Card.parse("AS"), "B7", at=(200, 225), angle=20)
    img = tmp_path / "t.png"
    cv2.imwrite(str(img), render(scene, (1280, 720), Degrade(blur=0.5, noise=2), np.random.default_rng(0)))
    bare, qr = tmp_path / "bare.toml", tmp_path / "qr.toml"
    bare.write_text("[vision]\ntable_mm = [800, 450]\n")
    qr.write_text('[vision]\nvariants = ["micro"]\n')

    def read(*argv: str) -> set[str]:
        done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "scan", *argv, str(img)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return {c["card"] for c in json.loads(done.stdout)["cards"]}

    assert read() == read("--config", str(bare)) == {"AS", "TD"}
    assert read("--variants", "micro") == read("--config", str(qr)) == {"AS"}


@pytest.mark.parametrize("value", ["aztec", ",", "micro,aztec"])
def test_a_wrong_variants_option_is_named(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """p1: ``scan --variants aztec`` said "unknown code variants ['aztec'] (want micro and/or qr)" and
    ``--variants ,`` "unknown code variants []": neither named the option, as ``--remedies`` does."""
    from firmware_host.cli import main

    assert main(["scan", "--variants", value, str(ROOT / "README.md")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"cardtable scan: --variants: want micro, qr or both, comma-separated, got {value!r}", err



def test_pyzbar_reads_a_qr_bidding_card_beside_a_playing_card() -> None:
    """p1: ``labels --bidding --variant qr`` prints bidding cards for a table whose decoder is pyzbar
    (CARD_CODES.md, "The printed bidding card"), but pyzbar read only the card-shaped regions of a frame
    (1.25 to 1.9 times as long as wide) once any lay there: a bidding card (57 x 66 mm) is never one, so with a
    playing card in view no call was ever read (0 of 84 on p1's pictures at 720p and 1080p). It reads the
    whole frame too now. The bidding card is drawn here as printed: the QR's 1.778 mm modules on a white
    57 x 66 mm card (its 2-module quiet zone and the card stock's 3 mm)."""
    from laws.bridge.calls import parse_call
    from vision.codes import Variant, encode_call_payload, symbol_modules

    scene = Scene()
    scene.place(Card.parse("TD"), "B7", at=(400, 225), angle=10, variant="qr")
    img = render(scene, (1920, 1080), Degrade(blur=0.5, noise=2), np.random.default_rng(0))
    px_mm = 1920 / 800
    card = np.full((round(66 * px_mm), round(57 * px_mm)), 255, np.uint8)
    sym = symbol_modules(encode_call_payload("N", parse_call("1H")), Variant.QR)
    side = round(21 * 1.778 * px_mm)
    sym = cv2.resize(sym, (side, side), interpolation=cv2.INTER_AREA)
    top, left = card.shape[0] - round(7.6 * px_mm) - side, (card.shape[1] - side) // 2
    card[top:top + side, left:left + side] = sym
    y, x = round(20 * px_mm), round(370 * px_mm)       # in North's zone
    img[y:y + card.shape[0], x:x + card.shape[1]] = card[:, :, None]
    reading = make_decoder("pyzbar").read(img)
    assert [s.code.card.code for s in reading.sightings if s.code.card] == ["TD"]
    assert [(c.code.seat.value, c.code.call.code) for c in reading.calls] == [("N", "1H")]
