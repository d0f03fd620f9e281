"""The release rule, tried as an attacker would: every item of a real session, every audience (a
spectator, each table's own login), at every moment anything changed, checked against the session's
facts worked out here from the journals' raw rows; nothing early, ever. And the rule's own words."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from firmware_host.records.journal import Journal
from laws.broadcast.feed import Item, TableFeed
from laws.broadcast.release import Audience, Facts, Release, ReleaseError, Rule, may_show, released_at


def _session(journals: list[Path]) -> tuple[list[Item], dict[tuple[int, int], float]]:
    """Every item of every table, and when each (table, board) was scored, read from the raw rows."""
    items: list[Item] = []
    done: dict[tuple[int, int], float] = {}
    for k, path in enumerate(journals, 1):
        feed = TableFeed(k)
        board = None
        with Journal.open_readonly(path) as j:
            for row in j.rows():
                items += feed.add(row.seq, row.kind, row.body, row.t)
                if row.kind == "event" and row.body.get("type") == "board":
                    board = (int(row.body["table"]), int(row.body["board"]))
                if row.kind == "ruling" and row.body.get("clause") == "DB-77" and board is not None:
                    done.setdefault(board, row.t)
    return items, done


def _facts_at(now: float, done: Mapping[tuple[int, int], float], rooms: Mapping[int, int] | None = None) -> Facts:
    plays: dict[int, set[int]] = {}
    for table, board in done:
        plays.setdefault(board, set()).add(table)
    pending = {b: frozenset(t for t in tables if done[(t, b)] > now) for b, tables in plays.items()}
    finished = {tb: t for tb, t in done.items() if t <= now}
    field_done = {b: max(done[(t, b)] for t in tables) for b, tables in plays.items() if not pending[b]}
    return Facts(pending, finished, rooms or {}, field_done)


def test_nothing_is_shown_early_to_anyone(journals: list[Path]) -> None:
    items, done = _session(journals)
    tables = sorted({t for t, _b in done})
    moments = sorted({i.t for i in items} | set(done.values()))
    audiences = [Audience(None)] + [Audience(t) for t in tables]
    shown = 0
    for rule in (Release(Rule.AFTER_FIELD), Release(Rule.DELAY, 0.05)):
        for now in moments:
            facts = _facts_at(now, done)
            for item in items:
                if item.t > now:
                    continue
                for who in audiences:
                    if not may_show(rule, item, who, facts, now):
                        continue
                    shown += 1
                    last = max(done[(t, b)] for t, b in done if b == item.board)
                    if rule.rule is Rule.AFTER_FIELD:
                        assert now >= last, f"{item} shown before the last table finished board {item.board}"
                    else:
                        assert now >= item.t + 0.05
                    if who.table is not None and (who.table, item.board) in done:
                        assert now >= done[(who.table, item.board)], \
                            f"table {who.table} saw board {item.board} before it finished it"
    assert shown > 0


def test_teams_rule_waits_for_the_other_room() -> None:
    item = Item("card", 1, 5, 3, 10, 100.0, {"seat": "N", "card": "AS"})
    rule = Release(Rule.TEAMS)
    rooms = {1: 2, 2: 1}
    assert released_at(rule, item, Audience(), Facts(other_room=rooms)) is None
    facts = Facts(other_room=rooms, done={(2, 5): 130.0})
    assert released_at(rule, item, Audience(), facts) == 130.0
    assert not may_show(rule, item, Audience(), facts, 129.0) and may_show(rule, item, Audience(), facts, 131.0)
    # a player of table 2 (the other room) sees it only once his own table finished it
    assert released_at(rule, item, Audience(2), Facts(other_room=rooms, pending={5: frozenset({2})})) is None


def test_a_player_never_sees_a_board_his_table_has_still_to_play() -> None:
    item = Item("board", 3, 7, 0, 1, 50.0, {"hands": {"N": "AKQ..."}})
    facts = Facts(pending={7: frozenset({1})}, done={(3, 7): 60.0})
    delay = Release(Rule.DELAY, 0)
    assert may_show(delay, item, Audience(None), facts, 51.0)
    assert not may_show(delay, item, Audience(1), facts, 10_000.0)
    assert released_at(delay, item, Audience(3), facts) == 60.0   # his own table: after it finished


def test_view_is_an_allow_list() -> None:
    item = Item("board", 1, 1, 0, 4, 1.0, {"hands": {}, "record": "ab" * 32, "password": "x", "dealer": "N"})
    assert set(item.view()) == {"kind", "table", "board", "index", "hands", "dealer"}


@pytest.mark.parametrize("rule, delay", [("after-field", 0), (Rule.DELAY, -1), (Rule.DELAY, True)])
def test_a_rule_that_cannot_be_used_is_refused(rule: object, delay: object) -> None:
    with pytest.raises(ReleaseError):
        Release(rule, delay)  # type: ignore[arg-type]
