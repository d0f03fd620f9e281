"""Found by the soak: the dealer who took up the trump card and has played it is not still holding it.
A revoke is certain only if the dealer held two cards of the suit led among the cards he may still hold
(one unknown card was discarded); the turn-up he already played is not among them."""

from __future__ import annotations

from laws.cards import Seat
from laws.engine import LawEngine
from laws.rulings import Remedy
from tests.laws.streams import E, prelude

HANDS = {  # North deals; the turn-up is the eight of hearts, which East orders up
    Seat.N: ["AH", "AS", "KS", "QS", "TS"],
    Seat.E: ["9H", "KH", "AC", "KC", "9D"],
    Seat.S: ["7H", "8S", "9S", "QC", "7C"],
    Seat.W: ["AD", "KD", "QD", "8D", "7D"],
}


def _dealt(hands: dict[Seat, list[str]] = HANDS) -> LawEngine:
    eng = LawEngine("euchre")
    eng.state.next_dealer = Seat.N
    events = prelude(Seat.N) + [E("deal_start", dealer="N", pack="red")]
    order = [Seat.E, Seat.S, Seat.W, Seat.N]
    taken = dict.fromkeys(order, 0)
    for sizes in ((2, 2, 2, 2), (3, 3, 3, 3)):  # a round of twos, then of threes (law 42)
        for seat, n in zip(order, sizes):
            for card in hands[seat][taken[seat]:taken[seat] + n]:
                events.append(E("card_dealt", seat=seat.value, card=card))
            taken[seat] += n
    events += [E("deal_end"), E("trump_turned", card="8H"), E("trump_made", seat="E", suit="H")]
    assert eng.feed_all(events) == []
    return eng


def test_a_dealer_who_played_the_turn_up_and_discarded_his_last_trump_has_not_revoked() -> None:
    eng = _dealt()  # North took up the 8H and discarded the AH (which nobody saw)
    tricks = [("E", "9H"), ("S", "7H"), ("W", "7D"), ("N", "8H"),     # North plays the turn-up
              ("E", "KH"), ("S", "8S"), ("W", "8D"), ("N", "TS"),     # no heart left: a spade is legal
              ("E", "AC"), ("S", "7C"), ("W", "QD"), ("N", "QS")]     # (this trick would establish it)
    for seat, card in tricks:
        assert eng.feed(E("card_played", seat=seat, card=card)) == [], (seat, card)
    assert [r for r in eng.feed(E("play_end")) if r.remedy is Remedy.PENALTY] == []


def test_a_dealer_whose_discard_was_recorded_revokes_holding_the_turn_up_alone() -> None:
    """Audit i2 (an outside scorer's random rubbers): with the discard recorded (law 86) the dealer's hand
    is known, yet a revoke needed two cards of the suit led as if the discard were unseen, so a dealer
    whose only trump was the turn-up discarded a spade on a trump lead unpunished (law 63: three points
    to the other side)."""
    eng = _dealt({**HANDS, Seat.N: ["JC", "AS", "KS", "QS", "TS"]})  # North dealt no heart
    assert eng.feed(E("discard", seat="N", card="JC")) == []  # he keeps the 8H, his only heart
    tricks = [("E", "9H"), ("S", "7H"), ("W", "7D"), ("N", "TS"),     # North holds the 8H: a revoke
              ("E", "KH"), ("S", "8S"), ("W", "8D"), ("N", "8H")]     # North plays to trick 2: established
    for seat, card in tricks:
        eng.feed(E("card_played", seat=seat, card=card))
    penalties = [r for r in eng.feed(E("play_end")) if r.remedy is Remedy.PENALTY]
    assert [(r.clause, r.extra["offending"], r.extra["points"]) for r in penalties] == [("EU-63", "NS", 3)]


def test_a_discard_the_dealer_does_not_hold_leaves_his_discard_unseen() -> None:
    """A discard recorded as the king of diamonds, West's card, was taken as North's: his hand was then
    the five dealt and the 8H, six cards, so his trump lead's ruff was charged as a revoke though he may
    have put his one heart under the pack. Now the discard is said not to be his and taken as not seen."""
    eng = _dealt({**HANDS, Seat.N: ["JC", "AS", "KS", "QS", "TS"]})
    [note] = eng.feed(E("discard", seat="N", card="KD"))
    assert (note.remedy, note.clause, note.seat) == (Remedy.ATTENTION, "EU-86", Seat.N)
    assert note.reason == ("The discard recorded for North, the king of diamonds, is not among his five cards "
                           "and the trump card: the table takes his discard as not seen, and the director "
                           "checks it.")
    for seat, card in [("E", "9H"), ("S", "7H"), ("W", "7D"), ("N", "TS"),
                       ("E", "KH"), ("S", "8S"), ("W", "8D"), ("N", "QS")]:
        eng.feed(E("card_played", seat=seat, card=card))
    assert [r for r in eng.feed(E("play_end")) if r.remedy is Remedy.PENALTY] == []


def test_the_dealer_playing_his_recorded_discard_is_noted() -> None:
    """North's discard was recorded as the ace of spades and he then played it: nothing was said, and his
    hand was still judged without it. The record and the play disagree (law 86: a discard is final)."""
    eng = _dealt()
    assert eng.feed(E("discard", seat="N", card="AS")) == []
    for seat, card in [("E", "9H"), ("S", "7H"), ("W", "7D")]:
        eng.feed(E("card_played", seat=seat, card=card))
    [note] = eng.feed(E("card_played", seat="N", card="AS"))
    assert (note.remedy, note.clause, note.seat) == (Remedy.ATTENTION, "EU-86", Seat.N)
    assert note.reason.startswith("North played the ace of spades, which the table recorded as his discard")
