"""A duplicate table restarted without its broker (docs/ordering.md: a result is sent again until the
seating answers it, read back from the journal after a restart). Every confirmed result in the journal was
taken as unanswered, whatever seating had answered it before the stop, so a restarted table sent every
result of its evening again, every 3 to 30 s, each time journaling a ``board_result_again`` row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.tablelink.duplicate_results import DuplicateResults


def _result(board: int) -> dict[str, Any]:
    return {"clause": "DB-77", "confirmed": {"ns": "N", "ew": "E"}, "board": board, "round": 1, "table_number": 2,
            "section": "A", "contract": "4S", "declarer": "N", "tricks": 10, "lead": "HA", "ns": "2 NS", "ew": "2 EW"}


def _seating(answered: list[int], left: list[int]) -> dict[str, Any]:
    return {"kind": "seating", "table": "table-02", "section": "A", "table_number": 2, "round": 1, "ns": "2 NS",
            "ew": "2 EW", "boards": [{"board": b, "record": "ab" * 32} for b in (3, 4)], "left": left,
            "sit_out": False, "called": 1, "rounds": 3, "seq": 2, "t": 0.0,
            "answers": [{"source": f"table-02:{b}", "board": b, "status": "taken", "why": ""} for b in answered]}


class _Ctl:
    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.submitted: list[Any] = []      # what the table side submits (the notes its display gets)

    def submit(self, item: Any) -> None:
        self.submitted.append(item)

    def journal_note(self, body: dict[str, Any]) -> int:
        return self.journal.append("note", body, 3.0)


class _Pub:
    def __init__(self) -> None:
        self.sent: list[int] = []

    def board_result(self, body: dict[str, Any], seq: int, deal: int = 0) -> None:
        self.sent.append(body["board"])


def test_a_result_the_journaled_seating_answered_is_not_sent_again(tmp_path: Path) -> None:
    j = Journal.open(tmp_path / "j")
    j.append("ruling", _result(3), 1.0)
    j.append("note", {"session": _seating([3], [4])}, 2.0)     # board 3 answered before the stop
    j.append("ruling", _result(4), 3.0)                         # board 4 confirmed after it: not answered
    pub = _Pub()
    results = DuplicateResults(_Ctl(j), pub, clock=lambda: 100.0, timer=None)   # restarted, no broker
    assert list(results.unanswered) == [(1, 4)]
    assert results.resend_due() == 1 and pub.sent == [4]
    j.close()


def test_a_result_answered_refused_is_not_sent_again(tmp_path: Path) -> None:
    """docs/mqtt.md: a table stops sending a result its seating answers ``refused`` (the session names the
    message's source and board in the answer even when it refused a field), as it does one ``taken``."""
    j = Journal.open(tmp_path / "j")
    j.append("ruling", _result(3), 1.0)
    j.append("ruling", _result(4), 2.0)
    clock = [100.0]
    pub = _Pub()
    results = DuplicateResults(_Ctl(j), pub, clock=lambda: clock[0], timer=None)
    assert sorted(results.unanswered) == [(1, 3), (1, 4)]
    refused = {"source": "table-02:604", "board": 3, "status": "refused",
               "why": "payload refused: field 'contract': contract must be ..., got '4s'"}
    results.on_session(_seating([], [3, 4]) | {"answers": [refused]})
    assert list(results.unanswered) == [(1, 4)]
    clock[0] += 3600.0
    pub.sent.clear()
    assert results.resend_due() == 1 and pub.sent == [4]          # board 3 is never sent again
    j.close()


def test_an_events_answers_settle_results_by_kind(tmp_path: Path) -> None:
    """An event's view answers as a pairs seating does (``kind``, session/answers.py): the table forgets
    the result a ``board`` answer names and never takes a refused ``players`` answer (its member cards,
    ``board`` null) for one, whatever board it might name."""
    j = Journal.open(tmp_path / "j")
    j.append("ruling", _result(3) | {"table_number": 1}, 1.0)
    j.append("ruling", _result(4) | {"table_number": 1}, 2.0)
    results = DuplicateResults(_Ctl(j), _Pub(), clock=lambda: 100.0, timer=None)
    view = {"kind": "swiss-teams", "event": "Swiss", "table": "table-02", "number": 1, "section": "A", "plays": True,
            "round": 1, "rounds": 3, "boards": [3, 4], "entered": [], "seat": {"table": 1, "north": 1, "east": 3},
            "answers": [{"source": "table-02:7", "board": 3, "status": "taken", "why": "", "kind": "board"},
                        {"source": "table-02:8", "board": 4, "status": "refused", "why": "member 1021 ...",
                         "kind": "players"}]}
    results.on_session(view)
    assert results.seating is not None and [a.kind for a in results.seating.answers] == ["board", "players"]
    assert list(results.unanswered) == [(1, 4)]
    j.close()


def test_a_replayed_boards_result_is_sent_until_answered_though_the_seating_no_longer_lists_it(
        tmp_path: Path) -> None:
    """docs/mqtt.md, the seating's ``replay``: board 4's line was taken off to be replayed, so it is not in
    ``left`` (the table's round has no board left) until the replay's result is in. The table forgot its
    replayed result at the first seating that did not answer it (a board no longer left is one the session
    holds), so a result the broker lost was never sent again and the session waited for it."""
    j = Journal.open(tmp_path / "j")
    j.append("ruling", _result(4), 1.0)                         # board 4 replayed and confirmed
    pub = _Pub()
    results = DuplicateResults(_Ctl(j), pub, clock=lambda: 100.0, timer=None)
    results.on_session(_seating([], []) | {"replay": [{"round": 1, "board": 4}]})
    assert list(results.unanswered) == [(1, 4)] and pub.sent == [4]    # kept, and sent again
    results.on_session(_seating([4], []))                            # answered: forgotten
    assert list(results.unanswered) == []
    j.close()


def test_an_answer_of_a_kind_the_table_does_not_know_settles_no_result(tmp_path: Path) -> None:
    """docs/mqtt.md, the seating's ``answers``: a table matches only ``board`` answers to its results. Any
    kind but ``players`` was read as ``board``, so an answer of a later kind naming board 3 (or a euchre
    night's ``hand``) made the table forget its result for board 3, never sent again: the session never had
    it. Such an answer is kept as sent and settles nothing; one without ``kind`` (a session before kinds)
    is a ``board`` answer, as before."""
    j = Journal.open(tmp_path / "j")
    j.append("ruling", _result(3), 1.0)
    j.append("ruling", _result(4), 2.0)
    results = DuplicateResults(_Ctl(j), _Pub(), clock=lambda: 100.0, timer=None)
    later = [{"source": "table-02:9", "board": 3, "status": "taken", "why": "", "kind": "claim"},
             {"source": "table-02:10", "board": 3, "status": "refused", "why": "", "kind": "hand"},
             {"source": "table-02:4", "board": 4, "status": "taken", "why": ""}]     # no kind: a board answer
    results.on_session(_seating([], [3, 4]) | {"answers": later})
    assert results.seating is not None and [a.kind for a in results.seating.answers] == ["claim", "hand", "board"]
    assert list(results.unanswered) == [(1, 3)]
    j.close()


def test_member_cards_refused_are_shown_at_the_table_once_per_answer(tmp_path: Path) -> None:
    """docs/mqtt.md, "Member cards at the table": a refused ``players`` answer is shown on the table's
    display. The table did nothing with it, so players who laid their member cards were named nobody and
    never learnt why. Each refusal is shown once, not at every seating that still carries it, nor again
    after a restart that reads the seating back."""
    j = Journal.open(tmp_path / "j")
    ctl = _Ctl(j)
    results = DuplicateResults(ctl, _Pub(), clock=lambda: 100.0, timer=None)
    why = "table-02's member cards: member number 9999 is not in the roster (roster.csv)"
    refused = {"source": "table-02:57", "board": None, "status": "refused", "why": why, "kind": "players"}
    seating = _seating([], [3, 4]) | {"answers": [refused]}
    results.on_session(seating)
    results.on_session(seating)                                    # the same answer, sent again
    assert [(n.device, n.text) for n in ctl.submitted] == [("session", f"member cards refused: {why}")]
    later = {**refused, "source": "table-02:61", "why": "pair 2 NS: member 1021 (Ann Smith) already plays"}
    results.on_session(seating | {"answers": [refused, later]})
    assert [n.text for n in ctl.submitted][1:] == [f"member cards refused: {later['why']}"]
    j.append("note", {"session": seating | {"answers": [refused, later]}}, 4.0)
    again = _Ctl(j)
    DuplicateResults(again, _Pub(), clock=lambda: 100.0, timer=None).on_session(seating | {"answers": [refused, later]})
    assert again.submitted == []                                   # shown before the restart
    j.close()


class _Refusing(_Pub):
    """A publisher whose broker's packet a result does not fit (``board_result`` says False)."""

    def board_result(self, body: dict[str, Any], seq: int, deal: int = 0) -> bool:
        self.sent.append(body["board"])
        return False


def test_a_result_too_large_for_the_broker_is_not_sent_again_nor_after_a_restart(tmp_path: Path) -> None:
    """docs/mqtt.md, "The broker": a result the publisher cannot send for its size was kept unanswered and
    sent again every 3 to 30 s (each time a row, an ERROR, a note on the display) and after every restart.
    Now it is noted once in the journal and forgotten: the table's display says to enter it by hand."""
    j = Journal.open(tmp_path / "j")
    j.append("ruling", _result(3), 1.0)
    clock = [100.0]
    pub = _Refusing()
    results = DuplicateResults(_Ctl(j), pub, clock=lambda: clock[0], timer=None)
    assert results.resend_due() == 1 and pub.sent == [3]
    assert results.unanswered == {}
    clock[0] += 3600.0
    assert results.resend_due() == 0 and pub.sent == [3]
    assert [r.body["board_result_not_sent"]["board"] for r in j.rows() if "board_result_not_sent" in r.body] == [3]
    again = DuplicateResults(_Ctl(j), pub, clock=lambda: clock[0], timer=None)   # restarted
    assert again.unanswered == {} and again.resend_due() == 0 and pub.sent == [3]
    j.close()
