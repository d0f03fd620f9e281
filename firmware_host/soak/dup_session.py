"""The duplicate soak's session: the club's session (a Mitchell of the soak's tables) on a real Mosquitto
with the session service, and every table a real ``cardtable run`` of ``duplicate-bridge`` with
``session = true``: its seating, round after round, comes over the broker, its confirmed results go back.
The soak plays the director too: it calls each round once every table has finished the one before.

The tables are ``dup_tables.TableRun``s (the people, the misboardings, the faults); what this adds is the
club around them, and its own figures: the results the session took and refused.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.duplicate.handrecords.handfiles import write_hand_records
from firmware_host.session.broker_client import SessionService
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.soak.dup_club import ClubProcess, hostile_messages, secrets_shown, send_hostile, stall
from firmware_host.soak.dup_schedule import DupSchedule
from firmware_host.soak.dup_tables import TableRun, close_all
from firmware_host.soak.rig import all_rows
from laws.scoring import Method
from laws.session.duplicate.spec import SessionSetup, build_movement, default_tables
from laws.session.duplicate.state import progress

log = logging.getLogger(__name__)


def movement_spec(tables: int, boards_per_round: int) -> dict[str, Any]:
    return {"kind": "mitchell", "tables": tables, "boards_per_round": boards_per_round}


def boards_needed(tables: int, boards_per_round: int) -> int:
    return len(build_movement(movement_spec(tables, boards_per_round)).boards())


def boards_played(tables: int, boards_per_round: int) -> dict[int, tuple[int, ...]]:
    """Each table's boards in the movement, in the order it plays them."""
    m = build_movement(movement_spec(tables, boards_per_round))
    out: dict[int, list[int]] = {t: [] for t in range(1, m.tables + 1)}
    for s in sorted((s for s in m.seatings if s.played), key=lambda s: (s.round, s.table)):
        out[s.table] += m.boards_of(s.group)
    return {t: tuple(b) for t, b in out.items()}


def run_session(schedule: DupSchedule, workdir: Path, seed: int, boards_per_round: int,
                timeout: float = 900.0, session_faults: tuple[str, ...] = (),
                on_broker: Callable[[LocalBroker, dict[str, str]], Callable[[], None]] | None = None,
                extra_users: dict[str, str] | None = None,
                spectators: tuple[str, ...] = ("spectator",)) -> dict[str, Any]:
    """The session at every table, through the broker; the tables' record and journals, and the session's.

    Without ``session_faults`` the session service runs in this process; with any of
    ``dup_club.SESSION_FAULTS`` it is the club's dashboard in a process of its own, and the faults fall
    on it. ``on_broker`` (with ``extra_users``, ``spectators``: more logins) is called once the broker is
    up, before any table starts; what it returns is called before the broker stops (the broadcast's
    benchmark runs its service so)."""
    workdir.mkdir(parents=True, exist_ok=True)
    spec = movement_spec(len(schedule.tables), boards_per_round)
    movement = build_movement(spec)
    records = [schedule.records[n] for n in movement.boards()]
    ids = default_tables(movement.tables)
    setup = SessionSetup("cardtable soak", "2026-12-01", "cardtable soak club", spec, movement.contestants,
                         tuple(records), Method.MATCHPOINTS, "A", ids, {}, secrets.token_hex(16))
    records_file = workdir / "records.pbn"
    write_hand_records(records_file, records, overwrite=True)
    session = Session.create(workdir / "session", setup, analyse=False, synchronous="NORMAL")
    passwords = {tid: secrets.token_urlsafe(12) for tid in ids} | {DASHBOARD_USER: secrets.token_urlsafe(12)}
    passwords |= dict(extra_users or {})
    broker = LocalBroker(workdir / "broker", passwords, spectators=spectators)
    broker.start()
    after: Callable[[], None] | None = None
    desk: SessionDesk | None = None
    service: SessionService | None = None
    club: ClubProcess | None = None
    tables: list[TableRun] = []
    out: dict[str, Any] = {}
    try:
        if on_broker is not None:
            after = on_broker(broker, dict(passwords))
        if session_faults:
            session.close()
            pw = workdir / "dashboard.password"
            pw.write_text(passwords[DASHBOARD_USER], encoding="utf-8")
            club = ClubProcess(workdir, workdir / "session", broker.port, pw)
            club.start()
        else:
            desk = SessionDesk(session)
            service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, passwords[DASHBOARD_USER],
                                     tick=0.05)
            service.start()
            if not service.connected.wait(20):
                raise RuntimeError("the session could not connect to the soak's broker")
        for tid, number in ids.items():
            plan = next(p for p in schedule.tables if p.table == number)
            pw = workdir / f"{tid}.password"
            pw.write_text(passwords[tid], encoding="utf-8")
            t = TableRun(plan, workdir / tid, schedule, random.Random(f"{seed}:{number}"),
                         mqtt=("127.0.0.1", broker.port, tid, pw), hooks={"broker": lambda: _outage(broker)})
            tables.append(t)  # before it starts: a SIGTERM while it starts still has it closed (``close_all``)
            t.start(records_file)
        if club is not None:
            out["finished"] = _play_club(club, tables, workdir, broker.port, passwords, session_faults,
                                         time.monotonic() + timeout, out)
        else:
            assert desk is not None
            out["finished"] = _play(desk, tables, time.monotonic() + timeout)
    finally:
        journals = close_all(tables)
        if service is not None:
            service.stop()
        if club is not None:
            club.stop()
        if after is not None:
            after()
        broker.stop()
    faults: dict[str, int] = {}
    for t in tables:
        for k, v in t.faults.items():
            faults[k] = faults.get(k, 0) + v
    for k, v in out.pop("session_faults", {}).items():
        faults[f"session {k}"] = v
    out.update(played=[p for t in tables for p in t.played], journals=journals, faults=faults,
               restarts=sum(t.restarts for t in tables) + (club.kills if club is not None else 0),
               tracebacks=sum(sum(t.proc.tracebacks().values()) for t in tables))
    if desk is not None:
        st = desk.session.state
        out.update(taken=desk.taken, refused=desk.refused, entries=len(st.entries), due=sum(st.due().values()))
        session.close()
    else:
        rows = all_rows(workdir / "session" / "session.sqlite3")
        out.update(taken=sum(1 for _, k, b in rows if k == "event" and b.get("type") == "result"),
                   refused=sum(1 for _, k, b in rows if k == "note" and "refused" in b),
                   due=_due(movement))
        out["entries"] = out["taken"]
        texts = [club.logs() if club is not None else "", json.dumps(out.pop("last_state", {}))]
        shown = secrets_shown({"the session's secret": setup.secret} |
                              {f"{user}'s password": pw for user, pw in passwords.items()}, texts)
        out["secrets_shown"] = shown
    return out


def _due(movement: Any) -> int:
    return sum(len(movement.boards_of(s.group)) for s in movement.seatings if s.played)


def _play_club(club: ClubProcess, tables: list[TableRun], workdir: Path, port: int, passwords: dict[str, str],
               faults: tuple[str, ...], deadline: float, out: dict[str, Any], grace: float = 40.0,
               idle: float = 30.0) -> bool:
    """As ``_play``, the director at the dashboard's web API, the session's faults on the way; True once
    every result due is in the session's journal (waiting ``grace`` seconds after the last board, and no
    longer than ``idle`` seconds while no result, entry or round moves). Neither wait counts the time the
    soak itself is busy (sending the hostile messages, calling a round, reading the state, restarting the
    process: the people do not play meanwhile) nor the time the session cannot journal on purpose (the
    stall, and its journal fault until it clears): on a loaded machine those take long, and the session
    was not idle. Stopping early, it says why and what was reached (``out["stopped"]``)."""
    db = workdir / "session" / "session.sqlite3"
    state = club.state()
    rounds = int(state["rounds"])
    due = sum(len(t.plan.boards) for t in tables)              # the movement's boards at each table
    called = 1
    done: dict[str, int] = {}
    last_read = 0.0
    results: list[dict[str, Any]] = []
    progress_: list[dict[str, Any]] = list(state["progress"])
    finished_at: float | None = None
    last_move: tuple[tuple[int, int, int], float] = ((0, 0, 0), time.monotonic())
    held_up = time.monotonic()          # until when a fault on purpose (the stall, the restart) held things up
    stalling: threading.Thread | None = None   # the stall's thread
    busy = 0.0                          # seconds the soak itself was busy since the last move (not idle)
    while time.monotonic() < deadline:
        for t in tables:
            t.step()
        now = time.monotonic()
        if now - last_read >= 0.25:
            last_read = now
            results = [b for _, k, b in all_rows(db) if k == "event" and b.get("type") == "result"]
            try:
                state = club.state()
                progress_ = list(state["progress"])
            except OSError:
                pass                                   # the process is being started again
            busy += time.monotonic() - now             # the read waits for the session's lock
            if (stalling is not None and stalling.is_alive()) or state.get("journal_fault"):
                held_up = time.monotonic()             # it cannot journal, on purpose: not idle
        have = len(results)
        waiting = any(t.waiting() for t in tables)
        # in this order, so that one does not undo another (a restart revives a hub a message stopped):
        # kill right after a table sent a result the session has not journaled, once a quarter are in;
        # then the hostile messages, once round 2 is called; then the stall, once three quarters are in
        in_flight = sum(1 for t in tables for p in t.played if p.confirms >= 2) > have
        if "kill" in faults and "kill" not in done and have >= due // 4 and in_flight:
            club.kill()
            done["kill"] = 1
            held_up = time.monotonic()
        ready = "kill" not in faults or "kill" in done
        if "hostile" in faults and "hostile" not in done and called >= 2 and ready:
            tid = next(iter(passwords))
            taken = next((r for r in results if r.get("table") == tid), None)
            messages = hostile_messages(tid, taken)
            began = time.monotonic()
            sent = send_hostile(port, tid, passwords[tid], messages)
            busy += time.monotonic() - began
            (workdir / "hostile.json").write_text(json.dumps(
                {"table": tid, "sent": sent, "messages": [{"topic": tp, "bytes": len(p)} for tp, p in messages]}),
                encoding="utf-8")
            done["hostile"] = len(messages)
        ready = ready and ("hostile" not in faults or "hostile" in done)
        if "stall" in faults and "stall" not in done and have >= due * 3 // 4 and ready:
            stalling = stall(db)
            done["stall"] = 1
        if have >= due and not waiting:
            out["session_faults"], out["last_state"] = done, state
            return True
        if all(t.done() for t in tables) and not waiting:
            finished_at = finished_at or now
            if now - max(finished_at, held_up) - busy > grace:
                out["stopped"] = (f"the session took no more results for {grace:.0f} s after the last board: "
                                  f"{_reached(have, due, called, rounds, tables, done)}")
                break
        moved = (have, sum(len(t.entries) for t in tables), called)
        if moved != last_move[0]:
            last_move, busy = (moved, now), 0.0
        elif now - max(last_move[1], held_up) - busy > idle:   # nothing moves: a session that takes nothing more
            out["stopped"] = f"nothing moved for {idle:.0f} s: {_reached(have, due, called, rounds, tables, done)}"
            log.warning("the session took nothing for %.0f s: the soak stops waiting", idle)
            break
        if called < rounds and all(x["round"] >= called and not x["left"] for x in progress_):
            began = time.monotonic()
            taken_, why = club.call(called + 1)
            busy += time.monotonic() - began
            if taken_ or "has been called already" in why:
                called += 1
            else:                                   # a session that cannot journal it now: the director tries again
                log.warning("calling round %d: %s", called + 1, why)
                out["round_calls_failed"] = out.get("round_calls_failed", 0) + 1
                time.sleep(1.0)
            progress_ = [dict(x, round=0) for x in progress_]     # read again before the next call
        time.sleep(0.005)
    out.setdefault("stopped", f"the soak's deadline passed: {len(results)} of {due} results journaled")
    out["session_faults"], out["last_state"] = done, state
    return False


def _reached(have: int, due: int, called: int, rounds: int, tables: list[TableRun], done: dict[str, int]) -> str:
    """Where the evening stood when the soak stopped waiting (its report's words)."""
    return (f"{have} of {due} results journaled, round {called} of {rounds} called, tables done "
            f"{[t.plan.table for t in tables if t.done()]}, tables waiting for the director "
            f"{[t.plan.table for t in tables if t.waiting()]}, faults made {sorted(done)}")


def _outage(broker: LocalBroker, seconds: float = 1.5) -> None:
    """The club's broker stops and starts again a while later (without persistence: what it held is gone)."""
    import threading

    def cycle() -> None:
        broker.stop()
        time.sleep(seconds)
        broker.start()

    threading.Thread(target=cycle, name="broker-outage", daemon=True).start()


def _play(desk: SessionDesk, tables: list[TableRun], deadline: float) -> bool:
    """Step the tables; call each round when every table has finished the one before; True once every
    result due is in."""
    st = desk.session.state
    rounds = st.movement.rounds
    called = 1
    while time.monotonic() < deadline:
        for t in tables:
            t.step()
        with desk.lock:
            p = progress(st)
            due = sum(st.due().values())
            have = len(st.entries)
        if have >= due and all(not t.waiting() for t in tables):
            return True
        if called < rounds and all(x["round"] >= called and not x["left"] for x in p.tables):
            called += 1
            outcome = desk.director({"type": "round", "round": called, "by": "soak"})
            if not outcome.taken:
                raise RuntimeError(f"calling round {called}: {outcome.why}")
        time.sleep(0.005)
    return False
