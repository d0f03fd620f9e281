"""``cardtable bench vision``: the runner and the report of the vision benchmarks.

What is measured stays in ``vision``: ``vision.measure`` (the decoder on ``vision.render`` frames, case
by case, with the baseline decoders side by side) and ``vision.measure_degrade`` (single-frame recall on
the second generator's frames, ``--degradations``). This module picks the cases, runs them and prints
or dumps the figures.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import replace

import numpy as np

from vision.decode import PyzbarDecoder, ZxingDecoder
from vision.measure import COUNTS, FRAMES_PER_CASE, SIZES, Figures, _case, layout
from vision.measure_degrade import run_degradations, speed_on_existing
from vision.render import random_degrade


def run(args: argparse.Namespace) -> int:
    """Print the figures; ``--frames N`` sets the frames for 1280x720 with 13 cards (default 10,000)."""
    import cv2

    if getattr(args, "degradations", False):
        return run_degradations_report(args)
    if getattr(args, "bidding", False):
        return run_bidding_report(args)
    if getattr(args, "outsider", False):
        return run_outsider_report(args)
    cv2.setNumThreads(1)  # single-threaded figures, for both decoders
    quick = bool(getattr(args, "quick", False))
    main_frames = getattr(args, "frames", None) or (9 if quick else 10_000)
    other_frames = 9 if quick else 300
    baseline_share = 1 / 3 if quick else 0.05
    ours = ZxingDecoder(find_unreadable=True)
    before = ZxingDecoder(find_unreadable=True, second_look=False)
    baseline = PyzbarDecoder(find_unreadable=False, whole_frame=True)
    cropped = PyzbarDecoder(find_unreadable=False)
    rows = []
    grid = [(size, n, True) for size in SIZES for n in COUNTS] + [((1280, 720), 13, False)]
    for size, n, hands in grid:
        frames = main_frames if (size, n) == ((1280, 720), 13) else other_frames
        cases = max(1, -(-frames // FRAMES_PER_CASE))
        base_cases = max(1, int(cases * baseline_share))
        f_ours, f_base, f_crop, f_before = Figures([]), Figures([]), Figures([]), Figures([])
        main = (size, n) == ((1280, 720), 13)
        rng = np.random.default_rng(hash((size, n)) & 0xFFFF)
        for case in range(cases):
            seed = int(rng.integers(1 << 30))
            degrade = random_degrade(np.random.default_rng(seed))
            if not hands:
                degrade = replace(degrade, hands=0)
            _case(ours, layout(np.random.default_rng(seed), n, "micro"), size, degrade, seed, f_ours,
                  (before, f_before) if main else None)
            if case < base_cases:
                qr_scene = layout(np.random.default_rng(seed), n, "qr")
                _case(baseline, qr_scene, size, degrade, seed, f_base)
                _case(cropped, qr_scene, size, degrade, seed, f_crop)
        o, b = f_ours.summary(), f_base.summary()
        rows.append({"size": f"{size[0]}x{size[1]}", "cards": n, "hands": hands, "ours": o, "baseline": b,
                     "pyzbar_cropped": f_crop.summary(),
                     "before_second_look": f_before.summary() if main else None,
                     "speedup": b["median_ms"] / o["median_ms"] if o["median_ms"] else float("nan")})
        if not args.json:
            _print_row(rows[-1])
    if args.json:
        print(json.dumps({"bench": "vision", "rows": rows}))
    return 0


def _print_row(r: dict) -> None:  # type: ignore[type-arg]
    o, b, c = r["ours"], r["baseline"], r["pyzbar_cropped"]
    print(f"{r['size']:>9} {r['cards']:>2} cards{'' if r['hands'] else ', no hands'} | zxing Micro QR: {o['frames']:>5} frames, median "
          f"{o['median_ms']:.2f} ms, p90 {o['p90_ms']:.2f} ms, read {o['read_share_in_view']:.4f} in view "
          f"({o['read_share']:.4f} of all, {o['hidden_share']:.4f} hidden by hands), confirmed<=3 in view "
          f"{o['confirmed_share']:.4f} (every card of the case: {o['all_confirmed_share']:.4f}; raw "
          f"{o['confirmed_share_raw']:.4f}, {o['all_confirmed_share_raw']:.4f}), false "
          f"{o['false_reads']} | pyzbar whole-frame QR: {b['frames']} frames, "
          f"median {b['median_ms']:.1f} ms, p90 {b['p90_ms']:.1f} ms, read {b['read_share_in_view']:.3f}, confirmed "
          f"{b['confirmed_share']:.3f}, false {b['false_reads']} | speed-up x{r['speedup']:.1f} | our pyzbar "
          f"backend (card crops), QR: median {c['median_ms']:.1f} ms, read {c['read_share_in_view']:.3f}", flush=True)
    w = r.get("before_second_look")
    if w:
        print(f"{'':>9} without the second look, same frames: median {w['median_ms']:.2f} ms, read "
              f"{w['read_share_in_view']:.4f} in view, false {w['false_reads']}; time now / before "
              f"x{o['median_ms'] / w['median_ms']:.2f}", flush=True)


def print_rows(rows: list[dict[str, object]]) -> None:
    for r in rows:
        b, n = r["before"], r["now"]
        assert isinstance(b, dict) and isinstance(n, dict)
        print(f"{r['size']}: {n['frames']} frames (second generator, 13 cards + 2 foreign codes each), one thread")
        print(f"  median ms before {b['median_ms']:.2f}, now {n['median_ms']:.2f} (x{r['time_ratio']:.2f}); "
              f"p90 {b['p90_ms']:.2f} / {n['p90_ms']:.2f}")
        for key, label in (("faces", "face-up cards, any motion"), ("faces_3ppm_any", "face-up, >= 3 px/module, any motion"),
                           ("faces_3ppm", "face-up, >= 3 px/module, smear <= 1 module"),
                           ("all", "all visible cards, any motion"), ("all_motion_2", "all visible cards, smear <= 2 modules"),
                           ("all_moderate_motion", "all visible cards, smear <= 1 module"), ("backs", "backs")):
            print(f"  {label:45s} before {b[key]:.4f}  now {n[key]:.4f}")
        print(f"  false cards: before {b['false_cards']}, now {n['false_cards']}; foreign texts rejected "
              f"{b['rejected_texts']} / {n['rejected_texts']}")
        for group in ("by_kind", "by_ppm", "by_smear", "by_exposure"):
            print(f"  {group[3:]}:")
            for k in n[group]:
                (sb, cnt), (sn, _) = b[group].get(k, (math.nan, 0)), n[group][k]
                print(f"    {k:14s} n={cnt:5d}  before {sb:.4f}  now {sn:.4f}")


def run_degradations_report(args: argparse.Namespace) -> int:
    quick = bool(getattr(args, "quick", False))
    frames = getattr(args, "frames", None) or (22 if quick else 2200)
    rows = run_degradations(frames, progress=not args.json)
    speed = speed_on_existing(30 if quick else 600)
    if args.json:
        print(json.dumps({"bench": "vision-degradations", "rows": rows, "existing_1280x720_13": speed}))
    else:
        print_rows(rows)
        b, n = speed["before"], speed["now"]
        assert isinstance(b, dict) and isinstance(n, dict)
        print(f"existing benchmark frames (vision.render), 1280x720, 13 cards: {speed['frames']} frames; median ms "
              f"before {b['median_ms']:.2f}, now {n['median_ms']:.2f} (x{speed['time_ratio']:.2f}); read in view "
              f"{b['read_in_view']:.4f} / {n['read_in_view']:.4f}; false {b['false_cards']} / {n['false_cards']}")
    return 0


def run_bidding_report(args: argparse.Namespace) -> int:
    """``--bidding``: ``vision.measure_bidding`` (``--frames N``, default 600; 12 with ``--quick``), the
    layouts players make on the same generator (a tenth of the frames, at least 4 a case, 2 with ``--quick``), and the
    outsider's table (``vision.measure_outsider_run``: a twentieth, at least 1 a kind), each side by side
    with today's decoder (``today``)."""
    import cv2

    from vision.measure_bidding import run_bidding

    cv2.setNumThreads(1)
    quick = bool(getattr(args, "quick", False))
    frames = getattr(args, "frames", None) or (12 if quick else 600)
    r = run_bidding(ZxingDecoder(find_unreadable=True), frames)
    if not args.json:
        a, b = r["cards_only"], r["with_bidding_cards"]
        print(f"grid: 1280x720, {r['frames']} frames, {r['cards_per_frame']:.1f} playing cards and {r['bidding_cards']} "
              f"bidding cards each (upright, 60 x 70 mm apart, no hands, 4.74 px a module), one thread: median "
              f"{a['median_ms']:.2f} ms without the bidding cards, {b['median_ms']:.2f} ms with them "
              f"(x{r['time_ratio']:.2f}); p90 {a['p90_ms']:.2f} / {b['p90_ms']:.2f} ms")
        print(f"  bidding cards read per frame {r['calls_read']:.4f}; playing cards read {r['cards_read']:.4f} without, "
              f"{r['cards_read_with_bidding_cards']:.4f} with; false calls {r['false_calls']}, false cards "
              f"{r['false_cards']}", flush=True)
    layouts = layout_report(args, max(2 if quick else 4, frames // 10))
    outsider = outsider_report(args, max(1, frames // 20))
    if args.json:
        print(json.dumps({"bench": "vision-bidding", **r, "layouts": layouts, "outsider": outsider}))
    return 0


def today() -> ZxingDecoder:
    """The decoder as it was before the eighth round of issue 37 made the second look cheaper (``lean=False``:
    main of 2026-12-03 after the sixth round; the ninth round's change reads the very same samples, so no flag
    keeps it apart). Earlier ones: ``regrid=False`` as
    well, before a small candidate left unread was read module by module (``vision.regrid``, main after the
    fifth round); ``glare=False`` as well, before
    codes under a glare patch were looked for on a locally stretched copy (``lookagain.glare_candidates``);
    ``mostly_ink=False,
    narrow=False`` as well is main of 2026-12-02 (before code blobs of 0.85 to 0.95 ink were taken and the ink
    was also closed two pixels narrower); ``defocus=False`` as well, the decoder before candidates were also
    read strongly sharpened; ``split_joined=False`` as well, the one before the outsider's table (a code
    joined to its card's edge not split)."""
    return ZxingDecoder(find_unreadable=True, lean=False)


def filed() -> ZxingDecoder:
    """The decoder as it was when issue 37 was filed (2026-12-02), as near as its flags give it: every
    remedy the issue's rounds added turned off (``today``'s docstring names them), and the second look's
    cap of 8 candidates a frame in one band of sizes (``max_candidates=8, size_bands=False``, which the
    issue's second item named). What no flag turns off (a shape beside a bidding card read never taken
    for a damaged card) is today's."""
    return ZxingDecoder(find_unreadable=True, max_candidates=8, size_bands=False, split_joined=False,
                        defocus=False, mostly_ink=False, narrow=False, glare=False, regrid=False, lean=False)


def layout_report(args: argparse.Namespace, frames: int) -> list[dict[str, object]]:
    """Bidding cards laid as players lay them on the house's generator (``vision.measure_bidding.run_layouts``:
    stacks, fans, rows, hands over some), at 2.56 and 3.2 px a module (720p over a 1.5 m and a 1.2 m table)
    and at 1080p, the decoder as it is beside today's, side by side on the same frames."""
    from vision.measure_bidding import LAYOUTS, run_layouts

    out: list[dict[str, object]] = []
    cases = [((1280, 720), (1500.0, 844.0)), ((1280, 720), (1200.0, 675.0)), ((1920, 1080), (1500.0, 844.0))]
    for size, table in cases:
        for kind in LAYOUTS:
            now = run_layouts(ZxingDecoder(find_unreadable=True), kind, frames, size, table)
            before = run_layouts(today(), kind, frames, size, table)
            out.append({"now": now, "today": before})
            if args.json:
                continue
            print(f"  {kind:5} {now['size']} over {table[0]:.0f} mm ({now['visible']} visible codes): read "
                  f"{now['read']:.4f} (today {before['read']:.4f}), each seat's top card {now['top_read']:.4f} "
                  f"({before['top_read']:.4f}); false {now['false_calls']} ({before['false_calls']}); unreadable "
                  f"shapes {now['unreadable_shapes']} ({before['unreadable_shapes']}); median {now['median_ms']:.1f} ms "
                  f"({before['median_ms']:.1f})", flush=True)
    return out


def outsider_report(args: argparse.Namespace, frames: int) -> dict[str, object]:
    """The outsider's table (``vision.measure_outsider``): ``frames`` frames of playing cards in play and of
    each layout of bidding cards, each at 1280x720 and 1920x1080, the decoder as it is and today's on the
    same frames."""
    import sys

    from vision.measure_outsider_run import run_outsider

    before = filed() if getattr(args, "against", "today") == "filed" else today()
    r = run_outsider({"now": ZxingDecoder(find_unreadable=True), "today": before}, frames,
                     seed=int(getattr(args, "seed", 2026)), progress=lambda s: print(s, file=sys.stderr, flush=True),
                     repeats=int(getattr(args, "repeats", 1)))
    if not args.json:
        print(f"outsider's table (vision/measure_outsider.py), seed {getattr(args, 'seed', 2026)}, {frames} frames a kind, 2.4-4.3 px a module at 720p "
              f"(x1.5 at 1080p), tilt, hands, glare, defocus, noise, Bayer, JPEG; now "
              f"({getattr(args, 'against', 'today')}):")
        for key, v in r.items():
            kind, size, name = key.split("|")
            if name != "now":
                continue
            t = r[f"{kind}|{size}|today"]
            what = "playing cards" if kind == "deal" else f"{kind} of bidding cards"
            line = f"  {what:26} {size:9} "
            if v["cards_shown"]:
                line += f"cards {v['cards_read']:.4f} ({t['cards_read']:.4f}) of {v['cards_shown']}; "
            if v["calls_shown"]:
                line += (f"calls {v['calls_read']:.4f} ({t['calls_read']:.4f}) of {v['calls_shown']}, last calls "
                         f"{v['tops_read']:.4f} ({t['tops_read']:.4f}); ")
            line += f"false {v['false']} ({t['false']}); median {v['median_ms']:.1f} ms ({t['median_ms']:.1f})"
            print(line, flush=True)
    return r


def run_outsider_report(args: argparse.Namespace) -> int:
    """``--outsider``: only the outsider's table (``--frames N`` a kind, default 20, 1 with ``--quick``;
    ``--seed``), then each kind's time ratio: the median ms a frame of the decoder as it is over today's."""
    import cv2

    cv2.setNumThreads(1)
    frames = getattr(args, "frames", None) or (1 if getattr(args, "quick", False) else 20)
    r = outsider_report(args, frames)
    ratios = {}
    for key, v in r.items():
        kind, size, name = key.split("|")
        t = r.get(f"{kind}|{size}|today")
        if name == "now" and isinstance(v, dict) and isinstance(t, dict) and t["median_ms"]:
            ratios[f"{kind}|{size}"] = round(v["median_ms"] / t["median_ms"], 2)
    if args.json:
        print(json.dumps({"bench": "vision-outsider", "seed": getattr(args, "seed", 2026), "frames": frames,
                          "against": getattr(args, "against", "today"),
                          "repeats": getattr(args, "repeats", 1),
                          "figures": r, "time_ratio": ratios}))
    else:
        print("time a frame, now over today (medians): " + ", ".join(f"{k} x{x:.2f}" for k, x in ratios.items()))
    return 0
