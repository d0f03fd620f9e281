"""Teams of four: a match in two rooms, IMPs a board, victory points a match; a round robin's schedule.

**A match.** Team *home* sits North-South in the open room and East-West in the closed room; team *away*
the other way round; both rooms play the same boards. A board's result in a room is North-South's score
there (``DB-77``). Home's IMPs on the board are ``imps(open - closed)`` (the table in
:mod:`laws.scoring.imps`, ``DB-78``) and away's the same with the sign turned. A board with a result in
one room only is not scored until the other room has one (and a board may be shown to a room only
then: :func:`released_to`). The director may give a board an *adjusted* IMP result instead (``DB-12``:
average-plus is +3 IMPs and average-minus -3, so A+/A- is +3/-3 and A+/A+ is +3/+3, each side's own).

**Victory points.** The match's margin (home's IMPs minus away's) is converted on the chosen scale
(:mod:`laws.competition.vp`): the WBF continuous scale for the boards played, or a discrete scale. A
match's VPs always add up to the scale's total.

**Who plays.** A match's teams are :class:`~laws.competitors.Competitor` values of kind team
(``team(3)``); a round robin's schedule and a knock-out's bracket are seat numbers of a schedule (1 to
``n``), which the event (:mod:`laws.competition.event`) turns into teams as it draws from them.

**A round robin** of ``n`` teams (:func:`round_robin`): every team meets every other once in ``n - 1``
rounds (``n`` rounds when ``n`` is odd, one team sitting out each round). The schedule is the circle
method: team 1 stays, the others move one place round the circle each round. The home team of each
match is the one that has been home fewer times so far (on equal counts, the lower number in odd rounds
and the higher in even ones), so every team is home about half the time.

**A knock-out** (:func:`knockout_draw`): seeds 1 and ``2**k`` meet first, and so on, so that seeds 1 and
2 can meet only in the final; a field that is not a power of two gives the top seeds a bye. Its places
(:func:`knockout_standings`) follow the bracket, not the VPs: a team's place is one more than the number
of teams that went further (the winner 1, the beaten finalist 2, the semi-final's losers 3=, ...), since
a team beaten in the final by 1 IMP after winning its semi-final by 24 has more VPs than the winner but
did not win; teams out in the same round (or all still in) share the place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from laws.competition.swiss import Standing
from laws.competition.vp import DiscreteScale, ScaleError, wbf_vp
from laws.competitors import Competitor
from laws.scoring.imps import imps

LAW = "Duplicate Bridge, law 78"
CLAUSE = "DB-78"
ADJUSTED_IMPS = {"A+": 3, "A=": 0, "A-": -3}


class MatchError(ValueError):
    """A match's input that cannot be scored; the message names the board and the room."""


@dataclass(frozen=True)
class RoomResults:
    """One board of a match: North-South's score in each room (None: not played there yet) or, instead,
    each team's adjusted IMPs (``"A+"``, ``"A="``, ``"A-"``) given by the director."""

    board: int
    open_ns: int | None = None
    closed_ns: int | None = None
    home_adjusted: str | None = None
    away_adjusted: str | None = None

    def __post_init__(self) -> None:
        for name in ("open_ns", "closed_ns"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value % 10):
                raise MatchError(f"board {self.board}: the {name.replace('_ns', '')} room's score is a "
                                 f"multiple of 10, got {value!r}")
        adjusted = (self.home_adjusted, self.away_adjusted)
        if any(a is not None for a in adjusted):
            if any(a not in ADJUSTED_IMPS for a in adjusted):
                raise MatchError(f"board {self.board}: an adjusted result gives each team one of "
                                 f"{', '.join(ADJUSTED_IMPS)}, got {adjusted!r}")

    @property
    def complete(self) -> bool:
        """Whether the board has its result: played in both rooms, or adjusted."""
        return self.home_adjusted is not None or (self.open_ns is not None and self.closed_ns is not None)


@dataclass(frozen=True)
class BoardImps:
    """A board of a match scored: each team's IMPs (None while the board is not complete)."""

    board: int
    home: int | None
    away: int | None
    adjusted: bool = False


@dataclass(frozen=True)
class MatchResult:
    """A match scored: its teams, its boards, each team's IMPs and VPs."""

    home: Competitor
    away: Competitor
    boards: tuple[BoardImps, ...]
    home_imps: int
    away_imps: int
    home_vp: Fraction
    away_vp: Fraction

    @property
    def margin(self) -> int:
        """Home's IMPs minus away's."""
        return self.home_imps - self.away_imps

    @property
    def played(self) -> int:
        """The number of boards with a result in both rooms (or adjusted)."""
        return sum(1 for b in self.boards if b.home is not None)


def board_imps(result: RoomResults) -> BoardImps:
    """One board's IMPs for each team (None for both while a room has still to play it)."""
    if result.home_adjusted is not None:
        assert result.away_adjusted is not None
        return BoardImps(result.board, ADJUSTED_IMPS[result.home_adjusted], ADJUSTED_IMPS[result.away_adjusted],
                         adjusted=True)
    if result.open_ns is None or result.closed_ns is None:
        return BoardImps(result.board, None, None)
    home = imps(result.open_ns - result.closed_ns)
    return BoardImps(result.board, home, -home)


def score_match(home: Competitor, away: Competitor, results: Sequence[RoomResults], boards: int,
                scale: DiscreteScale | None = None) -> MatchResult:
    """Score a match of ``boards`` boards from its rooms' results.

    Args:
        home, away: the teams (``team(n)``).
        results: one :class:`RoomResults` per board with any result (a board listed twice is refused).
        boards: the number of boards the match is over (the WBF scale's ``N``).
        scale: a discrete scale; None for the WBF continuous scale.

    Raises:
        MatchError: a board listed twice, or a team playing itself.
    """
    if home == away:
        raise MatchError(f"team {home} cannot play itself")
    seen: set[int] = set()
    scored = []
    for r in sorted(results, key=lambda r: r.board):
        if r.board in seen:
            raise MatchError(f"board {r.board} is given twice in the match {home} v {away}")
        seen.add(r.board)
        scored.append(board_imps(r))
    home_imps, away_imps = _totals(scored)
    margin = home_imps - away_imps
    try:
        home_vp = scale.vp(margin) if scale is not None else wbf_vp(margin, boards)
    except ScaleError as exc:
        raise MatchError(f"match {home} v {away}: {exc}") from None
    total = scale.total if scale is not None else 20
    return MatchResult(home, away, tuple(scored), home_imps, away_imps, home_vp, total - home_vp)


def _totals(scored: Sequence[BoardImps]) -> tuple[int, int]:
    """Each team's IMPs won: a played board's IMPs go to the side that gained them; an adjusted board
    whose two awards mirror each other (A+/A-, A=/A=) is one result of that many IMPs, and one whose
    awards do not (A+/A+, A-/A-, A+/A=) gives each team its own award, a negative award counting as IMPs
    to the other team (A+/A+ adds 3 to each side, A-/A- likewise)."""
    home = away = 0
    for b in scored:
        if b.home is None or b.away is None:
            continue
        if b.adjusted and b.home != -b.away:
            home += max(b.home, 0) + max(-b.away, 0)
            away += max(b.away, 0) + max(-b.home, 0)
        elif b.home > 0:
            home += b.home
        else:
            away += b.away
    return home, away


def released_to(results: RoomResults) -> bool:
    """Whether a board's result may be shown in either room: only once the other room has finished it
    (both rooms have a result, or the director adjusted it)."""
    return results.complete


def round_robin(teams: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The rounds of a round robin of teams 1..``teams``: each round a tuple of (home, away) matches.

    With an odd number of teams each round has one team out (it is in no match that round).
    """
    if isinstance(teams, bool) or not isinstance(teams, int) or teams < 2:
        raise MatchError(f"a round robin has at least 2 teams, got {teams!r}")
    ring = list(range(1, teams + 1)) + ([0] if teams % 2 else [])
    n = len(ring)
    rounds = []
    homes = dict.fromkeys(range(1, teams + 1), 0)
    for r in range(n - 1):
        matches = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if 0 in (a, b):
                continue
            low, high = min(a, b), max(a, b)
            first, second = (low, high) if r % 2 == 0 else (high, low)
            if homes[second] < homes[first]:
                first, second = second, first
            homes[first] += 1
            matches.append((first, second))
        rounds.append(tuple(sorted(matches, key=min)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return tuple(rounds)


def knockout_draw(teams: int) -> tuple[tuple[int, int | None], ...]:
    """The first round of a knock-out of seeds 1..``teams``: (seed, opponent or None for a bye).

    The bracket is the standard one: in a bracket of ``2**k`` places, seed ``s`` meets ``2**k + 1 - s``,
    and the places are ordered so that the top two seeds can meet only in the final.
    """
    if isinstance(teams, bool) or not isinstance(teams, int) or teams < 2:
        raise MatchError(f"a knock-out has at least 2 teams, got {teams!r}")
    size = 1
    while size < teams:
        size *= 2
    order = [1]
    while len(order) < size:
        m = 2 * len(order) + 1
        order = [x for s in order for x in (s, m - s)]
    draw = []
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        draw.append((a, b if b <= teams else None))
    return tuple(draw)


def standings_from(matches: Sequence[MatchResult]) -> Mapping[Competitor, tuple[Fraction, int, int]]:
    """Each team's (VPs, IMPs for, IMPs against) over the matches given."""
    table: dict[Competitor, tuple[Fraction, int, int]] = {}
    for m in matches:
        for team, vp, won, lost in ((m.home, m.home_vp, m.home_imps, m.away_imps),
                                    (m.away, m.away_vp, m.away_imps, m.home_imps)):
            v, f, a = table.get(team, (Fraction(0), 0, 0))
            table[team] = (v + vp, f + won, a + lost)
    return table


def knockout_standings(table: Sequence[Standing], went_out: Mapping[Competitor, int]) -> tuple[Standing, ...]:
    """A knock-out's standings: ``table`` (every team, with its VPs and net IMPs) in the bracket's order.

    ``went_out`` gives the round each beaten team lost in; a team not in it is still in (or won the
    final). A team's place is one more than the number of teams that went further; teams that went out in
    the same round, or are all still in, share it (``3=``) and are listed by number (the seeding). VPs and
    net IMPs are shown but order nothing: a knock-out is won in the bracket (see the module's docstring).
    """
    still_in = max(went_out.values(), default=0) + 1

    def reached(s: Standing) -> int:
        return went_out.get(s.competitor, still_in)

    ordered = sorted(table, key=lambda s: (-reached(s), s.competitor))
    out = []
    for s in ordered:
        better = sum(1 for o in ordered if reached(o) > reached(s))
        shared = sum(1 for o in ordered if reached(o) == reached(s)) > 1
        out.append(replace(s, place=f"{better + 1}=" if shared else str(better + 1)))
    return tuple(out)
