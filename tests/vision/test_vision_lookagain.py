"""The second look (``vision.lookagain``) on frames of the second generator (``vision.photo``)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware_host.cli import main
from laws.cards import Card
from vision import deblur, lookagain
from vision.decode import ZxingDecoder, _one_per_code, make_decoder
from vision.measure_degrade import random_shot
from vision.photo import Item, Shot, camera_homography, foreign_texts, payload, photo_frame


@pytest.mark.parametrize(("kind", "seed"), [("glare", 4), ("defocus", 1)])
def test_second_look_reads_codes_the_whole_frame_read_misses(kind: str, seed: int) -> None:
    """Frames in which the decoder of before the second look missed a visible card (a code half under
    a glare patch; a defocused code at under 3 px per module): every visible card reads now."""
    rng = np.random.default_rng(seed)
    frame, truths = photo_frame(random_shot(rng, (1280, 720), kind), rng)
    visible = {t.text for t in truths if t.inside and not t.foreign}
    reading = make_decoder("zxing").read(frame)
    got = {payload(s.code.pack, s.code.card) for s in reading.sightings}
    assert got == visible


def test_hands_over_the_cards_hide_codes_and_invent_none() -> None:
    """The second generator's hands: codes under a hand are marked covered (not visible), every visible
    card still reads, and neither skin nor a half-hidden code gives a false card."""
    rng = np.random.default_rng(3)
    covered = 0
    for _ in range(3):
        frame, truths = photo_frame(random_shot(rng, (1280, 720), "hands"), rng)
        got = {payload(s.code.pack, s.code.card) for s in make_decoder("zxing").read(frame).sightings}
        visible = {t.text for t in truths if t.inside and not t.covered and not t.foreign}
        covered += sum(t.covered for t in truths)
        assert visible <= got <= {t.text for t in truths if not t.foreign}
    assert covered >= 6


def test_foreign_codes_that_decode_are_never_cards() -> None:
    """Wrong check character, another version, a six-character text, a URL: read, rejected, counted."""
    items = tuple(Item(text, -300 + 150 * i, 0.0, 20.0 * i, foreign=True, micro=micro)
                  for i, (text, micro) in enumerate(foreign_texts()))
    items += (Item(payload("B7", Card.parse("QS")), 0.0, 150.0, 15.0, Card.parse("QS")),)
    frame, _ = photo_frame(Shot(size=(1280, 720), field_mm=900, items=items), np.random.default_rng(0))
    decoder = make_decoder("zxing")
    reading = decoder.read(frame)
    assert [s.code.card for s in reading.sightings] == [Card.parse("QS")]
    assert {r.reason for r in reading.rejections} >= {"check", "version", "length"}
    assert sum(decoder.rejected.values()) == len(reading.rejections) >= 4


def test_the_same_code_read_twice_is_one_card_but_two_stickers_are_two() -> None:
    square = [(0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0)]
    near = [(x + 3, y + 2) for x, y in square]
    far = [(x + 200, y) for x, y in square]
    raw = [("1B7AS0", square, 0.9, "micro"), ("1B7AS0", near, 0.8, "micro"), ("1B7AS0", far, 1.0, "micro"),
           ("1B7KH0", near, 1.0, "micro")]
    assert [(t, c[0]) for t, c, *_ in _one_per_code(raw)] == [("1B7AS0", (0.0, 0.0)), ("1B7AS0", (200.0, 0.0)),
                                                            ("1B7KH0", (3.0, 2.0))]


def test_candidates_are_found_in_a_dark_corner_and_beside_glare() -> None:
    """Relative darkness does not care how much light falls: a code at a tenth of the light of another
    is found as well as it."""
    items = (Item(payload("B7", Card.parse("2C")), -380, -200, 30.0, Card.parse("2C")),
             Item(payload("B7", Card.parse("3C")), 200, 50, -10.0, Card.parse("3C")))
    shot = Shot(size=(1280, 720), field_mm=1000, vignette=0.9, light=0.5, items=items, glare=0.8,
                glare_at=(0.62, 0.62), glare_size=0.05)
    frame, truths = photo_frame(shot, np.random.default_rng(3))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    side = truths[0].px_per_module * 13
    cands = lookagain.code_candidates(gray, (0.7 * side, 1.4 * side))
    for t in truths:
        assert any(abs(c.x - t.x) < side / 2 and abs(c.y - t.y) < side / 2 for c in cands), t


def test_blur_direction_finds_the_smear_and_deblur_sharpens_along_it() -> None:
    rng = np.random.default_rng(0)
    modules = (rng.random((13, 13)) > 0.5).astype(np.uint8) * 255
    img = cv2.resize(modules, (104, 104), interpolation=cv2.INTER_NEAREST)
    kernel = np.zeros((9, 9), np.float32)
    kernel[4, :] = 1 / 9  # a horizontal smear of 9 px
    smeared = cv2.filter2D(img, -1, kernel)
    angle, strength = deblur.blur_direction(smeared)
    assert strength > 0.5
    assert min(abs(angle % 180), abs(angle % 180 - 180)) < 10
    fixed = deblur.Deblur(smeared)(9, angle, 0.02)
    err = lambda a: float(np.abs(a.astype(int) - img)[10:-10, 10:-10].mean())  # noqa: E731
    assert err(fixed) < 0.7 * err(smeared)


def _smear_linear(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    """``img`` smeared ``length`` px at ``angle`` degrees the way a sensor does it: in linear light."""
    n = int(length) + 5 | 1
    kernel = np.zeros((n, n), np.float32)
    for t in np.linspace(-length / 2, length / 2, int(length * 8)):
        a = np.radians(angle)
        kernel[int(round(n // 2 + t * np.sin(a))), int(round(n // 2 + t * np.cos(a)))] += 1
    lin = (img.astype(np.float32) / 255) ** 2.2
    lin = cv2.filter2D(lin, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REFLECT)
    return (np.clip(lin, 0, 1) ** (1 / 2.2) * 255 + 0.5).astype(np.uint8)


@pytest.mark.parametrize(("length", "angle"), [(12.0, 30.0), (20.0, -70.0), (28.0, 100.0)])
def test_a_smear_is_measured_in_length_and_direction(length: float, angle: float) -> None:
    """The trough of the derivative's autocorrelation along the motion: within a tenth of the length
    and a few degrees, though the code's own edges run along two other axes."""
    rng = np.random.default_rng(1)
    modules = (rng.random((13, 13)) > 0.5).astype(np.uint8) * 200 + 30
    img = cv2.copyMakeBorder(cv2.resize(modules, (91, 91), interpolation=cv2.INTER_NEAREST), 40, 40, 40, 40,
                             cv2.BORDER_CONSTANT, value=230)
    got_angle, got_length, strength = deblur.smear(_smear_linear(img, length, angle), 7.0)
    assert strength > deblur.DIRECTIONAL
    assert got_length == pytest.approx(length, rel=0.1)
    assert abs((got_angle - angle + 90) % 180 - 90) < 5


@pytest.mark.parametrize(("seed", "exposure_s"), [(0, 0.008), (1, 0.008), (2, 0.012), (3, 0.012)])
def test_cards_smeared_over_two_modules_read(seed: int, exposure_s: float) -> None:
    """Six cards slid at 0.9 m/s under an 8 or 12 ms exposure at 1080p: each smeared 2.4 or 3.6 modules.
    The decoder of before reads none of them; now at least four of the six are measured, deconvolved and read
    (``look_at_card``: each card shape in which nothing was read)."""
    rng = np.random.default_rng(seed)
    cards = [Card.parse(c) for c in ("AS", "KH", "QD", "JC", "TS", "9H")]
    items = tuple(Item(payload("B7", c), -320 + 130 * i, float(rng.uniform(-150, 150)),
                       float(rng.uniform(-180, 180)), c, speed=900.0, heading=float(rng.uniform(0, 360)))
                  for i, c in enumerate(cards))
    frame, truths = photo_frame(Shot(size=(1920, 1080), field_mm=1000, exposure_s=exposure_s, gain=3.0,
                                     items=items), rng)
    assert all(t.inside and 2.2 < t.smear_modules / (exposure_s / 0.008) < 2.6 for t in truths)
    texts = {t.text for t in truths}
    now = {payload(s.code.pack, s.code.card) for s in make_decoder("zxing").read(frame).sightings}
    before = {payload(s.code.pack, s.code.card) for s in ZxingDecoder(second_look=False).read(frame).sightings}
    assert now <= texts and before <= texts
    assert len(now) >= 4 and len(before) <= 1


def test_scan_gives_code_and_card_centres_and_counts_rejections_by_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``x, y`` is the code's centre, ``card_x, card_y`` the card's (the code sits below the sticker's
    centre, CARD_CODES.md); ``--stats`` ends with the rejected texts counted by reason."""
    qs = Card.parse("QS")
    items = tuple(Item(text, -300 + 150 * i, -150.0, 20.0 * i, foreign=True, micro=micro)
                  for i, (text, micro) in enumerate(foreign_texts()))
    items += (Item(payload("B7", qs), 0.0, 120.0, 150.0, qs),)
    shot = Shot(size=(1280, 720), field_mm=900, items=items)
    frame, truths = photo_frame(shot, np.random.default_rng(0))
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), frame)
    assert main(["scan", str(path), "--stats"]) == 0
    record, stats = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    (got,) = record["cards"]
    code = truths[-1]
    assert abs(got["x"] - code.x) <= 2 and abs(got["y"] - code.y) <= 2
    card_px = cv2.perspectiveTransform(np.float64([[[0.0, 120.0]]]), camera_homography(shot))[0][0]
    assert abs(got["card_x"] - card_px[0]) <= 3 and abs(got["card_y"] - card_px[1]) <= 3
    assert got["px_per_module"] == pytest.approx(code.px_per_module, rel=0.05)
    assert stats["stats"]["images"] == 1 and stats["stats"]["cards"] == 1
    assert stats["stats"]["rejected"]["check"] >= 1 and stats["stats"]["rejected"]["version"] >= 1


def test_scan_help_documents_every_json_field(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["scan", "--help"])
    text = capsys.readouterr().out
    for name in ("card_x, card_y", "x, y", "px_per_module", "face_up", "zone", "unreadable", "--stats", "check"):
        assert name in text


def test_a_label_sheet_seen_by_the_table_camera_reads_every_sticker(tmp_path: Path) -> None:
    """A printed A4 page of 12 stickers lying on the felt, seen at 1.0 px/mm (3 px per module): one pale
    shape to the card-shape finder, twelve codes to the second look."""
    from vision.labels import PX_PER_MM, write_labels
    from vision.scan import load_image

    sheet = write_labels("B7", "euchre", tmp_path / "sheet")
    page = load_image(sheet.pngs[0])
    small = cv2.resize(page, None, fx=1.0 / PX_PER_MM, fy=1.0 / PX_PER_MM, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 10, 1.0)
    turn[:, 2] += (380 - w / 2, 420 - h / 2)
    frame = np.full((720, 1280, 3), (40, 100, 30), np.uint8)
    frame = cv2.warpAffine(small, turn, (1280, 720), dst=frame, borderMode=cv2.BORDER_TRANSPARENT)
    frame = np.clip(frame + np.random.default_rng(0).normal(0, 2, frame.shape), 0, 255).astype(np.uint8)
    got = {s.code.card for s in make_decoder("zxing").read(frame).sightings}
    assert got == {c for p, c, _ in sheet.placed if p == 0}
