"""The session's promises (``session/journalled.py:SessionOrdering``, docs/ordering.md "The session"), each on a
real journal: a batch whose commit fails is held, answered only once committed, and taken when the
journal is writable again; a result the director took off does not come back with a resend (issue 28,
item 4); a reused message number is taken and said, never dropped as a repeat (item 5); one login's
malformed messages write a bounded journal (item 12)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import firmware_host.session.journalled as ordering_module
from firmware_host.duplicate.views import director_view, refusal_rows
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.wire.topics import TOPICS

from .sessionkit import make_setup, result
from .test_link import MITCHELL_3, Wire, _message


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _desk(tmp_path: Path) -> tuple[SessionDesk, Wire, Clock]:
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"),
                       wire)
    clock = Clock()
    desk.ordering.clock = clock
    return desk, wire, clock


def _answers(wire: Wire, table: str) -> list[dict[str, Any]]:
    return wire.last(TOPICS.seating(table))["answers"]


def test_a_batch_whose_commit_fails_is_held_unanswered_and_taken_once_the_journal_is_writable(tmp_path: Path) -> None:
    desk, wire, clock = _desk(tmp_path)
    rec = result(make_setup(MITCHELL_3), 1, 2, 3, random.Random(5))
    desk.session.journal._conn.execute("PRAGMA busy_timeout = 50")   # the lock below is met at once
    other = sqlite3.connect(desk.session.journal.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")                                   # another process holds the write lock
    desk.offer(TOPICS.board("table-02"), _message(rec, seq=88))
    assert desk.tick() is False
    assert desk.fault and "locked" in desk.fault and desk.ordering.waiting == 1
    assert desk.session.state.entries == {} and wire.sent == []        # nothing answered before the commit
    told: list[int] = []
    desk.listeners.append(lambda boards, outcomes: told.append(1))
    view = director_view(desk.session)
    assert view["journal_fault"] and "cannot be written" in view["refusals"][0]["why"]   # the director sees it
    clock.now += 0.1
    desk.offer(TOPICS.board("table-02"), _message(rec, seq=88))      # the table's resend waits behind it
    assert desk.tick() is False and desk.ordering.waiting == 2
    other.execute("ROLLBACK")
    other.close()
    clock.now += 1.0
    assert desk.tick() is True and desk.fault is None and told
    assert director_view(desk.session)["journal_fault"] is None
    assert "3/2 NS/2 EW" in desk.session.state.entries
    assert [a["status"] for a in _answers(wire, "table-02")] == ["taken", "repeat"]
    notes = [r.body for r in desk.session.journal.rows() if r.kind == "note"]
    assert {"journal": "recovered", "failed_commits": 1} in notes   # the second tick waited its 0.25 s
    desk.session.close()


def test_a_result_the_director_took_off_does_not_come_back_with_a_resend(tmp_path: Path) -> None:
    desk, wire, _clock = _desk(tmp_path)
    rec = result(make_setup(MITCHELL_3), 1, 2, 3, random.Random(5))
    desk.offer(TOPICS.board("table-02"), _message(rec, seq=88))
    assert desk.tick()
    assert desk.director({"type": "cancel", "key": "3/2 NS/2 EW", "by": "alice", "why": "wrong board"}).taken
    folder = desk.session.journal.path
    desk.session.close()
    again = SessionDesk(Session.open(folder, analyse=False, synchronous="NORMAL"), wire)   # both restarted
    again.offer(TOPICS.board("table-02"), _message(rec, seq=131))    # the same result under a new number
    assert again.tick()
    assert again.session.state.entries == {}
    last = _answers(wire, "table-02")[-1]
    assert last["status"] == "refused" and "took this table's result of board 3 off (by alice: wrong board)" in last["why"]
    assert again.director({**rec, "source": "", "by": "alice"}).taken   # the director may enter one himself
    again.session.close()


def test_a_reused_message_number_is_taken_and_said_not_dropped_as_a_repeat(tmp_path: Path) -> None:
    desk, wire, _clock = _desk(tmp_path)
    setup = make_setup(MITCHELL_3)
    desk.offer(TOPICS.board("table-02"), _message(result(setup, 1, 2, 3, random.Random(5)), seq=88))
    assert desk.tick()
    # the table's journal was replaced: its numbers start again, and 88 now carries board 4
    desk.offer(TOPICS.board("table-02"), _message(result(setup, 1, 2, 4, random.Random(6)), seq=88))
    assert desk.tick()
    assert "4/2 NS/2 EW" in desk.session.state.entries
    last = _answers(wire, "table-02")[-1]
    assert last["board"] == 4 and last["status"] == "taken" and "table-02:88 was used before for board 3" in last["why"]
    notes = [r.body for r in desk.session.journal.rows() if r.kind == "note"]
    assert any("reused_number" in n for n in notes)
    assert any("used before" in r["why"] for r in desk.session.refusals)   # the director sees it too
    before = [r for r in refusal_rows(desk.session)[0] if "used before" in r["why"]]
    assert [(r["table"], r["club_table"], r["board"]) for r in before] == [(2, "table-02", 4)]
    folder = desk.session.journal.path
    desk.session.close()
    again = Session.open(folder, analyse=False, synchronous="NORMAL")   # a restart reads the same entry back
    after = [r for r in refusal_rows(again)[0] if "used before" in r["why"]]
    assert after == before, (after, before)
    again.close()


def test_one_logins_malformed_messages_write_a_bounded_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ordering_module, "BURST", 20)
    desk, wire, clock = _desk(tmp_path)
    junk = json.dumps({"table": "table-02", "kind": "board", "seq": 1, "t": 1.0, "body": {"x": "y" * 1500}}).encode()
    for _ in range(3000):
        desk.offer(TOPICS.board("table-02"), junk)
    desk.tick()
    good = result(make_setup(MITCHELL_3), 1, 1, 1, random.Random(2))
    desk.offer(TOPICS.board("table-01"), _message(good, seq=5))    # another table is not held up
    clock.now += 3 * ordering_module.REFILL
    desk.offer(TOPICS.board("table-02"), junk)
    desk.tick()
    notes = [r.body for r in desk.session.journal.rows() if r.kind == "note"]
    refused = [n for n in notes if "refused" in n]
    counted = [n["refusals_not_written"] for n in notes if "refusals_not_written" in n]
    assert 20 <= len(refused) <= 24, len(refused)
    assert counted and counted[0]["table"] == "table-02" and counted[0]["count"] >= 2970
    assert sum(len(json.dumps(r.body)) for r in desk.session.journal.rows()) < 200_000   # 3,000 notes: 4.6 MB
    assert "1/1 NS/1 EW" in desk.session.state.entries
    assert _answers(wire, "table-02")[-1]["status"] == "refused"
    desk.session.close()


def test_the_count_of_refusals_not_written_is_journaled_when_the_budget_allows_though_no_message_comes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/ordering.md rule 6: the count is written when the login's budget allows again; it waited for
    # the next refused message, so a login that went quiet never had its count written.
    monkeypatch.setattr(ordering_module, "BURST", 5)
    desk, _wire, clock = _desk(tmp_path)
    for i in range(40):
        desk.offer(TOPICS.board("table-02"), b"{bad json %d" % i)
    desk.tick()

    def counted() -> list[dict[str, Any]]:
        return [r.body["refusals_not_written"] for r in desk.session.journal.rows()
                if r.kind == "note" and "refusals_not_written" in r.body]

    assert counted() == []
    desk.tick()                                  # the budget is spent: nothing yet
    assert counted() == []
    clock.now += ordering_module.REFILL
    desk.tick()                                  # no message came, and the budget allows one note again
    assert [(c["table"], c["count"]) for c in counted()] == [("table-02", 35)]
    clock.now += 10 * ordering_module.REFILL
    desk.tick()
    assert len(counted()) == 1                   # written once
    desk.session.close()


def test_while_the_journal_cannot_be_written_what_is_held_is_bounded_and_the_rest_left_unanswered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ordering_module, "HELD_MOST", 3)
    desk, wire, clock = _desk(tmp_path)
    rec = result(make_setup(MITCHELL_3), 1, 2, 3, random.Random(5))
    desk.session.journal._conn.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(desk.session.journal.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    desk.offer(TOPICS.board("table-02"), _message(rec, seq=88))
    assert desk.tick() is False
    for seq in range(89, 99):
        desk.offer(TOPICS.board("table-02"), _message(rec, seq=seq))
    assert desk.tick() is False
    assert desk.ordering.waiting == 3 and desk.ordering.let_go == 8 and wire.sent == []   # nothing answered
    other.execute("ROLLBACK")
    other.close()
    clock.now += 1.0
    assert desk.tick() and "3/2 NS/2 EW" in desk.session.state.entries
    assert [a["status"] for a in _answers(wire, "table-02")] == ["taken", "repeat", "repeat"]
    desk.session.close()


def test_a_long_lock_spends_no_refusal_budget_on_the_messages_it_holds(tmp_path: Path) -> None:
    """docs/session.md: one refused note a record, so what a table sent is never lost. Held through a long
    lock, each retry of the same messages spent their login's refusal budget again (only the counts were
    given back): after 30 failed commits 10 refusals left 1 note and 9 'not journaled'."""
    import json as _json

    from firmware_host.records.journal import Journal, JournalError
    from firmware_host.session.journalled import JournalledService, SessionOrdering

    class State:
        setup = None

        def check(self, rec: dict) -> str:
            return f"a result for board {rec['board']}, but the movement gives that table boards 1-2"

        def apply(self, rec: dict) -> None:
            pass

    class Kind:
        @staticmethod
        def replay(setup: object, bodies: object) -> tuple[State, list]:
            return State(), []

    class Svc(JournalledService):
        KIND = Kind

    j = Journal.open(tmp_path / "session.sqlite3")
    j.append("event", {"type": "opened", "setup": {}}, 0.0)
    locked, real = [True], j.append_many

    def append_many(rows: list) -> list:
        if locked[0]:
            raise JournalError("database is locked")
        return real(rows)

    j.append_many = append_many  # type: ignore[method-assign]
    now = [0.0]
    order = SessionOrdering(Svc(j, State(), lambda: 0.0, []), clock=lambda: now[0], read=lambda topic, payload: {
        "type": "result", "table": "table-02", "source": f"table-02:{_json.loads(payload)['n']}",
        "board": _json.loads(payload)["n"]})
    for n in range(10):
        order.offer("cardtable/table-02/board", _json.dumps({"n": n}).encode())
    while now[0] < 200:            # 200 s of a locked journal: about 30 failed commits
        order.take()
        now[0] += 0.025
    assert order.failed_commits >= 20 and len(order.held) == 10
    locked[0] = False
    now[0] += 8
    out = order.take()
    assert out is not None and [o.status for o in out] == ["refused"] * 10
    notes = [r.body["refused"] for r in j.rows() if r.kind == "note" and "refused" in r.body]
    assert [n["record"]["board"] for n in notes] == list(range(10))
    j.close()


def test_a_batch_whose_rebuild_fails_too_stays_held_and_is_taken_later(tmp_path: Path) -> None:
    """docs/ordering.md: a failed batch is held and nothing of it is answered. When the rebuild after a failed
    commit could not read the journal either, its error escaped with the batch no longer held, the state still
    holding its result: the table's resend was then answered 'repeat' of a result in no journal."""
    from firmware_host.records.journal import Journal, JournalError
    from firmware_host.session.journalled import JournalledService, SessionOrdering
    from laws.session.kind import REPEAT

    class State:
        setup = None

        def __init__(self) -> None:
            self.seen: set[int] = set()

        def check(self, rec: dict) -> str:
            return REPEAT if rec["board"] in self.seen else ""

        def apply(self, rec: dict) -> None:
            self.seen.add(rec["board"])

    class Kind:
        @staticmethod
        def replay(setup: object, bodies: list) -> tuple[State, list]:
            s = State()
            for b in bodies:
                s.apply(b)
            return s, []

    class Svc(JournalledService):
        KIND = Kind

    j = Journal.open(tmp_path / "session.sqlite3")
    j.append("event", {"type": "opened", "setup": {}}, 0.0)
    broken, append_many, rows = [True], j.append_many, j.rows

    def failing_append(r: list) -> list:
        if broken[0]:
            raise JournalError("disk I/O error")
        return append_many(r)

    def failing_rows(since: int = 0) -> list:
        if broken[0]:
            raise JournalError("cannot read the journal (disk I/O error)")
        return rows(since)

    j.append_many, j.rows = failing_append, failing_rows  # type: ignore[method-assign]
    now = [0.0]
    order = SessionOrdering(Svc(j, State(), lambda: 0.0, []), clock=lambda: now[0],
                            read=lambda t, p: {"type": "result", "table": "table-02", "source": "table-02:95", "board": 3})
    order.offer("cardtable/table-02/board", b"{}")
    assert order.take() is None and len(order.held) == 1          # held, nothing answered, nothing raised
    broken[0] = False
    order.offer("cardtable/table-02/board", b"{}")                 # the table's resend
    out = None
    while out is None and now[0] < 30:
        now[0] += 0.5
        out = order.take()
    assert out is not None and [o.status for o in out] == ["taken", "repeat"]
    assert [r.body.get("board") for r in j.rows() if r.kind == "event"] == [None, 3]
    j.close()
