"""``cardtable soak --duplicate``: a duplicate evening, measured. The dealing station fills every board
of the evening from its hand records (``dup_station``); then the tables play them, some with the physical
boards, some with their shoe dealing each board from its record (``dup_tables``), with misboardings and
faults from the schedule (``dup_schedule``); the journals are checked against what physically happened
(``dup_check``) and the figures printed as a table.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.soak.dup_check import StationFigures, TableFigures, check_station, check_tables
from firmware_host.soak.dup_schedule import DupSchedule, make_dup_schedule
from firmware_host.soak.dup_station import StationRun
from firmware_host.soak.dup_tables import run_tables
from firmware_host.soak.rig import all_rows


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

    @property
    def ok(self) -> bool:
        return self.station.ok and self.tables.ok and self.finished and not self.tracebacks


def evening(workdir: Path, *, tables: int = 3, boards: int = 6, seed: int = 1, faults: int = 3,
            misboard_rate: float = 0.35, schedule: DupSchedule | None = None) -> DupResult:
    """Deal the evening's boards at the station, play them at the tables, check everything."""
    t0 = time.monotonic()
    schedule = schedule or make_dup_schedule(tables, boards, seed, misboard_rate=misboard_rate, faults=faults)
    station = StationRun(list(schedule.records.values()), workdir / "station", seed, world_faults=min(2, faults))
    srec = station.run()
    sfig = check_station(list(schedule.records.values()), srec.pockets, all_rows(station.journal))
    out = run_tables(schedule, workdir / "tables", seed)
    tfig = check_tables(out["played"], out["journals"])
    return DupResult(schedule, sfig, tfig, srec.faults, out["faults"], out["finished"], out["restarts"] + srec.starts - 1,
                     out["tracebacks"], time.monotonic() - t0, out["played"], srec.pockets)


def table(r: DupResult) -> str:
    """The soak's figures as a Markdown table, then every problem."""
    s, t = r.station, r.tables
    by_kind: dict[str, int] = {}
    for kind in r.schedule.misboard.values():
        by_kind[kind] = by_kind.get(kind, 0) + 1
    rows: list[tuple[str, Any]] = [
        ("boards dealt at the station / verified card by card", f"{s.dealt} / {s.boards}"),
        ("cards placed / lost / journaled twice (station)", f"{s.placed} / {s.lost} / {s.twice}"),
        ("cards rejected by the station's shoe", s.rejected),
        ("station faults (pack, unplug, kill)", ", ".join(f"{k} {v}" for k, v in sorted(r.station_faults.items())) or "-"),
        ("tables / boards played", f"{len(r.schedule.tables)} / {t.boards}"),
        ("boards dealt by a table's shoe, every card at its record's seat", t.dealt_by_shoe),
        ("cards played / lost / journaled twice (tables)", f"{t.cards} / {t.lost} / {t.twice}"),
        ("misboardings injected", ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())) or "-"),
        ("misboardings caught at their first wrong card (right table and round)", f"{t.caught_first} / {t.misboarded}"),
        ("false alarms", t.false_alarms),
        ("boards verified at the table", t.verified),
        ("scores checked against the cards", t.scored),
        ("table faults", ", ".join(f"{k} {v}" for k, v in sorted(r.table_faults.items())) or "-"),
        ("restarts / tracebacks", f"{r.restarts} / {r.tracebacks}"),
        ("every table finished its round", "yes" if r.finished else "NO"),
        ("time", f"{r.seconds:.0f} s"),
    ]
    lines = ["| duplicate soak | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    problems = s.problems + t.problems
    lines += [""] + ([f"PROBLEM: {p}" for p in problems] if problems else ["every invariant holds"])
    return "\n".join(lines)
