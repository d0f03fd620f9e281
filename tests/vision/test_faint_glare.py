"""Codes under a strong glare patch whose ink is fainter than the glare look's (issue 37, fourteenth round).

Under a stronger patch a code's lone modules, blurred, are only 10-20 grey levels under the paper: at
``GLARE_INK`` (20) only its finder is ink, and its blob is no code's shape, so the code is never a
candidate. The glare look can also take ink ``FAINT_GLARE_INK`` (10) grey levels under its paper and
try those blobs after every other candidate (``lookagain.glare_candidates(faint=True)``, the decoder's
``faint_glare``, off by default for its time at 720p). The frames are the outsider's
(``vision.measure_outsider_run``) on the tuning seeds, the only ones it was made on: each code these tests
name is left unread without it and read with it, and nothing false is read either way.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.decode import ZxingDecoder


def _frame(case: int, kind: str, size: tuple[int, int]) -> tuple[np.ndarray, object, list[tuple[bool, float]]]:
    """The outsider's frame ``case`` (a case number ``outsider_frames`` draws from its seed) of ``kind``."""
    from vision.measure_outsider import draw, expose, random_camera
    from vision.measure_outsider_run import auction_scene, deal_scene, in_view

    r = np.random.default_rng(case)
    cam = random_camera(r)
    scene = deal_scene(r, cam) if kind == "deal" else auction_scene(r, cam, kind)
    assert cam.glare > 0.0  # a glare patch on the table
    frame = expose(draw(scene, cam, r), cam, size, np.random.default_rng(case + size[0]))
    return frame, scene, in_view(scene, cam, size)


def _score(frame: np.ndarray, scene: object, view: object, faint: bool) -> tuple[int, int]:
    """Codes in view read (playing cards and calls), and false reads."""
    from vision.measure_outsider_run import score

    s = score(scene, view, ZxingDecoder(faint_glare=faint).read(frame))
    return sum(g for g, _ in s["cards"]) + sum(g for g, _ in s["calls"]), s["false"]


@pytest.mark.parametrize(("case", "kind", "size"), [
    (774391813, "deal", (1920, 1080)),   # seed 2026's 15th playing-card frame: a face under glare 0.83
    (774391813, "deal", (1280, 720)),    # the same at 720p (the tenth round's miss "2026, 14")
    (853386215, "row", (1920, 1080)),    # seed 2026's 13th row of bidding cards
    (331105930, "fan", (1920, 1080)),    # seed 11's 5th fan of bidding cards
], ids=["deal-1080", "deal-720", "row-1080", "fan-1080"])
def test_a_code_under_strong_glare_is_read_with_the_fainter_look(case: int, kind: str,
                                                                 size: tuple[int, int]) -> None:
    frame, scene, view = _frame(case, kind, size)
    now, false_now = _score(frame, scene, view, True)
    before, false_before = _score(frame, scene, view, False)
    assert now == before + 1
    assert false_now == false_before == 0
