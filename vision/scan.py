"""``cardtable scan``: the cards in still images, one JSON object per image."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.decode import Decoder
from vision.imagesize import FORMATS, MAX_IMAGE_PIXELS, image_size
from vision.zones import Zones, default_homography, to_table

MAX_FILE_BYTES = 256 << 20  # a still image file bigger than this is not a photo of a card table


class ImageError(ValueError):
    """An image file that cannot be read."""


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR.

    The size is read from the file's header first: an image over ``MAX_IMAGE_PIXELS`` (or a file over
    ``MAX_FILE_BYTES``) is refused before anything is decoded.

    Raises:
        ImageError: naming the file and what is wrong with it.
    """
    p = Path(path)
    if not p.is_file():
        raise ImageError(f"{p}: {'a directory, not an image file' if p.is_dir() else 'no such file'}")
    if p.stat().st_size > MAX_FILE_BYTES:
        raise ImageError(f"{p}: {p.stat().st_size / 2**20:.0f} MiB is over the {MAX_FILE_BYTES >> 20} MiB a still image "
                         "may be")
    data = np.fromfile(p, dtype=np.uint8)
    size = image_size(data[:1 << 20].tobytes()) if data.size else None
    if data.size and size is None:
        raise ImageError(f"{p}: cannot read the image size from its header (formats read: {FORMATS})")
    if size is not None and size[0] * size[1] > MAX_IMAGE_PIXELS:
        w, h = size
        raise ImageError(f"{p}: {w}x{h} pixels ({w * h / 1e6:.0f} MP) is over the {MAX_IMAGE_PIXELS / 1e6:.0f} MP "
                         f"an image may have (decoding it would take {w * h * 3 / 2**20:.0f} MiB); scale it down first")
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ImageError(f"{p}: not an image OpenCV can read")
    return img


def scan_image(decoder: Decoder, image: np.ndarray, name: str, zones: Zones | None = None,
               homography: np.ndarray | None = None,
               table_mm: tuple[float, float] = (800.0, 450.0)) -> dict[str, Any]:
    """The ``scan`` record of one image: cards read (with zone) and card shapes that did not read."""
    h, w = image.shape[:2]
    hom = homography if homography is not None else default_homography((w, h), table_mm)
    zones = zones or Zones()
    reading = decoder.read(image)
    cards = []
    done = set()
    for s in reading.sightings:
        key = (s.code, round(s.x / 20), round(s.y / 20))
        if key in done:
            continue
        done.add(key)
        zone = zones.zone_at(*to_table(hom, s.x, s.y))
        cards.append({"card": None if s.code.card is None else s.code.card.code, "pack": s.code.pack,
                      "x": round(s.x), "y": round(s.y), "face_up": not s.code.is_back, "zone": zone})
    return {"image": name, "cards": cards,
            "unreadable": [{"x": round(x), "y": round(y)} for x, y in reading.unreadable]}
