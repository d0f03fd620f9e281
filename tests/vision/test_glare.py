"""Codes under a glare patch, which the second look did not find (issue 37, fifth round).

A glare patch adds light to paper and ink alike; the camera's gamma then squeezes the ink up towards
the paper, which clips: a code under the patch's edge lies 40 to 60 grey levels under its paper, less
than the quarter of the paper (``lookagain.DARK``) the second look takes for ink, so it was never a
candidate. Round paper at least ``GLARE_PAPER`` bright, the picture is now stretched locally and its
code-shaped blobs are candidates too (``lookagain.glare_candidates``).
"""

from __future__ import annotations

import numpy as np

from vision import lookagain
from vision.decode import ZxingDecoder


def _outsider_frame(seed: int, index: int, size: tuple[int, int]) -> tuple[np.ndarray, object]:
    """Frame ``index`` (0-based) of the outsider's playing cards (``run_outsider``'s first kind) and its camera."""
    from vision.measure_outsider import draw, expose, random_camera
    from vision.measure_outsider_run import deal_scene

    rng = np.random.default_rng(seed)
    for _ in range(index + 1):
        case = int(rng.integers(1 << 30))
    r = np.random.default_rng(case)
    cam = random_camera(r)
    frame = expose(draw(deal_scene(r, cam), cam, r), cam, size, np.random.default_rng(case + size[0]))
    return frame, cam


def _cards(frame: np.ndarray, glare: bool) -> set[str]:
    return {s.code.card.code for s in ZxingDecoder(glare=glare).read(frame).sightings if s.code.card}


def test_a_code_under_a_glare_patch_is_found_and_read() -> None:
    """Seed 7 (a tuning seed), frame 28: the five of spades lies under a glare patch's edge (0.4 of white
    at the code, 0.77 at the patch's peak), 3.8 px a module at 720p; main found no candidate there."""
    for size in ((1280, 720), (1920, 1080)):
        frame, cam = _outsider_frame(7, 28, size)
        assert cam.glare > 0.7  # type: ignore[attr-defined]
        now, before = _cards(frame, True), _cards(frame, False)
        assert "5S" in now and "5S" not in before, size
        assert before <= now


def test_no_glare_candidates_without_bright_paper() -> None:
    """A frame with no paper as bright as ``GLARE_PAPER`` gets no glare candidates (and costs nothing more)."""
    gray = np.full((360, 640), 180, np.uint8)
    gray[100:150, 100:150] = 40
    assert lookagain.glare_candidates(gray, (30.0, 70.0)) == []
