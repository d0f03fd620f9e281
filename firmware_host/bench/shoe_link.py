"""``cardtable bench link``: codec decode throughput and pty-to-queue latency of the shoe link.

1. Decode: a stream of realistic shoe frames (cards, heartbeats, deal starts...) fed to ``Decoder`` in
   4 KiB reads on one core; frames per second, median of several runs, with and without SLIP escapes.
2. Latency: a ``ShoeLink`` on the slave side of a real pty; this process plays the shoe on the master
   side (HELLO, then one CARD_OUT at a time). Measured from just before the single ``os.write`` of a whole frame
   (so including the write itself) to the moment ``on_event`` put the event in the controller's queue: p50, p90, p99.
3. Backlog: the virtual shoe behind a pty at 115200 baud, backlogs of 1 to 128 messages after a
   disconnect; resent bytes over backlog bytes and recovery time over wire time + 0.5 s
   (``bench_backlog``).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import statistics
import time
import tty

from firmware_host.bench.report import ChecksFailed, percentile
from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from laws.cards import Card, Seat

_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def _stream(n: int, rng: random.Random, escapes: bool) -> bytes:
    cards = [Card(r, s) for r in "AKQJT98765432" for s in "SHDC"]
    parts = []
    for seq in range(1, n + 1):
        k = seq % 20
        if k == 0:
            msg: m.ShoeMessage = m.Heartbeat(seq, m.ShoeState.DEALING, False, True, 3)
        elif k == 1:
            msg = m.DealBegan(seq, rng.choice(_SEATS), 0, (1,) * 13, "A")
        else:
            quality = 0xDB if escapes else 90          # 0xDB forces one escape per frame
            msg = m.CardOut(seq, k, rng.choice(_SEATS), False, rng.choice(cards), m.Orientation.DOWN,
                            quality, "A")
        parts.append(codec.encode(msg))
    return b"".join(parts)


def _decode_rate(data: bytes, frames: int, reps: int) -> list[float]:
    rates = []
    for _ in range(reps):
        dec = codec.Decoder()
        t0 = time.perf_counter()
        got = 0
        for i in range(0, len(data), 4096):
            got += len(dec.feed(data[i:i + 4096]))
        dt = time.perf_counter() - t0
        if got != frames:
            raise ChecksFailed(f"the decoder returned {got} frames of the {frames} sent")
        rates.append(frames / dt)
    return rates


def _latency(samples: int) -> list[float]:
    from firmware_host.shoe.link import ShoeLink

    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    q: queue.Queue[tuple[float, object]] = queue.Queue()
    link = ShoeLink(path, lambda ev: q.put((time.perf_counter(), ev)))
    link.start()
    try:
        hello = m.Hello(0, 1, 0, 1, 0, 0x3F, 128, "bench", "1.0.0")
        deadline = time.monotonic() + 5
        while True:                         # answer HOST_HELLOs until the link says online
            os.write(master, codec.encode(hello))
            try:
                _, ev = q.get(timeout=0.2)
            except queue.Empty:
                if time.monotonic() > deadline:
                    raise RuntimeError("link did not come online") from None
                continue
            if isinstance(ev, m.LinkStatus) and ev.online:
                break
        out = []
        for seq in range(1, samples + 1):
            frame = codec.encode(m.CardOut(seq, 1, Seat.N, False, Card("A", "S"), m.Orientation.DOWN, 90, "A"))
            t0 = time.perf_counter()        # just before the write: includes the syscall (conservative)
            os.write(master, frame)
            while True:
                t1, ev = q.get(timeout=5)
                if isinstance(ev, m.CardOut):
                    break
            out.append((t1 - t0) * 1000)
            if seq % 64 == 0:
                _drain(master)
        return out
    finally:
        link.stop()
        os.close(master)
        os.close(slave)


def _drain(fd: int) -> None:
    """Read the host's ACKs so the pty buffer never fills."""
    os.set_blocking(fd, False)
    try:
        while os.read(fd, 4096):
            pass
    except BlockingIOError:
        pass
    finally:
        os.set_blocking(fd, True)


def run(args: argparse.Namespace) -> int:
    """Print the link figures; exit status 1 when a target (100k frames/s, p99 < 2 ms) is missed."""
    quick = bool(getattr(args, "quick", False))
    rng = random.Random(1)
    n = 20_000 if quick else 200_000
    reps = 3 if quick else 7
    plain = _decode_rate(_stream(n, rng, False), n, reps)
    escaped = _decode_rate(_stream(n, rng, True), n, reps)
    lat = _latency(200 if quick else 3000)
    from firmware_host.bench.backlog import figures as backlog_figures

    backlog = backlog_figures(quick)
    figures = {
        "decode_frames_per_s_median": round(statistics.median(plain)),
        "decode_frames_per_s_p90_run": round(percentile(plain, 0.9)),
        "decode_escaped_frames_per_s_median": round(statistics.median(escaped)),
        "escaped_to_plain_ratio": round(statistics.median(escaped) / statistics.median(plain), 3),
        "latency_ms_p50": round(percentile(lat, 0.50), 3),
        "latency_ms_p90": round(percentile(lat, 0.9), 3),
        "latency_ms_p99": round(percentile(lat, 0.99), 3),
        "latency_samples": len(lat),
        "decode_frames_per_run": n,
        **backlog,
    }
    if getattr(args, "json", False):
        print(json.dumps(figures))
    else:
        print("shoe link benchmark" + (" (quick)" if quick else ""))
        print(f"  decode, one core: median {figures['decode_frames_per_s_median']:,} frames/s over {reps} runs "
              f"of {n:,} frames (target >= 100,000)")
        print(f"  decode with one SLIP escape per frame: median {figures['decode_escaped_frames_per_s_median']:,} "
              f"frames/s (ratio to plain {figures['escaped_to_plain_ratio']})")
        print(f"  pty write -> controller queue: p50 {figures['latency_ms_p50']} ms, p90 "
              f"{figures['latency_ms_p90']} ms, p99 {figures['latency_ms_p99']} ms over {len(lat)} frames "
              f"(target p99 < 2 ms)")
        for key, pace in (("backlog", "a card every 250 ms (targets: resent/backlog <= 1.2, "
                                      "recovery/(wire + 0.5 s) <= 1.0)"),
                          ("backlog_stress", "a card every 20 ms (stress; reported)")):
            print(f"  backlog after a disconnect, shoe side at 115200 baud, then dealing on at {pace}; "
                  f"median of {1 if quick else 3} runs:")
            print("    messages  backlog B  resent B  resent/backlog  wire s  recovery s  recovery/(wire+0.5)  "
                  "RESENDs  lost")
            for r in backlog[key]:
                print(f"    {r['messages']:>8}  {r['backlog_bytes']:>9}  {r['resent_bytes']:>8}  "
                      f"{r['resent_ratio']:>14}  {r['wire_s']:>6}  {r['recovery_s']:>10}  "
                      f"{r['recovery_ratio']:>19}  {r['resend_requests']:>7}  {r['lost']:>4}")
    ok = figures["decode_frames_per_s_median"] >= 100_000 and figures["latency_ms_p99"] < 2.0
    ok = ok and backlog["backlog_resent_ratio_max"] <= 1.2 and backlog["backlog_recovery_ratio_max"] <= 1.0
    return 0 if ok else 1
