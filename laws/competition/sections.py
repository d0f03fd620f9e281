"""Several sections of one event, scored within each section or across the whole field.

Each section has its own movement, tables and pair numbers (pair 3 NS of section A is not pair 3 NS of
section B). A result names its section and the section's own pairs.

* **Within sections** (:attr:`Across.NO`): each section's boards are scored on that section's results
  only, as a session of its own (:func:`laws.scoring.session.score_session`), and each section is ranked
  on its own. Sections may play different boards.
* **Across the field** (:attr:`Across.YES`): the sections must play the same boards (the same deals:
  the caller says so by choosing this); every result of a board, whatever its section, is compared with
  every other of the board from the same direction, the due count being the sum of the sections' due
  counts (Neuberg, ``DB-78``, for a board with fewer results). Each pair is then ranked twice: in its
  section's field and in the event's field of its direction (or the one field of a Howell), on the same
  exact figures.

A section's name is one to eight letters or digits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from laws.scoring.session import rank_tallies, score_boards, score_session, tally_boards
from laws.scoring.session_values import Line, Method, Pair, Ranking, SessionError, SessionResult

SPAN = 10_000        # pair numbers of section k (from 0) are k * SPAN + number inside the field-wide scoring


class Across(StrEnum):
    """Whether results are compared across sections."""

    NO = "within sections"
    YES = "across the field"


@dataclass(frozen=True)
class SectionPair:
    """A pair of one section."""

    section: str
    pair: Pair

    @property
    def label(self) -> str:
        return f"{self.section}{self.pair.label}"


@dataclass(frozen=True)
class SectionLine:
    """A traveller line of one section (its pairs are the section's own)."""

    section: str
    line: Line


@dataclass(frozen=True)
class EventResult:
    """A whole event scored: each section's session (within sections) or the field's session; and the
    rankings, each a (field name, ranking) whose pairs are :class:`SectionPair` labels."""

    across: Across
    sessions: Mapping[str, SessionResult]
    rankings: tuple[tuple[str, tuple[tuple[str, SectionPair, object], ...]], ...]


def _check_section(name: object) -> str:
    if not isinstance(name, str) or not 1 <= len(name) <= 8 or not name.isascii() or not name.isalnum():
        raise SessionError(f"a section's name is 1 to 8 letters or digits, got {name!r}")
    return name


def score_event(sections: Mapping[str, tuple[Iterable[int], int, Mapping[Pair, str]]],
                lines: Iterable[SectionLine], method: Method, across: Across) -> EventResult:
    """Score an event of several sections.

    Args:
        sections: each section's boards, results due per board, and its pairs' fields.
        lines: every section's traveller lines.
        method: the scoring method (the same for the whole event).
        across: within sections or across the field.

    Raises:
        SessionError: an unknown section, different boards across the field, or any error of a session.
    """
    names = sorted(_check_section(s) for s in sections)
    by_section: dict[str, list[Line]] = {s: [] for s in names}
    for sl in lines:
        if sl.section not in by_section:
            raise SessionError(f"a result of section {sl.section!r}, which the event does not have")
        by_section[sl.section].append(sl.line)
    if across is Across.NO:
        sessions = {}
        rankings = []
        for s in names:
            boards, due, fields = sections[s]
            try:
                sessions[s] = score_session(boards, by_section[s], due, method, fields)
            except SessionError as exc:
                raise SessionError(f"section {s}: {exc}") from None
            for ranking in sessions[s].rankings:
                rankings.append((f"{s} {ranking.field}", labelled(ranking, _in_section(s))))
        return EventResult(across, sessions, tuple(rankings))
    board_sets = {s: tuple(sorted(set(sections[s][0]))) for s in names}
    first = board_sets[names[0]]
    for s in names[1:]:
        if board_sets[s] != first:
            raise SessionError(f"section {s} plays boards {list(board_sets[s])} but section {names[0]} plays "
                               f"{list(first)}: sections scored across the field play the same boards")
    due_total = sum(sections[s][1] for s in names)
    index = {s: k for k, s in enumerate(names)}
    made: dict[tuple[int, Pair], Pair] = {}     # each field-wide pair made once, not once a line

    def field_pair(pair: Pair, k: int) -> Pair:
        got = made.get((k, pair))
        if got is None:
            got = made[(k, pair)] = _global(pair, k)
        return got

    field_lines = [Line(ln.board, field_pair(ln.ns, index[s]), field_pair(ln.ew, index[s]), ln.result, ln.group)
                   for s in names for ln in by_section[s]]
    event_fields = {}
    section_fields = {}
    for s in names:
        for pair, field in sections[s][2].items():
            g = _global(pair, index[s])
            event_fields[g] = field
            section_fields[g] = f"{s} {field}"
    scored = score_boards(first, field_lines, due_total, method, event_fields)
    tallies = tally_boards(scored)        # once: both rankings rank the same figures
    result = SessionResult(method, scored, rank_tallies(tallies, method, event_fields))
    section_rankings = rank_tallies(tallies, method, section_fields)
    back = {g: SectionPair(names[k], pair) for (k, pair), g in made.items()}

    def local(p: Pair) -> SectionPair:
        if p in back:
            return back[p]
        k, number = divmod(p.number, SPAN)
        return SectionPair(names[k], Pair(number, p.direction))

    rankings = [(f"field {r.field}", labelled(r, local)) for r in result.rankings]
    rankings += [(r.field, labelled(r, local)) for r in section_rankings]
    return EventResult(across, {"field": result}, tuple(rankings))


def _in_section(section: str) -> Callable[[Pair], SectionPair]:
    def local(pair: Pair) -> SectionPair:
        return SectionPair(section, pair)
    return local


def _global(pair: Pair, k: int) -> Pair:
    if pair.number >= SPAN:
        raise SessionError(f"pair numbers in a section are below {SPAN}, got {pair.number}")
    return Pair(k * SPAN + pair.number, pair.direction)


def labelled(ranking: Ranking, local: Callable[[Pair], SectionPair]) -> tuple[tuple[str, SectionPair, object], ...]:
    """A ranking's rows as (place, the section's own pair, the standing)."""
    return tuple((st.place, local(st.pair), st) for st in ranking.standings)
