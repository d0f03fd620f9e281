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
scores the field from scratch (the tests check that scoring after every message equals a whole rescore).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from laws.competition.sections import Across, EventResult, SectionLine, score_event
from laws.scoring.session_values import Line, Method, Pair


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
    """The field so far: each club's current lines, keyed by (board, NS pair, EW pair)."""

    boards: tuple[int, ...]
    clubs: Mapping[str, ClubEntry]
    method: Method = Method.MATCHPOINTS
    lines: dict[str, dict[tuple[int, Pair, Pair], Line]] = field(default_factory=dict)

    def apply(self, club: str, line: Line | None, *, remove: tuple[int, Pair, Pair] | None = None) -> None:
        """Take one club's line (a result or its correction), or take a line off (``remove``)."""
        if club not in self.clubs:
            raise FieldError(f"club {club!r} does not take part in the event")
        mine = self.lines.setdefault(club, {})
        if remove is not None:
            mine.pop(remove, None)
            return
        if line is None:
            raise FieldError(f"club {club}: a message with no line")
        if line.board not in self.boards:
            raise FieldError(f"club {club}: board {line.board} is not one of the event's boards")
        for pair in (line.ns, line.ew):
            if pair not in self.clubs[club].fields:
                raise FieldError(f"club {club}: board {line.board}: pair {pair.label} is not one of the club's pairs")
        mine[(line.board, line.ns, line.ew)] = line

    def all_lines(self) -> Iterable[SectionLine]:
        for club in sorted(self.lines):
            for key in sorted(self.lines[club], key=lambda k: (k[0], k[1].key, k[2].key)):
                yield SectionLine(club, self.lines[club][key])

    def score(self) -> EventResult:
        """The whole field scored from scratch, and every club's own ranking."""
        spec = {c: (self.boards, e.due, e.fields) for c, e in self.clubs.items()}
        return score_event(spec, self.all_lines(), self.method, Across.YES)
