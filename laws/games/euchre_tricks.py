"""Euchre laws of play 46-61 (Somerset Club, 1888): exposed cards, play out of turn, calls.

What the engine sees: each ``card_played`` (the camera), the hands (the shoe), ``card_faced`` for a card
or a whole hand shown on the table, ``surplus_card`` for a trick found short or overfull, and the
players' demands (a button, or the director): ``call_card``, ``call_suit``, ``win_trick``,
``lose_trick``, ``new_deal``. Who plays next is derived: the eldest hand leads the first trick (the next
player when the eldest sits out for a lone hand), the winner of each trick leads the next. Nothing here is
judged before ``trump_made`` is recorded, as for revokes.

Our reading, where the laws leave room:

* Two cards by one player in one unfinished trick: if his first card is winning the trick, his partner
  has still to play, and the second card is a winning card (no adversary, by the known hands, could beat
  it if it were led), he is playing ahead of his partner (law 47): the adversaries may require the
  partner to win the trick if able, and the card played ahead is exposed. Otherwise the second card is an
  exposed card (law 46). Either way it is not played to the trick.
* An exposed card (46, 48) stays callable until it is played; a call (52, 56) binds the offender to play
  it at his first lawful chance: when he leads, or when it is of the suit led, or when he cannot follow.
  A call never makes him revoke (55) and stays in force until the card is played (56).
* A lead out of turn (52) opens a claim for the adversaries: call the card (taken back and exposed), or
  call a suit for the next lead of the offender's side. Taken while the trick is unfinished, the false
  lead and the cards played to it go back to the hands (53); once all three others have played to it,
  the trick stands and the claim lapses (53), and a call the adversaries make for it later is refused
  as too late under law 53.
* A player who fails a call (54) is charged a revoke, scored with the revokes when play ends (law 4) and
  offset like them (71); a suit call on a player void in the suit is satisfied (57). Where the dealer's
  unseen discard leaves it uncertain whether he could comply, nothing is charged.
* Law 58: the third hand playing before the second frees the fourth to do the same. That right is
  the fourth hand's leave to play out of his turn, taken by playing: no ``demand`` takes it and nothing
  lapses if he waits, so it is told as an ``attention`` ruling (``target`` the fourth hand), not offered
  as a ``claim_option`` (which waits for a demand and lapses). Law 59: the fourth
  hand playing before his partner (the second), the third not having played, lets the adversaries
  require the partner to win or to lose the trick, until he plays. Failing that demand is charged as
  failing a call (our reading of 54).
* Law 60 (a trick missed, reported as ``surplus_card`` with cause ``play``): the adversaries may claim a
  new deal until the result; in a lone hand, an adversary of the lone player missing a trick is law 50.
  Law 61 (a card too many in a trick, cause ``trick``): the card goes back to its player, who answers
  for the revokes meanwhile; the engine says so and scores revokes as it sees them.
* Law 69: a revoke corrected before the trick is complete; the card played in error may be called (a
  claim). Once that card is played, called or not, the claim is spent and goes without a word (as a
  law 46 claim does when its exposed card is played): nothing lapses at the end of play. Each player who followed the revoke, the revoker's partner excepted, may take back his card
  while the trick is unfinished: his next card to that trick replaces it (once), and the card taken back
  is not exposed.
* Law 48: a hand laid face up (``card_faced`` with ``where`` ``hand``) exposes its cards; an adversary of
  a lone player doing so is law 50 (the lone side scores 5); all hands laid down is law 49.
* A lone hand (``EU-lone-partner``): the lone player's partner sits out. A card he plays is set aside
  before any law of play sees it (so the trick stays three cards and nobody after him is out of turn),
  and a card or hand he shows is not exposed: laws 1-90 give no penalty for either, the table notes it.
* Who touched what, and speech, no sensor sees: the engine acts on the demands the players enter.
"""

from __future__ import annotations

from dataclasses import replace

from laws.cards import Card, Seat
from laws.events import CardFaced, CardPlayed, SurplusCardFound
from laws.games.base import Clause, Registry, seat_name, side_players, side_text, the_card
from laws.games.euchre_hands import (
    Trick,
    active,
    beats,
    could,
    current,
    effective_suit,
    held,
    lawful,
    power,
    rotation,
    sits_out,
    sure_winner,
)
from laws.games.euchre_play import settle
from laws.rulings import Remedy, Ruling
from laws.state import Call, Claim, DealState, Phase, TableState

_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def judged(s: TableState) -> DealState | None:
    d = s.deal
    if d is None or d.void or d.makers is None or s.phase not in (Phase.AUCTION, Phase.PLAY):
        return None
    return d


def _live_deal(s: TableState) -> DealState | None:
    """The deal, once dealt and until play ends (an exposure needs no trump to be known)."""
    d = s.deal
    if d is None or d.void or s.phase not in (Phase.AUCTION, Phase.PLAY):
        return None
    return d


def adversaries_claim(c: Clause, reason: str, side_of: Seat, options: tuple[str, ...], **extra: object) -> Ruling:
    """A claim for ``side_of``'s adversaries, open until play ends (or until a clause closes it)."""
    return c.rule(Remedy.CLAIM_OPTION, reason, side=side_of.side.other, seat=side_of,
                  extra={"until": "play_end", "grants": "call", "options": list(options),
                         "offender": side_of, "lapse": "The hand was played out; a call still open "
                         "lapses with it.", **extra})


def spent(claims: list[Claim], seat: Seat, card: Card) -> list[Claim]:
    """The claims left once ``seat`` has played ``card``, an exposed card: a call on that card (laws 46,
    47, 69) can no longer be made, called or not, so that option goes (silently: nothing lapses, the card
    was played); a claim left with no option goes with it."""
    out: list[Claim] = []
    for cl in claims:
        if cl.grants == "call" and cl.card == card and cl.offender == seat and "call_card" in cl.options:
            rest = tuple(o for o in cl.options if o != "call_card")
            if not rest:
                continue
            cl = replace(cl, options=rest)
        out.append(cl)
    return out


def _failed(s: TableState, seat: Seat, what: str) -> Ruling:
    d = s.deal
    assert d is not None
    d.call_failures.append(seat)
    return Ruling(Remedy.ATTENTION, "Euchre, law 54", "EU-54", f"{seat_name(s, seat)} {what}; failing a "
                  "call costs the revoke penalty, scored when play ends.", seat=seat)


def register(reg: Registry) -> None:
    """Laws 46-61 (and 69), in the order they must be tried for one card played; the players' demands
    of these laws (51, 56, 84) are ``euchre_calls``."""

    @reg.clause("EU-lone-partner", "laws 3 and 74-76 (a lone hand)", "card_played", "card_faced")
    def partner_sits_out(c: Clause, s: TableState, e: CardPlayed | CardFaced) -> Ruling | None:
        """The lone player's partner has no part in the hand: a card he plays is in no trick (it is set
        aside, so the trick stays three cards and nobody after him is out of turn), and a card or hand
        he shows is no exposed card. Tried before the laws of play, which would otherwise charge him a
        lead out of turn, or an innocent adversary for the card he displaced."""
        d = _live_deal(s)
        out = sits_out(d) if d is not None else None
        if d is None or out is None or d.alone_seat is None:
            return None
        lone = f"{seat_name(s, out)} sits out for {seat_name(s, d.alone_seat)}'s lone hand"
        if isinstance(e, CardPlayed):
            if e.seat != out:
                return None
            d.set_aside = True
            return c.rule(Remedy.ATTENTION, f"{lone}: {the_card(e.card, capital=False)} he put down is played "
                          "to no trick, is no lead and no exposed card, and costs nobody a penalty; the "
                          "director decides whether it told the lone player anything.", seat=out,
                          extra={"card": e.card})
        if e.where == "hand":
            owner = e.by
        elif e.where == "table" and e.card is not None:
            owner = e.by or next((st for st in Seat if e.card in held(d, st)[0]), None)
        else:
            return None
        if owner != out:
            return None
        what = "laid his hand face up" if e.where == "hand" else f"showed {the_card(e.card, capital=False)}"
        return c.rule(Remedy.ATTENTION, f"{lone} and {what}: he plays no card, so nothing he shows is an "
                      "exposed card or may be called; the director decides whether it told the lone player "
                      "anything.", seat=out)

    @reg.clause("EU-69", "law 69", "card_played")
    def revoke_corrected(c: Clause, s: TableState, e: CardPlayed) -> Ruling | None:
        """A revoke corrected in time: the card that follows suit replaces it; the card played in error
        may be called."""
        d = judged(s)
        if d is None:
            return None
        t = current(d)
        mine = [i for i, (seat, _) in enumerate(t.cards) if seat == e.seat]
        if not mine or not t.cards or mine[0] == 0:
            return None
        index = len(d.plays) - len(t.cards) + mine[0]
        if e.seat in d.may_withdraw and d.withdraw_trick == t.number:
            # a player who followed the revoke takes back his card (his right, once): not a second card
            taken = t.cards[mine[0]][1]
            d.may_withdraw.remove(e.seat)
            d.plays[index] = (e.seat, e.card)
            d.set_aside = True
            return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} took back {the_card(taken, capital=False)}"
                          f" after the revoke in trick {t.number} was corrected, and played "
                          f"{the_card(e.card, capital=False)}; a card taken back cannot be called.", seat=e.seat)
        trump = d.trump_suit or "S"
        led = effective_suit(t.cards[0][1], trump)
        wrong = t.cards[mine[0]][1]
        if effective_suit(wrong, trump) == led or effective_suit(e.card, trump) != led:
            return None
        d.plays[index] = (e.seat, e.card)
        d.set_aside = True
        d.exposed[e.seat].append(wrong)
        d.may_withdraw = [st for st, _ in t.cards[mine[0] + 1:] if st != e.seat.partner]
        d.withdraw_trick = t.number
        return adversaries_claim(c, f"{seat_name(s, e.seat)} corrected his revoke in trick {t.number} with "
                      f"{the_card(e.card, capital=False)}: {side_text(e.seat.side.other)} may call the "
                      f"{wrong.name} played in error; the players after him, his partner excepted, may take "
                      "back their cards and play others.", e.seat, ("call_card",), card=wrong, trick=t.number)

    @reg.clause("EU-47", "law 47", "card_played")
    def ahead_of_partner(c: Clause, s: TableState, e: CardPlayed) -> Ruling | None:
        """Playing on, with the trick won, before one's partner has played to it."""
        d = judged(s)
        if d is None or d.set_aside:
            return None
        t = current(d)
        mine = [card for seat, card in t.cards if seat == e.seat]
        partner = e.seat.partner
        if not mine or partner not in active(d) or any(seat == partner for seat, _ in t.cards):
            return None
        others = Trick(t.number, t.leader, [(st, x) for st, x in t.cards if st != e.seat])
        if not beats(d, others, mine[0]) or not sure_winner(d, e.seat, e.card):
            return None
        d.set_aside = True
        d.exposed[e.seat].append(e.card)
        return adversaries_claim(c, f"{seat_name(s, e.seat)} played {the_card(e.card, capital=False)} on, with trick "
                      f"{t.number} won, before his partner played to it: {side_text(e.seat.side.other)} may "
                      f"require {seat_name(s, partner)} to win that trick if he can, and the card played "
                      "ahead is exposed and may be called.", e.seat, ("win_trick", "call_card"),
                      card=e.card, trick=t.number, target=partner)

    @reg.clause("EU-46", "law 46", "card_played", "card_faced")
    def exposed(c: Clause, s: TableState, e: CardPlayed | CardFaced) -> Ruling | None:
        """Two cards played at once, or a card shown on the table: exposed, and callable by the
        adversaries until it is played."""
        d = judged(s) if isinstance(e, CardPlayed) else _live_deal(s)
        if d is None:
            return None
        if isinstance(e, CardPlayed):
            t = current(d)
            if d.set_aside or not any(seat == e.seat for seat, _ in t.cards):
                return None
            d.set_aside = True
            seat, card, how = e.seat, e.card, f"played a second card to trick {t.number}"
        else:
            if e.where != "table" or e.card is None or e.card == d.trump_card:
                return None
            if any(card == e.card for _, card in d.plays):
                return None
            owner = e.by or next((st for st in Seat if e.card in held(d, st)[0]), None)
            if owner is None or owner == sits_out(d):   # he plays no card (EU-lone-partner)
                return None
            seat, card, how = owner, e.card, "showed a card on the table"
        if card in d.exposed[seat]:
            return None
        d.exposed[seat].append(card)
        return adversaries_claim(c, f"{seat_name(s, seat)} {how}: {the_card(card, capital=False)} is exposed, stays on "
                      f"the table, and {side_text(seat.side.other)} may call it.", seat, ("call_card",),
                      card=card)

    @reg.clause("EU-54", "laws 54-57", "card_played")
    def calls_in_force(c: Clause, s: TableState, e: CardPlayed) -> list[Ruling]:
        """A call is met, fails (54), is not pressed against a revoke (55), stays (56), or finds the
        player void (57)."""
        d = judged(s)
        if d is None or d.set_aside:
            return []
        t = current(d)
        out: list[Ruling] = []
        keep: list[Call] = []
        trump = d.trump_suit or "S"
        if e.card in d.exposed[e.seat]:  # an exposed card played: it can no longer be called
            d.exposed[e.seat].remove(e.card)
            s.claims = spent(s.claims, e.seat, e.card)
        for call in d.calls:
            done = False
            if call.kind == "card" and call.seat == e.seat and call.card is not None:
                if e.card == call.card:
                    done = True
                elif call.card in lawful(d, e.seat, t):
                    out.append(_failed(s, e.seat, f"played {the_card(e.card, capital=False)} when the called "
                                       f"{call.card.name} could be played"))
                elif t.cards and e.card in lawful(d, e.seat, t):
                    out.append(Ruling(Remedy.ATTENTION, "Euchre, law 55", "EU-55", f"{seat_name(s, e.seat)} "
                                      f"followed suit; the call for the {call.card.name} never forces a "
                                      "revoke and stays in force (law 56).", seat=e.seat))
            elif call.kind == "suit" and call.suit is not None and not t.cards and \
                    e.seat.side is call.seat.side:
                done = True
                suit_cards = [x for x in held(d, e.seat)[0] if effective_suit(x, trump) == call.suit]
                if effective_suit(e.card, trump) == call.suit:
                    pass
                elif not held(d, e.seat)[1] and len(suit_cards) == 1:
                    pass  # the dealer's unseen discard may have been his one card of the suit
                elif suit_cards:
                    out.append(_failed(s, e.seat, f"was called on to lead {_SUITS[call.suit]}, holds them, "
                                       "and led another suit"))
                else:
                    out.append(Ruling(Remedy.ATTENTION, "Euchre, law 57", "EU-57", f"{seat_name(s, e.seat)} "
                                      f"holds no {_SUITS[call.suit]}: leading another suit satisfies the "
                                      "call.", seat=e.seat))
            elif call.kind in ("win", "lose") and call.seat == e.seat and call.trick == t.number:
                done = True
                wins = beats(d, t, e.card)
                want = call.kind == "win"
                able = [x for x in lawful(d, e.seat, t) if beats(d, t, x) == want]
                if wins != want and could(d, e.seat, able):
                    out.append(_failed(s, e.seat, f"was required to {call.kind} trick {t.number} and could "
                                       "have"))
            elif call.kind in ("highest", "lowest") and call.seat == e.seat and call.trick == t.number and \
                    t.cards:
                done = True
                led = effective_suit(t.cards[0][1], trump)
                suit = [x for x in held(d, e.seat)[0] if effective_suit(x, trump) == led]
                ranked = sorted(suit, key=lambda x: power(x, trump, led))
                due = (ranked[-1] if call.kind == "highest" else ranked[0]) if ranked else None   # none of the suit: any card
                if due is not None and e.card != due and held(d, e.seat)[1]:
                    out.append(_failed(s, e.seat, f"was required to play his {call.kind} "
                                       f"{_SUITS[led]}, the {due.name}, and played the {e.card.name}"))
            if not done:
                keep.append(call)
        d.calls = keep
        return out

    @reg.clause("EU-52", "law 52", "card_played")
    def lead_out_of_turn(c: Clause, s: TableState, e: CardPlayed) -> Ruling | None:
        """A lead out of turn: the adversaries call the card or a suit."""
        d = judged(s)
        if d is None or d.set_aside:
            return None
        t = current(d)
        if t.cards or e.seat == t.leader:
            return None
        return adversaries_claim(c, f"{seat_name(s, e.seat)} led {the_card(e.card, capital=False)} to trick {t.number}, "
                      f"but the lead is {seat_name(s, t.leader)}'s: {side_text(e.seat.side.other)} may call "
                      "that card, or call a suit the next time his side leads; once all three others have "
                      "played to it, the trick stands.", e.seat, ("call_card", "call_suit"), card=e.card,
                      trick=t.number)

    @reg.clause("EU-53", "law 53", "card_played")
    def false_lead_followed(c: Clause, s: TableState, e: CardPlayed) -> Ruling | None:
        """All three others played to a lead out of turn: the trick stands and the claim lapses."""
        d = judged(s)
        if d is None or d.set_aside:
            return None
        t = current(d)
        if len(t.cards) + 1 != len(active(d)):
            return None
        lapsed = [cl for cl in s.claims if cl.clause == "EU-52" and cl.trick == t.number]
        if not lapsed:
            return None
        s.claims.remove(lapsed[0])
        if lapsed[0].offender is not None:   # a call for it later is too late, and is told so (euchre_calls)
            d.stood_lead = (t.number, lapsed[0].offender)
        return c.rule(Remedy.DEAL_STANDS, f"Everyone has played to the lead out of turn in trick {t.number}, "
                      "so the trick stands as played and carries no penalty.", seat=lapsed[0].offender)

    @reg.clause("EU-58", "law 58", "card_played")
    def third_before_second(c: Clause, s: TableState, e: CardPlayed) -> Ruling | None:
        """The third hand plays before the second: the fourth may play before his partner too."""
        d = judged(s)
        if d is None or d.set_aside or len(active(d)) != 4:
            return None
        t = current(d)
        if len(t.cards) != 1 or rotation(d, t.cards[0][0]).index(e.seat) != 2:
            return None
        d.free_fourth = t.number
        fourth = rotation(d, t.cards[0][0])[3]
        return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} played before his turn (third before "
                      f"second) in trick {t.number}; {seat_name(s, fourth)} may likewise play before his "
                      "partner.", seat=e.seat, extra={"target": fourth, "trick": t.number})

    @reg.clause("EU-59", "law 59", "card_played")
    def fourth_before_second(c: Clause, s: TableState, e: CardPlayed) -> list[Ruling]:
        """The fourth hand plays before his partner, the third not having played: the adversaries may
        require the partner to win or to lose the trick (until he plays)."""
        d = judged(s)
        if d is None or d.set_aside or len(active(d)) != 4:
            return []
        t = current(d)
        out: list[Ruling] = []
        for cl in [cl for cl in s.claims if cl.clause == "EU-59" and cl.offender == e.seat]:
            s.claims.remove(cl)
            out.append(c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} has played to trick "
                              f"{cl.trick}; nobody demanded that he win or lose it.", seat=e.seat))
        if len(t.cards) != 1 or d.free_fourth == t.number:
            return out
        order = rotation(d, t.cards[0][0])
        if order.index(e.seat) != 3:
            return out
        second = order[1]
        out.append(adversaries_claim(c, f"{seat_name(s, e.seat)} played to trick {t.number} before his partner "
                          f"{seat_name(s, second)}: {side_text(e.seat.side.other)} may require "
                          f"{seat_name(s, second)} to win or to lose the trick.", second,
                          ("win_trick", "lose_trick"), trick=t.number, target=second))
        return out

    @reg.clause("EU-48", "laws 48-50", "card_faced")
    def hand_laid_down(c: Clause, s: TableState, e: CardFaced) -> list[Ruling]:
        """A hand laid face up: its cards are exposed (48); against a lone hand, the lone side scores 5
        (50); all hands down, they are abandoned (49)."""
        d = _live_deal(s)
        if d is None or e.where != "hand" or e.by is None or e.by in d.hands_down or e.by == sits_out(d):
            return []   # the lone player's partner plays no card (EU-lone-partner)
        seat = e.by
        d.hands_down.append(seat)
        if set(active(d)) <= set(d.hands_down):
            return [Ruling(Remedy.ATTENTION, "Euchre, law 49", "EU-49", "Every hand has been laid face up: "
                           "the hands are abandoned and nobody takes his cards up again; the result stands "
                           "as the tricks were taken, unless a revoke is established.")]
        if d.alone_seat is not None and seat.side is not d.alone_seat.side:
            from laws.scoring.euchre import EuchreRubber
            score: EuchreRubber = s.game_state["score"]
            head = Ruling(Remedy.ATTENTION, "Euchre, law 50", "EU-50", f"{seat_name(s, seat)} laid his hand "
                          f"face up against {seat_name(s, d.alone_seat)}'s lone hand.", seat=seat)
            return [head, *settle(s, score.lone_abandoned(seat.side, players=side_players(s)))]
        cards, _ = held(d, seat)
        d.exposed[seat].extend(x for x in cards if x not in d.exposed[seat])
        return [adversaries_claim(c, f"{seat_name(s, seat)} laid his hand face up: every card of it is exposed, and "
                       f"{side_text(seat.side.other)} may call them one by one; nobody can make a player "
                       "who keeps his hand show it.", seat, ("call_card",))]

    @reg.clause("EU-60", "laws 60-61", "surplus_card")
    def trick_missed(c: Clause, s: TableState, e: SurplusCardFound) -> list[Ruling]:
        """A trick missed (60: a new deal may be claimed) or a card too many in a trick (61)."""
        d = s.deal
        if d is None or d.void or e.cause not in ("play", "trick"):
            return []
        if e.cause == "trick":
            during = s.phase is Phase.PLAY
            return [Ruling(Remedy.ATTENTION, "Euchre, law 61", "EU-61", f"{seat_name(s, e.seat)} put a card "
                           "too many on a trick: " + ("the tricks are counted face down, the one with the "
                           "surplus card is searched and the card handed back to him; he answers for any "
                           "revoke made meanwhile." if during else "found after the hand, so he answers for "
                           "every revoke that followed."), seat=e.seat)]
        if d.alone_seat is not None and e.seat.side is not d.alone_seat.side:
            from laws.scoring.euchre import EuchreRubber
            score: EuchreRubber = s.game_state["score"]
            head = Ruling(Remedy.ATTENTION, "Euchre, law 50", "EU-50", f"{seat_name(s, e.seat)} failed to "
                          f"play to a trick against {seat_name(s, d.alone_seat)}'s lone hand.", seat=e.seat)
            return [head, *settle(s, score.lone_abandoned(e.seat.side, players=side_players(s)))]
        return [c.rule(Remedy.CLAIM_OPTION, f"{seat_name(s, e.seat)} missed playing to an earlier trick: "
                       f"{side_text(e.seat.side.other)} may claim a new deal; if they let it stand, his "
                       "extra card at the end counts as played to the short trick and is no revoke there.",
                       side=e.seat.side.other, seat=e.seat, dealer=d.rightful_dealer,
                       extra={"until": "result"})]
