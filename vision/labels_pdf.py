"""The label sheets as a vector PDF: every code module a filled square and every letter a filled outline,
so a print shop's cutter and printer place them exactly, at any resolution, in a small file.

A minimal PDF 1.4 writer (no dependency but fontTools for the glyph outlines): one content stream per
page, coordinates in points from the page's lower-left corner. ``VectorPage`` collects what a page
shows in millimetres from its top-left corner (the raster pages' frame); ``write_pdf`` writes the file.
Text is drawn from the TrueType outlines of DejaVu Sans Bold (Debian's fonts-dejavu-core, on Raspberry Pi
OS and Debian alike), quadratic curves raised to the cubic ones PDF draws.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

PT_PER_MM = 72 / 25.4
FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
              "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FONT_PACKAGE = "fonts-dejavu-core"  # Debian's package of FONT_FILES


class MissingFont(ValueError):
    """No DejaVu Sans here: the labels' text cannot be drawn. The message is the one line a person reads
    (the font, where it was looked for, the apt package), with no file of theirs to blame."""


def _num(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


@lru_cache(maxsize=2)
def _font(path: str) -> Any:
    from fontTools.ttLib import TTFont

    return TTFont(path)


def font_file() -> str:
    """The outline font the labels' text is drawn from.

    Raises:
        MissingFont: no DejaVu Sans on this machine (``apt install fonts-dejavu-core``), nor matplotlib's
            copy of it (the club's extra brings matplotlib, through endplay).
    """
    candidates = list(FONT_FILES)
    try:  # a venv with matplotlib carries the same font
        import matplotlib

        candidates.append(str(Path(matplotlib.__file__).parent / "mpl-data/fonts/ttf/DejaVuSans-Bold.ttf"))
    except ImportError:
        pass
    for path in candidates:
        if Path(path).is_file():
            return path
    raise MissingFont(f"the labels' text needs the font DejaVu Sans Bold ({Path(FONT_FILES[0]).name}), which is "
                      f"not in {Path(FONT_FILES[0]).parent} nor in a matplotlib here: sudo apt install "
                      f"{FONT_PACKAGE}")


def _path_pen(glyphs: Any, scale: float, x: float, y: float) -> Any:
    """A fontTools pen that writes PDF path operators, scaled and moved to the text's place (composite
    glyphs decomposed and TrueType's quadratic curves raised to cubic ones by fontTools' ``BasePen``)."""
    from fontTools.pens.basePen import BasePen

    class PathPen(BasePen):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(glyphs)
            self.ops: list[str] = []

        def _p(self, pt: tuple[float, float]) -> str:
            return f"{_num(x + pt[0] * scale)} {_num(y + pt[1] * scale)}"

        def _moveTo(self, pt: tuple[float, float]) -> None:  # noqa: N802 - fontTools' pen protocol
            self.ops.append(f"{self._p(pt)} m")

        def _lineTo(self, pt: tuple[float, float]) -> None:  # noqa: N802
            self.ops.append(f"{self._p(pt)} l")

        def _curveToOne(self, p1: tuple[float, float], p2: tuple[float, float],  # noqa: N802
                        p3: tuple[float, float]) -> None:
            self.ops.append(f"{self._p(p1)} {self._p(p2)} {self._p(p3)} c")

        def _closePath(self) -> None:  # noqa: N802
            self.ops.append("h")

    return PathPen()


def text_width(text: str, size_mm: float) -> float:
    """The width of ``text`` set at ``size_mm`` (the em), in mm."""
    font = _font(font_file())
    cmap, hmtx, upem = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm
    return sum(hmtx[cmap.get(ord(ch), ".notdef")][0] for ch in text) * size_mm / upem


@dataclass
class Glyphs:
    """The glyph outlines a file uses, each drawn once (a form XObject in font units, ``/G<n>``) and
    placed wherever it is needed: a pack's sheets repeat the same few letters hundreds of times."""

    names: dict[str, int] = field(default_factory=dict)   # glyph name -> n
    paths: list[str] = field(default_factory=list)        # n -> its path operators, font units

    def use(self, glyphs: Any, name: str) -> int:
        if name not in self.names:
            pen = _path_pen(glyphs, 1.0, 0.0, 0.0)
            glyphs[name].draw(pen)
            self.names[name] = len(self.paths)
            self.paths.append(" ".join(pen.ops) + (" f" if pen.ops else ""))
        return self.names[name]


@dataclass
class VectorPage:
    """What one page shows, in mm from its top-left corner; ``ops`` is its content stream."""

    width_mm: float
    height_mm: float
    glyphs: Glyphs = field(default_factory=Glyphs)
    ops: list[str] = field(default_factory=list)

    def _pt(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return x_mm * PT_PER_MM, (self.height_mm - y_mm) * PT_PER_MM

    def frame(self, x: float, y: float, w: float, h: float, gray: float = 0.78, line_mm: float = 0.17) -> None:
        """A thin rectangle (the cut line) with its top-left corner at (x, y)."""
        px, py = self._pt(x, y + h)
        self.ops.append(f"q {_num(gray)} G {_num(line_mm * PT_PER_MM)} w {_num(px)} {_num(py)} "
                        f"{_num(w * PT_PER_MM)} {_num(h * PT_PER_MM)} re S Q")

    def modules(self, dark: np.ndarray, x: float, y: float, module_mm: float) -> None:
        """A code's dark modules (``dark[row, col]`` true), the top-left module's corner at (x, y): each
        row's runs of dark modules as filled rectangles, edge to edge."""
        rects = []
        for r, row in enumerate(dark):
            c = 0
            while c < len(row):
                if row[c]:
                    start = c
                    while c < len(row) and row[c]:
                        c += 1
                    px, py = self._pt(x + start * module_mm, y + (r + 1) * module_mm)
                    rects.append(f"{_num(px)} {_num(py)} {_num((c - start) * module_mm * PT_PER_MM)} "
                                 f"{_num(module_mm * PT_PER_MM)} re")
                else:
                    c += 1
        if rects:
            self.ops.append("q 0 g " + " ".join(rects) + " f Q")

    def text(self, line: str, x: float, y: float, size_mm: float, rgb: tuple[float, float, float] = (0, 0, 0),
             anchor: str = "lt") -> None:
        """``line`` as filled outlines, ``size_mm`` the em; ``anchor`` ``lt``: (x, y) is the top-left of
        the text's ascent (as Pillow's default); ``mm``: its middle."""
        font = _font(font_file())
        glyphs, cmap, hmtx = font.getGlyphSet(), font.getBestCmap(), font["hmtx"]
        upem = font["head"].unitsPerEm
        ascent, descent = font["hhea"].ascent, font["hhea"].descent
        scale_mm = size_mm / upem
        if anchor == "mm":
            x -= text_width(line, size_mm) / 2
            y -= (ascent + descent) * scale_mm / 2  # the middle of ascent and descent
        base_x, base_y = self._pt(x, y + ascent * scale_mm)
        s = scale_mm * PT_PER_MM
        ops = []
        pen_x = base_x
        for ch in line:
            name = cmap.get(ord(ch), ".notdef")
            if ch != " ":
                n = self.glyphs.use(glyphs, name)
                ops.append(f"q {_num(s * 1000)} 0 0 {_num(s * 1000)} {_num(pen_x)} {_num(base_y)} cm /G{n} Do Q")
            pen_x += hmtx[name][0] * s
        if ops:
            self.ops.append(f"q {' '.join(_num(c) for c in rgb)} rg " + " ".join(ops) + " Q")


def write_pdf(path: Path, pages: list[VectorPage]) -> int:
    """Write ``pages`` (sharing one ``Glyphs``) as one PDF file; returns its size in bytes."""
    objects: list[bytes] = [b"", b""]  # 1: catalog, 2: pages (filled in below)
    kids = []
    book = pages[0].glyphs if pages else Glyphs()
    forms = []
    for ops in book.paths:  # font units scaled by 1/1000 so that the placing matrix stays readable
        stream = zlib.compress(f"0.001 0 0 0.001 0 0 cm {ops}".encode("ascii"), 9)
        objects.append(b"<< /Type /XObject /Subtype /Form /BBox [-2 -2 3 3] /Length %d /Filter /FlateDecode >>"
                       b"\nstream\n" % len(stream) + stream + b"\nendstream")
        forms.append(len(objects))
    resources = "<< /XObject << " + " ".join(f"/G{i} {o} 0 R" for i, o in enumerate(forms)) + " >> >>"
    for page in pages:
        stream = zlib.compress("\n".join(page.ops).encode("ascii"), 9)
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
                       + b"\nendstream")
        content = len(objects)
        box = f"0 0 {_num(page.width_mm * PT_PER_MM)} {_num(page.height_mm * PT_PER_MM)}"
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [{box}] /Contents {content} 0 R "
                       f"/Resources {resources} >>".encode())
        kids.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    refs = " ".join(f"{k} 0 R" for k in kids)
    objects[1] = f"<< /Type /Pages /Kids [{refs}] /Count {len(kids)} >>".encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return len(out)
