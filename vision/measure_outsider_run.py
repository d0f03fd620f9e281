"""The outsider's table (``vision.measure_outsider``) as a benchmark: scenes, what is in view, scores.

``deal_scene`` lays playing cards as they lie in play; ``auction_scene`` lays each seat's bidding cards
as players lay them (``stack``, ``fan``, ``row`` or ``column``, one kind a frame) with a trick's cards in
the middle. ``in_view`` says which codes are fully in view: the code with its quiet zone inside the
picture, under no later card and no hand. ``run_outsider`` decodes each frame at 1280x720 and 1920x1080
with each decoder given, on the same frames, single-threaded, and counts:

* the share of fully visible playing cards read, and of fully visible bidding cards read;
* the share of seats whose last call (the top card) was read, when its code is fully visible;
* false reads: a text that no card on the table carries, or carried by none within a code's side of
  where it was read (a call in the wrong seat's set has another text, so it counts here too);
* the median ms of ``decoder.read`` a frame.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import cv2
import numpy as np

from vision.measure_outsider import (
    RANKS,
    SEATS,
    SUITS,
    Camera,
    Hand,
    Item,
    Scene,
    check,
    draw,
    expose,
    hand_polys,
    homography,
    project,
    random_camera,
    rect,
)

SIZES = ((1280, 720), (1920, 1080))
LAYOUTS = ("stack", "fan", "row", "column")
SEAT_TURN = {"N": 180.0, "E": 270.0, "S": 0.0, "W": 90.0}  # a card facing its player
TONES = ((150, 170, 215), (120, 140, 190), (90, 110, 150), (60, 75, 105), (170, 190, 230))


def _view(cam: Camera) -> tuple[float, float]:
    px_mm = cam.ppm / (35 / 300 * 25.4)
    return 1280 / px_mm, 720 / px_mm


def _card(rng: np.random.Generator, pack: str, used: set[str], x: float, y: float, angle: float,
          back: bool = False) -> Item:
    if back:
        body = "1" + pack + "ZZ"
        return Item("back", body + check(body), x, y, angle)
    while True:
        rank, suit = RANKS[int(rng.integers(13))], SUITS[int(rng.integers(4))]
        if rank + suit not in used:
            used.add(rank + suit)
            break
    body = "1" + pack + rank + suit
    big = ("10" if rank == "T" else rank) + {"S": "s", "H": "h", "D": "d", "C": "c"}[suit]
    return Item("card", body + check(body), x, y, angle, big, suit in "HD")


def _pack(rng: np.random.Generator) -> str:
    return "".join(str(c) for c in rng.choice(list("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"), 2))


def _trick(rng: np.random.Generator, scene: Scene, pack: str, used: set[str], n: int) -> None:
    cx, cy = scene.centre
    for seat in list(SEATS)[:n]:
        a = math.radians({"N": -90, "E": 0, "S": 90, "W": 180}[seat] + rng.uniform(-20, 20))
        d = rng.uniform(35, 55)
        scene.items.append(_card(rng, pack, used, cx + d * math.cos(a), cy + d * math.sin(a),
                                 SEAT_TURN[seat] + float(rng.uniform(-25, 25))))


def _hands(rng: np.random.Generator, scene: Scene, spots: Sequence[tuple[float, float, str]]) -> None:
    cx, cy = scene.centre
    for _ in range(int(rng.choice([0, 0, 1, 1, 2]))):
        x, y, _seat = spots[int(rng.integers(len(spots)))]
        toward = math.atan2(cy - y, cx - x) + rng.uniform(-0.6, 0.6)
        back = rng.uniform(40, 120)  # the palm this far from the spot, on the player's side
        scene.hands.append(Hand(x - back * math.cos(toward), y - back * math.sin(toward), math.degrees(toward),
                                float(rng.uniform(0.85, 1.1)), TONES[int(rng.integers(len(TONES)))]))


def deal_scene(rng: np.random.Generator, cam: Camera) -> Scene:
    """Playing cards in play: a trick, dummy's columns on one side, cards here and there, some backs."""
    vw, vh = _view(cam)
    scene = Scene(centre=(750.0, 420.0))
    cx, cy = scene.centre
    pack, used = _pack(rng), set[str]()
    _trick(rng, scene, pack, used, int(rng.integers(1, 5)))
    side = int(rng.integers(4))  # dummy: columns of overlapping cards, only the nearest card's code in view
    for col in range(int(rng.integers(1, 4))):
        along = (col - 1) * 62.0
        for k in range(int(rng.integers(1, 5))):
            d = 0.33 * (vh if side % 2 == 0 else vw) - k * 18.0
            x, y = [(cx + along, cy - d), (cx + d, cy + along), (cx + along, cy + d), (cx - d, cy + along)][side]
            scene.items.append(_card(rng, pack, used, x, y, SEAT_TURN["NESW"[side]] + float(rng.uniform(-3, 3))))
    for _ in range(int(rng.integers(3, 9))):
        x = cx + rng.uniform(-0.42, 0.42) * vw
        y = cy + rng.uniform(-0.4, 0.4) * vh
        scene.items.append(_card(rng, pack, used, x, y, float(rng.uniform(0, 360)), back=rng.random() < 0.15))
    _hands(rng, scene, [(it.x, it.y, "") for it in scene.items])
    return scene


def _call_item(seat: str, call: str, copy: str, x: float, y: float, angle: float) -> Item:
    body = "B" + seat + call + copy
    big = {"PA": "Pass", "DB": "X", "RD": "XX"}.get(call, call[0] + {"N": "NT"}.get(call[1], call[1].lower()))
    return Item("call", body + check(body), x, y, angle, big, call[1:] in ("D", "H") or call == "DB")


def auction_scene(rng: np.random.Generator, cam: Camera, kind: str) -> Scene:
    """Each seat's calls laid as ``kind`` in front of it, a trick's cards in the middle, hands over some."""
    from vision.measure_outsider import CALLS

    if kind not in LAYOUTS:
        raise ValueError(f"a layout is one of {', '.join(LAYOUTS)}, got {kind!r}")
    vw, vh = _view(cam)
    scene = Scene(centre=(750.0, 420.0))
    cx, cy = scene.centre
    pack, used = _pack(rng), set[str]()
    if rng.random() < 0.5:
        _trick(rng, scene, pack, used, int(rng.integers(1, 4)))
    spots = {"N": (cx + rng.uniform(-60, 60), cy - 0.30 * vh), "S": (cx + rng.uniform(-60, 60), cy + 0.30 * vh),
             "W": (cx - 0.33 * vw, cy + rng.uniform(-40, 40)), "E": (cx + 0.33 * vw, cy + rng.uniform(-40, 40))}
    for seat in SEATS:
        sx, sy = spots[seat]
        turn = SEAT_TURN[seat] + (180.0 if rng.random() < 0.2 else 0.0)
        n = int(rng.choice([1, 2, 2, 3, 3, 4, 5]))
        copies: dict[str, int] = {}
        sign = 1.0 if rng.random() < 0.5 else -1.0
        step = rng.uniform(10, 50)
        fan_step, fan_shift = rng.uniform(8, 20), rng.uniform(12, 25)
        gap = rng.uniform(0, 8)
        for k in range(n):
            call = CALLS[int(rng.integers(len(CALLS)))]
            if call[0].isdigit() and call in copies:
                call = "PA"
            copies[call] = copies.get(call, 0) + 1
            j = k - (n - 1) / 2
            if kind == "stack":
                ox, oy, ang = rng.uniform(-4, 4), sign * step * j, rng.uniform(-6, 6)
            elif kind == "fan":
                ox, oy, ang = fan_shift * j, abs(j) * 3.0, fan_step * j + rng.uniform(-2, 2)
            elif kind == "row":
                ox, oy, ang = (57 + gap) * j + rng.uniform(-2, 2), rng.uniform(-4, 4), rng.uniform(-4, 4)
            else:
                ox, oy, ang = rng.uniform(-3, 3), sign * (66 + gap) * j, rng.uniform(-4, 4)
            a = math.radians(turn)
            x = sx + ox * math.cos(a) - oy * math.sin(a)
            y = sy + ox * math.sin(a) + oy * math.cos(a)
            scene.items.append(_call_item(seat, call, "123456789"[copies[call] - 1], x, y, float(turn + ang)))
    _hands(rng, scene, [(x, y, s) for s, (x, y) in spots.items()])
    return scene


def in_view(scene: Scene, cam: Camera, size: tuple[int, int]) -> list[tuple[bool, float, tuple[float, float]]]:
    """For each item: whether its code block is fully in view, px a module there, its centre (px)."""
    h = homography(cam, scene.centre, size)
    w, hh = size
    covers = [np.asarray(hand_polys(hd)[i]) for hd in scene.hands for i in range(7)]
    out = []
    for i, it in enumerate(scene.items):
        bx, by, side = it.block()
        block_t = project(it.to_table(), rect(bx, by, side, side))
        px = project(h, block_t)
        inside = bool((px.min(axis=0) >= 1).all() and px[:, 0].max() < w - 1 and px[:, 1].max() < hh - 1)
        later = [project(o.to_table(), rect(-o.size[0] / 2, -o.size[1] / 2, *o.size)) for o in scene.items[i + 1:]]
        clear = inside and not any(_overlap(block_t, p) for p in later + covers)
        ppm = math.sqrt(cv2.contourArea(px.astype(np.float32))) / 17
        out.append((clear, ppm, tuple(px.mean(axis=0))))
    return out


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two polygons (table mm) share area, on a 0.5 mm raster."""
    lo = np.minimum(a.min(axis=0), b.min(axis=0)) - 1
    hi = np.maximum(a.max(axis=0), b.max(axis=0)) + 1
    if (a.max(axis=0) < b.min(axis=0)).any() or (b.max(axis=0) < a.min(axis=0)).any():
        return False
    shape = (int((hi[1] - lo[1]) * 2) + 1, int((hi[0] - lo[0]) * 2) + 1)
    ma, mb = np.zeros(shape, np.uint8), np.zeros(shape, np.uint8)
    cv2.fillPoly(ma, [np.round((a - lo) * 2).astype(np.int32)], 1)
    cv2.fillPoly(mb, [np.round((b - lo) * 2).astype(np.int32)], 1)
    return bool((ma & mb).any())


def score(scene: Scene, view: list[tuple[bool, float, tuple[float, float]]], reading: Any) -> dict[str, Any]:
    """What one decoder's reading of one frame got right and wrong (see the module docstring)."""
    from vision.codes import encode_call_payload, encode_payload

    reads = [(encode_payload(s.code.pack, s.code.card), s.x, s.y) for s in reading.sightings]
    reads += [(encode_call_payload(c.code.seat, c.code.call, c.code.copy), c.x, c.y) for c in reading.calls]
    side = float(np.median([v[1] for v in view])) * 17 if view else 50.0
    false = sum(1 for t, x, y in reads
                if not any(it.text == t and math.dist((x, y), v[2]) < side for it, v in zip(scene.items, view)))
    got = [any(t == it.text and math.dist((x, y), v[2]) < side / 2 for t, x, y in reads)
           for it, v in zip(scene.items, view)]
    cards = [(g, v[1]) for it, v, g in zip(scene.items, view, got) if it.kind != "call" and v[0]]
    calls = [(g, v[1]) for it, v, g in zip(scene.items, view, got) if it.kind == "call" and v[0]]
    tops = []
    for seat in SEATS:
        idx = [i for i, it in enumerate(scene.items) if it.kind == "call" and it.text[1] == seat]
        if idx and view[idx[-1]][0]:
            tops.append(got[idx[-1]])
    return {"cards": cards, "calls": calls, "tops": tops, "false": false}


def run_outsider(decoders: dict[str, Any], frames: int, kinds: Sequence[str] = ("deal", *LAYOUTS),
                 seed: int = 2026, sizes: Sequence[tuple[int, int]] = SIZES,
                 progress: Callable[[str], None] | None = None, repeats: int = 1) -> dict[str, Any]:
    """``frames`` frames of each kind, each at every size, read by every decoder on the same frames; each
    frame read ``repeats`` times by each decoder in turn (``_fastest``), its fastest read's time kept."""
    tally: dict[tuple[str, str, str], dict[str, list[Any]]] = {}
    for kind, _f, cam, scene, size, frame, view in outsider_frames(kinds, frames, seed, sizes, progress):
        best = _fastest(decoders, frame, repeats)
        for name, (reading, ms) in best.items():
            s = score(scene, view, reading)
            key = (kind, f"{size[0]}x{size[1]}", name)
            acc = tally.setdefault(key, {"cards": [], "calls": [], "tops": [], "false": [], "ms": [],
                                         "blur": [], "glare": []})
            for k in ("cards", "calls", "tops"):
                acc[k].extend(s[k])
            shown = [g for g, _ in s["cards"] + s["calls"]]
            acc["blur"].extend((g, cam.blur) for g in shown)
            acc["glare"].extend((g, cam.glare > 0) for g in shown)
            acc["false"].append(s["false"])
            acc["ms"].append(ms)
    return {f"{k}|{s}|{n}": summary(acc) for (k, s, n), acc in tally.items()}


def outsider_frames(kinds: Sequence[str], frames: int, seed: int, sizes: Sequence[tuple[int, int]],
                    progress: Callable[[str], None] | None = None) -> Iterator[tuple[Any, ...]]:
    """The outsider's table on ``seed``: ``(kind, frame number, camera, scene, size, frame, view)`` for
    ``frames`` frames of each kind, each at every size (the same frames whoever reads them: the bench and
    ``tools/outsider_misses.py``); ``progress`` is told after each frame's sizes."""
    rng = np.random.default_rng(seed)
    for kind in kinds:
        for f in range(frames):
            case = int(rng.integers(1 << 30))
            r = np.random.default_rng(case)
            cam = random_camera(r)
            scene = deal_scene(r, cam) if kind == "deal" else auction_scene(r, cam, kind)
            sharp = draw(scene, cam, r)
            for size in sizes:
                yield (kind, f, cam, scene, size, expose(sharp, cam, size, np.random.default_rng(case + size[0])),
                       in_view(scene, cam, size))
            if progress:
                progress(f"{kind} {f + 1}/{frames}")


def _fastest(decoders: dict[str, Any], frame: np.ndarray, repeats: int,
             clock: Callable[[], float] = time.perf_counter) -> dict[str, tuple[Any, float]]:
    """Each decoder's reading of ``frame`` and its fastest time (ms, by ``clock`` in seconds) of ``repeats``
    reads, the decoders taking turns (the first to go alternates), so that a shared machine's load falls on
    both alike."""
    names = list(decoders)
    best: dict[str, tuple[Any, float]] = {}
    for r in range(max(1, repeats)):
        for name in names if r % 2 == 0 else names[::-1]:
            t = clock()
            reading = decoders[name].read(frame)
            ms = (clock() - t) * 1e3
            if name not in best or ms < best[name][1]:
                best[name] = (reading, ms)
    return best


PPM_BINS = ((0.0, 3.0), (3.0, 3.6), (3.6, 4.4), (4.4, 99.0))
BLUR_BINS = ((0.0, 0.6), (0.6, 0.9), (0.9, 9.0))  # the defocus's sigma, px at 1280x720


def summary(acc: dict[str, list[Any]]) -> dict[str, Any]:
    def share(xs: list[Any]) -> float | None:
        return round(sum(1 for g in xs if g) / len(xs), 4) if xs else None

    by_ppm = {f"{lo:g}-{hi:g}": share([g for g, p in acc["cards"] + acc["calls"] if lo <= p < hi]) for lo, hi in PPM_BINS}
    by_blur = {f"{lo:g}-{hi:g}": share([g for g, b in acc["blur"] if lo <= b < hi]) for lo, hi in BLUR_BINS}
    by_glare = {k: share([g for g, gl in acc["glare"] if gl == want]) for k, want in (("glare", True), ("none", False))}
    return {"frames": len(acc["ms"]), "cards_shown": len(acc["cards"]), "cards_read": share([g for g, _ in acc["cards"]]),
            "calls_shown": len(acc["calls"]), "calls_read": share([g for g, _ in acc["calls"]]),
            "tops_shown": len(acc["tops"]), "tops_read": share(acc["tops"]), "false": int(sum(acc["false"])),
            "median_ms": round(float(np.median(acc["ms"])), 1) if acc["ms"] else None, "read_by_ppm": by_ppm,
            "read_by_blur": by_blur, "read_by_glare": by_glare}
