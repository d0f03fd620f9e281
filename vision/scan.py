"""``cardtable scan``: the cards in still images, one JSON object per image."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.decode import Decoder
from vision.zones import Zones, default_homography, to_table


class ImageError(ValueError):
    """An image file that cannot be read."""


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR.

    Raises:
        ImageError: naming the file and what is wrong with it.
    """
    p = Path(path)
    if not p.is_file():
        raise ImageError(f"{p}: no such file")
    data = np.fromfile(p, dtype=np.uint8)
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
