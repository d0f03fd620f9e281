"""Issue 37's tenth round: the module-by-module read's grid fitted coarse to fine, and the candidates' ink
counted from the summed-area tables.

``regrid.fit_grid`` scores a fifth of its grids first and gives up when the best of them is under
``regrid.COARSE_MIN``; a code's grid passes that and is then the very grid of the full search. The candidates'
ink (``lookagain._code_blobs`` with ``lean``) is the same count either way: ``test_lean.py``'s
``test_lean_candidate_finding_finds_the_same_candidates`` sets the lean candidates beside the plain ones.
"""

from __future__ import annotations

import numpy as np

from tests.vision.test_defocus import _blurred_code
from vision import regrid


def _coarse() -> np.ndarray:
    """Which of ``fit_grid``'s grids are the coarse ones: every other scale and every other place each way."""
    scale, row, col = np.meshgrid(np.arange(regrid.SCALES[2]), np.arange(regrid.SHIFTS), np.arange(regrid.SHIFTS),
                                  indexing="ij")
    return np.flatnonzero(((scale % 2) == 0) & ((row % 2) == 0) & ((col % 2) == 0))


def test_the_coarse_grids_are_a_fifth_of_the_grids_at_their_ends_and_middle() -> None:
    assert len(_coarse()) == 27
    hyps = regrid._shifted(regrid.similar(40.0, 40.0, 2.5 * np.linspace(*regrid.SCALES), 0.0),
                           np.linspace(-1.0, 1.0, regrid.SHIFTS))
    coarse = hyps[_coarse()]
    scales = 2.5 * np.linspace(*regrid.SCALES)
    assert np.allclose(np.unique(coarse[:, 2]), scales[::2])
    alone = regrid._shifted(regrid.similar(40.0, 40.0, scales[::2], 0.0), np.linspace(-1.0, 1.0, regrid.SHIFTS)[::2])
    assert np.array_equal(alone, coarse)  # ``fit_grid`` builds them alone
    for (x, y, u, *_) in coarse:  # the centre moved by -1, 0 or 1 module each way
        assert min(abs(x - 40.0 - d * u) for d in (-1, 0, 1)) < 1e-4
        assert min(abs(y - 40.0 - d * u) for d in (-1, 0, 1)) < 1e-4


def test_a_codes_grid_is_the_full_searchs_grid() -> None:
    """Drawn defocused codes (2.3-3.4 px a module, sigma 0.6-1.2 px, several noise draws): the coarse grids pass
    ``COARSE_MIN`` and the grid given is the very one of the full search, which fits (``MIN_FIT``)."""
    for ppm, sigma, seed in ((2.3, 0.9, 0), (2.4, 1.1, 1), (2.7, 1.2, 2), (3.0, 0.6, 3), (3.4, 1.0, 4)):
        img = _blurred_code("1ME4H7", ppm, sigma, seed).astype(np.float32)
        x, y = img.shape[1] / 2 + 1.0, img.shape[0] / 2 - 0.5
        full = regrid.fit_grid(img, x, y, ppm * 0.95, coarse_min=None)
        assert full.score >= regrid.MIN_FIT
        assert regrid.fit_grid(img, x, y, ppm * 0.95) == full


def test_print_that_is_no_code_fits_no_grid_either_way() -> None:
    """Noise, a solid square, stripes: no grid fits, coarse to fine or by the full search; the noise is given up
    at the coarse grids."""
    rng = np.random.default_rng(5)
    noise = np.clip(rng.normal(150, 50, (90, 90)), 0, 255).astype(np.float32)
    square = np.full((90, 90), 220, np.float32)
    square[30:60, 30:60] = 30
    stripes = np.full((90, 90), 220, np.float32)
    stripes[:, ::5] = 30
    assert regrid.fit_grid(noise, 45, 45, 32 / 13).score < regrid.COARSE_MIN
    for img in (noise, square, stripes):
        assert regrid.fit_grid(img, 45, 45, 32 / 13).score < regrid.MIN_FIT
        assert regrid.fit_grid(img, 45, 45, 32 / 13, coarse_min=None).score < regrid.MIN_FIT


def test_the_moves_and_steps_made_once_are_the_ones_made_each_fit() -> None:
    """``_shifted`` with its moves made once (``_moves``) and ``fit_grid``'s steps made once (``_SCALE_STEPS``,
    ``_shift_steps``): the very values of the meshgrid and the linspaces made each fit, before this round."""
    def by_meshgrid(hyps: np.ndarray, shifts: np.ndarray) -> np.ndarray:
        dy, dx = (v.ravel() for v in np.meshgrid(shifts, shifts, indexing="ij"))
        out = np.repeat(hyps, len(dx), axis=0)
        k = np.tile(dx, len(hyps)), np.tile(dy, len(hyps))
        out[:, 0] += k[0] * out[:, 2] + k[1] * out[:, 4]
        out[:, 1] += k[0] * out[:, 3] + k[1] * out[:, 5]
        return out

    assert np.array_equal(regrid._SCALE_STEPS, np.linspace(*regrid.SCALES))
    rng = np.random.default_rng(3)
    for reach in (1.0, 0.5, 1.7):
        shifts = np.linspace(-reach, reach, regrid.SHIFTS)
        assert np.array_equal(regrid._shift_steps(reach), shifts)
        for _ in range(5):
            hyps = regrid.similar(float(rng.uniform(20, 60)), float(rng.uniform(20, 60)),
                                  float(rng.uniform(2, 4)) * regrid._SCALE_STEPS, float(rng.uniform(-45, 45)))
            assert np.array_equal(regrid._shifted(hyps, shifts), by_meshgrid(hyps, shifts))
            assert np.array_equal(regrid._shifted(hyps, shifts[::2]), by_meshgrid(hyps, shifts[::2]))
