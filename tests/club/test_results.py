"""A result entered on the dashboard: checked there and again at the table; a duplicate delivery or a
bad result goes no further than a journal note."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.club.results import ResultError, parse_result
from firmware_host.live import ClubCommands
from firmware_host.records.journal import Journal
from firmware_host.table.controller import TableController
from laws.cards import Seat, Side
from laws.events import ResultRecorded
from tests.table.fakes import Clock


def test_good_results_for_each_game() -> None:
    assert parse_result("contract-bridge", {"declarer": "S", "contract": "3NTX", "tricks": 9,
                                            "honours": {"side": "EW", "points": 150}}) \
        == ResultRecorded(9, Seat.S, "3NTX", (Side.EW, 150))
    assert parse_result("euchre", {"makers": "EW", "alone": True, "tricks": 5}) \
        == ResultRecorded(5, makers=Side.EW, alone=True)


@pytest.mark.parametrize(("game", "fields", "words"), [
    ("contract-bridge", {"declarer": "N", "contract": "8S", "tricks": 10}, "level must be a digit 1 to 7"),
    ("contract-bridge", {"declarer": "N", "contract": "4Z", "tricks": 10}, "unknown strain"),
    ("contract-bridge", {"declarer": "X", "contract": "4S", "tricks": 10}, "unknown seat 'X'"),
    ("contract-bridge", {"contract": "4S", "tricks": 10}, "missing field 'declarer'"),
    ("contract-bridge", {"declarer": "N", "tricks": 10}, "missing field 'contract'"),
    ("contract-bridge", {"declarer": "N", "contract": "4S"}, "missing field 'tricks'"),
    ("contract-bridge", {"declarer": "N", "contract": "4S", "tricks": 14}, "tricks 14 is not 0 to 13"),
    ("contract-bridge", {"declarer": "N", "contract": "4S", "tricks": "ten"}, "field 'tricks'"),
    ("contract-bridge", {"declarer": "N", "contract": "4S", "tricks": 10, "honours": {"side": "NS", "points": 90}},
     "worth 100 or 150, got 90"),
    ("contract-bridge", {"declarer": "N", "contract": "4S", "tricks": 10, "makers": "NS"}, "unknown field 'makers'"),
    ("euchre", {"makers": "NS", "tricks": 6}, "tricks 6 is not 0 to 5"),
    ("euchre", {"tricks": 3}, "missing field 'makers'"),
    ("euchre", {"makers": "NS", "tricks": 3, "alone": "yes"}, "field 'alone'"),
    ("euchre", [3], "JSON object"),
    ("", {"tricks": 3}, "not known yet"),
])
def test_bad_results_name_what_is_wrong(game: str, fields: object, words: str) -> None:
    with pytest.raises(ResultError, match=words.replace("(", r"\(")):
        parse_result(game, fields)


def test_the_table_takes_each_command_once_and_notes_a_bad_result(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path, synchronous="NORMAL")
    ctl = TableController(game="euchre", journal=journal, panel=None, clock=Clock())
    commands = ClubCommands("euchre", ctl.submit)
    acked: list[str] = []
    for kind, body in [
            ("result", {"table": "t1", "by": "director", "id": "c1", "result": {"makers": "NS", "tricks": 3}}),
            ("result", {"table": "t1", "by": "director", "id": "c1", "result": {"makers": "NS", "tricks": 3}}),
            ("result", {"table": "t1", "by": "director", "id": "c2", "result": {"makers": "NS", "tricks": 9}}),
            ("ack", {"table": "t1", "by": "director", "id": "c3"})]:
        commands(kind, body, "", lambda cid=body["id"]: acked.append(cid))
    ctl.drain()
    rows = [r.body for r in journal.rows() if "command" in r.body]
    journal.close()
    assert [(b.get("type"), b["command"]["id"]) for b in rows] == [("result", "c1"), (None, "c2"), (None, "c3")]
    assert "tricks 9" in rows[1]["refused"] and rows[2]["ack"] == "director"
    assert acked == ["c1", "c1", "c2", "c3"]  # the repeat is acknowledged too: done once, answered
