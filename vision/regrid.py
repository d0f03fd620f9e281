"""Reading a small code out of focus module by module: its grid fitted, each module decided, redrawn.

At 2.3-2.7 px a module and a defocus of about one pixel (sigma), a code's light modules between dark
ones are grey and its dark modules between light ones pale: no threshold, local or global, on the
picture parts them, and zxing's grid finder, which wants the finder pattern's edges, is lost. The
information is still there: sampled at each module's centre, the grey level is the module's own ink plus
a share of its neighbours' (at a defocus of one pixel, about a quarter of a module's ink onto each side
neighbour). So (``read_by_grid``):

* the grid is fitted to the parts every M2 symbol has (``FIXED``: the finder pattern, its separator and
  the two timing patterns) and to the quiet zone of two light modules round it, over the grid's angle
  (``grid_angle``), its pitch, its place and which corner holds the finder (``fit_grid``; coarse to fine:
  a fifth of the grids first, the search given up when none of them comes near fitting, ``COARSE_MIN``, as
  most candidates read this way fit no grid), then moved closer, its centre and both steps, by Gauss-Newton
  steps on the picture's gradient (``refine``);
* the module values are sampled there (bilinear) and decided by a small model of the blur at the
  module scale, ``value = a + b * module + c * side neighbours + d * corner neighbours``, fitted to the
  known modules and then to all, each unknown module flipped while that lowers the model's error
  (``decide``);
* the modules are drawn again clean, ten px a module with a quiet zone (``redraw``), and read by zxing,
  whose Reed-Solomon check and the code's own check character (``vision.codes``) guard the result;
* if that does not read, the samples are evened out first (``even_out``: paper and ink each a plane over
  the code, for a glare patch's edge across it) and the modules decided and read once more.

Only a candidate that no other remedy read and that fits a symbol's fixed parts (``MIN_FIT``) gets this;
it gives zxing one or two redrawn symbols and no sweep of thresholds, so it adds few chances of a misread.

Pure functions of arrays: no I/O.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

N = 13  # Micro QR M2 (CARD_CODES.md)
RING = 2  # modules of the quiet zone round the symbol used in the fit


def _fixed() -> tuple[np.ndarray, np.ndarray]:
    """The modules every M2 symbol has (finder, separator, timing) and their colour (1 dark)."""
    fixed = np.zeros((N, N), bool)
    fixed[:8, :8] = True
    fixed[0, :] = True
    fixed[:, 0] = True
    dark = np.zeros((N, N), np.uint8)
    dark[:7, :7] = 1
    dark[1:6, 1:6] = 0
    dark[2:5, 2:5] = 1
    dark[0, 8::2] = 1
    dark[8::2, 0] = 1
    return fixed, dark


FIXED, PATTERN = _fixed()
SIDE = N + 2 * RING
KNOWN = np.ones((SIDE, SIDE), bool)  # the fixed parts and the quiet ring
KNOWN[RING:RING + N, RING:RING + N] = FIXED
EXPECT = np.zeros((SIDE, SIDE), np.float32)
EXPECT[RING:RING + N, RING:RING + N] = PATTERN


@dataclass(frozen=True)
class Grid:
    """A fitted module grid: the symbol's centre (px), the steps (px) from one module to the next along a
    row (``u``) and down a column (``v``) as the picture shows them, the quarter turns from the picture to
    the symbol (finder at the top left), and how well it fits (a correlation, -1 to 1)."""

    x: float
    y: float
    u: tuple[float, float]
    v: tuple[float, float]
    turn: int = 0
    score: float = 0.0

    def angle_deg(self) -> float:
        return math.degrees(math.atan2(self.u[1], self.u[0]))

    @property
    def ppm(self) -> float:
        return math.sqrt(math.hypot(*self.u) * math.hypot(*self.v))

    def params(self) -> np.ndarray:
        return np.array([self.x, self.y, *self.u, *self.v], np.float32)

    def points(self) -> np.ndarray:
        """The centres (px) of the symbol's modules and its quiet ring, ``SIDE`` x ``SIDE`` x 2, as seen."""
        return grid_points(self.params()[None])[0]

    def corners(self) -> list[tuple[float, float]]:
        """The symbol's four corners (px) in its own order, as zxing-cpp gives them and
        ``vision.scan.card_centre`` needs: the finder's corner first, then clockwise (top-right, bottom-right,
        bottom-left of the symbol). The grid's own corners (-u-v, +u-v, +u+v, -u+v) are clockwise too, but
        start at the finder's only when ``turn`` is 0: the symbol is the grid's samples turned back by ``turn``
        quarter turns (``np.rot90(samples, -turn)``), which puts its top-left at the grid's corner ``-turn``
        (mod 4). Before, the grid's order was given whatever the turn, and a card's centre was worked out up
        to 90 degrees the wrong way."""
        h = N / 2
        seen = [(self.x + i * h * self.u[0] + j * h * self.v[0], self.y + i * h * self.u[1] + j * h * self.v[1])
                for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        first = -self.turn % 4
        return seen[first:] + seen[:first]


_ROW, _COL = np.mgrid[0:SIDE, 0:SIDE].astype(np.float32) - (SIDE - 1) / 2


def grid_points(hyps: np.ndarray) -> np.ndarray:
    """Module centres (px) of ``SIDE``-square grids, one a row of ``hyps`` (x, y, ux, uy, vx, vy: centre
    and steps, px): ``[n, row, col] -> (x, y)``."""
    return np.stack(grid_maps(hyps), -1)


def grid_maps(hyps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``grid_points``' x and y apart, each ``[n, row, col]``: ``cv2.remap``'s maps as they are, with no
    copy out of the stacked points (the same values, computed the same way)."""
    x, y, ux, uy, vx, vy = (hyps[:, i, None, None] for i in range(6))
    return x + _COL * ux + _ROW * vx, y + _COL * uy + _ROW * vy


def similar(x: float, y: float, ppm: np.ndarray | float, angle: np.ndarray | float) -> np.ndarray:
    """Square grids (rows of ``grid_points``' hyps) centred at (``x``, ``y``), ``ppm`` px a module, turned
    ``angle`` degrees (both broadcast)."""
    ppm, a = np.broadcast_arrays(np.asarray(ppm, np.float32), np.radians(np.asarray(angle, np.float32)))
    c, s = np.cos(a) * ppm, np.sin(a) * ppm
    return np.column_stack([np.full(c.size, x), np.full(c.size, y), c.ravel(), s.ravel(), -s.ravel(),
                            c.ravel()]).astype(np.float32)


def sample(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """``img`` (float32, one channel or more) at the points ``pts`` (..., 2; x, y), bilinear, the border
    repeated: shaped as ``pts`` less its last axis, and then the channels if more than one."""
    flat = pts.reshape(-1, pts.shape[-2], 2).astype(np.float32)  # remap's maps are under 32767 rows
    out = cv2.remap(img, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(pts.shape[:-1] + img.shape[2:])


def sample_maps(img: np.ndarray, maps: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """``sample`` at the points whose x and y are ``maps`` (float32, ``[n, row, col]`` each, ``grid_maps``):
    the same values, the maps given to ``cv2.remap`` as they are, a grid a row."""
    mx, my = (m.reshape(-1, m.shape[-2] * m.shape[-1]) for m in maps)
    out = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(maps[0].shape + img.shape[2:])


def sample_grids(img: np.ndarray, hyps: np.ndarray) -> np.ndarray:
    """``img`` at the module centres of the grids ``hyps`` (``grid_points``), ``[n, row, col]`` (then the
    channels): ``sample_maps`` on ``grid_maps``, the same values as ``sample`` on ``grid_points`` in about
    half the time a fit (issue 37's ninth round)."""
    return sample_maps(img, grid_maps(hyps))


def grid_angle(img: np.ndarray) -> float:
    """The angle (degrees, -45 to 45) of a square grid's rows in ``img``: the gradients' directions taken
    four times round (so the four edge directions of a grid agree), weighted by their strength."""
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
    w = gx * gx + gy * gy
    th = np.arctan2(gy, gx)
    z = complex(float((w * np.cos(4 * th)).sum()), float((w * np.sin(4 * th)).sum()))
    return math.degrees(math.atan2(z.imag, z.real) / 4)


def _expected() -> tuple[np.ndarray, np.ndarray]:
    """For each quarter turn, a column: the known modules (as 0/1 weights), and their expected darkness,
    centred and scaled over them (0 elsewhere); flattened, ``SIDE`` ** 2 x 4 each."""
    masks, zs = [], []
    for k in range(4):
        mask = np.rot90(KNOWN, k).ravel()
        e = np.rot90(EXPECT, k).ravel()
        masks.append(mask.astype(np.float32))
        zs.append(np.where(mask, (e - e[mask].mean()) / e[mask].std(), 0).astype(np.float32))
    return np.column_stack(masks), np.column_stack(zs)


_MASKS, _ZS = _expected()
_KNOWN_N = float(KNOWN.sum())


def _best(img: np.ndarray, hyps: np.ndarray) -> Grid:
    """The best of the grids ``hyps`` in every quarter turn, all sampled at once: the correlation of each
    grid's samples, over its known modules, with what they should be."""
    dark = -sample_grids(img, hyps).reshape(len(hyps), -1)
    total, power, dot = dark @ _MASKS, (dark * dark) @ _MASKS, dark @ _ZS  # n x 4 each: one column a turn
    score = dot / (np.sqrt(np.maximum(power - total * total / _KNOWN_N, 1e-6)) * math.sqrt(_KNOWN_N))
    i, k = np.unravel_index(int(np.argmax(score)), score.shape)
    x, y, ux, uy, vx, vy = (float(v) for v in hyps[i])
    return Grid(x, y, (ux, uy), (vx, vy), int(k), float(score[i, k]))


@functools.lru_cache(maxsize=32)
def _moves(shifts: tuple[float, ...], n: int) -> tuple[np.ndarray, np.ndarray]:
    """``_shifted``'s moves along the rows and the columns (modules) for ``n`` grids, made once for each set of
    shifts (a fit's are always the same few; read only)."""
    s = np.array(shifts, np.float64)
    dy, dx = (v.ravel() for v in np.meshgrid(s, s, indexing="ij"))
    moves = np.tile(dx, n), np.tile(dy, n)
    for m in moves:
        m.setflags(write=False)
    return moves


def _shifted(hyps: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """Each grid of ``hyps`` moved by each of ``shifts`` modules along its rows and along its columns."""
    out = np.repeat(hyps, len(shifts) ** 2, axis=0)
    k = _moves(tuple(float(v) for v in shifts), len(hyps))
    out[:, 0] += k[0] * out[:, 2] + k[1] * out[:, 4]
    out[:, 1] += k[0] * out[:, 3] + k[1] * out[:, 5]
    return out


SCALES = (0.95, 1.27, 5)  # the candidate's px a module times these (from, to, how many): its blob is often small
SHIFTS = 5  # places tried each way, from ``reach`` modules one side of the candidate's centre to the other


COARSE_MIN = 0.4  # the least best score of ``fit_grid``'s coarse grids (every other scale and place) for it to
# try them all. On the tuning seeds (7, 11, 2026; 8 frames of each kind at both sizes: 214 fits) the coarse grids of
# every grid that fits (``MIN_FIT``, 74) scored 0.55 or more, and the full search beat the coarse one by at most
# 0.25; 57 of the 140 that do not fit are given up at 0.4 (82 at 0.45, which would leave a margin under that gap).


_SCALE_STEPS = np.linspace(*SCALES)  # made once: the very values ``np.linspace`` gives each fit
_SCALE_STEPS.setflags(write=False)


@functools.lru_cache(maxsize=8)
def _shift_steps(reach: float) -> np.ndarray:
    """``np.linspace(-reach, reach, SHIFTS)``, made once for each ``reach`` (read only)."""
    steps = np.linspace(-reach, reach, SHIFTS)
    steps.setflags(write=False)
    return steps


def fit_grid(img: np.ndarray, x: float, y: float, ppm: float, reach: float = 1.0,
             coarse_min: float | None = COARSE_MIN) -> Grid:
    """The square module grid that best fits a code near (``x``, ``y``) in ``img`` (float32, px), about
    ``ppm`` px a module, its centre within ``reach`` modules: at the grid's angle (``grid_angle``), every
    scale of ``SCALES``, place of ``SHIFTS`` and quarter turn, the one whose fixed parts and quiet ring
    best correlate with what they should be (``Grid.score``). ``refine`` then fits it closer.

    Coarse to fine: the coarse grids (every other scale and every other place each way: the ends and the
    middle, 27 of the 125) are scored first, and when the best of them
    scores under ``coarse_min`` that one is given (no grid of a code that scores so little there fits): most
    candidates read module by module fit no grid (25 of 38 on the tuning seeds' playing cards at 720p). Else,
    or with ``coarse_min=None``, the best of all, as before."""
    h = max(int(N * ppm * 0.55), 4)
    y0, x0 = int(max(y - h, 0)), int(max(x - h, 0))
    angle = grid_angle(img[y0:int(y + h), x0:int(x + h)])
    scales, shifts = ppm * _SCALE_STEPS, _shift_steps(reach)
    if coarse_min is not None:  # the coarse grids built alone: the very values of the full set's (tested)
        rough = _best(img, _shifted(similar(x, y, scales[::2], angle), shifts[::2]))
        if rough.score < coarse_min:
            return rough
    return _best(img, _shifted(similar(x, y, scales, angle), shifts))


_SIDES = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], np.float32)
_CORNERS = np.array([[1, 0, 1], [0, 0, 0], [1, 0, 1]], np.float32)


def _fit_blur(dark: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The blur model's coefficients (a, b, c, d) fitted to ``dark`` for the modules ``m``, and its residual."""
    sides = cv2.filter2D(m, -1, _SIDES, borderType=cv2.BORDER_CONSTANT)
    corners = cv2.filter2D(m, -1, _CORNERS, borderType=cv2.BORDER_CONSTANT)
    a = np.column_stack([np.ones(m.size, np.float32), m.ravel(), sides.ravel(), corners.ravel()])
    coef = np.linalg.lstsq(a, dark.ravel(), rcond=None)[0].astype(np.float32)
    return coef, (a @ coef).reshape(m.shape) - dark


_ROWS, _COLS = np.mgrid[0:SIDE, 0:SIDE].astype(np.float64)


def _plane(values: np.ndarray, where: np.ndarray) -> np.ndarray:
    """The plane over the grid (a + b col + c row) that best fits ``values`` where ``where`` marks."""
    a = np.column_stack([np.ones(int(where.sum())), _COLS[where], _ROWS[where]])
    coef = np.linalg.lstsq(a, values[where].astype(np.float64), rcond=None)[0]
    return coef[0] + coef[1] * _COLS + coef[2] * _ROWS


def even_out(dark: np.ndarray) -> np.ndarray:
    """Samples (``SIDE`` x ``SIDE``, larger darker) as shares of the way from the paper to the ink, each
    a plane fitted to the modules known light (the quiet ring, the fixed parts' light) and known dark: a
    glare patch's edge lifts one side of a code, paper and ink alike, and squeezes its contrast there."""
    light = KNOWN & (EXPECT == 0)
    paper, ink = _plane(dark, light), _plane(dark, KNOWN & (EXPECT == 1))
    return ((dark - paper) / np.maximum(ink - paper, 1.0)).astype(np.float32)


_FIXED_DARK, _FIXED_LIGHT = FIXED & (PATTERN == 1), FIXED & (PATTERN == 0)
# ``decide``'s nine classes of unknown modules three apart (whose flips share no neighbour's prediction)
_CLASSES = [~KNOWN & ((_ROWS % 3) * 3 + _COLS % 3 == k) for k in range(9)]


def decide(dark: np.ndarray, sweeps: int = 6) -> np.ndarray:
    """The modules (``SIDE`` x ``SIDE``, 1 dark, the quiet ring light) of a symbol lying as it should (finder
    at the top left) from its samples with the quiet ring (larger darker), by the blur model (see the
    module docstring).

    Start: the fixed parts as they are, the quiet ring light, the others dark where darker than halfway
    between the fixed parts' dark and light means. Then in turn for each of nine classes of modules three
    apart (whose flips do not interact), every unknown module whose flip lowers the model's squared error
    is flipped, the model refitted after each sweep."""
    inner = dark[RING:RING + N, RING:RING + N]
    fd = inner[_FIXED_DARK].mean()
    fl = inner[_FIXED_LIGHT].mean()
    m = EXPECT.copy()
    m[RING:RING + N, RING:RING + N] = np.where(FIXED, PATTERN, inner > (fd + fl) / 2)
    for _ in range(sweeps):
        coef, res = _fit_blur(dark, m)
        kernel = np.array([[coef[3], coef[2], coef[3]], [coef[2], coef[1], coef[2]], [coef[3], coef[2], coef[3]]],
                          np.float32)
        energy = float((kernel * kernel).sum())
        flipped = 0
        for k in range(9):
            sign = 1 - 2 * m  # +1 where a flip darkens
            delta = 2 * sign * cv2.filter2D(res, -1, kernel, borderType=cv2.BORDER_CONSTANT) + energy
            flip = _CLASSES[k] & (delta < 0)
            if flip.any():
                flipped += int(flip.sum())
                m[flip] = 1 - m[flip]
                res = res + cv2.filter2D(np.where(flip, sign, 0).astype(np.float32), -1, kernel,
                                         borderType=cv2.BORDER_CONSTANT)
        if not flipped:
            break
    return m.astype(np.uint8)


def _basis(modules: np.ndarray, use: np.ndarray) -> np.ndarray:
    """An orthonormal basis (modules used x 4) of the blur model's columns for ``modules`` (as seen; 0.5
    for one not known), over the modules ``use`` marks."""
    m = modules.astype(np.float32)
    sides = cv2.filter2D(m, -1, _SIDES, borderType=cv2.BORDER_CONSTANT)
    corners = cv2.filter2D(m, -1, _CORNERS, borderType=cv2.BORDER_CONSTANT)
    cols = np.column_stack([np.ones(m.size), m.ravel(), sides.ravel(), corners.ravel()])[use.ravel()]
    return np.linalg.qr(cols.astype(np.float64))[0]


def _unexplained(v: np.ndarray, basis: np.ndarray) -> float:
    """The share of the variance of the samples ``v`` that the blur model (``basis``) leaves unexplained."""
    v = v - v.mean()
    total = float(v @ v)
    return (total - float(((v @ basis) ** 2).sum())) / max(total, 1e-6)


REFINE_STEPS = 4  # Gauss-Newton steps of ``refine``
MAX_NUDGE = 0.3  # modules: the most one step moves any module's centre


def layers(img: np.ndarray) -> np.ndarray:
    """``img`` (float32) and its x and y gradients, as three channels (sampled together by ``refine``)."""
    return cv2.merge([img, cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8),
                      cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)])


def refine(picture: np.ndarray, g: Grid, modules: np.ndarray, use: np.ndarray | None = None) -> Grid:
    """``g`` moved (its centre and both steps, so that a tilted camera's slanted grid fits too) to where
    its samples best fit the blur model of ``modules`` (``SIDE`` x ``SIDE``, as the symbol lies; 0.5 where
    not known), over the modules ``use`` marks (as the symbol lies; all when None): the least share of
    their variance the model leaves unexplained (``_unexplained``), by Gauss-Newton steps on the
    picture's gradient (``picture``: ``layers``), each kept only if it fits better."""
    use = np.ones((SIDE, SIDE), bool) if use is None else use
    seen = np.rot90(use, g.turn).ravel()
    basis = _basis(np.rot90(modules, g.turn), np.rot90(use, g.turn))
    col, row = _COL.ravel()[seen].astype(np.float64), _ROW.ravel()[seen].astype(np.float64)

    def at(h: Grid) -> np.ndarray:
        return sample_grids(picture, h.params()[None]).reshape(-1, 3)[seen].astype(np.float64)

    def project(a: np.ndarray) -> np.ndarray:  # what the model cannot explain
        return a - basis @ (basis.T @ a)

    here = at(g)
    best = _unexplained(here[:, 0], basis)
    for _ in range(REFINE_STEPS):
        v, dx, dy = here.T
        jac = np.column_stack([dx, dy, dx * col, dy * col, dx * row, dy * row])
        step = np.linalg.lstsq(project(jac), -project(v), rcond=None)[0]
        reach = np.abs(step[:2]).max() + 8 * np.abs(step[2:]).max()  # px at the grid's corners
        if reach > MAX_NUDGE * g.ppm:
            step *= MAX_NUDGE * g.ppm / reach
        p = g.params() + step.astype(np.float32)
        moved = Grid(float(p[0]), float(p[1]), (float(p[2]), float(p[3])), (float(p[4]), float(p[5])), g.turn)
        there = at(moved)
        left = _unexplained(there[:, 0], basis)
        if left >= best:
            break
        g, best, here = replace(moved, score=1.0 - left), left, there
    return g


def redraw(modules: np.ndarray, px: int = 10, quiet: int = 4) -> np.ndarray:
    """``modules`` (1 dark) drawn black on white, ``px`` px a module, with ``quiet`` modules of margin."""
    img = (np.kron(1 - modules, np.ones((px, px), np.uint8)) * 255).astype(np.uint8)
    return cv2.copyMakeBorder(img, quiet * px, quiet * px, quiet * px, quiet * px, cv2.BORDER_CONSTANT, value=(255,))


ROUNDS = 1  # the grid refined on all the modules and they decided again, in turn (a second round read none more)
MAX_PPM = 3.6  # px a module (the candidate's): larger codes are not read module by module
MIN_FIT = 0.7  # the least correlation of a grid with the fixed parts and the quiet ring for its modules to be read
MIN_MODEL = 0.8  # the least share of the samples' variance the blur model must explain once decided


Reads = list[tuple[str, list[tuple[float, float]], "float | None", str]]


def read_by_grid(gray: np.ndarray, x: float, y: float, side: float,
                 read: Callable[[np.ndarray], tuple[Reads, bool]]) -> Reads:
    """Read a code near (``x``, ``y``) in ``gray`` (frame px), about ``side`` px across, module by module
    (the module docstring): nothing unless its grid fits the fixed parts (``MIN_FIT``) and the blur model
    its samples (``MIN_MODEL``); ``read`` is given the modules redrawn, and its reads are placed at the
    grid's corners in the frame."""
    half = 1.1 * side
    h, w = gray.shape
    x0, y0 = int(max(x - half, 0)), int(max(y - half, 0))
    crop = gray[y0:int(min(y + half, h)), x0:int(min(x + half, w))]
    if min(crop.shape) < 8:
        return []
    f = crop.astype(np.float32)
    g = fit_grid(f, x - x0, y - y0, side / N)
    if g.score < MIN_FIT:
        return []
    picture = layers(f)
    g = refine(picture, g, np.where(KNOWN, EXPECT, 0.5), KNOWN)

    def modules_at(h: Grid) -> np.ndarray:
        return decide(np.ascontiguousarray(np.rot90(-sample_grids(f, h.params()[None])[0], -h.turn)))

    modules = modules_at(g)
    for _ in range(ROUNDS):
        g = refine(picture, g, modules)
        modules = modules_at(g)
    if g.score < MIN_MODEL:
        return []
    found, _ = read(redraw(modules[RING:RING + N, RING:RING + N]))
    if not found:  # once more with the paper and the ink evened out (a glare patch's edge across the code)
        modules = decide(even_out(np.rot90(-sample_grids(f, g.params()[None])[0], -g.turn)))
        found, _ = read(redraw(modules[RING:RING + N, RING:RING + N]))
    corners = [(cx + x0, cy + y0) for cx, cy in g.corners()]
    return [(t, corners, u, s) for t, _, u, s in found]
