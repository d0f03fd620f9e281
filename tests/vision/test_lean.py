"""Issue 37's eighth round: the second look made cheaper without reading less. Each cheaper way is checked
against the costlier one it stands for, on drawn codes and on the outsider's frames the earlier rounds'
tests use."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_defocus import _blurred_code, _zxing
from vision import lookagain


def test_sharpening_at_the_crops_scale_is_nearly_the_mask_at_the_scaled_one() -> None:
    """``sharpen_up``: the unsharp mask's blur taken before scaling, not after; on a blurred code scaled 4
    times the two differ by under a grey level on average, where the mask itself moves them by over ten."""
    img = _blurred_code("1ME4H7", 2.5, 1.0, 0)
    for k, interpolation in ((4.0, cv2.INTER_LINEAR), (3.2, cv2.INTER_CUBIC)):
        big = cv2.resize(img, None, fx=k, fy=k, interpolation=interpolation)
        slow = lookagain._sharpen(big, 1.5 * k, 2.0).astype(np.float32)
        fast = lookagain.sharpen_up(img, k, 1.5, 2.0, interpolation).astype(np.float32)
        assert fast.shape == slow.shape
        assert float(np.abs(fast - slow).mean()) < 1.0
        assert float(np.abs(slow - big).mean()) > 10.0
    assert np.array_equal(lookagain.sharpen_up(img, 1.0, 1.5, 2.0), lookagain._sharpen(img, 1.5, 2.0))


def test_the_lean_defocus_remedy_reads_what_the_costlier_one_reads() -> None:
    """The drawn codes of ``test_defocus`` (2.8 px a module, defocus sigma 1.4 px): all four noise draws
    read with the mask taken at the crop's scale too, as the code's own text."""
    text = "1ME4H7"
    for seed in range(4):
        img = _blurred_code(text, 2.8, 1.4, seed)
        cand = lookagain.Candidate(img.shape[1] / 2, img.shape[0] / 2, 13 * 2.8, 1.0)
        assert [t for t, _, _ in lookagain.read_candidate(img, cand, _zxing, lean=True)] == [text]


def test_the_lean_decoder_reads_what_mains_read_on_the_module_by_module_frame() -> None:
    """Seed 11 (tuning), frame 9 at 1280x720 (``test_regrid``): main's decoder at the start of the eighth round
    read six small defocused cards, five of them module by module; the lean one reads the same six, and the
    sixth (4D) now without the module-by-module read too, its mask taken at the crop's scale."""
    from tests.vision.test_glare import _outsider_frame
    from vision.decode import ZxingDecoder

    frame, _ = _outsider_frame(11, 9, (1280, 720))

    def cards(dec: ZxingDecoder) -> set[str]:
        return {s.code.card.code for s in dec.read(frame).sightings if s.code.card}

    main = cards(ZxingDecoder(lean=False))
    assert main == {"2C", "4D", "8H", "JC", "KH", "QC"}
    assert cards(ZxingDecoder()) == main
    assert cards(ZxingDecoder(regrid=False)) == {"4D"}
