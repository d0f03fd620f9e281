"""The field of a simultaneous: every club's results of a board compared with every other's.

Each club plays the federation's hand records and sends its traveller lines (its own pair numbers). The
field is scored as one event of several sections scored across the field
(:func:`laws.competition.sections.score_event`, ``Across.YES``; a club is a section): every result of a
board is compared with every other of the board from the same direction, Neuberg where a board has fewer
results than were due (``DB-78``), and each pair is ranked in the whole field and in its club.

A club that played another deal for a board (a fouled board, ``DB-87``) is scored by group: its lines of
that board carry the group the club's session gave them, and only lines of the same deal are compared
(the federation names the group by the deal's fingerprint, so two clubs that fouled the board the same
way are compared with each other).

The club's messages (:mod:`laws.federation.ledger`) carry lines keyed by board and the club's pairs; a
later message for the same (board, pairs) replaces the earlier one (a correction), and a message that
takes a line off removes it. :class:`Field` folds the messages in the order taken; :meth:`Field.score`
scores again only the boards whose lines changed (the tests check that after every message it equals a
whole rescore by :func:`laws.competition.sections.score_event`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from laws.competition.sections import SPAN, Across, EventResult, SectionLine, SectionPair, labelled
from laws.scoring.session import rank_boards, score_boards
from laws.scoring.session_values import Line, Method, Pair, ScoredBoard, SessionResult


class FieldError(ValueError):
    """A message the field cannot take; the message says which club, board and pairs."""


@dataclass(frozen=True)
class ClubEntry:
    """A club's part of the event: its pairs (each with its field name: NS, EW or one field) and the
    number of results of each board it is due to send."""

    club: str
    fields: Mapping[Pair, str]
    due: int


@dataclass
class Field:
    """The field so far: each club's current lines, keyed by (board, NS pair, EW pair).

    Scoring is incremental: a board is scored again only when one of its lines changed (a board's
    points depend on its own lines alone), and the rankings are added up from the boards' scores, so
    :meth:`score` after one message costs one board, not the field. ``order`` fixes the clubs' order
    for the pairs' numbering in the field (default: the clubs' ids sorted).
    """

    boards: tuple[int, ...]
    clubs: Mapping[str, ClubEntry]
    method: Method = Method.MATCHPOINTS
    lines: dict[str, dict[tuple[int, Pair, Pair], Line]] = field(default_factory=dict)
    _scored: dict[int, ScoredBoard] = field(default_factory=dict, repr=False, compare=False)

    def apply(self, club: str, line: Line | None, *, remove: tuple[int, Pair, Pair] | None = None) -> None:
        """Take one club's line (a result or its correction), or take a line off (``remove``)."""
        if club not in self.clubs:
            raise FieldError(f"club {club!r} does not take part in the event")
        mine = self.lines.setdefault(club, {})
        if remove is not None:
            if mine.pop(remove, None) is not None:
                self._scored.pop(remove[0], None)
            return
        if line is None:
            raise FieldError(f"club {club}: a message with no line")
        if line.board not in self.boards:
            raise FieldError(f"club {club}: board {line.board} is not one of the event's boards")
        for pair in (line.ns, line.ew):
            if pair not in self.clubs[club].fields:
                raise FieldError(f"club {club}: board {line.board}: pair {pair.label} is not one of the club's pairs")
        mine[(line.board, line.ns, line.ew)] = line
        self._scored.pop(line.board, None)

    def all_lines(self) -> Iterable[SectionLine]:
        for club in sorted(self.lines):
            for key in sorted(self.lines[club], key=lambda k: (k[0], k[1].key, k[2].key)):
                yield SectionLine(club, self.lines[club][key])

    def _names(self) -> list[str]:
        return sorted(self.clubs)

    def _global(self, pair: Pair, k: int) -> Pair:
        return Pair(k * SPAN + pair.number, pair.direction)

    def score(self, only: Iterable[int] | None = None) -> EventResult:
        """The field scored (boards whose lines changed scored again), and every club's own ranking;
        ``only``: rank on those boards alone (the boards a public page may show)."""
        return self.prepare(only).rank()

    def prepare(self, only: Iterable[int] | None = None) -> Scored:
        """The boards' scores (boards whose lines changed scored again), ready to rank. Ranking
        (:meth:`Scored.rank`) reads nothing of the field, so a service may rank outside its lock."""
        names = self._names()
        index = {c: k for k, c in enumerate(names)}
        event_fields: dict[Pair, str] = {}
        club_fields: dict[Pair, str] = {}
        for c in names:
            for pair, name in self.clubs[c].fields.items():
                g = self._global(pair, index[c])
                event_fields[g] = name
                club_fields[g] = f"{c} {name}"
        due = max(1, sum(e.due for e in self.clubs.values()))
        dirty = [b for b in self.boards if b not in self._scored]
        if dirty:
            wanted = set(dirty)
            per_board: dict[int, list[Line]] = {b: [] for b in dirty}
            for c in names:
                for (board, _ns, _ew), ln in self.lines.get(c, {}).items():
                    if board in wanted:
                        per_board[board].append(Line(board, self._global(ln.ns, index[c]),
                                                     self._global(ln.ew, index[c]), ln.result, ln.group))
            for b in dirty:
                self._scored[b] = score_boards((b,), per_board[b], due, self.method, event_fields)[0]
        keep = set(self.boards if only is None else only)
        scored = tuple(self._scored[b] for b in self.boards if b in keep)
        return Scored(self.method, tuple(names), scored, event_fields, club_fields)


@dataclass(frozen=True)
class Scored:
    """Boards scored across the field, and the pairs' fields (the whole field's, and each club's)."""

    method: Method
    names: tuple[str, ...]
    boards: tuple[ScoredBoard, ...]
    event_fields: Mapping[Pair, str]
    club_fields: Mapping[Pair, str]

    def rank(self) -> EventResult:
        """The field's ranking and every club's own, from these boards."""
        names = self.names

        def local(p: Pair) -> SectionPair:
            k, number = divmod(p.number, SPAN)
            return SectionPair(names[k], Pair(number, p.direction))

        result = SessionResult(self.method, self.boards, rank_boards(self.boards, self.method, self.event_fields))
        rankings = [(f"field {r.field}", labelled(r, local)) for r in result.rankings]
        rankings += [(r.field, labelled(r, local)) for r in rank_boards(self.boards, self.method, self.club_fields)]
        return EventResult(Across.YES, {"field": result}, tuple(rankings))
