"""``cardtable soak --duplicate``: a duplicate evening, measured. The dealing station fills every board
of the evening from its hand records (``dup_station``); then the tables play them, some with the physical
boards, some with their shoe dealing each board from its record (``dup_tables``), with misboardings and
faults from the schedule (``dup_schedule``); the folder the evening leaves (``dup_disk``) is judged alone
(``dup_judge``, as ``cardtable soak --check DIR`` does) and the figures printed as a table.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.soak.dup_check import StationFigures, TableFigures
from firmware_host.soak.dup_disk import write_plan, write_played, write_pockets
from firmware_host.soak.dup_judge import Verdict, judge
from firmware_host.soak.dup_schedule import DupSchedule, make_dup_schedule
from firmware_host.soak.dup_session import boards_needed, boards_played, run_session
from firmware_host.soak.dup_station import StationRun
from firmware_host.soak.dup_tables import run_tables
from laws.session.duplicate.spec import default_tables


@dataclass
class DupResult:
    schedule: DupSchedule
    station: StationFigures
    tables: TableFigures
    station_faults: dict[str, int] = field(default_factory=dict)
    table_faults: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    restarts: int = 0
    tracebacks: int = 0
    seconds: float = 0.0
    played: list[Any] = field(default_factory=list)                      # the soak's record, for the checker
    pockets: dict[int, dict[int, list[str]]] = field(default_factory=dict)
    session: dict[str, int] = field(default_factory=dict)                # results taken, refused, due
    verdict: Verdict | None = None                                       # the folder judged (``dup_judge``)

    @property
    def ok(self) -> bool:
        return (self.station.ok and self.tables.ok and self.finished and not self.tracebacks
                and (self.verdict is None or self.verdict.ok))


def evening(workdir: Path, *, tables: int = 3, boards: int = 6, seed: int = 1, faults: int = 3,
            misboard_rate: float = 0.35, schedule: DupSchedule | None = None, session: bool = True,
            session_faults: tuple[str, ...] = (), **broker_hooks: Any) -> DupResult:
    """Deal the evening's boards at the station, play them at the tables, judge the folder they leave.

    With ``session`` (and Mosquitto installed) the tables play a Mitchell of the club's session, ``boards``
    a round, over the broker; otherwise every table plays ``boards`` boards alone, from its configuration.
    ``session_faults`` (``dup_club.SESSION_FAULTS``) run the session as the club's dashboard process and
    fail it so. The figures are ``dup_judge``'s, from what is on disk (``dup_disk``), never from the driver's memory.
    ``broker_hooks`` (``on_broker``, ``extra_users``, ``spectators``) go to ``dup_session.run_session``.
    """
    import shutil

    t0 = time.monotonic()
    session = session and (shutil.which("mosquitto") is not None or Path("/usr/sbin/mosquitto").exists())
    count = boards_needed(tables, boards) if session else boards
    schedule = schedule or make_dup_schedule(tables, count, seed, misboard_rate=misboard_rate, faults=faults,
                                             plays=boards_played(tables, boards) if session else None)
    ids = {n: tid for tid, n in default_tables(len(schedule.tables)).items()}
    write_plan(workdir, schedule, session, {
        p.table: f"club/{ids[p.table]}/data/journal.sqlite3" if session else f"tables/table-{p.table}/data/journal.sqlite3"
        for p in schedule.tables})
    station = StationRun(list(schedule.records.values()), workdir / "station", seed, world_faults=min(2, faults))
    srec = station.run()
    write_pockets(workdir, srec.pockets)
    if session:
        out = run_session(schedule, workdir / "club", seed, boards, session_faults=session_faults, **broker_hooks)
    else:
        out = run_tables(schedule, workdir / "tables", seed)
    write_played(workdir, out["played"])
    verdict = judge(workdir)
    for shown in out.get("secrets_shown", []):
        verdict.problems.append(f"a secret shown by the session's process or the director's state: {shown}")
    if out.get("stopped"):                  # why the run stopped waiting, and what it had reached then
        verdict.problems.append(f"the soak stopped waiting: {out['stopped']}")
    return DupResult(schedule, verdict.station, verdict.tables, srec.faults, out["faults"], out["finished"],
                     out["restarts"] + srec.starts - 1, out["tracebacks"], time.monotonic() - t0, out["played"],
                     srec.pockets, {k: out[k] for k in ("taken", "refused", "entries", "due") if k in out},
                     verdict)


def table(r: DupResult) -> str:
    """The soak's figures as a Markdown table, then every problem."""
    s, t = r.station, r.tables
    by_kind: dict[str, int] = {}
    for p in r.played:                      # the misboarded copies that were played (a movement plays only some)
        if p.misboard is not None:
            by_kind[p.misboard] = by_kind.get(p.misboard, 0) + 1
    rows: list[tuple[str, Any]] = [
        ("boards dealt at the station / verified card by card", f"{s.dealt} / {s.boards}"),
        ("cards placed / lost / journaled twice (station)", f"{s.placed} / {s.lost} / {s.twice}"),
        ("cards rejected by the station's shoe", s.rejected),
        ("station faults (pack, unplug, kill)", ", ".join(f"{k} {v}" for k, v in sorted(r.station_faults.items())) or "-"),
        ("tables / boards played", f"{len(r.schedule.tables)} / {t.boards}"),
        ("boards dealt by a table's shoe, every card at its record's seat", t.dealt_by_shoe),
        ("cards played / lost / journaled twice (tables)", f"{t.cards} / {t.lost} / {t.twice}"),
        ("misboarded boards played", ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())) or "-"),
        ("misboardings caught at their first wrong card (right table and round)", f"{t.caught_first} / {t.misboarded}"),
        ("false alarms", t.false_alarms),
        ("boards verified at the table", t.verified),
        ("scores checked against the cards", t.scored),
        ("table faults", ", ".join(f"{k} {v}" for k, v in sorted(r.table_faults.items())) or "-"),
        ("restarts / tracebacks", f"{r.restarts} / {r.tracebacks}"),
        ("results in the session / due / refused (messages taken, repeats included)",
         f"{r.session.get('entries')} / {r.session.get('due')} / {r.session.get('refused')} ({r.session.get('taken')})"
         if r.session else "no session (tables alone)"),
        ("every table finished", "yes" if r.finished else "NO"),
        ("time", f"{r.seconds:.0f} s"),
    ]
    lines = ["| duplicate soak | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    problems = r.verdict.all_problems if r.verdict is not None else s.problems + t.problems
    lines += [""] + ([f"PROBLEM: {p}" for p in problems] if problems else ["every invariant holds"])
    return "\n".join(lines)
