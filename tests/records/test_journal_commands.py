"""`cardtable journal verify` and `cardtable export jsonl|pbn` on a real journal."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from endplay.parsers import pbn as endplay_pbn

from firmware_host.cli import main
from firmware_host.records.journal import Journal
from laws.cards import SEATS, Seat, clockwise_from, full_pack
from laws.events import (
    CardDealt,
    DealEnded,
    DealStarted,
    PlayEnded,
    ResultRecorded,
    event_from_dict,
    event_to_dict,
)


def make_journal(data: Path, *, with_game: bool) -> list[dict[str, object]]:
    pack = list(full_pack())
    random.Random(8).shuffle(pack)
    evs = [DealStarted(Seat.W, "A")]
    evs += [CardDealt(seat, pack[k * 4 + i]) for k in range(13) for i, seat in enumerate(clockwise_from(Seat.N))]
    evs += [DealEnded(), PlayEnded(), ResultRecorded(9, declarer=Seat.N, contract="3NT")]
    dicts = ([{"type": "game", "game": "contract-bridge"}] if with_game else []) + [event_to_dict(e) for e in evs]
    j = Journal.open(data)
    for k, d in enumerate(dicts):
        j.append("event", d, t=float(k))
        if k == 3:
            j.append("ruling", {"law": "none"}, t=float(k))
            j.append("lamp", {"redeal": False}, t=float(k))
    j.close()
    return dicts


def test_verify_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    make_journal(data, with_game=True)
    assert main(["journal", "verify", "--data-dir", str(data)]) == 0
    assert "intact, 59 rows" in capsys.readouterr().out
    conn = sqlite3.connect(data / "journal.sqlite3")
    conn.execute("DROP TRIGGER journal_no_update")
    conn.execute("UPDATE journal SET body = '{\"type\":\"deal_end\"}' WHERE seq = 10")
    conn.commit()
    conn.close()
    assert main(["journal", "verify", "--data-dir", str(data)]) == 1
    err = capsys.readouterr().err
    assert "TAMPERED" in err and "journal row 10" in err and str(data / "journal.sqlite3") in err
    assert main(["journal", "verify", "--data-dir", str(tmp_path / "nowhere")]) == 2
    assert "no journal here" in capsys.readouterr().err
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "journal.sqlite3").write_text("junk" * 1000)
    assert main(["journal", "verify", "--data-dir", str(tmp_path / "junk")]) == 2


@pytest.mark.parametrize("with_game", [True, False])
def test_export_jsonl_is_the_event_format(tmp_path: Path, with_game: bool) -> None:
    data = tmp_path / "data"
    dicts = make_journal(data, with_game=with_game)
    out = tmp_path / "history.jsonl"
    assert main(["export", "jsonl", "--data-dir", str(data), "--out", str(out), "--game", "contract-bridge"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0] == {"type": "game", "game": "contract-bridge"}
    assert lines[-len(dicts):] == dicts and len(lines) == 57
    for obj in lines:
        event_from_dict(obj)


def test_export_jsonl_leaves_out_what_the_table_set_aside(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A bridge ``call`` entered at a euchre table is set aside (docs/ordering.md: as if it had not come).
    Exported, it stopped ``cardtable replay`` of the export at that line (exit 2), every later ruling
    missing (audit 70). The export leaves it out, so a replay of the export gives the journal's rulings."""
    data = tmp_path / "data"
    j = Journal.open(data)
    j.append("event", {"type": "game", "game": "euchre"}, t=0.0)
    j.append("event", {"type": "shuffle", "seat": "S"}, t=1.0)
    row = j.append("event", {"type": "call", "seat": "N", "call": "1C", "src": "director"}, t=2.0)
    j.append("note", {"set_aside": row, "type": "call", "src": "director", "error": "ValueError: x",
                      "ruling": "none"}, t=2.0)
    j.append("event", {"type": "shuffle", "seat": "N"}, t=3.0)
    j.close()
    out = tmp_path / "history.jsonl"
    assert main(["export", "jsonl", "--data-dir", str(data), "--out", str(out)]) == 0
    assert [json.loads(line)["type"] for line in out.read_text().splitlines()] == ["game", "shuffle", "shuffle"]
    assert f"journal row {row}: set aside by the table: left out" in capsys.readouterr().err
    assert main(["replay", str(out)]) == 0


def test_export_pbn_reads_back(tmp_path: Path) -> None:
    data = tmp_path / "data"
    dicts = make_journal(data, with_game=True)
    out = tmp_path / "deals.pbn"
    assert main(["export", "pbn", "--data-dir", str(data), "--out", str(out)]) == 0
    with out.open() as fp:
        boards = endplay_pbn.load(fp)
    assert len(boards) == 1 and boards[0].contract.level == 3
    dealt = {seat: {d["card"] for d in dicts if d["type"] == "card_dealt" and d["seat"] == seat.value}
             for seat in SEATS}
    north = {c.rank.abbr + "SHDC"[c.suit.value] for c in boards[0].deal.north}
    assert north == dealt[Seat.N]


@pytest.mark.parametrize("fmt", ["jsonl", "pbn"])
def test_export_replaces_an_earlier_export_but_never_another_file(tmp_path: Path, fmt: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``export jsonl|pbn --out /etc/cardtable/table.toml`` replaced the table's configuration without a word
    (outside audit p3). An export replaces an earlier export of its kind (SETUP's commands are run again each
    evening) and refuses any other file, naming it, exit 2, the file left as it was."""
    data = tmp_path / "data"
    make_journal(data, with_game=True)
    out = tmp_path / f"tonight.{fmt}"
    argv = ["export", fmt, "--data-dir", str(data), "--out", str(out)]
    assert main(argv) == 0
    first = out.read_text()
    assert main(argv) == 0 and out.read_text() == first         # run again: the earlier export replaced
    toml = tmp_path / "table.toml"
    toml.write_text('[table]\nname = "table 7"\n')
    capsys.readouterr()
    assert main(["export", fmt, "--data-dir", str(data), "--out", str(toml)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--out {toml}: the file is there and is not " in err, err
    assert toml.read_text() == '[table]\nname = "table 7"\n'
    empty = tmp_path / "empty"
    empty.write_text("")
    assert main(["export", fmt, "--data-dir", str(data), "--out", str(empty)]) == 0   # an empty file is taken
