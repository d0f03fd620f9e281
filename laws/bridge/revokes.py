"""The trick transfer for established revokes, worked out from the trick record (docs/laws.md ``BP-64``).

For each established revoke, in the order they happened:

* a revoke by dummy (a card of dummy's spread hand not played) transfers nothing;
* a revoke by failing to play a card faced on the table (law 64B3: every card of the suit led that the
  offender held was a penalty card) transfers nothing; an offender who also held concealed cards of
  that suit failed to play those too, so his revoke is rectified as usual (the obligations penalty
  cards bring are the director's, who may adjust: ``Play.enter_result``);
* a second revoke by the same player in the same suit transfers nothing (the first one counts, whatever
  it transferred);
* a revoke on the twelfth trick transfers nothing: it is corrected even when established (``BP-62``);
* otherwise, if the revoking player won the revoke trick, that trick moves to the other side, and one more
  if his side won a later trick; if he did not win it, one trick his side won at or after the revoke
  trick moves (none if it won none).

Two revokes that both count (different suits, or different players) are each worked out the same way,
from the tricks the offending side won that have not already moved for an earlier revoke: a trick is never
moved twice, so two revokes by one side move at most the tricks that side won from the first revoke on.
Tricks won by a claim count as tricks won after every revoke (numbered 14 and up in
:attr:`~laws.bridge.tricks.Transfer.counted`).

When both sides have an established revoke on the board the two codes differ. At a duplicate table (the
2017 laws, 64B7) no revoke of either side moves a trick: each transfer worked out above is made 0. At a
rubber table (``rubber``) each side's transfers are made, as docs/laws.md's ``BP-64`` row says. Either
way, whether equity needs more is the director's (``Play.enter_result``, law 64C), which is also the hook
for any other adjustment: the model never computes equity.
"""

from __future__ import annotations

from collections.abc import Sequence

from laws.bridge.tricks import PenaltyCard, Revoke, RevokeStatus, Transfer, Trick, penalty_card_words
from laws.bridge.verdicts import SIDE_WORDS, name
from laws.cards import SUIT_NAMES, Card, Seat, Side


def transfers(tricks: Sequence[Trick], revokes: Sequence[Revoke], claimed: dict[Side, int], *,
              rubber: bool = False, penalties: Sequence[PenaltyCard] = ()) -> list[Transfer]:
    """The transfer for each established revoke.

    Args:
        tricks: the trick record in order (an unfinished last trick, at a claim, has no winner).
        revokes: every revoke recorded; only established ones are rectified.
        claimed: tricks each side took by a claim (not in ``tricks``).
        rubber: the rubber code governs; otherwise the 2017 duplicate laws, under which no trick moves
            when both sides have an established revoke (64B7).
        penalties: every penalty card of the play, with the tricks it lay on the table for: a revoke of a
            faced card (law 64B3) names the ones its player failed to play.

    Returns:
        One :class:`Transfer` per established revoke, in the order the revokes happened.
    """
    won: dict[Side, list[int]] = {Side.NS: [], Side.EW: []}
    for t in tricks:
        if t.winner is not None:
            won[t.winner.side].append(t.number)
    extra = 14
    for side in (Side.NS, Side.EW):
        for _ in range(claimed.get(side, 0)):
            won[side].append(extra)
            extra += 1
    winners = {t.number: t.winner for t in tricks}
    moved: set[int] = set()
    charged: set[tuple[str, str]] = set()
    out: list[Transfer] = []
    # in the order they happened: by trick, and in one trick by the order its cards were played (a revoke
    # found in the tricks is recorded after one seen at the card, whichever came first)
    order = {t.number: list(t.cards) for t in tricks}

    def happened(r: Revoke) -> tuple[int, int]:
        seats = order.get(r.trick, [])
        return (r.trick, seats.index(r.seat) if r.seat in seats else len(seats))

    established = sorted((r for r in revokes if r.status is RevokeStatus.ESTABLISHED), key=happened)
    both = not rubber and len({r.seat.side for r in established}) == 2
    for r in established:
        side = r.seat.side
        to = side.other
        key = (r.seat.value, r.suit)
        if r.by_dummy:
            out.append(Transfer(r, 0, to, (), f"{name(r.seat)}'s revoke from dummy's spread hand in trick "
                                f"{r.trick} (the {r.card.name} to a {SUIT_NAMES[r.suit][:-1]} lead) moves no "
                                "trick (law 64B3)."))
            continue
        if r.faced:
            lying = [p.card for p in penalties if p.seat == r.seat and p.card.suit == r.suit and p.lay_at(r.trick)]
            what = (f"{penalty_card_words(lying)}, which lay faced on the table," if lying else
                    f"the {SUIT_NAMES[r.suit]} faced on the table")
            out.append(Transfer(r, 0, to, (), f"{name(r.seat)} did not play {what} and held no other "
                                f"{SUIT_NAMES[r.suit][:-1]}: a revoke by failing to play a faced card moves no "
                                "trick (law 64B3)."))
            continue
        if key in charged:
            out.append(Transfer(r, 0, to, (), f"A second revoke by {name(r.seat)} in the same suit moves "
                                "no trick."))
            continue
        charged.add(key)
        if r.trick == 12:
            out.append(Transfer(r, 0, to, (), "A revoke on the twelfth trick is corrected, not paid for "
                                "with tricks."))
            continue
        later = [n for n in won[side] if n > r.trick and n not in moved]
        if winners.get(r.trick) == r.seat and r.trick not in moved:
            counted = (r.trick, *later[:1])
            why = (f"{name(r.seat)} won the revoke trick, so it moves" +
                   (", with one more trick the side won later." if later else "; the side won no later "
                    "trick."))
        elif winners.get(r.trick) == r.seat:   # a trick never moves twice
            counted = tuple(later[:1])
            why = (f"{name(r.seat)} won the revoke trick, but it has already moved for an earlier revoke; " +
                   ("one more trick the side won later moves." if later else "the side won no later trick "
                    "that has not moved, so none moves."))
        else:
            pool = [n for n in won[side] if n >= r.trick and n not in moved]
            counted = tuple(pool[:1])
            why = (f"{name(r.seat)} did not win the revoke trick; {SIDE_WORDS[side.value]} " +
                   ("won a trick at or after it, so one trick moves." if counted else
                    "won no trick at or after it, so none moves."))
        if both and counted:
            out.append(Transfer(r, 0, to, (), "Both sides revoked on this board, so neither revoke moves a "
                                "trick (law 64B7)."))
            continue
        moved.update(counted)
        out.append(Transfer(r, len(counted), to, counted, why))
    return out


def played_on(revokes: Sequence[Revoke], penalties: Sequence[PenaltyCard], seat: Seat, card: Card,
              trick: int) -> None:
    """``seat`` plays ``card`` to ``trick``: a penalty card of his, lying on the table, is played there; and
    a card of a suit he revoked in earlier that was not lying on the table as a penalty card at that revoke
    (one faced only later was in his hand then) proves he held it concealed, so such a revoke was not only
    a failure to play a faced card (no longer ``faced``, law 64B3). Why here: at
    a table that does not know his hand a revoke is seen at the card by his penalty card alone (law 50),
    and only his later cards tell whether he held more of the suit.
    """
    for p in penalties:
        if p.played is None and (p.seat, p.card) == (seat, card):
            p.played = trick
    for r in revokes:
        if r.faced and r.seat == seat and r.suit == card.suit and r.trick < trick and not any(
                (p.seat, p.card) == (seat, card) and p.lay_at(r.trick) for p in penalties):
            r.faced = False


def proven(tricks: Sequence[Trick], seats: Sequence[Seat], penalties: Sequence[PenaltyCard] = ()) -> list[Revoke]:
    """The revokes the trick record itself proves, whatever anyone knew of the hands (law 66D: the quitted
    tricks inspected once play has ended): a player of ``seats`` who did not follow the suit led and played
    a card of that suit to a later trick held it then, so he revoked. Each is established, since his later
    card is itself a card of his side's to a later trick (``BP-63``). Why only these: at a table that did not
    see the deal (a physical board) the hands held are not known, and a card never played proves nothing.

    Such a revoke was a failure to play a faced card (``faced``, law 64B3: no trick moves) when every card
    of the suit led that the record shows he held then lay on the table as a penalty card: the cards of
    that suit he played to later tricks, and the penalty cards of it lying there. The trick record cannot
    say so by itself (a penalty card is not in a trick until it is played), hence ``penalties``. A card
    of the suit never played proves nothing here either: whether he held one more, concealed, after a
    claim is the director's (law 64C).

    Args:
        tricks: the trick record in order (an unfinished last trick included).
        seats: the players whose revokes are looked for (the side a player alleges revoked).
        penalties: every penalty card of the play, with the tricks it lay on the table for.

    Returns:
        One established :class:`Revoke` per trick and player, in trick order, the suit led as ``suit`` and
        the card played instead as ``card``.
    """
    out: list[Revoke] = []
    for i, t in enumerate(tricks):
        led = t.suit_led
        if led is None:
            continue
        for seat, card in t.cards.items():
            if seat not in seats or card.suit == led:
                continue
            held = {c for later in tricks[i + 1:] if (c := later.cards.get(seat)) is not None and c.suit == led}
            if not held:
                continue
            lying = {p.card for p in penalties if p.seat == seat and p.card.suit == led and p.lay_at(t.number)}
            out.append(Revoke(seat, t.number, card, led, RevokeStatus.ESTABLISHED,
                              faced=held <= lying))
    return out
