"""An event's state: its draws, the tables' results, the matches scored, the standings and the next draw.

:class:`EventState` is pure (no I/O, no clock). It starts with round 1 drawn (:meth:`EventState.opened`);
:meth:`EventState.check` says why a result cannot be taken (or None), :meth:`EventState.apply` takes it.
When the last result of round ``r`` is in, :meth:`EventState.apply` makes round ``r + 1``'s draw at once
and returns it, so whoever shows the draw (the director's page, each table's page) has it with that
same result. The draws, by kind:

* **teams round robin** — the circle method's schedule (``laws.competition.teams.round_robin``); a team
  out in a round (an odd number of teams) scores the bye's VPs;
* **teams knock-out** — round 1 is the seeded bracket (``knockout_draw``); each later round pairs the
  winners of the bracket's neighbouring places. A match's winner has more IMPs; a match tied on IMPs is
  won by the better (lower-numbered) seed, a house rule the director can only change by a replay of
  extra boards, which the event does not run. Its standings follow the bracket (the winner 1, the beaten
  finalist 2, then by the round a team went out: ``knockout_standings``), not the VPs;
* **Swiss teams, Swiss pairs** — ``laws.competition.swiss.draw`` from the standings after the round;
  when every draw would repeat a match, the draw has the fewest repeats there can be (the Swiss rule's
  own), and the round's draw names them (``RoundDraw.repeats``), so the pages can say so;
* **individual** — the individual movement's next round (fixed in advance: by default the balanced one,
  published for 8 players and ours for 12 and 16; or the published table for the number, as the event's
  setup chooses: ``EventSpec.individual``).

**A match's score.** Teams: each board's IMPs from the open and closed rooms' North-South scores, the
match's margin to VPs on the event's scale (``laws.competition.teams.score_match``). Swiss pairs: each
board of the round is scored Butler (``laws.scoring.imps.butler``: a datum over every table's
North-South score, one dropped at each end from three scores up); a pair's margin in the round is its
Butler IMPs summed over the round's boards (East-West's the negative), turned to VPs on the scale.
Individual: matchpoints per player (``laws.competition.individual.score_individual``).

**Who.** Every team, Swiss entrant and player the state draws, scores or ranks is a
:class:`~laws.competitors.Competitor` (``EventSpec.entrant``: ``team(n)``, ``Pair(n)``, ``player(n)``);
the schedules it draws from (the round robin's circle, the knock-out's bracket of seeds, the individual
movement's table) are numbers, turned into competitors here. ``names`` stays keyed by the number, as the
journal's ``names`` records give it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from laws.competition.event_spec import EventError, EventKind, EventSpec, Seat4, tables_of
from laws.competition.fouled import FoulCall, Held, held_calls, held_keys
from laws.competition.individual import (
    IndividualResult,
    PlayerStanding,
    individual_scored,
    score_individual,
)
from laws.competition.swiss import Played, Standing, draw, standings
from laws.competition.table_result import AWARDS, SEATS, TableResult, team_awards
from laws.competition.teams import (
    MatchResult,
    RoomResults,
    knockout_draw,
    knockout_standings,
    round_robin,
    score_match,
)
from laws.competition.vp import wbf_vp
from laws.competitors import Competitor
from laws.scoring.bridge import parse_contract
from laws.scoring.imps import butler
from laws.scoring.session_values import Artificial, Assigned
from laws.scoring.session_values import Played as PlayedResult


@dataclass(frozen=True)
class RoundDraw:
    """A round's draw: matches (first-named higher-placed or home), byes, and its tables; and (a Swiss
    that no draw could make without a repeat) those of its matches that were played before."""

    round: int
    matches: tuple[tuple[Competitor, Competitor], ...]
    byes: tuple[Competitor, ...]
    tables: tuple[Seat4, ...]
    boards: tuple[int, ...]
    repeats: tuple[tuple[Competitor, Competitor], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The draw as JSON: each competitor by its number."""
        return {"round": self.round, "matches": [[a.number, b.number] for a, b in self.matches],
                "byes": [c.number for c in self.byes],
                "boards": list(self.boards), "tables": [t.to_dict() for t in self.tables],
                "repeats": [[a.number, b.number] for a, b in self.repeats]}

    def repeated(self, match: int) -> bool:
        """Whether match ``match`` (from 1) of the round meets two that have met before."""
        return 1 <= match <= len(self.matches) and self.matches[match - 1] in self.repeats


@dataclass(frozen=True)
class MatchScore:
    """A match of a round scored: its two sides, IMPs each way and VPs each way, and how many of its
    boards count in them (0: the match has no result yet, and its VPs are the scale's even split, not a
    draw a reader may take for its result)."""

    round: int
    first: Competitor
    second: Competitor
    first_imps: int
    second_imps: int
    first_vp: Fraction
    second_vp: Fraction
    played: int


class EventState:
    """The event as results come in (see the module's docstring)."""

    def __init__(self, spec: EventSpec) -> None:
        self.spec = spec
        self.draws: dict[int, RoundDraw] = {}
        self.results: dict[tuple[int, int, int], TableResult] = {}
        self._ko: dict[int, tuple[tuple[Competitor, Competitor | None], ...]] = {}
        self._taken: dict[int, int] = {}        # results taken per round
        # competitor (team, pair or player number) -> {"name": team name or "", "players": [player dicts]}
        self.names: dict[int, dict[str, Any]] = {}
        self.corrected: dict[tuple[int, int, int], tuple[TableResult, ...]] = {}   # key -> results replaced
        # key -> a table's fouled-board call, kept as taken (the board held: laws.competition.fouled)
        self.fouls: dict[tuple[int, int, int], FoulCall] = {}

    @classmethod
    def opened(cls, spec: EventSpec) -> EventState:
        """A new event with round 1 drawn."""
        state = cls(spec)
        state._make_draw(1)
        return state

    @property
    def current(self) -> int:
        """The round being played (``rounds + 1`` once the last round is complete)."""
        if not self.draws:
            return 1
        r = max(self.draws)
        return r + 1 if r == self.spec.rounds and self.complete(r) else r

    def boards_at(self, round_number: int, table: int) -> tuple[int, ...]:
        """The boards ``table`` plays in ``round_number`` (its own group in an event of sections)."""
        d = self.draws[round_number]
        seat = next((t for t in d.tables if t.table == table), None)
        return seat.boards if seat is not None and seat.boards else d.boards

    def due(self, round_number: int) -> int:
        """How many results round ``round_number`` has when complete."""
        d = self.draws[round_number]
        return sum(len(t.boards) if t.boards else len(d.boards) for t in d.tables)

    def complete(self, round_number: int) -> bool:
        """Whether every result of the round is in and none of its boards is held for the director (a
        fouled board waits like a missing result: ``laws.competition.fouled``)."""
        return (round_number in self.draws and self._taken.get(round_number, 0) == self.due(round_number)
                and not any(h.round == round_number for h in self.held()))

    def held(self) -> tuple[Held, ...]:
        """The fouled results the director has still to decide (``laws.competition.fouled.held_calls``)."""
        return held_calls(self.spec, self.results, self.fouls, self.corrected)

    def held_keys(self) -> frozenset[tuple[int, int, int]]:
        """Every (round, table, board) not scored while a board is held (``fouled.held_keys``)."""
        return held_keys(self.spec, self.results, self.held())

    def scored_results(self) -> dict[tuple[int, int, int], TableResult]:
        """The results scored now: every one taken but those of a board held for the director."""
        held = self.held_keys()
        return {k: v for k, v in self.results.items() if k not in held}

    def recount(self) -> None:
        """Count the results of each round again (after ``results`` was set wholesale)."""
        self._taken = {}
        for (r, _t, _b) in self.results:
            self._taken[r] = self._taken.get(r, 0) + 1

    def check(self, result: TableResult) -> str | None:
        """Why ``result`` cannot be taken now (None when it can, or when it repeats one taken)."""
        r = result.round
        if r not in self.draws:
            return f"round {r} is not drawn yet (the event is in round {self.current})"
        # where the result would go is checked before whether the round is over, so a table or board the
        # round never had is named as such, not as "round 1 is complete" (which sent a director correcting
        # a board of a finished round to look for a rule against late corrections)
        d = self.draws[r]
        if not any(t.table == result.table for t in d.tables):
            return f"round {r} has no table {result.table} (it has {len(d.tables)})"
        boards = self.boards_at(r, result.table)
        if result.board not in boards:
            return (f"board {result.board} is not played at table {result.table} in round {r} "
                    f"(boards {boards[0]}-{boards[-1]})")
        if self.complete(r) and (r, result.table, result.board) not in self.results:
            return f"round {r} is complete"
        taken = self.results.get((r, result.table, result.board))
        if taken is not None and taken != result:
            return (f"round {r}, table {result.table}: board {result.board} already has a result "
                    f"({taken.contract or taken.adjusted or taken.assigned})")
        return self.award_problem(result)

    def award_problem(self, result: TableResult) -> str | None:
        """Teams: why an adjusted result cannot stand beside the other room's (a board of a match has one
        adjusted result: the same awards for each team whichever room's table the director gives it at)."""
        if not self.spec.kind.teams or not result.adjusted:
            return None
        m = (result.table + 1) // 2
        other = result.table + 1 if result.table % 2 else result.table - 1
        theirs = self.results.get((result.round, other, result.board))
        if theirs is None or not theirs.adjusted:
            return None
        if team_awards(result) != team_awards(theirs):
            home, away = team_awards(theirs)
            return (f"round {result.round}, match {m}: board {result.board} is already adjusted at table "
                    f"{other} (home {home}, away {away}); give the same awards to each team")
        return None

    def apply(self, result: TableResult, foul: FoulCall | None = None) -> RoundDraw | None:
        """Take ``result`` (checked first), with the table's fouled-board call when it made one (the board
        is then held: :meth:`held`); the next round's draw when this completed a round, else None.

        Raises:
            EventError: :meth:`check`'s reason.
        """
        why = self.check(result)
        if why is not None:
            raise EventError(why)
        key = (result.round, result.table, result.board)
        if key not in self.results:
            self._taken[result.round] = self._taken.get(result.round, 0) + 1
            if foul is not None:
                self.fouls[key] = foul
        self.results[key] = result
        r = result.round
        if self.complete(r) and r < self.spec.rounds and r + 1 not in self.draws:
            return self._make_draw(r + 1)
        return None

    def correct(self, result: TableResult) -> RoundDraw | None:
        """The director's result for a table and board (a corrected contract, or an assigned score):
        it replaces the one taken (kept in ``corrected``), or is taken as a result when none was. A draw
        already made stands (a correction changes the standings from then on, not a draw already out);
        the next round's draw when this completed a round (a missing result, or the round's last board held
        decided: a held result may also be kept as played, given again).

        Raises:
            EventError: the round is not drawn, or that table does not play that board in it.
        """
        key = (result.round, result.table, result.board)
        taken = self.results.get(key)
        if taken is None:
            return self.apply(result)
        if taken == result and not self.is_held(key):
            raise EventError(f"round {result.round}, table {result.table}: board {result.board} has that "
                             "result already")
        why = self.award_problem(result) or self.knockout_problem(result)
        if why is not None:
            raise EventError(why)
        self.corrected[key] = (*self.corrected.get(key, ()), taken)
        self.results[key] = result
        r = result.round
        if self.complete(r) and r < self.spec.rounds and r + 1 not in self.draws:
            return self._make_draw(r + 1)
        return None

    def is_held(self, key: tuple[int, int, int]) -> bool:
        """Whether the result at ``key`` (round, table, board) is fouled and not yet decided."""
        return any((h.round, h.table, h.board) == key for h in self.held())

    def knockout_problem(self, result: TableResult) -> str | None:
        """A knock-out: why a correction cannot stand (None when it can). Once the next round is drawn the
        match's winner is in it, and a draw already made stands; a correction that would hand the match
        to the other team would leave a team beaten in this round playing (and perhaps winning) the next,
        so the event's winner and its one place 1 would be two teams. It is refused, naming both."""
        r = result.round
        if self.spec.kind is not EventKind.KNOCKOUT or r + 1 not in self.draws:
            return None
        m = (result.table + 1) // 2
        a, b = self.draws[r].matches[m - 1]
        key = (r, result.table, result.board)
        was, kept = self._winner(r, a, b), self.results[key]
        self.results[key] = result
        try:
            now = self._winner(r, a, b)
        finally:
            self.results[key] = kept
        if now == was:
            return None
        return (f"round {r}, match {m}: the correction would make team {now.number}, not team {was.number}, "
                f"the winner of {a.number} v {b.number}, but team {was.number} is already drawn in round "
                f"{r + 1} (a knock-out's draw already made stands)")

    def settled(self) -> EventState:
        """The event as its files show it: only the complete rounds (their draws and results)."""
        out = EventState(self.spec)
        done = [r for r in sorted(self.draws) if self.complete(r)]
        out.draws = {r: self.draws[r] for r in done}
        out._ko = {r: self._ko[r] for r in done if r in self._ko}
        out.results = {k: v for k, v in self.results.items() if k[0] in out.draws}
        out.names = dict(self.names)
        out.corrected = {k: v for k, v in self.corrected.items() if k[0] in out.draws}
        out.fouls = {k: v for k, v in self.fouls.items() if k[0] in out.draws}
        out.recount()
        return out

    # --- draws ---------------------------------------------------------------------------------------

    def _make_draw(self, r: int) -> RoundDraw:
        spec, kind = self.spec, self.spec.kind
        byes: tuple[Competitor, ...] = ()
        repeats: tuple[tuple[Competitor, Competitor], ...] = ()
        if kind in (EventKind.INDIVIDUAL, EventKind.SECTIONS):
            matches: tuple[tuple[Competitor, Competitor], ...] = ()
        elif kind is EventKind.ROUND_ROBIN:
            teams = spec.competitors()      # the schedule's positions 1..n are teams 1..n
            matches = tuple((teams[a - 1], teams[b - 1]) for a, b in round_robin(spec.entrants)[r - 1])
            seated = {c for m in matches for c in m}
            byes = tuple(c for c in teams if c not in seated)
        elif kind is EventKind.KNOCKOUT:
            bracket = self._seeded(knockout_draw(spec.entrants)) if r == 1 else self._ko_next(r - 1)
            self._ko[r] = bracket
            matches = tuple((a, b) for a, b in bracket if b is not None)
            byes = tuple(a for a, b in bracket if b is None)
        else:
            # never stops: when every draw repeats a match, the one with the fewest (named in ``repeats``)
            d = draw(r, self.standings())
            matches, byes, repeats = d.matches, (() if d.bye is None else (d.bye,)), d.repeats
        tables = tables_of(spec, r, matches)
        boards = (tuple(sorted({b for t in tables for b in t.boards})) if kind is EventKind.SECTIONS
                  else spec.boards(r))
        made = RoundDraw(r, matches, byes, tables, boards, repeats)
        self.draws[r] = made
        return made

    def _seeded(self, bracket: tuple[tuple[int, int | None], ...]) -> tuple[tuple[Competitor, Competitor | None], ...]:
        """The knock-out's bracket of seeds as teams (seed ``s`` is team ``s``)."""
        teams = self.spec.competitors()
        return tuple((teams[a - 1], None if b is None else teams[b - 1]) for a, b in bracket)

    def _ko_next(self, r: int) -> tuple[tuple[Competitor, Competitor | None], ...]:
        winners = [a if b is None else self._winner(r, a, b) for a, b in self._ko[r]]
        return tuple((min(a, b), max(a, b)) for a, b in zip(winners[::2], winners[1::2]))

    def _winner(self, r: int, a: Competitor, b: Competitor) -> Competitor:
        for m in self.matches(r):
            if {m.first, m.second} == {a, b}:
                if m.first_imps == m.second_imps:
                    return min(a, b)
                return m.first if m.first_imps > m.second_imps else m.second
        raise EventError(f"round {r}: no match {a} v {b}")

    # --- scores --------------------------------------------------------------------------------------

    def team_match(self, r: int, m: int) -> MatchResult:
        """Match ``m`` of round ``r`` of a teams event, scored from both rooms (boards played so far)."""
        d = self.draws[r]
        home, away = d.matches[m - 1]
        rooms = []
        scored = self.scored_results()      # a board held for the director is scored in neither room
        for b in d.boards:
            open_ = scored.get((r, 2 * m - 1, b))
            closed = scored.get((r, 2 * m, b))
            adjusted = next((res for res in (open_, closed) if res is not None and res.adjusted), None)
            if adjusted is not None:
                home_award, away_award = team_awards(adjusted)
                rooms.append(RoomResults(b, home_adjusted=home_award, away_adjusted=away_award))
                continue
            rooms.append(RoomResults(b, None if open_ is None else open_.ns_score,
                                     None if closed is None else closed.ns_score))
        return score_match(home, away, rooms, len(d.boards), self.spec.scale)

    def _vp(self, margin: int) -> Fraction:
        scale = self.spec.scale
        return scale.vp(margin) if scale is not None else wbf_vp(margin, self.spec.boards_per_round)

    def matches(self, r: int) -> tuple[MatchScore, ...]:
        """The matches of round ``r`` scored (teams or Swiss pairs; complete rounds are final)."""
        d = self.draws[r]
        out = []
        if self.spec.kind.teams:
            for m in range(1, len(d.matches) + 1):
                res = self.team_match(r, m)
                out.append(MatchScore(r, res.home, res.away, res.home_imps, res.away_imps, res.home_vp,
                                      res.away_vp, res.played))
        elif self.spec.kind is EventKind.SWISS_PAIRS:
            # each side's IMPs are the sum of what it gained board by board, as a teams match's
            # (docs/scoring.md sections 10-11: A+/A+ is +3 to each side); the margin is their difference
            gained = {t.table: [0, 0] for t in d.tables}
            counted = dict.fromkeys(gained, 0)
            butler_won, adjusted = self.butler_imps(r), self.adjusted_imps(r)
            for table, _b in [*butler_won, *adjusted]:
                counted[table] += 1
            for (table, _b), won in butler_won.items():
                gained[table][0 if won > 0 else 1] += abs(won)
            for (table, _b), (ns_imps, ew_imps) in adjusted.items():
                # mirrored awards (A+/A-, A=/A=) are one result of that many IMPs; others each side's own,
                # a side's negative award counting to the other (laws.competition.teams, DB-12)
                if ns_imps == -ew_imps:
                    gained[table][0 if ns_imps > 0 else 1] += abs(ns_imps)
                else:
                    gained[table][0] += max(ns_imps, 0) + max(-ew_imps, 0)
                    gained[table][1] += max(ew_imps, 0) + max(-ns_imps, 0)
            for t in d.tables:
                first, second = gained[t.table]
                out.append(MatchScore(r, t.north, t.east, first, second, self._vp(first - second),
                                      self._vp(second - first), counted[t.table]))
        return tuple(out)

    def butler_imps(self, r: int) -> dict[tuple[int, int], int]:
        """Swiss pairs: North-South's Butler IMPs of each (table, board) of round ``r`` with a result."""
        d = self.draws[r]
        out: dict[tuple[int, int], int] = {}
        scored = self.scored_results()      # a board held for the director has no datum yet
        for b in d.boards:
            at = [(t.table, scored[(r, t.table, b)].ns_score) for t in d.tables
                  if (r, t.table, b) in scored and not scored[(r, t.table, b)].adjusted]
            if at:
                for (table, _s), won in zip(at, butler([s for _t, s in at])):
                    out[(table, b)] = won
        return out

    def adjusted_imps(self, r: int) -> dict[tuple[int, int], tuple[int, int]]:
        """Swiss pairs: each adjusted (table, board) of round ``r``: North-South's and East-West's award
        in IMPs (+3, 0, -3); an adjusted table is not one of the board's scores in the Butler datum."""
        return {(t, b): (AWARDS[res.awards[0]][0], AWARDS[res.awards[1]][0])
                for (rr, t, b), res in self.scored_results().items() if rr == r and res.adjusted}

    def played(self) -> list[Played]:
        """Every complete round's matches and byes as each competitor's :class:`Played`."""
        out = []
        for r in sorted(self.draws):
            if not self.complete(r):
                continue
            for m in self.matches(r):
                out += [Played(r, m.first, m.second, m.first_vp, m.first_imps, m.second_imps),
                        Played(r, m.second, m.first, m.second_vp, m.second_imps, m.first_imps)]
            out += [Played(r, c, None, self.spec.bye_score) for c in self.draws[r].byes]
        return out

    def standings(self) -> tuple[Standing, ...]:
        """Teams or pairs, best first, over the complete rounds (``laws.competition.swiss.standings``); a
        knock-out's in the bracket's order (``laws.competition.teams.knockout_standings``: the winner first,
        then the beaten finalist, then by the round a team went out), whatever its VPs."""
        if self.spec.kind in (EventKind.INDIVIDUAL, EventKind.SECTIONS):
            raise EventError(f"an event of kind {self.spec.kind.value} has no VP standings")
        table = standings(self.spec.competitors(), self.played())
        if self.spec.kind is EventKind.KNOCKOUT:
            return knockout_standings(table, self.knockout_losers())
        return table

    def knockout_losers(self) -> dict[Competitor, int]:
        """A knock-out's beaten teams, each with the round it lost in (complete rounds only)."""
        out: dict[Competitor, int] = {}
        for r in sorted(self.draws):
            if self.complete(r):
                for a, b in self.draws[r].matches:
                    out[b if self._winner(r, a, b) == a else a] = r
        return out

    def player_standings(self) -> tuple[PlayerStanding, ...]:
        """An individual's players, best first, on every result taken."""
        return score_individual(self.spec.individual_schedule(), self._individual_results())

    def individual_boards(self) -> dict[tuple[int, int, int], tuple[Fraction, Fraction, Fraction | None]]:
        """An individual's (round, table, board) -> North-South's and East-West's matchpoints and the
        board's top, as :func:`player_standings` scores them."""
        movement = self.spec.individual_schedule()
        out = {}
        for board in individual_scored(movement, self._individual_results()):
            for ln in board.lines:
                r, rest = divmod(ln.ns.number, 1000)
                out[(r, rest // 2, board.number)] = (ln.ns_points, ln.ew_points, board.top)
        return out

    def _individual_results(self) -> list[IndividualResult]:
        out = []
        for (r, t, b), res in sorted(self.scored_results().items()):    # a board held is not compared
            if res.adjusted:
                value: Any = Artificial(AWARDS[res.awards[0]][1], AWARDS[res.awards[1]][1])
            elif res.assigned is not None:
                value = Assigned(res.assigned)
            elif res.contract == "Pass":
                value = PlayedResult(None, None, 0)
            else:
                value = PlayedResult(parse_contract(res.contract), SEATS[res.declarer], res.tricks)
            out.append(IndividualResult(r, t, b, value))
        return out

    def knockout_winner(self) -> Competitor | None:
        """The knock-out's winner once the final is complete."""
        last = self.spec.rounds
        if self.spec.kind is not EventKind.KNOCKOUT or not self.complete(last):
            return None
        (a, b), = self.draws[last].matches
        return self._winner(last, a, b)
