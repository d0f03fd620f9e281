"""Contract Bridge, the end of the play (docs/laws.md ``BP-64``, ``BP-68-71``) and the result the cards give.

* Claims (``BP-68-71``): a ``claim`` stops play; one ``claim_reply`` from the other side settles it
  (agreed: play ends with it; disputed: the director is called and enters ``claim_ruled``). A claim for
  more tricks than remain, by dummy, or while play is over is refused.
* An agreed claim that concedes tricks the conceding side's top trumps win whatever is played (law 71,
  ``laws.bridge.concessions``): the concession of those tricks is cancelled, they count for that side,
  and the director is called (``attention`` ``BP-68-71``).
* When play ends (the thirteenth trick, or a claim agreed or ruled) the engine runs the ``play_end``
  clauses itself: the tricks established revokes move (``BP-64``, from ``Play.rectification()``), then
  the rubber score of the result the cards give (``CB-rubber``). A revoke on the twelfth trick still
  uncorrected holds the score until it is corrected (``BP-62``: it must be, even when established). Each
  revoke's transfer is ruled once: rectified again (that correction, a revoke found after play), only
  the transfers new or changed are ruled (``untold``).
* A typed ``result`` for a hand whose auction or play the table recorded is checked against them
  (``CB-result-check``): a difference calls the director, and the cards' contract, declarer and tricks are
  the ones that score (the director enters another only by correcting the cards: a ``correct``, a
  ``claim_ruled``).
"""

from __future__ import annotations

from typing import Any

from laws.bridge import concessions
from laws.bridge.play import Play
from laws.bridge.tricks import RevokeStatus, Transfer
from laws.bridge.verdicts import name
from laws.cards import Seat
from laws.events import ClaimAnswered, ClaimRuled, PlayEnded, ResultRecorded, RevokeCorrected, TricksClaimed
from laws.games import bridge_auction
from laws.games import bridge_hand as bh
from laws.games.base import Clause, Registry, side_text
from laws.games.bridge_play import tell_established
from laws.rulings import Remedy, Ruling
from laws.scoring.bridge import Contract, parse_contract
from laws.state import TableState


def _count(n: int) -> str:
    return f"{n} trick{'s' if n != 1 else ''}"


def twelfth_open(play: Play) -> bool:
    """A revoke on the twelfth trick not yet corrected: it must be, even established (``BP-62``), dummy's too
    (law 62D makes no exception; law 64B3 only spares dummy's revoke a transfer)."""
    return any(r.trick == 12 and r.status is not RevokeStatus.CORRECTED for r in play.revokes)


def derived(h: bh.BridgeHand) -> dict[str, Any] | None:
    """What the cards say of the result: contract and declarer once the auction closed, tricks once play
    ended (after rectification); None with no contract."""
    play = h.play
    if play is None:
        return None
    out: dict[str, Any] = {"contract": play.contract.code, "declarer": play.declarer.value}
    if play.ended:
        out["tricks"] = play.result().declarer_tricks
    return out


def register(reg: Registry) -> None:
    """The claims and the end of play, in the order they are tried."""

    @reg.clause("BP-68-71", "claims and concessions (Duplicate Bridge laws 68-71)", "claim", "claim_reply",
                "claim_ruled")
    def claim(c: Clause, s: TableState, e: TricksClaimed | ClaimAnswered | ClaimRuled) -> list[Ruling]:
        """A claim or concession stops play; agreed, it stands; disputed, the director decides. A claim,
        and an agreement to one, establishes the open revokes of that player's side (``BP-63``): told
        here, right after the claim's own ruling, since this clause is what establishes them."""
        h, play = bh.need_play(s, e.TYPE.replace("_", " "))
        ruling = _claim(c, h, play, e)
        how = None
        if isinstance(e, TricksClaimed):
            how = f"{name(e.seat)} claimed" if e.tricks else f"{name(e.seat)} conceded"
        elif isinstance(e, ClaimAnswered) and e.agree:
            how = f"{name(e.seat)} agreed to the claim"
        out = [ruling, *(tell_established(h, play, how) if how is not None else [])]
        cancelled = concessions.judge(play) if isinstance(e, ClaimAnswered) and e.agree else None
        if cancelled is not None:
            out.append(_cancelled(c, play, cancelled))
        return out

    def _cancelled(c: Clause, play: Play, k: concessions.Cancelled) -> Ruling:
        """Law 71: the agreed claim conceded tricks the side's top trumps win whatever is played; they go
        back to it, the result counts them, and the director is called (he may still adjust)."""
        play.cancel_concession(k.side, k.restored)
        cl = play.claim_state
        assert cl is not None
        held: dict[Seat, list[str]] = {}
        for seat, card in k.sure:
            held.setdefault(seat, []).append(card.name)
        cards = " and ".join(f"{name(seat)}'s {' and '.join(names)}" for seat, names in held.items())
        top = "the highest trump" if len(k.sure) == 1 else f"the {len(k.sure)} highest trumps"
        keep = k.given + k.restored
        return bh.rule(c.id, f"{play.code}, law 71", Remedy.ATTENTION, f"The agreed claim gives "
                       f"{side_text(k.side)} {k.given} of the remaining {_count(k.remaining)}, but they hold "
                       f"{top} ({cards}), which win{'s a trick' if len(k.sure) == 1 else ' a trick each'} whatever is "
                       f"played: conceding {'that trick' if k.restored == 1 else 'those tricks'} is cancelled, so "
                       f"{_count(k.restored)} go{'es' if k.restored == 1 else ''} back to {side_text(k.side)}, "
                       f"who take {keep} and {side_text(k.side.other)} {k.remaining - keep}. The director is "
                       "called and may still adjust the result.", side=k.side,
                       extra={"claimer": cl.seat.value, "claimed": cl.tricks, "tricks": cl.for_claimer,
                              "remaining": k.remaining, "restored": k.restored, "to_side": k.side.value,
                              "sure": [card.code for _, card in k.sure]})

    def _claim(c: Clause, h: bh.BridgeHand, play: Play, e: TricksClaimed | ClaimAnswered | ClaimRuled) -> Ruling:
        if isinstance(e, TricksClaimed):
            if play.ended:
                raise ValueError(f"claim: play has ended on this hand, so {name(e.seat)} has no trick left to "
                                 "claim or concede")
            if h.pending is not None:
                raise ValueError("claim: a card or call waits for a ruling first")
            made = play.claim(e.seat, e.tricks)
            what = (f"concedes the remaining {_count(made.remaining)}" if e.tricks == 0 else
                    f"claims {e.tricks} of the remaining {_count(made.remaining)}")
            return bh.rule(c.id, f"{play.code}, laws 68-71", Remedy.ATTENTION, f"{name(e.seat)} {what}; play stops. "
                           f"{side_text(e.seat.side.other)} agree, or dispute it and the director decides.",
                           side=e.seat.side.other, extra={"claimer": e.seat.value, "tricks": e.tricks,
                                                          "remaining": made.remaining,
                                                          "options": ["agree", "dispute"]})
        cl = play.claim_state
        if cl is None:
            raise ValueError(f"{e.TYPE}: no claim is waiting for an answer")
        if isinstance(e, ClaimAnswered):
            if e.seat.side is cl.seat.side:
                raise ValueError(f"claim_reply: {name(e.seat)} is on the claimer's side; an opponent of "
                                 f"{name(cl.seat)} answers the claim")
            if e.agree:
                play.agree_claim()
                return bh.rule(c.id, f"{play.code}, laws 68-71", Remedy.DEAL_STANDS, f"{name(e.seat)} agrees to "
                               f"{name(cl.seat)}'s claim of {_count(cl.tricks)}: play ends with it.",
                               seat=cl.seat, extra={"claimer": cl.seat.value, "tricks": cl.tricks, "agreed": True})
            play.dispute_claim()
            return bh.rule(c.id, f"{play.code}, laws 68-71", Remedy.ATTENTION, f"{name(e.seat)} disputes {name(cl.seat)}'s claim "
                           f"of {_count(cl.tricks)} of {cl.remaining}: the director decides how many of them "
                           f"{side_text(cl.seat.side)} take.", seat=cl.seat,
                           extra={"claimer": cl.seat.value, "tricks": cl.tricks, "remaining": cl.remaining,
                                  "options": ["claim_ruled"]})
        play.rule_claim(e.tricks)
        return bh.rule(c.id, f"{play.code}, laws 68-71", Remedy.DEAL_STANDS, f"The director rules on {name(cl.seat)}'s claim: "
                       f"{side_text(cl.seat.side)} take {e.tricks} of the remaining {cl.remaining}; play ends.",
                       seat=cl.seat, extra={"claimer": cl.seat.value, "tricks": e.tricks, "ruled": True})

    @reg.clause("BP-64", "revoke rectified (Duplicate Bridge law 64)", "play_end", "correct")
    def rectified(c: Clause, s: TableState, e: PlayEnded | RevokeCorrected) -> list[Ruling]:
        """An established revoke: the tricks it moves to the other side when play ends."""
        h = bh.hand(s)
        if h is None or h.play is None or not h.play.ended or h.scored is not None:
            return []
        if twelfth_open(h.play):
            if not isinstance(e, PlayEnded):
                return []
            return twelfth_rulings(h)
        out = transfer_rulings(h.code, untold(h, h.play.rectification()))
        for r in h.play.revokes:           # play ended by a ruled claim with a revoke still open
            if r.status is RevokeStatus.OPEN and not r.by_dummy:
                out.append(bh.rule(c.id, f"{h.code}, law 64", Remedy.ATTENTION, f"{name(r.seat)}'s revoke in "
                                   f"trick {r.trick} was neither corrected nor established when play ended: no "
                                   "trick moves. The director, who ruled the claim, may restore equity.",
                                   seat=r.seat, extra={"revoke_trick": r.trick, "offender": r.seat.value,
                                                       "tricks": 0, "to_side": r.seat.side.other.value,
                                                       "counted": [], "open": True}))
        return out

    @reg.clause("CB-result-check", "the result checked against the cards", "result")
    def check(c: Clause, s: TableState, e: ResultRecorded) -> Ruling | None:
        """A result typed for a hand whose auction or play was recorded agrees with them, or the director
        is called (the cards' result scores)."""
        h = bh.hand(s)
        got = derived(h) if h is not None else None
        if got is None:
            return None
        entered: dict[str, Any] = {"tricks": e.tricks}
        if e.declarer is not None:
            entered["declarer"] = e.declarer.value
        if e.contract is not None:
            entered["contract"] = parse_contract(e.contract).code
        diff = [k for k in ("contract", "declarer", "tricks") if k in entered and k in got and entered[k] != got[k]]
        if not diff:
            return None
        said = ", ".join(f"{k} {entered[k]} (the cards: {got[k]})" for k in diff)
        return c.rule(Remedy.ATTENTION, f"The result entered differs from the cards: {said}. The cards' result "
                      "is scored; the director checks the table.", extra={"entered": entered, "derived": got,
                                                                          "differs": diff})


def twelfth_rulings(h: bh.BridgeHand) -> list[Ruling]:
    """``BP-62``: play is over with revokes in trick 12 still to correct; the hand is scored once they are.
    One ruling for each offender, since each must make his own correction (two players may revoke in trick
    12, and the second would otherwise never be asked)."""
    assert h.play is not None
    return [bh.rule("BP-62", f"{h.code}, law 62", Remedy.ATTENTION, f"Play is over, but {name(r.seat)}'s "
                    "revoke in trick 12 must still be corrected (a card of the suit led instead); the "
                    "hand is scored once it is.", seat=r.seat,
                    extra={"card": r.card.code, "trick": 12, "options": ["correct"]})
            for r in h.play.revokes if r.trick == 12 and r.status is not RevokeStatus.CORRECTED]


def untold(h: bh.BridgeHand, transfers: list[Transfer]) -> list[Transfer]:
    """The transfers of ``h``'s play not yet ruled as they stand now, noted as ruled. Play is rectified again
    after it ended (a twelfth-trick revoke corrected, a revoke found in the tricks), and the transfers
    already ruled come back from ``Play.rectification`` with the rest: each is ruled once, and again only
    when what it moves or why has changed (a revoke found since moved a trick first, or made it both
    sides' revokes, law 64B7; a correction changed who won tricks 12 and 13)."""
    assert h.play is not None
    out = []
    for t in transfers:
        i = next(n for n, r in enumerate(h.play.revokes) if r is t.revoke)
        now = (t.tricks, tuple(t.counted), t.reason)
        if h.transferred.get(i) != now:
            h.transferred[i] = now
            out.append(t)
    return out


def transfer_rulings(code: str, transfers: list[Transfer]) -> list[Ruling]:
    """The ``BP-64`` ruling for each revoke's transfer: a ``penalty`` naming the tricks that move, or an
    ``attention`` where none does (the director may restore equity: the 2017 laws' 64C at a duplicate
    table, cited there; the rubber code's paragraph is not cited)."""
    out = []
    equity = "The director may restore equity" + (" (law 64C)" if code == "Duplicate Bridge" else "")
    for t in transfers:
        extra = {"revoke_trick": t.revoke.trick, "offender": t.revoke.seat.value, "tricks": t.tricks,
                 "to_side": t.to_side.value, "counted": list(t.counted)}
        if t.tricks:
            out.append(bh.rule("BP-64", f"{code}, law 64", Remedy.PENALTY, f"{t.reason} "
                               f"{_count(t.tricks).capitalize()} go{'es' if t.tricks == 1 else ''} to "
                               f"{side_text(t.to_side)}.", side=t.to_side, extra=extra))
        else:
            out.append(bh.rule("BP-64", f"{code}, law 64", Remedy.ATTENTION, f"{t.reason} {equity} if the "
                               "non-offending side was damaged.",
                               seat=t.revoke.seat, extra=extra))
    return out


def score_args(s: TableState, e: ResultRecorded | None) -> tuple[Seat, Contract, int, Any] | None:
    """``(declarer, contract, tricks, honours)`` the rubber scorer takes for this hand: the cards' where
    the table recorded them, the typed result's otherwise. Honours are the hands' whenever the shoe read
    the whole deal, a typed result's included (docs/scoring.md 15: the typed ``honours`` count only when
    the table does not know the deal; a claim the cards contradict was scored before). None when the cards
    have already scored the hand, or, at the end of play (``e`` None), when they cannot score it (no play
    recorded, a revoke on the twelfth trick to correct). Marks the hand scored.

    Raises:
        ValueError: a typed result without declarer and contract for a hand whose auction was not recorded.
    """
    h = bh.hand(s)
    if h is not None and h.scored is not None:
        return None
    play = h.play if h is not None else None
    if h is None or play is None:
        if e is None:
            return None
        if e.declarer is None or e.contract is None:
            raise ValueError("a bridge result needs declarer and contract")
        contract = parse_contract(e.contract)
        if e.honours is not None and contract.strain == "NT" and e.honours[1] != 150:
            raise ValueError("at notrump only four aces count as honours, worth 150")
        honours = e.honours
        if h is not None and h.known is not None:
            honours = bridge_auction.honours(h.known, contract.strain)
        return e.declarer, contract, e.tricks, honours
    ended = play.ended and not twelfth_open(play)
    if e is None and not ended:
        return None
    tricks = play.result().declarer_tricks if ended else e.tricks if e is not None else 0
    honours = h.honours if h.known is not None else (e.honours if e is not None else None)
    h.scored = {"contract": play.contract.code, "declarer": play.declarer.value, "tricks": tricks}
    return play.declarer, play.contract, tricks, honours
