"""Duplicate bridge, what a player or the director raises at the table during or after the play (docs/laws.md
``DB-9``, ``DB-13``, ``DB-14``, ``BP-64``, ``BP-66-67``), ruled under the 2017 laws, not the rubber code.

* ``DB-9`` (``demand`` ``attention``): any player may draw attention to an irregularity and the director is
  called (law 9A1, 9B); during the play dummy may not (laws 9A4, 43A1): the ruling says so, and the
  director, who is called all the same, rules on what dummy did. Any other ``demand`` but ``revoke`` is
  not one a duplicate table takes (the pack, the shuffle, the cut and the deal are the board's, and the
  euchre calls are euchre's): refused with a message naming it.
* ``BP-64`` (``demand`` ``revoke``): a player alleges a revoke by the other side. The table looks in the
  tricks as played (law 66D) for the revokes the cards themselves prove: a player who did not follow the
  suit led and played a card of that suit to a later trick (``laws.bridge.revokes.proven``). What a
  physical board's table cannot see at the card (it does not know the hands held) it finds this way. Each
  one found is established (``BP-63``) and rectified by the same trick transfer as one seen at the card
  (``BP-64``, ``Play.rectification``): when play has ended the transfer and the new score follow at once,
  and a first side's confirmation of the old score no longer counts. Refused once both sides have
  confirmed the result (the round is over for this board, law 64B6: the director adjusts it in the
  session) and before the auction has closed.
* ``DB-14`` (``missing_card``): a missing card reported once the auction began. Before the opening lead
  it is restored to the short hand and the deal is treated as complete (law 14A); after the lead, found
  in a trick, the defective-trick law (law 67); found loose or with the short hand, it goes back to that
  hand (law 14B), and each earlier trick where that hand did not follow the card's suit is an established
  revoke, rectified as above. Found in another hand, or not found: the director rules (law 13 and 14).
* ``BP-66-67`` and ``DB-13`` (``surplus_card``): a card too many from a trick played short or a second
  card on a trick is a defective trick (law 67); one from the pack or the deal, a hand with too many
  cards (law 13). Either way the director puts it right.
"""

from __future__ import annotations

from laws.bridge.play import Play
from laws.bridge.tricks import Revoke, RevokeStatus
from laws.bridge.verdicts import name
from laws.cards import SUIT_NAMES, Card, Seat
from laws.duplicate.deal import SEAT_NAMES
from laws.events import DemandMade, MissingCardReported, SurplusCardFound
from laws.games import bridge_hand as bh
from laws.games import bridge_result
from laws.games import duplicate_board as db
from laws.games.base import Clause, Registry, side_text, the_card
from laws.rulings import Remedy, Ruling
from laws.state import TableState

_LAW = "Duplicate Bridge"
TAKEN = ("attention", "revoke")   # the demands a duplicate table takes (docs/events.md)


def register(reg: Registry) -> None:
    """The clauses, in the order they are tried."""

    @reg.clause("DB-9", "drawing attention to an irregularity (law 9)", "demand")
    def attention(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
        """Any player may draw attention to an irregularity and the director is called; during the play
        dummy may not."""
        if e.what not in TAKEN:
            raise ValueError(f"demand: '{e.what}' is not a demand a duplicate table takes (it takes "
                             "'attention', and 'revoke' once the auction has closed); the director rules at "
                             "the table")
        if e.what != "attention":
            return None
        h = bh.hand(s)
        play = h.play if h is not None else None
        who = SEAT_NAMES[e.seat]
        if play is not None and not play.ended and e.seat == play.dummy and (play.tricks or play.current.cards):
            return c.rule(Remedy.ATTENTION, f"{who} is dummy: during the play dummy may not draw attention to "
                          "an irregularity (laws 9A4 and 43A1); he may once play has ended. The director is "
                          "called and rules.", seat=e.seat, extra={"dummy": True})
        return c.rule(Remedy.ATTENTION, f"{who} draws attention to an irregularity: play waits and the "
                      "director is called to rule (law 9B).", seat=e.seat)

    @reg.clause("BP-64", "a revoke found in the tricks as played (laws 64 and 66)", "demand")
    def revoke(c: Clause, s: TableState, e: DemandMade) -> list[Ruling]:
        """A revoke alleged by a player: the ones the tricks as played prove are established and rectified."""
        if e.what != "revoke":
            return []
        b = db.board_of(s)
        h, play = bh.need_play(s, "revoke")
        if b is not None and b.done:
            raise ValueError(f"revoke: {b.place()}'s result is confirmed by both sides, so its round is over "
                             "at this table (law 64B6); the director adjusts it in the session")
        side = e.seat.side.other
        found = play.find_revokes(side)
        if not found:
            return [bh.rule(c.id, f"{play.code}, law 64", Remedy.ATTENTION, f"{SEAT_NAMES[e.seat]} alleges a revoke by {side_text(side)}: the "
                           "tricks as played prove none (a revoke shows when a player later plays a card of "
                           "the suit he did not follow). The director is called and may look further.",
                           seat=e.seat, extra={"alleged": side.value, "found": []})]
        return record_found(s, h, play, found, f"{SEAT_NAMES[e.seat]} alleged a revoke")

    @reg.clause("DB-14", "a missing card after the deal (law 14)", "missing_card")
    def missing(c: Clause, s: TableState, e: MissingCardReported) -> list[Ruling]:
        """A missing card reported once the auction began: restored before the lead; after it, the
        defective-trick law in a trick, else back to the short hand, an earlier failure to play it a revoke."""
        h = bh.hand(s)
        if h is None:
            return []
        card = the_card(e.card, capital=False)
        who = SEAT_NAMES[e.seat]
        facts = {"card": e.card.code if e.card else None, "found": e.found.value if isinstance(e.found, Seat)
                 else e.found}
        play = h.play
        if play is not None and play.ended:
            return [c.rule(Remedy.ATTENTION, f"{card[0].upper()}{card[1:]} missing from {who}'s hand was "
                           "reported after play ended: the director rules (laws 13 and 14).", seat=e.seat,
                           extra=facts)]
        if play is None or not (play.tricks or play.current.cards):
            if e.found is None or (isinstance(e.found, Seat) and e.found != e.seat):
                where = "was not found" if e.found is None else f"was found in {SEAT_NAMES[e.found]}'s hand"
                return [c.rule(Remedy.ATTENTION, f"{card[0].upper()}{card[1:]} missing from {who}'s hand "
                               f"{where}: the director rules (laws 13 and 14).", seat=e.seat, extra=facts)]
            return [c.rule(Remedy.DEEMED_TO_BELONG, f"{card[0].upper()}{card[1:]} missing from {who}'s hand "
                           "is restored to it before the opening lead, and the deal is treated as complete "
                           "(law 14A).", seat=e.seat, extra=facts)]
        if e.found == "trick":
            return [c.rule(Remedy.DEFECTIVE_TRICK, f"{card[0].upper()}{card[1:]} missing from {who}'s hand "
                           "was found among the played cards: the defective-trick law applies (law 67), and "
                           "the director puts the trick right.", seat=e.seat, extra=facts)]
        if e.found is None or (isinstance(e.found, Seat) and e.found != e.seat):
            where = "was not found" if e.found is None else f"was found in {SEAT_NAMES[e.found]}'s hand"
            return [c.rule(Remedy.ATTENTION, f"{card[0].upper()}{card[1:]} missing from {who}'s hand {where} "
                           "after the opening lead: the director rules (laws 13 and 14).", seat=e.seat,
                           extra=facts)]
        out = [c.rule(Remedy.DEEMED_TO_BELONG, f"{card[0].upper()}{card[1:]} turned up and goes back to {who}'s "
                      "hand (law 14B); it may be a penalty card if it was exposed, and not having played it "
                      "earlier may be a revoke.", seat=e.seat, extra=facts)]
        if e.card is None:
            return out
        found = _missed(play, e.seat, e.card)
        if found:
            out += record_found(s, h, play, found, f"{who} held the {e.card.name} all along")
        return out

    @reg.clause("BP-66-67", "a surplus card (laws 13 and 67)", "surplus_card")
    def surplus(c: Clause, s: TableState, e: SurplusCardFound) -> Ruling | None:
        """A card too many: from a trick, a defective trick (law 67); from the pack or the deal, a hand with
        too many cards (law 13). The director puts it right."""
        if bh.hand(s) is None:
            return None
        who = SEAT_NAMES[e.seat]
        if e.cause in ("play", "trick"):
            what = ("put a card too many on a trick" if e.cause == "trick" else
                    "has a card too many because a trick was left short of his card")
            return bh.rule(c.id, f"{_LAW}, law 67", Remedy.DEFECTIVE_TRICK, f"{who} {what}: a defective trick; "
                           "the director puts it right.", seat=e.seat, extra={"cause": e.cause})
        return bh.rule("DB-13", f"{_LAW}, law 13", Remedy.ATTENTION, f"{who} holds a card too many from the "
                       f"{e.cause}: a hand with the wrong number of cards (law 13); the director puts the board "
                       "right, or adjusts the score if play has gone too far.", seat=e.seat,
                       extra={"cause": e.cause})


def _missed(play: Play, seat: Seat, card: Card) -> list[Revoke]:
    """The revokes a card found after the lead proves: each completed trick of ``card``'s suit where ``seat``
    played another suit, before ``seat``'s side played to a later trick or not (every one of them is a
    trick its side has since played past, so established), none already recorded."""
    seen = {(r.seat, r.trick) for r in play.revokes}
    out = []
    for t in play.tricks:
        mine = t.cards.get(seat)
        if t.suit_led == card.suit and mine is not None and mine.suit != card.suit and (seat, t.number) not in seen:
            out.append(Revoke(seat, t.number, mine, card.suit, RevokeStatus.ESTABLISHED, by_dummy=seat == play.dummy))
    play.revokes.extend(out)
    return out


def record_found(s: TableState, h: bh.BridgeHand, play: Play, found: list[Revoke], how: str) -> list[Ruling]:
    """The rulings on revokes found after the card (already added to ``play.revokes``, established): a
    ``BP-63`` for each; once play has ended, their ``BP-64`` transfers (or the twelfth trick's ``BP-62``),
    with the board to be scored again (``DB-77`` follows, for the same entry). A transfer ruled before
    is not ruled again unless the revokes found changed it (``bridge_result.untold``)."""
    h.noted = len(play.revokes)                     # never noted at the card (BP-61): found after it
    out = []
    for r in found:
        h.told.append(play.revokes.index(r))
        out.append(bh.rule("BP-63", f"{play.code}, law 63", Remedy.ATTENTION, f"{how}: {name(r.seat)}'s "
                           f"{r.card.name} to the {SUIT_NAMES[r.suit][:-1]} lead in trick {r.trick} was a revoke, "
                           "now established. " + ("The tricks it moves follow." if play.ended else
                                                   "The tricks it moves are worked out when play ends."), seat=r.seat,
                           extra={"card": r.card.code, "trick": r.trick, "suit": r.suit, "found": True}))
    if not play.ended:
        return out
    b = db.board_of(s)
    if b is not None and b.result is not None:
        b.result = None                             # scored again below (DB-77), and confirmed again
        b.confirmed = {}
    h.scored = None
    if bridge_result.twelfth_open(play):
        return [*out, *bridge_result.twelfth_rulings(h)]
    return out + bridge_result.transfer_rulings(play.code, bridge_result.untold(h, play.rectification()))

