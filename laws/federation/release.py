"""What a club may see of the field, and when (``docs/federation.md``, "Secrecy across time zones").

A club receives the field's results of a board, and the board's deal, only once **the club itself has
finished that board** (every one of its tables due to play it has sent its result), or once the event is
closed. Before that, nothing of the board: not the other clubs' results, not their scores, not the deal.
The federation's own page shows the field's ranking only from boards every club has finished, until the
event closes. What a club is shown of a board it may see is an allow-list of plain values
(:func:`board_release`): the deal, the field's results as a frequency table that names no club or pair,
and the club's own lines with the field's matchpoints. A fouled board's group other than ``A`` is one
club's own deal, named ``<club>/<group>`` by the field (:func:`laws.federation.field.field_group`) and
compared within that club alone: it is in that club's frequency only, since shown to another club it
would name the club that fouled the board, with its results, and tell the other club nothing of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from laws.cards import Seat
from laws.competition.sections import SectionPair
from laws.duplicate.deal import Board
from laws.federation.field import RECORD_GROUP
from laws.scoring.render import present
from laws.scoring.session_values import Pair, ScoredBoard


def club_may_see(club: str, board: int, finished: Mapping[str, frozenset[int]], closed: bool) -> bool:
    """Whether ``club`` may see the field's results and deal of ``board``."""
    return closed or board in finished.get(club, frozenset())


def public_boards(boards: tuple[int, ...], finished: Mapping[str, frozenset[int]], clubs: frozenset[str],
                  closed: bool) -> tuple[int, ...]:
    """The boards the public page may show: every club has finished them (all of them once closed).
    ``clubs`` is every club of the event, as the organiser named them: a club whose entry has not come
    has finished nothing, so no board is public before it enters and finishes it."""
    if closed:
        return boards
    return tuple(b for b in boards if all(b in finished.get(c, frozenset()) for c in clubs))


def board_release(board: ScoredBoard, club: str, local: Callable[[Pair], SectionPair],
                  deal: Board | None) -> dict[str, Any]:
    """What ``club`` is shown of ``board`` once the release rule lets it (:func:`club_may_see`): an
    allow-list of plain values, never the board's internal record (:func:`board_releases` for every club
    at once, the same values).

    * ``board``, ``results`` (lines across the field), ``due``, ``top`` (at matchpoints, as text);
    * ``deal``: the board's hand record (``dealer``, ``vulnerable``, ``deal`` as PBN from North), or
      None when the federation has no records;
    * ``frequency``: the field's results as a frequency table, one row per different result of a group
      (``group``, ``contract``, ``declarer``, ``tricks``, ``score`` North-South's, ``count``, ``mp_ns``,
      ``mp_ew``), best for North-South first: group ``A`` across the field and the club's own fouled
      groups (``<club>/B``), never another club's (its name would name that club; ``results`` still
      counts its lines), so no other club or its pairs are named;
    * ``mine``: the club's own lines (``ns``, ``ew`` its pair numbers, ``group``, ``contract``,
      ``declarer``, ``tricks``, ``lead``, ``score``, ``mp_ns``, ``mp_ew``) with the field's matchpoints.
    """
    return board_releases(board, (club,), local, deal)[club]


def board_releases(board: ScoredBoard, clubs: Iterable[str], local: Callable[[Pair], SectionPair],
                   deal: Board | None) -> dict[str, dict[str, Any]]:
    """:func:`board_release` for each of ``clubs``, the board's lines read once."""
    wanted = set(clubs)
    freq: dict[tuple[Any, ...], dict[str, Any]] = {}
    owner: dict[tuple[Any, ...], str] = {}      # a row of a club's own fouled group: whose
    mine: dict[str, list[dict[str, Any]]] = {c: [] for c in wanted}
    for ln in board.lines:
        ns = local(ln.ns)
        key = (ln.group, ln.contract, ln.declarer, ln.tricks, ln.ns_score, ln.ns_points, ln.ew_points)
        row = freq.get(key)
        if row is None:
            row = freq[key] = {"group": ln.group, "contract": ln.contract, "declarer": ln.declarer,
                               "tricks": ln.tricks, "score": ln.ns_score, "count": 0,
                               "mp_ns": present(ln.ns_points), "mp_ew": present(ln.ew_points)}
            if ln.group != RECORD_GROUP:        # named <club>/<group> by the field: that club's alone
                owner[key] = ns.section
        row["count"] += 1
        if ns.section in wanted:
            mine[ns.section].append({"ns": ns.pair.number, "ew": local(ln.ew).pair.number, "group": ln.group,
                                     "contract": ln.contract, "declarer": ln.declarer, "tricks": ln.tricks,
                                     "lead": ln.lead, "score": ln.ns_score, "mp_ns": row["mp_ns"],
                                     "mp_ew": row["mp_ew"]})
    ordered = sorted(freq.items(), key=lambda kv: (kv[0][0], -kv[0][5], kv[0][1], kv[0][2], kv[0][3] or 0))
    shown = None if deal is None else {"dealer": deal.dealer.value, "vulnerable": deal.vulnerability.value,
                                       "deal": deal.deal.pbn(Seat.N)}
    top = None if board.top is None else present(board.top)
    return {c: {"board": board.number, "results": len(board.lines), "due": board.due, "top": top, "deal": shown,
                "frequency": [dict(row) for k, row in ordered if owner.get(k, c) == c], "mine": mine[c]}
            for c in sorted(wanted)}
