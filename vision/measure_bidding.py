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
