"""A club's own ranking during a simultaneous: its pairs, on the boards it has finished, at the field's
matchpoints (``docs/federation.md``, "A club's own ranking").

While the evening is played, the public ranking counts only boards every club has finished
(:func:`laws.federation.release.public_boards`), which in a simultaneous across time zones may be none
for hours. A club that has finished some boards may see their field already
(:func:`laws.federation.release.club_may_see`); its own ranking counts exactly those boards: each of its
pairs' matchpoints (or IMPs) on them as scored across the whole field so far (so it moves while other
clubs play them), its pairs ranked by field (``"<club> NS"``, ``"<club> EW"``, ``"<club> one field"``), the
standings as :func:`laws.scoring.session.rank_tallies` makes them. A board the club has not finished
counts for none of its pairs, even where one of its pairs has played it; once the event is closed every
board counts, and the ranking is the club's ranking in the final field.

It is, by construction and by test, the club's ranking in a whole rescore of the field on those boards
(:func:`laws.competition.sections.score_event` on the boards the club has finished, the club's pairs
taken out).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from laws.scoring.session import NO_TALLY, Tally, rank_tallies
from laws.scoring.session_values import Method, Pair, Ranking, ScoredBoard, ScoredLine


def own_tallies(club: str, boards: Iterable[ScoredBoard], club_of: Callable[[Pair], str]) -> dict[Pair, Tally]:
    """The figures of ``club``'s pairs on ``boards`` (scored across the field): each line of the club's
    adds its points to its two pairs (a line is one club's: both its pairs are the club's)."""
    tallies: dict[Pair, Tally] = {}
    for board in sorted(boards, key=lambda bd: bd.number):
        for ln in board.lines:
            if club_of(ln.ns) != club:
                continue
            tallies[ln.ns] = tallies.get(ln.ns, NO_TALLY).add(ln.ns_points, board.top)
            tallies[ln.ew] = tallies.get(ln.ew, NO_TALLY).add(ln.ew_points, board.top)
    return tallies


def by_club(board: ScoredBoard, club_of: Callable[[Pair], str]) -> dict[str, ScoredBoard]:
    """A board scored across the field, as each club's part of it: the club's lines alone, each with
    the field's points (the same top and due), so that :func:`own_tallies` of a club reads its own lines
    only (a service keeps these for each board it released, rather than reading the whole field's
    lines again for every club)."""
    lines: dict[str, list[ScoredLine]] = {}
    for ln in board.lines:
        lines.setdefault(club_of(ln.ns), []).append(ln)
    return {club: replace(board, lines=tuple(mine)) for club, mine in lines.items()}


def own_rankings(club: str, boards: Iterable[ScoredBoard], club_of: Callable[[Pair], str], method: Method,
                 fields: Mapping[Pair, str]) -> tuple[Ranking, ...]:
    """``club``'s own rankings on ``boards`` (the boards it has finished, each scored across the field):
    one a field of ``fields`` (each pair's field name, ``"<club> NS"``), best first, a pair with no board
    not ranked, fields in name order.

    Raises:
        SessionError: a pair of the club's that is in no field (as :func:`rank_tallies`).
    """
    return rank_tallies(own_tallies(club, boards, club_of), method, fields)
