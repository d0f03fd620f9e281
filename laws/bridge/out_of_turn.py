"""A card played out of turn, as ``laws.bridge.play.Play`` judges it (docs/laws.md ``BP-53-56``, ``BP-57``): a
lead out of turn, a defender's premature play (57A), a card that stands (57C: declarer's side's, or a
defender's once declarer has played from both hands or dummy has played other than the lead), or a defender's
card at another's turn that waits for his own (57D)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from laws.bridge.tricks import PlayIrregularity, PlayVerdict
from laws.bridge.verdicts import name
from laws.cards import Card, Seat

_P = PlayIrregularity


def out_of_turn(p: Any, seat: Seat, card: Card, base: Callable[..., PlayVerdict]) -> PlayVerdict:
    """The verdict on ``seat``'s ``card``, played when it was not his turn in ``p`` (a ``Play``); ``base`` makes
    the verdict with the card's own fields."""
    turn = p.to_play
    defender = p._defender(seat)
    defenders = (p.declarer.left, p.declarer.right)
    if not p.current.cards:
        who = "by_defender" if defender else "from_dummy" if seat == p.dummy else "by_declarer"
        opening = p.current.number == 1
        law = ("law 54" if opening and defender else "law 56" if defender else "law 55")
        return base(kind=_P.LEAD_OUT_OF_TURN, detail=who + ("_opening" if opening else ""),
                    accept_by=(p.declarer,) if defender else defenders,
                    penalty_card=defender, law=f"{p.code}, {law}",
                    reason=f"{name(seat)} led {card.name} when the lead was {name(turn)}'s.")
    cards = p.current.cards
    if defender and turn == seat.partner and p.dummy in cards and (
            p.declarer in cards or p.current.leader != p.dummy):
        # law 57C: once declarer has played from both hands, or dummy has played a card other than the
        # lead (early: it stood), a defender who plays before his partner is not rectified: his card is
        # played, and his partner still plays in his turn. Dummy's lead alone is not such a card (the
        # reading taken here: else no premature play could be ruled on a trick dummy led)
        return base(kind=_P.PLAY_OUT_OF_TURN, detail="by_defender_after_dummy", stands=True,
                    law=f"{p.code}, law 57C", reason=f"{name(seat)} played {card.name} before "
                    f"{name(turn)}, after dummy had played to the trick: it is played, and stands.")
    if defender and turn == seat.partner:
        return base(kind=_P.PREMATURE_PLAY, detail="play", penalty_card=True, law=f"{p.code}, law 57A",
                    reason=f"{name(seat)} played {card.name} before {name(turn)}, whose turn it "
                           "was: a premature play by a defender.")
    if not defender:
        return base(kind=_P.PLAY_OUT_OF_TURN, detail="by_declarer_side", stands=True,
                    law=f"{p.code}, law 57C", reason=f"{name(seat)} played {card.name} before "
                    f"{name(turn)}: a card played early by declarer's side is played, and stands.")
    led = p.current.suit_led
    unfollowing = led is not None and card.suit != led and p.holds_suit(seat, led)
    at = "at_rho" if turn == seat.right else "out_of_turn"
    return base(kind=_P.PLAY_OUT_OF_TURN, detail=f"by_defender_{at}", penalty_card=unfollowing,
                law=f"{p.code}, law 57D", reason=f"{name(seat)} played {card.name} before "
                f"{name(turn)}: it must be played at {name(seat)}'s proper turn" + (
                    "; it could not be played legally then, so it is a penalty card." if unfollowing
                    else "."))
