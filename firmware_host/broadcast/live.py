"""The live broadcast's core on the club's machine: the tables' committed play in, released items out.

Sans-I/O (no broker, no thread, no clock of its own): :meth:`Releaser.offer` takes one message a table
sent on its ``play`` topic (``docs/broadcast.md``, "The live feed") and the time now, and returns what
to publish for spectators; :meth:`Releaser.tick` does the same when only time has passed (the ``delay``
rule). The service (``service.py``) is the thin shell that moves those messages.

Each table's rows are folded by :class:`laws.broadcast.feed.TableFeed` into items; each item waits until
:func:`laws.broadcast.release.may_show` says a spectator may see it, and items are released in the order
the table committed them (a card is never shown before the call or card before it). What is released of
one board at one table is published as one retained message (the whole board so far, so a page that
opens late has it all) and written as that board's LIN record (``lin/board-<b>-table-<t>.lin``, again
whole at each release; ``lin/session.lin`` holds every finished one). Nothing that is not released is
ever published or written.

The session's facts the rule needs are the movement's (which tables play each board: ``plays``) and the
results the tables commit (a ``DB-77`` score is a table's board finished, at the time the table
committed it), and the session's word (:meth:`Releaser.learn`): the lines its journal holds, so a board
whose result at one table never came as that table's ``play`` (entered by hand at the club, or a
message the broadcast never got) is still released once the field is complete.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import TOPICS, Topics
from laws.bridge.tricks import trick_winner
from laws.broadcast.euchre import EuchreFeed, EuchreHand
from laws.broadcast.event_field import named_side
from laws.broadcast.feed import BoardPlay, Item, TableFeed
from laws.broadcast.lin import LinError, lin_record
from laws.broadcast.release import Audience, Facts, Release, may_show, released_at
from laws.cards import Card, Seat
from laws.duplicate.movement.model import Movement

log = logging.getLogger(__name__)

SPECTATOR = Audience(None)
# Rows one board (a euchre hand) at one table may hold: a bridge board's longest auction (319 calls), 52 cards,
# its claims and rulings fit with room to spare. More is a table login flooding its own board: refused, or the
# board's snapshot grew past the broker's 64 KiB packet and the broker disconnected the broadcast login for it.
ROWS_A_BOARD = 512
STARTS = ("board", "deal_start")   # the rows that start a bridge board, a euchre hand
Publication = tuple[str, str]   # (topic, payload): published retained, QoS 1


@dataclass
class _Play:
    """One board at one table as committed: its rows, its items, how many are released."""

    table: int
    board: int
    game: str = "bridge"
    rows: list[tuple[int, str, dict[str, Any], float]] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    rows_for: list[int] = field(default_factory=list)   # rows needed to fold items[:i+1]
    released: int = 0
    folded: TableFeed | EuchreFeed | None = None        # the released rows folded so far
    folded_rows: int = 0
    lin: str = ""                                       # the LIN record of a finished board, once written
    names: dict[Seat, str] = field(default_factory=dict)   # a euchre hand's players, as the night seated them


class Releaser:
    """The live broadcast's state (see the module docstring).

    Args:
        release: the director's rule for the evening.
        tables: table id (its login) -> table number; messages from any other id are refused.
        plays: board -> the table numbers that play it (the movement's; ``after-field`` waits for them).
        rooms: for a teams match, table number -> ``o`` (open room) or ``c`` (closed room).
        other_room: for ``teams``, each table number's counterpart in the other room.
        names: pair label (as the tables journal it, e.g. ``1 NS``) -> its two players (North or East
            first, South or West second), from the club's roster.
        lin_dir: the session's LIN folder (None: no LIN written).
        games: table id -> ``bridge`` (the default) or ``euchre``: a euchre table's rows are folded hand by
            hand (``laws.broadcast.euchre``), its hands written as JSON records in ``records_dir``.
        records_dir: the folder of euchre's JSON records (None: none written).
        euchre_names: table number -> who sits where there now (``euchre_names.NightNames.seats``): read
            once when a euchre hand starts there, and shown with that hand (None: no names).
        names_now: the ``names`` as they stand now (``bridge_names.EventNames.sides``, ``SessionNames.sides``):
            read each time a bridge board starts at a table, in place of ``names`` (None: ``names`` as given,
            for the whole session).
        topics: the topic tree.
        title: the event's name on the page.
        session: what names this session among every session the broker has carried (``session_id``;
            ``""``: none, so nothing an earlier run left is kept, :meth:`stale`).
    """

    def __init__(self, release: Release, tables: Mapping[str, int], plays: Mapping[int, frozenset[int]], *,
                 rooms: Mapping[int, str] | None = None, other_room: Mapping[int, int] | None = None,
                 names: Mapping[str, tuple[str, str]] | None = None, lin_dir: Path | None = None,
                 topics: Topics = TOPICS, title: str = "", games: Mapping[str, str] | None = None,
                 records_dir: Path | None = None,
                 euchre_names: Callable[[int], Mapping[Seat, str]] | None = None,
                 names_now: Callable[[], Mapping[str, tuple[str, str]]] | None = None, session: str = "") -> None:
        self.release = release
        self.session = session
        self.tables = dict(tables)
        self.plays = {int(b): frozenset(t) for b, t in plays.items()}
        self.rooms = dict(rooms or {})
        self.other_room = dict(other_room or {})
        self.names = dict(names or {})
        self.lin_dir = lin_dir
        self.games = dict(games or {})
        self.records_dir = records_dir
        self.euchre_names = euchre_names
        self.names_now = names_now
        self.topics = topics
        self.title = title
        self._feeds: dict[str, TableFeed | EuchreFeed] = {}
        self._last: dict[str, int] = {}
        self._last_t: dict[str, float] = {}         # table id -> the latest ``t`` of a message taken from it
        self.renumbered = 0                         # tables that numbered their rows from the start again
        self._open: dict[str, _Play] = {}           # table id -> the board it is on
        self._boards: dict[tuple[int, int], _Play] = {}
        self.done: dict[tuple[int, int], float] = {}
        self.session_done: dict[tuple[int, int], float] = {}   # the session's word (``learn``)
        self.refused = 0
        self.taken = 0
        self.missed = 0                             # rows of a board whose start this run never took
        self._missed_said: set[str] = set()
        self.lin_failed = 0

    # -- facts ------------------------------------------------------------------------------------

    def facts(self) -> Facts:
        """What the rule is judged against now."""
        done = {**self.session_done, **self.done}   # a table's own result, else the session's line for it
        pending: dict[int, frozenset[int]] = {}
        field_done: dict[int, float] = {}
        for board, tables in self.plays.items():
            left = frozenset(t for t in tables if (t, board) not in done)
            pending[board] = left
            if not left and tables:
                field_done[board] = max(done[(t, board)] for t in tables)
        return Facts(pending, done, self.other_room, field_done)

    def learn(self, lines: Mapping[tuple[int, int], float], now: float) -> list[Publication]:
        """The session's word now (``SessionFold.done``: each (table number, board) its journal holds a line
        for, and since when), and what it releases. A table whose own result never reached the broadcast
        (entered by hand at the club; a message lost) no longer holds its board back from the spectators;
        a line the director took off to be replayed holds it back again (what was shown stays shown)."""
        lines = {(int(t), int(b)): float(w) for (t, b), w in lines.items()}
        if lines == self.session_done:
            return []
        self.session_done = lines
        return self.tick(now)

    def event_message(self) -> Publication:
        """The retained ``spectate/event`` message: the event's title, rule and tables."""
        body = {"title": self.title, "rule": self.release.rule.value, "delay": self.release.delay,
                "tables": sorted(set(self.tables.values())), "rooms": {str(t): r for t, r in self.rooms.items()}}
        return self.topics.spectate_event, json.dumps(body, separators=(",", ":"), sort_keys=True)

    # -- in ---------------------------------------------------------------------------------------

    def offer(self, topic: str, payload: bytes | str, now: float, *, retained: bool = False) -> list[Publication]:
        """One message from a table's ``play`` topic; what to publish now. A message that is not a
        known table's play, or that cannot be read, is refused (counted, logged once each) and changes
        nothing; a repeat (QoS 1 is at least once) is dropped.

        ``retained``: the broker kept it retained. A table sends ``play`` unretained; a retained one (a
        table login's own doing) would be given again at every reconnection, so it is refused.

        A ``seq`` at or below the newest taken from that table is a repeat when its ``t`` is not later
        than every ``t`` taken from it (a message sent again carries the ``t`` it was queued with); when it
        is later, the table numbers its rows from the start again (restarted with a fresh journal): taken,
        as a new numbering, said once each time (docs/broadcast.md)."""
        name = self.topics.parse(topic)
        if name is None or name.family != "table" or name.kind != "play" or name.table not in self.tables:
            return self._refuse(topic, "not a known table's play topic")
        if retained:
            return self._refuse(topic, "a retained play message (a table sends play unretained; the broker "
                                       "would give it again at every reconnection)")
        read = read_json(payload)
        if read.refusal is not None:
            return self._refuse(topic, read.refusal.why)
        msg = read.value
        body = msg.get("body") if isinstance(msg, dict) else None
        seq, t = (msg.get("seq"), msg.get("t")) if isinstance(msg, dict) else (None, None)
        if (not isinstance(body, dict) or body.get("row") not in ("event", "ruling")
                or not isinstance(body.get("body"), dict) or isinstance(seq, bool) or not isinstance(seq, int)
                or isinstance(t, bool) or not isinstance(t, (int, float)) or msg.get("table") != name.table):
            return self._refuse(topic, "not a play message (table, seq, t, body.row, body.body)")
        tid = name.table
        last = self._last.get(tid, -1)
        if seq <= last:
            if t <= self._last_t.get(tid, float("inf")):
                return []
            self.renumbered += 1
            log.warning("broadcast: %s numbers its rows from %d again, below %d, the newest taken from it, in a "
                        "message queued after every one taken (a table restarted with a fresh journal): taken "
                        "as a new numbering", tid, seq, last)
        self._last[tid] = seq
        self._last_t[tid] = max(float(t), self._last_t.get(tid, float("-inf")))
        held = self._open.get(tid)
        if held is not None and len(held.rows) >= ROWS_A_BOARD and body["body"].get("type") not in STARTS:
            return self._refuse(topic, f"table {tid} sent more than {ROWS_A_BOARD} rows of board {held.board} "
                                       "(a table's board has far fewer): the rest of that board is not shown")
        row = (seq, str(body["row"]), dict(body["body"]), float(t))
        game = self.games.get(tid, "bridge")
        feed = self._feeds.setdefault(tid, EuchreFeed(self.tables[tid]) if game == "euchre"
                                      else TableFeed(self.tables[tid]))
        try:
            items = feed.add(*row)
        except (KeyError, ValueError, TypeError) as exc:
            return self._refuse(topic, f"a row the feed cannot fold ({type(exc).__name__}: {exc})")
        self.taken += 1
        cur = feed.current
        if cur is None:
            self.missed += 1
            if tid not in self._missed_said:
                self._missed_said.add(tid)
                log.warning("broadcast: %s sent rows of a board whose start the broadcast never took (it began "
                            "before the broadcast's first connection, or while a broker without its session "
                            "was restarted): not shown, counted as missed", tid)
            return []
        if cur.table != self.tables[tid]:
            return self._refuse(topic, f"table {tid} sent a board of table {cur.table}")
        play = self._open.get(tid)
        if play is None or (play.table, play.board) != (cur.table, cur.board) or \
                (items and items[0].kind in ("board", "deal")):
            play = _Play(cur.table, cur.board, game)
            try:
                if game == "euchre" and self.euchre_names is not None:
                    play.names = dict(self.euchre_names(cur.table))
                elif game != "euchre" and self.names_now is not None:
                    self.names = dict(self.names_now())
            except Exception:   # the names are a courtesy: a hand is never held up for them
                log.exception("broadcast: the players' names at table %d could not be read", cur.table)
            self._boards[(cur.table, cur.board)] = play
            self._open[tid] = play
        play.rows.append(row)
        for item in items:
            play.items.append(item)
            play.rows_for.append(len(play.rows))
            if item.kind == "result" and (item.table, item.board) not in self.done:
                self.done[(item.table, item.board)] = item.t
        return self._release_board(cur.board, now)

    def tick(self, now: float) -> list[Publication]:
        """What time alone releases: the ``delay`` rule's, and under any rule an item whose release time
        (a table's clock) was still ahead of ours when its fact arrived."""
        facts = self.facts()
        out: list[Publication] = []
        for play in sorted(self._boards.values(), key=lambda p: (p.board, p.table)):
            if play.released < len(play.items):
                out += self._release_play(play, facts, now)
        return out

    def next_due(self) -> float | None:
        """The earliest time an item still held will be released (None: none is due by time alone)."""
        facts = self.facts()
        due = [released_at(self.release, p.items[p.released], SPECTATOR, self._facts_for(p, facts))
               for p in self._boards.values() if p.released < len(p.items)]
        known = [d for d in due if d is not None]
        return min(known) if known else None

    # -- out --------------------------------------------------------------------------------------

    def _refuse(self, topic: str, why: str) -> list[Publication]:
        self.refused += 1
        if self.refused <= 20:
            log.warning("broadcast: refused a message on %s: %s", topic[:200], why)
        return []

    def _release_board(self, board: int, now: float) -> list[Publication]:
        facts = self.facts()
        out: list[Publication] = []
        for (_t, b), play in sorted(self._boards.items()):
            if b == board:
                out += self._release_play(play, facts, now)
        return out

    def _facts_for(self, play: _Play, facts: Facts) -> Facts:
        """A euchre hand is played at its own table alone: its "field" is that table (``after-field``
        shows it once the hand's result is in there)."""
        if play.game != "euchre":
            return facts
        key = (play.table, play.board)
        done = self.done.get(key)
        return Facts({play.board: frozenset() if done is not None else frozenset({play.table})},
                     {key: done} if done is not None else {}, facts.other_room,
                     {play.board: done} if done is not None else {})

    def _release_play(self, play: _Play, facts: Facts, now: float) -> list[Publication]:
        """Release what may be shown of one board at one table, in the order committed."""
        facts = self._facts_for(play, facts)
        before = play.released
        while play.released < len(play.items) and may_show(self.release, play.items[play.released], SPECTATOR,
                                                          facts, now):
            play.released += 1
        if play.released == before:
            return []
        snapshot = self._snapshot(play)
        if play.game == "euchre":
            self._write_record(play, snapshot[1])
        else:
            self._write_lin(play)
        return [snapshot]

    def _seat_names(self, play: _Play) -> dict[Seat, str]:
        if play.game == "euchre":
            return play.names
        first = play.items[0].data if play.items else {}
        section = first.get("section")
        out: dict[Seat, str] = {}
        for label, seats in ((first.get("ns"), (Seat.N, Seat.S)), (first.get("ew"), (Seat.E, Seat.W))):
            pair = named_side(self.names, section, str(label)) if label is not None else None
            if pair:
                out.update(zip(seats, pair))
        return out

    def _snapshot(self, play: _Play) -> Publication:
        views = []
        names = {s.value: n for s, n in self._seat_names(play).items()}
        for item in play.items[:play.released]:
            view = item.view()
            if item.kind in ("board", "deal") and names:
                view["names"] = names
            views.append(view)
        finished = any(v["kind"] == "result" for v in views)
        folded = self.released_board(play)
        body = {"game": play.game, "table": play.table, "board": play.board, "room": self.rooms.get(play.table, "o"),
                "release": self._stamp(), "items": views, "finished": finished,
                "summary": euchre_summary(folded) if isinstance(folded, EuchreHand) else summary(folded)}
        return self.topics.spectate_board(play.table, play.board), json.dumps(body, separators=(",", ":"))

    def snapshots(self) -> list[Publication]:
        """Every board released so far, whole, as first published (sent again on each connection)."""
        return [self._snapshot(p) for _k, p in sorted(self._boards.items()) if p.released]

    def _stamp(self) -> dict[str, Any]:
        """Under what a board message was released: this session, by this rule."""
        return {"session": self.session, "rule": self.release.rule.value, "delay": self.release.delay}

    def stale(self, topic: str, payload: bytes | str) -> bool:
        """Whether a retained ``spectate`` message found on the broker at the start is to be cleared: every
        one but the event's (which this run replaces) and a board released in this very session by this
        very rule (this service, restarted). A board of last week's session, of a run under another rule
        (``delay`` then ``after-field``), with no stamp, or that cannot be read, is not released by the
        rule now in force, whose facts start empty: it goes, and comes back once this run releases it."""
        if topic == self.topics.spectate_event:
            return False
        if any(self.topics.spectate_board(t, b) == topic for (t, b), p in self._boards.items() if p.released):
            return False    # this run's own (found again after a reconnection)
        read = read_json(payload)
        body = read.value if read.refusal is None else None
        stamp = body.get("release") if isinstance(body, dict) else None
        return not (self.session and stamp == self._stamp()
                    and topic == self.topics.spectate_board(body.get("table"), body.get("board")))

    def released_board(self, play: _Play) -> BoardPlay | EuchreHand | None:
        """The board as far as it is released, folded from its released rows alone (for LIN and the
        summary); the rows are folded once each, as they are released."""
        if not play.released:
            return None
        if play.folded is None:
            play.folded = EuchreFeed(play.table) if play.game == "euchre" else TableFeed(play.table)
        need = play.rows_for[play.released - 1]
        if play.folded_rows < need:
            play.folded.add_all(play.rows[play.folded_rows:need])
            play.folded_rows = need
        if isinstance(play.folded, EuchreFeed):
            return play.folded.hands[-1] if play.folded.hands else None
        return play.folded.boards[-1] if play.folded.boards else None

    def _write_record(self, play: _Play, text: str) -> None:
        """A euchre hand's JSON record: the released message, whole."""
        if self.records_dir is None:
            return
        try:
            _write(self.records_dir / f"table-{play.table:02d}-hand-{play.board:03d}.json", text + "\n")
        except OSError as exc:
            self.lin_failed += 1
            log.warning("broadcast: hand %d at table %d: record not written (%s)", play.board, play.table, exc)

    def _write_lin(self, play: _Play) -> None:
        if self.lin_dir is None:
            return
        board = self.released_board(play)
        if not isinstance(board, BoardPlay):
            return
        try:
            record = lin_record(board, self._seat_names(play), self.rooms.get(play.table, "o"))
            _write(self.lin_dir / f"board-{play.board:02d}-table-{play.table:02d}.lin", record + "\n")
            if board.finished and record != play.lin:
                play.lin = record
                whole = [p.lin + "\n" for p in sorted(self._boards.values(), key=lambda p: (p.board, p.table))
                         if p.lin]
                _write(self.lin_dir / "session.lin", "".join(whole))
        except (LinError, OSError) as exc:
            self.lin_failed += 1
            log.warning("broadcast: board %d at table %d: LIN not written (%s)", play.board, play.table, exc)

    def released_items(self) -> dict[tuple[int, int], list[Item]]:
        """Every (table, board)'s released items (for tests and the benchmark's judge)."""
        return {k: p.items[:p.released] for k, p in self._boards.items()}


def session_id(folder: Path) -> str:
    """A session's name on the spectators' topics: a digest of its folder's full path (the folder itself is
    not told to spectators). Next week's session has its own folder, so its own name."""
    return hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:16]


def plays_of(movement: Movement) -> dict[int, frozenset[int]]:
    """Board -> the tables that play it (both pairs present), from the session's movement."""
    out: dict[int, set[int]] = {}
    for s in movement.seatings:
        if s.played:
            for b in movement.boards_of(s.group):
                out.setdefault(b, set()).add(s.table)
    return {b: frozenset(t) for b, t in out.items()}


def teams_rooms(text: str) -> tuple[dict[int, str], dict[int, int]]:
    """``1:2,3:4`` (each match's open-room table, then its closed-room table) as (rooms, other_room).

    Raises:
        ValueError: naming the part that is not two different table numbers, or a table named twice.
    """
    rooms: dict[int, str] = {}
    other: dict[int, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        left, sep, right = part.partition(":")
        if not sep or not left.strip().isdigit() or not right.strip().isdigit() or int(left) == int(right) \
                or int(left) < 1 or int(right) < 1:
            raise ValueError(f"{part!r}: a match is OPEN:CLOSED, two different table numbers (e.g. 1:2)")
        a, b = int(left), int(right)
        if a in rooms or b in rooms:
            raise ValueError(f"{part!r}: table {a if a in rooms else b} is in two matches")
        rooms[a], rooms[b] = "o", "c"
        other[a], other[b] = b, a
    if not rooms:
        raise ValueError("no match given: OPEN:CLOSED[,OPEN:CLOSED...], e.g. 1:2,3:4")
    return rooms, other


def euchre_summary(hand: EuchreHand) -> dict[str, Any]:
    """The every-table view of a euchre hand as far as it is released: trump and its maker, tricks each
    side has won, cards played, the result."""
    return {"trump": hand.trump, "maker": hand.maker, "alone": hand.alone, "tricks": hand.won(),
            "cards": len(hand.cards), "result": None if hand.tricks is None else
            {"tricks": hand.tricks, "makers": hand.makers}}


def summary(board: BoardPlay | None) -> dict[str, Any]:
    """What the page's every-table view shows of a board as far as it is released: the contract once
    the auction is over (``BP-22``), the tricks each side has won, the cards played, the score."""
    if board is None:
        return {}
    won = {"NS": 0, "EW": 0}
    trump = None if board.contract in (None, "Pass") else _strain(str(board.contract))
    for k in range(len(board.cards) // 4):
        trick = board.cards[4 * k: 4 * k + 4]
        winner = trick_winner({seat: Card(c[0], c[1]) for seat, c in trick}, trick[0][0], trump)
        won[winner.side.value] += 1
    return {"contract": board.contract, "declarer": board.declarer.value if board.declarer else None,
            "tricks": won, "cards": len(board.cards), "score": board.score}


def _strain(contract: str) -> str | None:
    strain = contract.rstrip("X")[1:]
    return None if strain in ("N", "NT") else strain[:1]


def _write(path: Path, text: str) -> None:
    """Whole or not at all: a reader never sees half a record."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
