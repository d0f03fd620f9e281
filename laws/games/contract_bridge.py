"""Contract Bridge (rubber laws), seed A of ``docs/laws.md``, with modern rubber practice where the
seed is silent (the draw, the cut by dealer's right-hand opponent, packets of at least four cards).

Each clause carries its id from docs/laws.md. Interpretations of ours:

* A dealing irregularity the shoe sees (a card to the wrong seat, a second card to one seat) is ruled
  when it happens: the deal is void and the same dealer redeals (CB-redeal-incorrect, CB-redeal-how).
* Every redeal ruling names the pack dealt, which is dealt again (``pack``, CB-redeal-how), where the table
  knows it; a redeal then made with the other pack is not flagged.
* A deal out of turn or from an uncut pack opens a claim: any player may demand a redeal until the last
  card is dealt; after that the deal stands and the rotation passes on from the player who dealt.
* A card faced in the pack before the deal begins only calls for a new shuffle and cut.
* A damaged card found during the deal voids it: the same dealer deals again with a replacement pack.
  A damaged card of the *other* pack (the one not being dealt) replaces that pack only: the sound deal
  goes on, and the rotation with it.
* A deal of all 52 cards that ends with a card left in the shoe (``deal_end`` ``left_in_shoe``) was dealt
  from a pack of 53: a surplus card from an incorrect pack, so the same dealer redeals (CB-surplus-deal)
  once the players have taken that card out and put the pack right.
* Missing Card: the search and its outcome, in ``laws/games/bridge_missing.py``.
* The auction and the play as they are played (docs/laws.md ``BP-``): ``bridge_auction``, ``bridge_play``,
  ``bridge_result`` (claims, revokes rectified, the result checked), on the hand ``bridge_hand`` keeps.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from laws.cards import RANKS, clockwise_from, full_pack
from laws.events import (
    CardDealt,
    CardFaced,
    CardsDrawn,
    DamagedCardFound,
    DealEnded,
    DealStarted,
    DemandMade,
    HandCounted,
    PackCut,
    PlayEnded,
    ResultRecorded,
    RevokeCorrected,
    SurplusCardFound,
    WrongHandPicked,
)
from laws.games import bridge_auction, bridge_hand, bridge_missing, bridge_play, bridge_result
from laws.games.base import (
    Clause,
    GameRules,
    Registry,
    cut_fault,
    grant_claim,
    seat_name,
    set_aside_dealt,
    side_players,
    side_text,
    the_card,
)
from laws.rulings import Remedy, Ruling
from laws.state import UNKNOWN_PACKS, Phase, TableState

NAME = "contract-bridge"
PACK = full_pack(RANKS)
HAND = 13
MIN_PACKET = 4

reg = Registry("Contract Bridge")
_BEFORE_DEAL = (Phase.FORMING, Phase.SHUFFLE, Phase.CUT)


def _dealing(s: TableState) -> bool:
    return s.phase == Phase.DEALING and s.deal is not None and not s.deal.void


# -- forming the table --------------------------------------------------------------------------------

@reg.clause("CB-draw", "draw for partners (modern practice)", "draw")
def draw(c: Clause, s: TableState, e: CardsDrawn) -> list[Ruling]:
    """The draw: highest card deals, the two highest play together, ties broken by suit.

    A draw begins a rubber (CB-rubber: a new draw, then a new rubber), so a draw that forms the table
    while a rubber is under way (a hand scored, no side two games) closes that rubber first, unfinished
    and scored as such, naming who played for each side: the score stays with those players, and the
    new partnerships start a rubber of their own from nothing, whatever seats they take."""
    from laws.formation import bridge_draw
    from laws.scoring.bridge import RubberScore
    out = _set_aside(s, bridge_draw(e.cuts, seats=e.seats))   # a draw refused (bad seats) changes nothing
    score: RubberScore = s.game_state["score"]
    if score.hands == 0 or score.over or not any(r.remedy is Remedy.FORMATION for r in out):
        return out
    closed = score.unfinished(side_players(s))
    s.game_state["score"] = RubberScore()
    return closed + out


def _set_aside(s: TableState, out: list[Ruling]) -> list[Ruling]:
    """A draw that forms the table while a hand dealt before it is bid, played or awaits its result sets
    that deal aside (``set_aside_dealt``); a hand already scored from its cards is over and untouched."""
    d = s.deal
    if d is None or not d.ended or bridge_hand.scored_from_cards(s):
        return out
    return set_aside_dealt(s, out)


# -- shuffle and cut ----------------------------------------------------------------------------------

@reg.clause("CB-cut-faced", "New Shuffle and Cut", "cut", "card_faced")
def cut_faced(c: Clause, s: TableState, e: PackCut | CardFaced) -> Ruling | None:
    """A card faced in cutting forces a new shuffle and cut."""
    if isinstance(e, PackCut) and not (e.faced or (e.exposed or 0) > 0):   # a card exposed is a card faced
        return None
    if isinstance(e, CardFaced) and (e.where != "cut" or s.phase not in _BEFORE_DEAL):
        return None
    what = f"{the_card(e.card)}" if isinstance(e, CardFaced) else "A card"
    return c.rule(Remedy.NEW_SHUFFLE_AND_CUT,
                  f"{what} was faced in the cut, so the pack is shuffled and cut again.",
                  dealer=s.next_dealer)


@reg.clause("CB-cut-practice", "the cut (modern practice)", "cut")
def cut_practice(c: Clause, s: TableState, e: PackCut) -> Ruling | None:
    """The dealer's right-hand opponent cuts, leaving at least four cards in each portion."""
    return cut_fault(c, s, e.seat, e.top, e.bottom, MIN_PACKET)


@reg.clause("CB-shuffle-demand", "New Shuffle and Cut", "demand")
def shuffle_demand(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
    """Any player may demand a new shuffle and cut before the first card is dealt."""
    if e.what not in ("new_shuffle", "new_cut"):
        return None
    who = seat_name(s, e.seat)
    if s.phase in _BEFORE_DEAL or (_dealing(s) and s.deal is not None and s.deal.cards_dealt == 0):
        return c.rule(Remedy.NEW_SHUFFLE_AND_CUT, f"{who} asked for a new shuffle and cut before the "
                      "first card was dealt, which any player may do.", seat=e.seat, dealer=s.next_dealer)
    return c.rule(Remedy.DEAL_STANDS, f"{who} asked for a new shuffle and cut after the first card was "
                  "dealt; that is too late, so the deal goes on.", seat=e.seat)


# -- the deal -----------------------------------------------------------------------------------------

@reg.clause("CB-redeal-out-of-turn", "Redeal (dealing out of turn)", "deal_start")
def out_of_turn(c: Clause, s: TableState, e: DealStarted) -> Ruling | None:
    """Dealing out of turn: a redeal by the correct dealer if demanded before the last card."""
    expected = s.next_dealer
    if expected is None or e.dealer == expected:
        return None
    return c.rule(Remedy.CLAIM_OPTION, f"{seat_name(s, e.dealer)} is dealing, but it is "
                  f"{seat_name(s, expected)}'s deal; any player may demand a redeal before the last card "
                  "is dealt.", dealer=expected, seat=e.dealer, extra={"until": "deal_end"})


@reg.clause("CB-redeal-uncut", "Redeal (uncut pack)", "deal_start")
def uncut(c: Clause, s: TableState, e: DealStarted) -> Ruling | None:
    """Dealing an uncut pack: a redeal if demanded before the last card."""
    if s.cut_done:
        return None
    dealer = e.dealer if s.next_dealer is None or e.dealer == s.next_dealer else s.next_dealer
    return c.rule(Remedy.CLAIM_OPTION, f"{seat_name(s, e.dealer)} began dealing a pack that was not cut; "
                  "any player may demand a redeal before the last card is dealt.", dealer=dealer,
                  extra={"until": "deal_end"})


@reg.clause("CB-redeal-incorrect", "Redeal (cards not dealt correctly)", "card_dealt")
def incorrect(c: Clause, s: TableState, e: CardDealt) -> Ruling | None:
    """Cards go one at a time, clockwise, starting at the dealer's left."""
    d = s.deal
    if d is None or d.cards_dealt >= len(PACK):
        return None
    want = clockwise_from(d.dealer.left)[d.cards_dealt % 4]
    if e.seat == want:
        return None
    last = d.dealt[-1][0] if d.dealt else None
    how = "a second card in a row" if last == e.seat else "a card out of rotation"
    return c.rule(Remedy.REDEAL, f"Card {d.cards_dealt + 1} went to {seat_name(s, e.seat)}, {how}; it "
                  f"should have gone to {seat_name(s, want)}.", dealer=d.rightful_dealer, seat=e.seat)


@reg.clause("CB-surplus-deal", "Surplus Card", "card_dealt", "surplus_card", "deal_end")
def surplus_deal(c: Clause, s: TableState, e: CardDealt | SurplusCardFound | DealEnded) -> Ruling | None:
    """A surplus card from an incorrect pack or deal: redeal."""
    d = s.deal
    if isinstance(e, DealEnded):
        return _left_in_shoe(c, s, e)
    if isinstance(e, SurplusCardFound):
        if e.cause in ("play", "trick"):
            return None
        dealer = d.rightful_dealer if d else s.next_dealer
        return c.rule(Remedy.REDEAL, f"{seat_name(s, e.seat)} holds a surplus card from an incorrect "
                      f"{e.cause}.", dealer=dealer, seat=e.seat)
    if d is None:
        return None
    if e.card is not None and e.card in d.seen:
        why = f"A second {e.card.name} was dealt to {seat_name(s, e.seat)}: the pack is not correct."
    elif e.pack is not None and e.pack != d.pack and d.known_pack is not None:
        why = (f"{the_card(e.card)} dealt to {seat_name(s, e.seat)} belongs to pack {e.pack}, "
               f"not to pack {d.pack} in use.")
    elif d.cards_dealt >= len(PACK):
        why = f"A card beyond the {len(PACK)} of the pack was dealt to {seat_name(s, e.seat)}."
    else:
        return None
    return c.rule(Remedy.REDEAL, why, dealer=d.rightful_dealer, seat=e.seat, pack=d.pack)


def _left_in_shoe(c: Clause, s: TableState, e: DealEnded) -> Ruling | None:
    """All 52 cards were dealt and the shoe still holds a card (its ``left_in_shoe`` flag): the pack held a
    card too many, so the deal is void. What the card is the players see, not the table (the shoe never
    read it): a second copy of a card dealt, or a card of another pack. Not at a deal the link lost cards
    of (``lost``: the table does not know what was dealt) nor one short of 52 (``CB-missing-search``)."""
    d = s.deal
    if d is None or e.lost or not e.left_in_shoe or d.cards_dealt < len(PACK):
        return None
    return c.rule(Remedy.REDEAL, f"All {len(PACK)} cards were dealt and a card is left in the shoe: the pack "
                  "holds a card too many. Take the card left in the shoe out and look at it (a second copy of "
                  "a card, or another pack's card); the same dealer deals again once the pack is put right.",
                  dealer=d.rightful_dealer)


@reg.clause("CB-redeal-faced", "Redeal (card faced)", "card_dealt", "card_faced")
def faced(c: Clause, s: TableState, e: CardDealt | CardFaced) -> Ruling | None:
    """A card faced in the pack or elsewhere during the deal: redeal."""
    if isinstance(e, CardDealt):
        if not e.face_up or s.deal is None:
            return None
        return c.rule(Remedy.REDEAL, f"{the_card(e.card)} left the pack face up towards "
                      f"{seat_name(s, e.seat)}.", dealer=s.deal.rightful_dealer, seat=e.seat)
    if e.where == "cut":
        return None  # CB-cut-faced
    # a card_faced names no card when whoever saw it could not (or the director did not): "a card", not
    # "an unreadable card", which says the card's code failed
    card = the_card(e.card) if e.card is not None else "A card"
    if s.phase in _BEFORE_DEAL and e.where == "pack":
        return c.rule(Remedy.NEW_SHUFFLE_AND_CUT, f"{card} was seen faced in the pack "
                      "before the deal; shuffling and cutting again puts that right.", dealer=s.next_dealer)
    if not _dealing(s) or s.deal is None:
        return None
    if e.where == "hand":  # a hand laid face up during the deal: its cards are faced "elsewhere"
        if e.by is None:
            return None  # docs/events.md: a hand laid down counts only with the seat that laid it
        return c.rule(Remedy.REDEAL, f"{seat_name(s, e.by)} laid his cards face up during the deal.",
                      dealer=s.deal.rightful_dealer, seat=e.by)
    where = {"pack": "in the pack", "deal": "during the deal", "trump": "during the deal",
             "table": "on the table during the deal"}.get(e.where, "during the deal")
    return c.rule(Remedy.REDEAL, f"{card} was faced {where}.",
                  dealer=s.deal.rightful_dealer, seat=e.by)


# -- the pack -----------------------------------------------------------------------------------------

@reg.clause("CB-pack-damaged", "Changing the Pack", "damaged_card", "card_dealt")
def pack_damaged(c: Clause, s: TableState, e: DamagedCardFound | CardDealt) -> Ruling | None:
    """A pack with a distinguishable damaged card is replaced."""
    if isinstance(e, CardDealt):
        if e.card is not None:
            return None
        pack = s.deal.pack if s.deal else None
        why = f"A card dealt to {seat_name(s, e.seat)} could not be read, so it is marked or damaged"
    else:
        if not e.distinguishable:
            return None
        pack = e.pack
        why = f"{the_card(e.card)} of pack {e.pack} is damaged and can be told from its back"
    d = s.deal
    if _dealing(s) and d is not None and not _other_pack(pack, d.pack):
        return c.rule(Remedy.REPLACE_PACK, f"{why}; the deal stops and the same dealer deals again "
                      "with a replacement pack.", pack=pack, dealer=d.rightful_dealer)
    if _dealing(s) and d is not None:
        return c.rule(Remedy.REPLACE_PACK, f"{why}; pack {d.pack} is in use, so this deal goes on and "
                      f"pack {pack} is replaced before it is dealt again.", pack=pack)
    return c.rule(Remedy.REPLACE_PACK, f"{why}; the pack is replaced before the next deal.", pack=pack)


def _other_pack(damaged: str | None, in_use: str) -> bool:
    """Whether the damaged card's pack is known to be another than the one being dealt (a deal whose
    pack is not yet known counts as dealing it)."""
    return damaged is not None and in_use not in ("", "unknown") and damaged != in_use


@reg.clause("CB-pack-reclaim", "Changing the Pack", "demand")
def pack_reclaim(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
    """A side's own pack is restored when that side reclaims it."""
    if e.what != "restore_pack":
        return None
    side = e.seat.side
    pack = s.pack_owners.get(side)
    if pack is None:
        return c.rule(Remedy.ATTENTION, f"{side_text(side)} reclaim their pack, but no pack is recorded "
                      "as theirs; the director records the packs.", seat=e.seat, side=side)
    return c.rule(Remedy.RESTORE_PACK, f"{side_text(side)} reclaim their own pack {pack}; it is restored "
                  "for the next deal.", seat=e.seat, side=side, pack=pack)


bridge_missing.register(reg, PACK, HAND)


@reg.clause("CB-surplus-play", "Surplus Card", "surplus_card")
def surplus_play(c: Clause, s: TableState, e: SurplusCardFound) -> Ruling | None:
    """A surplus card from failing to play to a trick (or a card too many in one): defective trick."""
    if e.cause not in ("play", "trick"):
        return None
    if e.cause == "trick":
        what = "put a card too many on a trick, so his hand is a card short"
    else:
        what = "has a card too many because a trick was left short of his card"
    return c.rule(Remedy.DEFECTIVE_TRICK, f"{seat_name(s, e.seat)} {what}; it is corrected under the "
                  "defective-trick law.", seat=e.seat)


@reg.clause("CB-redeal-wrong-hand", "Redeal (wrong hand)", "wrong_hand")
def wrong_hand(c: Clause, s: TableState, e: WrongHandPicked) -> Ruling | None:
    """A player who picks up the wrong hand and looks at it causes a redeal."""
    if not e.looked:
        return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} picked up the wrong hand without "
                      "looking at it; the hands go back and the deal stands.", seat=e.seat)
    return c.rule(Remedy.REDEAL, f"{seat_name(s, e.seat)} picked up another player's hand and looked "
                  "at it.", dealer=s.deal.rightful_dealer if s.deal else s.next_dealer, seat=e.seat)


@reg.clause("CB-redeal-miscount", "Redeal (too many and too few)", "hand_count")
def miscount(c: Clause, s: TableState, e: HandCounted) -> Ruling | None:
    """One hand too many and another too few, found before the end of play: redeal."""
    d = s.deal
    if d is None:
        return None
    counts = {**d.reported_counts, e.seat: e.count}
    off = {seat: n - d.expected_in_hand(seat) for seat, n in counts.items()
           if n != d.expected_in_hand(seat)}
    over = [seat for seat, diff in off.items() if diff > 0]
    under = [seat for seat, diff in off.items() if diff < 0]
    if not off:
        return None
    if s.phase == Phase.SCORING:
        return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} counted {e.count} cards after play "
                      "ended; a miscount found that late does not cancel the deal.", seat=e.seat)
    if over and under:
        return c.rule(Remedy.REDEAL, f"{seat_name(s, over[0])} holds {counts[over[0]]} cards "
                      f"and {seat_name(s, under[0])} holds {counts[under[0]]}.",
                      dealer=d.rightful_dealer, seat=over[0])
    return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} counts {e.count} cards where "
                  f"{d.expected_in_hand(e.seat)} are expected; the other hands are counted before any "
                  "ruling.", seat=e.seat)


TAKEN = ("new_shuffle", "new_cut", "redeal", "new_deal", "restore_pack", "new_cards", "attention")
"""The demands a rubber table takes (docs/events.md); the rest are euchre's, refused here."""


@reg.clause("CB-attention", "Drawing Attention to an Irregularity", "demand")
def attention(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
    """Any player may draw attention to an irregularity and ask what the law says. A demand no clause of
    a rubber table takes is refused here, so that nobody thinks it recorded (the clauses before this one
    pass over it unchanged)."""
    if e.what not in TAKEN:
        raise ValueError(f"demand: '{e.what}' is not a demand a rubber bridge table takes (it takes "
                         f"{', '.join(TAKEN)}); draw attention and the director rules")
    if e.what not in ("attention", "new_cards"):
        return None
    if e.what == "new_cards":
        return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} asks for fresh cards; the laws change a "
                      "pack only when a card is damaged or a side reclaims its own.", seat=e.seat)
    open_ = "; ".join(cl.why for cl in s.claims)
    return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} draws attention to an irregularity; play "
                  "pauses while the law is looked up" + (f" (open: {open_})" if open_ else "") + ".",
                  seat=e.seat)


@reg.clause("CB-redeal-demand", "Redeal", "demand")
def redeal_demand(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
    """A demand for a redeal is granted while a claim for one is open; otherwise the deal stands."""
    if e.what not in ("redeal", "new_deal"):
        return None
    granted = grant_claim(s, e.seat, "demanded a redeal")
    if granted is not None:
        return granted
    why = ("the last card has been dealt" if s.deal is not None and s.phase != Phase.DEALING
           else "no irregularity gives a right to one")
    return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} demanded a redeal, but {why}.",
                  seat=e.seat)


# -- the auction and the play (BP-), then scoring -----------------------------------------------------

bridge_auction.register(reg)   # the rubber code governs here: the auction is made a rubber table's
bridge_play.register(reg)      # (bridge_hand.start), so its rulings cite "Rubber Bridge, law N"
bridge_result.register(reg)


@reg.clause("CB-rubber", "rubber scoring", "result", "play_end", "correct")
def rubber(c: Clause, s: TableState, e: ResultRecorded | PlayEnded | RevokeCorrected) -> list[Ruling]:
    """Rubber scoring: trick and premium points; two games win the rubber. The result is the cards'
    when the table recorded the auction and play (at the end of play), the typed one otherwise."""
    from laws.scoring.bridge import RubberScore
    score: RubberScore = s.game_state["score"]
    args = bridge_result.score_args(s, e if isinstance(e, ResultRecorded) else None)
    if args is None:
        return []
    declarer, contract, tricks, honours = args
    out = score.record(declarer, contract, tricks, honours, players=side_players(s))   # rubber_won names them
    if any(r.remedy is Remedy.RUBBER_WON for r in out):
        s.game_state["score"] = RubberScore()
    return out


def _setup(state: TableState) -> None:
    from laws.scoring.bridge import RubberScore
    state.game_state["score"] = RubberScore()


def _redeal_names_its_pack(clause: Clause) -> Clause:
    """CB-redeal-how: a redeal is made with the same pack, so every redeal ruling names it (``pack``), as
    it names who deals (``dealer``); left out while the table does not know the pack. One rule for every
    clause that redeals (the claims a demand grants among them), so none can leave it out."""
    def fn(c: Clause, s: TableState, e: Any) -> list[Ruling]:
        d = s.deal
        pack = d.known_pack if d is not None else None
        if pack is None and d is not None and isinstance(e, CardDealt) and e.pack not in (None, *UNKNOWN_PACKS):
            pack = e.pack   # a shoe that could not name the pack names it with its first card
        return [replace(r, pack=pack) if r.remedy is Remedy.REDEAL and r.pack is None and pack is not None
                else r for r in clause(s, e)]
    return replace(clause, fn=fn)


RULES = GameRules(name=NAME, title="Contract Bridge", pack=PACK, hand_size=HAND, cards_dealt=len(PACK),
                  claims_close="deal_end", clauses=tuple(_redeal_names_its_pack(c) for c in reg.clauses),
                  setup=_setup,
                  ends_play=bridge_hand.play_over)
