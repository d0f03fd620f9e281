"""The duplicate soak's session: the club's session (a Mitchell of the soak's tables) on a real Mosquitto
with the session service, and every table a real ``cardtable run`` of ``duplicate-bridge`` with
``session = true``: its seating, round after round, comes over the broker, its confirmed results go back.
The soak plays the director too: it calls each round once every table has finished the one before.

The tables are ``dup_tables.TableRun``s (the people, the misboardings, the faults); what this adds is the
club around them, and its own figures: the results the session took and refused.
"""

from __future__ import annotations

import random
import secrets
import time
from pathlib import Path
from typing import Any

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.club.duplicate_service import SessionService
from firmware_host.duplicate.desk import SessionDesk
from firmware_host.duplicate.handfiles import write_hand_records
from firmware_host.duplicate.session import Session
from firmware_host.duplicate.session_state import progress
from firmware_host.duplicate.spec import SessionSetup, build_movement, default_tables
from firmware_host.soak.dup_schedule import DupSchedule
from firmware_host.soak.dup_tables import TableRun, close_all
from laws.scoring import Method


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
                timeout: float = 900.0) -> dict[str, Any]:
    """The session at every table, through the broker; the tables' record and journals, and the session's."""
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
    desk = SessionDesk(session)
    passwords = {tid: secrets.token_urlsafe(12) for tid in ids} | {DASHBOARD_USER: secrets.token_urlsafe(12)}
    broker = LocalBroker(workdir / "broker", passwords)
    broker.start()
    service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, passwords[DASHBOARD_USER], tick=0.05)
    tables: list[TableRun] = []
    out: dict[str, Any] = {}
    try:
        service.start()
        if not service.connected.wait(20):
            raise RuntimeError("the session could not connect to the soak's broker")
        for tid, number in ids.items():
            plan = next(p for p in schedule.tables if p.table == number)
            pw = workdir / f"{tid}.password"
            pw.write_text(passwords[tid], encoding="utf-8")
            t = TableRun(plan, workdir / tid, schedule, random.Random(f"{seed}:{number}"),
                         mqtt=("127.0.0.1", broker.port, tid, pw), hooks={"broker": lambda: _outage(broker)})
            t.start(records_file)
            tables.append(t)
        out["finished"] = _play(desk, tables, time.monotonic() + timeout)
    finally:
        journals = close_all(tables)
        service.stop()
        broker.stop()
    faults: dict[str, int] = {}
    for t in tables:
        for k, v in t.faults.items():
            faults[k] = faults.get(k, 0) + v
    st = desk.session.state
    out.update(played=[p for t in tables for p in t.played], journals=journals, faults=faults,
               restarts=sum(t.restarts for t in tables),
               tracebacks=sum(sum(t.proc.tracebacks().values()) for t in tables),
               taken=desk.taken, refused=desk.refused, entries=len(st.entries), due=sum(st.due().values()),
               fouled={k: e.foul is not None for k, e in st.entries.items()})
    session.close()
    return out


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
