"""The soak's invariants, judged from the driver's record of what physically happened and the journal.

No I/O: ``check(record, rows)`` takes the record and the journal's rows (seq, kind, body) and returns
``Findings``. The invariants:

1. Every card that physically left the shoe is journaled once, in order (``cards_lost``,
   ``cards_duplicated``; a card out of order counts as one lost and one duplicated).
2. Every event the director entered is journaled once, in order (``director_lost``, ``director_extra``).
3. Each deal's rulings on mistakes are exactly the ones the laws give for what happened in it
   (``schedule.EXPECTED``): a ruling expected and absent is *missed*, one present and not expected is
   *false*. Deals are matched by order: the n-th ``deal_start`` in the journal is the shoe's n-th deal;
   a ruling belongs to the deal most recently started before it.
4. Every result is scored (at least one score ruling follows it) and the chain verifies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from firmware_host.soak.schedule import EXPECTED, SCORE_REMEDIES, Dealt, physical_fault
from laws.events import EventFormatError, event_from_dict, event_to_dict

Key = tuple[str, str]  # (clause, remedy)


@dataclass
class DealRecord:
    """One shoe deal as the driver saw it: the cards that left (seat cards, then a euchre turn-up) and
    the mistakes it made on purpose that are not in the cards (buttons, the director's reports)."""

    number: int
    cards: list[Dealt] = field(default_factory=list)
    turn_up: Dealt | None = None
    mistakes: list[str] = field(default_factory=list)   # applied button / director mistakes
    injected: str | None = None                          # the shoe injection asked for (if any)
    pack_size: int | None = None                         # cards in the shoe when the deal began


@dataclass
class Record:
    """Everything the driver knows about one game's evening."""

    game: str
    complete: int                                  # cards a full deal gives the seats
    deals: list[DealRecord] = field(default_factory=list)
    director: list[dict[str, Any]] = field(default_factory=list)   # events entered, in order
    presses: int = 0                               # seat buttons pressed on the shoe
    faults: Counter[str] = field(default_factory=Counter)
    verified: bool | None = None                   # ``cardtable journal verify`` said intact
    verify_message: str = ""
    notes: list[str] = field(default_factory=list)  # what the driver noticed (stalls, crashes)
    tracebacks: int = 0                            # in the run process's logs
    restarts: int = 0                              # starts of the run process after the first
    exits: list[int] = field(default_factory=list)  # statuses of exits nobody asked for
    rows: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)  # the journal, at the end
    strays: int = 0                                # cards out while no deal ran (sent without a seat)
    dashboard: dict[int, int] | None = None        # with a broker: ruling seq -> deliveries seen

    def expected(self, deal: DealRecord) -> list[Key]:
        out: list[Key] = []
        fault = physical_fault(self.game, deal.cards, self.complete, deal.pack_size)
        if fault is not None:
            out += EXPECTED[(self.game, fault)]
        for kind in deal.mistakes:
            out += EXPECTED[(self.game, kind)]
        return out


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
    score_rulings: int = 0
    cards_sent: int = 0
    cards_lost: int = 0
    cards_duplicated: int = 0
    director_sent: int = 0
    director_lost: int = 0
    director_extra: int = 0
    deal_starts: int = 0
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
    faults: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def stuck(self) -> bool:
        return any(n.startswith("stuck") for n in self.notes)

    @property
    def events_lost(self) -> int:
        return self.cards_lost + self.director_lost

    @property
    def ok(self) -> bool:
        return not (self.false_rulings or self.missed_rulings or self.cards_lost or self.cards_duplicated
                    or self.director_lost or self.director_extra or self.unscored
                    or self.deal_starts != self.deals or self.verified is False or self.stuck or 2 in self.exits or self.offline_at_end
                    or self.dashboard_missing or self.dashboard_unknown)


Rows = Iterable[tuple[int, str, dict[str, Any]]]


def _card_key(c: Dealt) -> str | None:
    return c.card if c.readable else None


def _journal_card(body: dict[str, Any]) -> tuple[str | None, ...] | None:
    """A card the shoe reported, as journaled: card_dealt, a euchre turn-up (or its unreadable stand-in)."""
    if body.get("src") != "shoe":
        return None
    kind = body.get("type")
    if kind == "card_dealt":
        return (body.get("card"),)
    if kind == "trump_turned":
        return (body.get("card"),)
    if kind == "damaged_card" and body.get("card") is None:
        return (None,)
    return None


def _director_key(body: dict[str, Any]) -> str:
    """An event as the event format writes it (defaults left out), without time and source."""
    try:
        body = event_to_dict(event_from_dict(body))
    except EventFormatError:
        pass
    return repr(sorted((k, repr(v)) for k, v in body.items() if k not in ("t", "src")))


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


def check(record: Record, rows: Rows, *, max_problems: int = 40) -> Findings:
    """Judge one game's evening."""
    f = Findings(record.game, deals=len(record.deals), faults=Counter(record.faults), verified=record.verified,
                 tracebacks=record.tracebacks, restarts=record.restarts, notes=list(record.notes),
                 exits=list(record.exits), strays=record.strays)

    def problem(text: str) -> None:
        if len(f.problems) < max_problems:
            f.problems.append(text)

    cards_got: list[str | None] = []
    director_got: list[str] = []
    by_deal: dict[int, list[Key]] = {}
    deal = 0
    unscored = False  # a result whose score rulings have not yet been seen
    won_in_deal = False  # penalty points (euchre laws 50, 63, 90) won the rubber before the hand's result:
    #                      the engine rightly scores nothing more for that hand
    rows_seen = list(rows)
    online: dict[str, bool] = {}
    for _seq, kind, body in rows_seen:
        if kind == "event":
            f.unscored += unscored
            typ = body.get("type")
            unscored = typ == "result" and not won_in_deal
            if typ == "deal_start":
                deal += 1
                won_in_deal = False
            elif typ == "result":
                f.results += 1
            card = _journal_card(body)
            if card is not None:
                cards_got.append(card[0])
            if body.get("src") == "director":
                director_got.append(_director_key(body))
            continue
        if kind == "note" and isinstance(body.get("device"), str) and "online" in body:
            online[body["device"]] = bool(body["online"])
        if kind != "ruling":
            continue
        if body.get("remedy") in SCORE_REMEDIES:
            f.score_rulings += 1
            f.rubbers += body.get("remedy") == "rubber_won"
            won_in_deal = won_in_deal or (body.get("remedy") == "rubber_won" and not unscored)
            unscored = False
            continue
        by_deal.setdefault(deal, []).append((str(body.get("clause")), str(body.get("remedy"))))
    f.offline_at_end = sorted(d for d, on in online.items() if not on)
    if f.offline_at_end:
        problem(f"still offline at the end of the evening: {', '.join(f.offline_at_end)}")
    f.unscored += unscored
    if f.unscored:
        problem(f"{f.unscored} result(s) journaled without a score")
    f.deal_starts = deal
    if deal != f.deals:
        problem(f"the journal starts {deal} deals, the shoe started {f.deals}")
    # invariant 1: cards
    sent = [_card_key(c) for d in record.deals for c in (*d.cards, *([d.turn_up] if d.turn_up else []))]
    f.cards_sent = len(sent)
    f.cards_lost, f.cards_duplicated = _diff(sent, cards_got)
    if f.cards_lost or f.cards_duplicated:
        problem(f"cards: {f.cards_sent} left the shoe, {len(cards_got)} journaled; {f.cards_lost} missing, "
                f"{f.cards_duplicated} extra or out of order")
    # invariant 2: the director's entries
    sent_d = [_director_key(e) for e in record.director]
    f.director_sent = len(sent_d)
    f.director_lost, f.director_extra = _diff(sent_d, director_got)
    if f.director_lost or f.director_extra:
        problem(f"director: {len(sent_d)} events entered, {len(director_got)} journaled; {f.director_lost} "
                f"missing, {f.director_extra} extra or out of order")
    # invariant 3: rulings on mistakes
    for n in range(0, max(deal, f.deals) + 1):
        rec = record.deals[n - 1] if 1 <= n <= f.deals else None
        want = Counter(record.expected(rec)) if rec is not None else Counter()
        got = Counter(by_deal.get(n, []))
        if rec is not None:
            if rec.injected is not None:
                f.mistakes_injected += 1
                if physical_fault(record.game, rec.cards, record.complete, rec.pack_size) is None:
                    f.mistakes_harmless += 1
            f.mistakes_injected += len(rec.mistakes)
        f.rulings_expected += sum(want.values())
        f.rulings_got += sum(got.values())
        missed, false = want - got, got - want
        f.missed_rulings += sum(missed.values())
        f.false_rulings += sum(false.values())
        if missed or false:
            problem(f"deal {n}: expected {_keys(want)}, got {_keys(got)}")
    for status in sorted(set(record.exits)):
        n = record.exits.count(status)
        text = (f"cardtable run exited by itself {n} time(s) with status {status}"
                + (" (systemd never restarts after status 2: the table would stay down)" if status == 2
                   else " (the unit restarts it)"))
        if status == 2:
            problem(text)
        else:
            f.notes.append(text)
    if record.dashboard is not None:
        journaled = {seq for seq, kind, _ in rows_seen if kind == "ruling"}
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
    return f


def _keys(c: Counter[Key]) -> str:
    return ", ".join(f"{cl}/{rem}" + (f" x{n}" if n > 1 else "") for (cl, rem), n in sorted(c.items())) or "none"
