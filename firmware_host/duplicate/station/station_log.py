"""The dealing station's journal read back: every board's attempts, cards, rejects and end, and the
duplication report made from them (``docs/handrecords.md``, "The dealing station").

The station (``station.py``) writes one journal ``note`` row for each thing that happens, its body
``{"station": KIND, ...}``; :func:`fold` turns the rows into a :class:`StationLog` with no I/O, so the
station restarts from it, ``cardtable boards report`` prints it and the soak checks it. Kinds:

=============  =====================================================================================
``open``       the hand records this journal is for: ``file``, ``commitment``, ``boards`` (their
               numbers) and ``records`` (``[number, fingerprint]`` a board)
``insert``     the operator put ``board`` in the station; ``refused`` (with ``why``) when not accepted
``send``       a DEAL_BOARD for ``board`` is about to go to the shoe: ``record`` (fingerprint),
               ``placed`` (cards already in their pockets), ``fresh`` (empty pockets), ``pack`` (the
               pack it names: the pockets' pack when ``placed``, else "")
``started``    the shoe began it: ``pack``, ``already``
``card``       a card placed: ``card``, ``seat``, ``index``, ``face_up``, ``pack``
``rejected``   a card to the reject exit: ``card`` (or null), ``reason``, ``why``, ``pack``
``mismatch``   the shoe reported something the record does not say: ``why``
``dealt``      the board is whole: ``verified``, ``rejected``, ``pack``
``incomplete`` the board ended without all 52: ``missing``, ``reason``, ``why``, ``known`` (false:
               the shoe's reports disagreed with the cards seen, so the pockets are not known)
``refused``    the shoe did not start it: ``status``, ``why``
``pack``       a pack loaded in the well: ``pack``
``device``     the shoe came online or went offline: ``online``, ``reason``
``shoe``       another numbered shoe message (a jam, an empty well, an error): ``why``
``lost``       shoe messages ``first``-``last`` were gone from the shoe's ring before the station got
               them (a board under way then ends ``incomplete``, ``known`` false)
=============  =====================================================================================

Rows that carry a shoe message also carry ``shoe``: ``[boot id, message number]`` (the station
acknowledges the shoe only after the row is committed, and resumes after the last one on restart).
"""

from __future__ import annotations

import csv
import io
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from laws.cards import Card, Seat, full_pack

KINDS = ("open", "insert", "send", "started", "card", "rejected", "mismatch", "dealt", "incomplete",
         "refused", "pack", "device", "shoe", "lost")


@dataclass
class Attempt:
    """One DEAL_BOARD of a board and what came of it."""

    sent: float
    record: str
    placed_before: frozenset[Card]
    fresh: bool
    named: str = ""                 # the pack the DEAL_BOARD named ("" : its first placed card fixes it)
    started: float | None = None
    pack: str = ""
    cards: dict[Card, Seat] = field(default_factory=dict)
    packs: set[str] = field(default_factory=set)     # the pack ids of the cards placed
    rejects: list[dict[str, Any]] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    end: str = ""                   # "" (under way), dealt, incomplete, refused
    ended: float | None = None
    verified: bool = False
    missing: tuple[Card, ...] = ()
    why: str = ""
    status: int | None = None       # a refusal's REPLY status
    pockets_known: bool = True      # an incomplete end whose reports agreed with the cards seen

    @property
    def finishable(self) -> bool:
        """Not whole, and what is in the pockets is known: the missing cards can be put in and finished."""
        return self.end == "incomplete" and self.pockets_known and bool(self.missing)


@dataclass
class BoardLog:
    """Everything the journal says of one board."""

    number: int
    inserted: list[float] = field(default_factory=list)
    refused_inserts: int = 0
    attempts: list[Attempt] = field(default_factory=list)

    @property
    def last(self) -> Attempt | None:
        return self.attempts[-1] if self.attempts else None

    @property
    def done(self) -> bool:
        """Whole and verified card by card (the only way a board counts as dealt), its pockets holding
        cards of one pack."""
        a = self.last
        return a is not None and a.end == "dealt" and a.verified and len(self.packs_seen()) <= 1

    def packs_seen(self) -> set[str]:
        """The pack ids of the cards placed in this filling of the board (since empty pockets)."""
        return {p for a in self.since_fresh() for p in a.packs}

    def pack(self) -> str:
        """The pack the board is being filled from (since empty pockets): the latest an attempt named or
        its cards showed; "" when unknown or not a pack id (then the next card placed fixes it)."""
        for a in reversed(self.since_fresh()):
            for p in (a.pack, *sorted(a.packs)):
                if len(p) == 2 and all(ch.isascii() and (ch.isdigit() or ch.isupper()) for ch in p):
                    return p
        return ""

    @property
    def under_way(self) -> Attempt | None:
        a = self.last
        return a if a is not None and not a.end else None

    def since_fresh(self) -> list[Attempt]:
        """The attempts since the last one that started from empty pockets."""
        out: list[Attempt] = []
        for a in reversed(self.attempts):
            out.insert(0, a)
            if a.fresh:
                break
        return out

    def seen(self) -> dict[Card, Seat]:
        """Cards seen placed in this filling of the board (since empty pockets)."""
        out: dict[Card, Seat] = {}
        for a in self.since_fresh():
            out.update(a.cards)
        return out

    def in_pockets(self) -> frozenset[Card]:
        """The cards in the pockets now, as far as the journal knows: an ended attempt's are all but its
        missing ones; an attempt under way adds those seen so far to the cards placed before it."""
        a = self.last
        if a is None or a.end == "refused" and a.fresh:
            return frozenset()
        if a.end in ("dealt", "incomplete"):
            return frozenset(c for c in full_pack() if c not in a.missing)
        return a.placed_before | frozenset(a.cards)

    @property
    def rejected(self) -> int:
        return sum(len(a.rejects) for a in self.attempts)

    @property
    def seconds(self) -> float:
        return sum((a.ended or a.sent) - (a.started or a.sent) for a in self.attempts if a.started)


@dataclass
class StationLog:
    """The station's journal as data."""

    file: str = ""
    commitment: str = ""
    numbers: tuple[int, ...] = ()
    records: dict[int, str] = field(default_factory=dict)   # board -> its record's fingerprint
    boards: dict[int, BoardLog] = field(default_factory=dict)
    in_station: int | None = None   # the board the operator put in and has not been dealt yet
    mark: tuple[int, int] | None = None
    packs: list[str] = field(default_factory=list)
    offline: int = 0                # times the shoe went offline
    rows: int = 0

    def board(self, n: int) -> BoardLog:
        return self.boards.setdefault(n, BoardLog(n))

    def next_board(self) -> int | None:
        """The first board of the records that is not dealt and verified."""
        return next((n for n in self.numbers if not self.board(n).done), None)

    def under_way(self) -> tuple[int, Attempt] | None:
        for n, b in self.boards.items():
            a = b.under_way
            if a is not None:
                return n, a
        return None


def _cards(codes: Iterable[str]) -> frozenset[Card]:
    return frozenset(Card.parse(c) for c in codes)


def fold(rows: Iterable[tuple[int, float, Mapping[str, Any]]]) -> StationLog:
    """The log of a station's journal rows ``(seq, t, body)``; rows that are not the station's are
    skipped."""
    log = StationLog()
    for _seq, t, body in rows:
        apply(log, t, body)
    return log


def apply(log: StationLog, t: float, body: Mapping[str, Any]) -> None:
    """One more row (a body that is not the station's changes nothing)."""
    kind = body.get("station")
    if kind not in KINDS:
        return
    log.rows += 1
    mark = body.get("shoe")
    if isinstance(mark, list) and len(mark) == 2 and mark[0] is not None:
        log.mark = (int(mark[0]), int(mark[1]))
    n = body.get("board")
    b = log.board(int(n)) if isinstance(n, int) else None
    a = b.last if b is not None else None
    if kind == "open":
        log.file, log.commitment = str(body.get("file", "")), str(body.get("commitment", ""))
        log.numbers = tuple(int(x) for x in body.get("boards", ()))
        log.records = {int(n): str(fp) for n, fp in body.get("records", ())}
    elif kind == "insert" and b is not None:
        if body.get("refused"):
            b.refused_inserts += 1
        else:
            b.inserted.append(t)
            log.in_station = b.number
    elif kind == "send" and b is not None:
        b.attempts.append(Attempt(t, str(body.get("record", "")), _cards(body.get("placed", ())),
                                  bool(body.get("fresh", True)), str(body.get("pack") or "")))
    elif kind == "pack":
        log.packs.append(str(body.get("pack", "")))
    elif kind == "device":
        log.offline += body.get("online") is False
    elif a is None or b is None:
        return
    elif kind == "started":
        a.started, a.pack = t, str(body.get("pack", ""))
    elif kind == "card":
        a.cards[Card.parse(body["card"])] = Seat(body["seat"])
        a.pack = a.pack or str(body.get("pack", ""))
        a.packs.add(str(body.get("pack", "")))
    elif kind == "rejected":
        a.rejects.append({k: body.get(k) for k in ("card", "reason", "why", "pack")})
    elif kind == "mismatch":
        a.mismatches.append(str(body.get("why", "")))
    elif kind in ("dealt", "incomplete", "refused"):
        a.end, a.ended, a.why = kind, t, str(body.get("why", ""))
        a.verified = bool(body.get("verified", False)) and kind == "dealt"
        a.missing = tuple(Card.parse(c) for c in body.get("missing", ()))
        a.status = body.get("status")
        a.pack = str(body.get("pack") or a.pack)
        a.pockets_known = body.get("known", True) is not False and not a.mismatches and \
            (kind != "incomplete" or bool(a.missing))
        if b.done and log.in_station == b.number:
            log.in_station = None


def fold_journal(journal: Any) -> StationLog:
    """:func:`fold` over a ``records.journal.Journal``'s rows."""
    return fold((r.seq, r.t, r.body) for r in journal.rows() if r.kind == "note")


# --- the duplication report ------------------------------------------------------------------------

COLUMNS = ("board", "record", "pack", "started", "seconds", "attempts", "rejected", "verified", "state")


def _clock(t: float | None) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%H:%M:%S") if t else "-"


def report_rows(log: StationLog) -> list[dict[str, Any]]:
    """One row a board of the records: what the report prints."""
    out = []
    for n in log.numbers:
        b = log.board(n)
        a = b.last
        if a is None:
            state = "not dealt"
        elif b.done:
            state = "dealt, every card checked"
        elif a.end == "dealt" and len(b.packs_seen()) > 1:
            state = f"dealt but NOT verified: cards of {len(b.packs_seen())} packs ({', '.join(sorted(b.packs_seen()))})"
        elif a.end == "dealt":
            state = "dealt but NOT verified: deal it again"
        elif a.end == "incomplete" and not a.pockets_known:
            state = "not whole, its pockets unknown: deal it again"
        elif a.end == "incomplete":
            state = f"not whole: {len(a.missing)} missing"
        elif a.end == "refused":
            state = "not started: " + a.why
        else:
            state = f"under way: {len(b.in_pockets())} placed"
        reasons: dict[str, int] = {}
        for r in (r for x in b.attempts for r in x.rejects):
            key = {1: "unreadable", 2: "other pack", 3: "duplicate"}.get(int(r.get("reason") or 0), "other")
            reasons[key] = reasons.get(key, 0) + 1
        started = next((x.started for x in b.attempts if x.started), None)
        record = a.record if a else log.records.get(n, "")
        out.append({"board": n, "record": record[:16], "pack": a.pack if a else "",
                    "started": _clock(started), "seconds": round(b.seconds, 1), "attempts": len(b.attempts),
                    "rejected": b.rejected, "rejects": reasons, "verified": b.done, "state": state})
    return out


def summary(log: StationLog) -> dict[str, Any]:
    rows = report_rows(log)
    times = [r["seconds"] for r in rows if r["verified"]]
    return {"boards": len(rows), "dealt": sum(r["verified"] for r in rows),
            "rejected": sum(r["rejected"] for r in rows),
            "median_seconds": round(statistics.median(times), 1) if times else None,
            "shoe_offline": log.offline}


def report_text(log: StationLog) -> str:
    """The duplication report as a plain-text table with a total line."""
    rows = report_rows(log)
    lines = [f"Duplication report: {log.file or 'hand records'}, commitment {log.commitment}",
             f"{'board':>5}  {'record':<16}  {'pack':<4}  {'started':<8}  {'secs':>5}  {'tries':>5}  "
             f"{'rejected':<22}  state"]
    for r in rows:
        rej = str(r["rejected"]) + (" (" + ", ".join(f"{v} {k}" for k, v in r["rejects"].items()) + ")"
                                    if r["rejects"] else "")
        lines.append(f"{r['board']:>5}  {r['record']:<16}  {r['pack'] or '-':<4}  {r['started']:<8}  "
                     f"{r['seconds']:>5.1f}  {r['attempts']:>5}  {rej:<22}  {r['state']}")
    s = summary(log)
    med = f"{s['median_seconds']} s a board (median)" if s["median_seconds"] is not None else "no board dealt"
    lines.append(f"{s['dealt']} of {s['boards']} boards dealt and verified card by card; {s['rejected']} "
                 f"cards rejected; {med}; the shoe went offline {s['shoe_offline']} times")
    return "\n".join(lines) + "\n"


def report_csv(log: StationLog) -> str:
    """The duplication report as CSV (one line a board; ``rejects`` as ``kind:count`` pairs)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow((*COLUMNS, "rejects"))
    for r in report_rows(log):
        w.writerow([r[c] if c != "verified" else ("yes" if r[c] else "no") for c in COLUMNS] +
                   [" ".join(f"{k}:{v}" for k, v in r["rejects"].items())])
    return buf.getvalue()
