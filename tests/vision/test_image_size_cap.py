"""Still images are sized from their headers and refused before decoding when too large: a small file
must not become gigabytes in memory."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware_host.cli import main
from vision.imagesize import FORMATS, MAX_IMAGE_PIXELS, image_size
from vision.scan import ImageError, load_image


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def big_png(path: Path, width: int, height: int, *, rows: bool = True) -> None:
    """A valid grey PNG of width x height (all black), compressed row by row so writing it costs little;
    with ``rows=False`` only its header (a file that lies about its size)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    with path.open("wb") as fp:
        fp.write(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr))
        if rows:
            z = zlib.compressobj(9)
            row = bytes(width + 1)
            data = b"".join(z.compress(row) for _ in range(height)) + z.flush()
            fp.write(_chunk(b"IDAT", data))
        fp.write(_chunk(b"IEND", b""))


@pytest.mark.parametrize("ext", [".png", ".jpg", ".bmp", ".webp", ".tiff", ".ppm", ".pgm"])
def test_header_sizes_match_what_opencv_decodes(ext: str) -> None:
    img = np.zeros((37, 53, 3), np.uint8)
    img[5:20, 7:30] = (10, 200, 90)
    if ext == ".pgm":
        img = img[:, :, 0]
    ok, buf = cv2.imencode(ext, img)
    assert ok
    assert image_size(buf.tobytes()) == (53, 37)


def test_gif_and_nonsense() -> None:
    assert image_size(b"GIF89a" + struct.pack("<HH", 640, 480) + b"\x00" * 8) == (640, 480)
    assert image_size(b"not an image at all") is None
    assert image_size(b"\x89PNG\r\n\x1a\n") is None  # cut short
    assert image_size(b"\xff\xd8\xff\xe0\x00") is None


def test_a_lying_png_header_is_refused_before_decoding(tmp_path: Path) -> None:
    p = tmp_path / "huge.png"
    big_png(p, 60000, 60000, rows=False)
    with pytest.raises(ImageError, match=r"60000x60000 pixels.*over") as info:
        load_image(p)
    assert str(p) in str(info.value)


def test_a_small_file_of_a_huge_image_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "10k.png"
    big_png(p, 10000, 10000)
    assert p.stat().st_size < 200_000 and 10000 * 10000 > MAX_IMAGE_PIXELS
    rc = main(["scan", str(p)])
    err = capsys.readouterr().err
    assert rc == 2 and "10000x10000 pixels" in err and "MP" in err and len(err.strip().splitlines()) == 1


def test_an_image_at_the_cap_still_reads(tmp_path: Path) -> None:
    p = tmp_path / "ok.png"
    big_png(p, 2000, 1500)
    assert load_image(p).shape == (1500, 2000, 3)


def test_a_format_whose_size_cannot_be_read_is_named(tmp_path: Path) -> None:
    p = tmp_path / "x.hdr"
    ok, buf = cv2.imencode(".hdr", np.zeros((4, 4, 3), np.float32))
    assert ok
    p.write_bytes(buf.tobytes())
    with pytest.raises(ImageError, match="size"):
        load_image(p)


@pytest.mark.parametrize("mm", [["nan", "450"], ["-800", "450"], ["800", "inf"], ["0", "450"], ["1e9", "450"]])
def test_calibrate_refuses_table_sizes_no_table_has(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   mm: list[str]) -> None:
    out = tmp_path / "cal.json"
    rc = main(["calibrate", "--camera", "synthetic", "--out", str(out), "--table-mm", *mm])
    err = capsys.readouterr().err
    assert rc == 2 and "--table-mm" in err and not out.exists() and len(err.strip().splitlines()) == 1


def test_calibrate_into_a_missing_folder_is_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["calibrate", "--camera", "synthetic", "--out", str(tmp_path / "nowhere" / "cal.json")])
    err = capsys.readouterr().err
    assert rc == 2 and "does not exist" in err and str(tmp_path / "nowhere") in err


def test_a_directory_is_not_an_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["scan", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 2 and "a directory, not an image file" in err


@pytest.mark.parametrize("command", ["scan", "calibrate", "camera-check"])
def test_an_image_cut_short_is_one_line(tmp_path: Path, capfd: pytest.CaptureFixture[str], command: str) -> None:
    """A PNG cut in half (a copy that stopped): OpenCV's own warning ("[ WARN:0@0.2] global
    grfmt_png.cpp:678 read_from_io PNG input buffer is incomplete") reached standard error before the
    command's message, a second line in code words."""
    img = np.full((200, 300, 3), 255, np.uint8)
    img[50:150, 50:250] = 0
    ok, png = cv2.imencode(".png", img)
    assert ok
    cut = tmp_path / "cut.png"
    cut.write_bytes(png.tobytes()[: len(png) // 2])
    argv = {"scan": ["scan", str(cut)], "calibrate": ["calibrate", "--image", str(cut), "--out", str(tmp_path / "h.json")],
            "camera-check": ["camera-check", "--image", str(cut)]}[command]
    assert main(argv) == 2
    err = capfd.readouterr().err
    assert err.strip() == f"cardtable {command}: {cut}: a PNG cut short or damaged (its chunks run past the file's " \
        "end before the last one): copy it again", err


def test_a_tiff_whose_directory_lies_past_the_first_mib_reads(tmp_path: Path) -> None:
    """OpenCV (libtiff) writes a TIFF's directory, where its width and height are, after the pixels: a
    1280x720 photo saved as TIFF was refused as "cannot read the image size from its header (formats
    read: ... TIFF ...)", because only the file's first MiB was handed to the header reader."""
    img = np.random.default_rng(5).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(".tiff", img)
    assert ok
    data = buf.tobytes()
    assert data[:4] == b"II*\x00" and struct.unpack("<I", data[4:8])[0] > 1 << 20  # the case: directory last
    p = tmp_path / "photo.tif"
    p.write_bytes(data)
    assert load_image(p).shape == (720, 1280, 3)


@pytest.mark.parametrize("command", ["scan", "calibrate", "camera-check"])
def test_a_photo_cut_short_is_one_line(tmp_path: Path, capfd: pytest.CaptureFixture[str], command: str) -> None:
    """A photo's PNG cut in half: libpng's own "libpng error: PNG input buffer is incomplete" reached
    standard error before the command's message (OpenCV's log level does not hold it back), a second
    line in code words. The white box above compresses to one short chunk and never showed it."""
    img = np.random.default_rng(3).integers(0, 256, (200, 300, 3), dtype=np.uint8)
    ok, png = cv2.imencode(".png", img)
    assert ok
    cut = tmp_path / "cut.png"
    cut.write_bytes(png.tobytes()[: len(png) // 2])
    argv = {"scan": ["scan", str(cut)], "calibrate": ["calibrate", "--image", str(cut), "--out", str(tmp_path / "h.json")],
            "camera-check": ["camera-check", "--image", str(cut)]}[command]
    assert main(argv) == 2
    err = capfd.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(cut) in err and "cut short" in err, err


def test_an_empty_file_is_said_to_be_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """p1: a 0-byte file (a copy that never started) was "not an image OpenCV can read", as if it held
    something of another format."""
    p = tmp_path / "frame.png"
    p.write_bytes(b"")
    assert main(["scan", str(p)]) == 2
    assert capsys.readouterr().err == f"cardtable scan: {p}: an empty file (0 bytes), not an image\n"


def test_a_gif_is_named_when_opencv_cannot_decode_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """p1: the formats ``scan`` named as read included GIF, but the OpenCV wheel the house installs is built
    without GIF ("GIF: NO"): a GIF was "not an image OpenCV can read" after a message that listed GIF as read.
    GIF is no camera's format; a GIF is named and the user told what to save it as."""
    from PIL import Image

    p = tmp_path / "frame.gif"
    Image.new("RGB", (64, 48), "white").save(p)
    if cv2.imdecode(np.fromfile(p, np.uint8), cv2.IMREAD_COLOR) is not None:
        pytest.skip("this OpenCV decodes GIF")
    assert main(["scan", str(p)]) == 2
    assert capsys.readouterr().err == f"cardtable scan: {p}: a GIF, which OpenCV here does not decode: save it as PNG or JPEG\n"
    assert "GIF" not in FORMATS


def _photo(tmp_path: Path, ext: str) -> tuple[Path, bytes]:
    img = np.random.default_rng(7).integers(0, 256, (240, 320, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(ext, img)
    assert ok
    return tmp_path / f"photo{ext}", buf.tobytes()


def test_a_png_damaged_inside_is_one_line_saying_what_the_decoder_found(tmp_path: Path,
                                                                        capfd: pytest.CaptureFixture[str]) -> None:
    """p1: a PNG whole in length but with bytes changed inside its image data printed libpng's own
    "libpng error: bad adaptive filter value" to standard error before the line naming the file."""
    p, data = _photo(tmp_path, ".png")
    spoilt = bytearray(data)
    for k in range(len(data) // 2, len(data) // 2 + 100):   # inside an IDAT chunk: every length intact
        spoilt[k] ^= 0x55
    p.write_bytes(bytes(spoilt))
    assert main(["scan", str(p)]) == 2
    err = capfd.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"cardtable scan: {p}: not an image OpenCV can read (the PNG decoder said: "), err


def test_a_jpeg_damaged_inside_is_read_and_its_decoders_warning_named_once(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    """p1: a JPEG with bytes changed inside still decodes (a band of grey), and libjpeg printed "Corrupt
    JPEG data: premature end of data segment" to standard error naming no file; it is one warning now,
    naming the file."""
    p, data = _photo(tmp_path, ".jpg")
    spoilt = bytearray(data)
    for k in range(len(data) // 2, len(data) // 2 + 200):
        spoilt[k] ^= 0x55
    p.write_bytes(bytes(spoilt))
    assert main(["scan", str(p)]) == 0
    assert "Corrupt JPEG" not in capfd.readouterr().err                 # not libjpeg's own line...
    said = [r.getMessage() for r in caplog.records if "Corrupt JPEG" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith(f"{p}: read, but the JPEG decoder warned: Corrupt JPEG data"), said
