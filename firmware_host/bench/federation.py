"""``cardtable bench federation``: a simultaneous's figures (``docs/federation.md``).

- **A whole field rescore** at 1,000 tables x 27 boards (100 clubs of 10-table Mitchells, every board
  played at every table: 27,000 results, 1,000 a board), ``laws.federation.field.Field.score`` on a
  field of its own each time (nothing scored yet), medians.
- **The public view after each message**, whole and incremental side by side (:func:`view_cost`); a
  pair of views that differ fails the bench in one line (``ChecksFailed``, exit 1).
- **A club's result to the field's ranking**: real Mosquitto on loopback, a federation broker and
  four club brokers bridged to it (two with --quick), each club's uplink (``ClubUplink``) sending simulated tables'
  results at a club's pace (each club a result every 0.5 s, busier than 1,000 tables at seven minutes a
  board); the time from the uplink's
  publish on the club's own broker to the federation's service having taken it, journaled it and
  published the field's ranking (views coalesced, at most one every 0.2 s; p50/p90/p99; target p99 < 2 s
  outside outages).
- **Messages and bytes per result**: every message the uplinks publish and every message the federation
  publishes (answers, views, boards released, records), counted as they are published.

``--scale [TABLES] [--outages N]`` runs instead the simultaneous at scale with N outages (20), three of
its 12 clubs real sessions with real tables, the first link cut ten minutes long (one minute with
``--quick``), judged (``federation_scale.py``); it exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from firmware_host.bench.report import ChecksFailed, figures, report
from firmware_host.wire.reader import read_json


def _field(clubs: int = 100, tables: int = 10, boards: int = 27) -> Any:
    from laws.cards import Seat
    from laws.federation.field import ClubEntry, Field
    from laws.scoring.bridge import parse_contract
    from laws.scoring.session_values import Line, Pair, Played

    entries = {f"c{k:03d}": ClubEntry(f"c{k:03d}", {Pair(i, d): d for i in range(1, tables + 1) for d in ("NS", "EW")},
                                      tables) for k in range(clubs)}
    f = Field(tuple(range(1, boards + 1)), entries)
    contract = parse_contract("4S")
    for k, club in enumerate(entries):
        for b in range(1, boards + 1):
            for t in range(1, tables + 1):
                tricks = 7 + (k * 3 + b * 5 + t * 7) % 6
                f.apply(club, Line(b, Pair(t, "NS"), Pair((t + b) % tables + 1, "EW"), Played(contract, Seat.N, tricks)))
    return f


def rescore(repeats: int = 3) -> dict[str, Any]:
    times = []
    for _ in range(repeats):
        f = _field()                    # a field of its own each time: nothing scored or ranked yet
        t0 = time.perf_counter()
        f.score()
        times.append(time.perf_counter() - t0)
    return {"tables": 1000, "boards": 27, "results": 27000, "repeats": repeats,
            "median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3)}


def view_cost(clubs: int = 12, tables: int = 84, boards: int = 4, messages: int = 200) -> dict[str, Any]:
    """The public view after each message, made two ways side by side on the same field and messages:
    **whole** ranks the public boards from their scores each time (``rank_boards``, as the service did
    before) and **incremental** is the service's way now (the pairs' figures carried, a board scored
    again moving only its pairs, only the pairs whose figures moved placed again, no ranking at all when
    the figures did not change). 1,008 tables by
    default (12 clubs of 84, the scale run's field), boards 1-3 finished by every club (public) and
    board 4 being played: ``messages`` messages, each a new result of board 4 (the public ranking does
    not change) or, one in 25, a correction of a public board (it does). Every view of both ways is
    checked equal."""
    from firmware_host.federation.views import rankings_dict
    from laws.cards import Seat
    from laws.competition.sections import Across, EventResult, labelled
    from laws.federation.field import ClubEntry, Field
    from laws.scoring.bridge import parse_contract
    from laws.scoring.session import rank_boards
    from laws.scoring.session_values import Line, Pair, Played, SessionResult

    names = [f"c{k:02d}" for k in range(clubs)]
    entries = {c: ClubEntry(c, {Pair(i, d): d for i in range(1, tables + 1) for d in ("NS", "EW")}, tables)
               for c in names}
    f = Field(tuple(range(1, boards + 1)), entries)
    c4 = parse_contract("4S")

    def line(k: int, b: int, t: int, bump: int = 0) -> Line:
        return Line(b, Pair(t, "NS"), Pair((t + b) % tables + 1, "EW"),
                    Played(c4, Seat.N, 7 + (k * 3 + b * 5 + t * 7 + bump) % 6))

    for k, c in enumerate(names):
        for b in range(1, boards):
            for t in range(1, tables + 1):
                f.apply(c, line(k, b, t))
    public = tuple(range(1, boards))
    todo = [(k, c, t) for t in range(1, tables + 1) for k, c in enumerate(names)]

    def whole() -> dict[str, Any]:
        scored = f.prepare(public)
        rankings = rank_boards(scored.boards, scored.method, scored.event_fields)
        result = SessionResult(scored.method, scored.boards, rankings)
        named = [(f"field {r.field}", labelled(r, _local(scored.names))) for r in result.rankings]
        named += [(r.field, labelled(r, _local(scored.names)))
                  for r in rank_boards(scored.boards, scored.method, scored.club_fields)]
        return rankings_dict(EventResult(Across.YES, {"field": result}, tuple(named)))

    kept: tuple[Any, dict[str, Any]] = (None, {})
    live: Any = None

    def incremental() -> dict[str, Any]:
        nonlocal kept, live
        scored = f.prepare(public)
        if scored.stamp != kept[0]:
            live = live or scored.live()
            kept = (scored.stamp, rankings_dict(scored.rank(live)))
        return kept[1]

    incremental()
    times: dict[str, list[float]] = {"whole": [], "incremental": []}
    changed = 0
    for n in range(messages):
        if n % 25 == 24:
            k = n % clubs
            f.apply(names[k], line(k, 1 + n % (boards - 1), 1 + n % tables, bump=n))
            changed += 1
        else:
            k, c, t = todo[n % len(todo)]
            f.apply(c, line(k, boards, t))
        order = (("whole", whole), ("incremental", incremental)) if n % 2 else \
            (("incremental", incremental), ("whole", whole))
        got = {}
        for name, fn in order:                  # alternate which goes first
            t0 = time.perf_counter()
            got[name] = fn()
            times[name].append(time.perf_counter() - t0)
        if got["whole"] != got["incremental"]:
            raise ChecksFailed(f"message {n + 1}: the incremental view is not the whole ranking's")
    out: dict[str, Any] = {"tables": clubs * tables, "clubs": clubs, "public_boards": len(public),
                           "messages": messages, "public_changed_by": changed, "views_equal": True}
    for name, ts in times.items():
        out[name] = {k: round(v, 4) for k, v in figures(ts).items()} | {"total_s": round(sum(ts), 2)}
    return out


def _local(names: tuple[str, ...]) -> Any:
    from laws.competition.sections import SPAN, SectionPair
    from laws.scoring.session_values import Pair

    def local(p: Any) -> Any:
        k, number = divmod(p.number, SPAN)
        return SectionPair(names[k], Pair(number, p.direction))
    return local


def live(clubs: int = 4, tables: int = 6, boards: int = 6, gap: float = 0.5) -> dict[str, Any]:
    """Results through bridged brokers: latency from the club's publish to the field's ranking."""
    from firmware_host.federation.brokers import EventBroker
    from firmware_host.federation.service import EventSetup, FederationService, create_event
    from firmware_host.federation.topics import SERVICE_USER, EventTopics
    from firmware_host.federation.uplink import ClubUplink
    from laws.cards import Seat
    from laws.federation.messages import line_to_dict
    from laws.scoring.bridge import parse_contract
    from laws.scoring.session_values import Line, Pair, Played

    topics = EventTopics("bench")
    names = [f"c{k:02d}" for k in range(clubs)]
    sent: dict[tuple[str, int], float] = {}
    done: dict[tuple[str, int], float] = {}
    sizes = {"result": 0, "results_published": 0, "out": 0, "out_bytes": 0}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        pw = {c: f"pw{c}" for c in names} | {SERVICE_USER: "pwf"}
        fed = EventBroker(root / "fed", pw, topics.acl(names))
        fed.start()
        brokers = []
        for c in names:
            b = EventBroker(root / c, {"uplink": "u"}, topics.club_acl(c, "uplink"),
                            extra=topics.bridge(c, "127.0.0.1", fed.port, pw[c]))
            b.start()
            brokers.append(b)
        create_event(root / "event", EventSetup("bench", tuple(range(1, boards + 1)), tuple(names)))

        class Timed(FederationService):
            def publish_views(self) -> None:
                super().publish_views()       # the views are coalesced: every message taken so far is in
                now = time.monotonic()
                view = self.last_view
                for club, n in view["taken"].items():
                    for k in range(n, 0, -1):
                        if (club, k) in done:
                            break
                        done[(club, k)] = now

        service = Timed(root / "event", "127.0.0.1", fed.port, "pwf")
        out_publish = service.client.publish

        def counted(topic: str, payload: str, qos: int = 0, retain: bool = False) -> Any:
            sizes["out"] += 1                 # every message the federation sends: answers, views, boards
            sizes["out_bytes"] += len(payload)
            return out_publish(topic, payload, qos=qos, retain=retain)

        service.client.publish = counted  # type: ignore[method-assign]
        service.start()
        queues: dict[str, list[dict[str, Any]]] = {c: [] for c in names}
        lock = threading.Lock()

        def source(club: str) -> Any:
            def get() -> list[dict[str, Any]]:
                with lock:
                    return list(queues[club])
            return get

        uplinks = []
        for c, b in zip(names, brokers):
            up = ClubUplink(c, topics, source(c), "127.0.0.1", b.port, "uplink", "u", resend=2.0, poll=0.01)
            orig = up.client.publish

            def publish(topic: str, payload: str, qos: int = 0, retain: bool = False, _c: str = c,
                        _orig: Any = orig) -> Any:
                n = read_json(payload).value["number"]
                sent.setdefault((_c, n), time.monotonic())
                sizes["result"] += len(payload)
                sizes["results_published"] += 1
                return _orig(topic, payload, qos=qos, retain=retain)

            up.client.publish = publish  # type: ignore[method-assign]
            uplinks.append(up.start())
        contract = parse_contract("3NT")
        try:
            with lock:
                for c in names:
                    pairs = [[i, d] for i in range(1, tables + 1) for d in ("NS", "EW")]
                    queues[c].append({"op": "entry", "pairs": pairs, "due": tables, "number": 1, "club": c})
            for b in range(1, boards + 1):
                for t in range(1, tables + 1):
                    with lock:
                        for c in names:
                            line = Line(b, Pair(t, "NS"), Pair((t + b) % tables + 1, "EW"),
                                        Played(contract, Seat.S, 7 + (t + b) % 5))
                            queues[c].append({"op": "line", "line": line_to_dict(line),
                                              "number": len(queues[c]) + 1, "club": c})
                    time.sleep(gap)
            total = clubs * (1 + tables * boards)
            end = time.monotonic() + 60
            while len(done) < total and time.monotonic() < end:
                time.sleep(0.05)
        finally:
            for up in uplinks:
                up.stop()
            service.stop()
            for b in brokers:
                b.stop()
            fed.stop()
    lat = [done[k] - sent[k] for k in done if k in sent]
    results = len(done)
    return {"clubs": clubs, "results": results, "lost": clubs * (1 + tables * boards) - results,
            **figures(lat), "bytes_per_result": round((sizes["result"] + sizes["out_bytes"]) / max(results, 1)),
            "messages_per_result": round((sizes["results_published"] + sizes["out"]) / max(results, 1), 2)}


def run(args: argparse.Namespace) -> int:
    quick = bool(getattr(args, "quick", False))
    tables = getattr(args, "scale", None)
    if tables:
        from firmware_host.bench.federation_scale import scale

        given = getattr(args, "outages", None)   # 0 to 1000, checked by the command (``commands/bench.py``)
        outages = 20 if given is None else int(given)
        cut = 60.0 if quick else 600.0       # the real club's long link cut: ten minutes, one with --quick
        found = scale(tables=tables, outages=outages, long_cut=cut)
        report(f"federation at scale: {tables} tables, 12 clubs (3 real), {outages} outages, the longest link "
               f"cut {cut:.0f} s", found, args)
        return 0 if found["ok"] else 1
    out: dict[str, Any] = {"field rescore, 1000 tables x 27 boards": rescore(1 if quick else 3)}
    out["public view after each message, whole vs incremental"] = view_cost(messages=50 if quick else 200)
    out["club result -> field ranking (bridged)"] = live(clubs=2 if quick else 4, boards=2 if quick else 6)
    report("federation: a simultaneous across clubs", out, args)
    return 0
