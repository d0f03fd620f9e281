"""An image's width and height read from its header, before anything is decoded.

A PNG of 10000 x 10000 pixels can be a 118 KB file that decodes to 300 MB (and OpenCV's own limit is
2^30 pixels, 3 GB as BGR), so still images are sized from their headers first and refused when too large.
Read here: PNG, JPEG, BMP, WebP, TIFF and the PNM family (PBM/PGM/PPM) - the formats a camera or a phone
writes and OpenCV decodes - and GIF, which the opencv-python wheels do not decode (``scan`` names it). Standard
library only; no decoding.
"""

from __future__ import annotations

import struct

# Pixels ``cardtable scan`` and ``calibrate`` decode at most: 40 MP, over three times the largest Pi
# camera (12 MP); 120 MB as BGR.
MAX_IMAGE_PIXELS = 40_000_000
# The formats named to a user as read: sized here and decoded by OpenCV. GIF is sized here but not named:
# the opencv-python wheels are built without it ("GIF: NO"), and no camera writes it.
FORMATS = "PNG, JPEG, BMP, WebP, TIFF, PBM/PGM/PPM"
GIF_MAGIC = (b"GIF87a", b"GIF89a")
# A TIFF's first bytes; its width and height are in a directory that may lie anywhere in the file (libtiff,
# and so OpenCV, writes it after the pixels), so a TIFF is sized from the whole file, not its first bytes.
TIFF_MAGIC = (b"II*\x00", b"MM\x00*")

# JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic...): not DHT (C4), JPG (C8), DAC (CC)
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from the header of an encoded image, or None when the format is not one read
    here or the header is cut short or malformed."""
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            w, h = struct.unpack(">II", data[16:24])
            return w, h
        if data.startswith(b"\xff\xd8"):
            return _jpeg(data)
        if data.startswith(b"BM"):
            w, h = struct.unpack("<ii", data[18:26])
            return abs(w), abs(h)  # a negative height means top-down rows
        if data[:6] in GIF_MAGIC:
            w, h = struct.unpack("<HH", data[6:10])
            return w, h
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp(data)
        if data[:4] in TIFF_MAGIC:
            return _tiff(data)
        if data[:1] == b"P" and data[1:2] in b"123456":
            return _pnm(data)
    except (struct.error, ValueError, IndexError):
        return None
    return None


def png_cut_short(data: bytes | memoryview) -> bool:
    """Whether a PNG ends before its IEND chunk (a copy that stopped, a download cut off).

    Such a file is refused before decoding: libpng prints "libpng error: PNG input buffer is incomplete"
    to standard error itself while OpenCV decodes it, whatever OpenCV's log level, a line in code words
    before the one that names the file. Only the chunks' lengths and names are read, not their data.
    """
    if bytes(data[:8]) != b"\x89PNG\r\n\x1a\n":
        return False
    i = 8
    while i + 12 <= len(data):
        (length,) = struct.unpack(">I", data[i:i + 4])
        if bytes(data[i + 4:i + 8]) == b"IEND":
            return False
        i += 12 + length
    return True


def _jpeg(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if marker in _SOF:
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        if marker == 0xDA or length < 2:  # scan data before any frame header: not a JPEG we can size
            return None
        i += 2 + length
    return None


def _webp(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        w = 1 + int.from_bytes(data[24:27], "little")
        h = 1 + int.from_bytes(data[27:30], "little")
        return w, h
    if chunk == b"VP8L" and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    return None


def _tiff(data: bytes) -> tuple[int, int] | None:
    end = "<" if data[:2] == b"II" else ">"
    (offset,) = struct.unpack(end + "I", data[4:8])
    (count,) = struct.unpack(end + "H", data[offset:offset + 2])
    found: dict[int, int] = {}
    for k in range(count):
        entry = data[offset + 2 + 12 * k:offset + 14 + 12 * k]
        tag, kind = struct.unpack(end + "HH", entry[:4])
        if tag in (256, 257):  # ImageWidth, ImageLength: SHORT (3) or LONG (4)
            value = struct.unpack(end + ("H" if kind == 3 else "I"), entry[8:10] if kind == 3 else entry[8:12])[0]
            found[tag] = value
    return (found[256], found[257]) if 256 in found and 257 in found else None


def _pnm(data: bytes) -> tuple[int, int] | None:
    fields: list[int] = []
    for line in data[2:4096].split(b"\n"):
        line = line.split(b"#", 1)[0]
        for word in line.split():
            if not word.isdigit() or len(word) > 9:
                return None
            fields.append(int(word))
            if len(fields) == 2:
                return fields[0], fields[1]
    return None
