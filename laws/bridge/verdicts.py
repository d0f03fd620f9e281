"""What the auction model says about one call: legal, or which irregularity, under which law, with the
options the laws give (docs/laws.md ``BP-27``, ``BP-28-32``, ``BP-35-36``, ``BP-39``).

A verdict never chooses: it names the facts and lists the courses open to the players or the director as
:class:`Option` values (who takes it, what call it names, which players it bars, whether lead
restrictions may follow). The clause that wires the model into the engine names them and calls the
director; the auction changes only when :meth:`~laws.bridge.auction.Auction.accept`,
:meth:`~laws.bridge.auction.Auction.cancel` or :meth:`~laws.bridge.auction.Auction.bar` is called.

The options follow the *Laws of Duplicate Bridge* (WBF, 2017), whose numbers docs/laws.md uses:

* ``BP-27`` (law 27): the offender's left-hand opponent may accept the insufficient bid. If not, the
  lowest sufficient bid in the same strain, or a comparable call, lets the auction go on with nothing
  more; any other replacement (another sufficient bid, a pass, a double or redouble) bars the offender's
  partner for the rest of the auction, with lead restrictions.
* ``BP-28-32`` (laws 29-32): the offender's left-hand opponent may accept the call by calling over it. If
  not, it is cancelled and the turn goes back to the player whose turn it was. What follows depends on
  the kind of call (a pass; a bid; a double or redouble) and on whose turn it was:

  - at the right-hand opponent's turn: after a *pass* the offender must pass at his next turn (law 30A);
    after a *bid, double or redouble*, if that opponent passes the offender must repeat the call (no
    more), and if he calls, the offender may call as he likes: a comparable call brings nothing more, any
    other call bars his partner for one turn (laws 31A, 32A);
  - at the partner's turn, or at the left-hand opponent's turn when the offender has not called yet
    (the dealer's right-hand opponent calling first), the governing code decides. At a duplicate table
    (the 2017 laws 30B, 31B and 32B) the partner calls as he likes; at his own turn the offender may make
    any legal call: a comparable call brings nothing more, any other bars his partner at the next turn,
    with lead restrictions (the director judges which, and enters the bar). At a rubber table (the
    rubber code, ``Auction.rubber``): after a *bid, double or redouble* the offender's partner must pass
    for the rest of the auction, with lead restrictions; after a *pass* the offender himself must pass for
    the rest of the auction when a bid had been made, and at his next turn only when nobody had bid yet;
  - at the left-hand opponent's turn after the offender has called: a change of call (law 25), for the
    director (laws 30C, 31C).
* ``BP-35-36`` (laws 36-38): an inadmissible double or redouble (of one's own side's bid, of no bid, of a
  bid already doubled; a redouble with no double of one's own side's bid) cannot be accepted: it is
  cancelled, the offender makes a legal call, and his partner must pass for the rest of the auction
  (36B). A bid above seven (38) and a call by a player who must pass (37) are cancelled and the offending
  side must pass for the rest of the auction. Lead restrictions may follow each.
* ``BP-39`` (law 39): a call after the auction has closed is cancelled; a pass by a defender, or any call
  by declarer or dummy, brings nothing more, another call by a defender may bring lead restrictions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from laws.bridge.calls import Call, CallKind
from laws.cards import Seat

REST = -1   # a bar for the rest of the auction (in ``bars`` pairs and Auction.bars)
SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
SIDE_WORDS = {"NS": "North-South", "EW": "East-West"}


class CallIrregularity(StrEnum):
    """The irregularity a call is, if any. Each maps to one docs/laws.md row (:data:`CLAUSES`)."""

    INSUFFICIENT = "insufficient_bid"          # BP-27
    OUT_OF_ROTATION = "call_out_of_rotation"   # BP-28-32
    INADMISSIBLE = "inadmissible_call"         # BP-35-36
    AFTER_CLOSE = "call_after_close"           # BP-39


CLAUSES: dict[CallIrregularity, str] = {
    CallIrregularity.INSUFFICIENT: "BP-27",
    CallIrregularity.OUT_OF_ROTATION: "BP-28-32",
    CallIrregularity.INADMISSIBLE: "BP-35-36",
    CallIrregularity.AFTER_CLOSE: "BP-39",
}


@dataclass(frozen=True)
class Option:
    """One course the laws open after an irregular call.

    Attributes:
        code: ``accept``, ``lowest_sufficient``, ``comparable``, ``other``, ``repeat``, ``pass_next``,
            ``substitute``, ``cancel`` or ``change_of_call``.
        text: the option in players' words.
        by: the player who takes it (None: it follows from the laws or the director).
        call: the call it names (the lowest sufficient bid; the call to repeat), if any.
        bars: ``(seat, turns)`` pairs it brings: that player must pass at his next ``turns`` turns
            (:data:`REST`: for the rest of the auction). Apply them with ``Auction.bar``.
        lead_restrictions: whether lead restrictions (law 26) may follow if the offenders defend.
    """

    code: str
    text: str
    by: Seat | None = None
    call: Call | None = None
    bars: tuple[tuple[Seat, int], ...] = ()
    lead_restrictions: bool = False


@dataclass(frozen=True)
class CallVerdict:
    """The auction model's word on one call, given without changing the auction.

    Attributes:
        seat: who called.
        text: the call as made (its event spelling; the text itself for a bid above seven).
        call: the call, or None for a bid above seven (no such call exists).
        kind: the irregularity, or None when the call is legal.
        detail: the sub-kind: for ``OUT_OF_ROTATION`` ``<pass|bid|double|redouble>_at_<position>`` or
            ``change_of_call``; for ``INADMISSIBLE`` ``double_no_bid``, ``double_own_side``,
            ``double_doubled``, ``redouble_not_doubled``, ``redouble_redoubled``, ``above_seven`` or
            ``must_pass``; ``""`` otherwise.
        turn: whose turn it was (None once the auction has closed).
        position: for a call out of rotation, whose turn it was as seen by the caller: ``partner``,
            ``rho`` (right-hand opponent) or ``lho`` (left-hand opponent); ``""`` otherwise.
        offender_had_called: for a call out of rotation, whether the caller had called before.
        lowest_sufficient: for an insufficient bid, the lowest sufficient bid in its strain (None when
            no bid in that strain is high enough).
        accept_by: who may accept the call (the offender's left-hand opponent), or None.
        options: what the laws allow next (see the module docstring).
        reason: one sentence in players' words naming the facts.
        law: the citation, e.g. ``"Duplicate Bridge, law 27"``.
    """

    seat: Seat
    text: str
    call: Call | None
    kind: CallIrregularity | None = None
    detail: str = ""
    turn: Seat | None = None
    position: str = ""
    offender_had_called: bool = False
    lowest_sufficient: Call | None = None
    accept_by: Seat | None = None
    options: tuple[Option, ...] = ()
    reason: str = ""
    law: str = ""

    @property
    def legal(self) -> bool:
        return self.kind is None

    @property
    def clause(self) -> str:
        """The docs/laws.md id of the irregularity (``BP-27`` …), ``BP-17`` for a legal call."""
        return CLAUSES[self.kind] if self.kind is not None else "BP-17"


def name(seat: Seat) -> str:
    return SEAT_NAMES[seat]


def insufficient_options(seat: Seat, low: Call | None) -> tuple[Option, ...]:
    """Law 27: accept; the lowest sufficient bid in the strain or a comparable call; anything else."""
    partner = seat.partner
    out = [Option("accept", f"{name(seat.left)} may accept the bid; the auction then goes on from it.",
                  by=seat.left)]
    if low is not None:
        out.append(Option("lowest_sufficient", f"{name(seat)} may bid {low.words} instead, and the auction "
                          "goes on with nothing more.", by=seat, call=low))
    out.append(Option("comparable", f"{name(seat)} may make a comparable call (same meaning, or a "
                      "narrower one) instead, with nothing more.", by=seat))
    out.append(Option("other", f"Any other call instead (another bid, a pass, a double or redouble) means "
                      f"{name(partner)} must pass for the rest of the auction; lead restrictions may "
                      "apply.", by=seat, bars=((partner, REST),), lead_restrictions=True))
    return tuple(out)


def out_of_rotation_options(seat: Seat, call: Call, turn: Seat, position: str,
                            had_called: bool, bid_made: bool = True, rubber: bool = False) -> tuple[Option, ...]:
    """Laws 29-32: who may accept, and what each cancelled call brings (module docstring); ``bid_made``:
    whether anyone had bid before the call; ``rubber``: the rubber code governs (a rubber table), which
    decides a call at the partner's turn differently from the 2017 duplicate code."""
    partner = seat.partner
    if position == "lho" and had_called:
        return (Option("change_of_call", f"{name(seat)} called again before {name(turn)}: a change of "
                       "call, which the director rules on (law 25)."),)
    own = (" (it is his turn, so any call of his accepts it; he may instead decline it, or the "
           "director may rule it not accepted by entering a bar)" if position == "lho" else "")
    accept = Option("accept", f"{name(seat.left)} may accept it by calling over it{own}; the auction then "
                    f"goes on from {name(seat)}.", by=seat.left)
    if position != "rho" and not rubber:  # 2017 laws 30B, 31B, 32B: the partner calls freely
        what = "pass" if call.kind is CallKind.PASS else call.words
        return (accept,
                Option("comparable", f"Otherwise it is cancelled and {name(turn)} calls as he likes; at "
                       f"{name(seat)}'s turn, a call comparable to his {what} brings nothing more.", by=seat),
                Option("other", f"If {name(seat)} then makes a call that is not comparable, {name(partner)} "
                       "must pass at the next turn; lead restrictions may apply.", by=seat,
                       bars=((partner, 1),), lead_restrictions=True))
    if position != "rho":  # the rubber code: partner's turn, or LHO's before the offender has called
        if call.kind is CallKind.PASS:
            rounds, when = (REST, "for the rest of the auction") if bid_made else (1, "at the next turn")
            return (accept, Option("pass_next" if rounds == 1 else "pass_rest", f"Otherwise it is cancelled, "
                                   f"{name(turn)} calls, and {name(seat)} must pass {when}.",
                                   bars=((seat, rounds),)))
        return (accept, Option("partner_rest", f"Otherwise it is cancelled, {name(turn)} calls, and "
                               f"{name(partner)} must pass for the rest of the auction; lead restrictions "
                               "may apply.", bars=((partner, REST),), lead_restrictions=True))
    if call.kind is CallKind.PASS:
        return (accept, Option("pass_next", f"Otherwise it is cancelled, {name(turn)} calls, and "
                               f"{name(seat)} must pass at the next turn.", bars=((seat, 1),)))
    return (accept,
            Option("repeat", f"Otherwise it is cancelled and {name(turn)} calls: if {name(turn)} passes, "
                   f"{name(seat)} must repeat {call.words}, with nothing more.", by=seat, call=call),
            Option("comparable", f"If {name(turn)} bids, doubles or redoubles, {name(seat)} may make any "
                   "legal call; a comparable call brings nothing more.", by=seat),
            Option("other", f"If {name(seat)} then makes a call that is not comparable, {name(partner)} "
                   "must pass at the next turn; lead restrictions may apply.", by=seat,
                   bars=((partner, 1),), lead_restrictions=True))


def inadmissible_options(seat: Seat, detail: str) -> tuple[Option, ...]:
    """Laws 36-38: never accepted; who must pass for the rest of the auction."""
    partner = seat.partner
    side = SIDE_WORDS[seat.side.value]
    if detail.startswith(("double", "redouble")):
        return (Option("substitute", f"It is cancelled: {name(seat)} makes a legal call instead and "
                       f"{name(partner)} must pass for the rest of the auction; lead restrictions may "
                       "apply.", by=seat, bars=((partner, REST),), lead_restrictions=True),)
    return (Option("cancel", f"It is cancelled, and {side} must pass for the rest of the auction; lead "
                   "restrictions may apply.", bars=((seat, REST), (partner, REST)),
                   lead_restrictions=True),)
