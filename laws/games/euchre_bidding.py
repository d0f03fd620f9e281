"""Euchre: making the trump (Somerset Club laws 74-82), from the declarations the players enter, and the
dealer's discard (laws 86-89).

A ``bid`` event is one declaration (the table has no microphone: a button or the director enters it). The
engine keeps the declarations in order and knows whose turn it is: the first round goes eldest hand,
second hand (dealer's partner), third hand, dealer; the second round the same. A declaration that makes
trump sets the trump suit, the makers and a lone hand as ``trump_made`` would (a later ``trump_made``
simply says the same again).

Our reading, where the laws leave room:

* Laws 74-75: after the eldest orders up, only the third hand (his partner) may take over alone; after the
  second hand assists, only the dealer. Any other declaration once trump is made is out of turn.
* Law 76: in the first round nobody names a suit; such a declaration is refused and the player declares
  again.
* Law 77: four passes in each round make the hand dead; the deal passes to the left, as after any deal.
* Law 78: naming is final; naming (or accepting) the turned-down suit in the second round is a pass.
* Law 80: a player who passed and then orders up in the same round silences his partner (who must pass);
  the adversaries may hold that side to the late order with ``hold_order`` until the first card is led;
  otherwise the late order counts for nothing.
* Law 82: a declaration out of turn takes no one's right away and does not count; but the dealer
  turning the card down out of turn binds his partner to pass.
* Laws 86-89 need the table to report the discard (a ``discard`` event: the camera sees a card go under
  the pack). A second discard before any lead changes a completed discard: refused (86). A discard
  reported after the first lead means the eldest led before it was finished: the lead stands and the
  dealer may still exchange it (87); if the third hand plays alone and the second hand led, the lone
  player may require the dealer to play his highest or lowest card of the suit led, or to win or lose the
  trick (89). Discarding the trump card is refused (88). A table that never reports discards gets
  none of these rulings (and law 88 only at the end of play).
* Law 89's right is the early lead itself. The lone player's demand (``call_highest``, ``call_lowest``,
  ``win_trick``, ``lose_trick``) is in time from that lead, before any discard is recorded: it is granted
  at once (no ``claim_option`` first, and the discard that follows gets law 87's ruling only). A discard
  recorded after the lead, with no demand made yet, offers the right as a ``claim_option``. Either way the
  right ends when the dealer plays to that first trick (an untaken claim lapses then, ``deal_stands``);
  the demand concerns his card to it.
"""

from __future__ import annotations

from laws.cards import Card, Seat, clockwise_from
from laws.events import BidMade, CardDiscarded, CardPlayed, DemandMade
from laws.games.base import Clause, Registry, seat_name, side_players, side_text
from laws.rulings import Remedy, Ruling
from laws.state import Claim, DealState, Phase, TableState

_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def order(d: DealState) -> list[Seat]:
    return list(clockwise_from(d.dealer.left))


def rounds(d: DealState) -> tuple[int, list[tuple[Seat, str, str | None, bool]]]:
    """The round under way (1, 2, or 3 when the hand is dead) and its declarations so far."""
    first = d.bids[:4]
    if len(first) < 4 or any(call != "pass" for _, call, _, _ in first):
        return 1, first
    second = d.bids[4:8]
    if len(second) == 4 and all(call == "pass" for _, call, _, _ in second):
        return 3, second
    return 2, second


def made(d: DealState) -> tuple[Seat, str, str | None, bool] | None:
    """The declaration that made trump, if any (the first order or naming)."""
    return next((b for b in d.bids if b[1] != "pass"), None)


def _make(d: DealState, seat: Seat, suit: str, alone: bool) -> None:
    d.trump_suit, d.makers = suit, seat.side
    d.alone_seat = seat if alone else None


def register(reg: Registry) -> None:
    """Laws 74-82."""

    @reg.clause("EU-74", "laws 74-76 (whose declaration)", "bid")
    def declaration(c: Clause, s: TableState, e: BidMade) -> list[Ruling]:
        """A declaration in turn is recorded; one that makes trump makes it; a takeover alone is allowed
        only to the orderer's partner (74) or to the dealer after an assist (75)."""
        d = s.deal
        if d is None or d.void or d.trump_card is None:
            return []
        seats = order(d)
        win = made(d)
        if win is not None:
            taker = {seats[0]: seats[2], seats[1]: seats[3]}.get(win[0])
            if e.seat == win[0] and e.call == "name" and win[1] == "name":
                return [Ruling(Remedy.ATTENTION, "Euchre, law 78", "EU-78", f"{seat_name(s, e.seat)} named "
                               f"{_SUITS[win[2] or 'S']} already; naming is final.", seat=e.seat)]
            if e.seat == taker and e.call == "order" and e.alone and win[1] == "order" and not d.plays:
                d.bids.append((e.seat, "order", d.trump_suit, True))
                _make(d, e.seat, d.trump_suit or d.trump_card.suit, True)
                return []
            law = "75" if win[0] == seats[1] else "74"
            who = seat_name(s, taker) if taker else "nobody"
            return [Ruling(Remedy.ATTENTION, f"Euchre, law {law}", f"EU-{law}", f"{seat_name(s, e.seat)} "
                           f"declared after {seat_name(s, win[0])} made trump; only {who} may take it over "
                           "alone, so the declaration does not count.", seat=e.seat)]
        rnd, done = rounds(d)
        if rnd == 3:
            return []
        due = seats[len(done)]
        if e.seat != due:
            return _out_of_turn(s, e, due, rnd, done)
        return _in_turn(s, e, rnd)

    @reg.clause("EU-80", "law 80", "demand")
    def hold_order(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
        """The adversaries hold a side to its late order."""
        if e.what != "hold_order":
            return None
        d = s.deal
        claim = next((cl for cl in s.claims if cl.clause == "EU-80" and cl.side is e.seat.side), None)
        own = next((cl for cl in s.claims if cl.clause == "EU-80" and cl.side is e.seat.side.other), None)
        if claim is None and own is not None:   # the late order is his own side's: only the adversaries hold it
            return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} asked to hold a late order, but the late "
                          f"order is his own side's; only {side_text(e.seat.side.other)} may hold it.",
                          seat=e.seat)
        if d is None or claim is None or claim.offender is None or d.trump_card is None:
            return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} asked to hold a late order, but "
                          "there is none to hold.", seat=e.seat)
        s.claims.remove(claim)
        seat = claim.offender
        d.bids.append((seat, "order", d.trump_card.suit, False))
        _make(d, seat, d.trump_card.suit, False)
        return c.rule(Remedy.ATTENTION, f"{side_text(e.seat.side)} hold {seat_name(s, seat)} to his late "
                      f"order: {_SUITS[d.trump_card.suit]} are trump, made by {side_text(seat.side)}.",
                      seat=seat)


LAW_89 = ("call_highest", "call_lowest", "win_trick", "lose_trick")


def early_lead(s: TableState, *, discarding: bool = False) -> Claim | None:
    """Law 89's right, when the facts give it now: the third hand plays alone, the second hand (the
    dealer's partner) has led to the first trick before the dealer discarded (no discard recorded, or the
    one being recorded: ``discarding``), and the dealer has not yet played to that trick. None otherwise,
    and once a law 89 call has been made this deal (the right is used once)."""
    d = s.deal
    if d is None or d.void or d.trump_card is None or d.alone_seat != d.dealer.right or not d.plays:
        return None
    if not d.taken_up:  # trump named in the second round: the dealer takes nothing up
        return None
    if d.plays[0][0] != d.dealer.partner or any(st == d.dealer for st, _ in d.plays):
        return None
    if d.discards > (1 if discarding else 0) or any(call.clause == "EU-89" for call in d.calls):
        return None
    lone = d.alone_seat
    return Claim("EU-89", "Euchre, law 89", lone.side, d.dealer, "play_end",
                 f"{seat_name(s, d.dealer.partner)} led before the dealer had discarded", "call",
                 "The lone player made no demand on the dealer before he played to the trick.", LAW_89,
                 d.dealer, None, 1)


def register_discard(reg: Registry) -> None:
    """Laws 86-89."""

    @reg.clause("EU-86", "laws 86-89 (the discard)", "discard")
    def discard(c: Clause, s: TableState, e: CardDiscarded) -> Ruling | list[Ruling] | None:
        """The dealer's discard: final once made (86), open to exchange after an early lead (87), never
        the trump card (88); an early lead against a lone third hand gives the lone player a demand (89).
        Only a dealer who took the turned card up discards: an entry by another seat, or when the card was
        turned down and trump named, is not ruled and not kept (docs/events.md, ``discard``)."""
        d = s.deal
        if d is None or d.void or d.trump_card is None or e.seat != d.dealer or not d.taken_up:
            return None
        d.discards += 1
        if d.discards == 1 and d.played[d.dealer] and d.taken_up:
            return _played_before_discarding(s, d)
        early = bool(d.plays)
        if e.card is not None and e.card == d.trump_card:
            return Ruling(Remedy.ATTENTION, "Euchre, law 88", "EU-88", f"{seat_name(s, e.seat)} may not "
                          f"discard the trump card, the {e.card.name}; he discards another.", seat=e.seat)
        if d.discards > 1 and not early:
            return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)}'s discard was complete once under the "
                          "pack; it cannot be changed, and the first discard stands.", seat=e.seat)
        if e.card is not None and not _could_discard(d, e.card):
            d.discarded = None
            return c.rule(Remedy.ATTENTION, f"The discard recorded for {seat_name(s, e.seat)}, the "
                          f"{e.card.name}, is not among his five cards and the trump card: the table takes his "
                          "discard as not seen, and the director checks it.", seat=e.seat)
        d.discarded = e.card if e.card is not None else d.discarded
        if not early:
            return None
        right = early_lead(s, discarding=True)
        if right is not None and d.discards == 1:
            lone = d.alone_seat
            assert lone is not None
            return Ruling(Remedy.CLAIM_OPTION, right.law, right.clause, f"{right.why}: {seat_name(s, lone)}, "
                          f"playing alone, may require {seat_name(s, d.dealer)} to play his highest or lowest "
                          "card of the suit led, or to win or to lose the trick, until he plays to it.",
                          side=lone.side, seat=d.dealer, dealer=d.dealer,
                          extra={"until": right.until, "grants": "call", "trick": 1, "offender": d.dealer,
                                 "options": list(LAW_89), "lapse": right.lapse})
        first = d.plays[0][0]
        return Ruling(Remedy.ATTENTION, "Euchre, law 87", "EU-87", f"{seat_name(s, first)} led before the "
                      f"dealer's discard was finished: the lead stands, and {seat_name(s, d.dealer)} may "
                      "still exchange his discard.", seat=d.dealer)

    @reg.clause("EU-86", "law 86 (the discard is final)", "card_played")
    def discard_played(c: Clause, s: TableState, e: CardPlayed) -> Ruling | None:
        """The dealer plays the card recorded as his discard: a discard cannot be changed once under the
        pack (86), so the record and the play disagree. His revokes were judged on a hand without that
        card; from now on his discard is taken as not seen (a revoke charged only where certain whatever
        he discarded), and the director checks."""
        d = s.deal
        if d is None or d.void or e.seat != d.dealer or d.discarded is None or e.card != d.discarded:
            return None
        d.discarded = None
        return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} played the {e.card.name}, which the table "
                      "recorded as his discard, and a discard cannot be changed once it is under the pack: the "
                      "table takes his discard as not seen, and the director checks it.", seat=e.seat)

    @reg.clause("EU-89", "law 89", "card_played")
    def dealer_played(c: Clause, s: TableState, e: CardPlayed) -> Ruling | None:
        """The dealer plays to the trick law 89 concerns: a demand nobody made can no longer be made."""
        d = s.deal
        open_ = [cl for cl in s.claims if cl.clause == "EU-89"]
        if d is None or not open_ or e.seat != d.dealer:
            return None
        s.claims = [cl for cl in s.claims if cl.clause != "EU-89"]
        return c.rule(Remedy.DEAL_STANDS, open_[0].lapse, seat=e.seat, side=open_[0].side)


def _could_discard(d: DealState, card: Card) -> bool:
    """Whether ``card`` can be the dealer's discard: one of the five cards dealt to him or the trump card
    he took up. True when his hand is not known (a card of it not read, or no cards recorded)."""
    dealt = [c for st, c in d.dealt if st == d.dealer]
    if len(dealt) != len(d.hands[d.dealer]) or not dealt or any(c is None for c in dealt):
        return True
    return card in d.hands[d.dealer] or card == d.trump_card


def _played_before_discarding(s: TableState, d: DealState) -> list[Ruling]:
    """Law 90's second case, seen when the dealer's first discard comes after he played a card: the deal
    stands, his side forfeits 2 (4 in a lone hand) and scores nothing on the hand."""
    from laws.games.euchre_play import settle
    from laws.scoring.euchre import EuchreRubber

    score: EuchreRubber = s.game_state["score"]
    side = d.dealer.side
    head = Ruling(Remedy.DEAL_STANDS, "Euchre, law 90", "EU-90", f"{seat_name(s, d.dealer)} played before he had "
                  f"discarded: the deal holds and {side_text(side)} score nothing on this hand.",
                  seat=d.dealer, side=side)
    return [head, *settle(s, score.wrong_count(side, lone=d.alone_seat is not None, players=side_players(s)))]


def _out_of_turn(s: TableState, e: BidMade, due: Seat, rnd: int,
                 done: list[tuple[Seat, str, str | None, bool]]) -> list[Ruling]:
    d = s.deal
    assert d is not None and d.trump_card is not None
    passed = any(seat == e.seat for seat, _, _, _ in done)
    if passed and rnd == 1 and e.call == "order":
        d.silenced, d.silenced_by = e.seat.partner, "80"
        return [Ruling(Remedy.CLAIM_OPTION, "Euchre, law 80", "EU-80", f"{seat_name(s, e.seat)} passed and "
                       f"then ordered up: his partner {seat_name(s, e.seat.partner)} must pass, and "
                       f"{side_text(e.seat.side.other)} may hold them to the late order until the first "
                       "card is led.", side=e.seat.side.other, seat=e.seat, dealer=d.dealer,
                       extra={"until": "card_played", "grants": "call", "options": ["hold_order"],
                              "offender": e.seat, "lapse": "Nobody held the late order; it counts for "
                              "nothing."})]
    binds = e.seat == d.dealer and e.call == "pass" and rnd == 1
    if binds:
        d.silenced, d.silenced_by = d.dealer.partner, "82"
    return [Ruling(Remedy.ATTENTION, "Euchre, law 82", "EU-82", f"{seat_name(s, e.seat)} declared before "
                   f"{seat_name(s, due)}, whose turn it was; that takes no one's right away" +
                   (f", and the dealer's turning the card down binds {seat_name(s, d.dealer.partner)} to "
                    "pass." if binds else ", and it does not count."), seat=e.seat)]


def _in_turn(s: TableState, e: BidMade, rnd: int) -> list[Ruling]:
    d = s.deal
    assert d is not None and d.trump_card is not None
    turned = d.trump_card.suit
    if e.seat == d.silenced and e.call != "pass":
        d.bids.append((e.seat, "pass", None, False))
        law = d.silenced_by
        return [Ruling(Remedy.ATTENTION, f"Euchre, law {law}", f"EU-{law}", f"{seat_name(s, e.seat)} must pass "
                       "(his side's declaration bound him); it counts as a pass.", seat=e.seat)]
    if rnd == 1 and e.call == "name":
        law = {0: "74", 1: "75"}.get(order(d).index(e.seat), "76")
        return [Ruling(Remedy.ATTENTION, f"Euchre, law {law}", f"EU-{law}", f"{seat_name(s, e.seat)} named "
                       "a suit in the first round, where a player passes, accepts the turned card or goes "
                       "alone; he declares again.", seat=e.seat)]
    if rnd == 2 and (e.call == "order" or e.call == "name" and e.suit in (None, turned)):
        d.bids.append((e.seat, "pass", None, False))
        return [Ruling(Remedy.ATTENTION, "Euchre, law 78", "EU-78", f"{seat_name(s, e.seat)} named the suit "
                       "that was turned down, which counts as a pass.", seat=e.seat)]
    suit = turned if e.call == "order" else e.suit
    d.bids.append((e.seat, e.call, suit if e.call != "pass" else None, e.alone))
    if e.call != "pass" and suit is not None:
        _make(d, e.seat, suit, e.alone)
        return []
    if rounds(d)[0] == 3:
        d.void, d.void_by = True, "Euchre, law 77"
        s.phase = Phase.SHUFFLE
        return [Ruling(Remedy.ATTENTION, "Euchre, law 77", "EU-77", "All four passed in both rounds: the "
                       f"hand is dead, and the deal passes to {seat_name(s, d.dealer.left)}.",
                       dealer=d.dealer.left)]
    return []
