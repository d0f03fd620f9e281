"""Contract Bridge, Missing Card (the digest of seed A): the search the table asks for when a deal ends a
card short, and the rulings on its outcome, up to the end of play.

Our reading: a deal that ends one card short is not a redeal at once. The table asks for a search
(``CB-missing-search``: the deficient hand's lamp and the display) and rules when the outcome is
reported, at any time until the end of play: found loose or with the deficient hand, it is deemed to
belong to that hand, which answers for a revoke in every completed trick where it did not follow the
missing card's suit (the digest names no revoke penalty: the director applies it); found in another
hand, a redeal; in a trick, the defective-trick law; declared not found, or still unreported when play
ends, a redeal. Reported after play ended, the deal stands. A deal more than one card short, or short
in more than one hand, was not dealt correctly: a redeal at once.
"""

from __future__ import annotations

from laws.cards import Card, Seat
from laws.events import DealEnded, MissingCardReported, PlayEnded
from laws.games.base import Clause, Registry, seat_name, the_card
from laws.rulings import Remedy, Ruling
from laws.state import Phase, TableState

_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _search_over(s: TableState, e: MissingCardReported) -> None:
    """The search asked for at the end of a short deal has an outcome."""
    if s.deal is not None:
        s.deal.search = None
        s.deal.search_card = None


def _too_late(c: Clause, s: TableState, e: MissingCardReported) -> Ruling | None:
    """A missing card reported once play has ended (or with no deal under way) changes nothing."""
    d = s.deal
    if d is not None and not d.void and s.phase in (Phase.DEALING, Phase.AUCTION, Phase.PLAY):
        return None
    return c.rule(Remedy.DEAL_STANDS, f"{the_card(e.card)} missing from {seat_name(s, e.seat)}'s hand was "
                  "reported after play ended; the deal stands as played.", seat=e.seat)


def missed_follows(s: TableState, seat: Seat, card: Card) -> list[int]:
    """Completed tricks in which ``seat`` did not follow suit although ``card`` (deemed in its hand and
    not yet played) was of the suit led."""
    d = s.deal
    if d is None:
        return []
    out = []
    plays = d.plays
    for n in range(len(plays) // 4):
        trick = plays[4 * n:4 * n + 4]
        led = trick[0][1].suit
        mine = [x for st, x in trick[1:] if st == seat]
        if card.suit == led and mine and mine[0].suit != led:
            out.append(n + 1)
    return out


_NAMED = 4  # a short deal's reason names this many cards not dealt at most; more are counted (the
#            ruling's ``missing`` lists them all)


def register(reg: Registry, PACK: tuple[Card, ...], HAND: int) -> None:  # noqa: N803 (the game's constants)
    """The Missing Card clauses, for a pack of ``PACK`` dealt in hands of ``HAND``."""

    @reg.clause("CB-missing-search", "Missing Card", "deal_end")
    def missing_search(c: Clause, s: TableState, e: DealEnded) -> Ruling | None:
        """A deal that ends short of 52 cards: the table searches for the missing card before ruling."""
        d = s.deal
        if d is not None and e.lost:
            return Ruling(Remedy.REDEAL, "Contract Bridge, Redeal (cards not dealt correctly)", "CB-redeal-incorrect",
                          f"Cards of the deal were lost on the link from the shoe after the {d.cards_dealt} the "
                          "table saw: which cards went where is not known.", dealer=d.rightful_dealer,
                          extra={"lost": True})
        if d is None or d.cards_dealt >= len(PACK):
            return None
        short = [seat for seat in Seat if d.counts[seat] < HAND]
        missing = sorted(set(PACK) - d.seen) if all(card for _, card in d.dealt) else []
        if len(short) != 1 or len(PACK) - d.cards_dealt != 1:
            what = ", ".join(m.name for m in missing) if missing else f"{len(PACK) - d.cards_dealt} card(s)"
            said = f"The deal ended with {d.cards_dealt} cards; missing: {what}."
            if len(missing) > _NAMED:   # a deal stopped early (a shoe restarted): a count a display can show
                said = f"The deal ended with {d.cards_dealt} cards: {len(missing)} cards of the pack were not dealt."
            return Ruling(Remedy.REDEAL, "Contract Bridge, Redeal (cards not dealt correctly)", "CB-redeal-incorrect",
                          said,
                          dealer=d.rightful_dealer, seat=short[0] if short else None,
                          extra={"missing": [m.code for m in missing]})
        d.search, d.search_card = short[0], missing[0] if missing else None
        what = the_card(d.search_card, capital=False) if d.search_card else "one card"
        return c.rule(Remedy.ATTENTION, f"The deal ended with 51 cards: {what} is missing from "
                      f"{seat_name(s, short[0])}'s hand. Search for it; the table rules when it is found (with "
                      "that hand, in another hand, in a trick) or declared not found, at any time until the end "
                      "of play.", seat=short[0],
                      extra={"search": d.search_card.code if d.search_card else None, "deficient": short[0]})

    @reg.clause("CB-missing-not-found", "Missing Card", "missing_card", "play_end")
    def missing_not_found(c: Clause, s: TableState, e: MissingCardReported | PlayEnded) -> Ruling | None:
        """A missing card that is not found: redeal (declared not found, or still missing when play ends)."""
        d = s.deal
        if isinstance(e, PlayEnded):
            if d is None or d.void or d.search is None:
                return None
            seat, card = d.search, d.search_card
            d.search = None
            return c.rule(Remedy.REDEAL, f"Play ended and {the_card(card, capital=False)} missing from "
                          f"{seat_name(s, seat)}'s hand was never reported found.", dealer=d.rightful_dealer,
                          seat=seat)
        if e.found is not None:
            return None
        late = _too_late(c, s, e)
        if late is not None:
            return late
        _search_over(s, e)
        return c.rule(Remedy.REDEAL, f"{the_card(e.card)} missing from {seat_name(s, e.seat)}'s hand "
                      "was not found.", dealer=d.rightful_dealer if d else s.next_dealer, seat=e.seat)

    @reg.clause("CB-missing-found", "Missing Card", "missing_card")
    def missing_found(c: Clause, s: TableState, e: MissingCardReported) -> list[Ruling]:
        """A missing card found (loose, or with the deficient hand itself) is deemed to belong to the
        deficient hand, which answers for a revoke if it failed to follow suit with it in an earlier trick."""
        if e.found != "loose" and e.found != e.seat:
            return []
        late = _too_late(c, s, e)
        if late is not None:
            return [late]
        _search_over(s, e)
        d = s.deal
        card = e.card or (d.search_card if d else None)
        out = [c.rule(Remedy.DEEMED_TO_BELONG, f"{the_card(card)} turned up and is deemed to belong to "
                      f"{seat_name(s, e.seat)}'s short hand, which answers for exposing it (if it was seen) and "
                      "for a revoke by not having played it.", seat=e.seat)]
        if d is None or card is None:
            return out
        d.hands[e.seat].append(card)
        d.counts[e.seat] += 1
        d.seen.add(card)
        missed = missed_follows(s, e.seat, card)
        if missed:
            tricks = ", ".join(str(n) for n in missed)
            out.append(c.rule(Remedy.PENALTY, f"{seat_name(s, e.seat)} held {the_card(card, capital=False)} "
                              f"but did not follow {_SUITS[card.suit]} in trick {tricks}: a revoke. The digest "
                              "names no penalty for it; the director applies the revoke law.", seat=e.seat,
                              extra={"revoke_tricks": missed, "card": card.code}))
        return out

    @reg.clause("CB-missing-other-hand", "Missing Card", "missing_card")
    def missing_other_hand(c: Clause, s: TableState, e: MissingCardReported) -> Ruling | None:
        """A missing card found in another hand: redeal."""
        if not isinstance(e.found, Seat) or e.found == e.seat:
            return None
        late = _too_late(c, s, e)
        if late is not None:
            return late
        _search_over(s, e)
        return c.rule(Remedy.REDEAL, f"{the_card(e.card)} missing from {seat_name(s, e.seat)} was found "
                      f"in {seat_name(s, e.found)}'s hand.",
                      dealer=s.deal.rightful_dealer if s.deal else s.next_dealer, seat=e.seat)

    @reg.clause("CB-missing-trick", "Missing Card", "missing_card")
    def missing_trick(c: Clause, s: TableState, e: MissingCardReported) -> Ruling | None:
        """A missing card found in a trick: the defective-trick law applies."""
        if e.found != "trick":
            return None
        late = _too_late(c, s, e)
        if late is not None:
            return late
        _search_over(s, e)
        return c.rule(Remedy.DEFECTIVE_TRICK, f"{the_card(e.card)} missing from {seat_name(s, e.seat)} "
                      "was found in a trick; the trick is corrected under the defective-trick law.",
                      seat=e.seat)
