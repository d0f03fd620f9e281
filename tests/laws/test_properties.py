"""Hypothesis properties of the law engine: legal tables make no irregularity ruling; one injected
irregularity makes exactly the expected remedy; the engine is deterministic."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import SEATS, Card, Seat
from laws.engine import LawEngine
from laws.events import Event, event_from_dict, event_to_dict
from laws.rulings import Remedy, Ruling
from tests.laws.streams import (
    BRIDGE_PACK,
    EUCHRE_PACK,
    E,
    bridge_deal,
    bridge_hands,
    bridge_play,
    euchre_deal,
    euchre_play,
    prelude,
    shuffled,
)

CONTRACTS = ["1C", "2D", "3NT", "4S", "4HX", "5CXX", "6NT", "7S"]


def bridge_table(seed: int, deals: int) -> list[Event]:
    rnd = random.Random(seed)
    events: list[Event] = [E("game", game="contract-bridge"), E("packs", owners={"NS": "red", "EW": "blue"}),
                           E("draw", cuts=[["ann", "AS"], ["bob", "KH"], ["cy", "7D"], ["di", "2C"]])]
    dealer = Seat.N  # ann drew highest and sits North
    for k in range(deals):
        pack = "red" if k % 2 == 0 else "blue"
        cards = shuffled(BRIDGE_PACK, rnd)
        events += prelude(dealer, pack, k == 0 or rnd.random() < 0.5) + bridge_deal(dealer, cards, pack)
        events += bridge_play(bridge_hands(dealer, cards), dealer.left, rnd)
        declarer = rnd.choice(SEATS)
        events += [E("play_end"), E("result", declarer=declarer.value, contract=rnd.choice(CONTRACTS),
                                    tricks=rnd.randint(0, 13))]
        dealer = dealer.left
    return events


def declarations(dealer: Seat, maker: Seat, trump: str, turned: str, alone: bool) -> list[Event]:
    """Legal declarations (laws 74-78) that end with ``maker`` making ``trump``: in the first round when
    it is the turned card's suit, else everybody passes once and he names it in the second."""
    order = [dealer.left, dealer.left.left, dealer.right, dealer]
    out: list[Event] = []
    if trump != turned:
        out += [E("bid", seat=s.value, call="pass") for s in order]
    for s in order:
        if s == maker:
            call = {"call": "order"} if trump == turned else {"call": "name", "suit": trump}
            return out + [E("bid", seat=s.value, alone=alone, **call)]
        out.append(E("bid", seat=s.value, call="pass"))
    raise AssertionError("the maker is one of the four")


def euchre_table(seed: int, deals: int) -> list[Event]:
    rnd = random.Random(seed)
    events: list[Event] = [E("game", game="euchre"), E("packs", owners={"NS": "red", "EW": "blue"}),
                           E("draw", cuts=[["ann", "JS"], ["bob", "AH"], ["cy", "9D"], ["di", "7C"]])]
    dealer = Seat.N
    for _ in range(deals):
        pack = "red" if dealer.side.value == "NS" else "blue"
        cards = shuffled(EUCHRE_PACK, rnd)
        first = (rnd.choice((2, 3)),) * 4  # law 42: a round is all twos or all threes
        deal, hands, trump_card = euchre_deal(dealer, cards, first, pack)  # type: ignore[arg-type]
        trump = rnd.choice("SHDC")
        maker = rnd.choice(SEATS)
        alone = rnd.random() < 0.2
        play, won = euchre_play(hands, dealer, trump, trump_card, maker, alone, rnd)
        bids = declarations(dealer, maker, trump, trump_card.suit, alone) if rnd.random() < 0.5 else []
        events += prelude(dealer, pack, rnd.random() < 0.5) + deal + bids + play  # law 27: a right
        events.append(E("result", makers=maker.side.value, alone=alone, tricks=won))
        dealer = dealer.left
    return events


def irregular(rulings: list[Ruling]) -> list[Ruling]:
    return [r for r in rulings if r.is_irregularity]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), deals=st.integers(1, 4))
def test_legal_bridge_table_makes_no_irregularity_ruling(seed: int, deals: int) -> None:
    eng = LawEngine("contract-bridge")
    rulings = eng.feed_all(bridge_table(seed, deals))
    assert irregular(rulings) == [], [r.to_dict() for r in irregular(rulings)]
    assert sum(r.remedy is Remedy.SCORE for r in rulings) == deals


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), deals=st.integers(1, 6))
def test_legal_euchre_table_makes_no_irregularity_ruling(seed: int, deals: int) -> None:
    eng = LawEngine("euchre")
    rulings = eng.feed_all(euchre_table(seed, deals))
    assert irregular(rulings) == [], [r.to_dict() for r in irregular(rulings)]


# One injected irregularity into a legal bridge deal, and the remedy it must produce.
def _inject(kind: str, events: list[Event], rnd: random.Random) -> tuple[list[Event], str, Remedy]:
    starts = [i for i, e in enumerate(events) if e.TYPE == "deal_start"]
    cards_at = [i for i, e in enumerate(events) if e.TYPE == "card_dealt"]
    i = rnd.choice(cards_at[1:40])
    ev = events[i]
    if kind == "faced":
        d = event_to_dict(ev) | {"face_up": True}
        return events[:i] + [event_from_dict(d)] + events[i + 1:], "CB-redeal-faced", Remedy.REDEAL
    if kind == "unreadable":
        d = event_to_dict(ev) | {"card": None}
        return events[:i] + [event_from_dict(d)] + events[i + 1:], "CB-pack-damaged", Remedy.REPLACE_PACK
    if kind == "duplicate":
        first = events[cards_at[0]]
        d = event_to_dict(ev) | {"card": first.card.code}  # type: ignore[attr-defined]
        return events[:i] + [event_from_dict(d)] + events[i + 1:], "CB-surplus-deal", Remedy.REDEAL
    if kind == "double":
        d = event_to_dict(events[i - 1])
        return events[:i] + [event_from_dict(event_to_dict(ev) | {"seat": d["seat"]})] + events[i + 1:], \
            "CB-redeal-incorrect", Remedy.REDEAL
    if kind == "cut_faced":
        # the cut shows a card; the table shuffles and cuts again and deals
        j = starts[0] - 1
        again = events[j - 2:j + 1]
        return events[:j] + [event_from_dict(event_to_dict(events[j]) | {"faced": True})] + again + events[j + 1:], \
            "CB-cut-faced", Remedy.NEW_SHUFFLE_AND_CUT
    if kind == "shuffle_demand":
        again = events[starts[0] - 3:starts[0]]
        return events[:starts[0]] + [E("demand", seat="E", what="new_shuffle")] + again + \
            events[starts[0]:], "CB-shuffle-demand", Remedy.NEW_SHUFFLE_AND_CUT
    if kind == "wrong_hand":
        end = next(k for k, e in enumerate(events) if e.TYPE == "deal_end")
        return events[:end + 1] + [E("wrong_hand", seat="S", looked=True)], "CB-redeal-wrong-hand", \
            Remedy.REDEAL
    raise AssertionError(kind)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6),
       kind=st.sampled_from(["faced", "unreadable", "duplicate", "double", "cut_faced", "shuffle_demand",
                             "wrong_hand"]))
def test_one_injected_irregularity_gives_exactly_its_remedy(seed: int, kind: str) -> None:
    rnd = random.Random(seed)
    events = bridge_table(seed, 1)
    end = next(k for k, e in enumerate(events) if e.TYPE == "deal_end")
    events, clause, remedy = _inject(kind, events[:end + 1], rnd)
    rulings = irregular(LawEngine("contract-bridge").feed_all(events))
    assert [(r.clause, r.remedy) for r in rulings] == [(clause, remedy)]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_replaying_twice_gives_the_same_rulings(seed: int) -> None:
    for game, events in (("contract-bridge", bridge_table(seed, 2)), ("euchre", euchre_table(seed, 3))):
        one = [r.to_dict() for r in LawEngine(game).feed_all(events)]
        two = [r.to_dict() for r in LawEngine(game).feed_all(events)]
        assert one == two


def test_cards_are_the_event_notation() -> None:
    assert Card.parse("ts") == Card("T", "S")


def _inject_euchre(kind: str, events: list[Event], rnd: random.Random) -> tuple[list[Event], str, Remedy]:
    cards_at = [i for i, e in enumerate(events) if e.TYPE == "card_dealt"]
    i = rnd.choice(cards_at[1:-1])
    d = event_to_dict(events[i])
    if kind == "faced":
        return events[:i] + [event_from_dict(d | {"face_up": True})] + events[i + 1:], "EU-34", Remedy.REDEAL
    if kind == "unreadable":
        return events[:i] + [event_from_dict(d | {"card": None})] + events[i + 1:], "EU-33", Remedy.REPLACE_PACK
    if kind == "duplicate":
        first = event_to_dict(events[cards_at[0]])["card"]
        return events[:i] + [event_from_dict(d | {"card": first})] + events[i + 1:], "EU-33", Remedy.REDEAL
    if kind == "misdeal":  # one card of a packet goes to the next seat
        nxt = event_to_dict(events[cards_at[cards_at.index(i) + 1]])
        if nxt["seat"] == d["seat"]:
            return events[:i] + [event_from_dict(d | {"seat": Seat(d["seat"]).left.value})] + events[i + 1:], \
                "EU-41", Remedy.MISDEAL
        return events[:i] + [event_from_dict(d | {"seat": Seat(d["seat"]).right.value})] + events[i + 1:], \
            "EU-41", Remedy.MISDEAL
    if kind == "mixed_round":  # law 42: the first round dealt 2-3-2-3 instead of all twos or all threes
        start = next(k for k, e in enumerate(events) if e.TYPE == "deal_start")
        t = next(k for k, e in enumerate(events) if e.TYPE == "trump_turned")
        cards = [e.card for e in events[start:t + 1] if e.TYPE in ("card_dealt", "trump_turned")]  # type: ignore[attr-defined]
        dealer = events[start].dealer  # type: ignore[attr-defined]
        mixed, _, _ = euchre_deal(dealer, cards, (2, 3, 2, 3), events[start].pack)  # type: ignore[attr-defined]
        return events[:start] + mixed, "EU-41", Remedy.MISDEAL
    if kind == "trump_exposed":
        t = next(k for k, e in enumerate(events) if e.TYPE == "trump_turned")
        return events[:t] + [E("card_faced", card=None, where="trump")] + events[t:], "EU-39", Remedy.REDEAL
    raise AssertionError(kind)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6),
       kind=st.sampled_from(["faced", "unreadable", "duplicate", "misdeal", "trump_exposed", "mixed_round"]))
def test_one_injected_euchre_irregularity_gives_exactly_its_remedy(seed: int, kind: str) -> None:
    rnd = random.Random(seed)
    events = euchre_table(seed, 1)
    t = next(k for k, e in enumerate(events) if e.TYPE == "trump_turned")
    events, clause, remedy = _inject_euchre(kind, events[:t + 1], rnd)
    rulings = irregular(LawEngine("euchre").feed_all(events))
    assert [(r.clause, r.remedy) for r in rulings] == [(clause, remedy)]


def euchre_hand_played(seed: int) -> list[Event]:
    """One legal euchre hand, not alone, up to the end of play."""
    rnd = random.Random(seed)
    dealer = Seat(rnd.choice("NESW"))
    pack = "red" if dealer.side.value == "NS" else "blue"
    deal, hands, trump_card = euchre_deal(dealer, shuffled(EUCHRE_PACK, rnd), (rnd.choice((2, 3)),) * 4,
                                          pack)  # type: ignore[arg-type]
    play, _ = euchre_play(hands, dealer, rnd.choice("SHDC"), trump_card, rnd.choice(SEATS), False, rnd)
    events: list[Event] = [E("game", game="euchre")]
    return events + [E("packs", owners={"NS": "red", "EW": "blue"})] + prelude(dealer, pack) + deal + play


def _inject_play(kind: str, events: list[Event], rnd: random.Random) -> tuple[list[Event], set[str], Remedy]:
    plays = [i for i, e in enumerate(events) if e.TYPE == "card_played"]
    k = rnd.randrange(5)                     # the trick the irregularity comes in
    first = plays[4 * k]
    trick = [event_to_dict(events[i]) for i in plays[4 * k:4 * k + 4]]
    later = {d["seat"]: d["card"] for d in (event_to_dict(events[i]) for i in plays[4 * k + 4:])}
    if kind == "lead_out_of_turn":
        return events[:first] + [event_from_dict(trick[1])], {"EU-52"}, Remedy.CLAIM_OPTION
    if kind == "fourth_before_second":
        return events[:first] + [event_from_dict(trick[0]), event_from_dict(trick[3])], {"EU-59"}, \
            Remedy.CLAIM_OPTION
    if kind == "card_shown":
        seat = trick[2]["seat"]
        card = later.get(seat, trick[2]["card"])
        turned = next(event_to_dict(e)["card"] for e in events if e.TYPE == "trump_turned")
        if card == turned:  # the trump card the dealer took up was seen by all: showing it exposes nothing
            return _inject_play("lead_out_of_turn", events, rnd)
        return events[:first] + [E("card_faced", card=card, where="table", by=seat)], {"EU-46"}, \
            Remedy.CLAIM_OPTION
    if kind == "two_at_once":
        seat = trick[0]["seat"]
        if seat not in later:                # the last trick: nothing left to play at once
            return _inject_play("lead_out_of_turn", events, rnd)
        extra = E("card_played", seat=seat, card=later[seat])
        return events[:first] + [event_from_dict(trick[0]), extra], {"EU-46", "EU-47"}, Remedy.CLAIM_OPTION
    if kind == "missed_trick":
        return events[:first] + [E("surplus_card", seat=trick[1]["seat"], cause="play")], {"EU-60"}, \
            Remedy.CLAIM_OPTION
    raise AssertionError(kind)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6),
       kind=st.sampled_from(["lead_out_of_turn", "fourth_before_second", "card_shown", "two_at_once",
                             "missed_trick"]))
def test_one_injected_euchre_play_irregularity_gives_exactly_its_remedy(seed: int, kind: str) -> None:
    """Laws 46-61: a legal hand with one irregularity of play makes exactly the ruling of its law."""
    events, clauses, remedy = _inject_play(kind, euchre_hand_played(seed), random.Random(seed))
    rulings = irregular(LawEngine("euchre").feed_all(events))
    assert len(rulings) == 1 and rulings[0].clause in clauses and rulings[0].remedy is remedy, \
        [r.to_dict() for r in rulings]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), found=st.sampled_from([None, "loose", "other", "trick"]))
def test_a_bridge_deal_one_card_short_asks_for_a_search_then_rules_its_outcome(seed: int, found: str | None) -> None:
    """The digest's Missing Card: whichever card the shoe never dealt, the deal end asks for a search
    (no redeal yet); the outcome reported then gives exactly its remedy."""
    events = bridge_table(seed, 1)
    end = next(k for k, e in enumerate(events) if e.TYPE == "deal_end")
    cards_at = [k for k, e in enumerate(events) if e.TYPE == "card_dealt"]
    k = cards_at[-1]                        # the last card stays in the shoe: only its seat is short
    missing = events[k]
    events = events[:k] + events[k + 1:end + 1]
    eng = LawEngine("contract-bridge")
    rulings = eng.feed_all(events)
    assert [(r.remedy, r.clause) for r in rulings if r.clause.startswith("CB-missing") or r.is_irregularity] \
        == [(Remedy.ATTENTION, "CB-missing-search")]
    seat = missing.seat.value  # type: ignore[attr-defined]
    where = {"other": Seat(seat).left.value}.get(found or "", found)
    want = {None: (Remedy.REDEAL, "CB-missing-not-found"), "loose": (Remedy.DEEMED_TO_BELONG, "CB-missing-found"),
            "other": (Remedy.REDEAL, "CB-missing-other-hand"), "trick": (Remedy.DEFECTIVE_TRICK, "CB-missing-trick")}
    out = eng.feed(E("missing_card", card=missing.card.code, seat=seat, found=where))  # type: ignore[attr-defined]
    assert [(r.remedy, r.clause) for r in out] == [want[found]]
