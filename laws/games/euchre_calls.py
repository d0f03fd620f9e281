"""Euchre: the demands of the laws of play (Somerset Club, 1888) — naming a card held apart (law 51),
the card placed before its player (law 84), and a call made under an open claim (laws 47, 52, 56, 59):
put in force, and kept until it is met (law 56). The claims they answer are opened by ``euchre_tricks``.
"""

from __future__ import annotations

from dataclasses import replace

from laws.cards import SUIT_NAMES, Seat
from laws.events import DemandMade
from laws.games.base import Clause, Registry, seat_name, side_text, the_card
from laws.games.euchre_bidding import LAW_89, early_lead
from laws.games.euchre_hands import active, current, held, sits_out, tricks
from laws.games.euchre_tricks import adversaries_claim, judged
from laws.rulings import Remedy, Ruling
from laws.state import Call, Claim, TableState

CALLS = ("call_card", "call_suit", "win_trick", "lose_trick", "call_highest", "call_lowest")
_KIND = {"win_trick": "win", "lose_trick": "lose", "call_highest": "highest", "call_lowest": "lowest"}


def register(reg: Registry) -> None:
    """Laws 51, 84 and 56 (the calls), tried in this order for a demand."""

    @reg.clause("EU-51", "law 51", "demand")
    def detached_card(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
        """An adversary names a card held apart: called if an adversary of his holds it (the shoe knows
        who); a wrong naming makes his side liable to a suit call. Like a ``call_suit`` without its suit, a
        naming without its card is answered (the player is asked for it), never passed over in silence."""
        if e.what != "name_card":
            return None
        d = judged(s)
        if d is None:
            return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} named a card held apart, but no hand is "
                          "in play (from the making of trump until play ends): nothing is called.", seat=e.seat)
        if d.alone_seat is not None and e.seat == sits_out(d):   # no part in the hand (EU-lone-partner)
            return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} sits out for {seat_name(s, d.alone_seat)}'s "
                          "lone hand and takes no part in it; naming a card held apart is the lone player's.",
                          seat=e.seat)
        if e.card is None:
            return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} must name the card he says is held apart; "
                          "nothing is called until he does.", seat=e.seat)
        holder = next((st for st in active(d) if st.side is not e.seat.side and e.card in held(d, st)[0]), None)
        if holder is None:
            return adversaries_claim(c, f"{seat_name(s, e.seat)} named the {e.card.name} as a card held apart, but no "
                          f"adversary holds it: {side_text(e.seat.side.other)} may call a suit when he or his "
                          "partner next leads.", e.seat, ("call_suit",))
        d.exposed[holder].append(e.card)
        d.calls.append(Call(holder, "card", c.law, c.id, card=e.card))
        return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} named the {e.card.name} held apart by "
                      f"{seat_name(s, holder)}: it is called, and he must play it at his first lawful "
                      "chance.", seat=holder, extra={"call": "card", "card": e.card})

    @reg.clause("EU-84", "law 84", "demand")
    def place_cards(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
        """A player may demand that each card of the trick be placed before the one who played it. The right
        is of those who play to the trick: in a lone hand the partner who sits out plays to none, so his
        demand is refused (docs/laws.md, ``EU-84`` and ``EU-lone-partner``)."""
        d = judged(s)
        if d is None or e.what != "place_cards":
            return None
        if d.alone_seat is not None and e.seat == sits_out(d):   # no part in the hand (EU-lone-partner)
            return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} sits out for {seat_name(s, d.alone_seat)}'s "
                          "lone hand and plays to no trick; asking that the cards be placed is for the players "
                          "of the trick.", seat=e.seat)
        t = current(d)
        cards = t.cards or (tricks(d, d.plays)[-1] if d.plays else [])
        if not cards:
            return None
        who = ", ".join(f"{the_card(x)} by {seat_name(s, st)}" for st, x in cards)
        return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} asks that each card be placed before its "
                      f"player: {who}.", seat=e.seat, extra={"placed": [[st.value, x.code] for st, x in cards]})

    @reg.clause("EU-56", "laws 47, 52, 56, 59 (calls)", "demand")
    def call(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
        """A call made under an open claim: it is put in force (and stays so until met, law 56)."""
        d = s.deal
        if e.what not in CALLS or d is None:
            return None
        if e.seat == sits_out(d) and d.alone_seat is not None:   # no part in the hand (EU-lone-partner)
            return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} sits out for {seat_name(s, d.alone_seat)}'s "
                          "lone hand and takes no part in it; a call his side may make is the lone player's.",
                          seat=e.seat)
        open_ = [cl for cl in s.claims if cl.grants == "call" and e.what in cl.options and
                 (cl.side is None or cl.side is e.seat.side) and
                 (e.what != "call_card" or e.card is None or cl.card is None or cl.card == e.card or
                  cl.offender is not None and e.card in d.exposed[cl.offender])]
        if not open_ and e.what in LAW_89:  # law 89: in time from the early lead, before any discard
            right = early_lead(s)
            if right is not None and e.seat == d.alone_seat:   # "the lone player may require"
                open_ = [right]
        if not open_:
            return _too_late(s, e) or c.rule(Remedy.DEAL_STANDS, _refused(s, e), seat=e.seat)
        cl = open_[0]
        offender = cl.offender or e.seat.left
        return _grant(s, e, cl, offender)


def _too_late(s: TableState, e: DemandMade) -> Ruling | None:
    """A call the law 52 claim would have taken, made by the adversaries of a lead out of turn after
    everyone played to it: law 53 let the trick stand, so the call is refused as too late, under law 53.
    Told as "no irregularity open", the player heard that nothing had happened. Where a call claim that
    offers this demand is open, ``_refused`` says whose it is instead."""
    d = s.deal
    if d is None or d.stood_lead is None or e.what not in ("call_card", "call_suit") or \
            any(cl.grants == "call" and e.what in cl.options for cl in s.claims):
        return None
    trick, leader = d.stood_lead
    if leader.side is e.seat.side:
        return None
    return Ruling(Remedy.DEAL_STANDS, "Euchre, law 53", "EU-53", f"{seat_name(s, e.seat)} made a call, but "
                  f"everyone had played to {seat_name(s, leader)}'s lead out of turn in trick {trick}, so that "
                  "trick stands as played and a call for it comes too late; play goes on.", seat=e.seat)


def _refused(s: TableState, e: DemandMade) -> str:
    """Why a call is refused, in one sentence: the right open is the other side's (the laws give a call
    to the adversaries of the offender), or his side's right calls another card, or no right is open."""
    who = seat_name(s, e.seat)
    calls = [cl for cl in s.claims if cl.grants == "call" and e.what in cl.options]
    theirs = next((cl for cl in calls if cl.side is e.seat.side.other), None)
    if theirs is not None:
        return (f"{who} made a call, but the call open now is {side_text(e.seat.side.other)}'s "
                f"({theirs.why.rstrip('.')}); play goes on.")
    ours = next((cl for cl in calls if cl.card is not None), None)
    if ours is not None and ours.card is not None and e.card is not None:
        return (f"{who} called the {e.card.name}, but the card his side may call is the {ours.card.name} "
                f"({ours.why.rstrip('.')}); play goes on.")
    return f"{who} made a call no irregularity open to his side allows; play goes on."


def _grant(s: TableState, e: DemandMade, cl: Claim, offender: Seat) -> Ruling:
    d = s.deal
    assert d is not None
    who = seat_name(s, e.seat)
    if e.what == "call_card" and e.card is None and cl.card is None:
        return Ruling(Remedy.ATTENTION, cl.law, cl.clause, f"{who} must name the card he calls.", seat=e.seat)
    if e.what == "call_suit" and e.suit is None:
        return Ruling(Remedy.ATTENTION, cl.law, cl.clause, f"{who} must name the suit he calls.", seat=e.seat)
    if cl.clause == "EU-52":
        t = current(d)
        if t.number == cl.trick and t.cards and t.cards[0][0] == offender:  # law 53: cards go back
            n = len(t.cards)
            for seat, _ in d.plays[-n:]:
                d.played[seat] -= 1
            del d.plays[-n:]
        s.claims = [x for x in s.claims if x is not cl]
    if e.what == "call_card":
        card = e.card or cl.card
        assert card is not None
        if card not in d.exposed[offender]:
            d.exposed[offender].append(card)
        d.calls.append(Call(offender, "card", cl.law, cl.clause, card=card))
        return Ruling(Remedy.ATTENTION, cl.law, cl.clause, f"{who} calls the {card.name}: "
                      f"{seat_name(s, offender)} must play it at his first lawful chance; the call stays in "
                      "force until he does (law 56).", seat=offender, extra={"call": "card", "card": card})
    if e.what == "call_suit":
        assert e.suit is not None
        d.calls.append(Call(offender, "suit", cl.law, cl.clause, suit=e.suit))
        return Ruling(Remedy.ATTENTION, cl.law, cl.clause, f"{who} calls {SUIT_NAMES[e.suit]}: the next time "
                      f"{seat_name(s, offender)} or his partner is to lead, he leads {SUIT_NAMES[e.suit]} if he "
                      "holds any.", seat=offender, extra={"call": "suit", "suit": e.suit})
    target = offender.partner if cl.clause == "EU-47" else offender  # 59: the claim names the partner
    kind = _KIND[e.what]
    rest = tuple(o for o in cl.options if o not in _KIND)
    s.claims = [x if x is not cl else replace(cl, options=rest) for x in s.claims if x is not cl or rest]
    d.calls.append(Call(target, kind, cl.law, cl.clause, trick=cl.trick))
    what = f"to {kind} trick {cl.trick} if he can" if kind in ("win", "lose") else \
        f"to play his {kind} card of the suit led to trick {cl.trick}"
    return Ruling(Remedy.ATTENTION, cl.law, cl.clause, f"{who} requires {seat_name(s, target)} {what}.",
                  seat=target, extra={"call": kind, "trick": cl.trick})


