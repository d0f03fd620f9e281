"""An independent recomputation of duplicate scores and matchpoints, for checking the exports.

Written from the rules (docs/laws.md DB-2, DB-77, DB-78, DB-87, DB-12 and docs/scoring.md) without using the
code under test (nothing from ``laws.scoring`` or ``firmware_host.duplicate``), so an export that the
scoring got wrong disagrees with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

# Vulnerability of boards 1..16 (DB-2): who is vulnerable.
_VUL = ("-", "NS", "EW", "B", "NS", "EW", "B", "-", "EW", "B", "-", "NS", "B", "-", "NS", "EW")


def vulnerable(board: int, seat: str) -> bool:
    v = _VUL[(board - 1) % 16]
    side = "NS" if seat in "NS" else "EW"
    return v == "B" or v == side


def score(board: int, contract: str, declarer: str, tricks: int) -> int:
    """North-South's duplicate score of a played board (DB-77)."""
    if contract.upper() in ("PASS", ""):
        return 0
    doubled = len(contract) - len(contract.rstrip("X"))
    level, strain = int(contract[0]), contract.rstrip("X")[1:]
    vul = vulnerable(board, declarer)
    need = level + 6
    if tricks >= need:
        first = 40 if strain in ("NT", "N") else 30 if strain in ("S", "H") else 20
        rest = 20 if strain in ("C", "D") else 30
        below = (first + (level - 1) * rest) * (1, 2, 4)[doubled]
        total = below + (50 if below < 100 else (500 if vul else 300))
        if level == 6:
            total += 750 if vul else 500
        if level == 7:
            total += 1500 if vul else 1000
        total += (0, 50, 100)[doubled]
        over = tricks - need
        if doubled:
            total += over * (200 if vul else 100) * doubled
        else:
            total += over * rest
        result = total
    else:
        down = need - tricks
        if not doubled:
            result = -down * (100 if vul else 50)
        else:
            pts = 0
            for i in range(1, down + 1):
                if vul:
                    pts += 200 if i == 1 else 300
                else:
                    pts += 100 if i == 1 else 200 if i <= 3 else 300
            result = -pts * doubled
    return result if declarer in "NS" else -result


@dataclass
class Line:
    ns_score: int | None          # None: an artificial score
    group: str = "A"
    artificial: tuple[Fraction, Fraction] | None = None


def matchpoints(lines: Sequence[Line], due: int) -> list[tuple[Fraction, Fraction]]:
    """Each line's (NS, EW) matchpoints on the 2-scale: every group apart, factored to ``due`` by
    Neuberg; a group under 3 results and under a third of ``due`` gets 60 % (when the board has more
    than one group); an artificial score its percentage of the top for ``due``."""
    top = Fraction(2 * (due - 1))
    out: list[tuple[Fraction, Fraction]] = [(Fraction(0), Fraction(0))] * len(lines)
    groups: dict[str, list[int]] = {}
    for i, ln in enumerate(lines):
        if ln.artificial is not None:
            out[i] = (ln.artificial[0] / 100 * top, ln.artificial[1] / 100 * top)
        else:
            groups.setdefault(ln.group, []).append(i)
    for members in groups.values():
        n = len(members)
        if len(groups) > 1 and n < 3 and 3 * n < due:
            for i in members:
                out[i] = (Fraction(60, 100) * top, Fraction(60, 100) * top)
            continue
        for i in members:
            mine = lines[i].ns_score
            assert mine is not None
            raw = sum(2 if mine > lines[j].ns_score else 1 if mine == lines[j].ns_score else 0  # type: ignore[operator]
                      for j in members if j != i)
            ns = Fraction(raw) if n == due else (Fraction(raw) + 1) * due / n - 1
            ew_raw = 2 * (n - 1) - raw
            ew = Fraction(ew_raw) if n == due else (Fraction(ew_raw) + 1) * due / n - 1
            out[i] = (ns, ew)
    return out


def shown(value: Fraction) -> float:
    return float(value)


def close(a: float, b: float) -> bool:
    """Equal as two-decimal figures (the exports round to two places)."""
    return abs(a - b) <= 0.0051
