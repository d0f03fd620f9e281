"""Codes joined to a dark felt through their white margin (issue 37, fourth round).

Where a module is 1.6 to 2 px at the second look's working scale, its closing kernel (2.2 modules, a
whole odd number of pixels) is 5 px, nearly three modules: it bridges the white round a bidding card's
code (two modules of quiet zone and 3 mm of card) to the card's edge and a dark felt's grain, and the
code is part of one blob the size of the frame. On the outsider's table (seeds 7 and 11, rows, columns
and fans) that was the second cause of a fully visible call unread after blobs of mostly ink. The ink
is now also closed two pixels narrower (``lookagain._blobs``, ``narrow``).
"""

from __future__ import annotations

import numpy as np

from vision.decode import ZxingDecoder


def _auction_frame(case: int, kind: str) -> tuple[np.ndarray, list[str]]:
    """The outsider's frame ``case`` (a case number ``run_outsider`` draws from its seed) of bidding cards laid
    as ``kind``, at 1280x720, and the codes fully in view."""
    from vision.measure_outsider import draw, expose, random_camera
    from vision.measure_outsider_run import auction_scene, in_view

    r = np.random.default_rng(case)
    cam = random_camera(r)
    scene = auction_scene(r, cam, kind)
    assert cam.glare == 0.0  # no glare patch: the misses are the finding's, not the light's
    frame = expose(draw(scene, cam, r), cam, (1280, 720), np.random.default_rng(case + 1280))
    return frame, [it.text for it, v in zip(scene.items, in_view(scene, cam, (1280, 720))) if v[0]]


def _calls(frame: np.ndarray, narrow: bool) -> set[str]:
    from vision.codes import encode_call_payload

    # glare=False: the fifth round's stretched look at bright paper reads these calls as well, with or without
    # the narrow closing, on this frame's brightly lit cards; this test is of the narrow closing alone
    reading = ZxingDecoder(narrow=narrow, glare=False).read(frame)
    return {encode_call_payload(c.code.seat, c.code.call, c.code.copy) for c in reading.calls}


def test_a_row_of_bidding_cards_on_dark_felt_is_read_whole() -> None:
    """Seed 11's eighth row (case 876964070): 3.4 px a module, nearly black felt; two of the calls were
    joined to the felt and left unread by main; now every call in view is read, and nothing else."""
    frame, shown = _auction_frame(876964070, "row")
    calls = [t for t in shown if t.startswith("B")]
    now, before = _calls(frame, True), _calls(frame, False)
    assert set(calls) <= now <= set(calls)
    assert len(set(calls) - before) >= 2 and before <= now
