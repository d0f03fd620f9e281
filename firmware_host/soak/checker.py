"""The soak's invariants, judged from the driver's record of what physically happened and the journal.

No I/O: ``check(record, rows)`` takes the record and the journal's rows (seq, kind, body) and returns
``Findings``. What the table did is compared with what the soak knows by itself (``sheet``), never with
what the table said about itself. Deals are matched by order: the n-th ``deal_start`` in the journal is
the shoe's n-th deal; a row belongs to the deal most recently started before it. The invariants:

1. **Cards.** Every card that physically left the shoe is journaled once, in order (``cards_lost``,
   ``cards_duplicated``; a card out of order counts as one lost and one duplicated), to the seat the shoe
   sent it to (``cards_misseated``), face up exactly when it left the shoe face up (``cards_faced_wrong``).
2. **Deals.** Each deal starts with the dealer the rotation names, the one the shoe dealt for
   (``dealers_wrong``), and ends with one ``deal_end`` from the shoe (``deal_ends_wrong``); the table is
   formed once, before the first deal, by the draw's highest card (``formations_wrong``).
3. **The director's entries** are journaled once, in order (``director_lost``, ``director_extra``); each
   dashboard command is taken once (its id in one event), refused once (a note, no event), or, for an
   acknowledgement, noted (``commands_wrong``); each malformed line gets one note and nothing else
   (``bad_lines_noted``).
4. **Rulings on mistakes** are exactly those the laws give for what happened (``schedule.EXPECTED``): a
   ruling expected and absent is *missed*, one present and not expected *false*, one whose dealer, seat,
   side, offender or pack is not the fact's has ``wrong fields``.
   A bridge auction's close (``contract``, BP-22) is the ordinary course: once per deal the soak ran an
   auction for, with the soak's own contract and declarer, its seat declarer's and its side declarer's
   side (or passed out, naming the shoe's dealer's left as the next dealer), and in no other deal
   (``contracts_wrong``).
5. **The score sheet** is the soak's own (``sheet.score_sheet``, from the results the driver entered):
   every score, game, rubber and penalty ruling, and no other (``score_wrong``); every result is scored.
6. **Lamps** follow the soak's lamp rules (``sheet.lamp_problems``).
7. **The evening itself**: the chain verifies, no traceback in any process's output, no exit nobody asked
   for, every device back at the end, the locks past the busy timeout really failed commits (the table
   noted a recovery inside them; each lock episode's outcome is counted), and the soak applied every
   fault it claims.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from firmware_host.soak import sheet
from firmware_host.soak.record import DealRecord, Dealt, Record, bad_line_note
from firmware_host.soak.schedule import (
    DRAW,
    FIRST_DEALER,
    ORDINARY_REMEDIES,
    SCORE_REMEDIES,
    SHEET_REMEDIES,
    physical_fault,
)
from laws.cards import Seat
from laws.events import EventFormatError, event_from_dict, event_to_dict

__all__ = ["DealRecord", "Dealt", "Findings", "Record", "check"]

Key = tuple[str, str]  # (clause, remedy)
Rows = Iterable[tuple[int, str, dict[str, Any]]]


@dataclass
class Findings:
    game: str
    deals: int = 0
    results: int = 0
    unscored: int = 0
    mistakes_injected: int = 0
    mistakes_harmless: int = 0             # injected, but physically no fault (e.g. twin never dealt)
    rulings_expected: int = 0
    rulings_got: int = 0
    false_rulings: int = 0
    missed_rulings: int = 0
    wrong_fields: int = 0                  # a ruling expected, with a dealer, seat, side or pack not the fact's
    contracts: int = 0                     # bridge auctions closed (BP-22), passed out included
    contracts_wrong: int = 0               # a contract or declarer not the soak's own, or a close too many or few
    score_rulings: int = 0
    score_wrong: int = 0                   # score-sheet rulings not the soak's own sheet's (either way)
    cards_sent: int = 0
    cards_lost: int = 0
    cards_duplicated: int = 0
    cards_misseated: int = 0
    cards_faced_wrong: int = 0             # a card journaled face up that left the shoe face down, or the reverse
    director_sent: int = 0
    director_lost: int = 0
    director_extra: int = 0
    commands_sent: int = 0
    commands_wrong: int = 0
    bad_lines_sent: int = 0
    bad_lines_noted: int = 0
    deal_starts: int = 0
    dealers_wrong: int = 0
    deal_ends_wrong: int = 0
    formations_wrong: int = 0
    lamp_problems: int = 0
    locks: int = 0
    commit_failures: int = 0               # failed commits the table noted on recovering
    recoveries: int = 0
    locks_failing: int = 0                 # lock episodes in which a table commit failed (noted recovery)
    locks_idle: int = 0                    # lock episodes in which none did (the outbox's may have)
    verified: bool | None = None
    tracebacks: int = 0
    restarts: int = 0
    exits: list[int] = field(default_factory=list)
    rubbers: int = 0
    strays: int = 0
    offline_at_end: list[str] = field(default_factory=list)
    dashboard: bool = False
    dashboard_missing: int = 0
    dashboard_unknown: int = 0
    dashboard_repeats: int = 0
    soak_errors: int = 0                   # the soak's own failures (a fault it could not apply)
    faults: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)  # irregularities made, by kind
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def stuck(self) -> bool:
        return any(n.startswith("stuck") for n in self.notes)

    @property
    def locks_unproven(self) -> bool:
        """Lock episodes (not ended by a kill) were held past the busy timeout and not one of them failed a
        commit the table noted: the fault did not do what it is for."""
        return self.locks_idle > 0 and self.locks_failing == 0

    @property
    def events_lost(self) -> int:
        return self.cards_lost + self.director_lost

    @property
    def ok(self) -> bool:
        return not (self.false_rulings or self.missed_rulings or self.wrong_fields or self.cards_lost
                    or self.cards_duplicated or self.cards_misseated or self.cards_faced_wrong or self.director_lost
                    or self.director_extra or self.unscored or self.score_wrong or self.commands_wrong
                    or self.contracts_wrong
                    or self.bad_lines_noted != self.bad_lines_sent or self.deal_starts != self.deals
                    or self.dealers_wrong or self.deal_ends_wrong or self.formations_wrong
                    or self.lamp_problems or self.verified is False or self.stuck or self.exits
                    or self.tracebacks or self.offline_at_end or self.dashboard_missing
                    or self.dashboard_unknown or self.soak_errors or self.locks_unproven)


def _card_key(c: Dealt) -> str | None:
    return c.card if c.readable else None


def _journal_card(body: dict[str, Any]) -> tuple[str | None, str | None] | None:
    """A card the shoe reported, as journaled (card, seat): card_dealt, a euchre turn-up (or its unreadable
    stand-in, seat ``table``)."""
    if body.get("src") != "shoe":
        return None
    kind = body.get("type")
    if kind == "card_dealt":
        return (body.get("card"), body.get("seat"))
    if kind == "trump_turned":
        return (body.get("card"), "table")
    if kind == "damaged_card" and body.get("card") is None:
        return (None, "table")
    return None


def _director_key(body: dict[str, Any]) -> str:
    """An event as the event format writes it (defaults left out), without time and source."""
    try:
        body = event_to_dict(event_from_dict(body))
    except EventFormatError:
        pass
    return repr(sorted((k, repr(v)) for k, v in body.items() if k not in ("t", "src", "command")))


def _diff(sent: Sequence[Any], got: Sequence[Any], max_edits: int = 2000) -> tuple[int, int]:
    """(lost, extra): items of ``sent`` missing from ``got`` and items of ``got`` not in ``sent``, in order
    — the fewest deletions and insertions that turn one into the other (Myers' algorithm, quick when
    they differ little; past ``max_edits`` difflib's rougher count)."""
    n, m = len(sent), len(got)
    v = {1: 0}
    for d in range(max_edits + 1):
        for k in range(-d, d + 1, 2):
            x = v[k + 1] if k == -d or (k != d and v[k - 1] < v[k + 1]) else v[k - 1] + 1
            y = x - k
            while x < n and y < m and sent[x] == got[y]:
                x, y = x + 1, y + 1
            v[k] = x
            if x >= n and y >= m:
                common = (n + m - d) // 2
                return n - common, m - common
    lost = extra = 0
    for op, i1, i2, j1, j2 in SequenceMatcher(None, list(sent), list(got), autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            lost += i2 - i1
        if op in ("insert", "replace"):
            extra += j2 - j1
    return lost, extra


@dataclass
class _Deal:
    """One deal's rows, as the journal has them."""

    start: dict[str, Any] | None = None
    cards: list[tuple[str | None, str | None]] = field(default_factory=list)
    ends: int = 0
    faced: list[str | None] = field(default_factory=list)           # the shoe's cards journaled face up
    rulings: list[dict[str, Any]] = field(default_factory=list)
    contracts: list[dict[str, Any]] = field(default_factory=list)  # BP-22's close of the auction


def check(record: Record, rows: Rows, *, max_problems: int = 40) -> Findings:
    """Judge one game's evening."""
    f = Findings(record.game, deals=len(record.deals), faults=Counter(record.faults), verified=record.verified,
                 tracebacks=record.tracebacks, restarts=record.restarts, notes=list(record.notes),
                 exits=list(record.exits), strays=record.strays, locks=record.locks)

    def problem(text: str) -> None:
        if len(f.problems) < max_problems:
            f.problems.append(text)

    rows_seen = list(rows)
    deals = _walk(record, rows_seen, f)
    if f.offline_at_end:
        problem(f"still offline at the end of the evening: {', '.join(f.offline_at_end)}")
    if f.unscored:
        problem(f"{f.unscored} result(s) journaled without a score")
    f.deal_starts = len(deals) - 1
    if f.deal_starts != f.deals:
        problem(f"the journal starts {f.deal_starts} deals, the shoe started {f.deals}")
    facts = sheet.deal_facts(record)
    _cards(record, deals, f, problem)
    _deals(record, deals, facts, f, problem)
    _director(record, rows_seen, f, problem)
    _rulings(record, deals, facts, f, problem)
    _contracts(record, deals, f, problem)
    _score(record, rows_seen, facts, f, problem)
    lamps = sheet.lamp_problems(rows_seen)
    f.lamp_problems = len(lamps)
    for text in lamps[:8]:
        problem(f"lamps: {text}")
    _evening(record, rows_seen, f, problem)
    return f


def _walk(record: Record, rows: list[tuple[int, str, dict[str, Any]]], f: Findings) -> list[_Deal]:
    """Split the journal into deals (index 0: before the first deal); count results, scores, rubbers."""
    deals = [_Deal()]
    unscored = False  # a result whose score rulings have not yet been seen
    scored_in_deal = False  # a bridge hand scored from its cards: the result typed after it scores nothing more
    typed_in_deal = False   # a result typed in this deal (counted as the hand's)
    won_in_deal = False  # penalty points (euchre laws 50, 63, 90) won the rubber before the hand's result:
    #                      the engine rightly scores nothing more for that hand
    online: dict[str, bool] = {}
    for _seq, kind, body in rows:
        if kind == "event":
            f.unscored += unscored
            typ = body.get("type")
            unscored = typ == "result" and not won_in_deal and not scored_in_deal
            if typ == "deal_start":
                deals.append(_Deal(start=body))
                won_in_deal = scored_in_deal = typed_in_deal = False
            elif typ == "result":
                f.results += 1
                typed_in_deal = True
            elif typ == "deal_end" and body.get("src") == "shoe":
                deals[-1].ends += 1
            card = _journal_card(body)
            if card is not None:
                deals[-1].cards.append(card)
                if body.get("face_up"):
                    deals[-1].faced.append(card[0])
            continue
        if kind == "note" and isinstance(body.get("device"), str) and "online" in body:
            online[body["device"]] = bool(body["online"])
        if kind != "ruling":
            continue
        if body.get("remedy") in ORDINARY_REMEDIES:
            deals[-1].contracts.append(body)
            f.contracts += 1
            continue
        if body.get("remedy") == "score" and record.game == "contract-bridge":
            f.results += not scored_in_deal and not typed_in_deal  # a hand scored from its cards
            scored_in_deal = True
        if body.get("remedy") in SCORE_REMEDIES | SHEET_REMEDIES:
            f.score_rulings += body.get("remedy") != "penalty"
            f.rubbers += body.get("remedy") == "rubber_won"
            won_in_deal = won_in_deal or (body.get("remedy") == "rubber_won" and not unscored)
            if body.get("remedy") != "penalty":
                unscored = False
        if body.get("remedy") not in SCORE_REMEDIES:
            deals[-1].rulings.append(body)
        elif body.get("remedy") == "formation":
            deals[-1].rulings.append(body)
    f.unscored += unscored
    f.offline_at_end = sorted(d for d, on in online.items() if not on)
    return deals


def _cards(record: Record, deals: list[_Deal], f: Findings, problem: Any) -> None:
    """Invariant 1: every card once, in order, to its seat."""
    sent = [_card_key(c) for d in record.deals for c in (*d.cards, *([d.turn_up] if d.turn_up else []))]
    got = [card for d in deals for card, _ in d.cards]
    f.cards_sent = len(sent)
    f.cards_lost, f.cards_duplicated = _diff(sent, got)
    if f.cards_lost or f.cards_duplicated:
        problem(f"cards: {f.cards_sent} left the shoe, {len(got)} journaled; {f.cards_lost} missing, "
                f"{f.cards_duplicated} extra or out of order")
    for n, rec in enumerate(record.deals, start=1):
        if n >= len(deals):
            break
        physical = Counter((_card_key(c), c.seat) for c in (*rec.cards, *([rec.turn_up] if rec.turn_up else []))
                           if c.seat is not None and c.readable)
        journaled = Counter((card, seat) for card, seat in deals[n].cards if card is not None)
        cards_there = Counter(card for card, _ in journaled.elements())
        wrong = sum(1 for (card, seat), k in physical.items() for _ in range(k)
                    if journaled[(card, seat)] == 0 and cards_there[card] > 0)
        if wrong:
            f.cards_misseated += wrong
            problem(f"deal {n}: {wrong} card(s) journaled to another seat than the shoe sent them to")
        faced = Counter(_card_key(c) for c in rec.cards if c.face_up)
        said = Counter(deals[n].faced)
        if faced != said:
            f.cards_faced_wrong += sum(((faced - said) + (said - faced)).values())
            problem(f"deal {n}: the shoe sent {sorted(map(str, faced.elements()))} face up, the journal says "
                    f"{sorted(map(str, said.elements()))}")


def _deals(record: Record, deals: list[_Deal], facts: list[sheet.Facts], f: Findings, problem: Any) -> None:
    """Invariant 2: dealers, deal ends, the formation."""
    for n in range(1, min(len(deals), len(record.deals) + 1)):
        want = facts[n - 1].dealer
        start = deals[n].start or {}
        shoe = record.deals[n - 1].dealer
        if start.get("dealer") != want or shoe not in (None, want):
            f.dealers_wrong += 1
            problem(f"deal {n}: dealt by {start.get('dealer')!r} (the shoe dealt for {shoe!r}); by the "
                    f"rotation it is {want!r}'s deal")
        if deals[n].ends != 1:
            f.deal_ends_wrong += 1
            problem(f"deal {n}: {deals[n].ends} deal_end from the shoe, want 1")
    formed = [(n, r) for n, d in enumerate(deals) for r in d.rulings if r.get("remedy") == "formation"]
    names = sorted(name for name, _ in DRAW[record.game])
    good = [(n, r) for n, r in formed if n == 0 and r.get("dealer") == FIRST_DEALER and
            r.get("dealer_name") == DRAW[record.game][0][0] and sorted(r.get("players") or []) == names]
    if len(formed) != 1 or len(good) != 1:
        f.formations_wrong = max(1, abs(len(formed) - 1) + len(formed) - len(good))
        problem(f"formation: {len(formed)} formation ruling(s) (in deals {[n for n, _ in formed]}), want one "
                f"before the first deal: {DRAW[record.game][0][0]} deals from {FIRST_DEALER}")


def _director(record: Record, rows: list[tuple[int, str, dict[str, Any]]], f: Findings, problem: Any) -> None:
    """Invariant 3: the director's entries, the dashboard's commands, the malformed lines."""
    got = [_director_key(b) for _, k, b in rows if k == "event" and b.get("src") == "director"]
    sent = [_director_key(e) for e in record.director]
    f.director_sent = len(sent)
    f.director_lost, f.director_extra = _diff(sent, got)
    if f.director_lost or f.director_extra:
        problem(f"director: {len(sent)} events entered, {len(got)} journaled; {f.director_lost} "
                f"missing, {f.director_extra} extra or out of order")
    events = Counter(str((b.get("command") or {}).get("id")) for _, k, b in rows if k == "event" and
                     isinstance(b.get("command"), dict))
    refusals = Counter(str((b.get("command") or {}).get("id")) for _, k, b in rows if k == "note" and
                       isinstance(b.get("command"), dict) and "refused" in b)
    acks = sum(1 for _, k, b in rows if k == "note" and b.get("ack") == "director")
    f.commands_sent = len(record.commands)
    for cmd in record.commands:
        cid, expect = str(cmd["id"]), cmd["expect"]
        if expect == "event" and cmd["kind"] != "result" and (events[cid] != 1 or refusals[cid]):
            f.commands_wrong += 1
            problem(f"command {cmd['kind']} {cid}: journaled {events[cid]} time(s), refused {refusals[cid]}; "
                    "want taken once")
        elif expect == "refused" and (refusals[cid] != 1 or events[cid]):
            f.commands_wrong += 1
            problem(f"command {cmd['kind']} {cid}: refused {refusals[cid]} time(s), journaled {events[cid]}; "
                    "want refused once and nothing done")
    sent_acks = sum(1 for cmd in record.commands if cmd["expect"] == "ack")
    if acks != sent_acks:
        f.commands_wrong += abs(acks - sent_acks)
        problem(f"acknowledgements: {sent_acks} sent from the dashboard, {acks} noted by the table")
    f.bad_lines_sent = len(record.bad_lines)
    f.bad_lines_noted = sum(1 for _, k, b in rows if k == "note" and bad_line_note(b))
    if f.bad_lines_noted != f.bad_lines_sent:
        problem(f"malformed lines: {f.bad_lines_sent} written to the director's input, {f.bad_lines_noted} "
                "noted by the table")


def _rulings(record: Record, deals: list[_Deal], facts: list[sheet.Facts], f: Findings, problem: Any) -> None:
    """Invariant 4: each deal's rulings on mistakes, and their fields."""
    for n in range(0, max(len(deals) - 1, f.deals) + 1):
        rec = record.deals[n - 1] if 1 <= n <= f.deals else None
        wants = sheet.expected(record, rec, facts[n - 1]) if rec is not None else []
        got_rulings = [r for r in (deals[n].rulings if n < len(deals) else []) if r.get("remedy") != "formation"]
        want = Counter(w.key for w in wants)
        got = Counter((str(r.get("clause")), str(r.get("remedy"))) for r in got_rulings)
        if rec is not None:
            if rec.injected is not None:
                f.mistakes_injected += 1
                if physical_fault(record.game, rec.cards, record.complete, rec.pack_size) is None:
                    f.mistakes_harmless += 1
            f.mistakes_injected += len(rec.mistakes)
            f.kinds.update([*rec.mistakes, *([rec.injected] if rec.injected else [])])
        f.rulings_expected += sum(want.values())
        f.rulings_got += sum(got.values())
        missed, false = want - got, got - want
        f.missed_rulings += sum(missed.values())
        f.false_rulings += sum(false.values())
        if missed or false:
            problem(f"deal {n}: expected {_keys(want)}, got {_keys(got)}")
        unused = list(got_rulings)
        for w in wants:
            match = next((r for r in unused if (r.get("clause"), r.get("remedy")) == w.key), None)
            if match is None:
                continue
            unused.remove(match)
            bad = sheet.wrong_fields(w, facts[n - 1], match)
            if bad:
                f.wrong_fields += 1
                problem(f"deal {n}: {w.clause}/{w.remedy} with {'; '.join(bad)}")


def _contracts(record: Record, deals: list[_Deal], f: Findings, problem: Any) -> None:
    """Invariant 4, the ordinary course: each bridge auction the soak ran closes once, in its own contract
    and declarer (``Pass``: passed out), and no other deal has a close."""
    for n in range(1, max(len(deals) - 1, len(record.deals)) + 1):
        rec = record.deals[n - 1] if n <= len(record.deals) else None
        want = rec.facts.get("contract") if rec is not None else None
        got = deals[n].contracts if n < len(deals) else []
        said = [("Pass", "", f"{r.get('dealer')} deals next") if r.get("passed_out") else
                (r.get("contract"), r.get("declarer"), f"{r.get('seat')} {r.get('side')}") for r in got]
        declarer = str(rec.facts.get("declarer", "")) if rec is not None else ""
        # the close names declarer as its seat and declarer's side as its side (a contract is theirs); a
        # deal passed out names who deals next, the shoe's dealer's left (a wrong one deals out of turn)
        names = f"{declarer} {Seat(declarer).side.value}" if declarer in ("N", "E", "S", "W") else ""
        dealer = rec.dealer if rec is not None else None
        following = f"{Seat(dealer).left.value if dealer in ('N', 'E', 'S', 'W') else None} deals next"
        expect = [] if want is None else [("Pass", "", following) if want == "Pass" else (want, declarer, names)]
        if said != expect:
            f.contracts_wrong += max(1, abs(len(said) - len(expect)))
            problem(f"deal {n}: the auction closed in {said or 'nothing'}, the soak's own is {expect or 'none'}")


def _score(record: Record, rows: list[tuple[int, str, dict[str, Any]]], facts: list[sheet.Facts], f: Findings,
           problem: Any) -> None:
    """Invariant 5: the score sheet against the soak's own."""
    want = [[]] + sheet.score_sheet(record, facts)
    got = sheet.sheet_rows(rows)
    for n in range(max(len(want), len(got))):
        w = Counter(json.dumps(r, sort_keys=True) for r in (want[n] if n < len(want) else []))
        g = Counter(json.dumps(r, sort_keys=True) for r in (got[n] if n < len(got) else []))
        if w == g:
            continue
        f.score_wrong += sum((w - g).values()) + sum((g - w).values())
        problem(f"deal {n}: score sheet {_sheet(w)}, the table's {_sheet(g)}")


def _sheet(c: Counter[str]) -> str:
    items = []
    for text, k in sorted(c.items()):
        r = json.loads(text)
        items.append(f"{r.get('remedy')} {r.get('side') or ''} {r.get('points', r.get('totals', ''))}".strip()
                     + (f" x{k}" if k > 1 else ""))
    return "[" + ", ".join(items) + "]"


def _evening(record: Record, rows: list[tuple[int, str, dict[str, Any]]], f: Findings, problem: Any) -> None:
    """Invariant 7: exits, tracebacks, the dashboard, locks, the chain, the soak's own failures."""
    for status in sorted(set(record.exits)):
        n = record.exits.count(status)
        problem(f"cardtable run exited by itself {n} time(s) with status {status}"
                + (" (systemd never restarts after status 2: the table would stay down)" if status == 2 else ""))
    if record.tracebacks:
        problem(f"{record.tracebacks} traceback(s) in the output of the soak's processes")
    if record.stopped == -9:
        problem("cardtable run did not stop within 20 s of SIGTERM (killed)")
    recovered: list[tuple[int, float]] = []   # (seq of the recovery note, when its failures began)
    times: list[tuple[float, int]] = []       # (t, seq) of the events, in journal order
    for seq, k, b in rows:
        if k == "note" and b.get("journal") == "recovered":
            f.recoveries += 1
            f.commit_failures += int(b.get("failed_commits") or 0)
            recovered.append((seq, float(b.get("since") or 0.0)))
        elif k == "event" and isinstance(b.get("t"), (int, float)):
            times.append((float(b["t"]), seq))
    # each lock must have failed a commit while it was held: some recovery noted after the journal's last
    # event before the lock, whose failures began before the lock ended (the first failure of a recovery is its ``since``); locks held
    # one after the other, or a lock inside a longer failure (a full disk), make one episode
    episodes: list[list[float]] = []
    for a, z in sorted(record.lock_windows):
        if episodes and a <= episodes[-1][1] + 2.0:
            episodes[-1][1] = max(episodes[-1][1], z)
        else:
            episodes.append([a, z])

    def covered(a: float, z: float) -> bool:
        before = max((seq for t, seq in times if t < a), default=0)  # the journal up to the lock
        return any(seq > before and since <= z + 1.0 for seq, since in recovered)

    def cut_short(a: float, k: float) -> bool:
        """The process killed at ``k`` committed nothing it took once the lock was held (from ``a``): it
        died before the commit after the lock that would have noted its recovery. Its rows taken in
        between were committed after the lock (the journal was locked), by it (a new process takes only
        after ``k``), and the first commit after failures notes the recovery at once."""
        return not any(a <= t < k for t, _ in times)

    # a kill inside a lock episode (or just after it, before the table's next try) ends its failures with
    # no recovery to note: such an episode proves nothing either way, unless the killed process had
    # committed again after the lock (then its recovery note must be there)
    episodes = [e for e in episodes if not any(e[0] <= k <= e[1] + 1.0 and cut_short(e[0], k)
                                               for k in record.kill_times)]
    f.locks_failing = sum(1 for a, z in episodes if covered(a, z))
    f.locks_idle = len(episodes) - f.locks_failing + max(0, record.locks - len(record.lock_windows))
    if f.locks_unproven:
        problem(f"{record.locks} lock(s) held past the busy timeout, and not one failed a commit the table "
                "noted (no recovery from a failure inside a lock)")
    elif f.locks_idle:
        # a lock whose first failing commit was the club outbox's (the same connection) delays the table's
        # commit without failing it: nothing is lost, and nothing is noted
        f.notes.append(f"{f.locks_idle} of {len(episodes)} lock episode(s) failed no table commit (the "
                       "table's waited behind a failing one of the club outbox's)")
    if record.dashboard is not None:
        journaled = {seq for seq, kind, _ in rows if kind == "ruling"}
        got = {s for s in record.dashboard if s >= 0}
        f.dashboard = True
        f.dashboard_missing = len(journaled - got)
        f.dashboard_unknown = len(got - journaled) + record.dashboard.get(-1, 0)
        f.dashboard_repeats = sum(n - 1 for n in record.dashboard.values() if n > 1)
        if f.dashboard_missing or f.dashboard_unknown:
            problem(f"dashboard: {len(journaled)} rulings journaled, {len(got)} received; "
                    f"{f.dashboard_missing} never arrived ({sorted(journaled - got)[:8]}), "
                    f"{f.dashboard_unknown} not in the journal")
    if record.verified is False:
        problem(f"journal verify: {record.verify_message}")
    own = [n for n in record.notes if n.startswith("soak:")]
    f.soak_errors = len(own)
    for text in own[:3]:
        problem(text)


def _keys(c: Counter[Key]) -> str:
    return ", ".join(f"{cl}/{rem}" + (f" x{n}" if n > 1 else "") for (cl, rem), n in sorted(c.items())) or "none"
