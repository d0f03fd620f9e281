"""A session's state as a fold of its journal's records: pure (no I/O, no clock), so replaying the same
records gives the same state, and a restart rebuilds the session from its journal alone.

Records are the JSON bodies of the journal's ``event`` rows (``docs/session.md`` gives each one):
``result`` (a table's confirmed result, or one the director entered), ``round`` (the director called
"move for round N"), ``correct`` (the director changed a result), ``cancel`` (the director took a line
off), ``adjust`` (an artificial or assigned score, ``DB-12``), ``regroup`` (the director put a line in
another fouled-board group), ``players`` (a pair's two players named: by the director, the table's page
or its camera; a naming with a ``round`` names who sits for the pair from that round on, one without
from round 1, and a later naming stands over an earlier one for the rounds both name; the setup's
``names`` follow the newest). :meth:`SessionState.check` says what is wrong with a record ("" when
nothing is) without changing anything; :meth:`SessionState.apply` applies a record that passed.

Rules we state:

* **Lines.** A traveller line is a board and the two pairs that played it; its key is
  ``"<board>/<NS pair>/<EW pair>"``. A pair plays a board once: a second result for the same board and
  pair is refused, unless it is the same message again (same table and journal seq, same result:
  at-least-once delivery), which is dropped as a repeat. A number that comes again with another result
  (a table whose journal was replaced) is not a repeat: it is checked as a new message and the answer
  says the number was reused.
* **The director's decision stands.** A table's result the director took off (``cancel``) does not come
  back with a resend of the same board from the same table (whatever its number); the director may
  enter a result himself.
* **Where a result may come from.** The movement must give that table that board in that round, with
  those pairs; the board's record (its fingerprint) must be the session's; any round of the movement is
  taken, whatever round the director has called (a late table holds nobody else).
* **A table's round** is the first round, up to the one called, in which it still has a board without a
  line; when it has none, the round called. A table behind the round called is *slow*.
* **Fouled boards** (``DB-87``): a copy of a board is followed in round order (results of one round in
  the order they came). The record's form is group ``A``. A result whose table called a foul starts a new
  group there (the table and round of the first wrong card is the boundary), unless the copy is already
  in a fouled group, which the board then keeps; a result that verified brings the copy back to group
  ``A`` (the board was put right); a result neither verified nor fouled (a claim, a table without a
  camera) keeps the copy's group. A board of which every table has its own copy (a barometer dealt by
  each table's shoe) has one copy per table. The director may put a line in another group (``regroup``).
* **What a table's page may show** (``laws.duplicate.release``): a board's traveller only when no pair
  that has sat at the table up to the round called (all who have had its page's key) still has it to
  play, and at least one of them has played it.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from laws.cards import Card, Seat
from laws.duplicate.deal import board_index, commitment
from laws.duplicate.movement import Movement, Pair, Seating
from laws.duplicate.release import page_audience, released
from laws.scoring import Artificial, Assigned, Line, Played, parse_contract
from laws.scoring.session import Result
from laws.session.duplicate.checks import (
    adjusted_value,
    check,
    contract_code,
    corrected,
    correction_problem,
    result_content,
    source_seq,
)
from laws.session.duplicate.spec import (
    SessionSetup,
    boards_by_number,
    check_setup,
    fields_of,
    label,
    pair_of_label,
)

GROUP_A = "A"
ARTIFICIAL_WORDS = {"60": "average plus", "50": "average", "40": "average minus"}


@dataclass(frozen=True)
class Entry:
    """One traveller line as the session keeps it."""

    key: str
    board: int
    round: int
    table: int
    ns: Pair
    ew: Pair
    kind: str                        # "played", "artificial" or "assigned"
    contract: str = ""               # "4SX", "Pass"
    declarer: str = ""
    tricks: int = 0
    lead: str = ""
    auction: tuple[str, ...] = ()
    play: tuple[str, ...] = ()
    record: str = ""
    verified: bool = False
    foul: Mapping[str, Any] | None = None
    source: str = ""
    club_table: str = ""
    t: float = 0.0
    order: int = 0
    adjusted: tuple[str, str] = ("", "")   # artificial percentages or assigned scores, as text
    by: str = ""                           # the director who entered, corrected or adjusted it
    why: str = ""
    original: Entry | None = None          # the played result an adjustment replaced
    hand: bool = False                     # entered by hand (the director, or the table's page), not sent
    corrected: tuple[str, str] = ("", "")  # a line entered by hand then corrected: who corrected it and why
    # (``by`` and ``why`` stay who entered it)

    @property
    def pairs(self) -> tuple[Pair, Pair]:
        return self.ns, self.ew


def line_key(board: int, ns: Pair, ew: Pair) -> str:
    return f"{board}/{label(ns)}/{label(ew)}"


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class SessionState:
    """The session as its records have made it. Build one with :meth:`start`, then :meth:`apply` records."""

    def __init__(self, setup: SessionSetup, movement: Movement) -> None:
        self.setup = setup
        self.movement = movement
        self.records = boards_by_number(setup.boards)
        self.fingerprints = {n: b.fingerprint for n, b in self.records.items()}
        self.entries: dict[str, Entry] = {}
        self.by_board: dict[int, dict[str, Entry]] = {b: {} for b in movement.boards()}
        self.by_pair: dict[tuple[int, Pair], str] = {}
        self._due = {b: movement.due(b) for b in movement.boards()}
        self.fields = fields_of(movement)
        self.commitment = commitment(setup.boards)
        self.index = board_index(setup.boards)        # each board's hash: a table checks its boards alone
        self.file = setup.file                        # the whole file's commitment, when it holds more boards
        self._line_cache: dict[tuple[str, str], tuple[Entry, Line]] = {}
        self.sources: dict[str, tuple[Any, ...]] = {}   # a table's message number -> the result it carried
        # (club table, board) -> who took a table's result off and why: a resend never brings it back
        # (club table, board) -> the director's words, the table's journal row and the result cancelled
        self.cancelled: dict[tuple[str, int], tuple[str, int, Any]] = {}
        self.called = 1
        self.regroups: dict[str, str] = {}
        self.players: dict[str, tuple[dict[str, str], ...]] = {}   # pair label -> its two players, newest naming
        # pair label -> every naming in journal order, each with the first round it names (a substitute who
        # comes in at round 4 plays rounds 4 on; the players of rounds 1-3 keep their lines)
        self.namings: dict[str, list[tuple[int, tuple[dict[str, str], ...]]]] = {}
        self._first_names = dict(setup.names)      # the setup's own names: every round nobody named
        self.conflicts: dict[str, Entry] = {}          # a table's own result held against a hand-entered line
        self.taken_off: dict[str, str] = {}            # line key -> "replay" or "director"
        self._off_pairs: dict[tuple[int, Pair], str] = {}
        self.order = 0
        self.number_of = dict(setup.tables)
        self.club_table_of = {n: tid for tid, n in setup.tables.items()}
        self._plays: dict[Pair, set[int]] = {}
        for s in movement.seatings:
            if s.played:
                for p in s.pairs:
                    self._plays.setdefault(p, set()).update(movement.boards_of(s.group))

    @classmethod
    def start(cls, setup: SessionSetup) -> SessionState:
        """A fresh session (``check_setup`` refuses a setup that cannot be played)."""
        return cls(setup, check_setup(setup))

    # -- reading ------------------------------------------------------------------------------------

    def lines_of(self, board: int) -> list[Entry]:
        """The board's lines in the order its copy travelled (round, then arrival)."""
        return sorted(self.by_board.get(board, {}).values(), key=lambda e: (e.round, e.order))

    def plays(self, pair: Pair) -> set[int]:
        """Every board ``pair`` plays in the movement."""
        return self._plays.get(pair, set())

    def still_to_play(self, pair: Pair) -> set[int]:
        """The boards ``pair`` plays in the movement and has no line on yet (a line taken off for the
        director to score is not to be played again)."""
        return {b for b in self.plays(pair)
                if (b, pair) not in self.by_pair and self._off_pairs.get((b, pair)) != "director"}

    def board_finished(self, board: int) -> bool:
        """Every pair that plays ``board`` in the movement has its line on it (or the director took the line
        off to score it himself): nobody is still to play it, so its hands may be shown to anyone."""
        return all((board, s.ns) in self.by_pair or self._off_pairs.get((board, s.ns)) == "director"
                   for s in self.movement.seatings
                   if s.played and s.ns is not None and board in self.movement.boards_of(s.group))

    def table_round(self, table: int) -> int:
        """The table's round: the first round up to the one called with a board still without a line."""
        for r in range(1, self.called + 1):
            s = self.movement.at(r, table)
            if s is not None and s.played and self.unplayed_at(s):
                return r
        return self.called

    def unplayed_at(self, s: Seating) -> list[int]:
        """The boards of a seating without a line for its pairs (a line the director took off is not
        counted: it never moves a table back to a past round; ``taken_off_at`` lists it)."""
        assert s.ns is not None
        return [b for b in self.movement.boards_of(s.group)
                if (b, s.ns) not in self.by_pair and (b, s.ns) not in self._off_pairs]

    def taken_off_at(self, table: int) -> dict[str, list[int]]:
        """The boards of the table's seatings up to the round called whose line the director took off, by
        mark: ``replay`` (to be played again) and ``director`` (the director scores it)."""
        out: dict[str, list[int]] = {"replay": [], "director": []}
        if not self._off_pairs:   # the usual case, at every tick: nothing taken off
            return out
        for r in range(1, self.called + 1):
            s = self.movement.at(r, table)
            if s is not None and s.played:
                for b in self.movement.boards_of(s.group):
                    mark = self._off_pairs.get((b, s.ns)) if s.ns is not None else None
                    if mark is not None:
                        out[mark].append(b)
        return out

    def replay_at(self, table: int) -> list[tuple[int, int]]:
        """``(round, board)`` of the table's seatings up to the round called whose line the director took
        off to be replayed. The session holds no result for them, though they are in no ``left``: a table
        that still has one in play plays it on, never abandons it as a board the session holds
        (``docs/mqtt.md``, the seating's ``replay``)."""
        if not self._off_pairs:   # the usual case, at every tick: nothing taken off
            return []
        out = []
        for r in range(1, self.called + 1):
            s = self.movement.at(r, table)
            if s is not None and s.played and s.ns is not None:
                out += [(r, b) for b in self.movement.boards_of(s.group) if self._off_pairs.get((b, s.ns)) == "replay"]
        return out

    def finished(self) -> bool:
        """Every round called, every line in, nothing taken off and no conflict waiting."""
        return (self.called == self.movement.rounds and not self.taken_off and not self.conflicts
                and all(not self.unplayed_at(s) for s in self.movement.seatings if s.played))

    def slow_tables(self) -> list[int]:
        return [t for t in range(1, self.movement.tables + 1) if self.table_round(t) < self.called]

    def visible_boards(self, table: int) -> set[int]:
        """The boards whose travellers the table's page may show now: released to every pair that has sat
        at the table up to the round called (``laws.duplicate.release``; see the module docstring)."""
        audience = page_audience(self.movement, table, max(self.called, self.table_round(table)))
        return set(released(audience, self.plays, self.still_to_play))

    def groups(self) -> dict[str, str]:
        """Each line's fouled-board group (see the module docstring)."""
        out: dict[str, str] = {}
        for board in self.movement.boards():
            out.update(self.board_groups(board))
        return out

    def board_groups(self, board: int) -> dict[str, str]:
        """The groups of one board's lines."""
        out: dict[str, str] = {}
        copies: dict[int, list[Entry]] = {}
        for e in self.lines_of(board):
            copies.setdefault(e.table if self.movement.copies > 1 else 0, []).append(e)
        letters = iter(string.ascii_uppercase[1:] + string.ascii_lowercase)
        for copy in sorted(copies):
            form = GROUP_A
            for e in copies[copy]:
                if e.kind == "played" and e.foul is not None and form == GROUP_A:
                    form = next(letters, "z")
                elif e.kind == "played" and e.verified:
                    form = GROUP_A
                out[e.key] = self.regroups.get(e.key, form)
        return out

    def lines(self) -> list[Line]:
        """The traveller lines the scoring takes (``laws.scoring.score_session``)."""
        return [ln for b in self.movement.boards() for ln in self.board_lines(b)]

    def board_lines(self, board: int) -> list[Line]:
        """One board's traveller lines for the scoring (each entry's line is built once)."""
        groups = self.board_groups(board)
        out = []
        for e in self.lines_of(board):
            group = groups.get(e.key, GROUP_A)
            cached = self._line_cache.get((e.key, group))
            if cached is None or cached[0] is not e:
                cached = (e, self._line(e, group))
                self._line_cache[(e.key, group)] = cached
            out.append(cached[1])
        return out

    @staticmethod
    def _line(e: Entry, group: str) -> Line:
        result: Result
        if e.kind == "artificial":
            result = Artificial(Fraction(e.adjusted[0]), Fraction(e.adjusted[1]))
        elif e.kind == "assigned":
            result = Assigned(int(e.adjusted[0]), int(e.adjusted[1]) if e.adjusted[1] else None)
        else:
            contract = None if e.contract == "Pass" else parse_contract(e.contract)
            result = Played(contract, Seat(e.declarer) if e.declarer else None, e.tricks,
                            Card.parse(e.lead) if e.lead else None)
        return Line(e.board, e.ns, e.ew, result, group)

    def due(self) -> dict[int, int]:
        """Results due per board (the movement's count: the Neuberg N)."""
        return dict(self._due)

    def reused(self, rec: Mapping[str, Any]) -> str:
        """Words for a result whose message number (``source``) carried another result before (a table
        whose journal was replaced numbers its messages from 1 again), or "" when it did not."""
        source = str(rec.get("source") or "")
        before = self.sources.get(source)
        if not source or before is None or before == result_content(rec):
            return ""
        return (f"message number {source} was used before for board {before[0]}: this result (board "
                f"{rec.get('board')}) is taken as a new message (was the table's journal replaced?)")

    # -- checking -----------------------------------------------------------------------------------

    def check(self, rec: Mapping[str, Any]) -> str:
        """What is wrong with a record ("" when nothing); ``"repeat"`` for a message seen before
        (``checks``: one small function per kind of record)."""
        return check(self, rec)

    # -- applying -----------------------------------------------------------------------------------

    def apply(self, rec: Mapping[str, Any]) -> None:
        """Apply a record that :meth:`check` passed."""
        kind = rec["type"]
        if kind == "round":
            self.called = int(rec["round"])
        elif kind == "uncall":
            self.called = int(rec["round"]) - 1
        elif kind == "result":
            e = self._entry(rec)
            held = self.entries.get(e.key)
            if held is not None and held.hand and not e.hand:   # never both scored: the director chooses
                self.conflicts[e.key] = e
            else:
                self._back_on(e.key)
                self._put(e)
        elif kind == "resolve":
            e = self.conflicts.pop(str(rec["key"]))
            if rec["keep"] == "table":
                self._put(replace(e, order=self.entries[e.key].order))
        elif kind == "correct":
            e = self.entries[rec["key"]]
            who = (str(rec.get("by", "")), str(rec.get("why", "")))
            now = corrected(e, rec)
            self._put(replace(
                e, contract=str(contract_code(now["contract"])), declarer=str(now["declarer"] or ""),
                tricks=int(now["tricks"]), lead=str(now["lead"] or ""),
                by=e.by if e.hand else who[0], why=e.why if e.hand else who[1],
                corrected=who if e.hand else e.corrected))
        elif kind == "cancel":
            e = self.entries.pop(rec["key"])
            if e.kind == "played" and e.source and e.club_table:
                words = f"by {rec.get('by') or 'the director'}" + (f": {rec['why']}" if rec.get("why") else "")
                # ``then: "replay"`` said: a later row of the table is the board replayed, whatever it holds.
                # Left out: marked to be replayed too (below), but the result taken off, sent again (a restart's
                # resend), is not taken again (docs/session.md)
                replay = rec.get("then") == "replay"
                self.cancelled[(e.club_table, e.board)] = (words, source_seq(e.source),
                                                          None if replay else self.sources.get(e.source))
            self.by_board[e.board].pop(e.key, None)
            for p in e.pairs:
                self.by_pair.pop((e.board, p), None)
            if e.original is not None:
                self._put(e.original)
            else:
                mark = "director" if rec.get("then") == "director" else "replay"
                self.taken_off[e.key] = mark
                for p in e.pairs:
                    self._off_pairs[(e.board, p)] = mark
        elif kind == "adjust":
            self._adjust(rec)
        elif kind == "regroup":
            self.regroups[str(rec["key"])] = str(rec["group"])
        elif kind == "players":
            pair = str(rec["pair"])
            self.players[pair] = tuple({k: str(p.get(k, "")) for k in ("name", "member", "federation")}
                                       for p in rec["players"])
            self.namings.setdefault(pair, []).append((int(rec.get("round") or 1), self.players[pair]))
            names = (self.players[pair][0]["name"], self.players[pair][1]["name"])
            self.setup = replace(self.setup, names={**self.setup.names, pair: names})

    def players_of(self, pair: str) -> list[dict[str, str]]:
        """The players named for ``pair`` (the setup's names when none was journaled; [] when unnamed)."""
        if pair in self.players:
            return [dict(p) for p in self.players[pair]]
        return [{"name": n, "member": "", "federation": ""} for n in self.setup.names.get(pair, ()) if n]

    def players_in(self, pair: str, rnd: int) -> list[dict[str, str]]:
        """Who sat for ``pair`` in round ``rnd``: the newest naming whose first round is ``rnd`` or earlier
        (a naming at a table in round 4 names who sits there from round 4 on, not who played rounds 1-3);
        the setup's names when no naming reaches back that far; [] when unnamed."""
        for first, players in reversed(self.namings.get(pair, ())):
            if first <= rnd:
                return [dict(p) for p in players]
        return [{"name": n, "member": "", "federation": ""} for n in self._first_names.get(pair, ()) if n]

    def everyone_of(self, pair: str) -> list[dict[str, str]]:
        """Every player who sat for ``pair`` in a round it plays, in the order they first sat (a
        substitute after the two who began); a member once, a visitor once by name. The ranking lists
        them all. A pair the movement never seats has its newest naming."""
        rounds = sorted({s.round for s in self.movement.seatings if s.played and any(str(p) == pair for p in s.pairs)})
        out: list[dict[str, str]] = []
        seen: set[tuple[str, str]] = set()
        for r in rounds or [self.movement.rounds]:
            for p in self.players_in(pair, r):
                who = ("member", p["member"]) if p.get("member") else ("name", p["name"])
                if who not in seen:
                    seen.add(who)
                    out.append(p)
        return out

    def _back_on(self, key: str) -> None:
        """A line taken off has a result again (replayed, entered by hand or adjusted)."""
        if self.taken_off.pop(key, None) is not None:
            board, ns, ew = key.split("/")
            for p in (pair_of_label(ns), pair_of_label(ew)):
                self._off_pairs.pop((int(board), p), None)

    def _put(self, e: Entry) -> None:
        self.entries[e.key] = e
        self.by_board.setdefault(e.board, {})[e.key] = e
        for p in e.pairs:
            self.by_pair[(e.board, p)] = e.key

    def _entry(self, rec: Mapping[str, Any]) -> Entry:
        ns, ew = pair_of_label(rec["ns"]), pair_of_label(rec["ew"])
        self.order += 1
        if rec.get("source"):
            self.sources[str(rec["source"])] = result_content(rec)
        return Entry(line_key(rec["board"], ns, ew), int(rec["board"]), int(rec["round"]), int(rec["table_number"]),
                     ns, ew, "played", str(contract_code(rec["contract"])), str(rec.get("declarer") or ""), int(rec["tricks"]),
                     str(rec.get("lead") or ""), tuple(rec.get("auction") or ()), tuple(rec.get("play") or ()),
                     str(rec.get("record") or ""), bool(rec.get("verified")), rec.get("foul") or None,
                     str(rec.get("source", "")), str(rec.get("table") or self.club_table_of.get(rec["table_number"], "")),
                     float(rec.get("t", 0.0)), self.order, by=str(rec.get("by", "")),
                     why=str(rec.get("why", "")) if rec.get("hand") else "", hand=bool(rec.get("hand")))

    def _adjust(self, rec: Mapping[str, Any]) -> None:
        ns, ew = pair_of_label(rec["ns"]), pair_of_label(rec["ew"])
        board = int(rec["board"])
        key = line_key(board, ns, ew)
        old = self.entries.get(key)
        seating = next(s for s in self.movement.seatings
                       if s.played and (s.ns, s.ew) == (ns, ew) and board in self.movement.boards_of(s.group))
        self.order += 1
        self._back_on(key)
        original = old.original if old is not None and old.original is not None else (
            old if old is not None and old.kind == "played" else None)
        self._put(Entry(key, board, seating.round, seating.table, ns, ew, str(rec["kind"]),
                        order=old.order if old else self.order, t=float(rec.get("t", 0.0)),
                        adjusted=(adjusted_value(rec, "ns_value"), adjusted_value(rec, "ew_value")),
                        by=str(rec.get("by", "")), why=str(rec.get("why", "")), original=original,
                        club_table=self.club_table_of.get(seating.table, "")))


def replay(setup: SessionSetup, records: Iterable[Mapping[str, Any]]) -> tuple[SessionState, list[str]]:
    """The state the records make, and what could not be applied (a record the checks now refuse)."""
    state = SessionState.start(setup)
    skipped = []
    for rec in records:
        problem = state.check(rec)
        if problem and rec.get("type") == "correct" and rec.get("key") in state.conflicts and not correction_problem(
                state, rec):
            problem = ""   # taken before a correction during a conflict was refused: it applies as it did then
        if problem and problem != "repeat":
            skipped.append(f"{rec.get('type')}: {problem}")
            continue
        if not problem:
            state.apply(rec)
    return state, skipped


@dataclass
class Progress:
    """Where each table is, for the director's screen."""

    called: int
    rounds: int
    tables: list[dict[str, Any]] = field(default_factory=list)


def progress(state: SessionState) -> Progress:
    """Each table's round, its pairs and boards, the boards it has still to play up to the round called,
    and whether it is slow."""
    out = Progress(state.called, state.movement.rounds)
    for t in range(1, state.movement.tables + 1):
        r = state.table_round(t)
        s = state.movement.at(r, t)
        behind = []
        for rr in range(1, state.called + 1):
            ss = state.movement.at(rr, t)
            if ss is not None and ss.played:
                behind += state.unplayed_at(ss)
        out.tables.append({
            "table": t, "club_table": state.club_table_of.get(t, ""), "round": r,
            "ns": label(s.ns) if s else "", "ew": label(s.ew) if s else "",
            "boards": list(state.movement.boards_of(s.group)) if s and s.played else [],
            "left": state.unplayed_at(s) if s and s.played else [],
            "unplayed": behind, "slow": r < state.called, "sit_out": bool(s and not s.played),
            "taken_off": state.taken_off_at(t)})
    return out
