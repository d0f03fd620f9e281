"""An event of pairs in sections scored as results come in (``laws.competition.sections``).

Each result of an event table is turned into a traveller line of its section (the section's own pair
numbers, North-South's and East-West's as the section's movement seats them) and the whole event is
scored by :func:`laws.competition.sections.score_event` at matchpoints: within each section, or across
the field when the event says so (the sections then play the same boards, which the event's spec
checks). Every result taken counts (a round in play too).
"""

from __future__ import annotations

from laws.cards import Seat
from laws.competition.event import EventState
from laws.competition.event_spec import EventError, EventKind
from laws.competition.sections import Across, EventResult, SectionLine, score_event
from laws.competition.table_result import AWARDS, SEATS
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Artificial, Assigned, Line, Method, Played, Result


def score_sections(state: EventState) -> EventResult:
    """The event of sections scored on every result taken."""
    spec = state.spec
    if spec.kind is not EventKind.SECTIONS:
        raise EventError("only an event of sections is scored by sections")
    movements = spec.movements()
    offsets, first = {}, 0
    for sec in spec.sections:
        offsets[sec.name] = first
        first += sec.tables
    owner = {}
    for sec in spec.sections:
        for t in range(1, sec.tables + 1):
            owner[offsets[sec.name] + t] = sec.name
    lines = []
    for (r, table, board), res in sorted(state.scored_results().items()):   # a board held is not compared
        name = owner[table]
        seat = movements[name].at(r, table - offsets[name])
        assert seat is not None and seat.ns is not None and seat.ew is not None
        value: Result
        if res.adjusted:
            value = Artificial(AWARDS[res.awards[0]][1], AWARDS[res.awards[1]][1])
        elif res.assigned is not None:
            value = Assigned(res.assigned)
        elif res.contract == "Pass":
            value = Played(None, None, 0)
        else:
            declarer: Seat = SEATS[res.declarer]
            value = Played(parse_contract(res.contract), declarer, res.tricks)
        lines.append(SectionLine(name, Line(board, seat.ns, seat.ew, value)))
    sections = {name: (m.boards(), m.due(m.boards()[0]), dict(m.fields()))
                for name, m in movements.items()}
    return score_event(sections, lines, Method.MATCHPOINTS, Across.YES if spec.across else Across.NO)
