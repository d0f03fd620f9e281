"""The duplicate soak judged from its folder alone (``dup_disk``): ``cardtable soak --check DIR``.

Nothing the driver kept in memory is used: the journals, the hand records, the published commitment,
the soak's plan, the virtual shoe's pockets and the people's record of their play. The invariants:

1. **Chains.** The station's, every table's and the session's journal verify end to end.
2. **Hand records.** ``boards.pbn`` has the commitment published before play; the station's opening
   note names that commitment and each board's fingerprint; every table's ``board`` event carries its
   board's fingerprint and deal; the session's setup holds the same boards and commitment.
3. **The station** (``dup_check.check_station``): every board dealt and verified, its journaled cards the
   record's and the pockets'.
4. **The tables** (``dup_check.check_tables``): every board of each table's plan played and journaled,
   every card once and in order, misboardings decided from the cards against the record (one ``DB-87``
   at the first wrong card, the director's decision, and none elsewhere), ``DB-14`` exactly for a pack
   short of a card, ``DB-7``, one score and one confirmation equal to what the cards give, the
   confirmation standing on a ``confirm`` of each side journaled before it.
5. **The session.** For every board each table played, exactly one result (from that table's login, for
   its table number), and its contract, declarer, tricks, cards, record and foul those of the table's
   journal; no other result; as many results as the movement has due; nothing refused but the hostile
   messages the soak sent it (``club/hostile.json``: at most one refusal note each); neither the session's
   secret nor a login's password in its process's output.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.soak.dup_check import (
    PlayedBoard,
    StationFigures,
    TableFigures,
    _segments,
    board_result,
    check_station,
    check_tables,
    first_wrong,
)
from firmware_host.soak.dup_disk import Manifest, read_manifest, read_played, read_pockets
from laws.duplicate.deal import Board, commitment

Rows = list[tuple[int, str, dict[str, Any]]]


@dataclass
class Verdict:
    """The figures of one soak folder and every problem found."""

    station: StationFigures
    tables: TableFigures
    chains: dict[str, str] = field(default_factory=dict)           # journal -> "" or why it fails
    session: dict[str, int] = field(default_factory=dict)          # results, due, refused
    problems: list[str] = field(default_factory=list)

    @property
    def all_problems(self) -> list[str]:
        return self.problems + self.station.problems + self.tables.problems

    @property
    def ok(self) -> bool:
        return not self.all_problems


def _rows(path: Path, problems: list[str]) -> Rows:
    """A journal's rows; one that cannot be read is a problem named with its file (and no rows)."""
    import sqlite3

    from firmware_host.soak.rig import all_rows

    if not path.is_file():
        return []
    try:
        return all_rows(path)
    except (sqlite3.Error, ValueError, RecursionError) as exc:
        problems.append(f"{path}: its rows cannot be read ({str(exc)[:120]})")
        return []


def _verify(path: Path) -> str:
    """"" when the journal's chain verifies, else why not (one line)."""
    from firmware_host.records.journal import Journal, JournalError

    try:
        with Journal.open_readonly(path) as j:
            v = j.verify()
    except JournalError as exc:
        return str(exc)
    return "" if v.ok else v.message()


def judge(folder: Path) -> Verdict:
    """Judge a soak's folder. Raises ``dup_disk.NotASoak`` when it is not one."""
    m = read_manifest(folder)
    problems: list[str] = []
    journals = {"station": folder / "station" / "station.sqlite3"}
    journals |= {f"table {t.table}": folder / t.journal for t in m.tables}
    if m.session:
        journals["session"] = folder / "club" / "session" / "session.sqlite3"
    chains = {}
    for name, path in journals.items():
        chains[name] = "no journal" if not path.is_file() else _verify(path)
        if chains[name]:
            problems.append(f"{name}'s journal: {chains[name]}")
    records = _records(folder, problems)
    rows = {name: _rows(p, problems) for name, p in journals.items()}
    try:
        pockets = read_pockets(folder)
    except ValueError as exc:
        problems.append(str(exc))
        pockets = {}
    station = check_station(sorted(records.values(), key=lambda b: b.number), pockets, rows["station"])
    _station_records(records, rows["station"], problems)
    try:
        played = read_played(folder, records)
    except ValueError as exc:
        problems.append(str(exc))
        played = []
    tjournals = {t.table: rows[f"table {t.table}"] for t in m.tables}
    tables = check_tables(played, tjournals, {t.table: t.boards for t in m.tables})
    _table_records(records, tjournals, problems)
    v = Verdict(station, tables, chains, problems=problems)
    if m.session:
        _session(v, m, records, played, tjournals, rows["session"], _hostile(folder, problems))
        _secrets(folder, rows["session"], problems)
    return v


def _records(folder: Path, problems: list[str]) -> dict[int, Board]:
    """The station's hand records, checked against the commitment published before play."""
    from firmware_host.duplicate.handrecords.handfiles import HandRecordError, read_hand_records

    try:
        boards = read_hand_records(folder / "station" / "boards.pbn")
    except (HandRecordError, ValueError) as exc:
        problems.append(f"station/boards.pbn: {exc}")
        return {}
    try:
        published = (folder / "commitment.txt").read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"commitment.txt: cannot be read ({exc})")
        published = ""
    if commitment(boards) != published:
        problems.append(f"station/boards.pbn: its commitment {commitment(boards)[:16]}… is not the one published "
                        f"before play ({published[:16]}…)")
    return {b.number: b for b in boards}


def _station_records(records: Mapping[int, Board], rows: Rows, problems: list[str]) -> None:
    opened = next((b for _, k, b in rows if k == "note" and "commitment" in b and "records" in b), None)
    if opened is None:
        problems.append("station: its journal never names the hand records it deals")
        return
    if opened.get("commitment") != commitment(records.values()) if records else True:
        problems.append("station: its journal's commitment is not that of boards.pbn")
    named = {int(n): str(fp) for n, fp in opened.get("records") or []}
    wrong = sorted(n for n, b in records.items() if named.get(n) != b.fingerprint) + sorted(set(named) - set(records))
    if wrong:
        problems.append(f"station: its journal's fingerprints of boards {wrong} are not boards.pbn's")
    sent = [b for _, k, b in rows if k == "note" and b.get("station") == "send"]
    bad = sorted({int(b["board"]) for b in sent if records.get(int(b["board"])) is None
                  or b.get("record") != records[int(b["board"])].fingerprint})
    if bad:
        problems.append(f"station: boards {bad} were dealt from another record than boards.pbn's")


def _table_records(records: Mapping[int, Board], journals: Mapping[int, Rows], problems: list[str]) -> None:
    for table, rows in sorted(journals.items()):
        for b, _ in _segments(rows):
            record = records.get(b.get("board"))  # type: ignore[arg-type]
            if record is None or b.get("record") != record.fingerprint or b.get("deal") != record.deal.pbn():
                problems.append(f"table {table} board {b.get('board')} round {b.get('round')}: its board event's "
                                "record or deal is not the hand record's")


def _secrets(folder: Path, rows: Rows, problems: list[str]) -> None:
    """Neither the session's secret nor a login's password in what the session's process wrote
    (``club/dashboard-*.log``)."""
    from firmware_host.soak.dup_club import secrets_shown

    setup = next((b.get("setup") for _, k, b in rows if k == "event" and b.get("type") == "opened"), None)
    secrets = {"the session's secret": str(setup.get("secret") or "")} if isinstance(setup, dict) else {}
    secrets |= {f"{p.stem}'s password": p.read_text(encoding="utf-8", errors="replace").strip()
                for p in sorted((folder / "club").glob("*.password"))}
    logs = [p.read_text(encoding="utf-8", errors="replace") for p in sorted((folder / "club").glob("dashboard-*.log"))]
    for shown in secrets_shown(secrets, logs):
        problems.append(f"session: {shown} is in its process's output (club/dashboard-*.log)")


def _hostile(folder: Path, problems: list[str]) -> int:
    """How many hostile messages the soak sent the session (``club/hostile.json``; none without it)."""
    import json

    path = folder / "club" / "hostile.json"
    if not path.exists():
        return 0
    try:
        return len(json.loads(path.read_text(encoding="utf-8"))["messages"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        problems.append(f"{path}: malformed ({exc})")
        return 0


def _session(v: Verdict, m: Manifest, records: Mapping[int, Board], played: Sequence[PlayedBoard],
             journals: Mapping[int, Rows], rows: Rows, hostile: int = 0) -> None:
    """Invariant 5 and the session's hand records."""
    from laws.session.duplicate.spec import build_movement

    problems = v.problems
    setup = next((b.get("setup") for _, k, b in rows if k == "event" and b.get("type") == "opened"), None)
    if not isinstance(setup, dict):
        problems.append("session: its journal does not open with its setup")
        return
    boards = {int(b["number"]): str(b["deal"]) for b in setup.get("boards") or []}
    if boards != {n: b.deal.pbn() for n, b in records.items() if n in boards} or not boards or \
            setup.get("commitment") != commitment(records[n] for n in boards if n in records):
        problems.append("session: its setup's boards or commitment are not the hand records'")
    ids = {str(k): int(n) for k, n in dict(setup.get("tables") or {}).items()}
    movement = build_movement(setup.get("movement") or {})
    due = len([1 for s in movement.seatings if s.played for _ in movement.boards_of(s.group)])
    results = [b for _, k, b in rows if k == "event" and b.get("type") == "result"]
    refused = [b for _, k, b in rows if k == "note" and "refused" in b]
    v.session = {"results": len(results), "due": due, "refused": len(refused)}
    if len(refused) > hostile:
        problems.append(f"session: {len(refused)} message(s) refused, of which {hostile} were the soak's hostile "
                        "ones: a result refused")
    if len(results) != due:
        problems.append(f"session: {len(results)} results journaled, {due} due")
    count = Counter((r.get("table_number"), r.get("board")) for r in results)
    for key, n in sorted(count.items(), key=str):
        if n > 1:
            problems.append(f"session: table {key[0]} board {key[1]}: {n} results, want one")
    plan = {(t.table, b) for t in m.tables for b in t.boards}
    for key in sorted(set(count) - plan, key=str):
        problems.append(f"session: a result for table {key[0]} board {key[1]}, which that table does not play")
    for p in played:
        mine = [r for r in results if (r.get("table_number"), r.get("board")) == (p.table, p.record.number)]
        where = f"session: table {p.table} board {p.record.number}"
        if not mine:
            problems.append(f"{where}: no result")
            continue
        _result(mine[0], p, journals.get(p.table, []), ids, where, problems)


def _result(r: Mapping[str, Any], p: PlayedBoard, rows: Rows, ids: Mapping[str, int], where: str,
            problems: list[str]) -> None:
    """One session result against its table's journal: the cards, contract, tricks, record and foul."""
    segs = [rs for b, rs in _segments(rows) if (b.get("board"), b.get("round")) == (p.record.number, p.round)]
    cards = [(str(b["seat"]), str(b["card"])) for rs in segs for _, k, b in rs
             if k == "event" and b.get("type") == "card_played"]
    bad = []
    if ids.get(str(r.get("table"))) != p.table:
        bad.append(f"sent by {r.get('table')!r}")
    if r.get("round") != p.round:
        bad.append(f"round {r.get('round')}, played in {p.round}")
    if list(r.get("play") or []) != [c for _, c in cards]:
        bad.append("its cards are not the table's")
    if r.get("record") != p.record.fingerprint:
        bad.append("another record")
    fouled = first_wrong(p.record, cards) is not None
    if (r.get("foul") is not None) != fouled:
        bad.append(f"foul {r.get('foul')!r}, the cards say {'fouled' if fouled else 'clean'}")
    if not r.get("confirmed"):
        bad.append("not confirmed")
    result = board_result(p, cards)
    contract = str(r.get("contract"))
    if result is None:
        if contract.lower() not in ("pass", "passed", "none"):
            bad.append(f"contract {contract}, the table's was passed out")
    elif (contract, r.get("declarer"), r.get("tricks")) != (p.contract, p.declarer, result[0]):
        bad.append(f"{contract} by {r.get('declarer')} {r.get('tricks')} tricks, the cards give {p.contract} by "
                   f"{p.declarer} {result[0]}")
    if bad:
        problems.append(f"{where}: {'; '.join(bad)}")


def report(v: Verdict) -> str:
    """The verdict as a short table, then every problem (or that every invariant holds)."""
    s, t = v.station, v.tables
    lines = ["| duplicate soak, judged from its folder | |", "|---|---|",
             f"| journals whose chain verifies | {sum(1 for x in v.chains.values() if not x)} / {len(v.chains)} |",
             f"| boards dealt at the station / verified | {s.dealt} / {s.boards} |",
             f"| boards played at the tables / misboarded / caught at the first wrong card | {t.boards} / "
             f"{t.misboarded} / {t.caught_first} |",
             f"| false alarms | {t.false_alarms} |",
             f"| scores equal to the cards | {t.scored} |"]
    if v.session:
        lines.append(f"| session results / due / refused | {v.session['results']} / {v.session['due']} / "
                     f"{v.session['refused']} |")
    problems = v.all_problems
    return "\n".join(lines + [""] + ([f"PROBLEM: {p}" for p in problems] or ["every invariant holds"]))
