"""The soak's bridge hands (``soak.bridge``) against a perfect table, without processes: each deal gets a real
auction and legal play with one of the auction and play irregularities made on purpose, and the entries
that settle it; the law engine and the table's lamp policy fed exactly those entries (``test_checker.Table``)
give a journal the checker, which expects the rulings of docs/laws.md's ``BP-`` rows (``schedule.EXPECTED``) and
scores the soak's own result, passes. Every kind is made, its rulings all come, and the soak's own
account (trick winners, BP-64's transfer, honours, the contract) is checked against worked examples."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.soak.bridge import bridge_hand, contract_of, honours, transfer, trick_winner, tricks_of
from firmware_host.soak.checker import check
from firmware_host.soak.record import DealRecord, Dealt, Record
from firmware_host.soak.schedule import DRAW, EXPECTED, PLAY_KINDS
from laws.cards import RANKS, Card, Seat, full_pack
from tests.soak.test_checker import Table

PACK = [c.code for c in full_pack(RANKS)]
Row = tuple[int, str, dict[str, Any]]


def evening(seed: int, kinds: list[str | None]) -> tuple[Record, list[Row], list[Any]]:
    """A bridge evening of one deal per entry of ``kinds`` (None: no mistake), the perfect table's journal,
    and the soak's hands."""
    rng = random.Random(seed)
    record = Record("contract-bridge", 52)
    t = Table(record)
    t.event({"type": "draw", "cuts": DRAW["contract-bridge"]}, "director")
    made = []
    for n, kind in enumerate(kinds, start=1):
        dealer = t.engine.state.next_dealer or Seat.N
        order = PACK[:]
        rng.shuffle(order)
        seats = [Seat("NESW"[("NESW".index(dealer.value) + 1 + i) % 4]) for i in range(52)]
        cards = [Dealt(c, "A1", False, True, seats[i].value) for i, c in enumerate(order)]
        for s in (dealer.partner, dealer):
            t.event({"type": "shuffle", "seat": s.value}, "shoe")
        t.event({"type": "cut", "seat": dealer.right.value}, "shoe")
        t.event({"type": "deal_start", "dealer": dealer.value, "pack": "A1"}, "shoe")
        for c in cards:
            t.event({"type": "card_dealt", "seat": c.seat, "card": c.card, "pack": "A1"}, "shoe")
        t.event({"type": "deal_end"}, "shoe")
        hands = {s: [Card.parse(c.card) for c in cards if c.seat == s.value] for s in Seat}
        hand = bridge_hand(dealer, hands, kind, rng)
        made.append(hand)
        for e in hand.events:  # the table scores the hand from its cards: nothing typed
            t.event(e, "director")
        record.deals.append(DealRecord(n, cards, None, [hand.applied] if hand.applied else [], None, 52, dealer.value,
                                       dict(hand.facts), hand.result))
    return record, t.rows, made


@given(st.integers(0, 2**32), st.lists(st.sampled_from([None, *PLAY_KINDS]), min_size=1, max_size=5))
@settings(max_examples=40, deadline=None)
def test_a_perfect_table_passes_the_bridge_irregularities(seed: int, kinds: list[str | None]) -> None:
    record, rows, hands = evening(seed, kinds)
    f = check(record, rows)
    assert f.ok, f.problems
    want = sum(len(EXPECTED[("contract-bridge", h.applied)]) for h in hands if h.applied)
    assert f.rulings_expected == f.rulings_got == want
    assert f.contracts == len(hands)


def test_every_kind_is_made_and_ruled() -> None:
    """Over a few evenings every kind of PLAY_KINDS is made, and each gives exactly its rulings."""
    made: Counter[str] = Counter()
    for seed in range(12):
        record, rows, hands = evening(seed, list(PLAY_KINDS))
        f = check(record, rows)
        assert f.ok, f.problems
        made.update(h.applied for h in hands if h.applied)
    assert set(PLAY_KINDS) - {"revoke_established"} <= set(made)
    assert made["revoke_established"] + made["revoke_no_transfer"] >= 6
    assert made["revoke_established"] >= 3  # tricks do move


def test_a_broken_table_fails_the_checker() -> None:
    """The checker is not fooled: a BP- ruling left out is missed, the transfer's tricks changed is a wrong
    field and a wrong score, a contract changed is found."""
    record, rows, hands = evening(3, ["revoke_established", "insufficient_replaced", None])
    assert check(record, rows).ok
    i = next(i for i, (_, k, b) in enumerate(rows) if k == "ruling" and b.get("clause") == "BP-27"
             and b.get("remedy") == "penalty")
    f = check(record, rows[:i] + rows[i + 1:])
    assert f.missed_rulings == 1 and not f.ok
    j = next((i for i, (_, k, b) in enumerate(rows) if k == "ruling" and b.get("clause") == "BP-64"
              and b.get("remedy") == "penalty"), None)
    if j is not None:
        seq, kind, body = rows[j]
        f = check(record, rows[:j] + [(seq, kind, {**body, "tricks": body["tricks"] + 1})] + rows[j + 1:])
        assert f.wrong_fields == 1 and not f.ok
    k = next(i for i, (_, k, b) in enumerate(rows) if k == "ruling" and b.get("remedy") == "contract")
    seq, kind, body = rows[k]
    f = check(record, rows[:k] + [(seq, kind, {**body, "declarer": Seat(body["declarer"]).partner.value})] + rows[k + 1:])
    assert f.contracts_wrong == 1 and not f.ok


# -- the soak's own account, on worked examples ------------------------------------------------------

def test_trick_winners_by_the_soaks_own_rule() -> None:
    assert trick_winner([("W", "KS"), ("N", "2C"), ("E", "4S"), ("S", "2H")], "H") == "S"  # a ruff
    assert trick_winner([("W", "KS"), ("N", "2C"), ("E", "AS"), ("S", "2H")], None) == "E"
    assert trick_winner([("W", "2S"), ("N", "AC"), ("E", "3S"), ("S", "AH")], "D") == "E"  # discards lose
    with pytest.raises(ValueError, match="led by N, not W"):
        tricks_of([("N", "2S"), ("E", "3S"), ("S", "4S"), ("W", "5S")], "W", None)


def test_the_transfer_of_an_established_revoke_by_bp64() -> None:
    """docs/laws.md BP-64 on docs/events.md's worked example (South ruffs the spade lead while holding spades
    and wins the trick, then North-South win a later trick: two tricks move), and its other branches."""
    t = [([], "S"), ([], "W"), ([], "N")]  # trick 1 won by South (the revoker), trick 3 by his partner
    assert transfer(t, 1, "S") == 2
    assert transfer([([], "S"), ([], "W"), ([], "E")], 1, "S") == 1   # he won it; his side no later trick
    assert transfer([([], "N"), ([], "W")], 1, "S") == 1              # his partner won the revoke trick
    assert transfer([([], "W"), ([], "N")], 1, "S") == 1              # his side won a later trick
    assert transfer([([], "W"), ([], "E")], 1, "S") == 0              # his side won none from it on


def test_honours_and_the_contract_by_the_soaks_own_count() -> None:
    hands = {Seat.N: [Card.parse(c) for c in ("AH", "KH", "QH", "JH")], Seat.E: [Card.parse("TH")],
             Seat.S: [Card.parse(c) for c in ("AS", "AD", "AC")], Seat.W: []}
    assert honours(hands, "H") == ("NS", 100)
    assert honours(hands, "NT") is None and honours(hands, "S") is None
    hands[Seat.N].append(Card.parse("TH"))
    assert honours(hands, "H") == ("NS", 150)
    assert contract_of([("N", "1D"), ("E", "pass"), ("S", "1H"), ("W", "pass"), ("N", "2C"), ("E", "pass"),
                        ("S", "4H"), ("W", "pass"), ("N", "pass"), ("E", "pass")]) == ("4H", "S")
    assert contract_of([("N", "1H"), ("E", "double"), ("S", "pass"), ("W", "pass"), ("N", "pass")]) == ("1HX", "N")
    assert contract_of([("N", "pass")] * 4) is None
