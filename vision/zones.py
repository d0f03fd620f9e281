"""Table geometry: the ``[vision]`` and ``[zones]`` sections of ``config/table.toml``.

Table coordinates are millimetres on the felt, origin at the top-left of the camera's view of the
table, x to the right, y towards the bottom of the image (South's edge). A homography maps frame
pixels to table millimetres; without calibration the default one scales the frame to fit the table
area, which is what the synthetic camera renders.

```toml
[vision]
decoder = "zxing"          # or "pyzbar"
variants = ["micro", "qr"]  # symbols the zxing decoder reads, no other: "micro" and/or "qr" (pyzbar reads only qr)
table_mm = [800, 450]      # the area the camera sees, width and height
confirm_k = 2              # a card counts as seen when decoded in k ...
confirm_n = 3              # ... of the last n frames
gone_m = 5                 # and as gone after m frames without it
heavy_ec_below = 0.5       # a read using more error correction than this is a damaged code
homography_file = ""       # written by `cardtable calibrate`; empty: default homography
remedies = ["glare", "regrid", "narrow"]   # the zxing decoder's costly second-look remedies (below)

[zones.N]                  # one table per zone: x0, y0, x1, y1 in table millimetres
rect = [250, 0, 550, 110]
```

Zone names ``N``, ``E``, ``S``, ``W`` are the seats' areas; ``centre`` is where tricks are played,
``cut`` the cut area and ``shoe`` the shoe exit. Other names are allowed (for example draw areas).

``remedies`` chooses which of the zxing decoder's costly remedies its second look uses (``REMEDIES``;
vision/CARD_CODES.md, "The [vision] section", gives what each reads and costs): the default is every
remedy but ``faint_glare``; ``[]`` is the cheapest. pyzbar has no second look, so it takes no remedies.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

SEAT_ZONES = ("N", "E", "S", "W")
CENTRE = "centre"
CUT = "cut"
SHOE = "shoe"
DECODERS = ("zxing", "pyzbar")
VARIANTS = ("micro", "qr")
# The zxing decoder's costly second-look remedies, each a flag of ``vision.decode.ZxingDecoder``: the glare
# look, the module-by-module read, the narrow closing, and the glare look's fainter ink (needs ``glare``)
REMEDIES = ("glare", "regrid", "narrow", "faint_glare")
DEFAULT_REMEDIES = ("glare", "regrid", "narrow")


class ConfigError(ValueError):
    """A configuration value that is missing or wrong; the message names the key."""


@dataclass(frozen=True)
class Zone:
    """An axis-aligned rectangle of the table, in millimetres."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


DEFAULT_ZONES: tuple[Zone, ...] = (
    Zone("N", 250, 0, 550, 110),
    Zone("S", 250, 340, 550, 450),
    Zone("W", 0, 110, 200, 340),
    Zone("E", 600, 110, 800, 340),
    Zone(CENTRE, 250, 130, 550, 320),
    Zone(CUT, 0, 0, 200, 110),
    Zone(SHOE, 600, 340, 800, 450),
)


@dataclass(frozen=True)
class Zones:
    """The zones of the table; ``zone_at`` answers which one holds a point (first match wins)."""

    zones: tuple[Zone, ...] = DEFAULT_ZONES

    def zone_at(self, x: float, y: float) -> str | None:
        for z in self.zones:
            if z.contains(x, y):
                return z.name
        return None

    def get(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"no zone named {name!r}")

    def nearest_seat(self, x: float, y: float, among: tuple[str, ...] = SEAT_ZONES) -> str | None:
        """The seat zone (one of ``among``) whose centre is nearest to the point: who pushed a card
        to the centre."""
        seats = [z for z in self.zones if z.name in among]
        if not seats:
            return None
        return min(seats, key=lambda z: math.dist(z.centre, (x, y))).name


@dataclass(frozen=True)
class VisionConfig:
    """Validated vision settings (see the module docstring for the TOML shape)."""

    decoder: str = "zxing"
    variants: tuple[str, ...] = ("micro", "qr")
    table_mm: tuple[float, float] = (800.0, 450.0)
    confirm_k: int = 2
    confirm_n: int = 3
    gone_m: int = 5
    heavy_ec_below: float = 0.5
    homography_file: str = ""
    remedies: tuple[str, ...] = DEFAULT_REMEDIES
    zones: Zones = field(default_factory=Zones)


def default_homography(frame_size: tuple[int, int], table_mm: tuple[float, float]) -> np.ndarray:
    """Frame pixels -> table mm when the frame shows exactly the table area, centred, aspect kept."""
    w, h = frame_size
    tw, th = table_mm
    scale = min(w / tw, h / th)  # px per mm
    ox, oy = (w - tw * scale) / 2, (h - th * scale) / 2
    to_frame = np.array([[scale, 0, ox], [0, scale, oy], [0, 0, 1]], dtype=np.float64)
    return np.linalg.inv(to_frame)


def to_table(h: np.ndarray, x: float, y: float) -> tuple[float, float]:
    """Apply a homography to one point."""
    v = h @ np.array([x, y, 1.0])
    return float(v[0] / v[2]), float(v[1] / v[2])


def _number(v: Any, key: str) -> float:
    """A finite number: TOML's ``nan`` and ``inf`` are refused too (a zone of ``nan`` held no point, and one to
    ``inf`` every point beyond, with nothing said; audit 61)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ConfigError(f"{key}: want a number, got {v!r}")
    if not math.isfinite(v):
        raise ConfigError(f"{key}: want a finite number, got {v!r}")
    return float(v)


def _positive_int(v: Any, key: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise ConfigError(f"{key}: want a whole number of at least 1, got {v!r}")
    return v


def parse_vision_config(doc: Mapping[str, Any]) -> VisionConfig:
    """Build a ``VisionConfig`` from a parsed TOML document (its ``vision`` and ``zones`` tables).

    Raises:
        ConfigError: naming the key that is wrong.
    """
    vis = doc.get("vision", {})
    if not isinstance(vis, Mapping):
        raise ConfigError("vision: want a table")
    known = {"decoder", "variants", "table_mm", "confirm_k", "confirm_n", "gone_m", "heavy_ec_below", "homography_file",
             "remedies"}
    for key in vis:
        if key not in known:
            raise ConfigError(f"vision.{key}: unknown key (known: {', '.join(sorted(known))})")
    kw: dict[str, Any] = {}
    if "decoder" in vis:
        if vis["decoder"] not in DECODERS:
            raise ConfigError(f"vision.decoder: {vis['decoder']!r} is not one of {', '.join(DECODERS)}")
        kw["decoder"] = vis["decoder"]
    if "variants" in vis:
        v = vis["variants"]
        if not isinstance(v, list) or not v or any(x not in VARIANTS for x in v):
            raise ConfigError(f"vision.variants: want a list of {' and/or '.join(VARIANTS)}, got {v!r}")
        kw["variants"] = tuple(v)
    if "table_mm" in vis:
        t = vis["table_mm"]
        if not isinstance(t, list) or len(t) != 2:
            raise ConfigError(f"vision.table_mm: want [width, height], got {t!r}")
        size = (_number(t[0], "vision.table_mm"), _number(t[1], "vision.table_mm"))
        if min(size) <= 0:
            raise ConfigError(f"vision.table_mm: sizes must be positive, got {t!r}")
        kw["table_mm"] = size
    for key in ("confirm_k", "confirm_n", "gone_m"):
        if key in vis:
            kw[key] = _positive_int(vis[key], f"vision.{key}")
    if kw.get("confirm_k", 2) > kw.get("confirm_n", 3):
        raise ConfigError("vision.confirm_k: must not exceed vision.confirm_n")
    if "heavy_ec_below" in vis:
        v = _number(vis["heavy_ec_below"], "vision.heavy_ec_below")
        if not 0 <= v <= 1:
            raise ConfigError(f"vision.heavy_ec_below: want a share between 0 and 1, got {v}")
        kw["heavy_ec_below"] = v
    if "homography_file" in vis:
        if not isinstance(vis["homography_file"], str):
            raise ConfigError("vision.homography_file: want a path string")
        kw["homography_file"] = vis["homography_file"]
    if "remedies" in vis:
        kw["remedies"] = parse_remedies(vis["remedies"], "vision.remedies")
        if kw.get("decoder") == "pyzbar" and kw["remedies"]:
            raise ConfigError("vision.remedies: the pyzbar decoder has no second look, so no remedies (give [] or "
                              "decoder = \"zxing\")")
    zones_doc = doc.get("zones")
    if zones_doc is not None:
        kw["zones"] = _parse_zones(zones_doc)
    return VisionConfig(**kw)


def parse_remedies(v: Any, key: str) -> tuple[str, ...]:
    """A list of remedy names (``REMEDIES``), each at most once, ``faint_glare`` only with ``glare``.

    Raises:
        ConfigError: naming ``key``.
    """
    if not isinstance(v, list) or any(not isinstance(x, str) for x in v):
        raise ConfigError(f"{key}: want a list of remedy names ({', '.join(REMEDIES)}), got {v!r}")
    unknown = [x for x in v if x not in REMEDIES]
    if unknown:
        raise ConfigError(f"{key}: {', '.join(map(repr, unknown))} is not a remedy (known: {', '.join(REMEDIES)})")
    twice = sorted({x for x in v if v.count(x) > 1})
    if twice:
        raise ConfigError(f"{key}: {', '.join(map(repr, twice))} given more than once")
    if "faint_glare" in v and "glare" not in v:
        raise ConfigError(f"{key}: 'faint_glare' is a fainter ink for the glare look, so it needs 'glare' too")
    return tuple(v)


def _parse_zones(doc: Any) -> Zones:
    if not isinstance(doc, Mapping) or not doc:
        raise ConfigError("zones: want one table per zone, e.g. [zones.N] rect = [x0, y0, x1, y1]")
    out = []
    for name, z in doc.items():
        key = f"zones.{name}.rect"
        if not isinstance(z, Mapping):  # `N = [...]` instead of `[zones.N]` and `rect = [...]`
            raise ConfigError(f"zones.{name}: want a table ([zones.{name}] rect = [x0, y0, x1, y1]), got {z!r}")
        if "rect" not in z:
            raise ConfigError(f"{key}: missing")
        for extra in z:
            if extra != "rect":  # a zone is its rectangle alone: a colour or a name misspelt is said, not ignored
                raise ConfigError(f"zones.{name}.{extra}: unknown key (a zone's table holds rect only)")
        r = z["rect"]
        if not isinstance(r, list) or len(r) != 4:
            raise ConfigError(f"{key}: want [x0, y0, x1, y1], got {r!r}")
        x0, y0, x1, y1 = (_number(v, key) for v in r)
        if x1 <= x0 or y1 <= y0:
            raise ConfigError(f"{key}: want x0 < x1 and y0 < y1, got {r!r}")
        out.append(Zone(str(name), x0, y0, x1, y1))
    return Zones(tuple(out))


def parse_vision_sections(vision: Mapping[str, Any], zones: Any, origin: str,
                          camera_decoder: str | None = None) -> VisionConfig:
    """The ``VisionConfig`` of a table's configuration whose ``[vision]`` and ``[zones]`` tables are given
    apart (``zones`` None: no section, the default zones; an empty section is refused, as CARD_CODES.md says). ``camera_decoder`` is the table's ``camera.decoder``: the
    decoder unless ``vision.decoder`` is given, which must then say the same.

    Raises:
        ConfigError: naming ``origin`` and the key that is wrong.
    """
    if not isinstance(vision, Mapping):
        raise ConfigError(f"{origin}: vision: want a table")
    doc: dict[str, Any] = {"vision": dict(vision)}
    if camera_decoder is not None:
        given = doc["vision"].setdefault("decoder", camera_decoder)
        if given != camera_decoder:
            raise ConfigError(f"{origin}: vision.decoder: {given!r} but camera.decoder is {camera_decoder!r} "
                              "(give the decoder once, in [camera])")
    if zones is not None:
        doc["zones"] = zones
    try:
        return parse_vision_config(doc)
    except ConfigError as exc:
        raise ConfigError(f"{origin}: {exc}") from None


def load_vision_config(path: str | Path) -> VisionConfig:
    """Read and validate the vision part of a TOML file (a table's whole configuration, or only its
    ``[vision]`` and ``[zones]``) as the table reads it: its ``camera.decoder`` too, and a relative
    ``homography_file`` taken beside the file; errors name the file and the key."""
    p = Path(path)
    try:
        doc = tomllib.loads(p.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:   # ``scan --config`` said "'utf-8' codec can't decode byte 0x98 ...", no file
        raise ConfigError(f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML ({exc})") from None
    except ValueError as exc:           # an integer of thousands of digits
        raise ConfigError(f"{p}: a value TOML cannot hold ({str(exc).split(';')[0]})") from None
    except RecursionError:
        raise ConfigError(f"{p}: arrays or tables nested too deeply") from None
    vision = doc.get("vision", {})
    if isinstance(vision, Mapping):
        vision = dict(vision)
        hfile = vision.get("homography_file")
        if isinstance(hfile, str) and hfile and not Path(hfile).is_absolute():
            vision["homography_file"] = str(p.resolve().parent / hfile)
    camera = doc.get("camera", {})
    decoder = camera.get("decoder") if isinstance(camera, Mapping) else None
    return parse_vision_sections(vision, doc.get("zones"), str(p), decoder if isinstance(decoder, str) else None)
