"""Euchre: the Somerset Club laws of 1888 (seed B of ``docs/laws.md``).

Clause ids are ``EU-<law>``. Interpretations of ours, stated here and in the rulings:

* Laws 41-42 (misdeal) apply to what the shoe sees during the deal: a wrong packet, a wrong seat, a
  hand that is not five cards when the deal ends or the trump card is turned. Law 90 applies to a count
  error first found after the trump card is turned; the deal then holds.
* A "new deal" under laws 33, 34, 39 and after a claim under 35-38 is made by the same dealer; a misdeal
  (laws 41-42) loses the deal to the player on the dealer's left.
* A deal from a pack nobody cut is treated like a deal out of turn (law 40): it can be stopped until the
  trump card is turned (our reading of law 29, which gives the cut to the right-hand opponent).
* A card exposed during the deal with no exposer known is taken as exposed by the dealer (law 35).
* Law 24: the right to shuffle once is taken by shuffling or by a ``demand``; a player who has shuffled
  is refused a second one; a false cut (law 29) or a new deal renews it. The dealer's shuffle is his once
  too: law 27 (the exception law 24 names) lets him shuffle again only to be last, after another player
  shuffled after him, or when his adversaries compel a reshuffle; two of his own in a row are a second.
* Law 27 is a right: the dealer need not shuffle last. A card seen while the pack is with the dealer
  (the event's ``by``, else the last recorded shuffler, else the dealer) lets his adversaries demand a
  reshuffle until the deal starts; a face shown while another player shuffles is only noted (law 22).
* Laws 35-36: touching is entered by button (``deal_interrupted`` ``touched``). The adversaries lose
  their claim if either touched his cards, the dealer if his partner did, unless the touch replied to
  one by the other side. Law 37: "one of the last cards" is one of the last three (the largest packet);
  such a claim lasts past the turn-up until the first card is led. Law 43: the first touch decides.
* Rights are claims (docs/laws.md): where a law says a player or side "may", the engine offers a
  ``claim_option`` and acts only on the ``demand`` that takes it. Law 44: after a misdeal that follows a
  wrong interruption, the dealer's side may claim that he deal again (until the next deal starts); the
  deal is void at once, and unclaimed the misdeal costs the deal as law 41 (or 45) says. The button does
  not say what was disputed; to a deal out of turn the objection may have been right, so no claim then.
* Laws 46-61 are in ``euchre_tricks`` (their demands in ``euchre_calls``), 74-82 and 86-89 in ``euchre_bidding``.
"""

from __future__ import annotations

from laws.cards import Seat, Side, full_pack
from laws.events import (
    CardDealt,
    CardFaced,
    CardPlayed,
    DamagedCardFound,
    DealEnded,
    DealStarted,
    DemandMade,
    MissingCardReported,
    PackCut,
    PackShuffled,
    SurplusCardFound,
    TrumpTurned,
    WrongHandPicked,
)
from laws.games import euchre_bidding, euchre_calls, euchre_play, euchre_tricks
from laws.games.base import Clause as C
from laws.games.base import (
    GameRules,
    Registry,
    cut_fault,
    grant_claim,
    open_claims_for,
    seat_name,
    side_text,
    the_card,
)
from laws.games.euchre_deal import pattern_fault
from laws.rulings import Remedy, Ruling
from laws.state import Phase, TableState

NAME = "euchre"
PACK = full_pack("AKQJT987")
HAND = 5
DEALT = 20
MIN_PACKET = 4

reg = Registry("Euchre")
_BEFORE_DEAL = (Phase.FORMING, Phase.SHUFFLE, Phase.CUT)


def _live(s: TableState) -> bool:
    """A deal is under way (dealing, or dealt and not yet led to)."""
    return s.deal is not None and not s.deal.void and s.phase in (Phase.DEALING, Phase.AUCTION)


def _new_deal(c: C, s: TableState, why: str, **kw: object) -> Ruling:
    dealer = s.deal.rightful_dealer if s.deal else s.next_dealer
    return c.rule(Remedy.REDEAL, f"{why} A new deal follows, by the same dealer; earlier points stand.",
                  dealer=dealer, **kw)


def _new_pack(c: C, s: TableState, why: str, **kw: object) -> Ruling:
    """A new deal by the same dealer with a replacement pack (docs/events.md, "Packs: replaced and
    restored"): a damaged or unreadable card, or a card no euchre pack holds, is still in the pack, so
    dealing the same pack again would stop at the same card, deal after deal."""
    dealer = s.deal.rightful_dealer if s.deal else s.next_dealer
    return c.rule(Remedy.REPLACE_PACK, f"{why} The deal stops; the same dealer deals again with a "
                  "replacement pack; earlier points stand.", dealer=dealer, **kw)


# -- forming the table (laws 8-21) ---------------------------------------------------------------------
euchre_play.register_forming(reg)


# -- shuffling (laws 22-27) ----------------------------------------------------------------------------

@reg.clause("EU-23", "law 23", "shuffle")
def no_shuffle_in_play(c: C, s: TableState, e: PackShuffled) -> Ruling | None:
    """No shuffling while a hand is being played."""
    if s.phase != Phase.PLAY:
        return None
    return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} shuffled while the hand was being played; "
                  "the cards stay as they are until the hand ends.", seat=e.seat)


_ONCE = ("each player shuffles once, and the dealer again only to be last after another player's shuffle, "
         "or when his adversaries compel it (law 27).")


def _second_shuffle(s: TableState, seat: Seat) -> bool:
    """Whether a shuffle by ``seat`` now would be his second (law 24). The dealer's right to shuffle last
    (law 27) is a right to the last shuffle, not to a second one: he may shuffle again after another
    player's shuffle, not straight after his own (the pack is already his last), unless his adversaries
    compelled a reshuffle."""
    if seat not in s.shuffles:
        return False
    if seat != s.next_dealer:
        return True
    return s.shuffles[-1] == seat and s.reshuffle_owed != seat


@reg.clause("EU-24", "law 24", "shuffle")
def shuffle_once(c: C, s: TableState, e: PackShuffled) -> Ruling | None:
    """Each player has the right to shuffle once; the dealer again only as law 27 provides."""
    if s.phase not in (Phase.FORMING, Phase.SHUFFLE):
        return None
    if not _second_shuffle(s, e.seat):
        if e.seat == s.reshuffle_owed:
            s.reshuffle_owed = None   # the compelled reshuffle is made
        return None
    return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} shuffled a second time; {_ONCE}", seat=e.seat)


def _shuffler(s: TableState, e: CardFaced) -> Seat | None:
    """Who had the pack when a card of it was seen before the deal: the event's ``by``, else the last
    recorded shuffler, else the dealer (who holds the pack from his shuffle until it is cut)."""
    return e.by or (s.shuffles[-1] if s.shuffles else s.next_dealer)


@reg.clause("EU-27", "law 27", "card_faced")
def card_seen_in_shuffle(c: C, s: TableState, e: CardFaced) -> Ruling | None:
    """A card seen while the dealer shuffles or hands the pack to be cut: his adversaries may compel a
    reshuffle (a right they may use until the deal starts, never applied by itself)."""
    dealer = s.next_dealer
    if e.where != "pack" or s.phase not in _BEFORE_DEAL or dealer is None or _shuffler(s, e) != dealer:
        return None
    side = dealer.side.other
    return c.rule(Remedy.CLAIM_OPTION, f"{the_card(e.card)} was seen while the dealer, "
                  f"{seat_name(s, dealer)}, had the pack; {side_text(side)} may demand that he shuffle "
                  "again, until the deal starts.", side=side, dealer=dealer, seat=dealer,
                  extra={"until": "deal_start", "grants": Remedy.RESHUFFLE.value,
                         "lapse": f"No reshuffle was demanded after {the_card(e.card, capital=False)} "
                                  "was seen, so the pack is dealt as it is."})


@reg.clause("EU-22", "law 22", "card_faced")
def face_shown_in_shuffle(c: C, s: TableState, e: CardFaced) -> Ruling | None:
    """A face shown while a player other than the dealer shuffles: the law forbids it but gives no
    remedy; the dealer's last shuffle (law 27) is the cure."""
    if e.where != "pack" or s.phase not in _BEFORE_DEAL:
        return None
    who = _shuffler(s, e)
    if who is not None and who == s.next_dealer:
        return None
    return c.rule(Remedy.ATTENTION, f"{the_card(e.card)} was shown while "
                  f"{seat_name(s, who) if who else 'a player'} shuffled; the shuffle must hide the faces, "
                  "and the dealer may still shuffle last.", seat=who)


# -- the cut (laws 29-32) ------------------------------------------------------------------------------

@reg.clause("EU-29", "law 29", "cut", "card_faced")
def exposed_in_cut(c: C, s: TableState, e: PackCut | CardFaced) -> Ruling | None:
    """A card exposed in cutting, or confusion in the cut: a fresh cut."""
    if isinstance(e, CardFaced):
        if e.where != "cut" or s.phase not in _BEFORE_DEAL:
            return None
        what = the_card(e.card, capital=False)
    elif s.phase != Phase.CUT and (e.faced or (e.exposed or 0) > 0):
        what = f"{e.exposed or 1} card(s)"
    else:
        return None
    return c.rule(Remedy.NEW_CUT, f"In cutting, {what} were exposed, so the pack is cut afresh.",
                  dealer=s.next_dealer)


@reg.clause("EU-30", "law 30", "cut", "shuffle")
def no_recut(c: C, s: TableState, e: PackCut | PackShuffled) -> Ruling | None:
    """Once the pack is cut and the packets separated, it is neither cut again nor shuffled by the cutter (a
    dealer who shuffles after the cut is ``EU-31``'s)."""
    if s.phase != Phase.CUT:
        return None
    if isinstance(e, PackShuffled):
        if e.seat == s.next_dealer:
            return None
        return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} shuffled a pack that was already cut; once "
                      "cut it is not shuffled again. It has been, so it is cut again before the deal.", seat=e.seat)
    return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} cut a pack that was already cut; the first "
                  "cut stands.", seat=e.seat)


@reg.clause("EU-29", "law 29", "cut")
def right_hand_cuts(c: C, s: TableState, e: PackCut) -> Ruling | None:
    """The dealer's right-hand opponent cuts, each packet holding at least four cards."""
    if s.phase == Phase.CUT:
        return None
    return cut_fault(c, s, e.seat, e.top, e.bottom, MIN_PACKET)


@reg.clause("EU-31", "law 31", "shuffle")
def reshuffle_after_cut(c: C, s: TableState, e: PackShuffled) -> Ruling | None:
    """A dealer who shuffles again after the cut loses the deal."""
    dealer = s.next_dealer
    if s.phase != Phase.CUT or dealer is None or e.seat != dealer:
        return None
    return c.rule(Remedy.LOSE_DEAL, f"{seat_name(s, dealer)} shuffled again after the cut and loses the "
                  f"deal to {seat_name(s, dealer.left)}.", dealer=dealer.left, seat=dealer)


@reg.clause("EU-72", "law 72", "demand")
def new_cards(c: C, s: TableState, e: DemandMade) -> Ruling | None:
    """Before the cut, any player may call for fresh cards."""
    if e.what != "new_cards":
        return None
    if s.phase in (Phase.FORMING, Phase.SHUFFLE):
        return c.rule(Remedy.NEW_CARDS, f"{seat_name(s, e.seat)} called for fresh cards before the cut, "
                      "which any player may do.", seat=e.seat)
    return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} called for fresh cards after the cut; that "
                  "is too late for this deal.", seat=e.seat)


@reg.clause("EU-24", "law 24", "demand")
def shuffle_demand(c: C, s: TableState, e: DemandMade) -> Ruling | None:
    """A demand to shuffle: granted under law 27 while a card seen in the dealer's hands allows it; else
    each player may shuffle once before the cut (law 24) and nobody after it (law 30)."""
    if e.what not in ("new_shuffle", "new_cut"):
        return None
    granted = grant_claim(s, e.seat, "demanded a reshuffle", grants=Remedy.RESHUFFLE.value)
    if granted is not None:
        s.reshuffle_owed = granted.dealer
        return granted
    if s.phase in (Phase.FORMING, Phase.SHUFFLE) and _second_shuffle(s, e.seat):
        return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} asked to shuffle again; {_ONCE}", seat=e.seat)
    if s.phase in (Phase.FORMING, Phase.SHUFFLE):
        return c.rule(Remedy.RESHUFFLE, f"{seat_name(s, e.seat)} asked to shuffle; each player may shuffle "
                      "once, the dealer last, before the cut.", seat=e.seat, dealer=s.next_dealer)
    return Ruling(Remedy.DEAL_STANDS, "Euchre, law 30", "EU-30", f"{seat_name(s, e.seat)} asked for a "
                  "new shuffle or cut after the pack was cut; once cut it is neither shuffled nor cut "
                  "again.", seat=e.seat)


# -- the deal (laws 33-45) -----------------------------------------------------------------------------

@reg.clause("EU-40", "law 40 (the turn to deal, law 28)", "deal_start")
def out_of_turn(c: C, s: TableState, e: DealStarted) -> Ruling | None:
    """A deal out of turn may be stopped before the trump card is turned."""
    expected = s.next_dealer
    rightful = e.on_behalf_of or e.dealer
    if expected is None or rightful == expected:
        return None
    return c.rule(Remedy.CLAIM_OPTION, f"{seat_name(s, e.dealer)} is dealing, but the deal belongs to "
                  f"{seat_name(s, expected)}; it can be stopped until the trump card is turned.",
                  dealer=expected, seat=e.dealer, extra={"until": "trump_turned"})


@reg.clause("EU-38", "law 38", "deal_start")
def wrong_pack(c: C, s: TableState, e: DealStarted) -> Ruling | None:
    """A deal with the opponents' pack: a new deal may be claimed until the trump card is turned."""
    owner = s.side_of_pack(e.pack)
    side = (e.on_behalf_of or e.dealer).side
    if owner is None or owner == side:
        return None
    return c.rule(Remedy.CLAIM_OPTION, f"{seat_name(s, e.dealer)} is dealing with pack {e.pack}, which "
                  f"belongs to {side_text(owner)}; a new deal may be claimed until the trump card is "
                  "turned.", dealer=e.on_behalf_of or e.dealer, side=side.other, pack=e.pack,
                  extra={"until": "trump_turned"})


@reg.clause("EU-29-uncut", "law 29", "deal_start")
def uncut(c: C, s: TableState, e: DealStarted) -> Ruling | None:
    """A deal from a pack nobody cut may be stopped before the trump card is turned."""
    if s.cut_done:
        return None
    return c.rule(Remedy.CLAIM_OPTION, f"{seat_name(s, e.dealer)} is dealing a pack that was not cut; the "
                  "deal can be stopped until the trump card is turned.",
                  dealer=e.on_behalf_of or e.dealer, extra={"until": "trump_turned"})


@reg.clause("EU-42", "law 42", "card_dealt", "deal_end", "trump_turned")
def misdeal(c: C, s: TableState, e: CardDealt | DealEnded | TrumpTurned) -> Ruling | None:
    """Not five cards to each player, or a round not all twos or all threes (law 42): a misdeal, whose
    penalty (law 41) is the loss of the deal."""
    d = s.deal
    if d is None or d.ended and not isinstance(e, TrumpTurned):
        return None
    if isinstance(e, DealEnded) and e.lost:  # the table's fault, not the dealer's: no misdeal penalty
        return _new_deal(c, s, f"Cards of the deal were lost on the link from the shoe after the "
                         f"{d.cards_dealt} the table saw: which cards went where is not known.", extra={"lost": True})
    seats = [seat for seat, _ in d.dealt] + ([e.seat] if isinstance(e, CardDealt) else [])
    fault = pattern_fault(d.dealer, seats, complete=not isinstance(e, CardDealt), named=lambda x: seat_name(s, x))
    if fault is None:
        return None
    return euchre_play.misdeal_ruling(c, s, fault)


@reg.clause("EU-33", "law 33", "card_dealt", "damaged_card", "missing_card", "surplus_card", "trump_turned",
            "card_played")
def imperfect_pack(c: C, s: TableState, e: CardDealt | DamagedCardFound | MissingCardReported | SurplusCardFound
                   | TrumpTurned | CardPlayed) -> Ruling | None:
    """A pack found incorrect or imperfect during the deal or play: a new deal by the same dealer."""
    d = s.deal
    in_hand = d is not None and not d.void and s.phase in (Phase.DEALING, Phase.AUCTION, Phase.PLAY)
    if isinstance(e, (TrumpTurned, CardPlayed)):   # a card no euchre pack holds, turned up or played
        if not in_hand or e.card is None or e.card in PACK:
            return None
        how = "turned up" if isinstance(e, TrumpTurned) else f"played by {seat_name(s, e.seat)}"
        return _new_pack(c, s, f"The {e.card.name} {how} is not a euchre card: the pack is incorrect.",
                         seat=e.seat if isinstance(e, CardPlayed) else None, pack=d.pack if d else None)
    if isinstance(e, CardDealt):
        if d is None:
            return None
        if e.card is None:
            return _new_pack(c, s, f"A card dealt to {seat_name(s, e.seat)} could not be read: the pack is "
                             "imperfect.", seat=e.seat, pack=d.pack)
        if e.card not in PACK:
            return _new_pack(c, s, f"The {e.card.name} is not a euchre card: the pack is incorrect.",
                             seat=e.seat, pack=d.pack)
        if e.card in d.seen:
            why = f"A second {e.card.name} was dealt: the pack is incorrect."
        elif e.pack is not None and e.pack != d.pack and d.pack not in ("", "unknown"):
            why = f"The {e.card.name} dealt belongs to pack {e.pack}, not to pack {d.pack} in use."
        else:
            return None
        return _new_deal(c, s, why, seat=e.seat, pack=d.pack)
    if isinstance(e, DamagedCardFound):
        if not e.distinguishable:
            return None
        other = d is not None and d.pack not in ("", "unknown") and e.pack != d.pack
        if not in_hand or other:  # law 33 is about the pack in play; another pack's torn card is law 73
            return Ruling(Remedy.REPLACE_PACK, "Euchre, law 73", "EU-73", f"{the_card(e.card)} of pack "
                          f"{e.pack} is torn or marked; it is replaced (or fresh cards ordered) before the "
                          "next deal" + (f" with it; this hand, of pack {d.pack}, goes on." if in_hand and d
                                         else "."), pack=e.pack)
        return _new_pack(c, s, f"{the_card(e.card)} of pack {e.pack} is damaged: the pack is "
                         "imperfect.", pack=e.pack)
    if isinstance(e, SurplusCardFound):
        if e.cause != "pack":
            return None
        return _new_deal(c, s, f"{seat_name(s, e.seat)} holds a surplus card from an incorrect pack.",
                         seat=e.seat)
    if not in_hand or e.found == "loose" and s.phase == Phase.PLAY:
        return None
    return _new_deal(c, s, f"{the_card(e.card)} is missing from the pack.", seat=e.seat)


@reg.clause("EU-34", "law 34", "card_dealt", "card_faced")
def faced_in_pack(c: C, s: TableState, e: CardDealt | CardFaced) -> Ruling | None:
    """A card found faced in the pack before the first lead: a new deal."""
    if isinstance(e, CardDealt):
        if not e.face_up:
            return None
        return _new_deal(c, s, f"{the_card(e.card)} came out of the pack face up.", seat=e.seat)
    if e.where != "pack" or not _live(s):
        return None
    return _new_deal(c, s, f"{the_card(e.card)} was found faced in the pack before a lead.")


def touch_bar(s: TableState, claimant: Side) -> Seat | None:
    """The player whose touching his cards takes away ``claimant``'s claim for an exposure in dealing, or
    None. Law 35: the adversaries lose it if either touched his cards, the dealer if his partner did (the
    dealer's own touch never takes his side's claim). Law 36: a touch made in reply, after one of the other
    side touched theirs, takes nothing away; the dealer touching his cards is such a touch, for his
    adversaries' reply."""
    d = s.deal
    if d is None:
        return None
    other_first = False
    for seat, how in d.interruptions:
        if how != "touched":
            continue
        if seat.side is not claimant:
            other_first = True
        elif seat != d.dealer and not other_first:
            return seat
    return None


LATE = 3  # "one of the last cards" (law 37): the last three, the largest packet a round can have


@reg.clause("EU-35", "law 35", "card_faced")
def exposed_in_deal(c: C, s: TableState, e: CardFaced) -> Ruling | None:
    """A card exposed in dealing: the side that did not expose it may claim a new deal (law 35), unless
    it touched its cards; a late exposure keeps the claim past the trump card (law 37)."""
    if e.where not in ("deal", "table") or s.phase != Phase.DEALING or s.deal is None or s.deal.void:
        return None
    d = s.deal
    by = e.by or d.dealer
    claimant = by.side.other
    who = "the dealer's side" if by.side is d.dealer.side else "the dealer's opponents"
    what = f"{the_card(e.card)} was exposed in dealing by {seat_name(s, by)}, of {who}"
    barred = touch_bar(s, claimant)
    if barred is not None:
        return c.rule(Remedy.DEAL_STANDS, f"{what}; {seat_name(s, barred)} had touched his cards, so "
                      f"{side_text(claimant)} cannot claim a new deal, and the card is not a called card.",
                      side=claimant, seat=by)
    # the dealer's side exposed: either adversary may claim; an adversary exposed: the dealer alone
    claimer, proviso = (side_text(claimant), "neither has touched his cards") if by.side is d.dealer.side \
        else (f"the dealer, {seat_name(s, d.dealer)},", "his partner has not touched his cards")
    if d.cards_dealt >= DEALT - LATE:
        return Ruling(Remedy.CLAIM_OPTION, "Euchre, law 37", "EU-37", f"{what}, among the last cards; "
                      f"{claimer} may claim a new deal, even once the trump card is turned, "
                      "until the first card is led; if not, the card is not a called card.",
                      dealer=d.rightful_dealer, side=claimant, seat=by, extra={"until": "card_played"})
    return c.rule(Remedy.CLAIM_OPTION, f"{what}; {claimer} may claim a new deal before the "
                  f"trump card is turned, provided {proviso}; if not, the card "
                  "is not a called card.",
                  dealer=d.rightful_dealer, side=claimant, seat=by, extra={"until": "trump_turned"})


@reg.clause("EU-39", "law 39", "card_faced")
def trump_turn(c: C, s: TableState, e: CardFaced) -> Ruling | None:
    """Exposing another card while turning the trump card: a new deal."""
    if e.where != "trump" or not _live(s):
        return None
    return _new_deal(c, s, f"{the_card(e.card)} was exposed as the trump card was turned.")


@reg.clause("EU-new-deal-demand", "laws 35-40", "demand")
def new_deal_demand(c: C, s: TableState, e: DemandMade) -> Ruling | None:
    """A claim for a new deal is granted while one is open to that player's side."""
    if e.what not in ("redeal", "new_deal"):
        return None
    exposure = [cl for cl in s.claims if cl.clause in ("EU-35", "EU-37") and cl.side is e.seat.side]
    barred = touch_bar(s, e.seat.side) if exposure else None
    if barred is not None:
        s.claims.remove(exposure[0])
        return Ruling(Remedy.DEAL_STANDS, exposure[0].law, exposure[0].clause, f"{seat_name(s, e.seat)} "
                      f"claimed a new deal, but {seat_name(s, barred)} had touched his cards, which takes "
                      "the claim away (law 35).", seat=e.seat, side=e.seat.side)
    # law 35: after an adversary's exposure the claim is the dealer's alone, not his partner's
    dealers = [cl for cl in exposure if s.deal is not None and cl.side is s.deal.dealer.side and
               e.seat != s.deal.dealer]
    s.claims = [cl for cl in s.claims if cl not in dealers]
    granted = grant_claim(s, e.seat, "claimed a new deal") or \
        grant_claim(s, e.seat, "demanded a reshuffle", grants=Remedy.RESHUFFLE.value)
    s.claims.extend(dealers)
    if granted is not None:
        if granted.remedy is Remedy.RESHUFFLE:
            s.reshuffle_owed = granted.dealer   # law 27: that shuffle is no second one (law 24)
        return granted
    if dealers and s.deal is not None:
        return Ruling(Remedy.DEAL_STANDS, dealers[0].law, dealers[0].clause, f"{seat_name(s, e.seat)} claimed a "
                      f"new deal, but after a card exposed by an adversary the claim is the dealer's, "
                      f"{seat_name(s, s.deal.dealer)}'s (law 35); it stays open to him.", seat=e.seat)
    choices = [cl for cl in open_claims_for(s, e.seat) if cl.grants == "call"]
    if choices:  # a claim button cannot say which option: the director enters the choice
        options = sorted({o for cl in choices for o in cl.options})
        return Ruling(Remedy.ATTENTION, choices[0].law, choices[0].clause, f"{seat_name(s, e.seat)} claims: "
                      f"the law gives {side_text(e.seat.side)} a choice here ({choices[0].why}); the director "
                      "enters which.", seat=e.seat, extra={"options": options})
    theirs = next((cl for cl in s.claims if cl.grants == Remedy.REDEAL.value and cl.side is e.seat.side.other), None)
    why = (f"the new deal open now is {side_text(e.seat.side.other)}'s to claim ({theirs.why.rstrip('.')})"
           if theirs is not None else "the trump card has been turned"
           if s.deal is not None and s.deal.trump_card is not None
           else "no irregularity open to that side gives one")
    return c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} claimed a new deal, but {why}.",
                  seat=e.seat)


@reg.clause("EU-attention", "laws 4-6", "demand", "wrong_hand")
def attention(c: C, s: TableState, e: DemandMade | WrongHandPicked) -> Ruling | None:
    """A player draws attention to something the laws do not remedy by themselves."""
    if isinstance(e, WrongHandPicked):
        return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} picked up the wrong hand; the Somerset laws "
                      "give no remedy of their own, so the director decides.", seat=e.seat)
    if e.what == "attention":
        return c.rule(Remedy.ATTENTION, f"{seat_name(s, e.seat)} draws attention to an irregularity; "
                      "the law is looked up before play goes on.", seat=e.seat)
    if e.what == "restore_pack":
        side = e.seat.side
        pack = s.pack_owners.get(side)
        return c.rule(Remedy.RESTORE_PACK if pack else Remedy.ATTENTION,
                      f"{side_text(side)} ask for their own pack"
                      + (f" {pack} for their next deal." if pack else ", but none is recorded as theirs."),
                      seat=e.seat, side=side, pack=pack)
    return None


# -- play (laws 46-61), revokes and scoring (laws 1-7, 62-71, 90) ------------------------------------
euchre_bidding.register(reg)
euchre_bidding.register_discard(reg)
euchre_tricks.register(reg)
euchre_calls.register(reg)
euchre_play.register_play(reg)


RULES = GameRules(name=NAME, title="Euchre", pack=PACK, hand_size=HAND, cards_dealt=DEALT,
                  claims_close="trump_turned", clauses=tuple(reg.clauses), setup=euchre_play.setup)

__all__ = ["RULES", "Seat"]
