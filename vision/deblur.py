"""Motion smear of a code, measured and undone (the second look's deblurring remedy, ``lookagain``): the
direction a crop varies least along (``blur_direction``), the smear's direction and length from the
autocorrelation of the derivative along it (``smear``), and Wiener deconvolution of a straight smear in
linear light (``Deblur``). Pure: images in, numbers or images out."""

from __future__ import annotations

import math

import cv2
import numpy as np

DIRECTIONAL = 0.4  # share of edge energy lost across one direction: a code smeared by motion
GAMMA = 2.2  # a camera's output is about linear light to the power 1/2.2 (sRGB, Rec. 709 and the Pi's ISP)


def blur_direction(img: np.ndarray) -> tuple[float, float]:
    """The direction (degrees) along which ``img`` varies least, and how much less (0 none - 1 all).

    A code has edges in every direction; smeared by motion it loses those across the motion.
    """
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
    jxx, jyy, jxy = float((gx * gx).sum()), float((gy * gy).sum()), float((gx * gy).sum())
    tr, det = jxx + jyy, jxx * jyy - jxy * jxy
    disc = math.sqrt(max(tr * tr / 4 - det, 0.0))
    l1, l2 = tr / 2 + disc, tr / 2 - disc
    # eigenvector of the larger eigenvalue: across the blur; the blur runs at right angles to it
    across = 0.5 * math.degrees(math.atan2(2 * jxy, jxx - jyy))
    return across + 90.0, (1 - l2 / l1) if l1 > 0 else 0.0


def smear(img: np.ndarray, ppm: float) -> tuple[float, float, float]:
    """How a code in ``img`` (``ppm`` px per module) is smeared: direction (degrees), length (px) and how
    one-way its edges are (``blur_direction``'s strength); length 0 when it is not smeared one way.

    Along the motion a smeared image is the sharp one averaged over the smear, so its derivative along
    the motion is the sharp image shifted forward by half the smear less itself shifted back by half:
    the derivative's autocorrelation has its deepest trough at the smear's displacement. It is looked
    for within ``SPREAD`` degrees of ``blur_direction``'s estimate (which a code's own edges, all along
    two axes, pull aside by some degrees), and from 0.6 to ``MAX_SMEAR`` modules away.
    """
    angle, strength = blur_direction(img)
    if strength <= DIRECTIONAL:
        return angle, 0.0, strength
    a = math.radians(angle)
    f = img.astype(np.float32)
    d = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3) * math.cos(a) + cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3) * math.sin(a)
    m = min(d.shape) // 6  # the middle, where the code is
    d = d[m:d.shape[0] - m, m:d.shape[1] - m]
    h, w = d.shape
    reach = int(min(MAX_SMEAR * ppm, h - 2, w - 2))
    if reach < 3:
        return angle, 0.0, strength
    d = d - d.mean()
    hh, ww = cv2.getOptimalDFTSize(2 * h), cv2.getOptimalDFTSize(2 * w)
    spec = cv2.dft(cv2.copyMakeBorder(d, 0, hh - h, 0, ww - w, cv2.BORDER_CONSTANT), flags=cv2.DFT_COMPLEX_OUTPUT)
    power = spec[:, :, 0] ** 2 + spec[:, :, 1] ** 2
    ac = cv2.idft(cv2.merge([power, np.zeros_like(power)]), flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)
    rows, cols = np.r_[0:reach + 1, hh - reach:hh], np.r_[0:reach + 1, ww - reach:ww]
    dy = np.r_[0:reach + 1, -reach:0].astype(np.float32)[:, None]
    dx = np.r_[0:reach + 1, -reach:0].astype(np.float32)[None, :]
    near = ac[np.ix_(rows, cols)] / ((h - np.abs(dy)) * (w - np.abs(dx)))  # per overlapping pair
    off = (np.degrees(np.arctan2(dy, dx)) - angle + 90) % 180 - 90
    r = np.hypot(dx, dy)
    inside = (r >= max(2.0, 0.6 * ppm)) & (np.abs(off) <= SPREAD)
    if not inside.any():
        return angle, 0.0, strength
    i, j = np.unravel_index(int(np.argmin(np.where(inside, near, np.inf))), near.shape)
    n0, n1 = near.shape
    x = float(dx[0, j]) + _vertex(near[i, (j - 1) % n1], near[i, j], near[i, (j + 1) % n1])
    y = float(dy[i, 0]) + _vertex(near[(i - 1) % n0, j], near[i, j], near[(i + 1) % n0, j])
    return math.degrees(math.atan2(y, x)), math.hypot(x, y), strength


SPREAD = 30.0  # degrees about the first estimate of the direction in which the smear is looked for
MAX_SMEAR = 6.0  # modules: longer smears are not looked for (they seldom read, whatever is done)


def _vertex(a: float, b: float, c: float) -> float:
    """Where between -0.5 and 0.5 the parabola through (-1, a), (0, b), (1, c) has its bottom."""
    den = a - 2 * b + c
    return float(np.clip(0.5 * (a - c) / den, -0.5, 0.5)) if den > 0 else 0.0


class Deblur:
    """Wiener deconvolution of straight motion smears of one image, its spectrum taken once.

    With ``gamma`` above 1 the image is first taken back to linear light (``img ** gamma``), where the
    smear happened (a sensor adds up light; the camera applies its gamma curve afterwards), and the
    noise-to-signal ratio is relative to linear white. The image is extended by mirroring to a size the
    DFT is fast at, which also keeps its edges from wrapping round.
    """

    def __init__(self, img: np.ndarray, gamma: float = 1.0) -> None:
        self.h, self.w = img.shape
        self.gamma = gamma
        x = img.astype(np.float32) * np.float32(1 / 255)
        if gamma != 1.0:
            x = cv2.pow(x, gamma)
        self.size = (cv2.getOptimalDFTSize(self.h), cv2.getOptimalDFTSize(self.w))
        x = cv2.copyMakeBorder(x, 0, self.size[0] - self.h, 0, self.size[1] - self.w, cv2.BORDER_REFLECT)
        self.spectrum = cv2.dft(x, flags=cv2.DFT_COMPLEX_OUTPUT)

    def __call__(self, length: float, angle: float, nsr: float) -> np.ndarray:
        """The image with a smear ``length`` px long at ``angle`` degrees undone (``nsr``: noise/signal)."""
        hh, ww = self.size
        psf = np.zeros((hh, ww), np.float32)
        t = np.linspace(-length / 2, length / 2, max(int(length * 3), 2))
        a = math.radians(angle)
        np.add.at(psf, (np.round(t * math.sin(a)).astype(int) % hh, np.round(t * math.cos(a)).astype(int) % ww), 1.0)
        psf /= psf.sum()
        p = cv2.dft(psf, flags=cv2.DFT_COMPLEX_OUTPUT)
        gain = 1.0 / (p[:, :, 0] ** 2 + p[:, :, 1] ** 2 + nsr)
        filtered = cv2.mulSpectrums(self.spectrum, p, 0, conjB=True) * gain[:, :, None]
        out = cv2.idft(filtered, flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)[:self.h, :self.w]
        out = np.clip(out, 0, 1)
        if self.gamma != 1.0:
            out = cv2.pow(out, 1 / self.gamma)
        return (out * 255 + 0.5).astype(np.uint8)
