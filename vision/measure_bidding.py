"""``cardtable bench vision --bidding``: bidding cards on the synthetic table, beside the playing cards.

Each case is a degraded 1280x720 picture (``vision.render.random_degrade``, no hands) of playing cards laid
at random (``vision.measure.layout``, those clear of the seats' zones where the bidding cards lie) and of an
auction's bidding cards laid in the seats' zones (``AUCTION``: eleven cards, as ``Scene.place_call`` lays
them). The same frame is decoded with and without the bidding cards, side by side, single-threaded, so the
time ratio is what bidding cards cost the decoder. Reported: median and p90 ms of ``decoder.read`` each
way; the share of bidding cards read per frame (single frames, before the watcher's k of n); the share of
playing cards read each way; and the false reads: a call that was not laid (any call at all in the frame
without bidding cards), and a card that was not on the table (a bidding card read as a card would be one).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import numpy as np

from laws.bridge.calls import parse_call
from vision.decode import Decoder
from vision.measure import layout
from vision.render import Scene, random_degrade, render

AUCTION = {"N": ["1H", "pass", "4H"], "E": ["pass", "pass", "pass"], "S": ["2NT", "pass"],
           "W": ["double", "pass", "pass"]}
SIZE = (1280, 720)


def _calls_scene() -> Scene:
    scene = Scene()
    for seat, calls in AUCTION.items():
        for k, c in enumerate(calls):
            scene.place_call(seat, parse_call(c), str(k + 1))
    return scene


def run_bidding(decoder: Decoder, frames: int, seed: int = 42) -> dict[str, Any]:
    """The figures of ``frames`` cases (see the module docstring)."""
    calls = _calls_scene().placements
    spots = [(p.x, p.y) for p in calls]
    laid = {(p.call.seat.value, p.call.call.code, p.call.copy) for p in calls if p.call is not None}
    ms_cards: list[float] = []
    ms_both: list[float] = []
    got_calls = shown_calls = false_calls = false_cards = 0
    read_cards = [0, 0]
    shown_cards = 0
    rng = np.random.default_rng(seed)
    done = 0
    while done < frames:
        case = int(rng.integers(1 << 30))
        degrade = replace(random_degrade(np.random.default_rng(case)), hands=0)
        scene = layout(np.random.default_rng(case), 13, "micro")
        scene.placements[:] = [p for p in scene.placements
                               if all(abs(p.x - x) > 80 or abs(p.y - y) > 85 for x, y in spots)]
        if not scene.placements:
            continue
        done += 1
        want = {(p.pack, p.card) for p in scene.placements}
        shown_cards += len(want)
        for with_calls in (False, True):
            if with_calls:
                scene.placements.extend(calls)
            frame = render(scene, SIZE, degrade, np.random.default_rng(case))
            t = time.perf_counter()
            reading = decoder.read(frame)
            (ms_both if with_calls else ms_cards).append((time.perf_counter() - t) * 1e3)
            cards = {(s.code.pack, s.code.card) for s in reading.sightings}
            read_cards[with_calls] += len(cards & want)
            false_cards += len(cards - want)
            if with_calls:
                seen = {(c.code.seat.value, c.code.call.code, c.code.copy) for c in reading.calls}
                got_calls += len(seen & laid)
                shown_calls += len(laid)
                false_calls += len(seen - laid)
            else:
                false_calls += len(reading.calls)

    def stats(ms: list[float]) -> dict[str, float]:
        return {"median_ms": float(np.median(ms)), "p90_ms": float(np.percentile(ms, 90))}

    a, b = stats(ms_cards), stats(ms_both)
    return {"frames": done, "bidding_cards": len(laid), "cards_per_frame": shown_cards / max(done, 1),
            "cards_only": a, "with_bidding_cards": b, "time_ratio": b["median_ms"] / a["median_ms"],
            "calls_read": got_calls / max(shown_calls, 1),
            "cards_read": read_cards[0] / max(shown_cards, 1),
            "cards_read_with_bidding_cards": read_cards[1] / max(shown_cards, 1),
            "false_calls": false_calls, "false_cards": false_cards}


# -- bidding cards as players lay them: stacks, fans and rows (``cardtable bench vision --bidding``) ----

LAYOUT_CALLS = ("1C", "1H", "2S", "3NT", "4H", "pass", "double", "redouble", "5D", "6S", "7NT", "2C")
SEAT_SPOTS = {"N": (400.0, 55.0, 0.0), "S": (400.0, 395.0, 180.0), "W": (100.0, 225.0, 90.0),
              "E": (700.0, 225.0, 270.0)}
LAYOUTS = ("stack", "fan", "row")
# A bidding card's code block (symbol and its two-module quiet zone) in the card's own millimetres,
# centre at the card's centre, y down: ``vision.cardart`` puts it 4 mm above the lower edge.
CODE_BLOCK_MM = ((-25.5, -22.0), (25.5, -22.0), (25.5, 29.0), (-25.5, 29.0))


def _turned(points: Any, cx: float, cy: float, angle: float) -> Any:
    import math
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    return np.asarray(points, np.float32) @ rot.T + np.array([cx, cy], np.float32)


def lay_calls(rng: np.random.Generator, kind: str, table_mm: tuple[float, float] = (800.0, 450.0)) -> Scene:
    """Each seat's two to four calls laid as players lay them: ``stack`` (each call over the last,
    shifted 10 to 50 mm), ``fan`` (turned 15 degrees from the last), or ``row`` (side by side, 0 to 6 mm
    apart), each seat's cards in its own zone, turned to face the seat."""
    import math
    if kind not in LAYOUTS:
        raise ValueError(f"a layout is one of {', '.join(LAYOUTS)}, got {kind!r}")
    scene = Scene(table_mm=table_mm)
    for seat, (sx, sy, rot) in SEAT_SPOTS.items():
        n = int(rng.integers(2, 5))
        for k, c in enumerate(rng.choice(LAYOUT_CALLS, n, replace=False)):
            if kind == "stack":
                ox, oy, ang = 0.0, rng.uniform(10, 50) * k * 0.5 - 20, rng.uniform(-5, 5)
            elif kind == "fan":
                ox, oy, ang = -30 + 20.0 * k, 0.0, -20 + 15 * k + rng.uniform(-3, 3)
            else:
                ox, oy, ang = (k - (n - 1) / 2) * rng.uniform(57, 63), 0.0, rng.uniform(-4, 4)
            a = math.radians(rot)
            x, y = sx + ox * math.cos(a) - oy * math.sin(a), sy + ox * math.sin(a) + oy * math.cos(a)
            scene.place_call(seat, parse_call(str(c)), "1", at=(x, y), angle=float(ang + rot))
    return scene


def fully_visible(scene: Scene) -> list[bool]:
    """For each placement, whether its code block is uncovered by every card laid after it."""
    import cv2
    w, h = int(scene.table_mm[0]) + 40, int(scene.table_mm[1]) + 40
    out = []
    for i, p in enumerate(scene.placements):
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.int32(_turned(CODE_BLOCK_MM, p.x, p.y, p.angle) + 20), 1)
        total = int(mask.sum())
        for q in scene.placements[i + 1:]:
            card = cv2.boxPoints(((q.x + 20, q.y + 20), (57.0, 66.0), q.angle))
            cv2.fillConvexPoly(mask, np.int32(card), 0)
        out.append(int(mask.sum()) == total)
    return out


def run_layouts(decoder: Decoder, kind: str, frames: int, size: tuple[int, int] = SIZE,
                table_mm: tuple[float, float] = (1500.0, 844.0), seed: int = 7) -> dict[str, Any]:
    """Single-frame reads of ``frames`` degraded pictures (hands included) of bidding cards laid as
    ``kind``: the share of fully visible codes read (not under a later card nor a hand), the share of
    seats whose top card is read (when it is visible), false calls, unreadable card shapes reported,
    and the median ms of ``decoder.read``."""
    from vision.render import render_with_cover
    rng = np.random.default_rng(seed)
    got = shown = top_got = top_shown = false = shapes = 0
    ms: list[float] = []
    for _ in range(frames):
        case = int(rng.integers(1 << 30))
        scene = lay_calls(np.random.default_rng(case), kind, table_mm)
        visible = fully_visible(scene)
        img, covered = render_with_cover(scene, size, random_degrade(np.random.default_rng(case)),
                                         np.random.default_rng(case))
        t = time.perf_counter()
        reading = decoder.read(img)
        ms.append((time.perf_counter() - t) * 1e3)
        read = {(c.code.seat.value, c.code.call.code) for c in reading.calls}
        laid = [(p.call.seat.value, p.call.call.code) for p in scene.placements if p.call is not None]
        false += len(read - set(laid))
        shapes += len(reading.unreadable)
        for i, key in enumerate(laid):
            if visible[i] and i not in covered:
                shown += 1
                got += key in read
        for seat in SEAT_SPOTS:
            top = max(i for i, key in enumerate(laid) if key[0] == seat)
            if visible[top] and top not in covered:
                top_shown += 1
                top_got += laid[top] in read
    return {"layout": kind, "frames": frames, "size": f"{size[0]}x{size[1]}", "table_mm": list(table_mm),
            "visible": shown, "read": got / max(shown, 1), "top_read": top_got / max(top_shown, 1),
            "false_calls": false, "unreadable_shapes": shapes, "median_ms": float(np.median(ms)) if ms else 0.0}
