"""``cardtable scan``: the cards in still images, one JSON object per image.

A record: ``{"image": NAME, "cards": [CARD...], "unreadable": [{"x", "y"}...]}``, where a CARD is
``{"card", "pack", "x", "y", "card_x", "card_y", "px_per_module", "face_up", "zone"}``:

- ``card``: the card in the event format (``"TD"``), or ``null`` for a back's pack mark;
- ``pack``: the pack id its code names; ``face_up``: false for a back's pack mark;
- ``x``, ``y``: the centre of the *code* (the symbol), frame pixels from the top-left;
- ``card_x``, ``card_y``: the centre of the *card*, worked out from the code's size and direction and the
  label geometry of ``CARD_CODES.md`` (the code sits ``CODE_BELOW_CENTRE`` modules below the sticker's
  centre, and the sticker is centred on the card);
- ``px_per_module``: the code's side in pixels over its modules (13 Micro QR, 21 QR): the figure the
  decoder's recall follows;
- ``zone``: the table zone holding the code's centre (``null`` outside every zone).

``calls`` lists the bidding cards read (``{"seat", "call", "copy", "x", "y", "zone"}``: the seat of the set,
the call in the event format, the copy character, the code's centre and its zone); it is empty when none.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.decode import MIN_FRAME_SIDE, Decoder, Sighting
from vision.imagesize import FORMATS, GIF_MAGIC, MAX_IMAGE_PIXELS, TIFF_MAGIC, image_size, png_cut_short
from vision.zones import Zones, default_homography, to_table

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 256 << 20  # a still image file bigger than this is not a photo of a card table


class ImageError(ValueError):
    """An image file that cannot be read."""


_CV_LOG_ERROR = 2   # OpenCV's log levels: 0 silent, 1 fatal, 2 error, 3 warning (its default), 4 info


def _decode_quietly(data: np.ndarray) -> tuple[np.ndarray | None, str]:
    """``cv2.imdecode`` and what its decoders said, held back from standard error while it runs.

    OpenCV's own warnings are held back by its log level (a file cut short made it print "[ WARN:0@0.2]
    global grfmt_png.cpp:678 read_from_io PNG input buffer is incomplete"); libpng and libjpeg write to file
    descriptor 2 themselves ("libpng error: bad adaptive filter value", "Corrupt JPEG data: premature end of
    data segment"), a line in code words naming no file, so descriptor 2 is lent to a temporary file while
    the picture decodes and its last line given back for the caller to say with the file's name. For the
    commands' single thread (``scan``, ``calibrate``, ``camera-check``): nothing else writes meanwhile.
    """
    before = cv2.getLogLevel()
    cv2.setLogLevel(min(before, _CV_LOG_ERROR))
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as said:
            os.dup2(said.fileno(), 2)
            try:
                img = cv2.imdecode(data, cv2.IMREAD_COLOR)
            finally:
                os.dup2(saved, 2)
            said.seek(0)
            lines = said.read(4096).decode("utf-8", "replace").strip().splitlines()
    finally:
        os.close(saved)
        cv2.setLogLevel(before)
    last = lines[-1].strip() if lines else ""
    return img, last.removeprefix("libpng error: ").removeprefix("libpng warning: ")


def _decoder_of(head: bytes) -> str:
    """The name of the format's decoder for a message: "the PNG decoder", "the JPEG decoder", "the decoder"."""
    if head.startswith(b"\x89PNG"):
        return "the PNG decoder"
    return "the JPEG decoder" if head.startswith(b"\xff\xd8") else "the decoder"


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR.

    The size is read from the file's header first: an image over ``MAX_IMAGE_PIXELS`` (or a file over
    ``MAX_FILE_BYTES``) is refused before anything is decoded; one under ``MIN_FRAME_SIDE`` pixels either way,
    which the decoder refuses, is refused here naming the file (before, the decoder's ``FrameError`` reached
    ``scan`` as a traceback and ended the batch).

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
    if not data.size:
        raise ImageError(f"{p}: an empty file (0 bytes), not an image")
    head = data[:1 << 20].tobytes()
    size = image_size(head)
    if size is None and head[:4] in TIFF_MAGIC:  # its directory may come after the pixels: read it all
        size = image_size(data.tobytes())
    if size is None:
        raise ImageError(f"{p}: cannot read the image size from its header (formats read: {FORMATS})")
    if size[0] * size[1] > MAX_IMAGE_PIXELS:
        w, h = size
        raise ImageError(f"{p}: {w}x{h} pixels ({w * h / 1e6:.0f} MP) is over the {MAX_IMAGE_PIXELS / 1e6:.0f} MP "
                         f"an image may have (decoding it would take {w * h * 3 / 2**20:.0f} MiB); scale it down first")
    if png_cut_short(memoryview(data)):
        raise ImageError(f"{p}: a PNG cut short or damaged (its chunks run past the file's end before the last "
                         "one): copy it again")
    img, said = _decode_quietly(data)
    if img is None and head[:6] in GIF_MAGIC:
        raise ImageError(f"{p}: a GIF, which OpenCV here does not decode: save it as PNG or JPEG")
    if img is None:
        raise ImageError(f"{p}: not an image OpenCV can read" + (f" ({_decoder_of(head)} said: {said})" if said else ""))
    if said:  # decoded all the same (a JPEG with a damaged stretch reads with a band of grey): said once, named
        log.warning("%s: read, but %s warned: %s", p, _decoder_of(head), said)
    if min(img.shape[:2]) < MIN_FRAME_SIDE:
        raise ImageError(f"{p}: {img.shape[1]}x{img.shape[0]} pixels is too small to be a picture of the table "
                         f"(want at least {MIN_FRAME_SIDE} x {MIN_FRAME_SIDE})")
    return img


# Where the code sits on the sticker (vision/labels.py): the centre of the symbol lies this many modules
# below the sticker's centre, towards the symbol's bottom edge. Per symbol: modules across, offset.
CODE_BELOW_CENTRE = {"micro": (13, 80.5 / 35), "qr": (21, 115.5 / 21)}


def card_centre(s: Sighting, variant: str = "micro") -> tuple[float, float, float]:
    """The card's centre (px) from a sighting of its code, and the code's pixels per module.

    The symbol's corners come in its own order (top-left, top-right, bottom-right, bottom-left), so
    "up" on the sticker is from the bottom edge's midpoint to the top edge's, whatever the card's angle.
    """
    modules, below = CODE_BELOW_CENTRE[variant]
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = s.corners[:4]
    upx, upy = (ax + bx - cx - dx) / 2, (ay + by - cy - dy) / 2  # bottom edge -> top edge, one side long
    side = float(np.hypot(upx, upy))
    if side == 0:
        return s.x, s.y, 0.0
    width = float(np.hypot(bx - ax, by - ay))
    ppm = (side + width) / 2 / modules
    k = below * ppm / side
    return s.x + upx * k, s.y + upy * k, ppm


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
        card_x, card_y, ppm = card_centre(s, s.symbol)
        cards.append({"card": None if s.code.card is None else s.code.card.code, "pack": s.code.pack,
                      "x": round(s.x), "y": round(s.y), "card_x": round(card_x), "card_y": round(card_y),
                      "px_per_module": round(ppm, 2), "face_up": not s.code.is_back, "zone": zone})
    calls = [{"seat": c.code.seat.value, "call": c.code.call.code, "copy": c.code.copy, "x": round(c.x),
              "y": round(c.y), "zone": zones.zone_at(*to_table(hom, c.x, c.y))} for c in reading.calls]
    return {"image": name, "cards": cards,
            "unreadable": [{"x": round(x), "y": round(y)} for x, y in reading.unreadable], "calls": calls}
