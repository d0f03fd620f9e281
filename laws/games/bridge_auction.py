"""Contract Bridge, the auction as it is played (docs/laws.md ``BP-17`` to ``BP-39``): each ``call`` judged by
the auction model (``laws.bridge.auction``), legal calls applied, irregular ones ruled with the law and
its options, and the contract and declarer when the auction closes.

What each irregularity does here (the options are the model's, ``laws.bridge.verdicts``, after the 2017
laws; docs/laws.md's paraphrase is older where they differ, and docs/events.md says which we follow):

* An insufficient bid (``BP-27``) or a call out of rotation (``BP-28-32``) waits for the offender's
  left-hand opponent: an ``accept``, or any call of his (calling over it accepts it), makes it stand; any
  other call cancels it, and so does a director's ``bar`` entered while it waits (his ruling that it is
  not accepted: the only way to decline a call made at the left-hand opponent's own turn). A ruling names the options and lights the chooser's lamp. After the cancel, the
  offender's replacement is checked: the lowest sufficient bid (``BP-27``) or the same call again
  (``BP-28-32``) brings nothing more; any other is for the director to judge, who enters the ``bar`` it
  brings. A pass out of turn at the right-hand opponent's turn bars the offender at his next turn as soon
  as it is cancelled (law 30A).
* A change of call (a second call before the left-hand opponent's) is cancelled and left to the director.
* An inadmissible call (``BP-35-36``) is never accepted: cancelled at once, the bars the law names made
  at once, and the offender calls again.
* A call after the close (``BP-39``) is cancelled; the director is called only where lead restrictions
  may follow.
* The close (``BP-22``): a ``contract`` ruling with the contract, declarer, dummy and opening leader; four
  passes pass the deal out (no score in rubber bridge; the next dealer deals).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from laws.bridge.auction import Auction
from laws.bridge.calls import Call, CallKind, parse_call
from laws.bridge.play import Play
from laws.bridge.tricks import PlayError
from laws.bridge.verdicts import REST, CallIrregularity, CallVerdict, Option, name
from laws.cards import Seat, Side
from laws.events import CallMade, DealEnded, IrregularityAccepted, IrregularityDeclined, PlayerBarred
from laws.games import bridge_hand as bh
from laws.games.base import Clause, Registry, side_text
from laws.rulings import Remedy, Ruling
from laws.state import TableState

_CI = CallIrregularity


def bars_text(bars: tuple[tuple[Seat, int], ...] | list[tuple[Seat, int]]) -> str:
    """"South must pass for the rest of the auction", "North must pass at the next turn"."""
    parts = []
    for seat, n in bars:
        when = ("for the rest of the auction" if n == REST else "at the next turn" if n == 1
                else f"at the next {n} turns")
        parts.append(f"{name(seat)} must pass {when}")
    return "; ".join(parts)


def bars_data(bars: tuple[tuple[Seat, int], ...]) -> list[list[Any]]:
    return [[seat.value, "rest" if n == REST else n] for seat, n in bars]


def choices(options: tuple[Option, ...]) -> list[dict[str, Any]]:
    """The options as data for a ruling's ``extra`` (docs/events.md, "choices")."""
    out = []
    for o in options:
        item: dict[str, Any] = {"code": o.code, "text": o.text, "by": o.by.value if o.by else None}
        if o.call is not None:
            item["call"] = o.call.code
        if o.bars:
            item["bars"] = bars_data(o.bars)
        if o.lead_restrictions:
            item["lead_restrictions"] = True
        out.append(item)
    return out


def _auction_hand(s: TableState, what: str) -> bh.BridgeHand:
    h = bh.hand(s)
    if h is None:
        raise ValueError(f"{what}: there is no auction (the deal has not ended)")
    if not h.captured and s.deal is not None and s.deal.plays and h.play is None:
        raise ValueError(f"{what}: cards have been played in this deal with no auction recorded, so a "
                         "call cannot be taken now")
    return h


def _apply_bars(a: Auction, bars: tuple[tuple[Seat, int], ...]) -> None:
    for seat, n in bars:
        a.bar(seat, "rest" if n == REST else n)


def _irregular(c: Clause, h: bh.BridgeHand, v: CallVerdict, tail: str, *, remedy: Remedy,
               seat: Seat | None, bars: tuple[tuple[Seat, int], ...] = (), words: bool = True) -> Ruling:
    """The ruling on an irregular call: the law, the facts, the options in words (unless not ``words``)
    and as data."""
    h.irregular = (c.id, v.law)
    said = " ".join(o.text for o in v.options) if words else ""
    extra: dict[str, Any] = {"irregularity": v.kind.value if v.kind else "", "call": v.text,
                             "offender": v.seat.value, "options": [o.code for o in v.options],
                             "choices": choices(v.options)}
    if v.detail:
        extra["detail"] = v.detail
    if bars:
        extra["bars"] = bars_data(bars)
    return bh.rule(c.id, v.law, remedy, f"{v.reason} {said}{tail}".strip(), seat=seat, extra=extra)


def _cancel(h: bh.BridgeHand, p: bh.Pending, by: Seat | None, declined: bool = False) -> list[Ruling]:
    """A waiting call that was not accepted (``by``: the player whose call cancelled it, or with ``declined``
    who declined it; None: the director ruled it not accepted, by entering a bar): cancelled; what the law
    makes follow, at once or at the offender's next call."""
    assert p.call is not None
    v = h.auction.cancel(p.seat, p.call)
    forced = tuple(b for o in v.options if o.by is None and o.code != "accept" for b in o.bars)  # by the law itself
    other = next((o for o in v.options if o.code == "other"), None)
    if "bar_partner" in p.options:                       # law 27B4: the bar is certain
        forced, other = ((p.seat.partner, REST),), None
    _apply_bars(h.auction, forced)
    if other is not None:   # the call that brings nothing more for sure: the lowest sufficient bid, a repeat
        free = (v.lowest_sufficient if p.kind == _CI.INSUFFICIENT.value else
                p.call if "repeat" in p.options else None)
        h.watch = bh.Watch(p.seat, p.clause, p.law, free, other.bars, p.call.words)
    acceptor = " or ".join(name(x) for x in p.accept_by) or name(p.seat.left)
    who = (f"{name(by)} does not accept {name(p.seat)}'s {p.call.words}" if declined and by is not None
           else f"The director rules that {acceptor} does not accept {name(p.seat)}'s {p.call.words}" if by is None
           else f"{name(by)} called again before {acceptor} accepted his {p.call.words}" if by == p.seat
           else f"{name(by)} called before {acceptor} accepted {name(p.seat)}'s {p.call.words}")
    text = f"{who}, so it is cancelled" + (f": {bars_text(forced)}." if forced else "; the auction goes on.")
    return [bh.rule(p.clause, p.law, Remedy.PENALTY if forced else Remedy.DEAL_STANDS, text, seat=p.seat,
                    extra={"call": p.call.code, "cancelled": True,
                           **({"bars": bars_data(forced)} if forced else {})})]


def _second_insufficient(h: bh.BridgeHand, seat: Seat, kind: str) -> bool:
    """Whether ``seat``'s insufficient bid replaces his own cancelled insufficient bid (law 27B4)."""
    w = h.watch
    return kind == _CI.INSUFFICIENT.value and w is not None and w.seat == seat and w.clause == "BP-27"


def _resolve(h: bh.BridgeHand, seat: Seat) -> list[Ruling]:
    """A call arrives while an irregular call waits: from the player entitled to accept, it accepts it
    by calling over it; from anyone else, the waiting call is cancelled."""
    p = h.pending
    if p is None or p.what != "call" or p.call is None:
        return []
    h.pending = None
    if seat in p.accept_by:
        h.auction.accept(p.seat, p.call)
        return [bh.rule(p.clause, p.law, Remedy.DEAL_STANDS, f"{name(seat)} called over {name(p.seat)}'s "
                        f"{p.call.words}, which accepts it: it stands and the auction goes on.", seat=p.seat,
                        extra={"call": p.call.code, "accepted": True})]
    return _cancel(h, p, seat)


def _replacement(h: bh.BridgeHand, seat: Seat, call: Call) -> list[Ruling]:
    """The offender of a cancelled call calls again: nothing more, or the director judges."""
    w = h.watch
    if w is None or w.seat != seat:
        return []
    h.watch = None
    if w.free is not None and call == w.free:
        return []
    h.bar_asked = w.bars
    if _cancelled_by_bar(w.clause, call):
        bars = f"it is cancelled and {name(seat)} calls again (law 27B3), and {bars_text(w.bars)}"
    else:
        bars = bars_text(w.bars)
    extra = {"offender": seat.value, "call": call.code, "options": ["comparable", "bar"],
             "bars": bars_data(w.bars), "choices": [
                 {"code": "comparable", "text": "a comparable call: nothing more", "by": None},
                 {"code": "bar", "text": bars_text(w.bars), "by": None, "bars": bars_data(w.bars)}]}
    return [bh.rule(w.clause, w.law, Remedy.ATTENTION, f"{name(seat)} replaced the cancelled {w.what} with "
                    f"{call.words}. The director judges whether it is comparable (nothing more); if it is "
                    f"not, {bars}, and lead restrictions may apply: he enters the bar.",
                    seat=seat, extra=extra)]


def _cancelled_by_bar(clause: str, call: Call) -> bool:
    """Law 27B3: a double or redouble in place of an insufficient bid, unless comparable, is cancelled."""
    return clause == "BP-27" and call.kind in (CallKind.DOUBLE, CallKind.REDOUBLE)


def _take_back(h: bh.BridgeHand, barred: Seat, clause: str) -> Call | None:
    """The director bars after judging a replacement: the offender's double or redouble replacing an
    insufficient bid (law 27B3), still the last call, is cancelled too. Returns it, or None."""
    calls = h.auction.calls
    if h.bar_asked is None or not calls:
        return None
    last = calls[-1]
    if last.seat != barred.partner or not _cancelled_by_bar(clause, last.call) or \
            (barred, REST) not in h.bar_asked:
        return None
    h.auction.take_back(last.seat, clause)
    return last.call


def _answered(s: TableState, e: IrregularityAccepted | IrregularityDeclined, nothing: str) -> bh.Pending | None:
    """The irregularity waiting for the entry ``e`` (None: an earlier clause took it, for this same entry).

    Raises:
        ValueError: ``nothing``, when nothing waits.
    """
    h = bh.hand(s)
    p = h.pending if h is not None else None
    if p is None and not (h is not None and h.verdict is e):
        raise ValueError(nothing)
    return p


def accepting(s: TableState, e: IrregularityAccepted, clause: str) -> bh.Pending | None:
    """The waiting irregularity an ``accept`` takes, when it is ``clause``'s.

    Raises:
        ValueError: nothing waits, or ``e.seat`` may not accept it.
    """
    p = _answered(s, e, "accept: no irregular call or card is waiting to be accepted")
    if p is None:
        return None
    if e.seat not in p.accept_by:
        who = " or ".join(name(x) for x in p.accept_by) or "nobody"
        raise ValueError(f"accept: {name(e.seat)} may not accept {name(p.seat)}'s "
                         f"{p.call.words if p.call else p.card.name if p.card else 'call'}; {who} may")
    return p if p.clause == clause else None


def declining(s: TableState, e: IrregularityDeclined, clause: str) -> bh.Pending | None:
    """The waiting call a ``decline`` takes, when it is ``clause``'s.

    Raises:
        ValueError: no call waits, or ``e.seat`` may not accept it (and so not decline it either).
    """
    p = _answered(s, e, "decline: no irregular call is waiting to be accepted")
    if p is None:
        return None
    if p.what != "call" or p.call is None:
        raise ValueError(f"decline: {name(p.seat)}'s {p.card.name if p.card else 'card'} waits, not a call: a card "
                         "not accepted is taken back (withdraw)")
    if e.seat not in p.accept_by:
        who = " or ".join(name(x) for x in p.accept_by) or "nobody"
        raise ValueError(f"decline: {name(e.seat)} may not accept {name(p.seat)}'s {p.call.words}, so he "
                         f"cannot decline it; {who} may")
    return p if p.clause == clause else None


def _declined(c: Clause, s: TableState, e: IrregularityDeclined) -> list[Ruling]:
    """A ``decline``: the waiting call of this clause is cancelled, as when another player called over it."""
    h = bh.hand(s)
    p = declining(s, e, c.id)
    if h is None or p is None:
        return []
    h.pending = None
    h.verdict = e
    return _cancel(h, p, e.seat, declined=True)


def _reopened(h: bh.BridgeHand) -> list[Ruling]:
    """The passes would have closed the auction, but one was a pass out of rotation, accepted, that passed
    over a player (``BP-22``; 2017 law 17E2, the rubber code's law 34): the auction goes back to him and
    the passes after it are cancelled, with nothing more."""
    a = h.auction
    back = a.reopened
    if back is None:
        return []
    a.reopened = None
    law = f"{h.code}, law 34" if a.rubber else f"{h.code}, law 17"
    gone = "; ".join(f"{name(seat)}'s pass after it is cancelled" for seat, _ in back.cancelled)
    reason = (f"{name(back.offender)}'s pass out of rotation, accepted, passed over {name(back.deprived)}, who "
              f"has not called since, so the auction does not close: it goes back to {name(back.deprived)}"
              + (f"; {gone}" if gone else "") + ".")
    return [bh.rule("BP-22", law, Remedy.DEAL_STANDS, reason, seat=back.deprived,
                    extra={"reopened": True, "offender": back.offender.value,
                           "cancelled": [code for _, code in back.cancelled]})]


def _closed(h: bh.BridgeHand, s: TableState) -> list[Ruling]:
    """The auction has just closed: the contract, or the deal passed out (``BP-22``)."""
    a = h.auction
    if not a.closed or h.play is not None or h.scored is not None:
        return []
    calls = [c.call.code for c in a.calls]
    if a.passed_out:
        h.scored = {"passed_out": True}
        h.pending = h.watch = h.bar_asked = None
        if not a.rubber:
            # A duplicate table: the next board's number names its dealer (DB-2), and the next board this
            # table plays need not be the next number, so the ruling names no dealer.
            return [bh.rule("BP-22", f"{h.code}, law 22", Remedy.CONTRACT, "All four players passed: the board "
                            "is passed out and scores nothing; the next board's dealer is the one its own "
                            "number gives.", extra={"passed_out": True, "contract": "Pass", "calls": calls})]
        nxt = s.next_dealer
        return [bh.rule("BP-22", f"{h.code}, law 22", Remedy.CONTRACT, "All four players passed: the deal is "
                        "passed out and scores nothing" + (f"; {name(nxt)} deals next." if nxt else "."),
                        dealer=nxt, extra={"passed_out": True, "contract": "Pass", "calls": calls})]
    contract = a.contract()
    declarer = a.declarer
    assert contract is not None and declarer is not None
    try:
        h.play = Play(contract, declarer, h.known, rubber=a.rubber)
    except PlayError:
        h.play = Play(contract, declarer, None, rubber=a.rubber)
    h.honours = honours(h.known, contract.strain)
    h.pending = h.watch = h.bar_asked = None
    extra = {"contract": contract.code, "declarer": declarer.value, "dummy": declarer.partner.value,
             "opening_leader": declarer.left.value, "calls": calls, "hands_known": h.known is not None}
    return [bh.rule("BP-22", f"{h.code}, law 22", Remedy.CONTRACT, f"The auction has closed: {side_text(declarer.side)} "
                    f"play {contract.describe()}, {name(declarer)} declarer; {name(declarer.left)} leads.",
                    seat=declarer, side=declarer.side, extra=extra)]


def honours(hands: dict[Seat, list[Any]] | None, strain: str) -> tuple[Side, int] | None:
    """Rubber bridge honours one hand holds (``CB-rubber``): four or five of the trump ace to ten (100,
    150), or the four aces at notrump (150); None when none or the hands are not known."""
    if hands is None:
        return None
    best: tuple[Side, int] | None = None
    for seat, cards in hands.items():
        if strain == "NT":
            n = sum(1 for c in cards if c.rank == "A")
            pts = 150 if n == 4 else 0
        else:
            n = sum(1 for c in cards if c.suit == strain and c.rank in "AKQJT")
            pts = {4: 100, 5: 150}.get(n, 0)
        if pts and (best is None or pts > best[1]):
            best = (seat.side, pts)
    return best


def register(reg: Registry) -> None:
    """The auction's clauses, in the order they are tried."""

    @reg.clause("BP-17", "the auction (Duplicate Bridge law 17)", "deal_end", "call")
    def rotation(c: Clause, s: TableState, e: DealEnded | CallMade) -> list[Ruling] | None:
        """The auction starts with the dealer and goes clockwise, one call a turn; a legal call stands."""
        if isinstance(e, DealEnded):
            bh.start(s)
            return None
        h = _auction_hand(s, f"{name(e.seat)}'s {e.call}")
        h.captured = True
        out = _resolve(h, e.seat)
        back = h.auction.reopened
        if back is not None:
            # law 17E2 (rubber law 34): the pass this call accepted did not close the auction (BP-22 says so
            # first); a pass made after it is cancelled with nothing more and the player passed over calls,
            # and any other call is judged in that player's turn
            if e.call.strip().lower() == "pass":
                code = parse_call("pass").code
                back.cancelled.append((e.seat, code))
                h.auction.cancelled.append((e.seat, code, "BP-22"))
                h.verdict = None
                return out + _reopened(h)
            out += _reopened(h)
        v = h.auction.judge_text(e.seat, e.call)    # a bid above seven is no Call: its verdict all the same
        h.verdict = v
        if v.legal and v.call is not None:
            out += _replacement(h, e.seat, v.call)
            h.auction.add(e.seat, v.call)
        return out

    @reg.clause("BP-27", "insufficient bid (Duplicate Bridge law 27)", "call", "accept", "decline")
    def insufficient(c: Clause, s: TableState,
                     e: CallMade | IrregularityAccepted | IrregularityDeclined) -> Ruling | list[Ruling] | None:
        """An insufficient bid: the next player may accept it; otherwise the law's replacements."""
        if isinstance(e, IrregularityDeclined):
            return _declined(c, s, e)
        return _waiting(c, s, e, _CI.INSUFFICIENT)

    @reg.clause("BP-28-32", "call out of rotation (Duplicate Bridge laws 28-32)", "call", "accept", "decline")
    def out_of_rotation(c: Clause, s: TableState,
                        e: CallMade | IrregularityAccepted | IrregularityDeclined) -> Ruling | list[Ruling] | None:
        """A call out of rotation: the offender's left-hand opponent may accept it; otherwise it is
        cancelled, with what the kind of call brings."""
        if isinstance(e, IrregularityDeclined):
            return _declined(c, s, e)
        h = bh.hand(s)
        if isinstance(e, CallMade) and h is not None and isinstance(h.verdict, CallVerdict) and \
                h.verdict.kind is _CI.OUT_OF_ROTATION and h.verdict.accept_by is None:
            v = h.verdict
            assert v.call is not None
            h.auction.cancel(e.seat, v.call)
            h.bar_asked = ()  # a change of call (law 25): the director rules, and may bar
            return _irregular(c, h, v, " It is cancelled.", remedy=Remedy.ATTENTION, seat=e.seat)
        return _waiting(c, s, e, _CI.OUT_OF_ROTATION)

    @reg.clause("BP-35-36", "inadmissible call (Duplicate Bridge laws 35-38)", "call")
    def inadmissible(c: Clause, s: TableState, e: CallMade) -> Ruling | None:
        """An inadmissible call is cancelled at once, and the bars the law names follow."""
        h = bh.hand(s)
        if h is None or not isinstance(h.verdict, CallVerdict) or h.verdict.kind is not _CI.INADMISSIBLE:
            return None
        v = h.verdict
        h.auction.cancel(e.seat, v.call if v.call is not None else v.text)
        bars = tuple(b for o in v.options for b in o.bars)
        _apply_bars(h.auction, bars)
        turn = h.auction.turn
        # made out of turn (a double or redouble the rules do not allow too), it gives the turn to nobody:
        # the player whose turn it was calls, and the offender makes his legal call at his own turn
        tail = (f" {name(e.seat)} calls again." if turn == e.seat else
                f" It is {name(turn)}'s turn to call." if turn is not None and v.detail == "above_seven" else
                f" It is {name(turn)}'s turn to call; {name(e.seat)} makes his legal call at his own turn."
                if turn is not None else "")
        return _irregular(c, h, v, tail, remedy=Remedy.PENALTY, seat=e.seat, bars=bars)

    @reg.clause("BP-39", "call after the auction closed (Duplicate Bridge law 39)", "call")
    def after_close(c: Clause, s: TableState, e: CallMade) -> Ruling | None:
        """A call after the auction has closed is cancelled."""
        h = bh.hand(s)
        if h is None or not isinstance(h.verdict, CallVerdict) or h.verdict.kind is not _CI.AFTER_CLOSE:
            return None
        v = h.verdict
        h.auction.cancel(e.seat, v.call if v.call is not None else v.text)
        restricted = any(o.lead_restrictions for o in v.options)
        return _irregular(c, h, v, " Lead restrictions may apply: the director is called." if restricted else "",
                          remedy=Remedy.ATTENTION if restricted else Remedy.DEAL_STANDS, seat=e.seat, words=False)

    @reg.clause("BP-22", "the end of the auction (Duplicate Bridge law 22)", "call", "accept")
    def close(c: Clause, s: TableState, e: CallMade | IrregularityAccepted) -> list[Ruling]:
        """Three passes after a call close the auction (four at the start pass the deal out): the
        contract and its declarer, the first of his side to name the strain."""
        h = bh.hand(s)
        if h is None:
            return []
        return _reopened(h) or _closed(h, s)

    @reg.clause("BP-bar", "a bar the director enters (Duplicate Bridge laws 23, 27-32, 36-37)", "bar")
    def barred(c: Clause, s: TableState, e: PlayerBarred) -> list[Ruling]:
        """The director's bar after an irregular call: the player must pass that many turns, or to the end.
        Entered while the call still waits for acceptance, it is also his ruling that it is not accepted."""
        h = _auction_hand(s, "bar")
        if h.auction.closed:
            raise ValueError("bar: the auction has closed")
        if h.irregular is None:
            raise ValueError("bar: no irregularity in this auction calls for a bar")
        n = e.rounds if isinstance(e.rounds, int) else REST
        out: list[Ruling] = []
        p = h.pending
        if p is not None and p.what == "call" and p.call is not None:
            # a bar while an irregular call waits for acceptance is the director's ruling that it is not
            # accepted (the only way to decline a call made at its acceptor's own turn, whose call would
            # accept it): it is cancelled first, with the bars the law makes at once
            h.pending = None
            out = _cancel(h, p, None)
            if bars_data(((e.seat, n),))[0] in out[0].extra.get("bars", []):
                h.watch = h.bar_asked = None
                return out      # the bar entered is the one the law makes: the cancel says it
        clause, law = h.irregular
        gone = _take_back(h, e.seat, clause) if n == REST else None
        h.auction.bar(e.seat, "rest" if n == REST else n)
        h.watch = h.bar_asked = None
        extra: dict[str, Any] = {"bars": bars_data(((e.seat, n),))}
        first = ""
        if gone is not None:
            extra["cancelled"] = gone.code
            first = (f"{name(e.seat.partner)}'s {gone.words} is not comparable, so it is cancelled and he calls "
                     "again (law 27B3); ")
        return out + [bh.rule(clause, law, Remedy.PENALTY, f"The director rules: {first}{bars_text([(e.seat, n)])}.",
                              seat=e.seat, extra=extra)]


def _waiting(c: Clause, s: TableState, e: CallMade | IrregularityAccepted, kind: CallIrregularity) -> Ruling | None:
    """An irregular call of ``kind`` that may be accepted: it waits (the ruling names the options); an
    ``accept`` of it makes it stand."""
    h = bh.hand(s)
    if h is None:
        return None
    if isinstance(e, IrregularityAccepted):
        p = accepting(s, e, c.id)
        if p is None or p.call is None:
            return None
        h.pending = None
        h.verdict = e
        h.auction.accept(p.seat, p.call)
        return bh.rule(c.id, p.law, Remedy.DEAL_STANDS, f"{name(e.seat)} accepts {name(p.seat)}'s {p.call.words}: "
                       "it stands and the auction goes on.", seat=p.seat,
                       extra={"call": p.call.code, "accepted": True})
    v = h.verdict
    if not isinstance(v, CallVerdict) or v.kind is not kind or v.accept_by is None or v.call is None:
        return None
    acceptor, call = v.accept_by, v.call
    if _second_insufficient(h, e.seat, kind.value):
        partner = e.seat.partner
        v = replace(v, options=(v.options[0], Option(
            "bar_partner", f"Otherwise it is cancelled (a second insufficient bid, law 27B4): {name(e.seat)} "
            f"calls again, and {name(partner)} must pass for the rest of the auction; lead restrictions may "
            "apply.", bars=((partner, REST),), lead_restrictions=True)))
        h.verdict = v
        h.watch = None          # the first bid's replacement is this one: nothing more to judge of it
    h.pending = bh.Pending("call", e.seat, c.id, kind.value, v.detail, call=call, accept_by=(acceptor,),
                           options=tuple(o.code for o in v.options), law=v.law)
    return _irregular(c, h, v, " The director is called.", remedy=Remedy.ATTENTION, seat=acceptor)
