"""The soak's checker is itself right: Hypothesis builds evenings (deals, physical faults, mistakes,
director's entries) and the journal a perfect table would write for them; the checker passes that
journal, and reports exactly each card lost, duplicated or reordered, each entry lost, each ruling
added or left out, and each result left unscored."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.soak.checker import DealRecord, Record, check
from firmware_host.soak.schedule import EXPECTED, Dealt, kinds_for, make_schedule, physical_fault
from laws.cards import RANKS, full_pack

Row = tuple[int, str, dict[str, Any]]
PACK = [c.code for c in full_pack(RANKS)]


@st.composite
def evenings(draw: Any) -> Record:
    """A bridge evening: some deals clean, some with one physical fault, some with a mistake after."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    record = Record("contract-bridge", 52)
    for n in range(1, draw(st.integers(1, 6)) + 1):
        order = PACK[:]
        rng.shuffle(order)
        cards = [Dealt(c, "A1" if n % 2 else "B1", False, True) for c in order]
        fault = draw(st.sampled_from([None, "face_up", "unreadable", "duplicate", "foreign", "missing"]))
        at = rng.randrange(52)
        size = 52
        if fault == "face_up":
            cards[at] = Dealt(cards[at].card, cards[at].pack, True, True)
        elif fault == "unreadable":
            cards[at] = Dealt(cards[at].card, cards[at].pack, False, False)
        elif fault == "duplicate":
            cards.insert(max(at, 1), cards[rng.randrange(max(at, 1))])
            cards = cards[:52]
        elif fault == "foreign":
            at = max(at, 1)
            cards[at] = Dealt(cards[at].card, "X9", False, True)
        elif fault == "missing":
            cards, size = cards[:51], 51
        if fault not in (None, "missing"):
            cut = rng.randint(at + 1, 52)  # the host aborts the voided deal a few cards later
            cards = cards[:cut]
        mistakes = []
        if fault is None:
            mistakes = [draw(st.sampled_from(["attention", "late_demand", "miscount"]))] if rng.random() < .5 else []
        record.deals.append(DealRecord(n, cards, None, mistakes, fault, size))
    return record


def perfect_journal(record: Record) -> list[Row]:
    """The rows a table that loses nothing and rules rightly writes for ``record``."""
    rows: list[Row] = [(1, "event", {"type": "game", "game": record.game})]

    def add(kind: str, body: dict[str, Any]) -> None:
        rows.append((len(rows) + 1, kind, body))

    for d in record.deals:
        add("event", {"type": "deal_start", "dealer": "N", "pack": "A1", "src": "shoe"})
        fault = physical_fault(record.game, d.cards, record.complete, d.pack_size)
        for i, c in enumerate(d.cards):
            add("event", {"type": "card_dealt", "seat": "E", "card": c.card if c.readable else None,
                          "src": "shoe"})
            if fault is not None and i == len(d.cards) - 1:
                for clause, remedy in EXPECTED[(record.game, fault)]:
                    add("ruling", {"clause": clause, "remedy": remedy})
        add("event", {"type": "deal_end", "src": "shoe"})
        for kind in d.mistakes:
            for clause, remedy in EXPECTED[(record.game, kind)]:
                entry = {"type": "hand_count", "seat": "S", "count": 14}
                record.director.append(entry)
                add("event", {**entry, "src": "director"})
                add("ruling", {"clause": clause, "remedy": remedy})
        if fault is None and "miscount" not in d.mistakes:
            result = {"type": "result", "declarer": "S", "contract": "1NT", "tricks": 7}
            record.director.append(result)
            add("event", {**result, "src": "director"})
            add("ruling", {"clause": "CB-rubber", "remedy": "score"})
    return rows


def _renumber(rows: list[Row]) -> list[Row]:
    return [(i + 1, k, b) for i, (_, k, b) in enumerate(rows)]


@given(evenings())
@settings(max_examples=60, deadline=None)
def test_a_perfect_journal_passes(record: Record) -> None:
    f = check(record, perfect_journal(record))
    assert f.ok, f.problems
    assert f.false_rulings == f.missed_rulings == f.events_lost == 0
    assert f.rulings_expected == f.rulings_got


@given(evenings(), st.data())
@settings(max_examples=60, deadline=None)
def test_a_lost_or_duplicated_card_is_reported(record: Record, data: Any) -> None:
    rows = perfect_journal(record)
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
def test_cards_out_of_order_are_reported(record: Record, data: Any) -> None:
    rows = perfect_journal(record)
    cards = [i for i, (_, k, b) in enumerate(rows) if b.get("type") == "card_dealt"]
    pairs = [(a, b) for a, b in zip(cards, cards[1:]) if rows[a][2]["card"] != rows[b][2]["card"]]
    a, b = data.draw(st.sampled_from(pairs))
    rows[a], rows[b] = rows[b], rows[a]
    f = check(record, _renumber(rows))
    assert f.cards_lost >= 1 and f.cards_duplicated >= 1 and not f.ok


@given(evenings(), st.data())
@settings(max_examples=60, deadline=None)
def test_a_ruling_nobody_earned_is_false_and_one_left_out_is_missed(record: Record, data: Any) -> None:
    rows = perfect_journal(record)
    starts = [i for i, (_, k, b) in enumerate(rows) if b.get("type") == "deal_start"]
    if data.draw(st.booleans()):
        at = data.draw(st.sampled_from(starts)) + 1
        clause, remedy = data.draw(st.sampled_from(sorted(v for vs in EXPECTED.values() for v in vs)))
        rows.insert(at, (0, "ruling", {"clause": clause, "remedy": remedy}))
        f = check(record, _renumber(rows))
        assert f.false_rulings == 1 and f.missed_rulings == 0 and not f.ok
    else:
        ours = [i for i, (_, k, b) in enumerate(rows) if k == "ruling" and b["remedy"] != "score"]
        if not ours:
            return
        del rows[data.draw(st.sampled_from(ours))]
        f = check(record, _renumber(rows))
        assert f.missed_rulings == 1 and f.false_rulings == 0 and not f.ok


@given(evenings(), st.data())
@settings(max_examples=40, deadline=None)
def test_a_lost_entry_or_an_unscored_result_is_reported(record: Record, data: Any) -> None:
    rows = perfect_journal(record)
    entries = [i for i, (_, k, b) in enumerate(rows) if b.get("src") == "director"]
    scores = [i for i, (_, k, b) in enumerate(rows) if b.get("remedy") == "score"]
    if entries and data.draw(st.booleans()):
        del rows[data.draw(st.sampled_from(entries))]
        f = check(record, _renumber(rows))
        assert f.director_lost == 1 and not f.ok
    elif scores:
        del rows[data.draw(st.sampled_from(scores))]
        f = check(record, _renumber(rows))
        assert f.unscored == 1 and not f.ok


def test_a_twin_that_never_left_the_shoe_is_no_fault() -> None:
    cards = [Dealt(c, "A1", False, True) for c in PACK]
    assert physical_fault("contract-bridge", cards, 52, pack_size=53) is None
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
    assert all(1 <= f.deal <= deals and f.delay >= 0 for f in a.faults)
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
