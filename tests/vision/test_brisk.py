"""Issue 37's ninth round: the second look made cheaper again without reading less. Each cheaper way is
checked against the one it stands for (``test_lean.py`` does the same for the eighth round)."""

from __future__ import annotations

import numpy as np
import pytest

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
    assert np.array_equal(regrid.sample(img, regrid.grid_points(hyps)), regrid.sample_grids(img, hyps))
    assert np.array_equal(regrid.sample_grids(layered, g.params()[None])[0], regrid.sample(layered, g.points()))


def _by_points(img: np.ndarray, hyps: np.ndarray) -> np.ndarray:
    """The sampling before the ninth round: ``sample`` on the stacked ``grid_points``."""
    return regrid.sample(img, regrid.grid_points(hyps))


def test_the_module_by_module_read_is_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """``read_by_grid`` with the direct sampling and with the sampling before it: the same grid fitted to a
    drawn defocused code (2.4 px a module), the same text read at the very same corners, for four noise
    draws."""
    from tests.vision.test_defocus import _blurred_code, _zxing

    for seed in range(4):
        img = _blurred_code("1ME4H7", 2.4, 1.1, seed)
        x, y = img.shape[1] / 2, img.shape[0] / 2
        f = img.astype(np.float32)
        grid = regrid.fit_grid(f, x, y, 2.4)
        fast = regrid.read_by_grid(img, x, y, 13 * 2.4, _zxing)
        with monkeypatch.context() as m:
            m.setattr(regrid, "sample_grids", _by_points)
            assert grid == regrid.fit_grid(f, x, y, 2.4)
            assert fast == regrid.read_by_grid(img, x, y, 13 * 2.4, _zxing)
        assert [t for t, *_ in fast] == ["1ME4H7"]
