"""Small codes out of focus read module by module (issue 37, sixth round; ``vision.regrid``).

At 2.3-2.7 px a module and a defocus of about one pixel the second look found these codes as candidates
and read none of them with any remedy; sampled at their modules' centres and decided by a model of the
blur, their modules come out right, and redrawn clean they read.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from tests.vision.test_glare import _outsider_frame
from vision import regrid
from vision.decode import ZxingDecoder


def _cards(frame: np.ndarray, by_grid: bool) -> set[str]:
    # before: the fifth round's decoder (no module-by-module read, nor the eighth round's lean masks, with which
    # one of these six, the 4D, reads without it)
    dec = ZxingDecoder() if by_grid else ZxingDecoder(regrid=False, lean=False)
    return {s.code.card.code for s in dec.read(frame).sightings if s.code.card}


def test_small_defocused_codes_are_read_module_by_module() -> None:
    """Seed 11 (a tuning seed), frame 9 at 1280x720: six playing cards at 2.35-2.65 px a module, defocus
    sigma 0.96 px. Main's decoder read none of them; each is read now, as its own card."""
    frame, cam = _outsider_frame(11, 9, (1280, 720))
    assert cam.blur > 0.9  # type: ignore[attr-defined]
    now, before = _cards(frame, True), _cards(frame, False)
    assert {"2C", "4D", "8H", "JC", "KH", "QC"} <= now - before
    assert before <= now


def _symbol(text: str) -> np.ndarray:
    import segno

    return np.array(segno.make_micro(text, version="M2", error="L").matrix, np.uint8)


def _picture(modules: np.ndarray, ppm: float, angle: float, sigma: float, seed: int = 0) -> np.ndarray:
    """``modules`` printed dark (30) on paper (220), ``ppm`` px a module, turned ``angle`` degrees about
    the picture's centre, defocused by a Gaussian of ``sigma`` px, with noise."""
    big = 16
    img = (np.kron(1 - modules, np.ones((big, big), np.uint8)) * 190 + 30).astype(np.uint8)
    img = cv2.copyMakeBorder(img, 8 * big, 8 * big, 8 * big, 8 * big, cv2.BORDER_CONSTANT, value=(220,))
    centre = (img.shape[1] / 2, img.shape[0] / 2)
    img = cv2.warpAffine(img, cv2.getRotationMatrix2D(centre, angle, 1.0), img.shape[::-1], borderValue=(220,))
    small = cv2.resize(img, None, fx=ppm / big, fy=ppm / big, interpolation=cv2.INTER_AREA).astype(np.float32)
    out = cv2.GaussianBlur(small, (0, 0), sigma) + np.random.default_rng(seed).normal(0, 3.0, small.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def test_the_fixed_parts_are_those_of_every_m2_symbol() -> None:
    for text in ("1ME4H7", "BN1CX7", "1ZZ9C3"):
        m = _symbol(text)
        assert m.shape == (regrid.N, regrid.N)
        assert (m[regrid.FIXED] == regrid.PATTERN[regrid.FIXED]).all()


def test_grid_angle_is_the_rows_angle_within_a_quarter_turn() -> None:
    img = _picture(_symbol("1ME4H7"), 8.0, 20.0, 0.5).astype(np.float32)
    # warpAffine turns counter-clockwise on the screen: rows at -20 degrees in image coordinates (y down)
    assert abs(((regrid.grid_angle(img) + 20.0 + 45) % 90) - 45) < 2.0


def test_fit_grid_finds_the_symbols_place_pitch_and_turn() -> None:
    m = _symbol("1ME4H7")
    img = _picture(m, 2.5, 0.0, 1.0)
    h, w = img.shape
    g = regrid.fit_grid(img.astype(np.float32), w / 2 + 2.0, h / 2 - 1.5, 2.2)  # the candidate's, off and small
    assert g.score > 0.8
    assert math.isclose(g.ppm, 2.5, rel_tol=0.06)
    assert math.dist((g.x, g.y), ((w - 1) / 2, (h - 1) / 2)) < 1.0
    assert g.turn == 0
    turned = np.ascontiguousarray(np.rot90(img))
    assert regrid.fit_grid(turned.astype(np.float32), h / 2, w / 2, 2.4).turn in (1, 3)


def test_decide_undoes_the_blur_where_one_threshold_cannot() -> None:
    """2.4 px a module, sigma 1.2 px: sampled at the true centres, no single threshold puts every module
    right (four are wrong at the best); the blur model does."""
    m = _symbol("189QC6")
    ppm = 2.4
    img = _picture(m, ppm, 0.0, 1.2, seed=3).astype(np.float32)
    h, w = img.shape
    g = regrid.Grid((w - 1) / 2, (h - 1) / 2, (ppm, 0.0), (0.0, ppm))
    dark = -regrid.sample(img, g.points())
    inner = dark[regrid.RING:-regrid.RING, regrid.RING:-regrid.RING]
    best_threshold = max(int(((inner > t) == m).sum()) for t in np.unique(inner))
    assert best_threshold < regrid.N ** 2
    decided = regrid.decide(np.ascontiguousarray(dark))
    assert (decided[regrid.RING:-regrid.RING, regrid.RING:-regrid.RING] == m).all()
    assert not decided[:regrid.RING].any() and not decided[:, -regrid.RING:].any()  # the quiet ring stays light


def _zxing(img: np.ndarray) -> tuple[list[tuple[str, list[tuple[float, float]], float | None]], bool]:
    import zxingcpp

    found = zxingcpp.read_barcodes(img, formats=[zxingcpp.BarcodeFormat.MicroQRCode], try_rotate=False,
                                   try_downscale=False, try_invert=False)
    return [(b.text, [], None, "micro") for b in found], False


def test_redraw_reads_back() -> None:
    assert [t for t, *_ in _zxing(regrid.redraw(_symbol("1ME4H7")))[0]] == ["1ME4H7"]


def test_read_by_grid_reads_a_small_blurred_code_where_it_lies() -> None:
    img = _picture(_symbol("1ME4H7"), 2.4, 11.0, 1.0, seed=1)
    h, w = img.shape
    got = regrid.read_by_grid(img, w / 2 + 1, h / 2, 13 * 2.2, _zxing)
    assert [t for t, *_ in got] == ["1ME4H7"]
    cx = sum(x for x, _ in got[0][1]) / 4
    cy = sum(y for _, y in got[0][1]) / 4
    assert math.dist((cx, cy), (w / 2, h / 2)) < 2.0


def test_no_grid_no_read() -> None:
    """Paper with print that is no code (noise, a solid square, stripes) fits no symbol's fixed parts:
    nothing is redrawn and nothing read."""
    rng = np.random.default_rng(5)
    calls: list[int] = []

    def counting(img: np.ndarray) -> tuple[list[tuple[str, list[tuple[float, float]], float | None]], bool]:
        calls.append(1)
        return _zxing(img)

    noise = np.clip(rng.normal(150, 50, (90, 90)), 0, 255).astype(np.uint8)
    square = np.full((90, 90), 220, np.uint8)
    square[30:60, 30:60] = 30
    stripes = np.full((90, 90), 220, np.uint8)
    stripes[:, ::5] = 30
    for img in (noise, square, stripes):
        assert regrid.read_by_grid(img, 45, 45, 32, counting) == []
    assert not calls


def test_even_out_takes_a_glare_gradient_off_paper_and_ink() -> None:
    """A symbol's samples lifted and squeezed towards one side (a glare patch's edge) come out as shares of
    the way from paper (0) to ink (1) everywhere."""
    m = np.pad(_symbol("1ME4H7"), regrid.RING).astype(np.float64)
    cols = np.arange(regrid.SIDE, dtype=np.float64)[None, :]
    paper, ink = -(200 + 3 * cols), -(40 + 9 * cols)  # darkness: the paper and the ink both lighter to the right
    dark = paper + m * (ink - paper)
    even = regrid.even_out(dark.astype(np.float32))
    assert np.allclose(even, m, atol=1e-3)


def _quarter_turns(frame: np.ndarray, point: tuple[float, float], k: int) -> tuple[np.ndarray, tuple[float, float]]:
    """``frame`` turned ``k`` quarter turns anticlockwise on the screen (``np.rot90``), and where ``point``
    (px) goes: every pixel kept, so what the decoder reads stays what it reads."""
    x, y = point
    for _ in range(k):
        w = frame.shape[1]
        frame, (x, y) = np.rot90(frame), (y, w - 1 - x)
    return np.ascontiguousarray(frame), (x, y)


def test_a_code_read_by_grid_gives_its_corners_finder_first_so_the_card_centre_points_up_the_card() -> None:
    """Audit 61: a code read module by module had its corners in the fitted grid's order whatever the grid's
    turn, so ``card_x``/``card_y`` (2.3 modules towards the symbol's top edge) pointed up to 90 degrees the
    wrong way. One blurred card at 2.7 px a module, which only the module-by-module read reads, in a frame
    turned 0, 90, 180 and 270 degrees: its corners come finder first and clockwise, as zxing-cpp gives them,
    and the card centre lies up the card (the test renderer's card turned 100 degrees clockwise)."""
    from laws.cards import Card
    from vision.render import Degrade, Scene, render, table_to_frame
    from vision.scan import card_centre
    from vision.zones import to_table

    size, table = (1280, 720), (1400.0, 787.5)
    scene = Scene(table_mm=table)
    placed = scene.place(Card.parse("TD"), "B7", at=(700.0, 393.75), angle=100.0)
    frame = render(scene, size, Degrade(blur=1.6, noise=3, jpeg=85), np.random.default_rng(1))
    a = math.radians(placed.angle)  # the art turned clockwise on the screen: its top edge faces (sin a, -cos a)
    up_the_card = to_table(table_to_frame(size, table), placed.x + 30 * math.sin(a), placed.y - 30 * math.cos(a))
    for k in range(4):
        turned, (up_x, up_y) = _quarter_turns(frame, up_the_card, k)
        assert not ZxingDecoder(regrid=False).read(turned).sightings, k  # only the grid reads it
        (s,) = ZxingDecoder().read(turned).sightings
        card_x, card_y, _ = card_centre(s)
        want = math.degrees(math.atan2(up_y - s.y, up_x - s.x))
        got = math.degrees(math.atan2(card_y - s.y, card_x - s.x))
        assert abs((got - want + 180) % 360 - 180) < 10, (k, got, want)
        (ax, ay), (bx, by), _, (dx, dy) = s.corners
        assert (bx - ax) * (dy - ay) - (by - ay) * (dx - ax) > 0, k  # top-left, top-right, ..., bottom-left: clockwise
