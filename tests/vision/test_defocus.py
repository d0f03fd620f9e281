"""Codes out of focus at under 3.6 px a module (issue 37, third round): the second look found them as
candidates but read none of them; a candidate the milder remedies leave unread is now also read scaled
to 10 px a module and strongly unsharp-masked (``lookagain.DEFOCUS_SHARPEN``)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision import lookagain
from vision.decode import ZxingDecoder


def _outsider_frame(index: int) -> np.ndarray:
    """Frame ``index`` (0-based) of the outsider's playing cards, seed 2026, at 1280x720."""
    from vision.measure_outsider import draw, expose, random_camera
    from vision.measure_outsider_run import deal_scene

    rng = np.random.default_rng(2026)
    for _ in range(index + 1):
        case = int(rng.integers(1 << 30))
    r = np.random.default_rng(case)
    cam = random_camera(r)
    assert cam.blur > 1.0  # defocus sigma, px at 720p: among the blurriest the generator makes
    return expose(draw(deal_scene(r, cam), cam, r), cam, (1280, 720), np.random.default_rng(case + 1280))


def test_a_defocused_card_at_3_px_a_module_is_read() -> None:
    """Frame 16 of the outsider's table: the four of hearts, 3.1 px a module, defocus sigma 1.08 px,
    nothing over it; main's decoder found its code as a candidate and read it with none of its remedies."""
    frame = _outsider_frame(16)
    now = {s.code.card.code for s in ZxingDecoder().read(frame).sightings if s.code.card}
    before = {s.code.card.code for s in ZxingDecoder(defocus=False, regrid=False).read(frame).sightings if s.code.card}
    assert "4H" in now and "4H" not in before
    assert before <= now


def _blurred_code(text: str, ppm: float, sigma: float, seed: int) -> np.ndarray:
    """One Micro QR symbol (``text``) on white paper, ``ppm`` px a module, turned 17 degrees, defocused by
    a Gaussian of ``sigma`` px, with sensor noise: the small case of what the outsider's camera makes."""
    import segno

    sym = np.array(segno.make_micro(text, version="M2", error="L").matrix, np.uint8)
    big = 16
    img = np.kron(1 - sym, np.ones((big, big), np.uint8)) * 200 + 30
    img = cv2.copyMakeBorder(img, 8 * big, 8 * big, 8 * big, 8 * big, cv2.BORDER_CONSTANT, value=230)
    centre = (img.shape[1] / 2, img.shape[0] / 2)
    img = cv2.warpAffine(img, cv2.getRotationMatrix2D(centre, 17, 1.0), img.shape[::-1], borderValue=230)
    small = cv2.resize(img, None, fx=ppm / big, fy=ppm / big, interpolation=cv2.INTER_AREA)
    out = cv2.GaussianBlur(small.astype(np.float32), (0, 0), sigma)
    out += np.random.default_rng(seed).normal(0, 3.0, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def _zxing(img: np.ndarray) -> tuple[list[tuple[str, list[tuple[float, float]], float | None]], bool]:
    import zxingcpp

    found = zxingcpp.read_barcodes(img, formats=[zxingcpp.BarcodeFormat.MicroQRCode], try_rotate=False,
                                   try_downscale=False, try_invert=False)
    return [(b.text, [(b.position.top_left.x, b.position.top_left.y)], None, "micro") for b in found], False


def test_the_defocus_remedy_reads_a_blurred_code_the_mild_remedies_do_not() -> None:
    """2.8 px a module, defocus sigma 1.4 px: the candidate as it is, contrast-stretched, mildly sharpened
    and at 8 px a module read 1 of 4 noise draws; the strong mask at 10 px a module reads all 4, as the
    card's own text (zxing's check and the code's check character still stand between a blur and a read)."""
    from vision.codes import encode_payload, parse_code

    text = "1ME4H7"
    assert encode_payload(parse_code(text).pack, parse_code(text).card) == text  # type: ignore[union-attr]
    now = before = 0
    for seed in range(4):
        img = _blurred_code(text, 2.8, 1.4, seed)
        cand = lookagain.Candidate(img.shape[1] / 2, img.shape[0] / 2, 13 * 2.8, 1.0)
        got = lookagain.read_candidate(img, cand, _zxing)
        assert [t for t, *_ in got] in ([], [text])
        now += bool(got)
        before += bool(lookagain.read_candidate(img, cand, _zxing, defocus=False))
    assert now == 4 and before <= 1


def test_a_sharp_code_is_read_before_the_defocus_remedy_is_tried() -> None:
    """The strong mask is the last try of ``as_it_is``: a sharp code reads at the first, as before."""
    img = _blurred_code("1ME4H7", 3.4, 0.3, 0)
    tries: list[int] = []

    def counting(im: np.ndarray) -> tuple[list[tuple[str, list[tuple[float, float]], float | None]], bool]:
        tries.append(im.shape[0])
        return _zxing(im)

    cand = lookagain.Candidate(img.shape[1] / 2, img.shape[0] / 2, 13 * 3.4, 1.0)
    assert lookagain.read_candidate(img, cand, counting)
    assert len(tries) == 1 and math.isclose(tries[0], img.shape[0] * 6 / 3.4, rel_tol=0.1)


def test_a_defocused_call_the_local_threshold_misses_is_read_at_one_threshold() -> None:
    """The outsider's stacks, frame 1 of seed 2026 at 1280x720: East's six of diamonds (its top card), 2.7
    px a module, defocus sigma 0.99 px, found as a candidate centred on its code. Strongly sharpened and
    read with zxing's local-average threshold (and every milder remedy) it did not read; split at Otsu's
    one threshold for the whole crop (``ZxingDecoder._read_crop_global``) it reads, as its own text."""
    from vision.measure_outsider import draw, expose, random_camera
    from vision.measure_outsider_run import auction_scene

    rng = np.random.default_rng(2026)
    for _ in range(40 + 2):  # the 40 frames of playing cards first, then the stacks' frames 0 and 1
        case = int(rng.integers(1 << 30))
    r = np.random.default_rng(case)
    cam = random_camera(r)
    frame = expose(draw(auction_scene(r, cam, "stack"), cam, r), cam, (1280, 720), np.random.default_rng(case + 1280))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    near = [c for c in lookagain.code_candidates(gray, (22.5, 50.3), split_joined=True)
            if math.dist((c.x, c.y), (1076.0, 387.0)) < 10]
    assert near
    dec = ZxingDecoder()
    both = lookagain.read_candidate(gray, near[0], dec._read_crop, True, dec._read_crop_global)
    assert [t for t, *_ in both] == ["BE6D1H"]
    # the decoder as it is (the lean remedies, its one threshold on the linearly scaled crop) reads it too
    assert [str(c.code.call) for c in dec.read(frame).calls if math.dist((c.x, c.y), (1076.0, 387.0)) < 20] == ["6D"]
    assert not lookagain.read_candidate(gray, near[0], dec._read_crop, True)
