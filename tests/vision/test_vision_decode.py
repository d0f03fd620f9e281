"""Decoders on real rendered images: zxing-cpp and pyzbar behind one interface, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
import zxingcpp
from conftest import card, frame_of, spread_scene

from laws.cards import Card
from vision.codes import CardCode, check_char
from vision.decode import FrameError, PyzbarDecoder, ZxingDecoder, make_decoder
from vision.render import Degrade

CODES = ["AS", "TD", "7H", "2C", "KH", "9S"]


def _read_cards(decoder, frame) -> set[CardCode]:  # type: ignore[no-untyped-def]
    return {s.code for s in decoder.read(frame).sightings}


def test_zxing_reads_micro_qr_cards() -> None:
    frame = frame_of(spread_scene(CODES))
    got = _read_cards(make_decoder("zxing"), frame)
    assert got == {CardCode("B7", card(c)) for c in CODES}


@pytest.mark.parametrize("name", ["zxing", "pyzbar"])
def test_both_backends_read_the_same_qr_variant_image(name: str) -> None:
    frame = frame_of(spread_scene(CODES, variant="qr"), size=(1920, 1080), degrade=Degrade(blur=0.6, noise=3, jpeg=85))
    decoder = ZxingDecoder(variants=("qr",)) if name == "zxing" else PyzbarDecoder()
    reading = decoder.read(frame)
    assert {s.code for s in reading.sightings} == {CardCode("B7", card(c)) for c in CODES}
    for s in reading.sightings:  # positions agree with where the renderer put the card (1920/800 px/mm)
        assert any(abs(s.x - p.x * 2.4) < 15 and abs(s.y - p.y * 2.4) < 15
                   for p in spread_scene(CODES).placements if p.card == s.code.card)


def _sheet(texts: list[str], fmt: zxingcpp.BarcodeFormat) -> np.ndarray:
    tiles = []
    for t in texts:
        b = zxingcpp.create_barcode(t, fmt)
        m = np.array(b.to_image(scale=1, add_quiet_zones=False), dtype=np.uint8)
        tiles.append(np.pad(np.kron(m, np.ones((6, 6), np.uint8)), 30, constant_values=255))
    side = max(t.shape[0] for t in tiles)
    tiles = [np.pad(t, ((0, side - t.shape[0]), (0, side - t.shape[1])), constant_values=255) for t in tiles]
    return np.ascontiguousarray(np.hstack(tiles))


def test_foreign_other_version_and_bad_check_are_counted_not_invented() -> None:
    texts = ["HELLO", "2B7AS" + check_char("2B7AS"), "1B7AS" + "0" if check_char("1B7AS") != "0" else "1B7AS1",
             "1B7KH" + check_char("1B7KH")]
    decoder = make_decoder("zxing")
    reading = decoder.read(_sheet(texts, zxingcpp.BarcodeFormat.MicroQRCode))
    assert [s.code for s in reading.sightings] == [CardCode("B7", Card("K", "H"))]
    assert sorted(r.reason for r in reading.rejections) == ["check", "length", "version"]
    assert decoder.rejected == {"check": 1, "length": 1, "version": 1}


def test_pyzbar_rejects_the_same_way() -> None:
    texts = ["1B7AS" + check_char("1B7AS"), "3ZZZZ" + check_char("3ZZZZ")]
    decoder = make_decoder("pyzbar")
    reading = decoder.read(_sheet(texts, zxingcpp.BarcodeFormat.QRCode))
    assert [s.code for s in reading.sightings] == [CardCode("B7", Card("A", "S"))]
    assert [r.reason for r in reading.rejections] == ["version"]


@pytest.mark.parametrize("bad", [None, "frame", np.zeros((0, 0, 3), np.uint8), np.zeros((50, 50), np.float32),
                                 np.zeros((4, 4, 3), np.uint8), np.zeros((50, 50, 2), np.uint8)])
def test_corrupt_frames_raise_frame_error(bad: object) -> None:
    for decoder in (make_decoder("zxing"), make_decoder("pyzbar")):
        with pytest.raises(FrameError):
            decoder.read(bad)  # type: ignore[arg-type]


def test_noise_frame_reads_nothing() -> None:
    noise = np.random.default_rng(3).integers(0, 256, (540, 960, 3), dtype=np.uint8)
    for decoder in (make_decoder("zxing"), make_decoder("pyzbar")):
        reading = decoder.read(noise)
        assert reading.sightings == ()


def test_blotted_card_is_a_card_shape_without_a_code() -> None:
    scene = spread_scene(["AS", "KS", "QS"])
    scene.place(card("JS"), "B7", at=(400, 380), angle=10, damage="blotted")
    reading = make_decoder("zxing").read(frame_of(scene))
    assert len(reading.sightings) == 3
    assert len(reading.unreadable) == 1
    x, y = reading.unreadable[0]
    assert abs(x - 400 * 1.2) < 20 and abs(y - 380 * 1.2) < 20


def test_worn_code_reads_with_heavy_error_correction() -> None:
    scene = spread_scene(["AS"])
    scene.place(card("JS"), "B7", at=(400, 300), angle=5, damage="worn")
    reading = make_decoder("zxing").read(frame_of(scene, degrade=Degrade()))
    heavy = {s.code.card.code for s in reading.sightings if s.heavy_ec and s.code.card}
    assert heavy == {"JS"}


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown decoder"):
        make_decoder("opencv")


def test_a_small_frame_is_read_at_twice_its_size_and_answered_in_its_own_pixels() -> None:
    """640x480 puts under 2 px on a module: the decoder reads the frame scaled up, and the positions it
    gives (codes, unreadable card shapes) are in the small frame's pixels."""
    import cv2

    from vision.render import render, table_to_frame

    codes = ["AS", "KH", "QD", "JC", "TS", "9H", "8D", "7C", "6S", "5H", "4D", "3C"]
    scene = spread_scene(codes)
    scene.place(card("2S"), "B7", at=(720, 380), angle=12, damage="blotted")
    harsh = Degrade(blur=0.9, noise=6, contrast=0.65, jpeg=65, tilt=0.02, light=0.3)
    frame = render(scene, (640, 480), harsh, np.random.default_rng(0))
    reading = make_decoder("zxing").read(frame)
    got = {s.code.card.code for s in reading.sightings if s.code.card}
    assert len(got & set(codes)) >= 8, sorted(got)  # read at its own size: 3
    for s in reading.sightings:
        assert 0 <= s.x < 640 and 0 <= s.y < 480 and all(0 <= x < 640 and 0 <= y < 480 for x, y in s.corners)
    bx, by = cv2.perspectiveTransform(np.float64([[[720, 380]]]), table_to_frame((640, 480), scene.table_mm))[0, 0]
    assert any(abs(x - bx) < 25 and abs(y - by) < 25 for x, y in reading.unreadable), (reading.unreadable, bx, by)
