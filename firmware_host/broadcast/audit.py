"""The judge of a live broadcast: what reached a listener, and when, against the tables' journals.

Written from ``docs/broadcast.md`` alone, apart from the service: it folds each table's journal (its
raw rows, the chain verified) into the items the table committed and finds when each table finished each
board (its first ``DB-77`` score row), then takes every message a listener received, in the order and
at the time it arrived, and says

* ``early``: an item shown before the rule allowed it (``after-field``: before the last table due to
  play the board had finished it, by its own score or by the session's word when the caller gives it,
  :meth:`Committed.with_session`; ``delay``: before the table's commit plus the delay; ``teams``:
  before the other room had finished it);
* ``differ``: an item shown that is not what the journal holds at that place (another card, a call on
  the wrong seat, a board the table never played);
* ``foreign``: a message on a topic that is not a released one (a table's play, anything else).

The tests run it on every listener of a real session (a spectator, a table's login) and on doctored
arrivals, which it must catch; the benchmark counts with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import TOPICS, Topics
from laws.broadcast.euchre import EuchreFeed
from laws.broadcast.feed import Item, TableFeed
from laws.broadcast.release import Release, Rule


@dataclass(frozen=True)
class Arrival:
    """One message a listener received: when (its own clock), on which topic, what."""

    t: float
    topic: str
    payload: bytes


@dataclass
class Committed:
    """What the journals say: every item by (table, board, index), and when each table finished each board."""

    items: dict[tuple[int, int, int], Item] = field(default_factory=dict)
    done: dict[tuple[int, int], float] = field(default_factory=dict)

    def with_session(self, lines: Mapping[tuple[int, int], float]) -> Committed:
        """The same, with the session's word (docs/broadcast.md, "The session's word"): each (table, board)
        whose line the session's journal holds, from when, counts as finished where the table's own journal
        has no score of it (a result entered by hand at the club)."""
        return Committed(dict(self.items), {**lines, **self.done})


@dataclass
class Verdict:
    shown: int = 0                 # items seen (each (table, board, index) once)
    cards: int = 0                 # of them, cards
    early: list[str] = field(default_factory=list)
    differ: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    first_seen: dict[tuple[int, int, int], float] = field(default_factory=dict)


def committed(journals: Iterable[str | Path], euchre: Iterable[int] = ()) -> Committed:
    """Fold every journal (chain verified; a broken one raises ``ValueError``); the ``k``-th journal is
    table ``k``, and the tables in ``euchre`` are euchre tables (folded hand by hand)."""
    out = Committed()
    euchre_tables = set(euchre)
    for k, path in enumerate(journals, 1):
        with Journal.open_readonly(path) as j:
            check = j.verify()
            if check.bad_seq is not None:
                raise ValueError(f"{path}: {check.message()}")
            feed: TableFeed | EuchreFeed = EuchreFeed(k) if k in euchre_tables else TableFeed(k)
            for row in j.rows():
                for item in feed.add(row.seq, row.kind, row.body, row.t):
                    out.items[(item.table, item.board, item.index)] = item
                    if item.kind == "result":
                        out.done.setdefault((item.table, item.board), item.t)
    return out


def allowed_from(release: Release, item: Item, facts: Committed, plays: Mapping[int, frozenset[int]],
                 other_room: Mapping[int, int], euchre: frozenset[int] = frozenset()) -> float | None:
    """When the rule allows ``item`` to a spectator, from the journals (None: never, so far)."""
    if release.rule is Rule.DELAY:
        return item.t + release.delay
    if release.rule is Rule.TEAMS:
        other = other_room.get(item.table)
        return None if other is None or (other, item.board) not in facts.done else \
            max(item.t, facts.done[(other, item.board)])
    tables = plays.get(item.board, frozenset())
    if item.table in euchre:     # a euchre hand is played at its own table alone
        tables = frozenset({item.table})
    if not tables or any((t, item.board) not in facts.done for t in tables):
        return None
    return max(item.t, *(facts.done[(t, item.board)] for t in tables))


def _comparable(view: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "names"}


def judge(arrivals: Iterable[Arrival], facts: Committed, release: Release, plays: Mapping[int, frozenset[int]],
          other_room: Mapping[int, int] | None = None, topics: Topics = TOPICS,
          euchre: Iterable[int] = ()) -> Verdict:
    """Every arrival against the journals and the rule (see the module docstring)."""
    verdict = Verdict()
    rooms = dict(other_room or {})
    euchre_tables = frozenset(euchre)
    for a in sorted(arrivals, key=lambda a: a.t):
        name = topics.parse(a.topic)
        if name is None or name.family != "spectate":
            verdict.foreign.append(f"{a.topic} at {a.t:.3f}")
            continue
        if a.topic == topics.spectate_event:
            continue
        read = read_json(a.payload)
        try:
            body = read.value
            views = body["items"]
            table, board = int(body["table"]), int(body["board"])
        except (ValueError, KeyError, TypeError) as exc:
            verdict.differ.append(f"{a.topic}: not a board message ({read.refusal or exc})")
            continue
        for view in views:
            key = (table, board, view.get("index"))
            item = facts.items.get(key)  # type: ignore[arg-type,unused-ignore]
            if item is None or view.get("table") != table or view.get("board") != board:
                verdict.differ.append(f"{a.topic}: item {key} is in no journal")
                continue
            if _comparable(view) != _comparable(item.view()):
                verdict.differ.append(f"{a.topic}: item {key} shown as {view}, journaled as {item.view()}")
                continue
            if key in verdict.first_seen:
                continue
            verdict.first_seen[key] = a.t
            verdict.shown += 1
            verdict.cards += item.kind == "card"
            when = allowed_from(release, item, facts, plays, rooms, euchre_tables)
            if when is None or a.t < when:
                said = "never allowed yet" if when is None else f"allowed from {when:.3f}"
                verdict.early.append(f"{item.kind} {key} shown at {a.t:.3f}, {said}")
    return verdict
