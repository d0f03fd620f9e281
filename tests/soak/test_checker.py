"""The soak's checker is itself right: Hypothesis builds evenings (deals with physical faults, mistakes
after them, results) and the journal a perfect table writes for them — the law engine's rulings and the
table's lamp policy, fed exactly what physically happened (``perfect_journal``). The checker, which knows
none of that and works the rulings, dealers, seats, lamps and score out by itself, passes that journal,
and reports exactly each card lost, duplicated or reordered, each entry lost, each ruling added or left
out, and each result left unscored. ``test_mutations.py`` breaks a real recorded evening."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from firmware_host.soak.checker import check
from firmware_host.soak.record import DealRecord, Dealt, Record
from firmware_host.soak.schedule import DRAW, EXPECTED, kinds_for, make_schedule, physical_fault
from firmware_host.table import lamps as lamp_policy
from laws.cards import RANKS, Seat, full_pack
from laws.engine import LawEngine
from laws.events import event_from_dict

Row = tuple[int, str, dict[str, Any]]
PACK = [c.code for c in full_pack(RANKS)]
FAULTS = [None, "face_up", "unreadable", "duplicate", "foreign", "missing"]


class Table:
    """A perfect table without I/O: every event journaled, then the engine's rulings and the lamps."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.engine = LawEngine(record.game)
        self.rows: list[Row] = []
        self.lamps = dict.fromkeys(lamp_policy.RULING_LAMPS + ("shoe_offline", "camera_offline", "journal_fault"),
                                   False)
        self.deal = 0
        self.add("event", {"type": "game", "game": record.game})

    def add(self, kind: str, body: dict[str, Any]) -> None:
        self.rows.append((len(self.rows) + 1, kind, body))

    def event(self, body: dict[str, Any], src: str) -> None:
        body = {**body, "src": src}
        if src == "director":
            self.record.director.append({k: v for k, v in body.items() if k != "src"})
        self.add("event", body)
        e = event_from_dict(body)
        if e.TYPE == "deal_start":
            self.deal += 1
        rulings = self.engine.feed(e)
        for r in rulings:
            self.add("ruling", r.to_dict() | {"deal": self.deal})
        lamps = lamp_policy.after_event(self.lamps, e, rulings)
        if lamps != self.lamps:
            self.lamps = lamps
            self.add("lamp", dict(lamps))

    def void(self) -> bool:
        d = self.engine.state.deal
        return d is not None and d.void


@st.composite
def evenings(draw: Any) -> tuple[Record, list[Row]]:
    """A bridge evening and its perfect journal: some deals clean, some with one physical fault, some
    with a mistake after a clean deal; a result for every hand that stands."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    record = Record("contract-bridge", 52)
    t = Table(record)
    t.event({"type": "draw", "cuts": DRAW["contract-bridge"]}, "director")
    for n in range(1, draw(st.integers(1, 6)) + 1):
        dealer = t.engine.state.next_dealer or Seat.N
        pack = "A1" if n % 2 else "B1"
        order = PACK[:]
        rng.shuffle(order)
        cards = [Dealt(c, pack, False, True) for c in order]
        fault = draw(st.sampled_from(FAULTS))
        at = rng.randrange(52)
        size = 52
        if fault == "face_up":
            cards[at] = Dealt(cards[at].card, pack, True, True)
        elif fault == "unreadable":
            cards[at] = Dealt(cards[at].card, pack, False, False)
        elif fault == "duplicate":
            cards.insert(max(at, 1), cards[rng.randrange(max(at, 1))])
            cards = cards[:52]
        elif fault == "foreign":
            at = max(at, 1)
            cards[at] = Dealt(cards[at].card, "X9", False, True)
        elif fault == "missing":
            cards, size = cards[:51], 51
        seats = [Seat("NESW"[("NESW".index(dealer.value) + 1 + i) % 4]) for i in range(52)]
        cards = [Dealt(c.card, c.pack, c.face_up, c.readable, seats[i].value) for i, c in enumerate(cards)]
        for s in (dealer.partner, dealer):
            t.event({"type": "shuffle", "seat": s.value}, "shoe")
        t.event({"type": "cut", "seat": dealer.right.value}, "shoe")
        t.event({"type": "deal_start", "dealer": dealer.value, "pack": "unknown"}, "shoe")
        sent: list[Dealt] = []
        for c in cards:
            sent.append(c)
            t.event({"type": "card_dealt", "seat": c.seat, "card": c.card if c.readable else None,
                     "face_up": c.face_up, "pack": c.pack}, "shoe")
            if t.void() and rng.random() < 0.3:  # the host aborts the voided deal a few cards later
                break
        t.event({"type": "deal_end"}, "shoe")
        d = t.engine.state.deal
        if d is not None and d.search is not None:  # a card missing: the director says it was not found
            t.event({"type": "missing_card", "card": None, "seat": d.search.value, "found": None}, "director")
        mistakes: list[str] = []
        facts: dict[str, str] = {}
        if not t.void() and rng.random() < 0.5:
            kind = draw(st.sampled_from(["attention", "late_demand", "miscount"]))
            seat = rng.choice(list(Seat))
            mistakes, facts = [kind], {"at": seat.value}
            if kind == "miscount":
                other = rng.choice([s for s in Seat if s != seat])
                t.event({"type": "hand_count", "seat": seat.value, "count": 14}, "director")
                t.event({"type": "hand_count", "seat": other.value, "count": 12}, "director")
            else:
                t.event({"type": "demand", "seat": seat.value,
                         "what": "attention" if kind == "attention" else "new_shuffle"}, "button")
        result = None
        if not t.void():
            result = {"type": "result", "declarer": rng.choice("NESW"), "contract": rng.choice(["1NT", "4S", "3H"]),
                      "tricks": rng.randint(5, 12)}
            t.event(result, "director")
        record.deals.append(DealRecord(n, sent, None, mistakes, fault, size, dealer.value, facts, result))
    return record, t.rows


def _renumber(rows: list[Row]) -> list[Row]:
    return [(i + 1, k, b) for i, (_, k, b) in enumerate(rows)]


@given(evenings())
@settings(max_examples=60, deadline=None)
def test_a_perfect_journal_passes(evening: tuple[Record, list[Row]]) -> None:
    record, rows = evening
    f = check(record, rows)
    assert f.ok, f.problems
    assert f.false_rulings == f.missed_rulings == f.events_lost == f.wrong_fields == f.score_wrong == 0
    assert f.rulings_expected == f.rulings_got


@given(evenings(), st.data())
@settings(max_examples=60, deadline=None)
def test_a_lost_or_duplicated_card_is_reported(evening: tuple[Record, list[Row]], data: Any) -> None:
    record, rows = evening
    cards = [i for i, (_, k, b) in enumerate(rows) if b.get("type") == "card_dealt"]
    i = data.draw(st.sampled_from(cards))
    if data.draw(st.booleans()):
        del rows[i]
        f = check(record, _renumber(rows))
        assert f.cards_lost == 1 and f.cards_duplicated == 0 and not f.ok
    else:
        rows.insert(i, rows[i])
        f = check(record, _renumber(rows))
        assert f.cards_duplicated == 1 and f.cards_lost == 0 and not f.ok


@given(evenings(), st.data())
@settings(max_examples=40, deadline=None)
def test_cards_out_of_order_are_reported(evening: tuple[Record, list[Row]], data: Any) -> None:
    record, rows = evening
    cards = [i for i, (_, k, b) in enumerate(rows) if b.get("type") == "card_dealt"]
    pairs = [(a, b) for a, b in zip(cards, cards[1:]) if b == a + 1 and rows[a][2]["card"] != rows[b][2]["card"]]
    assume(pairs)  # an evening of one short deal of one card twice has no two different cards to swap
    a, b = data.draw(st.sampled_from(pairs))
    rows[a], rows[b] = rows[b], rows[a]
    f = check(record, _renumber(rows))
    assert f.cards_lost >= 1 and f.cards_duplicated >= 1 and not f.ok


@given(evenings(), st.data())
@settings(max_examples=60, deadline=None)
def test_a_ruling_nobody_earned_is_false_and_one_left_out_is_missed(evening: tuple[Record, list[Row]],
                                                                     data: Any) -> None:
    record, rows = evening
    starts = [i for i, (_, k, b) in enumerate(rows) if b.get("type") == "deal_start"]
    if data.draw(st.booleans()):
        at = data.draw(st.sampled_from(starts)) + 1
        want = data.draw(st.sampled_from(sorted({w.key for ws in EXPECTED.values() for w in ws})))
        rows.insert(at, (0, "ruling", {"clause": want[0], "remedy": want[1]}))
        f = check(record, _renumber(rows))
        assert f.false_rulings == 1 and f.missed_rulings == 0 and not f.ok
    else:
        ours = [i for i, (_, k, b) in enumerate(rows) if k == "ruling" and
                b["remedy"] not in ("score", "game_won", "rubber_won", "formation")]
        if not ours:
            return
        del rows[data.draw(st.sampled_from(ours))]
        f = check(record, _renumber(rows))
        assert f.missed_rulings == 1 and f.false_rulings == 0 and not f.ok


@given(evenings(), st.data())
@settings(max_examples=40, deadline=None)
def test_a_lost_entry_or_an_unscored_result_is_reported(evening: tuple[Record, list[Row]], data: Any) -> None:
    record, rows = evening
    entries = [i for i, (_, k, b) in enumerate(rows) if b.get("src") == "director" and b.get("type") != "draw"]
    scores = [i for i, (_, k, b) in enumerate(rows) if b.get("remedy") == "score"]
    if entries and data.draw(st.booleans()):
        del rows[data.draw(st.sampled_from(entries))]
        f = check(record, _renumber(rows))
        assert f.director_lost == 1 and not f.ok
    elif scores:
        del rows[data.draw(st.sampled_from(scores))]
        f = check(record, _renumber(rows))
        assert f.score_wrong >= 1 and not f.ok  # (and unscored, unless a game or rubber ruling followed)


def test_a_twin_that_never_left_the_shoe_is_a_surplus_card() -> None:
    """A duplicate (or another pack's card) left under a sound deal of 52 was "no fault at all" here, but
    the table now rules it (the shoe's left_in_shoe: CB-surplus-deal, redeal), so the soak expected no
    ruling where the laws give one, about once in 51 duplicate faults."""
    cards = [Dealt(c, "A1", False, True) for c in PACK]
    assert physical_fault("contract-bridge", cards, 52, pack_size=53) == "surplus"
    assert EXPECTED[("contract-bridge", "surplus")][0].key == ("CB-surplus-deal", "redeal")
    assert physical_fault("euchre", cards[:20], 20, pack_size=24) is None   # the kitty stays in the shoe
    assert physical_fault("contract-bridge", cards[:51], 52, pack_size=51) == "missing"
    assert physical_fault("contract-bridge", cards[:3], 52, pack_size=52) is None  # aborted, nothing wrong
    assert physical_fault("contract-bridge", cards[:3], 52, pack_size=51) is None  # stopped before it showed


@given(st.sampled_from(["contract-bridge", "euchre"]), st.integers(1, 300), st.integers(0, 100),
       st.integers(0, 10**6))
@settings(max_examples=40, deadline=None)
def test_schedules_are_seeded_and_within_bounds(game: str, deals: int, faults: int, seed: int) -> None:
    a = make_schedule(game, deals, seed, faults=faults)
    assert a == make_schedule(game, deals, seed, faults=faults)
    assert len(a.faults) == faults
    assert all(1 <= f.deal <= max(1, deals - 1) and f.delay >= 0 for f in a.faults)  # none in the last deal
    assert set(a.mistakes.values()) <= set(kinds_for(game))
    assert all((game, k) in EXPECTED for k in a.mistakes.values())


def test_a_result_after_penalty_points_won_the_rubber_is_rightly_unscored() -> None:
    """Euchre law 90 (or 50, 63): penalty points that win the rubber end it before the hand's result, so
    the engine scores nothing more for that hand; that result is not 'left unscored'. A result in the next
    deal still must be scored."""
    record = Record("euchre", 20)
    record.director = [{"type": "result", "makers": "NS", "tricks": 2}]
    rows: list[Row] = [(1, "event", {"type": "deal_start", "dealer": "N", "pack": "A1", "src": "shoe"}),
                       (2, "ruling", {"clause": "EU-90", "remedy": "score"}),
                       (3, "ruling", {"clause": "EU-7", "remedy": "rubber_won"}),
                       (4, "event", {"type": "result", "makers": "NS", "tricks": 2, "src": "director"}),
                       (5, "note", {"ignored": {"type": "result"}})]
    assert check(record, rows).unscored == 0
    record.director.append({"type": "result", "makers": "NS", "tricks": 2})
    rows += [(6, "event", {"type": "deal_start", "dealer": "E", "pack": "A1", "src": "shoe"}),
             (7, "event", {"type": "result", "makers": "NS", "tricks": 2, "src": "director"}),
             (8, "note", {"ignored": {"type": "result"}})]
    assert check(record, rows).unscored == 1


def _locked_then_killed(recovery: bool) -> Record:
    """A lock held 100-112 s, the table killed at 112.5 s; the killed table had taken a card at 112.2 s
    (so it committed once the lock was gone) and, with ``recovery``, noted its recovery."""
    r = Record("euchre", 20, locks=1, lock_windows=[(100.0, 112.0)], kill_times=[112.5])
    r.rows = [(1, "event", {"type": "game", "game": "euchre"}),
              (2, "event", {"type": "shuffle", "seat": "N", "src": "shoe", "t": 99.0}),
              *([(3, "note", {"journal": "recovered", "since": 100.0, "failed_commits": 2})] if recovery else []),
              (4, "event", {"type": "shuffle", "seat": "S", "src": "shoe", "t": 112.2})]
    return r


def test_a_kill_just_after_a_lock_excuses_no_missing_recovery_once_the_table_committed_again() -> None:
    """The kill came after the lock and after the killed table had committed again: its recovery note
    must be there. A kill that close to a lock's end excused the episode whatever the journal held, so a
    journal with its recovery notes gone passed (found on a recorded evening with kills 0.2 s and 0.9 s
    after its two euchre locks)."""
    assert check(_locked_then_killed(True), _locked_then_killed(True).rows).locks_failing == 1
    f = check(_locked_then_killed(False), _locked_then_killed(False).rows)
    assert f.locks_unproven and not f.ok
    cut = _locked_then_killed(False)
    cut.rows = cut.rows[:-1]   # nothing taken after the lock began: the kill cut the table off, no proof
    assert not check(cut, cut.rows).locks_unproven


def test_a_passed_out_close_naming_the_wrong_next_dealer_is_caught() -> None:
    """A bridge deal passed out: its BP-22 close names the shoe's dealer's left as the next dealer."""
    rec = Record("contract-bridge", 52)
    rec.deals = [DealRecord(1, [], None, [], None, 52, "S", {"contract": "Pass"}, None)]
    for dealer, wrong in (("W", 0), ("N", 1)):
        rows: list[Row] = [(1, "event", {"type": "game", "game": "contract-bridge"}),
                           (2, "event", {"type": "deal_start", "dealer": "S", "pack": "A1", "src": "shoe"}),
                           (3, "ruling", {"remedy": "contract", "clause": "BP-22", "passed_out": True,
                                          "contract": "Pass", "dealer": dealer, "deal": 1})]
        assert check(rec, rows).contracts_wrong == wrong, dealer
