"""``cardtable export board``: two tables' journals, one board each played from its record and once
misboarded; the export gives the record and each table's contract, declarer, lead, tricks, score and play,
checked here against the journals' own events and an independent scoring; a tampered journal is refused."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.table.duplicate import TableRound
from laws.cards import Seat
from laws.scoring.bridge import parse_contract
from laws.scoring.duplicate import board_score
from tests.table.duptable import bid, confirm, play, records, swapped, table

RECS = records(2, seed=30)


def _two_tables(tmp_path: Path) -> tuple[Path, Path]:
    dirs = []
    for n, held in ((1, RECS[1].deal), (2, swapped(RECS[1].deal, Seat.N, Seat.S))):
        folder = tmp_path / f"table-{n}"
        ctl, _p, j = table(folder, RECS, TableRound("A", n, 1, str(n), str(10 + n), (1,)))
        bid(ctl, RECS[1], "1NT pass pass pass")
        play(ctl, held, random.Random(n))
        confirm(ctl, Seat.N, Seat.E)
        j.close()
        dirs.append(folder)
    return dirs[0], dirs[1]


def test_the_board_export_has_the_record_and_every_tables_result_and_play(tmp_path: Path, capsys) -> None:
    a, b = _two_tables(tmp_path)
    assert main(["export", "board", "--journals", str(a), str(b), "--json"]) == 0
    (board,) = json.loads(capsys.readouterr().out)
    rec = RECS[1]
    assert (board["board"], board["record"], board["deal"]) == (1, rec.fingerprint, rec.deal.pbn())
    assert board["dealer"] == "N" and board["vulnerable"] == "None" and board["records_differ"] is False
    one, two = board["tables"]
    for t in (one, two):
        assert t["contract"] == "1NT" and t["declarer"] == "N" and t["state"] == "confirmed"
        assert t["lead"] == t["play"][0][1] and len(t["play"]) == 52 and t["play"][0][0] == "E"
        assert t["score"] == board_score(parse_contract("1NT"), Seat.N, t["tricks"], rec.vulnerability)
    assert (one["table"], one["ns"], one["verified"], one["foul"]) == (1, "1", True, None)
    assert two["table"] == 2 and two["verified"] is False and set(two["foul"]["seats"]) == {"N", "S"}
    assert main(["export", "board", "--journals", str(a), str(b)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"Board 1: dealer North, None vulnerable; record {rec.fingerprint}\n")
    assert f"  North  {rec.deal.pbn_hand(Seat.N)}\n" in text and "A table 2 round 1" in text
    assert "    foul: " in text and "'s by the record" in text and text.count("    play: E:") == 2


def test_the_board_export_refuses_a_tampered_journal_and_an_empty_one(tmp_path: Path, capsys) -> None:
    a, b = _two_tables(tmp_path)
    assert main(["export", "board", "--journals", str(a), "--board", "9"]) == 2
    assert "no duplicate board in board 9 of" in capsys.readouterr().err
    db = sqlite3.connect(a / "journal.sqlite3")
    db.execute("DROP TRIGGER IF EXISTS journal_no_update")       # someone edits the record
    db.execute("UPDATE journal SET body = replace(body, '\"1NT\"', '\"7NT\"') WHERE kind = 'ruling'")
    db.commit()
    db.close()
    assert main(["export", "board", "--journals", str(a), str(b)]) == 1
    assert "TAMPERED" in capsys.readouterr().err


@pytest.mark.parametrize("out", ["dir", "missing/x.txt"])
def test_the_board_export_refuses_an_output_it_cannot_write(tmp_path: Path, capsys, out: str) -> None:
    a, _b = _two_tables(tmp_path)
    (tmp_path / "dir").mkdir()
    assert main(["export", "board", "--journals", str(a), "--out", str(tmp_path / out)]) == 2
    assert capsys.readouterr().err.startswith("cardtable: --out ")
