"""The duplicate soak: a small evening through the real processes (the dealing station, a table with
physical boards, a table whose shoe deals), every invariant holding; and its checker shown to fail on each
journal broken on purpose (a card lost, a card twice, a foul not ruled, ruled at another card or table, a
false alarm, a board said verified that is not, a wrong score; the station's journal short of a card, with
a card at the wrong seat, a board never dealt, a pocket the journal does not name)."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware_host.soak.dup_check import check_station, check_tables
from firmware_host.soak.dup_evening import DupResult, evening, table
from firmware_host.soak.dup_schedule import make_dup_schedule
from firmware_host.soak.rig import all_rows


@pytest.fixture(scope="module")
def soaked(tmp_path_factory: pytest.TempPathFactory) -> tuple[DupResult, Path, Any]:
    work = tmp_path_factory.mktemp("dupsoak")
    s = make_dup_schedule(2, 3, seed=7, faults=0)
    s = replace(s, misboard={(1, 1): "moved", (1, 2): "wrong_table", (2, 1): "swapped"}, short={2: (2,)})
    result = evening(work, schedule=s, session=False)
    return result, work, result.played


def test_a_small_duplicate_evening_holds_every_invariant(soaked) -> None:  # type: ignore[no-untyped-def]
    result, _work, _played = soaked
    text = table(result)
    assert result.ok, text
    assert result.tables.misboarded >= 2 and result.tables.caught_first == result.tables.misboarded
    assert result.tables.false_alarms == 0 and result.tables.lost == 0 and result.station.lost == 0
    assert result.station.dealt == 3 and result.tables.dealt_by_shoe == 3
    assert "| misboardings caught at their first wrong card (right table and round) |" in text


def test_a_duplicate_evening_through_the_clubs_session(tmp_path: Path) -> None:
    """The tables in a Mitchell of the club's session over a real broker, rounds called by the director."""
    result = evening(tmp_path, tables=3, boards=1, seed=11, faults=1, misboard_rate=0.5)
    text = table(result)
    if not result.session:
        pytest.skip("mosquitto is not installed (make test installs it)")
    assert result.ok, text
    assert result.session["entries"] == result.session["due"] == 9 and result.session["refused"] == 0
    assert result.tables.caught_first == result.tables.misboarded and result.tables.false_alarms == 0


def _check(result: DupResult, played: Any, journals: dict[int, list]) -> Any:
    """The table checker with the plan's boards (the folder's soak.json)."""
    return check_tables(played, journals, {t.table: t.boards for t in result.schedule.tables})


def _journals(work: Path) -> dict[int, list]:
    return {t: all_rows(work / "tables" / f"table-{t}" / "data" / "journal.sqlite3") for t in (1, 2)}


def _drop(rows: list, pred) -> list:  # type: ignore[no-untyped-def]
    i = next(k for k, r in enumerate(rows) if pred(r))
    return rows[:i] + rows[i + 1:]


def _card(r) -> bool:  # type: ignore[no-untyped-def]
    return r[1] == "event" and r[2].get("type") == "card_played"


def _foul(r) -> bool:  # type: ignore[no-untyped-def]
    return r[1] == "ruling" and r[2].get("clause") == "DB-87" and r[2].get("remedy") == "attention"


def _edit(rows: list, pred, change) -> list:  # type: ignore[no-untyped-def]
    out = copy.deepcopy(rows)
    i = next(k for k, r in enumerate(out) if pred(r))
    out[i] = (out[i][0], out[i][1], change(dict(out[i][2])))
    return out


MUTATIONS = {
    "a card lost": lambda rows: _drop(rows, _card),
    "a card twice": lambda rows: rows + [next(r for r in rows if _card(r))],
    "a foul not ruled": lambda rows: _drop(rows, _foul),
    "a foul at another card": lambda rows: _edit(rows, _foul, lambda b: b | {"card": "2C" if b["card"] != "2C" else "3C"}),
    "a foul at another table": lambda rows: _edit(rows, _foul, lambda b: b | {"table": 9}),
    "a board said verified that is not": lambda rows: _edit(
        rows, lambda r: r[1] == "ruling" and r[2].get("clause") == "DB-7" and not r[2].get("verified"),
        lambda b: b | {"verified": True}),
    "a wrong score": lambda rows: _edit(
        rows, lambda r: r[1] == "ruling" and r[2].get("clause") == "DB-77" and not r[2].get("confirmed")
        and r[2].get("contract") != "Pass", lambda b: b | {"score": b["score"] + 10}),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_the_table_checker_fails_on_a_broken_journal(soaked, name: str) -> None:  # type: ignore[no-untyped-def]
    result, work, played = soaked
    journals = _journals(work)
    assert _check(result, played, journals).ok
    journals[1] = MUTATIONS[name](journals[1])
    assert not _check(result, played, journals).ok


def test_the_table_checker_fails_on_a_false_alarm(soaked) -> None:  # type: ignore[no-untyped-def]
    result, work, played = soaked
    journals = _journals(work)
    clean = next(p for p in played if p.misboard is None and p.play)
    rows = journals[clean.table]
    at = next(k for k, r in enumerate(rows) if r[1] == "event" and r[2].get("type") == "board"
              and r[2].get("board") == clean.record.number) + 1
    fake = (0, "ruling", {"clause": "DB-87", "remedy": "attention", "card": "AS", "played_by": "N",
                          "record_seat": "E", "table": clean.table, "round": 1})
    journals[clean.table] = rows[:at] + [fake] + rows[at:]
    figures = _check(result, played, journals)
    assert figures.false_alarms == 1 and not figures.ok


STATION = {
    "a card row lost": lambda rows: _drop(rows, lambda r: r[2].get("station") == "card"),
    "a card at the wrong seat": lambda rows: _edit(
        rows, lambda r: r[2].get("station") == "card",
        lambda b: b | {"seat": {"N": "E", "E": "S", "S": "W", "W": "N"}[b["seat"]]}),
    "a board never dealt": lambda rows: [r for r in rows if not (r[2].get("station") == "dealt" and r[2].get("board") == 2)],
    "a card row twice": lambda rows: rows + [next(r for r in rows if r[2].get("station") == "card")],
}


@pytest.mark.parametrize("name", sorted(STATION))
def test_the_station_checker_fails_on_a_broken_journal(soaked, name: str) -> None:  # type: ignore[no-untyped-def]
    result, work, _played = soaked
    rows = all_rows(work / "station" / "station.sqlite3")
    boards = list(result.schedule.records.values())
    pockets = result.pockets
    assert check_station(boards, pockets, rows).ok
    assert not check_station(boards, pockets, STATION[name](rows)).ok


def test_the_station_checker_fails_on_pockets_the_journal_does_not_name(soaked) -> None:  # type: ignore[no-untyped-def]
    result, work, _played = soaked
    rows = all_rows(work / "station" / "station.sqlite3")
    pockets = copy.deepcopy(result.pockets)
    pockets[1][0] = pockets[1][0][:-1]                    # a card gone from North's pocket
    assert not check_station(list(result.schedule.records.values()), pockets, rows).ok
