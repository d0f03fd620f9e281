"""Claims and concessions in the play (docs/laws.md ``BP-68-71``), the part of :class:`laws.bridge.play.Play`
that stops play: a claim made, agreed, disputed, ruled or withdrawn, a concession cancelled (law 71), and
the revokes a claim establishes (``BP-63``). A base class of ``Play``, apart only to keep each module
readable; it reads and sets ``Play``'s own fields, declared here for the type checker.
"""

from __future__ import annotations

from laws.bridge.tricks import ClaimStatus, PlayError, Revoke, RevokeStatus, Trick, TrickClaim
from laws.bridge.verdicts import name
from laws.cards import Seat, Side


class Claims:
    """The claim methods of :class:`laws.bridge.play.Play` (see the module's docstring)."""

    dummy: Seat
    tricks: list[Trick]
    revokes: list[Revoke]
    claim_state: TrickClaim | None
    ended: bool

    @property
    def tricks_left(self) -> int:
        """Tricks not yet completed (the one in progress included)."""
        return 13 - len(self.tricks)

    def claim(self, seat: Seat, tricks: int) -> TrickClaim:
        """``seat`` (declarer or a defender) claims ``tricks`` of the remaining tricks for his side, the rest
        conceded; play stops. Any open revoke of the claimer's side is established (``BP-63``).

        Raises:
            PlayError: play is over, a claim is already pending, dummy claims, or ``tricks`` is not 0 to
                the number of tricks left.
        """
        if self.ended:
            raise PlayError("play has ended")
        if self.claim_state is not None:
            raise PlayError("a claim is already pending")
        if seat == self.dummy:
            raise PlayError("dummy may not claim or concede")
        left = self.tricks_left
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= left:
            raise PlayError(f"{name(seat)} claims {tricks} tricks, but only {left} remain")
        self._establish(seat.side)
        self.claim_state = TrickClaim(seat, tricks, left)
        return self.claim_state

    def agree_claim(self) -> None:
        """The other side agrees (``BP-68-71``): play ends with the claim; agreeing establishes its open
        revokes too (``BP-63``)."""
        c = self._pending()
        self._establish(c.seat.side.other)
        c.status = ClaimStatus.AGREED
        self.ended = True

    def dispute_claim(self) -> None:
        """The claim is disputed: the director is called; play stays stopped."""
        self._pending().status = ClaimStatus.DISPUTED

    def rule_claim(self, tricks: int) -> None:
        """The director decides a claim: ``tricks`` of the remaining go to the claimer's side; play ends."""
        c = self._pending()
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= c.remaining:
            raise PlayError(f"the director can give 0 to {c.remaining} tricks, not {tricks}")
        c.ruled = tricks
        c.status = ClaimStatus.RULED
        self.ended = True

    def withdraw_claim(self) -> None:
        """The claim is withdrawn (the director has play go on). Revokes it established stay established."""
        self._pending()
        self.claim_state = None

    def cancel_concession(self, side: Side, tricks: int) -> None:
        """An agreed claim conceded ``side`` tricks its cards cannot lose (law 71, ``laws.bridge.concessions``):
        ``tricks`` of the remaining go back to it, and the result counts them."""
        c = self.claim_state
        if c is None or c.status is not ClaimStatus.AGREED:
            raise PlayError("only an agreed claim's concession is cancelled")
        mine = c.for_claimer + (tricks if side is c.seat.side else -tricks)
        if not 0 <= mine <= c.remaining:
            raise PlayError(f"{tricks} tricks cannot go back to {side} of the {c.remaining} remaining")
        c.corrected = mine

    def _pending(self) -> TrickClaim:
        if self.claim_state is None or self.claim_state.status not in (ClaimStatus.PENDING, ClaimStatus.DISPUTED):
            raise PlayError("no claim is waiting for an answer")
        return self.claim_state

    def _establish(self, side: Side) -> None:
        for r in self.revokes:
            if r.status is RevokeStatus.OPEN and r.seat.side is side:
                r.status = RevokeStatus.ESTABLISHED

    def claimed_tricks(self) -> dict[Side, int]:
        """Tricks each side took by the claim that ended play (none without one)."""
        c = self.claim_state
        if c is None or not self.ended:
            return {Side.NS: 0, Side.EW: 0}
        mine = c.seat.side
        return {mine: c.for_claimer, mine.other: c.remaining - c.for_claimer}
