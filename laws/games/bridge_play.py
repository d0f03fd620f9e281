"""Contract Bridge, the play as it is played (docs/laws.md ``BP-41`` to ``BP-67``): each ``card_played`` judged by
the play model (``laws.bridge.play``), tricks formed and won, revokes seen at the card when the deal is
known or a penalty card of the suit led lies on the table (law 50), and the cards played out of turn ruled
with the law and its options.

What each does here (the model's reading of the 2017 laws; docs/events.md says the same):

* A legal card is played (``BP-44``); a revoke is on the table, so it is played and noted at once
  (``BP-61``), to be corrected by a ``correct`` entry until it is established (``BP-62``); it is
  established when the offending side plays to a later trick or makes or agrees to a claim (``BP-63``).
* A lead out of turn (``BP-53-56``) waits: an ``accept``, or a card from the next player in rotation,
  makes it stand; a ``withdraw``, or a card from anyone else (the right leader leading), takes it back,
  and a defender's becomes a penalty card.
* A defender's card before his partner's, at his partner's turn (``BP-57``, law 57A) waits: a
  ``withdraw`` or the next card makes it a penalty card, and declarer's options on the partner's play are
  the director's. A defender's other card out of turn (law 57D) waits for his proper turn and is played
  then, or becomes a penalty card if it could not be played legally then; a card declarer's side plays
  early (57C) stands at once, and the player it skipped still plays in his turn.
* A second card from one player in a trick (``BP-66-67``, a defective trick) is not played: the director
  puts the trick right (a ``withdraw`` takes it back).
* Bad input is refused with a message (``ValueError``): a card the seat cannot hold by the deal, a card
  played twice, a card while a claim stops play, a card while the auction is still open.
"""

from __future__ import annotations

from laws.bridge.play import Play
from laws.bridge.tricks import PlayIrregularity, PlayVerdict, RevokeStatus, penalty_card_words
from laws.bridge.verdicts import name
from laws.cards import SUIT_NAMES, Seat
from laws.events import (
    CardPlayed,
    CardWithdrawn,
    DummyFaced,
    HandSpread,
    IrregularityAccepted,
    RevokeCorrected,
)
from laws.games import bridge_hand as bh
from laws.games.base import Clause, Registry, side_text
from laws.games.bridge_auction import accepting
from laws.rulings import Remedy, Ruling
from laws.state import DealState, TableState

_P = PlayIrregularity
WAITING = (_P.LEAD_OUT_OF_TURN, _P.PREMATURE_PLAY, _P.PLAY_OUT_OF_TURN)


def _model(s: TableState, e: CardPlayed) -> tuple[DealState, bh.BridgeHand, Play] | None:
    """The deal, hand and play a card goes to; None for a table that does not record the auction."""
    h = bh.hand(s)
    d = s.deal
    if h is None or d is None or not h.captured:
        return None
    if h.play is None:
        raise ValueError(f"{name(e.seat)}'s {e.card.name}: the auction has not closed, so no card can be "
                         "played yet")
    return d, h, h.play


def _take_back(d: DealState, h: bh.BridgeHand, p: bh.Pending, why: str, *, at_turn: bool = False) -> Ruling:
    """A waiting card is taken back; a defender's becomes a penalty card (``at_turn``: a 57D card that
    has reached its player's turn and cannot be played legally then)."""
    assert h.play is not None and p.card is not None
    v = h.play.withdraw(p.seat, p.card, at_turn=at_turn)
    h.pending = None
    if v.penalty_card:
        return bh.rule(p.clause, p.law, Remedy.PENALTY, f"{why} {name(p.seat)}'s {p.card.name} goes back to "
                       "his hand and is a penalty card: it stays face up and is played at the first legal "
                       "chance.", seat=p.seat, extra={"penalty_card": p.card.code, "withdrawn": True,
                                                      "trick": v.trick})
    return bh.rule(p.clause, p.law, Remedy.DEAL_STANDS, f"{why} {name(p.seat)}'s {p.card.name} goes back to "
                   "his hand; play goes on.", seat=p.seat, extra={"card": p.card.code, "withdrawn": True,
                                                                   "trick": v.trick})


def _play_waiting(d: DealState, h: bh.BridgeHand, p: bh.Pending, how: str) -> Ruling:
    """A waiting card that stands (accepted, or played at its proper turn)."""
    assert h.play is not None and p.card is not None
    h.pending = None
    h.play.accept(p.seat, p.card) if h.play.turn != p.seat else h.play.play(p.seat, p.card)
    bh.played(d, p.seat, p.card)
    return bh.rule(p.clause, p.law, Remedy.DEAL_STANDS, f"{name(p.seat)}'s {p.card.name} {how}; play goes on.",
                   seat=p.seat, extra={"card": p.card.code, "accepted": True})


def _before(d: DealState, h: bh.BridgeHand, seat: Seat) -> list[Ruling]:
    """A card arrives while another waits: the next player in rotation playing accepts a lead out of turn;
    otherwise a waiting lead or premature card is taken back (57D cards wait for their turn)."""
    p = h.pending
    if p is None or p.what != "card" or p.kind == _P.PLAY_OUT_OF_TURN.value:
        return []
    if p.kind == _P.LEAD_OUT_OF_TURN.value and seat == p.seat.left:
        return [_play_waiting(d, h, p, f"stands: {name(seat)} played to it, which accepts it")]
    return [_take_back(d, h, p, f"{name(seat)} played instead.")]


def _after(d: DealState, h: bh.BridgeHand) -> list[Ruling]:
    """A defender's card out of turn (law 57D) reaches his proper turn: played then if it can be legally,
    otherwise a penalty card."""
    p = h.pending
    play = h.play
    if p is None or play is None or p.kind != _P.PLAY_OUT_OF_TURN.value or play.turn != p.seat or p.card is None:
        return []
    v = play.judge(p.seat, p.card)
    if v.legal:
        return [_play_waiting(d, h, p, "is played now, at his proper turn")]
    p.penalty_card = True
    return [_take_back(d, h, p, f"{name(p.seat)}'s turn has come, and his {p.card.name} cannot be played "
                       "legally now.", at_turn=True)]


def _waiting_ruling(c: Clause, h: bh.BridgeHand, v: PlayVerdict, options: list[tuple[str, str, Seat | None]],
                    remedy: Remedy = Remedy.ATTENTION) -> Ruling:
    """The ruling on a card that waits: the law, the facts, the options in words and as data. The card is
    on the table meanwhile, so it establishes its side's earlier revokes (``Play.put_on_table``)."""
    if h.play is not None:
        h.play.put_on_table(v.seat)
    h.pending = bh.Pending("card", v.seat, c.id, v.kind.value if v.kind else "", v.detail, card=v.card,
                           accept_by=v.accept_by, penalty_card=v.penalty_card,
                           options=tuple(o[0] for o in options), law=v.law)
    said = " ".join(o[1] for o in options)
    extra = {"irregularity": v.kind.value if v.kind else "", "card": v.card.code, "offender": v.seat.value,
             "trick": v.trick, "detail": v.detail, "options": [o[0] for o in options],
             "choices": [{"code": o[0], "text": o[1], "by": o[2].value if o[2] else None} for o in options]}
    chooser = v.accept_by[0] if v.accept_by else v.seat
    return bh.rule(c.id, v.law, remedy, f"{v.reason} {said}", seat=chooser, extra=extra)


def register(reg: Registry) -> None:
    """The play's clauses, in the order they are tried."""

    @reg.clause("BP-41", "the opening lead and dummy (Duplicate Bridge law 41)", "dummy")
    def dummy(c: Clause, s: TableState, e: DummyFaced) -> None:
        """Dummy's hand, spread after the opening lead, is known from then on."""
        _, play = bh.need_play(s, "dummy")
        play.dummy_faced(list(e.cards))

    @reg.clause("BP-44", "the play (Duplicate Bridge law 44)", "card_played")
    def card(c: Clause, s: TableState, e: CardPlayed) -> list[Ruling] | None:
        """Each player clockwise plays a card to the trick; the highest trump, else the highest card of
        the suit led, wins it, and its winner leads next."""
        m = _model(s, e)
        if m is None:
            return None
        d, h, play = m
        play.judge(e.seat, e.card)  # bad input is refused before anything moves
        d.set_aside = True          # the play model records the card (bh.played), not the engine
        h.verdict = None
        out = _before(d, h, e.seat)
        v = play.judge(e.seat, e.card)
        h.verdict = v
        if v.legal or v.kind is _P.REVOKE:
            play.play(e.seat, e.card)
            bh.played(d, e.seat, e.card)
            out += _after(d, h)
        return out

    @reg.clause("BP-53-56", "lead out of turn (Duplicate Bridge laws 53-56)", "card_played", "accept",
                "withdraw")
    def lead_out_of_turn(c: Clause, s: TableState,
                         e: CardPlayed | IrregularityAccepted | CardWithdrawn) -> Ruling | None:
        """A lead out of turn: either opponent may accept it; if not, it is taken back and a defender's
        card becomes a penalty card."""
        return _card_rule(c, s, e, _P.LEAD_OUT_OF_TURN)

    @reg.clause("BP-53-56", "declarer spreads his hand (Duplicate Bridge law 54)", "spread")
    def spread(c: Clause, s: TableState, e: HandSpread) -> Ruling:
        """After a defender's opening lead out of turn declarer may spread his hand (law 54A): he becomes
        dummy, his partner declarer, and the lead stands, now in turn."""
        h = bh.hand(s)
        p = h.pending if h is not None else None
        if h is None or h.play is None or p is None or p.what != "card" or "spread" not in p.options or \
                p.card is None:   # in the auction, before the opening lead, or in play with none waiting
            raise ValueError("spread: declarer spreads his hand only after a defender's opening lead out of "
                             "turn that waits for a ruling (law 54)")
        play = h.play
        if e.seat != play.declarer:
            raise ValueError(f"spread: {name(e.seat)} is not declarer; {name(play.declarer)} may spread his hand")
        d = s.deal
        assert d is not None
        old = play.declarer
        new = play.spread()
        h.pending = None
        play.play(p.seat, p.card)          # the lead is now the new declarer's left-hand opponent's: in turn
        bh.played(d, p.seat, p.card)
        return bh.rule(c.id, f"{play.code}, law 54", Remedy.DEAL_STANDS, f"{name(old)} spreads his hand after "
                       f"{name(p.seat)}'s opening lead out of turn: {name(old)} is dummy and {name(new)} "
                       f"declares; {name(p.seat)}'s {p.card.name} is the opening lead, and {name(new)} plays next"
                       " from dummy.", seat=new, extra={"card": p.card.code, "spread": True,
                                                        "declarer": new.value, "dummy": old.value})

    @reg.clause("BP-57", "premature play, and cards out of turn (Duplicate Bridge law 57)", "card_played",
                "accept", "withdraw")
    def premature(c: Clause, s: TableState,
                  e: CardPlayed | IrregularityAccepted | CardWithdrawn) -> Ruling | None:
        """A defender who plays before his partner at his partner's turn: a penalty card, and the
        partner's play may be restricted; other cards out of turn as law 57 says."""
        h = bh.hand(s)
        if isinstance(e, CardPlayed) and h is not None and h.play is not None and isinstance(h.verdict, PlayVerdict):
            v = h.verdict
            if v.kind is _P.PLAY_OUT_OF_TURN and v.stands:
                h.play.accept(e.seat, e.card)
                assert s.deal is not None
                bh.played(s.deal, e.seat, e.card)
                return bh.rule(c.id, v.law, Remedy.DEAL_STANDS, v.reason, seat=e.seat,
                               extra={"card": e.card.code, "trick": v.trick})
        return _card_rule(c, s, e, _P.PREMATURE_PLAY, _P.PLAY_OUT_OF_TURN)

    @reg.clause("BP-61", "revoke (Duplicate Bridge law 61)", "card_played", "accept")
    def revoke(c: Clause, s: TableState, e: CardPlayed | IrregularityAccepted) -> list[Ruling]:
        """A failure to follow suit while able, seen at the card when the table knows the player held the
        suit: his hand is known, or his penalty card of it lies on the table (law 50: it is played at the
        first legal opportunity), whoever knows the hand."""
        h = bh.hand(s)
        if h is None or h.play is None:
            return []
        out = []
        for r in h.play.revokes[h.noted:]:
            lying = [card for seat, card in h.play.penalty_cards if seat == r.seat and card.suit == r.suit]
            why = (f"{penalty_card_words(lying)}, lay on the table, to be played at the first legal opportunity "
                   "(law 50)" if lying else f"holding {SUIT_NAMES[r.suit]}")
            extra = {"card": r.card.code, "suit": r.suit, "trick": r.trick, "by_dummy": r.by_dummy,
                     "options": ["correct"]} | ({"penalty_cards": [c.code for c in lying]} if lying else {})
            out.append(bh.rule(c.id, f"{h.code}, law 61", Remedy.ATTENTION, f"{name(r.seat)} played the "
                               f"{r.card.name} to a {SUIT_NAMES[r.suit][:-1]} lead in trick {r.trick} while "
                               f"{why}: a revoke. It must be corrected (a card of {SUIT_NAMES[r.suit]} instead) "
                               "before it is established.", seat=r.seat, extra=extra))
        h.noted = len(h.play.revokes)
        return out

    @reg.clause("BP-62", "revoke corrected (Duplicate Bridge law 62)", "correct")
    def corrected(c: Clause, s: TableState, e: RevokeCorrected) -> Ruling:
        """A revoke corrected before it is established; a defender's revoking card becomes a penalty card."""
        h, play = bh.need_play(s, "correct")
        if h.pending is not None:
            raise ValueError("correct: a card waits for a ruling first (accept or withdraw it)")
        r = play.correct(e.seat, e.card)
        assert s.deal is not None
        bh.sync_plays(s.deal, play)
        penalty = (e.seat, r.card) in play.penalty_cards
        text = (f"{name(e.seat)} corrected his revoke in trick {r.trick}: the {e.card.name} replaces the "
                f"{r.card.name}")
        if penalty:
            return bh.rule(c.id, f"{play.code}, law 62", Remedy.PENALTY, f"{text}, which is a penalty card.",
                           seat=e.seat, extra={"penalty_card": r.card.code, "card": e.card.code, "trick": r.trick})
        after = "the hand is scored" if play.ended else "play goes on"     # a twelfth-trick revoke, play over
        return bh.rule(c.id, f"{play.code}, law 62", Remedy.DEAL_STANDS, f"{text}; {after}.", seat=e.seat,
                       extra={"card": e.card.code, "trick": r.trick})

    @reg.clause("BP-63", "revoke established (Duplicate Bridge law 63)", "card_played", "accept", "claim",
                "claim_reply")
    def established(c: Clause, s: TableState, e: object) -> list[Ruling]:
        """A revoke is established when the offending side plays to a later trick, or claims or agrees
        to a claim: it can no longer be corrected and is rectified when play ends."""
        h = bh.hand(s)
        if h is None or h.play is None:
            return []
        return tell_established(h, h.play)

    @reg.clause("BP-66-67", "defective trick (Duplicate Bridge laws 66-67)", "card_played", "withdraw")
    def defective(c: Clause, s: TableState, e: CardPlayed | CardWithdrawn) -> Ruling | None:
        """A trick with a card too many (a second card from one player): the director puts it right; a
        ``withdraw`` of that card, before any other card, takes it back (it was never played)."""
        h = bh.hand(s)
        if isinstance(e, CardWithdrawn):
            if h is None or not _second_card(h, e):
                return None
            assert isinstance(h.verdict, PlayVerdict)
            trick = h.verdict.trick
            h.verdict = e
            return bh.rule(c.id, f"{h.code}, laws 66-67", Remedy.DEAL_STANDS, f"{name(e.seat)}'s {e.card.name} "
                           "goes back to his hand: the trick stands as played; play goes on.", seat=e.seat,
                           extra={"card": e.card.code, "withdrawn": True, "trick": trick})
        v = h.verdict if h is not None else None
        if not isinstance(v, PlayVerdict) or v.kind is not _P.SECOND_CARD:
            return None
        return bh.rule(c.id, v.law, Remedy.DEFECTIVE_TRICK, f"{v.reason} It is not played.", seat=e.seat,
                       extra={"card": e.card.code, "trick": v.trick})


def tell_established(h: bh.BridgeHand, play: Play, how: str | None = None) -> list[Ruling]:
    """The ``BP-63`` rulings for the revokes of ``play`` established since the last were told: each is told
    once, at the entry that established it (a card to a later trick, a claim, an agreement to a claim).

    Args:
        h: the deal's bridge hand (its ``told`` list is updated).
        play: its play.
        how: what established them, in words ("South claimed"); by default "<side> played on".
    """
    out = []
    for i, r in enumerate(play.revokes):
        if r.status is RevokeStatus.ESTABLISHED and i not in h.told:
            h.told.append(i)
            what = how if how is not None else f"{side_text(r.seat.side)} played on"
            out.append(bh.rule("BP-63", f"{play.code}, law 63", Remedy.ATTENTION, f"{name(r.seat)}'s revoke in "
                               f"trick {r.trick} is established: {what}. The tricks it moves are worked out "
                               "when play ends.", seat=r.seat, extra={"card": r.card.code, "trick": r.trick}))
    return out


def _second_card(h: bh.BridgeHand, e: CardWithdrawn) -> bool:
    """Whether ``e`` takes back the second card its player just put on a trick (``BP-66-67``)."""
    v = h.verdict
    return isinstance(v, PlayVerdict) and v.kind is _P.SECOND_CARD and v.seat == e.seat and v.card == e.card


def _card_rule(c: Clause, s: TableState, e: CardPlayed | IrregularityAccepted | CardWithdrawn,
               *kinds: PlayIrregularity) -> Ruling | None:
    h = bh.hand(s)
    d = s.deal
    if h is None or h.play is None or d is None:
        return None
    if isinstance(e, IrregularityAccepted):
        p = accepting(s, e, c.id)
        if p is None:
            return None
        h.verdict = e
        return _play_waiting(d, h, p, f"stands: {name(e.seat)} accepts it")
    if isinstance(e, CardWithdrawn):
        p = h.pending
        if p is None and h.verdict is e:   # an earlier clause took it back, for this same entry
            return None
        if p is None and _second_card(h, e):
            return None                    # the defective trick's clause takes it (BP-66-67)
        if p is None or p.what != "card":
            raise ValueError(f"withdraw: no card of {name(e.seat)}'s is waiting for a ruling")
        if p.seat != e.seat or p.card != e.card:
            assert p.card is not None
            raise ValueError(f"withdraw: the card waiting is {name(p.seat)}'s {p.card.name}, not "
                             f"{name(e.seat)}'s {e.card.name}")
        if p.clause != c.id:
            return None
        h.verdict = e
        return _take_back(d, h, p, "The card is taken back.")
    v = h.verdict
    if not isinstance(v, PlayVerdict) or v.kind not in kinds:
        return None
    if v.kind is _P.LEAD_OUT_OF_TURN:
        right = v.turn
        accept_words = " or ".join(name(x) for x in v.accept_by)
        options = [("accept", f"{accept_words} may accept the lead (a card from {name(v.seat.left)} accepts "
                              "it too).", v.accept_by[0] if v.accept_by else None),
                   ("withdraw", f"Otherwise it is taken back and {name(right) if right else 'the right player'} "
                                "leads" + ("; it becomes a penalty card." if v.penalty_card else "."), None)]
        if v.detail == "by_defender_opening":
            options.append(("spread", "Declarer may instead spread his hand and become dummy (law 54): his "
                                      "partner then declares and the lead stands.",
                            v.accept_by[0] if v.accept_by else None))
        return _waiting_ruling(c, h, v, options)
    if v.kind is _P.PREMATURE_PLAY:
        return _waiting_ruling(c, h, v, [
            ("withdraw", "The card is a penalty card.", None),
            ("restrict", f"Declarer may require {name(v.seat.partner)} to play the highest or lowest card of "
                         "the suit led, or a card of another suit (law 57A): the director rules on it.",
             h.play.declarer)])
    return _waiting_ruling(c, h, v, [("at_turn", f"The card is played at {name(v.seat)}'s proper turn, or is "
                                      "a penalty card if it cannot be played legally then.", None)])
