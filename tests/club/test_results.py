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


@pytest.mark.parametrize(("game", "fields", "words"), [  # in the players' words (issue 21), no field names
    ("contract-bridge", {"declarer": "N", "contract": "8S", "tricks": 10}, "there is no eight-level contract"),
    ("contract-bridge", {"declarer": "N", "contract": "0S", "tricks": 10}, "there is no zero-level contract"),
    ("contract-bridge", {"declarer": "N", "contract": "4Z", "tricks": 10}, "there is no 'Z' suit"),
    ("contract-bridge", {"declarer": "N", "contract": "SS", "tricks": 10}, "'SS' is not a contract"),
    ("contract-bridge", {"declarer": "X", "contract": "4S", "tricks": 10}, "say who declared: North, East"),
    ("contract-bridge", {"contract": "4S", "tricks": 10}, "say who declared"),
    ("contract-bridge", {"declarer": "N", "tricks": 10}, "say the contract, such as 4S"),
    ("contract-bridge", {"declarer": "N", "contract": "4S"}, "say how many tricks declarer's side took"),
    ("contract-bridge", {"declarer": "N", "contract": "4S", "tricks": 14},
     "declarer's side cannot take 14 tricks: there are 13 in a hand"),
    ("contract-bridge", {"declarer": "N", "contract": "4S", "tricks": "ten"}, "a number from 0 to 13"),
    ("contract-bridge", {"declarer": "N", "contract": "4S", "tricks": 10, "honours": {"side": "NS", "points": 90}},
     "honours are worth 100 or 150, got 90"),
    ("contract-bridge", {"declarer": "N", "contract": "4S", "tricks": 10, "makers": "NS"},
     "a contract bridge result has no 'makers'"),
    # the laws refuse it in a result (docs/events.md, "Exit status"): a correction, which the engine never
    # sees, was journaled with it and stood as the deal's result for the club's scorer (outside audit p2)
    ("contract-bridge", {"declarer": "N", "contract": "3nt", "tricks": 9, "honours": {"side": "NS", "points": 100}},
     "at notrump only four aces count as honours, worth 150"),
    ("euchre", {"makers": "NS", "tricks": 6}, "the makers cannot take 6 tricks: there are 5 in a hand"),
    ("euchre", {"tricks": 3}, "say which side made trump: North-South or East-West"),
    ("euchre", {"makers": "NS", "tricks": 3, "alone": "yes"}, "whether the maker played alone"),
    ("euchre", [3], "JSON object"),
    ("", {"tricks": 3}, "has not said its game yet"),
])
def test_bad_results_name_what_is_wrong(game: str, fields: object, words: str) -> None:
    with pytest.raises(ResultError, match=words.replace("(", r"\(")) as exc:
        parse_result(game, fields)
    assert "field" not in str(exc.value) and "contract-bridge" not in str(exc.value)


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
    assert "9 tricks" in rows[1]["refused"] and rows[2]["ack"] == "director"
    assert acked == ["c1", "c1", "c2", "c3"]  # the repeat is acknowledged too: done once, answered


@pytest.mark.parametrize(("game", "extra"), [("contract-bridge", "note"), ("contract-bridge", "t"),
                                             ("duplicate-bridge", "honours"), ("euchre", "note")])
def test_a_correction_takes_no_field_its_result_does_not_have(game: str, extra: str) -> None:
    """docs/events.md, "Corrections": unlike a ``result`` event in a log (whose unknown fields are
    ignored), a correction's ``result`` is refused with a field its game's result does not have; the
    document said only "as this format checks them", which an outside writer read as "extra fields
    ignored" (outside audit p2)."""
    fields = {"makers": "NS", "tricks": 3} if game == "euchre" else {"declarer": "S", "contract": "4H", "tricks": 9}
    value = {"side": "NS", "points": 100} if extra == "honours" else 5
    with pytest.raises(ResultError, match=f"result has no '{extra}'"):
        parse_result(game, {**fields, extra: value})
