"""A line the board's scoring would refuse is refused when it comes, and a board that cannot be scored
stops nothing else (docs/federation.md, "Nothing lost, nothing twice"; docs/scoring.md section 9). Found
by an audit: a line with a pair on both sides ({"ns": [1, "NS"], "ew": [1, "NS"]}), or one pair on two
lines of a board (a Howell's 2 v 3 then 3 v 4; 1 NS v 1 EW then 1 NS v 2 EW), was answered `taken`; once
the club finished the board, every release pass failed ("the boards could not be released", every 2 s
for good), no club got any `in/field` or `in/board/<n>` again, `federation show --all` printed a
traceback and `export` failed after the close. The line was in the journal for good. Sent as the clubs'
messages to a service whose client is never connected (no broker: its publishes only queue)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.federation.service import FederationService, open_event

from .test_cli import PBN


def _line(board: int, ns: list[Any], ew: list[Any], tricks: int = 9) -> dict[str, Any]:
    return {"board": board, "ns": ns, "ew": ew, "group": "A",
            "result": {"played": {"contract": "3NT", "declarer": "N", "tricks": tricks, "lead": None}}}


def _send(service: FederationService, club: str, message: dict[str, Any]) -> dict[str, Any]:
    number = service.state.ledger.expect(club)
    answer = service.receive(service.topics.result(club), json.dumps(message | {"club": club, "number": number}).encode())
    assert answer is not None
    return {"verdict": answer.verdict.value, "number": answer.number, "expect": answer.expect, "why": answer.why}


def _event(tmp_path: Path, *extra: str) -> Path:
    records = tmp_path / "boards.pbn"
    records.write_text(PBN, encoding="utf-8")
    folder = tmp_path / "event"
    assert main(["federation", "open", "--dir", str(folder), "--event", "seat", "--hand-records", str(records),
                 "--clubs", "c1,c2", *extra]) == 0
    return folder


def _journaled(service: FederationService) -> int:
    return sum(1 for r in service.journal.rows() if r.kind == "event" and r.body.get("type") == "message")


MITCHELL = [[1, "NS"], [2, "NS"], [1, "EW"], [2, "EW"]]
HOWELL = [[n, None] for n in (1, 2, 3, 4)]


def test_a_line_the_scoring_would_refuse_is_answered_conflict_and_every_board_is_released(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = FederationService(_event(tmp_path, "--due", "c1=2,c2=2"), "127.0.0.1", 1, "unused")
    try:
        assert _send(s, "c1", {"op": "entry", "pairs": MITCHELL, "due": 2})["verdict"] == "taken"
        assert _send(s, "c2", {"op": "entry", "pairs": HOWELL, "due": 2})["verdict"] == "taken"
        assert _send(s, "c1", {"op": "line", "line": _line(1, [1, "NS"], [1, "NS"])}) == {
            "verdict": "conflict", "number": 2, "expect": 2, "why": "board 1, line 1: pair 1 NS is on both sides"}
        assert _send(s, "c1", {"op": "line", "line": _line(1, [1, "NS"], [1, "EW"])})["verdict"] == "taken"
        assert _send(s, "c1", {"op": "line", "line": _line(1, [1, "NS"], [2, "EW"])}) == {
            "verdict": "conflict", "number": 3, "expect": 3,
            "why": "board 1: a second result for pair 1 NS (lines 1 and 2) (line 2 is this one; line 1 the "
                   "club's lines of board 1 taken so far, in pair order)"}
        assert _send(s, "c2", {"op": "line", "line": _line(1, [2, None], [3, None])})["verdict"] == "taken"
        answer = _send(s, "c2", {"op": "line", "line": _line(1, [3, None], [4, None])})
        assert answer["verdict"] == "conflict" and answer["why"].startswith(
            "board 1: result for pair 3 which the board's traveller lists twice")
        odd = _line(2, [2, "NS"], [2, "EW"]) | {"result": {"assigned": {"ns": 425, "ew": None}}}
        assert _send(s, "c1", {"op": "line", "line": odd})["why"] == \
            "board 2, line 1: an assigned score is a whole multiple of 10, got 425"
        assert _journaled(s) == 4                   # the entries and the two lines taken, nothing refused
        # each club finishes board 1 with a sound line: both may see it, and it is released to both
        assert _send(s, "c1", {"op": "line", "line": _line(1, [2, "NS"], [2, "EW"], 10)})["verdict"] == "taken"
        assert _send(s, "c2", {"op": "line", "line": _line(1, [1, None], [4, None], 8)})["verdict"] == "taken"
        assert s.release_boards() == 1
        assert s.club_views["c1"]["boards"] == [1] and s.club_views["c2"]["boards"] == [1]
        assert s.standings(public=False)["boards"] == [1, 2]
    finally:
        s.stop()


def test_a_board_that_cannot_be_scored_stops_no_other_board_s_release(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    """The guard behind the check: a board whose scoring fails is said once and left, the others are
    released (a line put in the field behind the check's back stands for a cause not yet known)."""
    from laws.scoring.session_values import Line, Pair, Played

    s = FederationService(_event(tmp_path), "127.0.0.1", 1, "unused")
    try:
        assert _send(s, "c1", {"op": "entry", "pairs": MITCHELL, "due": 1})["verdict"] == "taken"
        assert _send(s, "c1", {"op": "line", "line": _line(2, [1, "NS"], [1, "EW"])})["verdict"] == "taken"
        field = s.state.scores
        assert field is not None
        bad = Line(1, Pair(1, "NS"), Pair(1, "NS"), Played(None, None, 0))
        field.lines["c1"][(1, bad.ns, bad.ew)] = bad
        field._by_board.setdefault(1, {})[("c1", bad.ns, bad.ew)] = bad
        s.state.results["c1"][1] = 1
        s.close()
        assert s.release_boards() == 2
        assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
            "board 1 could not be scored, its field is not published until its lines change (the other boards "
            "are): board 1, line 1: pair 1 NS is on both sides"]
        assert s.club_views["c1"]["boards"] == [2]
        assert s.release_boards() == 0              # not tried again every pass while its lines stand
    finally:
        s.stop()


def test_an_old_journal_holding_such_a_line_still_shows_and_exports_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A journal written before the check may hold such a line: it is left out of the field, named (the
    journal's row, the club, its message, the reason), and the rest is shown and exported."""
    folder = _event(tmp_path)
    s = FederationService(folder, "127.0.0.1", 1, "unused")
    try:
        assert _send(s, "c1", {"op": "entry", "pairs": MITCHELL, "due": 1})["verdict"] == "taken"
        bad = {"op": "line", "club": "c1", "number": 2, "line": _line(1, [1, "NS"], [1, "NS"])}
        row = s.journal.append("event", {"type": "message", "club": "c1", "number": 2, "message": bad}, 1.0)
    finally:
        s.stop()
    s = FederationService(folder, "127.0.0.1", 1, "unused")     # the old line is in the journal for good
    try:
        assert s.state.ledger.expect("c1") == 3     # its number stays taken: the club's numbers go on
        assert _send(s, "c1", {"op": "line", "line": _line(1, [2, "NS"], [2, "EW"])})["verdict"] == "taken"
        assert _send(s, "c1", {"op": "line", "line": _line(2, [1, "NS"], [1, "EW"])})["verdict"] == "taken"
        assert s.release_boards() == 2
    finally:
        s.stop()
    said = (f"cardtable federation: {folder / 'federation.sqlite3'} row {row}: club c1's message 2 is left out "
            "of the field: board 1, line 1: pair 1 NS is on both sides\n")
    capsys.readouterr()
    assert main(["federation", "show", "--dir", str(folder), "--all"]) == 0
    out = capsys.readouterr()
    assert out.err == said and "boards 1, 2" in out.out
    assert main(["federation", "close", "--dir", str(folder)]) == 0
    capsys.readouterr()
    assert main(["federation", "export", "--dir", str(folder), "--format", "pbn", "--out", str(tmp_path / "f.pbn")]) == 0
    assert capsys.readouterr().err == said
    journal, state = open_event(folder)
    journal.close()
    assert state.results["c1"] == {1: 1, 2: 1}


def test_the_uplink_takes_a_line_off_before_it_sends_the_one_that_replaces_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal record that moves a result to other pairs (1 NS v 1 EW becomes 1 NS v 2 EW) is sent as
    the remove first, then the new line: the other way round the field would hold pair 1 NS on two lines
    of the board for a moment, and now refuses the new line (the club's uplink would stop at it)."""
    from firmware_host.federation import uplink
    from laws.cards import Seat
    from laws.scoring.bridge import parse_contract
    from laws.scoring.session_values import Line, Pair, Played

    def line(ew: int) -> Line:
        return Line(1, Pair(1, "NS"), Pair(ew, "EW"), Played(parse_contract("3NT"), Seat.N, 9))

    class State:
        fields = {Pair(1, "NS"): "NS", Pair(1, "EW"): "EW", Pair(2, "EW"): "EW"}
        now: list[Line] = []

        @classmethod
        def start(cls, setup: object) -> State:
            return cls()

        def due(self) -> dict[int, int]:
            return {1: 1}

        def lines(self) -> list[Line]:
            return self.now

        def check(self, rec: dict[str, Any]) -> str:
            return ""

        def apply(self, rec: dict[str, Any]) -> None:
            self.now = [line(rec["ew"])]

    monkeypatch.setattr(uplink, "SessionState", State)
    monkeypatch.setattr(uplink.SessionSetup, "from_dict", staticmethod(lambda d: d))
    got = uplink.club_messages("c1", [{"type": "opened", "setup": {}}, {"ew": 1}, {"ew": 2}])
    assert [(m["op"], m["line"]["ew"]) for m in got[1:]] == [("line", [1, "EW"]), ("remove", [1, "EW"]),
                                                             ("line", [2, "EW"])]


def test_an_entry_s_boards_and_pairs_are_held_to(tmp_path: Path) -> None:
    """The audit's s9: an entry listing a pair twice, and a line of a board the entry says the club does
    not play, were taken."""
    s = FederationService(_event(tmp_path), "127.0.0.1", 1, "unused")
    try:
        entry = {"op": "entry", "pairs": HOWELL, "due": 2, "boards": [1]}
        for bad, why in ((entry | {"pairs": HOWELL + [[1, None]]}, "an entry's pairs: pair 1 is listed twice"),
                         (entry | {"boards": [1, 99]}, "an entry's boards: board 99 is not one of the event's boards"),
                         (entry | {"boards": [1, 1]}, "an entry's boards: board 1 is listed twice")):
            assert _send(s, "c1", bad) == {"verdict": "conflict", "number": 1, "expect": 1, "why": why}
        assert _send(s, "c1", entry)["verdict"] == "taken"
        assert _send(s, "c1", {"op": "line", "line": _line(2, [1, None], [2, None])}) == {
            "verdict": "conflict", "number": 2, "expect": 2,
            "why": "board 2 is not one of the club's boards (its entry gives 1)"}
        assert _send(s, "c1", {"op": "remove", "line": _line(2, [1, None], [2, None])})["verdict"] == "conflict"
        assert _send(s, "c1", {"op": "line", "line": _line(1, [1, None], [2, None])})["verdict"] == "taken"
        assert _journaled(s) == 2
    finally:
        s.stop()
