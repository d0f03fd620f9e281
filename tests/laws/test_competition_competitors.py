"""Teams, Swiss and individuals on the one competitor type (issue 36 item 4, issue 34's gap): every public
shape of ``laws/competition/`` that names a team, a Swiss entrant or an individual's player as someone
ranked, scored or shown holds a :class:`~laws.competitors.Competitor` of the right kind, never a bare
``int`` — in its annotations and in the values an event actually makes.

Schedules stay numbers on purpose (``round_robin``, ``knockout_draw``, the individual movement's
``Table``, ``individual_tables``): they are seat positions in a printed schedule, turned into
competitors where the event draws from them (docs/architecture.md, "Names").
"""

from __future__ import annotations

import dataclasses
import typing
from fractions import Fraction

import pytest

from laws.competition import event, event_spec, individual, swiss, teams
from laws.competition.event import EventState
from laws.competition.event_spec import EventKind, EventSpec
from laws.competition.table_result import TableResult
from laws.competitors import Competitor, Kind

# (class, its fields that say who) — each must be annotated with Competitor (alone, optional, in a tuple
# or a frozenset), never with int
WHO = (
    (teams.MatchResult, ("home", "away")),
    (swiss.Played, ("competitor", "opponent")),
    (swiss.Standing, ("competitor", "opponents")),
    (swiss.Draw, ("matches", "bye", "order", "repeats")),
    (event.RoundDraw, ("matches", "byes", "repeats")),
    (event.MatchScore, ("first", "second")),
    (event_spec.Seat4, ("north", "south", "east", "west")),
    (individual.PlayerStanding, ("player",)),
)


def _leaves(hint: object) -> set[object]:
    """The types an annotation is made of (``tuple[tuple[Competitor, Competitor], ...]`` -> {Competitor})."""
    args = typing.get_args(hint)
    if not args:
        return {hint}
    return set().union(*(_leaves(a) for a in args if a is not Ellipsis))


@pytest.mark.parametrize(("cls", "fields"), WHO, ids=lambda x: getattr(x, "__name__", ""))
def test_who_is_annotated_as_a_competitor_never_an_int(cls: type, fields: tuple[str, ...]) -> None:
    hints = typing.get_type_hints(cls)
    assert {f.name for f in dataclasses.fields(cls)} >= set(fields)
    for name in fields:
        leaves = _leaves(hints[name]) - {type(None)}
        assert int not in leaves, f"{cls.__name__}.{name} is annotated {hints[name]}: a team or player as an int"
        assert Competitor in leaves, f"{cls.__name__}.{name} is annotated {hints[name]}, not a Competitor"


def _played(spec: EventSpec) -> EventState:
    state = EventState.opened(spec)
    k = 0
    while state.current <= spec.rounds:
        d = state.draws[state.current]
        for t in d.tables:
            for b in t.boards or d.boards:
                k += 1
                state.apply(TableResult(d.round, t.table, b, "4S" if k % 3 else "3NT", "N" if k % 2 else "E",
                                        10 if k % 4 else 8))
    return state


def _all(kind: Kind, values: object) -> None:
    for v in values:  # type: ignore[attr-defined]
        assert isinstance(v, Competitor) and v.kind is kind, f"{v!r} is not a {kind}"


@pytest.mark.parametrize(("spec", "kind"), [
    (EventSpec(EventKind.ROUND_ROBIN, 5, 5, 2), Kind.TEAM),
    (EventSpec(EventKind.KNOCKOUT, 6, 3, 2), Kind.TEAM),
    (EventSpec(EventKind.SWISS_TEAMS, 7, 4, 2), Kind.TEAM),
    (EventSpec(EventKind.SWISS_PAIRS, 6, 3, 2), Kind.PAIR),
], ids=lambda x: getattr(x, "value", getattr(getattr(x, "kind", None), "value", "")))
def test_a_played_event_ranks_and_scores_competitors(spec: EventSpec, kind: Kind) -> None:
    state = _played(spec)
    for r, d in state.draws.items():
        _all(kind, [c for m in d.matches for c in m])
        _all(kind, d.byes)
        _all(kind, [c for t in d.tables for c in (t.north, t.south, t.east, t.west)])
        _all(kind, [c for m in state.matches(r) for c in (m.first, m.second)])
        if spec.kind.teams:
            match = state.team_match(r, 1)
            _all(kind, (match.home, match.away))
    table = state.standings()
    _all(kind, [s.competitor for s in table])
    _all(kind, [o for s in table for o in s.opponents])
    _all(kind, [p.competitor for p in state.played()] + [p.opponent for p in state.played() if p.opponent])
    if spec.kind is EventKind.KNOCKOUT:
        _all(kind, [state.knockout_winner()])


def test_an_individual_ranks_players() -> None:
    state = _played(EventSpec(EventKind.INDIVIDUAL, 8, 7, 2))
    ranked = state.player_standings()
    _all(Kind.PLAYER, [p.player for p in ranked])
    assert sorted(p.player.number for p in ranked) == list(range(1, 9))
    _all(Kind.PLAYER, [c for d in state.draws.values() for t in d.tables for c in (t.north, t.south, t.east, t.west)])


def test_a_swiss_draw_of_teams_is_a_draw_of_teams() -> None:
    from laws.competitors import team

    entrants = [team(n) for n in range(1, 6)]
    first = swiss.draw(1, swiss.standings(entrants, []))
    _all(Kind.TEAM, [c for m in first.matches for c in m] + [first.bye] + list(first.order))
    played = [swiss.Played(1, a, b, Fraction(10)) for a, b in first.matches] + \
             [swiss.Played(1, b, a, Fraction(10)) for a, b in first.matches]
    _all(Kind.TEAM, [s.competitor for s in swiss.standings(entrants, played)])
    with pytest.raises(swiss.SwissError, match="a competitor is a team, pair or player"):
        swiss.standings([1, 2, 3], [])  # type: ignore[list-item]
