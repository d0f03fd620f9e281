"""Why the decoder left codes of the outsider's table unread: one line of JSON a fully visible code missed.

    python tools/outsider_misses.py SEED FRAMES KINDS [--main | --today] [--size 720]

KINDS: comma-separated, of deal, stack, fan, row, column (drawn in that order from SEED, as ``run_outsider``
does when given the same kinds). ``--main``: the decoder of before issue 37's fourth round
(``mostly_ink=False, narrow=False``, and without the fifth round's glare candidates, ``glare=False``);
``--today``: the decoder of before the sixth round (``regrid=False``, main of 2026-12-03). For every fully visible code not read
(backs too: ``run_outsider``'s score counts them among the playing cards; before issue 37's tenth round they were
left out here), at 1280x720 and 1920x1080 (``--size 720`` or ``1080``: one of them): its text and kind, px a module, the defocus, the glare patch's strength at the code (share of white), the camera's tilt;
``stage``: ``not_found`` (no second-look candidate within half a side of it), ``found_not_tried`` (a
candidate the cap or a read neighbour skipped) or ``tried_unread``; ``oracle``: whether it reads when cut
out at its true place and side with every remedy; ``oracle_grid``: whether ``regrid.read_by_grid`` reads it there;
``right``: how many of its 169 modules, sampled at their true centres (the generator's homography), fall on the
right side of the best single threshold (169: legible as it is; under about 150: glare or blur took too much); and for a code not found, ``blob``: what
``code_candidates`` saw at its centre at the true scale (``no_blob``: nothing darker than the paper by
``DARK`` there; ``merged``: part of a blob larger than a code; ``too_dark`` / ``too_light``: its share of
ink outside ``MIN_DARK_SHARE``-0.85; ``fill``, ``side``, ``shape_box``: not a code's shape; ``ok``: a code's
blob, so the decoder's own band of sizes or cap missed it). The fourth round's table of causes in
``docs/benchmarks.md`` was counted from these lines for seeds 7 and 11 (40 playing-card frames, 15 a layout).
"""

from __future__ import annotations

import json
import math
import sys

import cv2
import numpy as np

from vision import lookagain, regrid
from vision.codes import encode_call_payload, encode_payload
from vision.decode import ZxingDecoder, as_gray
from vision.measure_outsider import MODULE_MM, Camera, Item, Scene, homography, project, symbol
from vision.measure_outsider_run import LAYOUTS, outsider_frames

SIZES = ((1280, 720), (1920, 1080))


def blob_at(gray: np.ndarray, cx: float, cy: float, side: float) -> str:
    """What ``code_candidates`` (main's bounds) makes of the spot (``cx``, ``cy``) for a code ``side`` px."""
    lo, hi = 0.65 * side, 1.45 * side
    module = max(math.sqrt(lo * hi) / lookagain.MODULES, 1.0)
    small, n = gray, 1
    while module / n >= 2.2 and n < 4:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        n *= 2
    f, m = 1.0 / n, module / n
    rel, bh = lookagain.relative_darkness(small, lookagain._odd(4 * m))
    mask = cv2.threshold(rel, lookagain.DARK, 255, cv2.THRESH_BINARY)[1] & \
        cv2.threshold(bh, lookagain.MIN_INK, 255, cv2.THRESH_BINARY)[1]
    k = lookagain._odd(2.2 * m)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    x, y = int(cx * f), int(cy * f)
    near = labels[max(y - 2, 0):y + 3, max(x - 2, 0):x + 3]
    if not (near > 0).any():
        return "no_blob"
    i = int(np.bincount(near[near > 0]).argmax())
    x0, y0, w, h = (int(v) for v in stats[i, :4])
    lo_s, hi_s = lo * 0.6 * f, hi * 1.3 * f
    if max(w, h) > hi_s * 1.42:
        return "merged"
    if not (max(w, h) >= lo_s and min(w, h) >= 0.6 * max(w, h)):
        return "shape_box"
    own = (labels[y0:y0 + h, x0:x0 + w] == i).astype(np.uint8)
    area = max(cv2.contourArea(c) for c in cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])
    fill = area / (w * h)
    dark = cv2.countNonZero(mask[y0:y0 + h, x0:x0 + w]) / (w * h) / max(fill, 0.5)
    if not lo_s <= math.sqrt(area) <= hi_s:
        return "side"
    if fill < 0.45:
        return "fill"
    return "too_dark" if dark > 0.85 else "too_light" if dark < lookagain.MIN_DARK_SHARE else "ok"


def modules_right(gray: np.ndarray, scene: Scene, cam: Camera, it: Item, size: tuple[int, int]) -> int:
    """How many of ``it``'s 169 modules, sampled at their true centres, the best single threshold puts right."""
    bx, by, _ = it.block()
    centres = [(bx + (c + 2.5) * MODULE_MM, by + (r + 2.5) * MODULE_MM) for r in range(13) for c in range(13)]
    px = project(homography(cam, scene.centre, size) @ it.to_table(), np.array(centres)).astype(np.float32)
    v = cv2.remap(gray.astype(np.float32), px[:, 0].reshape(1, -1), px[:, 1].reshape(1, -1), cv2.INTER_LINEAR)[0]
    dark = symbol(it.text).ravel().astype(bool)
    order = np.argsort(v, kind="stable")  # a threshold after the n darkest: those dark, the rest light
    right_if_dark = np.concatenate([[0], np.cumsum(dark[order])])
    light_right = np.concatenate([[0], np.cumsum(~dark[order])])
    return int((right_if_dark + (int((~dark).sum()) - light_right)).max())


def main(argv: list[str]) -> int:
    import argparse

    kinds_known = ("deal", *LAYOUTS)
    ap = argparse.ArgumentParser(prog="tools/outsider_misses.py", description=__doc__.split("\n", 1)[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("frames", type=int)
    ap.add_argument("kinds", help="comma-separated, of " + ", ".join(kinds_known))
    ap.add_argument("--main", action="store_true", help="the decoder of before issue 37's fourth round")
    ap.add_argument("--today", action="store_true", help="the decoder of before issue 37's sixth round (regrid)")
    ap.add_argument("--size", choices=("720", "1080"), help="only this size (default: both)")
    args = ap.parse_args(argv)
    seed, frames, kinds = args.seed, args.frames, args.kinds.split(",")
    if unknown := [k for k in kinds if k not in kinds_known]:
        ap.error(f"unknown kind {unknown[0]!r}: one of {', '.join(kinds_known)}")
    dec = ZxingDecoder(mostly_ink=False, narrow=False, glare=False, regrid=False) if args.main else \
        ZxingDecoder(regrid=False) if args.today else ZxingDecoder()
    seen: dict[str, list[lookagain.Candidate]] = {"found": [], "tried": []}
    find, find_glare, read = lookagain.code_candidates, lookagain.glare_candidates, lookagain.read_candidate

    def found(*a: object, **k: object) -> list[lookagain.Candidate]:
        out = find(*a, **k)  # type: ignore[arg-type]
        seen["found"].extend(out)
        return out

    def found_glare(*a: object, **k: object) -> list[lookagain.Candidate]:
        out = find_glare(*a, **k)  # type: ignore[arg-type]
        seen["found"].extend(out)
        return out

    def tried(gray: np.ndarray, cand: lookagain.Candidate, *a: object, **k: object) -> object:
        seen["tried"].append(cand)
        return read(gray, cand, *a, **k)  # type: ignore[arg-type]

    lookagain.code_candidates, lookagain.glare_candidates = found, found_glare  # type: ignore[assignment]
    lookagain.read_candidate = tried  # type: ignore[assignment]
    for kind, f, cam, scene, size, frame, view in outsider_frames(
            kinds, frames, seed, [s for s in SIZES if args.size in (None, str(s[1]))]):
        seen["found"].clear()
        seen["tried"].clear()
        reading = dec.read(frame)
        reads = [(encode_payload(s.code.pack, s.code.card), s.x, s.y) for s in reading.sightings]
        reads += [(encode_call_payload(c.code.seat, c.code.call, c.code.copy), c.x, c.y) for c in reading.calls]
        gray = as_gray(frame)
        half = float(np.median([v[1] for v in view])) * 17 / 2
        for i, (it, (clear, ppm, (cx, cy))) in enumerate(zip(scene.items, view)):
            if not clear or any(
                    t == it.text and math.dist((x, y), (cx, cy)) < half for t, x, y in reads):
                continue
            side = ppm * lookagain.MODULES
            px_mm = cam.ppm / MODULE_MM * size[1] / 720
            glare = cam.glare * math.exp(-((cx - cam.glare_at[0] * size[0]) ** 2 + (cy - cam.glare_at[1] * size[1]) ** 2)
                                         / (2 * (cam.glare_mm * px_mm) ** 2)) if cam.glare else 0.0
            at = [c for c in seen["found"] if math.dist((c.x, c.y), (cx, cy)) < 0.5 * side]
            stage = "tried_unread" if any(c in seen["tried"] for c in at) else "found_not_tried" if at else "not_found"
            oracle = read(gray, lookagain.Candidate(cx, cy, side, 1.0), dec._read_crop, True, dec._read_crop_global)
            grid = regrid.read_by_grid(gray, cx, cy, side, dec._read_crop_global)
            print(json.dumps({"kind": kind, "frame": f, "size": size[0], "item": i, "what": it.kind, "text": it.text,
                              "ppm": round(ppm, 2), "blur": round(cam.blur, 2), "glare": round(glare, 2),
                              "pitch": round(cam.pitch, 1), "roll": round(cam.roll, 1), "stage": stage,
                              "oracle": any(t == it.text for t, *_ in oracle),
                              "oracle_grid": any(t == it.text for t, *_ in grid),
                              "right": modules_right(gray, scene, cam, it, size),
                              "blob": blob_at(gray, cx, cy, side) if stage == "not_found" else None}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
