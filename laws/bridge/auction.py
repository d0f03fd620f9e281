"""The auction as a small state machine (docs/laws.md ``BP-17`` to ``BP-39``): whose call it is, which calls
are legal, when it closes, the contract and its declarer.

Use::

    a = Auction(Seat.N)
    v = a.judge(Seat.N, parse_call("1H"))     # a CallVerdict; the auction is unchanged
    if v.legal:
        a.add(Seat.N, v.call)
    else:                                      # the clause names v.options and calls the director
        a.cancel(Seat.N, v.call)               # or a.accept(...) when the next player accepts it,
        a.bar(Seat.S, "rest")                  # and the bars the director's choice brings

Rotation (``turn``, ``BP-17``): the dealer calls first, then each player clockwise. After each way of
applying a call:

* :meth:`add` (a legal call): the turn passes to the caller's left.
* :meth:`accept` (an insufficient bid or a call out of rotation that the next player, or the director,
  accepted): the call stands as if it were legal and the turn passes to *the caller's* left, so a call
  out of rotation moves the rotation on from the caller; the players it skipped lose that turn. An
  accepted insufficient bid becomes the bid to beat (the next bid must be higher than it, not than the
  bid it failed to beat).
* :meth:`cancel` (an irregular call not accepted, or an inadmissible one): nothing stands and the turn
  stays where it was: with the player whose turn it was (a call out of rotation), or with the offender,
  who must call again (an insufficient bid, an inadmissible double).
* :meth:`bar`: the player must pass at his next ``rounds`` turns, or for the rest of the auction;
  :meth:`judge` then finds any other call of his inadmissible (``must_pass``). Each pass he makes in turn
  counts one off.

Closing (``BP-22``): three passes in a row after any call, or four passes with no call before them (the
board is passed out, the contract is None). A call after that is ``BP-39``. Except when one of those
passes is an accepted pass out of rotation that passed over a player who has not called since (2017 law
17E2; the rubber code's law 34): that player would lose his last word, so the auction does not close. It
goes back to him, and the passes after the one out of rotation are cancelled (:attr:`reopened` says so
until the clause that rules on it clears it).

The state is plain data (a dataclass of seats, calls, lists and dicts), so ``laws.snapshot`` checkpoints
it as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from laws.bridge import verdicts as v
from laws.bridge.calls import BidAboveSeven, Call, CallKind, lowest_sufficient, parse_call, strain_name
from laws.bridge.verdicts import REST, CallIrregularity, CallVerdict, name
from laws.cards import Seat, clockwise_from
from laws.scoring.bridge import Contract

_DUP = "Duplicate Bridge"
_RUBBER = "Rubber Bridge"


class AuctionError(ValueError):
    """The auction was asked to do something its state does not allow (a programming or input error)."""


@dataclass(frozen=True)
class AuctionCall:
    """A call that stands in the auction.

    Attributes:
        seat: who made it.
        call: the call.
        accepted: the irregularity it was accepted with (an insufficient bid, a call out of rotation),
            or None for a call made in turn and legal.
        skipped: for a call out of rotation accepted, the players whose turn it passed over, in order.
    """

    seat: Seat
    call: Call
    accepted: CallIrregularity | None = None
    skipped: tuple[Seat, ...] = ()


@dataclass
class Reopened:
    """The auction did not close because an accepted pass out of rotation passed over a player (2017 law
    17E2; the rubber code's law 34).

    Attributes:
        offender: who passed out of rotation.
        deprived: the player passed over, who calls now.
        cancelled: ``(seat, call code)`` of each pass after it, cancelled (and the call that accepted it,
            when the clause adds it).
    """

    offender: Seat
    deprived: Seat
    cancelled: list[tuple[Seat, str]] = field(default_factory=list)


@dataclass
class Auction:
    """One deal's auction, dealt by ``dealer``.

    Attributes:
        dealer: who calls first.
        rubber: the rubber code governs (a rubber table), not the 2017 *Laws of Duplicate Bridge* (a
            duplicate table): it decides a call out of rotation at the partner's turn (module docstring).
        calls: the calls that stand, in order.
        to_call: whose turn it is (read :attr:`turn`, which is None once the auction has closed).
        bars: players who must pass: seat -> turns still to pass (:data:`REST`: the rest of the auction).
        cancelled: ``(seat, call text, clause)`` of each call cancelled, in order (for the record).
        reopened: set when the last call applied would have closed the auction but a pass out of rotation
            among the closing passes cost a player his turn (module docstring); the clause clears it.
    """

    dealer: Seat
    rubber: bool = False
    calls: list[AuctionCall] = field(default_factory=list)
    to_call: Seat = field(init=False)
    bars: dict[Seat, int] = field(default_factory=dict)
    cancelled: list[tuple[Seat, str, str]] = field(default_factory=list)
    reopened: Reopened | None = None

    def __post_init__(self) -> None:
        self.to_call = self.dealer

    # -- reading ----------------------------------------------------------------------------------

    @property
    def code(self) -> str:
        """The code the verdicts cite: "Rubber Bridge" at a rubber table, else "Duplicate Bridge"."""
        return _RUBBER if self.rubber else _DUP

    def _trailing_passes(self) -> int:
        trailing = 0
        for c in reversed(self.calls):
            if c.call.kind is not CallKind.PASS:
                break
            trailing += 1
        return trailing

    @property
    def closed(self) -> bool:
        """Whether the auction is over: three passes after a call, or four passes at the start, none of
        them a pass out of rotation that passed over a player who has not called since (law 17E2)."""
        n = len(self.calls)
        trailing = self._trailing_passes()
        closing = (trailing >= 3 and trailing < n) or (trailing == n and n >= 4)
        return closing and self._deprived() is None

    def _deprived(self) -> tuple[int, Seat] | None:
        """Among the closing passes, the first accepted pass out of rotation that passed over a player who
        has not called since: its index in :attr:`calls` and that player; None if there is none."""
        n = len(self.calls)
        trailing = self._trailing_passes()
        window = range(n - trailing if trailing == n else n - 3, n)
        for i in window:
            c = self.calls[i]
            later = {x.seat for x in self.calls[i + 1:]}
            lost = [s for s in c.skipped if s not in later]
            if lost:
                return i, lost[0]
        return None

    @property
    def passed_out(self) -> bool:
        """Closed with no bid: the board is passed out (scores zero)."""
        return self.closed and self.last_bid is None

    @property
    def turn(self) -> Seat | None:
        """Whose call it is (``BP-17``); None once the auction has closed."""
        return None if self.closed else self.to_call

    @property
    def last_bid(self) -> AuctionCall | None:
        """The last bid that stands (the bid to beat), or None."""
        for c in reversed(self.calls):
            if c.call.is_bid:
                return c
        return None

    def _after_last_bid(self) -> list[AuctionCall]:
        """The doubles and redoubles since the last bid."""
        out: list[AuctionCall] = []
        for c in reversed(self.calls):
            if c.call.is_bid:
                break
            if c.call.kind is not CallKind.PASS:
                out.append(c)
        return out[::-1]

    def contract(self) -> Contract | None:
        """The final contract with its doubling, or None when the board is passed out (``BP-22``).

        Raises:
            AuctionError: the auction has not closed yet.
        """
        if not self.closed:
            raise AuctionError("the auction is not over yet")
        last = self.last_bid
        if last is None:
            return None
        doubled = {CallKind.DOUBLE: 1, CallKind.REDOUBLE: 2}
        after = self._after_last_bid()
        return Contract(last.call.level, last.call.strain, doubled[after[-1].call.kind] if after else 0)

    @property
    def declarer(self) -> Seat | None:
        """The player of the declaring side who first bid the final strain (``BP-22``); None while the
        auction is open or when it was passed out."""
        last = self.last_bid
        if last is None or not self.closed:
            return None
        side = last.seat.side
        for c in self.calls:
            if c.call.is_bid and c.call.strain == last.call.strain and c.seat.side is side:
                return c.seat
        return last.seat  # unreachable: the last bid itself qualifies

    @property
    def dummy(self) -> Seat | None:
        """Declarer's partner, or None (see :attr:`declarer`)."""
        d = self.declarer
        return None if d is None else d.partner

    @property
    def opening_leader(self) -> Seat | None:
        """The player on declarer's left (``BP-41``), or None (see :attr:`declarer`)."""
        d = self.declarer
        return None if d is None else d.left

    # -- judging ----------------------------------------------------------------------------------

    def judge(self, seat: Seat, call: Call) -> CallVerdict:
        """What the laws say of ``seat`` making ``call`` now; the auction does not change.

        The checks, in order: the auction has closed (``BP-39``); an inadmissible double or redouble,
        whoever's turn it is (``BP-35-36``: such a call can never be accepted, law 32); a bid, double or
        redouble by a player barred for the rest of the auction, whoever's turn it is (``BP-35-36``, law
        37); not this player's turn (``BP-28-32``; an insufficient bid out of rotation is this kind too,
        law 27A2); a player who must pass at this turn making another call (``BP-35-36``); an
        insufficient bid (``BP-27``).
        """
        text = call.code
        if self.closed:
            return self._after_close(seat, call)
        fault = self._double_fault(seat, call)
        if fault:
            return self._inadmissible(seat, call, text, fault)
        turn = self.to_call
        if seat != turn and self.bars.get(seat) == REST and call.kind is not CallKind.PASS:
            # barred for the rest of the auction, he may make no call but a pass, in turn or not (law 37)
            return self._inadmissible(seat, call, text, "must_pass")
        if seat != turn:
            return self._out_of_rotation(seat, call, turn)
        if seat in self.bars and call.kind is not CallKind.PASS:
            return self._inadmissible(seat, call, text, "must_pass")
        last = self.last_bid
        if call.is_bid and last is not None and call.rank <= last.call.rank:
            low = lowest_sufficient(call.strain, last.call)
            tail = (f"the lowest sufficient bid in {strain_name(call.strain)} is {low.words}" if low
                    else f"no bid in {strain_name(call.strain)} is high enough")
            return CallVerdict(seat, text, call, CallIrregularity.INSUFFICIENT, turn=turn,
                               lowest_sufficient=low, accept_by=seat.left,
                               options=v.insufficient_options(seat, low), law=f"{self.code}, law 27",
                               reason=f"{name(seat)} bid {call.words}, which does not beat "
                                      f"{last.call.words}; {tail}.")
        return CallVerdict(seat, text, call, turn=turn, law=f"{self.code}, law 17")

    def judge_text(self, seat: Seat, text: str) -> CallVerdict:
        """:meth:`judge` for a call as written, so that a bid above seven (which is no :class:`Call`)
        gets its verdict (``BP-35-36``, law 38).

        Raises:
            laws.bridge.calls.CallError: the text is no call at all (bad input, not a law).
        """
        try:
            call = parse_call(text)
        except BidAboveSeven as exc:
            if self.closed:
                return CallVerdict(seat, exc.code, None, CallIrregularity.AFTER_CLOSE,
                                   law=f"{self.code}, law 39", reason=f"{name(seat)} called after the "
                                   "auction had closed; the call is cancelled.",
                                   options=(v.Option("cancel", "It is cancelled."),))
            return CallVerdict(seat, exc.code, None, CallIrregularity.INADMISSIBLE, "above_seven",
                               turn=self.to_call, options=v.inadmissible_options(seat, "above_seven"),
                               law=f"{self.code}, law 38", reason=f"{name(seat)} bid {exc.words}, but {exc}.")
        return self.judge(seat, call)

    def _double_fault(self, seat: Seat, call: Call) -> str:
        if call.kind not in (CallKind.DOUBLE, CallKind.REDOUBLE):
            return ""
        last = self.last_bid
        after = self._after_last_bid()
        if call.kind is CallKind.DOUBLE:
            if last is None:
                return "double_no_bid"
            if last.seat.side is seat.side:
                return "double_own_side"
            return "double_doubled" if after else ""
        if after and after[-1].call.kind is CallKind.REDOUBLE:
            return "redouble_redoubled"
        if last is None or not after or last.seat.side is not seat.side:
            return "redouble_not_doubled"
        return ""

    def _inadmissible(self, seat: Seat, call: Call, text: str, detail: str) -> CallVerdict:
        last = self.last_bid
        what = last.call.words if last is not None else ""
        side = v.SIDE_WORDS[seat.side.value]
        why = {
            "double_no_bid": "no bid has been made to double",
            "double_own_side": f"{what} is {side}'s own bid",
            "double_doubled": f"{what} is already doubled",
            "redouble_not_doubled": f"no double of a bid by {side} stands to redouble",
            "redouble_redoubled": f"{what} is already redoubled",
            "must_pass": (f"{name(seat)} must pass for the rest of the auction" if self.bars.get(seat) == REST
                          else f"{name(seat)} must pass at this turn"),
        }[detail]
        law = {"must_pass": "law 37"}.get(detail, "law 36")
        return CallVerdict(seat, text, call, CallIrregularity.INADMISSIBLE, detail, turn=self.to_call,
                           options=v.inadmissible_options(seat, detail), law=f"{self.code}, {law}",
                           reason=f"{name(seat)} {call.act}, but {why}.")

    def _out_of_rotation(self, seat: Seat, call: Call, turn: Seat) -> CallVerdict:
        position = {seat.partner: "partner", seat.right: "rho", seat.left: "lho"}[turn]
        had_called = any(c.seat == seat for c in self.calls)
        kind = call.kind.value
        detail = "change_of_call" if position == "lho" and had_called else f"{kind}_at_{position}"
        whose = {"partner": "partner", "rho": "right-hand opponent", "lho": "left-hand opponent"}
        last = self.last_bid
        also = (" (and insufficient)" if call.is_bid and last is not None and call.rank <= last.call.rank
                else "")
        law = {"pass": "law 30", "bid": "law 31"}.get(kind, "law 32")
        # At the partner's turn (or LHO's before the offender called) the governing code decides (verdicts).
        code = self.code
        return CallVerdict(seat, call.code, call, CallIrregularity.OUT_OF_ROTATION, detail, turn=turn,
                           position=position, offender_had_called=had_called,
                           accept_by=None if detail == "change_of_call" else seat.left,
                           options=v.out_of_rotation_options(seat, call, turn, position, had_called,
                                                             bid_made=last is not None, rubber=self.rubber),
                           law=f"{code}, {law}",
                           reason=f"{name(seat)} {call.act}{also} when it was {name(turn)}'s turn "
                                  f"({name(seat)}'s {whose[position]}).")

    def _after_close(self, seat: Seat, call: Call) -> CallVerdict:
        declarer = self.declarer
        quiet = (declarer is None or seat.side is declarer.side or call.kind is CallKind.PASS)
        return CallVerdict(seat, call.code, call, CallIrregularity.AFTER_CLOSE, law=f"{self.code}, law 39",
                           options=(v.Option("cancel", "It is cancelled" + (
                               "." if quiet else "; lead restrictions may apply."),
                               lead_restrictions=not quiet),),
                           reason=f"{name(seat)} {call.act} after the auction had closed; the "
                                  "call is cancelled.")

    # -- applying ---------------------------------------------------------------------------------

    def add(self, seat: Seat, call: Call) -> None:
        """Apply a legal call; the turn passes to the caller's left.

        Raises:
            AuctionError: the call is not legal now (its verdict's reason says why).
        """
        verdict = self.judge(seat, call)
        if not verdict.legal:
            raise AuctionError(verdict.reason)
        self._stand(AuctionCall(seat, call))

    def accept(self, seat: Seat, call: Call) -> None:
        """Apply an insufficient bid or a call out of rotation that was accepted (by the offender's
        left-hand opponent calling over it, or as the director rules): it stands, and the turn passes to
        the caller's left.

        Raises:
            AuctionError: the call is legal (use :meth:`add`) or cannot be accepted (an inadmissible call,
                a change of call, a call after the close).
        """
        verdict = self.judge(seat, call)
        if verdict.legal:
            raise AuctionError(f"{name(seat)}'s {call.words} is legal: add it, there is nothing to accept")
        if verdict.accept_by is None:
            raise AuctionError(f"{verdict.reason} It cannot be accepted.")
        skipped: tuple[Seat, ...] = ()
        if verdict.kind is CallIrregularity.OUT_OF_ROTATION:
            order = clockwise_from(self.to_call)
            skipped = order[:order.index(seat)]
        self._stand(AuctionCall(seat, call, verdict.kind, skipped))

    def cancel(self, seat: Seat, call: Call | str) -> CallVerdict:
        """Record that an irregular call was cancelled (not accepted, or not acceptable). Nothing stands
        and the turn does not move. Returns the call's verdict, whose options say what follows.

        Raises:
            AuctionError: the call is legal, so there is nothing to cancel.
        """
        verdict = self.judge_text(seat, call) if isinstance(call, str) else self.judge(seat, call)
        if verdict.legal:
            raise AuctionError(f"{verdict.text} by {name(seat)} is legal: there is nothing to cancel")
        self.cancelled.append((seat, verdict.text, verdict.clause))
        return verdict

    def take_back(self, seat: Seat, clause: str) -> AuctionCall:
        """Cancel the last call that stands, ``seat``'s, as the director rules (law 27B3: a double or
        redouble put in place of an insufficient bid and judged not comparable): it no longer stands and
        ``seat`` calls again.

        Raises:
            AuctionError: no call stands, or the last is not ``seat``'s.
        """
        if not self.calls or self.calls[-1].seat != seat:
            raise AuctionError(f"the last call is not {name(seat)}'s: there is no call of his to cancel")
        last = self.calls.pop()
        self.cancelled.append((seat, last.call.code, clause))
        self.to_call = seat
        return last

    def bar(self, seat: Seat, rounds: int | Literal["rest"]) -> None:
        """Make ``seat`` pass at his next ``rounds`` turns, or for the rest of the auction (``"rest"``).
        A bar already in force is not shortened."""
        n = REST if rounds == "rest" else rounds
        if n != REST and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
            raise AuctionError(f"a bar is for one or more turns or 'rest', got {rounds!r}")
        old = self.bars.get(seat)
        if old == REST or (old is not None and n != REST and old >= n):
            return
        self.bars[seat] = n

    def lift_bar(self, seat: Seat) -> None:
        """Remove a bar (the director's ruling)."""
        self.bars.pop(seat, None)

    def _stand(self, entry: AuctionCall) -> None:
        self.calls.append(entry)
        left = self.bars.get(entry.seat)
        if left is not None and left != REST and entry.call.kind is CallKind.PASS:
            if left <= 1:
                del self.bars[entry.seat]
            else:
                self.bars[entry.seat] = left - 1
        self.to_call = entry.seat.left
        self._reopen()

    def _reopen(self) -> None:
        """Law 17E2 (the rubber code's law 34): the passes would close the auction, but one of them was a
        pass out of rotation that cost a player his turn. The auction goes back to him and the passes
        after that one are cancelled (a bar that one of them counted down is not restored: the director's)."""
        n, trailing = len(self.calls), self._trailing_passes()
        if not ((trailing >= 3 and trailing < n) or (trailing == n and n >= 4)):
            return
        found = self._deprived()
        if found is None:
            return
        i, seat = found
        gone = self.calls[i + 1:]
        del self.calls[i + 1:]
        for c in gone:
            self.cancelled.append((c.seat, c.call.code, "BP-22"))
        self.reopened = Reopened(self.calls[i].seat, seat, [(c.seat, c.call.code) for c in gone])
        self.to_call = seat

    # -- PBN --------------------------------------------------------------------------------------

    def pbn_lines(self) -> list[str]:
        """The auction as PBN 2.1's auction section (3.5, 3.9): the ``[Auction "<dealer>"]`` tag, then the
        calls in rotation from the dealer, four a line. An accepted insufficient bid is written ``^I 1C``;
        each turn an accepted call out of rotation passed over is ``^S``, and so is each column between a
        pass out of rotation and the player it passed over when the auction went back to him (law 17E2),
        so that every call stays in its caller's column. The closing passes are written
        out (PBN's ``AP`` is optional; the spec's own example writes them); an auction not yet closed
        ends with ``+`` (the next call to come)."""
        tokens: list[str] = []
        to_beat = -1
        col = self.dealer
        for c in self.calls:
            while col != c.seat:        # the turns an accepted call passed over, or went back past
                tokens.append("^S")
                col = col.left
            col = col.left
            short = c.call.is_bid and c.call.rank <= to_beat   # an accepted insufficient bid (law 27A)
            tokens.append(("^I " if short else "") + c.call.pbn)
            if c.call.is_bid:
                to_beat = c.call.rank
        if not self.closed:
            tokens.append("+")
        lines = [f'[Auction "{self.dealer.value}"]']
        lines += [" ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)]
        return lines
