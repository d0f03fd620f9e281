"""``cardtable bench federation --scale [TABLES]``: a simultaneous at scale on one machine, with outages.

Real Mosquitto processes on loopback: the federation's broker, and ``clubs`` club brokers (12 by
default), each bridged to it (``EventTopics.bridge``, persistent sessions, QoS 1) through its own
loopback TCP relay, the club's wide-area link, which the run can cut. The federation's service runs as
its own process (``cardtable federation serve --broker``), so it can be killed. Each club's uplink
(``ClubUplink``, fed by a function as the simulated club's session) sends its tables' results as they
come: ``tables`` tables in all, spread over the clubs, each table a result every ``pace`` seconds at its
own phase (a compressed evening: a real table takes about seven minutes a board), ``boards`` boards,
and one result in 50 corrected by the club's director a little later (unless the club has sent every
result of the board by then: its results of a finished board are final). The first ``real`` clubs (3 by
default) are real instead: each plays a real duplicate session (``DuplicateDemo``: its own broker, the
director's session service, a few real tables dealing from their shoes and checking every card) on the
event's hand records, fetched over its bridge and checked against the event's commitment; its uplink reads
the session's journal as the club's does (``club_messages``). The real clubs start one after another
during the evening (a real session at the bench plays its boards in seconds, so they start at a quarter,
a half and three quarters of it).

While the tables play, ``outages`` forced outages in turn (20 by default): a club's broker killed and
started again, a club's link cut for a while, the federation's broker restarted, the federation's
service process killed and started again. The first link cut is the first real club's and lasts
``long_cut`` seconds (600: ten minutes), the others a few seconds; it runs beside the outages that follow,
and its club's messages sent during it (and ``settle`` after) are left out of the latency. After each, the first ranking the federation publishes is
checked against a whole rescore from its journal (:func:`firmware_host.federation.audit.view_problem`);
at the end every club's messages are counted in the journal (:func:`audit_journal`): none lost, none
taken twice, none changed. Latency: a club's first publish of a message to the first public ranking
published after the federation took it, for messages outside outages (:func:`outside_outages`: not sent
from an outage's start to ``settle`` seconds after its end, nor caught in flight by an outage that began
less than the 2 s target after it was sent). The run also gives the figure by the time sent alone (the
rule before 2026-12-03) and the ten slowest messages outside outages with the outage that ended last
before each.
"""

from __future__ import annotations

import contextlib
import heapq
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from firmware_host.bench.report import figures
from firmware_host.wire.reader import read_json
from firmware_host.wire.subscribed import stop_loop

OUTAGE_KINDS = ("club broker killed", "club link cut", "federation broker restarted", "service killed")


class Link:
    """A loopback TCP relay standing for a club's wide-area link; :meth:`cut` drops it for a while."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.down_until = 0.0
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        self.bytes = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                a, _ = self.server.accept()
            except OSError:
                return
            if time.monotonic() < self.down_until:
                a.close()
                continue
            try:
                b = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                a.close()
                continue
            with self.lock:
                self.conns += [a, b]
            for x, y in ((a, b), (b, a)):
                threading.Thread(target=self._pump, args=(x, y), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                self.bytes += len(data)
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass

    def cut(self, seconds: float) -> None:
        """Drop every connection now and refuse new ones for ``seconds``."""
        self.down_until = time.monotonic() + seconds
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
                s.close()
            except OSError:
                pass

    def close(self) -> None:
        self.server.close()
        self.cut(0)


def _service(folder: Path, port: int, passwords: Path, log: Path, web: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "federation", "serve", "--dir",
                             str(folder), "--passwords", str(passwords), "--broker", f"127.0.0.1:{port}",
                             "--web", str(web)], stdout=log.open("ab"), stderr=subprocess.STDOUT)


def _page_view(web: int, timeout: float = 120.0) -> dict[str, Any]:
    """The whole view from the service's page (retried while the service is down or starting)."""
    import urllib.request

    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{web}/standings.json", timeout=30) as r:
                view = dict(read_json(r.read(), max_bytes=None).value or {})
            if sum(view.get("taken", {}).values()):       # a service just started has published nothing yet
                return view
            raise OSError("the service has not published its first view yet")
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.5)


def real_tables(boards: int) -> int:
    """Tables of a real club: the most, up to 4, whose Mitchell shares ``boards`` equally (at least 2)."""
    return next((t for t in (4, 3, 2) if boards % t == 0), 2)


#: The latency target (issue 33: p99 < 2 s): a message an outage caught in flight, sent less than this
#: before the outage began and not yet in the view when it began, is the outage's, not outside it.
IN_FLIGHT = 2.0


def outside_outages(sent: dict[tuple[str, int], float], seen_at: dict[tuple[str, int], float],
                    windows: list[tuple[float, float, str]], in_flight: float = IN_FLIGHT) -> list[tuple[str, int]]:
    """The messages whose way to the public view no outage touched: each ``(club, number)`` seen, neither
    sent during an outage of all clubs or of its own club (a window ``(start, end + settle, club or "")``)
    nor caught in flight by one: sent less than ``in_flight`` seconds before an outage began and still
    not in the view when it began. One sent longer before and still not seen had already missed the
    target before the outage, and stays in (a miss). ``in_flight=0`` counts by the time sent alone."""
    out = []
    for key, t in seen_at.items():
        if key not in sent:
            continue
        s = sent[key]
        if not any(w in ("", key[0]) and (a <= s <= b or s < a < t and a - s < in_flight) for a, b, w in windows):
            out.append(key)
    return out


def _after_outage(key: tuple[str, int], sent: float, latency: float, t0: float,
                  windows: list[tuple[float, float, str]], log: list[dict[str, Any]]) -> dict[str, Any]:
    """One slow message outside the outages, with the outage that ended last before it was sent: where a
    tail comes from (the recovery after an outage longer than the settling time, or a club's own backlog)."""
    ended = [(b, n) for n, (a, b, w) in enumerate(windows) if b <= sent]
    row: dict[str, Any] = {"club": key[0], "number": key[1], "sent_at_s": round(sent - t0, 1),
                           "latency_s": round(latency, 2)}
    if ended:
        end, n = max(ended)
        row["after_settled_s"] = round(sent - end, 1)
        row["last_outage"] = {k: log[n][k] for k in ("kind", "club") if n < len(log) and k in log[n]}
    return row


def scale(tables: int = 1000, clubs: int = 12, boards: int = 4, pace: float = 45.0, outages: int = 20,
          settle: float = 4.0, seed: int = 1, drain: float = 600.0, real: int = 3,
          long_cut: float = 600.0, resend: float = 2.0, max_wait: float = 30.0,
          bridge_restart: tuple[int, int] = (1, 30), session_timeout: float = 600.0) -> dict[str, Any]:
    """Run the simultaneous (see the module docstring); its figures and the checks' findings.

    ``resend`` and ``max_wait`` are each uplink's (:class:`ClubUplink`), ``bridge_restart`` each bridge's
    ``restart_timeout`` (:meth:`EventTopics.bridge`): the defaults are a club's; a short run (the test)
    makes them short, so that a link back after a cut of a few seconds carries the messages again
    within a second or two rather than after a back-off grown to 30 s while it was down."""
    import paho.mqtt.client as mqtt

    from firmware_host.duplicate.handrecords.handfiles import write_hand_records
    from firmware_host.duplicate.handrecords.newdeals import new_boards
    from firmware_host.evening.duplicate_evening import DuplicateDemo
    from firmware_host.federation.audit import audit_journal, view_problem
    from firmware_host.federation.brokers import EventBroker
    from firmware_host.federation.service import EventSetup, create_event
    from firmware_host.federation.topics import SERVICE_USER, EventTopics
    from firmware_host.federation.uplink import ClubUplink, club_messages, fetch_records, read_session
    from laws.cards import Seat
    from laws.duplicate.deal import commitment
    from laws.federation.messages import line_to_dict
    from laws.scoring.bridge import parse_contract
    from laws.scoring.session_values import Line, Pair, Played

    rng = random.Random(seed)
    topics = EventTopics("scale")
    names = [f"c{k:02d}" for k in range(clubs)]
    real = max(0, min(real, clubs - 1))
    reals, sims = names[:real], names[real:]
    per_real = real_tables(boards)
    rest = max(len(sims), tables - per_real * real)
    size = {c: per_real for c in reals} | {c: rest // len(sims) + (1 if k < rest % len(sims) else 0)
                                          for k, c in enumerate(sims)}
    records = new_boards(boards)
    sessions: dict[str, Path] = {}
    real_runs: dict[str, Any] = {}
    queues: dict[str, list[dict[str, Any]]] = {c: [] for c in names}
    qlock = threading.Lock()
    sent: dict[tuple[str, int], float] = {}
    seen_at: dict[tuple[str, int], float] = {}
    views: list[tuple[float, dict[str, Any]]] = []
    windows: list[tuple[float, float, str]] = []     # (from, to, club: "" for every club)
    log: list[dict[str, Any]] = []
    counts: dict[str, float] = {"result_bytes": 0, "results_published": 0, "views": 0, "view_bytes": 0}
    contracts = [parse_contract(c) for c in ("3NT", "4S", "4H", "2S", "3C", "6N", "1NT")]

    def message(club: str, line: Any) -> None:
        with qlock:
            q = queues[club]
            q.append({"op": "line", "line": line_to_dict(line), "number": len(q) + 1, "club": club})

    with tempfile.TemporaryDirectory(prefix="fedscale-") as tmp:
        root = Path(tmp)
        from firmware_host.club.broker import free_port

        pw = {c: f"pw-{c}" for c in names} | {SERVICE_USER: "pw-fed", "viewer": "pw-view"}
        web = free_port()
        acl = topics.acl(names) + f"\nuser viewer\ntopic read {topics.root}/public/#\n"
        stack = contextlib.ExitStack()   # what is started is stopped (bounded waits), however the run ends
        try:
            fed = EventBroker(root / "fed", pw, acl, persistence=True)
            fed.start()
            stack.callback(fed.stop)
            links = {c: Link(fed.port) for c in names}
            for link in links.values():
                stack.callback(link.close)
            brokers = {c: EventBroker(root / c, {"uplink": "u"}, topics.club_acl(c, "uplink"),
                                      extra=topics.bridge(c, "127.0.0.1", links[c].port, pw[c], restart=bridge_restart),
                                      persistence=True)
                       for c in names}
            for b in brokers.values():
                stack.callback(b.stop)
                b.start()
            event = root / "event"
            create_event(event, EventSetup("scale", tuple(range(1, boards + 1)), tuple(names),
                                           commitment=commitment(records)))
            write_hand_records(event / "hand-records.pbn", records, event="scale")
            pwfile = root / "passwords"
            pwfile.write_text("".join(f"{u}:{p}\n" for u, p in pw.items()), encoding="utf-8")
            service = [_service(event, fed.port, pwfile, root / "service.log", web)]

            def stop_service() -> None:
                service[0].terminate()
                try:
                    service[0].wait(15)
                except subprocess.TimeoutExpired:
                    service[0].kill()
                    service[0].wait(5)

            stack.callback(stop_service)

            def on_view(client: Any, userdata: Any, msg: Any) -> None:
                now = time.monotonic()
                view = read_json(msg.payload).value
                if not isinstance(view, dict):
                    return
                counts["views"] += 1
                counts["view_bytes"] += len(msg.payload)
                views.append((now, view))
                for club, n in view.get("taken", {}).items():
                    for k in range(n, 0, -1):
                        if (club, k) in seen_at:
                            break
                        seen_at[(club, k)] = now

            viewer = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="viewer")
            viewer.username_pw_set("viewer", pw["viewer"])
            viewer.on_connect = lambda c, u, f, r, p=None: c.subscribe(topics.standings, qos=1)
            viewer.on_message = on_view
            viewer.reconnect_delay_set(0.2, 2)
            viewer.connect_async("127.0.0.1", fed.port)
            viewer.loop_start()
            stack.callback(viewer.disconnect)
            stack.callback(stop_loop, viewer)
            began = time.monotonic()     # the service subscribed (its first view published) before any club
            while not views and time.monotonic() < began + 120:      # sends: a message published on the
                time.sleep(0.1)          # federation's broker with no subscriber yet is dropped, and its club
            counts["service_up_s"] = round(time.monotonic() - began, 1)   # would wait for its resend's back-off

            def source(club: str) -> Any:
                if club in reals:
                    path = root / f"session-{club}" / "session" / "session.sqlite3"
                    sessions[club] = path
                    return lambda: club_messages(club, read_session(path)) if path.exists() else []
                return lambda: list(queues[club])

            uplinks = {}
            for c in names:
                up = ClubUplink(c, topics, source(c), "127.0.0.1", brokers[c].port, "uplink", "u", resend=resend,
                                poll=0.2, max_wait=max_wait)
                orig = up.client.publish

                def publish(topic: str, payload: str, qos: int = 0, retain: bool = False, _c: str = c,
                            _orig: Any = orig) -> Any:
                    sent.setdefault((_c, read_json(payload).value["number"]), time.monotonic())
                    counts["result_bytes"] += len(payload)
                    counts["results_published"] += 1
                    return _orig(topic, payload, qos=qos, retain=retain)

                up.client.publish = publish  # type: ignore[method-assign]
                uplinks[c] = up
                stack.callback(up.stop)
            for c in reals:
                uplinks[c].start()
            for c in sims:
                pairs = [[i, d] for i in range(1, size[c] + 1) for d in ("NS", "EW")]
                queues[c].append({"op": "entry", "pairs": pairs, "due": size[c], "number": 1, "club": c})
                uplinks[c].start()

            ready = time.monotonic() + 120          # the clubs' entries taken: the evening starts
            while time.monotonic() < ready and not (views and all(views[-1][1].get("taken", {}).get(c) for c in sims)):
                time.sleep(0.2)
            fetched = {}      # each real club takes the hand records over its bridge before the evening, as
            for c in reals:   # `cardtable club records` does, checked against the event's commitment
                fetched[c] = fetch_records(topics, c, "127.0.0.1", brokers[c].port, "uplink", "u",
                                           commitment=commitment(records), timeout=120).boards
            t0 = time.monotonic()
            plan: list[tuple[float, str, int, int, int]] = []   # (when, club, table, board, correction?)
            for c in sims:
                for t in range(1, size[c] + 1):
                    phase = rng.uniform(0, pace)
                    for b in range(1, boards + 1):
                        plan.append((t0 + phase + (b - 1) * pace, c, t, b, 0))
                        if rng.random() < 0.02:
                            plan.append((t0 + phase + (b - 1) * pace + rng.uniform(5, 20), c, t, b, 1))
            heapq.heapify(plan)
            play_end = max(p[0] for p in plan)

            played: dict[tuple[str, int], int] = {}     # (club, board) -> its tables' results sent

            def tables_play() -> None:
                while plan:
                    when, c, t, b, fix = heapq.heappop(plan)
                    n = size[c]
                    if fix and played.get((c, b), 0) >= n:
                        continue    # the club has finished the board: its results are final, not corrected
                    time.sleep(max(0.0, when - time.monotonic()))
                    played[(c, b)] = played.get((c, b), 0) + (0 if fix else 1)
                    line = Line(b, Pair(t, "NS"), Pair((t + b) % n + 1, "EW"),
                                Played(contracts[(t * 7 + b + fix) % len(contracts)], Seat.N,
                                       (t * 5 + b * 3 + int(c[1:]) % 7 + fix) % 14))
                    message(c, line)

            player = threading.Thread(target=tables_play, daemon=True)
            player.start()

            def real_club(k: int, club: str) -> None:
                """The club's session on the federation's records, fetched over its bridge (as `club records`)."""
                time.sleep(max(0.0, t0 + (play_end - t0) * (k + 1) / (real + 1) - time.monotonic()))
                started = time.monotonic()
                try:
                    demo = DuplicateDemo(root / f"session-{club}", per_real, boards, "mitchell", seed=seed + k,
                                         analyse=False, records=fetched[club])
                    result = demo.run(timeout=session_timeout)
                    real_runs[club] = {"tables": per_real, "results": result.results, "problems": result.problems,
                                       "started_at_s": round(started - t0, 1), "session_s": round(result.seconds, 1)}
                except Exception as exc:  # noqa: BLE001 - the run reports it (and fails) rather than hanging
                    real_runs[club] = {"error": f"{type(exc).__name__}: {exc}"}

            reals_play = [threading.Thread(target=real_club, args=(k, c), daemon=True) for k, c in enumerate(reals)]
            for th in reals_play:
                th.start()
            long_club = reals[0] if reals else ""

            after: dict[int, dict[str, Any]] = {}

            def fetch_after(k: int, end: float) -> None:
                time.sleep(max(0.0, end + settle - time.monotonic()))
                try:
                    after[k] = _page_view(web)
                except OSError as exc:
                    after[k] = {"error": str(exc)}

            def check(view: dict[str, Any] | None) -> str:
                if not view or "error" in view:
                    return f"no view from the page ({(view or {}).get('error', 'none')})"
                return view_problem(event, view) or "equal"

            gap = (play_end - t0) / (outages + 1)
            fetchers: list[threading.Thread] = []     # each outage's view after it (the long cut's may come last)
        except BaseException:
            stack.close()
            raise
        try:
            for k in range(outages):
                time.sleep(max(0.0, t0 + (k + 1) * gap - time.monotonic()))
                kind = OUTAGE_KINDS[k % len(OUTAGE_KINDS)]
                club = names[(k * 5) % clubs]
                start = time.monotonic()
                length = min(gap * 0.6, rng.uniform(2.0, 8.0))
                if kind == "club broker killed":
                    brokers[club].kill()
                    time.sleep(length)
                    brokers[club].start()
                elif kind == "club link cut" and long_club:
                    club, long_club = long_club, ""      # the long cut: it goes on beside the next outages
                    links[club].cut(long_cut)
                    windows.append((start, start + long_cut + settle, club))
                    log.append({"outage": k + 1, "kind": kind, "club": club, "at_s": round(start - t0, 1),
                                "for_s": round(long_cut, 1)})
                    fetchers.append(threading.Thread(target=fetch_after, args=(k, start + long_cut), daemon=True))
                    fetchers[-1].start()
                    continue
                elif kind == "club link cut":
                    length = min(gap * 0.7, rng.uniform(5.0, 20.0))
                    links[club].cut(length)
                    time.sleep(length)
                elif kind == "federation broker restarted":
                    club = ""
                    fed.stop()
                    time.sleep(length)
                    fed.start()
                else:
                    club = ""
                    service[0].kill()
                    service[0].wait(10)
                    time.sleep(length)
                    service[0] = _service(event, fed.port, pwfile, root / "service.log", web)
                end = time.monotonic()
                windows.append((start, end + settle, ""))
                fetchers.append(threading.Thread(target=fetch_after, args=(k, end), daemon=True))
                fetchers[-1].start()
                log.append({"outage": k + 1, "kind": kind, "club": club, "at_s": round(start - t0, 1),
                            "for_s": round(end - start, 1)})
            player.join(play_end - time.monotonic() + 60)
            for th in reals_play:
                th.join(long_cut + session_timeout + 60)
            deadline = time.monotonic() + drain + (long_cut if reals else 0.0)
            while time.monotonic() < deadline and not all(u.done for u in uplinks.values()):
                time.sleep(0.5)
            drained = time.monotonic() - t0
            for c in reals:
                queues[c] = club_messages(c, read_session(sessions[c])) if sessions[c].exists() else []
            total = sum(len(q) for q in queues.values())
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and sum(views[-1][1].get("taken", {}).values() if views else [0]) < total:
                time.sleep(0.5)
            last = _page_view(web)
            for th in fetchers:     # a view fetched after the long cut may still be waiting for it to settle
                th.join(settle + 150)
            for entry in log:   # the rankings after each outage, checked once the run is over
                k = entry["outage"] - 1
                entry["ranking"] = check(after.get(k))
                entry["view_boards"] = len(after.get(k, {}).get("boards", []))
            final = check(last)
        finally:
            stack.close()   # in reverse: the uplinks, the viewer, the service, the clubs' brokers, the links, fed
        audit = audit_journal(event, queues)
        wide_bytes = sum(link.bytes for link in links.values())
    outside_keys = outside_outages(sent, seen_at, windows)
    outside = [seen_at[k] - sent[k] for k in outside_keys]
    sent_outside = [seen_at[k] - sent[k] for k in outside_outages(sent, seen_at, windows, in_flight=0.0)]
    slowest = [_after_outage(k, sent[k], seen_at[k] - sent[k], t0, windows, log)
               for k in sorted(outside_keys, key=lambda k: sent[k] - seen_at[k])[:10]]
    results = total - clubs
    reals_ok = all(not r.get("error") and not r.get("problems") for r in real_runs.values()) and \
        len(real_runs) == len(reals)
    return {
        "clubs": clubs, "tables": sum(size.values()), "boards": boards, "pace_s": pace, "messages": total,
        "real_clubs": {c: real_runs.get(c, {"error": "did not finish"}) for c in reals},
        "real_messages": {c: len(queues[c]) for c in reals}, "long_cut_s": long_cut if reals else 0,
        "results": results, "play_s": round(play_end - t0, 1), "all_taken_after_s": round(drained, 1),
        "outages": log, "rankings_equal_after_outages": sum(1 for e in log if e["ranking"] == "equal"),
        "final_ranking": final, "audit": audit.summary(), "ok": audit.ok and final == "equal" and reals_ok and
        all(e["ranking"] == "equal" for e in log),
        "latency_outside_outages": {k: round(v, 1) for k, v in figures(outside).items()},
        "slowest_outside_outages": slowest,
        "in_flight_at_an_outage": len(sent_outside) - len(outside),
        "latency_sent_outside_outages": {k: round(v, 1) for k, v in figures(sent_outside).items()},
        "messages_per_result_club_out": round(counts["results_published"] / max(total, 1), 2),
        "bytes_per_result_club_out": round(counts["result_bytes"] / max(total, 1)),
        "bytes_per_result_wide_area": round(wide_bytes / max(total, 1)),
        "public_views_seen": counts["views"], "service_up_s": counts["service_up_s"],
    }
