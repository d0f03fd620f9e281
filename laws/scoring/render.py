"""A scored session as text: travellers and rankings, the one place where figures are rounded.

The rounding rule, for every figure shown (matchpoints, IMPs, percentages): two decimals, an exact half
of the last place rounding away from zero (``12.345 -> 12.35``, ``-0.125 -> -0.13``). Scoring itself is
exact (fractions); ranking and ties use the exact figures, so two pairs may show the same rounded
percentage in different places. The text is a pure function of the result: the same result gives the
same characters (and, encoded as UTF-8, the same bytes).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from laws.duplicate.boards import dealer
from laws.scoring.session import Method, ScoredBoard, SessionResult

PLACES = 2
_METHOD_WORDS = {Method.MATCHPOINTS: "matchpoints (2 for a score beaten, 1 for a tie)",
                 Method.MATCHPOINTS_HALF: "matchpoints (1 for a score beaten, 1/2 for a tie)",
                 Method.BUTLER: "Butler IMPs against a datum", Method.CROSS_IMPS: "cross-IMPs"}


def present(value: Fraction | int, places: int = PLACES) -> str:
    """``value`` with ``places`` decimals, an exact half rounding away from zero."""
    f = value if isinstance(value, Fraction) else Fraction(value)
    n, d = abs(f.numerator) * 10 ** places, f.denominator
    whole = (2 * n + d) // (2 * d)             # floor(x + 1/2) for x = n/d >= 0: halves go up
    sign = "-" if f < 0 and whole else ""
    digits = str(whole).rjust(places + 1, "0")
    if places == 0:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def _opt(value: Fraction | None) -> str:
    return "" if value is None else present(value)


def _board(board: ScoredBoard, at_imps: bool, marks: Mapping[tuple[int, str, str], str]) -> list[str]:
    head = (f"Board {board.number}: dealer {dealer(board.number).value}, {board.vulnerability.words}, "
            f"{board.due} due")
    if board.top is not None:
        head += f", top {present(board.top)}"
    for d in board.datums:
        head += f", datum {d.ns}" if d.ns == d.ew else f", datum NS {d.ns} EW {d.ew}"
        if len(board.datums) > 1:
            head += f" (group {d.group})"
    unit = "IMPs" if at_imps else "MP"
    pct_head = "" if at_imps else f" {'NS %':>7} {'EW %':>7}"
    out = [head, f"  {'NS':>6} {'EW':>6} {'Contract':<8} {'By':<2} {'Tricks':>6} {'Lead':<4} "
                 f"{'Score':>7} {'NS ' + unit:>8} {'EW ' + unit:>8}{pct_head}  Note"]
    for ln in board.lines:
        score = "" if ln.ns_score is None else str(ln.ns_score)
        if ln.ew_score is not None and ln.ew_score != ln.ns_score:
            score += f"/{ln.ew_score}"
        note = ln.note + (f" [group {ln.group}]" if ln.group != "A" else "")
        mark = marks.get((board.number, ln.ns.label, ln.ew.label), "")
        note = f"{note}; {mark}" if note and mark else note or mark
        tricks = "" if ln.tricks is None else str(ln.tricks)
        pct = "" if at_imps else f" {_opt(ln.ns_percent):>7} {_opt(ln.ew_percent):>7}"
        out.append(f"  {ln.ns.label:>6} {ln.ew.label:>6} {ln.contract:<8} {ln.declarer:<2} {tricks:>6} "
                   f"{ln.lead or '':<4} {score:>7} {present(ln.ns_points):>8} {present(ln.ew_points):>8}"
                   f"{pct}  {note}".rstrip())
    return out


def render_session(result: SessionResult, marks: Mapping[tuple[int, str, str], str] | None = None) -> str:
    """The session as plain text: each board's traveller, then each field's ranking.

    ``marks``: words for a line's note that the scores do not carry, by (board, NS label, EW label): the
    session marks a line entered by hand, as its pages and exports do."""
    at_imps = result.method.at_imps
    out = [f"Scored by {_METHOD_WORDS[result.method]}", ""]
    for board in result.boards:
        out.extend(_board(board, at_imps, marks or {}))
        out.append("")
    for ranking in result.rankings:
        out.append(f"Field {ranking.field}")
        if at_imps:
            out.append(f"  {'Place':<6} {'Pair':>6} {'IMPs':>9} {'Per board':>9} {'Boards':>6}")
        else:
            out.append(f"  {'Place':<6} {'Pair':>6} {'MP':>9} {'Of':>9} {'%':>7} {'Boards':>6}")
        for s in ranking.standings:
            if at_imps:
                out.append(f"  {s.place:<6} {s.pair.label:>6} {present(s.total):>9} "
                           f"{present(s.per_board):>9} {s.boards:>6}")
            else:
                out.append(f"  {s.place:<6} {s.pair.label:>6} {present(s.total):>9} {_opt(s.tops):>9} "
                           f"{_opt(s.percent):>7} {s.boards:>6}")
        out.append("")
    return "\n".join(out)

