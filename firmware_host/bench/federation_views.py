"""A pass of the federation's view loop on a 1,008-table field, timed in process (no broker).

``python -m firmware_host.bench.federation_views [PASSES]`` prints JSON: the service
(:class:`firmware_host.federation.service.FederationService`, never connected, so its publishes only
queue) takes 12 clubs' entries (84 tables each) and boards 1-3 from every table; then, PASSES times,
one board-4 result from each club, one view (:meth:`publish_views`, the ranking and its publishes: what
a result waits for) and one release pass with every released board and every club's own ranking due
again (:meth:`release_boards`, on the releaser's thread in the service: no result waits for it; in the
service a club's ranking is made again at most every ``OWN_EVERY`` seconds while only its boards' field
moves).
Used to compare two versions of the code side by side (``docs/benchmarks.md``): run it from each tree
in turn.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def view_passes(passes: int = 40, clubs: int = 12, tables: int = 84, boards: int = 4) -> dict[str, Any]:
    """The view's and the release pass's times (seconds)."""
    from firmware_host.duplicate.handrecords.handfiles import write_hand_records
    from firmware_host.duplicate.handrecords.newdeals import new_boards
    from firmware_host.federation.service import EventSetup, FederationService, create_event
    from laws.cards import Seat
    from laws.duplicate.deal import commitment
    from laws.federation.messages import line_to_dict
    from laws.scoring.bridge import parse_contract
    from laws.scoring.session_values import Line, Pair, Played

    names = [f"c{k:02d}" for k in range(clubs)]
    records = new_boards(boards)
    contract = parse_contract("4S")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "event"
        create_event(folder, EventSetup("views", tuple(range(1, boards + 1)), tuple(names),
                                        commitment=commitment(records)))
        write_hand_records(folder / "hand-records.pbn", records, event="views")
        service = FederationService(folder, "127.0.0.1", 1, "unused")
        numbers = dict.fromkeys(names, 0)

        def send(club: str, message: dict[str, Any]) -> None:
            numbers[club] += 1
            body = json.dumps(message | {"number": numbers[club], "club": club}).encode()
            answer = service.receive(service.topics.result(club), body)
            if answer is None or answer.verdict.value != "taken":
                raise RuntimeError(f"{club}: {answer}")

        def result(club: str, board: int, t: int) -> None:
            line = Line(board, Pair(t, "NS"), Pair((t + board) % tables + 1, "EW"),
                        Played(contract, Seat.N, 7 + (t * 7 + board) % 6))
            send(club, {"op": "line", "line": line_to_dict(line)})

        for c in names:
            send(c, {"op": "entry", "pairs": [[i, d] for i in range(1, tables + 1) for d in ("NS", "EW")],
                     "due": tables})
        for b in range(1, boards):
            for c in names:
                for t in range(1, tables + 1):
                    result(c, b, t)
        service.publish_views()
        service.release_boards()
        service.own_every = 0.0                 # every club's own ranking due at every pass: the worst case
        times: dict[str, list[float]] = {"view": [], "release pass, every board and ranking due": []}
        for k in range(passes):
            for c in names:
                result(c, boards, 1 + k % tables)
            t0 = time.perf_counter()
            service.publish_views()
            times["view"].append(time.perf_counter() - t0)
            service._released.clear()           # every released board due again
            t0 = time.perf_counter()
            service.release_boards()
            times["release pass, every board and ranking due"].append(time.perf_counter() - t0)
        service.journal.close()
        service._held.close()
    return {name: {"median_s": round(statistics.median(ts), 4), "p90_s": round(sorted(ts)[int(0.9 * len(ts))], 4),
                   "max_s": round(max(ts), 4), "passes": len(ts)} for name, ts in times.items()}


if __name__ == "__main__":
    print(json.dumps(view_passes(int(sys.argv[1]) if len(sys.argv) > 1 else 40)))
