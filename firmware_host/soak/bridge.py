"""The soak's bridge hands: a real auction and legal play, entered as the director would, with the auction
and play irregularities of the schedule made on purpose and the entries that settle each; and the soak's
own account of the hand (the contract, each trick's winner, BP-64's transfer, honours, the result),
worked out from the entries it made, never from the table.

The calls and cards come from the simulated players (``firmware_host.players``: bids by points, plays
legal cards through the ``laws.bridge`` models, which only say what is legal). ``bridge_hand`` injects one
mistake (``schedule.PLAY_KINDS``) where the deal gives the chance, and returns the entries, the facts the
rulings must name (``schedule.EXPECTED``, from docs/laws.md's ``BP-`` rows) and the result:

* ``insufficient_bid``: the first player to call over a bid bids one club (never sufficient); his
  left-hand opponent accepts it (``accept``; BP-27), and the auction goes on from it.
* ``insufficient_replaced``: the same bid, replaced by the offender with the lowest sufficient bid in
  notrump, which is not the lowest sufficient bid in its strain: the director bars his partner for the
  rest of the auction (``bar``; BP-27).
* ``call_out_of_turn``: the dealer's left-hand opponent passes before the dealer; the dealer calls, which
  cancels it, and the offender must pass at his next turn (BP-28-32, law 30A).
* ``lead_out_of_turn``: the opening leader's partner leads; the card is taken back (``withdraw``) and
  becomes a penalty card (BP-53-56); the right leader leads.
* ``revoke_corrected``: a defender able to follow discards; he corrects it at once with the card he
  would have played (``correct``; BP-61, BP-62: a penalty card).
* ``revoke_established``: a defender able to follow discards in trick 2 to 10 and play goes on, so his
  side plays to a later trick (BP-61, BP-63); at the end the tricks BP-64 transfers (worked out here) move.
  With none to move it is recorded as ``revoke_no_transfer`` (BP-64's ruling is then an attention).
* ``disputed_claim``: declarer claims one trick more than the players would take, at the start of a trick
  from the third to the eleventh; his left-hand opponent disputes it and the director rules the tricks the
  play would have given (``claim``, ``claim_reply``, ``claim_ruled``; BP-68-71).

A mistake the deal gives no chance for (a passed-out deal has no lead) is not made (``Hand.applied`` is
None). The soak's own rules here: a trick goes to the highest trump, else the highest card of the suit
led; declarer is the first of the side to name the final strain; honours are four or five of the trump
ace to ten in one hand (100, 150) or the four aces in one hand at notrump (150).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from firmware_host.players import choose_call, choose_card
from laws.bridge.auction import Auction
from laws.bridge.calls import PASS, Call, bid, lowest_sufficient
from laws.bridge.play import Play
from laws.cards import Card, Seat
from laws.scoring.bridge import parse_contract

ORDER = "AKQJT98765432"
HONOURS = "AKQJT"


@dataclass
class Hand:
    """One bridge hand as the soak enters it.

    Attributes:
        events: the entries, in order (calls, cards, and the entries that settle a mistake).
        answers: entries the dashboard may send instead (``command/<kind>``): index into ``events``, the
            command's kind and its fields.
        applied: the mistake made (its ``schedule.EXPECTED`` kind), or None.
        facts: the seats and figures its rulings name, and the contract and declarer (``Pass``: passed out).
        result: the hand's result as the soak works it out (a ``result`` event's fields; not entered: the
            table scores the cards), None when passed out.
    """

    events: list[dict[str, Any]] = field(default_factory=list)
    answers: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    applied: str | None = None
    facts: dict[str, str] = field(default_factory=dict)
    result: dict[str, Any] | None = None

    def call(self, seat: Seat, call: Call) -> None:
        self.events.append({"type": "call", "seat": seat.value, "call": call.code})

    def card(self, seat: Seat, card: Card) -> None:
        self.events.append({"type": "card_played", "seat": seat.value, "card": card.code})

    def answer(self, event: dict[str, Any], kind: str, fields: dict[str, Any]) -> None:
        self.answers.append((len(self.events), kind, fields))
        self.events.append(event)


# -- the soak's own account ---------------------------------------------------------------------------

def trick_winner(cards: list[tuple[str, str]], trump: str | None) -> str:
    """The seat that wins a trick, ``cards`` (seat, card code) in the order played: the highest trump,
    else the highest card of the suit led."""
    led = cards[0][1][1]

    def power(code: str) -> int:
        rank = len(ORDER) - ORDER.index(code[0])
        return 200 + rank if code[1] == trump else 100 + rank if code[1] == led else 0

    return max(cards, key=lambda sc: power(sc[1]))[0]


def tricks_of(plays: list[tuple[str, str]], leader: str, trump: str | None) -> list[tuple[list[tuple[str, str]], str]]:
    """The completed tricks of the cards played, in order, each with its winner (who leads the next)."""
    out: list[tuple[list[tuple[str, str]], str]] = []
    for i in range(0, len(plays) - len(plays) % 4, 4):
        trick = plays[i:i + 4]
        if trick[0][0] != leader:
            raise ValueError(f"trick {len(out) + 1} led by {trick[0][0]}, not {leader}")
        leader = trick_winner(trick, trump)
        out.append((trick, leader))
    return out


def side(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def transfer(tricks: list[tuple[list[tuple[str, str]], str]], revoke_trick: int, offender: str) -> int:
    """BP-64: the tricks an established revoke moves. The offender won the revoke trick: that trick, and one
    more if his side won a later one; he did not: one trick if his side won that trick or a later one."""
    won = [side(w) == side(offender) for _, w in tricks]
    later = any(won[revoke_trick:])
    if tricks[revoke_trick - 1][1] == offender:
        return 1 + (1 if later else 0)
    return 1 if won[revoke_trick - 1] or later else 0


def honours(hands: dict[Seat, list[Card]], strain: str) -> tuple[str, int] | None:
    """Rubber bridge honours one hand holds, as (side, points), or None."""
    best: tuple[str, int] | None = None
    for seat, cards in hands.items():
        if strain == "NT":
            pts = 150 if sum(1 for c in cards if c.rank == "A") == 4 else 0
        else:
            pts = {4: 100, 5: 150}.get(sum(1 for c in cards if c.suit == strain and c.rank in HONOURS), 0)
        if pts and (best is None or pts > best[1]):
            best = (side(seat.value), pts)
    return best


def contract_of(calls: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The contract (event notation) and declarer of the calls that stood, or None: passed out."""
    last = max((i for i, (_, c) in enumerate(calls) if c[0].isdigit()), default=None)
    if last is None:
        return None
    seat, code = calls[last]
    strain = code[1:]
    doubled = [c for _, c in calls[last + 1:] if c in ("double", "redouble")]
    declarer = next(s for s, c in calls if side(s) == side(seat) and c[0].isdigit() and c[1:] == strain)
    return code + {None: "", "double": "X", "redouble": "XX"}[doubled[-1] if doubled else None], declarer


# -- making the hand ----------------------------------------------------------------------------------

def bridge_hand(dealer: Seat, hands: dict[Seat, list[Card]], mistake: str | None, rng: random.Random) -> Hand:
    """The entries of one bridge hand after the deal, with ``mistake`` made where the deal allows."""
    h = Hand()
    standing = _auction(h, dealer, hands, mistake)
    found = contract_of(standing)
    if found is None:
        h.facts.update(contract="Pass", declarer="")
        return h
    contract, declarer = found
    h.facts.update(contract=contract, declarer=declarer)
    _play(h, parse_contract(contract), Seat(declarer), hands, mistake, rng)
    return h


def _auction(h: Hand, dealer: Seat, hands: dict[Seat, list[Card]], mistake: str | None) -> list[tuple[str, str]]:
    a = Auction(dealer)
    standing: list[tuple[str, str]] = []

    def stand(seat: Seat, call: Call) -> None:
        a.add(seat, call)
        h.call(seat, call)
        standing.append((seat.value, call.code))

    if mistake == "call_out_of_turn":  # the dealer's left passes before the dealer: cancelled, barred once
        offender = dealer.left
        h.call(offender, PASS)
        a.bar(offender, 1)
        h.applied = mistake
        h.facts.update(at=offender.value, acceptor=offender.left.value)
    while a.turn is not None:
        seat = a.turn
        instead = lowest_sufficient("NT", a.last_bid.call) if a.last_bid is not None else None
        if (mistake == "insufficient_bid" and a.last_bid is not None or
                mistake == "insufficient_replaced" and instead is not None) and h.applied is None:
            offender, low = seat, bid(1, "C")  # never sufficient over a bid
            h.call(offender, low)
            h.applied = mistake
            h.facts.update(at=offender.value, acceptor=offender.left.value, barred=offender.partner.value)
            if mistake == "insufficient_bid":
                h.answer({"type": "accept", "seat": offender.left.value}, "accept", {"seat": offender.left.value})
                a.accept(offender, low)
                standing.append((offender.value, low.code))
                continue
            assert instead is not None  # the lowest sufficient bid in notrump, not in clubs: the director judges
            stand(offender, instead)
            bar = {"type": "bar", "seat": offender.partner.value, "rounds": "rest"}
            h.answer(bar, "bar", {"seat": offender.partner.value, "rounds": "rest"})
            a.bar(offender.partner, "rest")
            continue
        stand(seat, PASS if seat in a.bars else choose_call(a, seat, hands))
    return standing


def _play(h: Hand, contract: Any, declarer: Seat, hands: dict[Seat, list[Card]], mistake: str | None,
          rng: random.Random) -> None:
    play = Play(contract, declarer, {s: list(c) for s, c in hands.items()})
    plays: list[tuple[str, str]] = []
    trump = play.trump
    defenders = (declarer.left, declarer.right)
    revoke: tuple[int, str] | None = None
    ruled: int | None = None
    if mistake == "lead_out_of_turn":  # the opening leader's partner leads; taken back: a penalty card
        offender = declarer.right
        card = max(hands[offender], key=lambda c: (sum(1 for x in hands[offender] if x.suit == c.suit),
                                                   -ORDER.index(c.rank)))
        h.card(offender, card)
        h.answer({"type": "withdraw", "seat": offender.value, "card": card.code}, "withdraw", {"seat": offender.value})
        h.applied = mistake
        h.facts.update(at=offender.value, acceptor=declarer.value)
    claim_at = rng.randint(3, 11) if mistake == "disputed_claim" else 0
    revoke_from = rng.randint(2, 6) if mistake in ("revoke_corrected", "revoke_established") else 0
    while play.turn is not None:
        seat = play.turn
        number = play.trick_number
        if number == claim_at and not play.current.cards and h.applied is None:
            ruled = _claim(h, play, declarer, plays)
            break
        card = choose_card(play, seat)
        if revoke_from and h.applied is None and number >= revoke_from and number <= 10 and seat in defenders:
            off = _off_suit(play, seat)
            if off is not None:
                h.card(seat, off)
                play.play(seat, off)
                if mistake == "revoke_corrected":
                    h.answer({"type": "correct", "seat": seat.value, "card": card.code}, "correct_revoke",
                             {"seat": seat.value, "card": card.code})
                    play.correct(seat, card)
                    plays.append((seat.value, card.code))
                else:
                    plays.append((seat.value, off.code))
                    revoke = (number, seat.value)
                h.applied = mistake
                h.facts.update(at=seat.value)
                continue
        h.card(seat, card)
        play.play(seat, card)
        plays.append((seat.value, card.code))
    tricks = tricks_of(plays, declarer.left.value, trump)
    ours = side(declarer.value)
    won = sum(1 for _, w in tricks if side(w) == ours)
    if ruled is not None:
        won += ruled
    if revoke is not None:
        moved = transfer(tricks, *revoke)
        offender = revoke[1]
        if moved:
            won += moved if side(offender) != ours else -moved
            h.facts.update(transfer=str(moved), receives="EW" if side(offender) == "NS" else "NS")
        else:
            h.applied = "revoke_no_transfer"
    found = honours(hands, contract.strain)
    if found is not None:
        h.facts["honours"] = f"{found[0]}:{found[1]}"
    h.result = {"type": "result", "declarer": declarer.value, "contract": contract.code, "tricks": won}


def _off_suit(play: Play, seat: Seat) -> Card | None:
    """A card of another suit than the one led, when ``seat`` holds the suit led and another (a revoke)."""
    led = play.current.suit_led
    held = play.holds(seat) or []
    if led is None or not any(c.suit == led for c in held):
        return None
    others = [c for c in held if c.suit != led]
    return min(others, key=lambda c: -ORDER.index(c.rank)) if others else None


def _claim(h: Hand, play: Play, declarer: Seat, plays: list[tuple[str, str]]) -> int:
    """Declarer claims one trick more than the play would give him; disputed; the director rules that."""
    rest = copy.deepcopy(play)
    more: list[tuple[str, str]] = []
    while rest.turn is not None:
        seat = rest.turn
        card = choose_card(rest, seat)
        rest.play(seat, card)
        more.append((seat.value, card.code))
    leader = play.current.leader.value
    would = sum(1 for _, w in tricks_of(more, leader, play.trump) if side(w) == side(declarer.value))
    left = play.tricks_left
    claimed = min(left, would + 1)
    h.answer({"type": "claim", "seat": declarer.value, "tricks": claimed}, "claim",
             {"seat": declarer.value, "tricks": claimed})
    h.answer({"type": "claim_reply", "seat": declarer.left.value, "agree": False}, "claim_reply",
             {"seat": declarer.left.value, "agree": False})
    h.answer({"type": "claim_ruled", "tricks": would}, "claim_ruled", {"tricks": would})
    h.applied = "disputed_claim"
    h.facts.update(at=declarer.value, answers="EW" if side(declarer.value) == "NS" else "NS")
    return would

