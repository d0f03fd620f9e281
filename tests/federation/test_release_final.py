"""A club's results of a board it may see are final, and its entry is checked against the organiser's
(docs/federation.md, "Secrecy across time zones": what a club can and cannot do). Found by an audit: a
club that had played nothing sent an entry with one result due a board and a made-up pass-out for each
board, received every board's deal and the other club's results, then took its lines off, its boards
no longer finished, the views still with it. Sent as the clubs' messages to a service whose client is
never connected (no broker: its publishes only queue)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.federation.service import EventSetup, FederationService, create_event, open_event
from laws.cards import Seat
from laws.federation.messages import line_to_dict
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Assigned, Line, Pair, Played

from .test_cli import PBN

BOARDS = (1, 2, 3)
PAIRS = [[i, d] for i in (1, 2, 3) for d in ("NS", "EW")]


def _line(board: int, ns: int, ew: int, tricks: int = 10) -> dict[str, Any]:
    return line_to_dict(Line(board, Pair(ns, "NS"), Pair(ew, "EW"), Played(parse_contract("4S"), Seat.N, tricks)))


def _send(service: FederationService, club: str, message: dict[str, Any]) -> dict[str, Any]:
    """The club's next message; its answer as the club receives it on ``in/answer``."""
    number = service.state.ledger.expect(club)
    answer = service.receive(service.topics.result(club), json.dumps(message | {"club": club, "number": number}).encode())
    assert answer is not None
    return {"verdict": answer.verdict.value, "number": answer.number, "expect": answer.expect, "why": answer.why}


def _start(tmp_path: Path, due: dict[str, int] | None = None) -> FederationService:
    create_event(tmp_path / "event", EventSetup("fin", BOARDS, ("c1", "c2"), **({"due": due} if due else {})))
    s = FederationService(tmp_path / "event", "127.0.0.1", 1, "unused")
    assert _send(s, "c1", {"op": "entry", "pairs": PAIRS, "due": 3})["verdict"] == "taken"
    for b in BOARDS:                                # c1 plays every board at its three tables
        for t in (1, 2, 3):
            assert _send(s, "c1", {"op": "line", "line": _line(b, t, (t + b) % 3 + 1, 7 + t)})["verdict"] == "taken"
    return s


@pytest.fixture
def service(tmp_path: Path) -> Iterator[FederationService]:
    s = _start(tmp_path)
    try:
        yield s
    finally:
        s.stop()


def _released(service: FederationService, club: str) -> list[int]:
    service.release_boards()
    return list(service.club_views.get(club, {}).get("boards", []))


def test_a_club_cannot_take_back_the_results_that_showed_it_the_field(service: FederationService) -> None:
    """The audit's run: c2 (nothing played) claims one result due a board and sends a made-up line for
    each. The federation cannot know they are made up: they are taken and c2 may see the boards. But
    they are now c2's results, counted in the field: taking them off or changing them is refused, so
    c2's boards stay finished and its made-up results stand."""
    assert _send(service, "c2", {"op": "entry", "pairs": [[1, "NS"], [1, "EW"]], "due": 1})["verdict"] == "taken"
    assert _released(service, "c2") == []
    fake = {b: line_to_dict(Line(b, Pair(1, "NS"), Pair(1, "EW"), Played(None, None, 0))) for b in BOARDS}
    for b in BOARDS:
        assert _send(service, "c2", {"op": "line", "line": fake[b]})["verdict"] == "taken"
    assert _released(service, "c2") == [1, 2, 3]
    for b in BOARDS:
        number = service.state.ledger.expect("c2")
        answer = _send(service, "c2", {"op": "remove", "line": fake[b]})
        assert answer == {"verdict": "conflict", "number": number, "expect": number, "why":
                          f"board {b}: the club has finished it and may see the field's results of it: "
                          "its results of the board are final"}
    changed = line_to_dict(Line(1, Pair(1, "NS"), Pair(1, "EW"), Assigned(420)))
    assert _send(service, "c2", {"op": "line", "line": changed})["verdict"] == "conflict"
    another = line_to_dict(Line(1, Pair(1, "EW"), Pair(1, "NS"), Played(None, None, 0)))
    assert _send(service, "c2", {"op": "line", "line": another})["verdict"] == "conflict"
    assert service.state.results["c2"] == {1: 1, 2: 1, 3: 1}
    assert all(service.state.scores.lines["c2"][(b, Pair(1, "NS"), Pair(1, "EW"))].result == Played(None, None, 0)
               for b in BOARDS)
    assert _released(service, "c2") == [1, 2, 3]
    # the line exactly as it stands changes nothing, and is taken
    assert _send(service, "c2", {"op": "line", "line": fake[2]})["verdict"] == "taken"
    # nothing refused is in the journal: the state rebuilt from it is the same
    service.journal.close()
    journal, state = open_event(service.folder)
    journal.close()
    assert state.results["c2"] == {1: 1, 2: 1, 3: 1} and state.ledger.expect("c2") == 6


def test_a_board_not_yet_finished_can_still_be_corrected_and_its_lines_taken_off(service: FederationService) -> None:
    assert _send(service, "c2", {"op": "entry", "pairs": PAIRS, "due": 3})["verdict"] == "taken"
    assert _send(service, "c2", {"op": "line", "line": _line(1, 1, 3)})["verdict"] == "taken"
    assert _send(service, "c2", {"op": "line", "line": _line(1, 1, 3, 11)})["verdict"] == "taken"   # corrected
    assert _send(service, "c2", {"op": "remove", "line": _line(1, 1, 3, 11)})["verdict"] == "taken"
    assert _send(service, "c2", {"op": "line", "line": _line(1, 2, 1)})["verdict"] == "taken"
    assert service.state.results["c2"] == {1: 1} and _released(service, "c2") == []
    # c1 finished board 1: its lines there are final, its boards 2 and 3 too
    answer = _send(service, "c1", {"op": "line", "line": _line(1, 1, 3, 13)})
    assert answer["verdict"] == "conflict" and "its results of the board are final" in answer["why"]


def test_after_the_close_every_club_s_results_are_final(service: FederationService) -> None:
    assert _send(service, "c2", {"op": "entry", "pairs": PAIRS, "due": 3})["verdict"] == "taken"
    assert _send(service, "c2", {"op": "line", "line": _line(1, 1, 3)})["verdict"] == "taken"
    service.close()
    assert _released(service, "c2") == [1, 2, 3]
    for message in ({"op": "line", "line": _line(1, 1, 3, 12)}, {"op": "remove", "line": _line(1, 1, 3)},
                    {"op": "line", "line": _line(2, 1, 1)}):
        answer = _send(service, "c2", message)
        assert answer["verdict"] == "conflict" and answer["why"].endswith(
            "the event is closed and every club may see every board: the club's results are final")


def test_a_club_s_entry_is_checked_against_the_organiser_s_and_taken_once(tmp_path: Path) -> None:
    s = _start(tmp_path, due={"c1": 3, "c2": 3})
    try:
        answer = _send(s, "c2", {"op": "entry", "pairs": [[1, "NS"], [1, "EW"]], "due": 1})
        assert answer == {"verdict": "conflict", "number": 1, "expect": 1,
                          "why": "the entry says 1 results due per board; the event was opened with 3 for the club"}
        assert _send(s, "c2", {"op": "entry", "pairs": PAIRS, "due": 3})["verdict"] == "taken"
        answer = _send(s, "c2", {"op": "entry", "pairs": PAIRS, "due": 1})    # its due cannot change later
        assert answer["verdict"] == "conflict" and answer["why"] == "the club's entry was taken already"
        assert s.state.entries["c2"].due == 3
    finally:
        s.stop()


def test_open_with_each_club_s_results_due(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "boards.pbn"
    records.write_text(PBN, encoding="utf-8")
    base = ["federation", "open", "--event", "d1", "--hand-records", str(records), "--clubs", "c1,c2"]
    for bad, words in (("c1=3", "--due: give every club's (none for c2)"), ("c1=3,c3=2", "--due: 'c3' is not one of --clubs"),
                       ("c1=3,c1=2,c2=1", "--due: c1 is given twice"),
                       ("c1=3,c2=0", "--due: c2's results due per board is a whole number from 1 to 999, got '0'"),
                       ("c1=3,c2=1000", "--due: c2's results due per board is a whole number from 1 to 999, got '1000'"),
                       # the audit's: exit 0 before, and club b could never enter (its entry's due is read up to 999)
                       ("c1=2,c2=1111111111111111111111111111111111",
                        "--due: c2's results due per board is a whole number from 1 to 999, got '11111111111111111...'")):
        assert main(base + ["--dir", str(tmp_path / "bad"), "--due", bad]) == 2
        assert capsys.readouterr().err == f"cardtable federation: {words}\n"
        assert not (tmp_path / "bad").exists()
    assert main(base + ["--dir", str(tmp_path / "e"), "--due", "c1=3, c2=4"]) == 0
    assert "results due per board: c1 3, c2 4" in capsys.readouterr().out
    journal, state = open_event(tmp_path / "e")
    journal.close()
    assert dict(state.setup.due) == {"c1": 3, "c2": 4}


def test_after_the_close_a_club_that_never_entered_gets_the_final_view_too(service: FederationService) -> None:
    """The audit's: club c2, named at open, never entered; after the close it had only its in/records
    (its page gave {"boards": [], "rankings": {}}), though the close puts every board on every club's
    in/field and in/board/<n>."""
    assert _released(service, "c2") == []          # before the close it sees nothing
    service.close()
    assert _released(service, "c2") == [1, 2, 3]
    assert service.club_views["c2"] == {"boards": [1, 2, 3], "rankings": {}}
    # what was published (retained) on c2's topics
    assert service._sent_boards.keys() >= {service.topics.board("c2", b) for b in BOARDS} | {service.topics.field("c2")}
