"""The field of a simultaneous: every club's results of a board compared with every other's.

Each club plays the federation's hand records and sends its traveller lines (its own pair numbers). The
field is scored as one event of several sections scored across the field
(:func:`laws.competition.sections.score_event`, ``Across.YES``; a club is a section): every result of a
board is compared with every other of the board from the same direction, Neuberg where a board has fewer
results than were due (``DB-78``), and each pair is ranked in the whole field and in its club.

A club that played another deal for a board (a fouled board, ``DB-87``) is scored by group: its lines of
that board carry the group the club's session gave them, and only lines of the same deal are compared.
Group ``A`` is the federation's hand record, the same deal in every club, compared across the whole
field; any other group is the club's own (its session names it, and a club cannot show that its fouled
deal is another club's), so the field names it ``<club>/<group>`` and compares it with the club's own
lines of that group alone, Neuberg from the results due (:func:`field_group`).

The club's messages (:mod:`laws.federation.ledger`) carry lines keyed by board and the club's pairs; a
later message for the same (board, pairs) replaces the earlier one (a correction), and a message that
takes a line off removes it. :class:`Field` folds the messages in the order taken; :meth:`Field.score`
scores again only the boards whose lines changed (the tests check that after every message it equals a
whole rescore by :func:`laws.competition.sections.score_event`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from laws.competition.sections import SPAN, Across, EventResult, SectionLine, SectionPair, labelled
from laws.federation.own import own_rankings
from laws.federation.ranking import LiveRanking
from laws.scoring.session import NO_TALLY, Tally, check_lines, rank_tallies, score_boards, tally_boards
from laws.scoring.session_values import Line, Method, Pair, Ranking, ScoredBoard, SessionError, SessionResult


class FieldError(ValueError):
    """A message the field cannot take; the message says which club, board and pairs."""


RECORD_GROUP = "A"


def field_group(club: str, group: str) -> str:
    """A club's fouled-board group as the field names it: ``A`` (the hand record's deal) across the field,
    any other group the club's own, ``<club>/<group>``."""
    return group if group == RECORD_GROUP else f"{club}/{group}"


@dataclass(frozen=True)
class ClubEntry:
    """A club's part of the event: its pairs (each with its field name: NS, EW or one field) and the
    number of results of each board it is due to send."""

    club: str
    fields: Mapping[Pair, str]
    due: int
    boards: frozenset[int] = frozenset()    # the boards the club's session plays (empty: the entry named none)


@dataclass
class Field:
    """The field so far: each club's current lines, keyed by (board, NS pair, EW pair).

    Scoring is incremental, at two levels. A board is scored again only when one of its lines changed
    (a board's points depend on its own lines alone: a result scores again that board's rows, no other
    board's). The pairs' running figures (:class:`laws.scoring.session.Tally`) on the boards being
    ranked are kept, and a board scored again takes its old points off the pairs that played it and
    adds its new ones, so only the pairs touched change; the ranking is then made from the figures
    (:func:`laws.scoring.session.rank_tallies`). :meth:`prepare` stamps what it returns: the same stamp
    means the same figures, so a service may keep the ranking it made last. The clubs' order fixes the
    pairs' numbering in the field (the clubs' ids sorted). The tests check every step against a whole
    rescore by :func:`laws.competition.sections.score_event`.
    """

    boards: tuple[int, ...]
    clubs: Mapping[str, ClubEntry]
    method: Method = Method.MATCHPOINTS
    lines: dict[str, dict[tuple[int, Pair, Pair], Line]] = field(default_factory=dict)
    due_total: int | None = None    # a board's results due across the field, when the organiser fixed
                                    # every club's (else the sum of the entered clubs' ``due``)
    _scored: dict[int, ScoredBoard] = field(default_factory=dict, repr=False, compare=False)
    _by_board: dict[int, dict[tuple[str, Pair, Pair], Line]] = field(default_factory=dict, repr=False,
                                                                    compare=False)
    _shown: tuple[int, ...] | None = field(default=None, repr=False, compare=False)
    _tallied: dict[int, ScoredBoard] = field(default_factory=dict, repr=False, compare=False)
    _tallies: dict[Pair, Tally] = field(default_factory=dict, repr=False, compare=False)
    _version: int = field(default=0, repr=False, compare=False)
    _changes: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    _fields: dict[str, dict[Pair, str]] = field(default_factory=dict, repr=False, compare=False)
    _locals: dict[Pair, SectionPair] = field(default_factory=dict, repr=False, compare=False)
    _token: object = field(default_factory=object, repr=False, compare=False)   # this field's, in its stamps

    def __post_init__(self) -> None:
        for club, mine in self.lines.items():
            for (board, ns, ew), ln in mine.items():
                self._by_board.setdefault(board, {})[(club, ns, ew)] = ln

    def apply(self, club: str, line: Line | None, *, remove: tuple[int, Pair, Pair] | None = None) -> None:
        """Take one club's line (a result or its correction), or take a line off (``remove``)."""
        if club not in self.clubs:
            raise FieldError(f"club {club!r} does not take part in the event")
        mine = self.lines.setdefault(club, {})
        if remove is not None:
            if mine.pop(remove, None) is not None:
                self._by_board.get(remove[0], {}).pop((club, remove[1], remove[2]), None)
                self._scored.pop(remove[0], None)
                self._changes[remove[0]] = self._changes.get(remove[0], 0) + 1
            return
        if line is None:
            raise FieldError(f"club {club}: a message with no line")
        problem = self.problem(club, line)
        if problem:
            raise FieldError(f"club {club}: {problem}")
        mine[(line.board, line.ns, line.ew)] = line
        self._by_board.setdefault(line.board, {})[(club, line.ns, line.ew)] = line
        self._scored.pop(line.board, None)
        self._changes[line.board] = self._changes.get(line.board, 0) + 1

    def problem(self, club: str, line: Line, *, seating: bool = True) -> str:
        """Why the field cannot take ``line`` from ``club`` (``""`` when it can), so that a line the board's
        scoring would refuse is refused when it comes and never stops the board being scored later: a
        board not the event's or not one the club's entry plays, a pair not the club's, and the scoring's
        own refusals of the club's lines of the board with this one in (a pair on both sides, a second
        result for a pair, a pair on two lines, a result that cannot be scored:
        :func:`laws.scoring.session.check_lines`, ``docs/scoring.md`` section 9; not with ``seating``
        false: a line to take off)."""
        entry = self.clubs[club]
        if line.board not in self.boards:
            return f"board {line.board} is not one of the event's boards"
        if entry.boards and line.board not in entry.boards:
            return (f"board {line.board} is not one of the club's boards (its entry gives "
                    f"{', '.join(map(str, sorted(entry.boards)))})")
        for pair in (line.ns, line.ew):
            if pair not in entry.fields:
                return f"board {line.board}: pair {pair.label} is not one of the club's pairs"
        if not seating:
            return ""
        others = sorted((ln for (c, ns, ew), ln in self._by_board.get(line.board, {}).items()
                         if c == club and (ns, ew) != (line.ns, line.ew)), key=lambda ln: (ln.ns.key, ln.ew.key))
        try:
            check_lines((line.board,), [*others, line], self.method, entry.fields)
        except SessionError as exc:
            if not others:
                return str(exc)
            taken = "line 1" if len(others) == 1 else f"lines 1-{len(others)}"
            return (f"{exc} (line {len(others) + 1} is this one; {taken} the club's lines of board {line.board} "
                    "taken so far, in pair order)")
        return ""

    def due(self) -> int:
        """A board's results due across the field (its Neuberg factor): the organiser's sum over every
        club of the event when given (``due_total``: a club not yet entered is due its results all the
        same), else the sum of the entered clubs' ``due``."""
        return max(1, self.due_total if self.due_total is not None else sum(e.due for e in self.clubs.values()))

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

    def board(self, number: int) -> ScoredBoard:
        """One board scored across the field (scored again only if its lines changed), pairs numbered
        in the field (:func:`local` names them by club)."""
        self._score_dirty([number])
        return self._scored[number]

    def board_job(self, number: int) -> Callable[[], ScoredBoard]:
        """Board ``number`` scored across the field, as a function to call later (outside a service's
        lock): its lines are read now; the function scores them (or gives the score already made) and
        reads nothing of the field, so results may keep being taken meanwhile."""
        done = self._scored.get(number)
        if done is not None:
            return lambda: done
        index = {c: k for k, c in enumerate(self._names())}
        due = self.due()
        fields, method = self._event_fields(), self.method
        rows = [Line(number, self._global(ln.ns, index[c]), self._global(ln.ew, index[c]), ln.result,
                     field_group(c, ln.group))
                for (c, _ns, _ew), ln in self._by_board.get(number, {}).items()]
        return lambda: score_boards((number,), rows, due, method, fields)[0]

    def dirty(self, wanted: Iterable[int]) -> dict[int, tuple[int, Callable[[], ScoredBoard]]]:
        """The boards of ``wanted`` whose lines changed since they were last scored, each with its lines'
        :meth:`version` and a job that scores it (:meth:`board_job`), so that a service can score them
        outside its lock and give the scores back with :meth:`keep`."""
        return {b: (self.version(b), self.board_job(b)) for b in wanted if b not in self._scored}

    def keep(self, number: int, version: int, scored: ScoredBoard) -> bool:
        """Take a score made outside (:meth:`dirty`) if the board's lines are still those it was made
        from (same :meth:`version`); whether it was taken (if not, :meth:`prepare` scores it again)."""
        if number in self._scored or self.version(number) != version:
            return False
        self._scored[number] = scored
        return True

    def version(self, number: int) -> int:
        """How many times board ``number``'s lines changed (a result, a correction, a line taken off)."""
        return self._changes.get(number, 0)

    def own(self, club: str, boards: Iterable[int]) -> tuple[Ranking, ...]:
        """``club``'s own rankings on ``boards`` (the boards it has finished), each board scored across the
        field (:func:`laws.federation.own.own_rankings`)."""
        wanted = sorted(set(boards))
        self._score_dirty(wanted)
        return own_rankings(club, [self._scored[b] for b in wanted], lambda p: self.local(p).section,
                            self.method, self.club_fields())

    def local(self, pair: Pair) -> SectionPair:
        """A field-wide pair as its club and its own number."""
        return self.namer()(pair)

    def namer(self) -> Callable[[Pair], SectionPair]:
        """:meth:`local` as a function of its own (the clubs' names read once; usable outside a lock)."""
        names = tuple(self._names())
        known = self._locals        # the clubs never change in a field: a pair's name is made once

        def local(pair: Pair) -> SectionPair:
            got = known.get(pair)
            if got is None:
                k, number = divmod(pair.number, SPAN)
                got = known[pair] = SectionPair(names[k], Pair(number, pair.direction))
            return got
        return local

    def _score_dirty(self, wanted: Iterable[int]) -> None:
        dirty = [b for b in wanted if b not in self._scored]
        if not dirty:
            return
        index = {c: k for k, c in enumerate(self._names())}
        due = self.due()
        event_fields = self._event_fields()
        for b in dirty:
            rows = [Line(b, self._global(ln.ns, index[c]), self._global(ln.ew, index[c]), ln.result,
                         field_group(c, ln.group))
                    for (c, _ns, _ew), ln in self._by_board.get(b, {}).items()]
            self._scored[b] = score_boards((b,), rows, due, self.method, event_fields)[0]

    def _event_fields(self) -> dict[Pair, str]:
        """Every pair's field, numbered in the field (made once a field: its clubs never change; a
        club's entry makes a new field). A copy, so a caller may keep or change it."""
        if "event" not in self._fields:
            out: dict[Pair, str] = {}
            for k, c in enumerate(self._names()):
                for pair, name in self.clubs[c].fields.items():
                    out[self._global(pair, k)] = name
            self._fields["event"] = out
        return dict(self._fields["event"])

    def club_fields(self) -> dict[Pair, str]:
        """Every pair's club field (``"<club> <field>"``), made once as :meth:`_event_fields`."""
        if "club" not in self._fields:
            out: dict[Pair, str] = {}
            for k, c in enumerate(self._names()):
                for pair, name in self.clubs[c].fields.items():
                    out[self._global(pair, k)] = f"{c} {name}"
            self._fields["club"] = out
        return dict(self._fields["club"])

    def prepare(self, only: Iterable[int] | None = None) -> Scored:
        """The boards' scores (boards whose lines changed scored again) and the pairs' figures on them,
        ready to rank. Ranking (:meth:`Scored.rank`) reads nothing of the field, so a service may rank
        outside its lock; two results with the same ``stamp`` rank the same (a stamp names its field
        too: a club's entry makes a new field, whose counts start again)."""
        keep = set(self.boards if only is None else only)
        shown = tuple(b for b in self.boards if b in keep)
        self._score_dirty(shown)
        if shown != self._shown:
            self._shown = shown
            self._tallied = {b: self._scored[b] for b in shown}
            self._tallies = tally_boards(self._tallied.values())
            self._version += 1
        else:
            for b in shown:
                old, new = self._tallied[b], self._scored[b]
                if old is new:
                    continue
                self._version += 1
                self._retally(old, new)
                self._tallied[b] = new
        scored = tuple(self._scored[b] for b in shown)
        return Scored(self.method, tuple(self._names()), scored, self._event_fields(), self.club_fields(),
                      dict(self._tallies), (self._token, shown, self._version))

    def _retally(self, old: ScoredBoard, new: ScoredBoard) -> None:
        """A board scored again: its old points off the pairs that played it, its new points on."""
        t = self._tallies
        for ln in old.lines:
            for pair, points in ((ln.ns, ln.ns_points), (ln.ew, ln.ew_points)):
                left = t[pair].remove(points, old.top)
                if left.boards:
                    t[pair] = left
                else:
                    del t[pair]
        for ln in new.lines:
            for pair, points in ((ln.ns, ln.ns_points), (ln.ew, ln.ew_points)):
                t[pair] = t.get(pair, NO_TALLY).add(points, new.top)


@dataclass(frozen=True)
class Scored:
    """Boards scored across the field, the pairs' figures on them, and the pairs' fields (the whole
    field's, and each club's); ``stamp`` names the figures (equal stamps, equal rankings)."""

    method: Method
    names: tuple[str, ...]
    boards: tuple[ScoredBoard, ...]
    event_fields: Mapping[Pair, str]
    club_fields: Mapping[Pair, str]
    tallies: Mapping[Pair, Tally]
    stamp: tuple[object, tuple[int, ...], int] = (None, (), 0)

    def rank(self, live: tuple[LiveRanking, LiveRanking] | None = None) -> EventResult:
        """The field's ranking and every club's own, from the pairs' figures; with ``live`` (the field's
        and the clubs' :class:`LiveRanking` of these fields, kept by the caller from one ranking to the
        next) only the pairs whose figures changed are placed again (the same rankings)."""
        names = self.names

        def local(p: Pair) -> SectionPair:
            k, number = divmod(p.number, SPAN)
            return SectionPair(names[k], Pair(number, p.direction))

        if live is None:
            whole = rank_tallies(self.tallies, self.method, self.event_fields)
            clubs = rank_tallies(self.tallies, self.method, self.club_fields)
        else:
            for kept in live:
                kept.update(self.tallies)
            whole, clubs = live[0].rankings(), live[1].rankings()
        result = SessionResult(self.method, self.boards, whole)
        rankings = [(f"field {r.field}", labelled(r, local)) for r in result.rankings]
        rankings += [(r.field, labelled(r, local)) for r in clubs]
        return EventResult(Across.YES, {"field": result}, tuple(rankings))

    def live(self) -> tuple[LiveRanking, LiveRanking]:
        """A fresh pair of :class:`LiveRanking` (the field's, the clubs') for :meth:`rank`."""
        return LiveRanking(self.method, self.event_fields), LiveRanking(self.method, self.club_fields)
