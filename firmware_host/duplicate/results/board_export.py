"""The board-level export (``cardtable export board``): from the journals of the tables, each board's hand
record and, for every table that played it, where and by whom, the contract, declarer, lead, tricks, score
and play, whether the cards verified against the record and any foul.

Read from the journal alone (no I/O here: the caller gives the rows): a duplicate table journals each
board as a ``board`` event (number, record fingerprint, the deal, section, table, round, pairs), its cards
as ``card_played`` events, and the rulings of ``laws.games.duplicate_board`` (``DB-87`` at the first card
against the record, the director's ``DB-87``/``DB-15`` decision, ``DB-7`` when play ends with
``verified``, ``DB-77`` the score and then its confirmation). A board two tables played with different
records is said so (``records_differ``): one of them had other hand records.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from laws.cards import Card, Seat, clockwise_from
from laws.duplicate.deal import SEAT_NAMES, Board, Deal


@dataclass
class TablePlay:
    """One table's play of one board, as its journal says."""

    board: int
    record: str
    deal: str
    source: str                     # which journal
    section: str | None = None
    table: int | None = None
    round: int | None = None
    ns: str | None = None
    ew: str | None = None
    how: str = "board"
    contract: str | None = None
    declarer: str | None = None
    tricks: int | None = None
    score: int | None = None
    lead: str | None = None
    play: list[tuple[str, str]] = field(default_factory=list)   # (seat, card) in the order played
    verified: bool | None = None
    foul: dict[str, Any] | None = None
    decision: str | None = None
    confirmed: dict[str, str] | None = None
    cancelled: bool = False

    @property
    def state(self) -> str:
        if self.cancelled:
            return "cancelled (the wrong board)"
        if self.confirmed:
            return "confirmed"
        if self.score is not None:
            return "scored, not confirmed"
        return "in play"


def plays_from_rows(rows: Iterable[tuple[str, Mapping[str, Any]]], source: str) -> list[TablePlay]:
    """The boards of one table's journal rows ``(kind, body)``, in the order played."""
    out: list[TablePlay] = []
    cur: TablePlay | None = None
    for kind, body in rows:
        if kind == "event" and body.get("type") == "board":
            cur = TablePlay(int(body["board"]), str(body["record"]), str(body["deal"]), source, body.get("section"),
                            body.get("table"), body.get("round"), body.get("ns"), body.get("ew"),
                            str(body.get("how", "board")))
            out.append(cur)
            continue
        if cur is None:
            continue
        if kind == "event" and body.get("type") == "card_played":
            cur.play.append((str(body["seat"]), str(body["card"])))
        elif kind == "ruling":
            _ruling(cur, body)
    return [p for p in out if p.play or p.score is not None or p.cancelled or p is out[-1]]


def _ruling(cur: TablePlay, r: Mapping[str, Any]) -> None:
    clause = r.get("clause")
    if clause == "DB-87" and r.get("remedy") == "attention" and cur.foul is None:
        cur.foul = {k: r.get(k) for k in ("card", "played_by", "record_seat", "trick", "seats")}
    elif clause in ("DB-87", "DB-15") and r.get("group_boundary"):
        cur.decision = str(r.get("decision"))
        cur.cancelled = r.get("decision") == "wrong_board"
    elif clause == "DB-7":
        cur.verified = bool(r.get("verified"))
    elif clause == "DB-77":
        cur.contract, cur.declarer, cur.tricks = r.get("contract"), r.get("declarer"), r.get("tricks")
        cur.score, cur.lead = r.get("score"), r.get("lead")
        if r.get("confirmed"):
            cur.confirmed = dict(r["confirmed"])
            cur.verified = bool(r.get("verified"))


def by_board(plays: Iterable[TablePlay], only: int | None = None) -> dict[int, list[TablePlay]]:
    out: dict[int, list[TablePlay]] = {}
    for p in plays:
        if only is None or p.board == only:
            out.setdefault(p.board, []).append(p)
    return dict(sorted(out.items()))


def board_data(boards: Mapping[int, list[TablePlay]]) -> list[dict[str, Any]]:
    """The export as JSON-ready data: one object a board, its record and its tables."""
    out = []
    for n, plays in boards.items():
        records = sorted({p.record for p in plays})
        rec = Board.numbered(n, Deal.from_pbn(plays[0].deal))
        out.append({"board": n, "dealer": rec.dealer.value, "vulnerable": rec.vulnerability.value,
                    "record": plays[0].record, "deal": rec.deal.pbn(), "records_differ": len(records) > 1,
                    "tables": [_line(p) for p in plays]})
    return out


def _line(p: TablePlay) -> dict[str, Any]:
    d = asdict(p)
    d.pop("deal")
    d["play"] = [[s, c] for s, c in p.play]
    d["state"] = p.state
    return d


def board_json(boards: Mapping[int, list[TablePlay]]) -> str:
    return json.dumps(board_data(boards), indent=1) + "\n"


def _tricks(play: list[tuple[str, str]]) -> str:
    out = []
    for i in range(0, len(play), 4):
        out.append(" ".join(f"{s}:{c}" for s, c in play[i:i + 4]))
    return " | ".join(out)


def board_text(boards: Mapping[int, list[TablePlay]]) -> str:
    """The export for people: each board's record as four hands, then a line a table and its play."""
    lines: list[str] = []
    for b in board_data(boards):
        deal = Deal.from_pbn(b["deal"])
        lines.append(f"Board {b['board']}: dealer {SEAT_NAMES[Seat(b['dealer'])]}, {b['vulnerable']} vulnerable; "
                     f"record {b['record']}")
        if b["records_differ"]:
            lines.append("  NOTE: the tables did not all play this board from the same record")
        for seat in clockwise_from(Seat.N):
            lines.append(f"  {SEAT_NAMES[seat]:<6} {deal.pbn_hand(seat)}")
        lines.append(f"  {'where':<22} {'NS':<5} {'EW':<5} {'contract':<8} {'by':<3} {'lead':<4} {'tricks':>6} "
                     f"{'score':>6}  verified  state")
        for t in b["tables"]:
            where = f"{t['section'] or '-'} table {t['table'] or '?'} round {t['round'] or '?'}"
            score = "" if t["score"] is None else f"{t['score']:+d}" if t["score"] else "0"
            ver = {True: "yes", False: "NO", None: "-"}[t["verified"]]
            lines.append(f"  {where:<22} {t['ns'] or '-':<5} {t['ew'] or '-':<5} {t['contract'] or '-':<8} "
                         f"{t['declarer'] or '-':<3} {t['lead'] or '-':<4} "
                         f"{'-' if t['tricks'] is None else t['tricks']:>6} {score:>6}  {ver:<8}  {t['state']}")
            if t["foul"]:
                f = t["foul"]
                lines.append(f"    foul: {SEAT_NAMES[Seat(f['played_by'])]} played the {Card.parse(f['card']).name} "
                             f"in trick {f['trick']}, {SEAT_NAMES[Seat(f['record_seat'])]}'s by the record"
                             + (f"; the director: {t['decision']}" if t["decision"] else ""))
            if t["play"]:
                lines.append(f"    play: {_tricks([(s, c) for s, c in t['play']])}")
        lines.append("")
    return "\n".join(lines)
