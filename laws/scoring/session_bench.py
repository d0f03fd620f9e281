"""How long a full rescore takes: a 30-table Mitchell of 27 boards (810 lines), scored and rendered.

The session is made up, not random: each board has a contract its North-South (odd boards) or
East-West (even boards) declare, and the tricks at each table follow a fixed arithmetic pattern, so
that boards have ties, overtricks, undertricks and the odd doubled contract, and every run scores the
same session. The clock is passed in (``laws/`` reads no clock itself): the bench package calls
``bench_session(time.perf_counter)``.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from laws.cards import Seat, Side
from laws.scoring.bridge import parse_contract
from laws.scoring.render import render_session
from laws.scoring.session import Line, Method, Pair, Played, score_session

_CONTRACTS = ("4S", "3NT", "2H", "4H", "1NT", "5D", "3S", "6NT", "2SX")
TARGET_MS = 50.0


def sample_mitchell(tables: int = 30, boards: int = 27) -> tuple[tuple[int, ...], tuple[Line, ...],
                                                                    dict[Pair, str]]:
    """A Mitchell session every table of which plays every board: boards, lines and the two fields.

    North-South pair ``t`` sits at table ``t`` throughout; on board ``b`` it meets East-West pair
    ``(t + b) mod tables + 1``, so each board's traveller has every pair of each direction once.
    """
    numbers = tuple(range(1, boards + 1))
    fields: dict[Pair, str] = {}
    for t in range(1, tables + 1):
        fields[Pair(t, Side.NS)] = "NS"
        fields[Pair(t, Side.EW)] = "EW"
    lines = []
    for b in numbers:
        contract = parse_contract(_CONTRACTS[b % len(_CONTRACTS)])
        declarer = Seat.N if b % 2 else Seat.E
        for t in range(1, tables + 1):
            wobble = (b * 131 + t * 71 + b * t * 17) % 7      # 0..6 -> -3..+2 tricks, mostly near 0
            offset = (-3, -1, 0, 0, 0, 1, 2)[wobble]
            tricks = max(0, min(13, contract.needed + offset))
            ew = Pair((t + b) % tables + 1, Side.EW)
            lines.append(Line(b, Pair(t, Side.NS), ew, Played(contract, declarer, tricks)))
    return numbers, tuple(lines), fields


def bench_session(clock: Callable[[], float], repeats: int = 15, tables: int = 30, boards: int = 27,
                  method: Method = Method.MATCHPOINTS) -> dict[str, Any]:
    """Time ``score_session`` and ``render_session`` on :func:`sample_mitchell`, ``repeats`` times each.

    Args:
        clock: seconds as a float (e.g. ``time.perf_counter``).
        repeats: how many runs the medians are taken over.
        tables, boards: the size of the Mitchell.
        method: the scoring method.

    Returns:
        Figures in milliseconds: ``score_median_ms``, ``score_min_ms``, ``score_max_ms``,
        ``render_median_ms``, with the session's size, the target and whether the median met it.
    """
    numbers, lines, fields = sample_mitchell(tables, boards)
    score_ms, render_ms = [], []
    first = None
    for _ in range(max(1, repeats)):
        t0 = clock()
        result = score_session(numbers, lines, tables, method, fields)
        t1 = clock()
        text = render_session(result)
        t2 = clock()
        score_ms.append((t1 - t0) * 1000)
        render_ms.append((t2 - t1) * 1000)
        if first is None:
            first = (result, text)
        elif (result, text) != first:      # the rescore must be the same values and the same text
            raise AssertionError("scoring the same session twice gave different results")
    median = statistics.median(score_ms)
    return {"name": "duplicate scoring, full rescore", "tables": tables, "boards": boards,
            "lines": len(lines), "method": method.value, "repeats": len(score_ms),
            "score_median_ms": round(median, 3), "score_min_ms": round(min(score_ms), 3),
            "score_max_ms": round(max(score_ms), 3),
            "render_median_ms": round(statistics.median(render_ms), 3),
            "target_ms": TARGET_MS, "within_target": median < TARGET_MS}
