"""A duplicate session scored as a whole, from plain values (``DB-77``, ``DB-78``, ``DB-12``, ``DB-87``).

:func:`score_session` takes the session's boards, its traveller lines, the results due per board, the
method and the fields, and answers a :class:`SessionResult`: every board's traveller with each line's
score and points, and a ranking per field. It is a pure function of its arguments: the same session
scored twice gives equal values, in the same order, whatever order the lines came in.

Rules we state (the boards' own rules are in the modules named):

* A line's score comes from its contract, declarer and tricks by ``DB-77`` with the board's
  vulnerability from its number (``DB-2``); an *assigned* score replaces it (North-South's view, a
  multiple of 10; split when the two sides are given different scores); an *artificial* score gives each
  side a percentage (``DB-12``). See :mod:`laws.scoring.comparison` for how each is compared.
* Every line of a board is compared with every other line of it (its traveller), whatever the fields;
  the fields only say which pairs are ranked together. A pair's direction is its home direction (how
  it is numbered), not the seat it took: in an arrow-switched round pair 3 NS sits East-West.
* ``due`` is the number of results a board should have had (the Neuberg ``N``); None means "as many as
  it has lines", an int is the same for every board, a mapping gives each board its own.
* A pair's percentage (matchpoints) is its points over the sum of the tops of the boards it has a score
  on, times 100. At IMPs there is no percentage; pairs are ranked on IMPs per board played (their total
  is shown too), so a pair that sat out a round is neither helped nor hurt by the missing board.
* Ranking is on the exact figure; pairs whose exact figures are equal share the place, shown as ``"2="``,
  and are listed by pair number. A pair in ``fields`` with no result in the session is not ranked.
* Bad input raises :class:`SessionError` (a ``ValueError``) naming the board, the line (1-based, in the
  order given) and the pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from laws.cards import Card, Side
from laws.duplicate.boards import vulnerability
from laws.scoring.comparison import Entry, Kind, Points
from laws.scoring.duplicate import ScoreInputError, board_score
from laws.scoring.imps import Datum, ImpMethod, artificial_imps, imp_board
from laws.scoring.matchpoints import Scale, matchpoint_board, percentage, top
from laws.scoring.session_values import (
    Artificial,
    Assigned,
    Line,
    Method,
    Pair,
    Played,
    Ranking,
    Result,
    ScoredBoard,
    ScoredLine,
    SessionError,
    SessionResult,
    Standing,
)

SIDE_WORDS = {Side.NS: "North-South", Side.EW: "East-West"}
__all__ = ["Artificial", "Assigned", "Line", "Method", "Pair", "Played", "Ranking", "Result", "ScoredBoard",
           "ScoredLine", "SessionError", "SessionResult", "Standing", "Tally", "check_lines", "places", "rank_boards", "rank_tallies",
           "score_boards", "score_session", "tally_boards"]


# -- checking the input ---------------------------------------------------------------------------

def _check_boards(boards: Iterable[int]) -> tuple[int, ...]:
    seen: set[int] = set()
    for n in boards:
        try:
            vulnerability(n)
        except ValueError as exc:
            raise SessionError(f"session boards: {exc}") from None
        if n in seen:
            raise SessionError(f"board {n} is listed twice in the session's boards")
        seen.add(n)
    if not seen:
        raise SessionError("a session has at least one board")
    return tuple(sorted(seen))


def _check_due(due: int | Mapping[int, int] | None, boards: tuple[int, ...],
               counts: Mapping[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for b in boards:
        if due is None:
            n = max(1, counts.get(b, 0))
        elif isinstance(due, Mapping):
            if b not in due:
                raise SessionError(f"board {b}: no number of results due")
            n = due[b]
        else:
            n = due
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise SessionError(f"board {b}: results due must be a whole number from 1, got {n!r}")
        if counts.get(b, 0) > n:
            raise SessionError(f"board {b}: {counts[b]} results but only {n} due")
        out[b] = n
    return out


def _check_fields(fields: Mapping[Pair, str]) -> None:
    for pair, name in fields.items():
        if not isinstance(pair, Pair):
            raise SessionError(f"fields: {pair!r} is not a Pair")
        if not isinstance(name, str) or not name:
            raise SessionError(f"fields: pair {pair.label} needs a field name, got {name!r}")


def _check_seating(lines: list[Line], boards: set[int], fields: Mapping[Pair, str]) -> None:
    seen: dict[tuple[int, Pair], tuple[int, Side]] = {}
    for i, line in enumerate(lines, 1):
        if not isinstance(line, Line):
            raise SessionError(f"line {i}: not a traveller line: {line!r}")
        b = line.board
        if b not in boards:
            if isinstance(line.result, Played):
                raise SessionError(f"board {b}: a result on a board not in the session (line {i})")
            raise SessionError(f"board {b}: an adjusted score on a board not played in this session (line {i})")
        if not isinstance(line.ns, Pair) or not isinstance(line.ew, Pair):
            raise SessionError(f"board {b}, line {i}: both sides must be Pair values")
        if not isinstance(line.group, str) or not line.group:
            raise SessionError(f"board {b}, line {i}: the fouled-board group must be a name, got {line.group!r}")
        if line.ns == line.ew:
            raise SessionError(f"board {b}, line {i}: pair {line.ns.label} is on both sides")
        for pair, seat in ((line.ns, Side.NS), (line.ew, Side.EW)):
            if pair not in fields:
                raise SessionError(f"board {b}: pair {pair.label} is in no field (line {i})")
            earlier = seen.get((b, pair))
            if earlier is not None:
                j, where = earlier
                if where is seat:
                    raise SessionError(f"board {b}: a second result for pair {pair.label} (lines {j} and {i})")
                raise SessionError(
                    f"board {b}: result for pair {pair.label} which the board's traveller lists twice "
                    f"(line {j} as {SIDE_WORDS[where]}, line {i} as {SIDE_WORDS[seat]})")
            seen[(b, pair)] = (i, seat)


def _entry(line: Line, i: int, method: Method, scores: dict[tuple[object, ...], int] | None = None) -> Entry:
    """The line's entry; ``scores`` (a session's own) keeps each distinct played result's score once."""
    r, b = line.result, line.board
    if isinstance(r, Played):
        if r.lead is not None and not isinstance(r.lead, Card):
            raise SessionError(f"board {b}, line {i}: the lead must be a Card, got {r.lead!r}")
        key: tuple[object, ...] | None = (r.contract, r.declarer, r.tricks, b)
        score = None
        if scores is not None and key is not None:
            try:
                score = scores.get(key)
            except TypeError:       # a value that cannot be a key: board_score names what is wrong
                key = None
        if score is None:
            try:
                score = board_score(r.contract, r.declarer, r.tricks, vulnerability(b))
            except ScoreInputError as exc:
                raise SessionError(f"board {b}, line {i}: {exc}") from None
            if scores is not None and key is not None:
                scores[key] = score
        return Entry.real(score, line.group)
    where = f"board {b}, line {i}"
    if isinstance(r, Assigned):
        ew = r.ns if r.ew is None else r.ew
        for s in (r.ns, ew):
            if isinstance(s, bool) or not isinstance(s, int) or s % 10:
                raise SessionError(f"{where}: an assigned score is a whole multiple of 10, got {s!r}")
        return Entry.split(r.ns, ew, line.group)
    if isinstance(r, Artificial):
        try:
            entry = Entry.adjusted(r.ns, r.ew)
            if method.at_imps:
                artificial_imps(r.ns)
                artificial_imps(r.ew)
        except (ValueError, TypeError) as exc:
            raise SessionError(f"{where}: {exc}") from None
        return entry
    raise SessionError(f"{where}: the result must be Played, Assigned or Artificial, got {r!r}")


# -- scoring --------------------------------------------------------------------------------------

def _note(line: Line, points: Points) -> str:
    if points.kind is Kind.SMALL_GROUP:
        return f"fouled board: group {line.group} too small to compare, average-plus to both sides"
    r = line.result
    if isinstance(r, Artificial):
        return f"artificial {float(r.ns):g}/{float(r.ew):g}"
    if isinstance(r, Assigned):
        return "assigned" if r.ew is None or r.ew == r.ns else "assigned, split"
    return ""


def _scored_line(line: Line, entry: Entry, points: Points, board_top: Fraction | None,
                 percents: dict[Fraction, Fraction] | None = None) -> ScoredLine:
    """The line scored; ``percents`` (the board's own) keeps each points value's percentage once."""
    r = line.result
    contract, declarer, tricks, lead = "", "", None, None
    if isinstance(r, Played):
        contract = "Pass" if r.contract is None else r.contract.code
        declarer = "" if r.declarer is None else r.declarer.value
        tricks = r.tricks
        lead = None if r.lead is None else r.lead.code
    pct_ns = pct_ew = None
    if board_top is not None:
        if percents is None:
            percents = {}
        pct_ns = percents.get(points.ns)
        if pct_ns is None:
            pct_ns = percents[points.ns] = percentage(points.ns, board_top)
        pct_ew = percents.get(points.ew)
        if pct_ew is None:
            pct_ew = percents[points.ew] = percentage(points.ew, board_top)
    return ScoredLine(line.board, line.ns, line.ew, line.group, contract, declarer, tricks, lead,
                      entry.ns, entry.ew, points.ns, points.ew, pct_ns, pct_ew, _note(line, points))


@dataclass(frozen=True)
class Tally:
    """A pair's running figures: points, the tops of the boards it scored on, how many boards."""

    total: Fraction
    tops: Fraction
    boards: int

    def add(self, points: Fraction, board_top: Fraction | None) -> Tally:
        """With one more board's points."""
        return Tally(self.total + points, self.tops + (board_top or 0), self.boards + 1)

    def remove(self, points: Fraction, board_top: Fraction | None) -> Tally:
        """Without one board's points (a board scored again takes its old points back first)."""
        return Tally(self.total - points, self.tops - (board_top or 0), self.boards - 1)


NO_TALLY = Tally(Fraction(0), Fraction(0), 0)


def places(keys: list[Fraction]) -> list[str]:
    """Places for figures already sorted best first: equal figures share a place shown as ``"2="``.

    One pass over the runs of equal figures (a field of thousands of pairs with many ties costs no more
    than one without)."""
    out: list[str] = []
    first = 0
    while first < len(keys):
        end = first + 1
        while end < len(keys) and keys[end] == keys[first]:
            end += 1
        out += [f"{first + 1}{'=' if end - first > 1 else ''}"] * (end - first)
        first = end
    return out


def standing(pair: Pair, t: Tally, at_imps: bool) -> tuple[Fraction, Standing]:
    """A pair's standing from its figures (its place left empty) and the figure it is ranked by (its
    percentage at matchpoints, its points per board at IMPs): higher is better, ties by pair."""
    pct = None if at_imps else percentage(t.total, t.tops)
    per_board = t.total / t.boards
    key = per_board if pct is None else pct
    return key, Standing(pair, t.total, None if at_imps else t.tops, pct, per_board, t.boards, "")


def _rank(field: str, tallies: dict[Pair, Tally], at_imps: bool) -> Ranking:
    rows = []
    for pair, t in tallies.items():
        key, st = standing(pair, t, at_imps)
        rows.append((key, pair, st))
    rows.sort(key=lambda r: (-r[0], r[1].key))
    standings = tuple(Standing(s.pair, s.total, s.tops, s.percent, s.per_board, s.boards, place)
                      for (_k, _p, s), place in zip(rows, places([r[0] for r in rows])))
    return Ranking(field, standings)


def score_session(boards: Iterable[int], lines: Iterable[Line], due: int | Mapping[int, int] | None,
                  method: Method, fields: Mapping[Pair, str], *,
                  butler_drop: int | None = None) -> SessionResult:
    """Score a whole session: :func:`score_boards`, then :func:`rank_boards`.

    Args and raises: as :func:`score_boards`.

    Returns:
        The boards' travellers and the fields' rankings.
    """
    scored = score_boards(boards, lines, due, method, fields, butler_drop=butler_drop)
    return SessionResult(method, scored, rank_boards(scored, method, fields))


def score_boards(boards: Iterable[int], lines: Iterable[Line], due: int | Mapping[int, int] | None,
                 method: Method, fields: Mapping[Pair, str], *,
                 butler_drop: int | None = None) -> tuple[ScoredBoard, ...]:
    """Score the boards of a session, each on its own lines (its points depend on nothing else).

    Args:
        boards: the session's board numbers.
        lines: the traveller lines, in any order.
        due: results due per board (None: as many as the board has lines; an int: every board).
        method: matchpoints (2-scale or 1-scale), Butler IMPs or cross-IMPs.
        fields: each pair's field name (pairs ranked together).
        butler_drop: Butler only: scores dropped at each end of a datum (None: the default rule).

    Returns:
        The boards' travellers, in number order.

    Raises:
        SessionError: naming what is wrong and where.
    """
    if not isinstance(method, Method):
        raise SessionError(f"method must be one of {', '.join(m.value for m in Method)}, got {method!r}")
    numbers = _check_boards(boards)
    line_list = list(lines)
    _check_fields(fields)
    entries = _entries(line_list, set(numbers), method, fields)
    counts: dict[int, int] = {}
    for line in line_list:
        counts[line.board] = counts.get(line.board, 0) + 1
    dues = _check_due(due, numbers, counts)
    per_board: dict[int, list[tuple[Line, Entry]]] = {b: [] for b in numbers}
    for line, entry in zip(line_list, entries):
        per_board[line.board].append((line, entry))
    scale = Scale.ONE if method is Method.MATCHPOINTS_HALF else Scale.TWO
    scored_boards = []
    for b in numbers:
        rows = sorted(per_board[b], key=lambda le: (le[0].ns.key, le[0].ew.key))
        entries = [e for _line, e in rows]
        datums: tuple[Datum, ...] = ()
        board_top: Fraction | None = None
        if method.at_imps:
            imp_method = ImpMethod.BUTLER if method is Method.BUTLER else ImpMethod.CROSS
            try:
                scored = imp_board(entries, dues[b], imp_method, butler_drop)
            except ValueError as exc:
                raise SessionError(f"board {b}: {exc}") from None
            points, datums = scored.points, scored.datums
        else:
            board_top = top(dues[b], scale)
            points = matchpoint_board(entries, dues[b], scale)
        percents: dict[Fraction, Fraction] = {}
        out = [_scored_line(line, entry, pts, board_top, percents) for (line, entry), pts in zip(rows, points)]
        scored_boards.append(ScoredBoard(b, vulnerability(b), dues[b], board_top, tuple(out), datums))
    return tuple(scored_boards)


def _entries(lines: list[Line], boards: set[int], method: Method, fields: Mapping[Pair, str]) -> list[Entry]:
    """Each line's entry, once its seating is checked: every refusal of the lines themselves."""
    _check_seating(lines, boards, fields)
    scores: dict[tuple[object, ...], int] = {}
    return [_entry(line, i, method, scores) for i, line in enumerate(lines, 1)]


def check_lines(boards: Iterable[int], lines: Iterable[Line], method: Method, fields: Mapping[Pair, str]) -> None:
    """Refuse, as :func:`score_boards` would, lines that could never be scored, without scoring them.

    One implementation with the scoring's own (the same checks, the same words), for a caller that takes
    lines one at a time and must refuse the one that would stop its boards being scored later (a
    federation's field: ``docs/federation.md``) rather than find out when the board is scored. It checks
    the seating (a pair on both sides, a second result for a pair, a pair the traveller lists twice, a
    pair in no field, a board not in ``boards``) and each result (its contract, tricks, lead, an assigned
    or artificial score), not the results due (a board's count is the caller's to keep).

    Raises:
        SessionError: naming what is wrong and where (the line as its place in ``lines``, from 1).
    """
    if not isinstance(method, Method):
        raise SessionError(f"method must be one of {', '.join(m.value for m in Method)}, got {method!r}")
    _check_fields(fields)
    _entries(list(lines), set(boards), method, fields)


def tally_boards(boards: Iterable[ScoredBoard]) -> dict[Pair, Tally]:
    """Each pair's running figures over boards already scored."""
    # Sums kept as whole numerators per denominator and turned into fractions once a pair: the same exact
    # figures as adding the fractions board by board, without a gcd for every line of a whole rescore.
    sums: dict[Pair, tuple[dict[int, int], dict[int, int], list[int]]] = {}
    for board in sorted(boards, key=lambda bd: bd.number):
        top_ = board.top or 0
        for ln in board.lines:
            for pair, points in ((ln.ns, ln.ns_points), (ln.ew, ln.ew_points)):
                acc = sums.get(pair)
                if acc is None:
                    acc = sums[pair] = ({}, {}, [0])
                for into, value in ((acc[0], points), (acc[1], top_)):
                    into[value.denominator] = into.get(value.denominator, 0) + value.numerator
                acc[2][0] += 1
    return {pair: Tally(_exact(total), _exact(tops), n[0]) for pair, (total, tops, n) in sums.items()}


def _exact(by_denominator: dict[int, int]) -> Fraction:
    out = Fraction(0)
    for den, num in by_denominator.items():
        out += Fraction(num, den)
    return out


def rank_boards(boards: Iterable[ScoredBoard], method: Method, fields: Mapping[Pair, str]) -> tuple[Ranking, ...]:
    """The fields' rankings from boards already scored (the last step of :func:`score_session`).

    A session scored board by board (:func:`score_boards` on each board's own lines and due count) and
    ranked here gives the same rankings as the whole session scored at once.
    """
    return rank_tallies(tally_boards(boards), method, fields)


def rank_tallies(tallies: Mapping[Pair, Tally], method: Method, fields: Mapping[Pair, str]) -> tuple[Ranking, ...]:
    """The fields' rankings from the pairs' running figures (a pair with no board is not ranked).

    Raises:
        SessionError: a pair that is in no field.
    """
    by_field: dict[str, dict[Pair, Tally]] = {}
    for pair in sorted(tallies, key=lambda p: p.key):
        if tallies[pair].boards <= 0:
            continue
        if pair not in fields:
            raise SessionError(f"pair {pair.label} is in no field")
        by_field.setdefault(fields[pair], {})[pair] = tallies[pair]
    return tuple(_rank(name, by_field[name], method.at_imps) for name in sorted(by_field))
