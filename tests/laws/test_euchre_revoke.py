"""Euchre revokes (laws 62-71), laws 22-23 and 28, with hands chosen so every play is known."""

from __future__ import annotations

from laws.cards import Card, Seat
from laws.engine import LawEngine
from laws.rulings import Remedy
from tests.laws.streams import E, prelude

HANDS = {  # dealt by North in packets 2-2-2-2 then 3-3-3-3
    Seat.E: ["AC", "KC", "9H", "9D", "TD"],
    Seat.S: ["7C", "8S", "9S", "AS", "KS"],
    Seat.W: ["AD", "KD", "QD", "8D", "7D"],
    Seat.N: ["AH", "KH", "QH", "JH", "TH"],
}


def dealt(alone: bool = False, made: bool = True) -> LawEngine:
    eng = LawEngine("euchre")
    eng.state.next_dealer = Seat.N
    events = prelude(Seat.N) + [E("deal_start", dealer="N", pack="red")]
    order = [Seat.E, Seat.S, Seat.W, Seat.N]
    taken = dict.fromkeys(order, 0)
    for sizes in ((2, 2, 2, 2), (3, 3, 3, 3)):
        for seat, n in zip(order, sizes):
            for card in HANDS[seat][taken[seat]:taken[seat] + n]:
                events.append(E("card_dealt", seat=seat.value, card=card))
            taken[seat] += n
    events += [E("deal_end"), E("trump_turned", card="7S")]
    if made:
        events.append(E("trump_made", seat="N", suit="H", alone=alone))
    assert eng.feed_all(events) == []
    return eng


def play(eng: LawEngine, seat: str, card: str) -> list[str]:
    return [f"{r.remedy.value} {r.clause} {r.seat}" for r in eng.feed(E("card_played", seat=seat, card=card))]


def test_EU_62_single_revoke_penalised_three() -> None:
    eng = dealt()
    assert play(eng, "E", "AC") == []
    assert play(eng, "S", "8S") == []          # revokes, holding 7C; not yet established
    assert play(eng, "W", "AD") == [] and play(eng, "N", "AH") == []
    assert play(eng, "N", "KH") == ["attention EU-64 S"]   # the next trick is played to: established
    for seat, card in (("E", "9H"), ("S", "7C"), ("W", "7D")):
        assert play(eng, seat, card) == []
    pen = [r for r in eng.feed(E("play_end")) if r.remedy is Remedy.PENALTY]
    assert len(pen) == 1 and pen[0].extra["points"] == 3 and pen[0].side == Seat.S.side


def test_EU_62_no_revoke_is_ruled_before_trump_is_known_to_be_made() -> None:
    """The same plays with no ``trump_made``: the turn-up (a spade) may have been turned down and hearts
    named, so South's spade on a club lead cannot be judged; nothing is ruled or scored."""
    eng = dealt(made=False)
    for seat, card in (("E", "AC"), ("S", "8S"), ("W", "AD"), ("N", "AH"), ("N", "KH"), ("E", "9H"),
                       ("S", "7C"), ("W", "7D")):
        assert play(eng, seat, card) == []
    assert [r for r in eng.feed(E("play_end")) if r.is_irregularity] == []


def test_EU_62_a_result_without_play_end_still_settles_the_revoke() -> None:
    """At a real table the result may be the first word that play is over: it ends play first."""
    eng = dealt()
    for seat, card in (("E", "AC"), ("S", "8S"), ("W", "AD"), ("N", "AH"), ("N", "KH")):
        play(eng, seat, card)
    rulings = eng.feed(E("result", makers="NS", tricks=3))
    pen = [r for r in rulings if r.remedy is Remedy.PENALTY]
    assert len(pen) == 1 and pen[0].extra["points"] == 3 and pen[0].side == Seat.S.side
    assert rulings.index(pen[0]) < next(i for i, r in enumerate(rulings) if r.remedy is Remedy.SCORE)


def test_EU_71_equal_revokes_cancel() -> None:
    eng = dealt()
    for seat, card in (("E", "AC"), ("S", "8S"), ("W", "AD"), ("N", "AH")):
        play(eng, seat, card)
    assert play(eng, "N", "KH") == ["attention EU-64 S"]
    assert play(eng, "E", "9D") == []          # East revokes, holding 9H
    play(eng, "S", "7C")
    play(eng, "W", "7D")
    assert play(eng, "N", "QH") == ["attention EU-64 E"]
    rulings = eng.feed(E("play_end"))
    assert [r.remedy for r in rulings] == [Remedy.ATTENTION]
    assert rulings[0].extra["cancelled"] == 1


def test_EU_62_revoke_against_lone_hand_costs_five() -> None:
    eng = dealt(alone=True)
    for seat, card in (("E", "AC"), ("W", "AD"), ("N", "AH"), ("N", "KH"), ("E", "9D"), ("W", "7D")):
        assert play(eng, seat, card) == []
    assert play(eng, "N", "QH") == ["attention EU-64 E"]
    pen = [r for r in eng.feed(E("play_end")) if r.remedy is Remedy.PENALTY]
    assert len(pen) == 1 and pen[0].extra["points"] == 5 and pen[0].side == Seat.E.side


def test_EU_62_following_suit_or_void_is_no_revoke() -> None:
    eng = dealt()
    for seat, card in (("E", "AC"), ("S", "7C"), ("W", "AD"), ("N", "AH"), ("N", "KH"), ("E", "9H")):
        assert play(eng, seat, card) == []
    assert [r for r in eng.feed(E("play_end")) if r.is_irregularity] == []


def test_EU_62_left_bower_counts_as_trump() -> None:
    from laws.games.euchre_hands import effective_suit
    assert effective_suit(Card.parse("JD"), "H") == "H"
    assert effective_suit(Card.parse("JD"), "S") == "D"


def test_EU_trick_power_order() -> None:
    """The order the engine ranks cards in a trick (the legal-play stream builders use it too, so it is
    pinned here on its own): right bower, left bower, then trumps ace down, then the suit led, others 0."""
    from laws.games.euchre_hands import power
    trump, led = "H", "C"
    ranked = ["JH", "JD", "AH", "KH", "QH", "TH", "9H", "8H", "7H", "AC", "KC", "QC", "JC", "TC", "9C"]
    powers = [power(Card.parse(c), trump, led) for c in ranked]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
    assert power(Card.parse("9C"), trump, led) > 0
    assert [power(Card.parse(c), trump, led) for c in ("AS", "JS", "AD", "7D")] == [0, 0, 0, 0]


def test_EU_28_deal_passes_to_the_left() -> None:
    eng = dealt()
    assert eng.state.next_dealer == Seat.E
    eng.feed_all([E("card_played", seat=s, card=c) for s, c in (("E", "AC"), ("S", "7C"), ("W", "AD"),
                                                                  ("N", "AH"))])
    eng.feed_all([E("play_end"), E("result", makers="NS", alone=False, tricks=3)])
    rulings = eng.feed_all(prelude(Seat.E) + [E("deal_start", dealer="S", pack="red")])
    assert [r.clause for r in rulings if r.remedy is Remedy.CLAIM_OPTION] == ["EU-40"]
