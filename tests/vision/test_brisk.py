"""Issue 37's ninth round: the second look made cheaper again without reading less. Each cheaper way is
checked against the one it stands for (``test_lean.py`` does the same for the eighth round)."""

from __future__ import annotations

import numpy as np

from vision import regrid


def test_sampling_by_maps_is_sampling_by_points() -> None:
    """``sample_maps`` on ``grid_maps`` (``cv2.remap``'s maps built as they are) gives the very values of
    ``sample`` on ``grid_points``, for many grids at once and for one, on one channel and on three."""
    rng = np.random.default_rng(5)
    img = rng.random((80, 90)).astype(np.float32) * 255
    layered = regrid.layers(img)
    hyps = regrid._shifted(regrid.similar(41.3, 37.8, 2.7 * np.linspace(*regrid.SCALES), 13.0),
                           np.linspace(-1.0, 1.0, regrid.SHIFTS))
    assert len(hyps) == 125
    assert np.array_equal(np.stack(regrid.grid_maps(hyps), -1), regrid.grid_points(hyps))
    assert np.array_equal(regrid.sample_maps(img, regrid.grid_maps(hyps)), regrid.sample(img, regrid.grid_points(hyps)))
    g = regrid.Grid(40.2, 39.9, (2.6, 0.4), (-0.5, 2.8), 1)
    assert np.array_equal(regrid.sample_grids(img, g.params()[None])[0], regrid.sample(img, g.points()))
    assert np.array_equal(regrid.sample_grids(img, hyps, False), regrid.sample_grids(img, hyps))
    assert np.array_equal(regrid.sample_grids(layered, g.params()[None])[0], regrid.sample(layered, g.points()))
