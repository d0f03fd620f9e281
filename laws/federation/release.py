"""What a club may see of the field, and when (``docs/federation.md``, "Secrecy across time zones").

A club receives the field's results of a board, and the board's deal, only once **the club itself has
finished that board** (every one of its tables due to play it has sent its result), or once the event is
closed. Before that, nothing of the board: not the other clubs' results, not their scores, not the deal.
The federation's own page shows the field's ranking only from boards every club has finished, until the
event closes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from laws.cards import Seat
from laws.competition.sections import SectionPair
from laws.duplicate.deal import Board
from laws.scoring.render import present
from laws.scoring.session_values import Pair, ScoredBoard


def club_may_see(club: str, board: int, finished: Mapping[str, frozenset[int]], closed: bool) -> bool:
    """Whether ``club`` may see the field's results and deal of ``board``."""
    return closed or board in finished.get(club, frozenset())


def public_boards(boards: tuple[int, ...], finished: Mapping[str, frozenset[int]], clubs: frozenset[str],
                  closed: bool) -> tuple[int, ...]:
    """The boards the public page may show: every club has finished them (all of them once closed)."""
    if closed:
        return boards
    return tuple(b for b in boards if all(b in finished.get(c, frozenset()) for c in clubs))


def board_release(board: ScoredBoard, club: str, local: Callable[[Pair], SectionPair],
                  deal: Board | None) -> dict[str, Any]:
    """What ``club`` is shown of ``board`` once the release rule lets it (:func:`club_may_see`): an
    allow-list of plain values, never the board's internal record.

    * ``board``, ``results`` (lines across the field), ``due``, ``top`` (at matchpoints, as text);
    * ``deal``: the board's hand record (``dealer``, ``vulnerable``, ``deal`` as PBN from North), or
      None when the federation has no records;
    * ``frequency``: the field's results as a frequency table, one row per different result of a group
      (``group``, ``contract``, ``declarer``, ``tricks``, ``score`` North-South's, ``count``, ``mp_ns``,
      ``mp_ew``), best for North-South first: no other club's pairs are named;
    * ``mine``: the club's own lines (``ns``, ``ew`` its pair numbers, ``group``, ``contract``,
      ``declarer``, ``tricks``, ``lead``, ``score``, ``mp_ns``, ``mp_ew``) with the field's matchpoints.
    """
    freq: dict[tuple[Any, ...], dict[str, Any]] = {}
    mine = []
    for ln in board.lines:
        key = (ln.group, ln.contract, ln.declarer, ln.tricks, ln.ns_score, ln.ns_points, ln.ew_points)
        row = freq.get(key)
        if row is None:
            row = freq[key] = {"group": ln.group, "contract": ln.contract, "declarer": ln.declarer,
                               "tricks": ln.tricks, "score": ln.ns_score, "count": 0,
                               "mp_ns": present(ln.ns_points), "mp_ew": present(ln.ew_points)}
        row["count"] += 1
        ns = local(ln.ns)
        if ns.section == club:
            mine.append({"ns": ns.pair.number, "ew": local(ln.ew).pair.number, "group": ln.group,
                         "contract": ln.contract, "declarer": ln.declarer, "tricks": ln.tricks, "lead": ln.lead,
                         "score": ln.ns_score, "mp_ns": present(ln.ns_points), "mp_ew": present(ln.ew_points)})
    ordered = sorted(freq.items(), key=lambda kv: (kv[0][0], -kv[0][5], kv[0][1], kv[0][2], kv[0][3] or 0))
    return {"board": board.number, "results": len(board.lines), "due": board.due,
            "top": None if board.top is None else present(board.top),
            "deal": None if deal is None else {"dealer": deal.dealer.value, "vulnerable": deal.vulnerability.value,
                                               "deal": deal.deal.pbn(Seat.N)},
            "frequency": [row for _k, row in ordered], "mine": mine}
