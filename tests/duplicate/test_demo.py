"""The issue's "done when": ``cardtable duplicate demo --tables 8 --boards 24 --movement mitchell --foul 2``
plays a whole session through a real Mosquitto and real duplicate tables and writes the three files; its
PBN (read with endplay) and USEBIO (read with the standard library) have every traveller's score and
matchpoints right by an independent recomputation, and the two misboarded boards are scored by group.

The tables are real: each left its journal in ``OUT/tables/<id>/`` with the board events the session's
seating gave, the calls and cards the people's camera reported, the confirms from the seats' buttons, and
the engine's ``DB-87`` ruling at the first card against the record wherever a misboarded copy was played
(worked out here from the misboardings the demo printed and the travellers, not from the tables). A
Howell and a barometer (each table's shoe dealing its copy, the virtual shoe on a pseudo-terminal) run
too, smaller."""

from __future__ import annotations

import logging
import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main

from . import recompute

MISBOARDED = re.compile(r"misboarded: board (\d+), (?:the travelling copy|table (\d+)'s copy) from round (\d+)")
FOUND = re.compile(r"foul ruled: board (\d+): found at table (\d+), round (\d+), trick (\d+): the (\w\w) played by")


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (Debian package mosquitto; `make test` installs it)")


def _misboarded(said: str) -> dict[int, tuple[int, int]]:
    """board -> (the table whose own copy it is, 0 for the travelling copy; the round it is wrong from)."""
    return {int(b): (int(t or 0), int(r)) for b, t, r in MISBOARDED.findall(said)}


def _fouled(r: dict[str, Any], misboarded: dict[int, tuple[int, int]]) -> bool:
    """This traveller row's copy was misboarded when it was played."""
    if r["board"] not in misboarded:
        return False
    table, rnd = misboarded[r["board"]]
    return int(r["Round"]) >= rnd and table in (0, int(r["Table"]))


def _recomputed(rows: list[dict], misboarded: dict[int, tuple[int, int]],
                due: int) -> tuple[list[tuple[int, Fraction, Fraction]], list[dict], list[str]]:
    """Scores, matchpoints and groups of one board's traveller rows, from the rows' results alone: a copy
    is in group B from the first result played (not passed out) with its cards misboarded."""
    rows = sorted(rows, key=lambda r: (int(r["Round"]), int(r["Table"])))
    lines, groups, group = [], [], {}
    for r in rows:
        played = r["Contract"] != "Pass"
        copy = int(r["Table"]) if r["board"] in misboarded and misboarded[r["board"]][0] else 0
        if played and _fouled(r, misboarded):
            group[copy] = "B"
        g = group.get(copy, "A")
        groups.append(g)
        tricks = int(r["Result"]) if played else 0
        lines.append(recompute.Line(recompute.score(r["board"], r["Contract"], r["Declarer"] if played else "", tricks),
                                    g))
    return ([(ln.ns_score or 0, ns, ew) for ln, (ns, ew) in zip(lines, recompute.matchpoints(lines, due))], rows,
            groups)


def _read_back(out: Path, misboarded: dict[int, tuple[int, int]], boards: int, pairs: int) -> dict[int, list[dict]]:
    """Every traveller of the PBN and the USEBIO checked against the recomputation; the rows by board."""
    from endplay.parsers import pbn as pbn_parser

    games = pbn_parser.loads((out / "results.pbn").read_text(encoding="utf-8"))
    expected: dict[tuple[int, str, str], tuple[int, Fraction, Fraction]] = {}
    by_board: dict[int, list[dict]] = {}
    for g in (g for g in games if "ScoreTable" in g.info):
        head = [c["name"] if isinstance(c, dict) else c for c in g.info["ScoreTable"]["headers"]]
        rows = [dict(zip(head, row), board=g.board_num) for row in g.info["ScoreTable"]["rows"]]
        figures, ordered, groups = _recomputed(rows, misboarded, len(rows))
        for r, (score, ns, ew), group in zip(ordered, figures, groups):
            got = int(r["Score_NS"]) if r["Score_NS"] != "-" else -int(r["Score_EW"])
            assert got == score, (g.board_num, r)
            assert recompute.close(float(r["MP_NS"]), float(ns)), (g.board_num, r, float(ns))
            assert recompute.close(float(r["MP_EW"]), float(ew)), (g.board_num, r, float(ew))
            expected[(g.board_num, r["PairId_NS"], r["PairId_EW"])] = (score, ns, ew)
            r["group"] = group
        by_board[g.board_num] = ordered
    assert len(by_board) == boards
    root = ET.parse(out / "results.xml").getroot()
    assert root.get("Version") == "1.2" and len(root.findall(".//PARTICIPANTS/PAIR")) == pairs
    checked = 0
    for b in root.findall("EVENT/BOARD"):
        number = int(b.findtext("BOARD_NUMBER") or 0)
        for ln in b.findall("TRAVELLER_LINE"):
            score, ns, ew = expected[(number, ln.findtext("NS_PAIR_NUMBER"), ln.findtext("EW_PAIR_NUMBER"))]
            assert int(ln.findtext("SCORE") or "x") == score
            assert recompute.close(float(ln.findtext("NS_MATCH_POINTS") or "nan"), float(ns))
            assert recompute.close(float(ln.findtext("EW_MATCH_POINTS") or "nan"), float(ew))
            checked += 1
    assert checked == len(expected)
    return by_board


def _fouls_where_expected(said: str, by_board: dict[int, list[dict]], misboarded: dict[int, tuple[int, int]]) -> set:
    """The fouls the tables' engines ruled are exactly where a misboarded copy was played out."""
    found = {(int(b), int(t), int(r)) for b, t, r, _trick, _card in FOUND.findall(said)}
    want = {(b, int(r["Table"]), int(r["Round"])) for b, rows in by_board.items() for r in rows
            if r["Contract"] != "Pass" and _fouled(r, misboarded)}
    assert want and found == want, (found, want)
    return found


def _tables_ran_the_real_controller(out: Path, tables: int, found: set, shoe: bool) -> None:
    """Each table's journal: intact, the boards from the session, every call and card from the camera (and,
    with a shoe, every card dealt from the shoe), the confirms from the seats' buttons, the director's
    decision, and the first-card ``DB-87`` rulings exactly where the fouls were found."""
    from firmware_host.records.journal import Journal

    folders = sorted((out / "tables").iterdir())
    assert [f.name for f in folders] == [f"table-{i:02d}" for i in range(1, tables + 1)]
    ruled = set()
    for i, folder in enumerate(folders, 1):
        assert (folder / "table.toml").read_text().count('game = "duplicate-bridge"') == 1
        assert "records" not in (folder / "table.toml").read_text()      # no hand records file on a table
        with Journal.open_readonly(folder) as j:
            assert j.verify().ok
            rows = list(j.rows())
        events = Counter((r.body["type"], r.body.get("src")) for r in rows if r.kind == "event")
        rulings = [r.body for r in rows if r.kind == "ruling"]
        boards = events[("board", "session")]
        checked = [r.body["hand_records"] for r in rows if r.kind == "note" and "hand_records" in r.body]
        assert checked and all(c["taken"] and not c["refused"] for c in checked)   # sent, each checked alone
        played = sum(1 for r in rulings if r["clause"] == "DB-7")
        assert boards > 0 and events[("confirm", "button")] == 2 * boards
        assert events[("card_played", "camera")] == 52 * played and events[("call", "camera")] >= 4 * boards
        assert events[("card_dealt", "shoe")] == (52 * boards if shoe else 0)
        assert events[("dummy", "camera")] == (0 if shoe else played)
        mine = {(r["board"], r["table"], r["round"]) for r in rulings
                if r["clause"] == "DB-87" and r["remedy"] == "attention"}
        assert all(t == i for _b, t, _r in mine)
        assert events[("foul_ruled", "director")] == len(mine)
        ruled |= mine
    assert ruled == found


@pytest.mark.slow
def test_the_demo_evening_writes_results_that_read_back_right_with_the_fouled_boards_in_groups(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    _need_mosquitto()
    out = tmp_path / "evening"
    # Six tables of a Mitchell, five rounds of two boards (kept small: the suite's time; the skip Mitchell
    # of an even field is tests/laws/test_movement.py's): every board at five tables.
    assert main(["duplicate", "demo", "--tables", "6", "--boards", "12", "--movement", "mitchell", "--foul", "2",
                 "--seed", "20251130", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "64 records taken, 0 refused" in said   # 6 tables x 5 rounds x 2 boards, and 4 round calls
    misboarded = _misboarded(said)
    assert len(misboarded) == 2 and all(t == 0 for t, _r in misboarded.values()), said
    for name in ("results.pbn", "results.xml", "results.html"):
        assert (out / name).stat().st_size > 1000
    by_board = _read_back(out, misboarded, 12, 12)
    assert all(len(rows) == 5 for rows in by_board.values())     # each board at 5 tables
    assert sum(len(rows) for rows in by_board.values()) == 60
    for b in misboarded:                                          # both misboarded boards split in two groups
        assert {r["group"] for r in by_board[b]} == {"A", "B"}
    found = _fouls_where_expected(said, by_board, misboarded)
    _tables_ran_the_real_controller(out, 6, found, shoe=False)
    assert "no false alarm" in said and "problem:" not in said
    html = (out / "results.html").read_text(encoding="utf-8")
    assert html.count('<section class="board" id="board-') == 12 and "fouled board" in html
    _no_warnings(caplog)


@pytest.mark.slow
@pytest.mark.parametrize("movement, tables, boards, pairs, shoe", [
    ("howell", 4, 7, 8, False),        # one field, seven rounds of one board, the boards travel
    ("barometer", 3, 6, 6, True),      # every table the same board each round, dealt by its own shoe
])
def test_a_howell_and_a_barometer_evening_read_back_right(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           caplog: pytest.LogCaptureFixture, movement: str, tables: int, boards: int, pairs: int,
                                                           shoe: bool) -> None:
    _need_mosquitto()
    out = tmp_path / movement
    assert main(["duplicate", "demo", "--tables", str(tables), "--boards", str(boards), "--movement", movement,
                 "--foul", "1", "--seed", "7", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    misboarded = _misboarded(said)
    assert len(misboarded) == 1 and all((t != 0) == shoe for t, _r in misboarded.values()), said
    if shoe:
        assert "hands swapped" in said                # the only misboarding a board the shoe deals can have
    by_board = _read_back(out, misboarded, boards, pairs)
    (b,) = misboarded
    assert {r["group"] for r in by_board[b]} == {"A", "B"}
    found = _fouls_where_expected(said, by_board, misboarded)
    _tables_ran_the_real_controller(out, tables, found, shoe=shoe)
    _no_warnings(caplog)


def _no_warnings(caplog: pytest.LogCaptureFixture) -> None:
    """An evening that went right (the fouls ruled as they should be) logs no warning: docs/session.md shows
    the demo's whole output, and 112 ``WARNING ... session: Playing here`` lines once came with it."""
    warned = [f"{r.name}: {r.getMessage()}"[:200] for r in caplog.records if r.levelno >= logging.WARNING]
    assert not warned, warned


def test_the_demo_refuses_a_folder_an_earlier_demo_wrote_and_changes_nothing(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("results.xml", "boards.pbn", "tables/table-01/journal.sqlite3", "session/session.sqlite3"):
        out = tmp_path / name.replace("/", "-")
        (out / name).parent.mkdir(parents=True)
        (out / name).write_text("kept")
        assert main(["duplicate", "demo", "--tables", "3", "--boards", "6", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is already there" in err and str(out / name.split("/")[0]) in err
        assert (out / name).read_text() == "kept" and sorted(p.name for p in out.iterdir()) == [name.split("/")[0]]
