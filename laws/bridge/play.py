"""The play of the cards as a small state machine (docs/laws.md ``BP-41`` to ``BP-71``): whose turn, the
tricks and their winners, revokes against known hands, claims, and the result.

Use::

    p = Play(parse_contract("4S"), Seat.S, hands)   # hands: seat -> 13 cards, or None when unknown
    v = p.judge(Seat.W, Card.parse("KH"))           # a PlayVerdict; nothing changes
    if v.legal or v.kind is PlayIrregularity.REVOKE:
        p.play(Seat.W, v.card)                      # a revoking card is on the table: it is played
    else:                                           # out of turn: the clause names the options
        p.accept(...) or p.withdraw(...)

Who plays: the opening leader is declarer's left-hand opponent (``BP-41``); then each player clockwise;
the winner of a trick leads the next (``BP-44``). Declarer plays dummy's cards, which are given with
dummy's seat. Bad input is refused with :class:`~laws.bridge.tricks.PlayError`, not judged: a card the
seat cannot hold (not in its hand by the deal or by dummy's faced hand, or already played; another
player's penalty card lying on the table; any card but his penalty cards from a player whose every card
left lies there, so no revoke is ever recorded in trick 13), play after the end or while a claim is
pending, a claim for more tricks than remain.

Decisions of ours:

* A second card from a player who already played to the unfinished trick is ``SECOND_CARD``
  (``BP-66-67``, a trick with a card too many: the director puts it right); it is never applied. A
  defender's card led to the next trick before his partner has played to this one is ``PREMATURE_PLAY``
  (``BP-57``) instead.
* A card played out of turn that is neither a lead nor a defender's play before his partner is
  ``PLAY_OUT_OF_TURN``, under the other parts of law 57 (the docs/laws.md row ``BP-57`` paraphrases only the
  premature play): declarer's side's card is played and stands (57C: apply it with :meth:`accept`); a
  defender's card at his right-hand opponent's turn must be played at his proper turn, and becomes a
  penalty card only if it could not be played legally then (57D).
* :meth:`accept` applies a card out of turn that the other side accepted, or that stands (57C); an
  accepted lead out of turn makes its player the trick's leader. Whose turn it is after any card: the
  first player clockwise from the trick's leader who has not played to it. So after an accepted lead the
  rotation goes on from it, and after a card declarer's side played early the player it skipped still
  plays in his turn (North leads, South plays before East: East plays next, then West).
  :meth:`withdraw` records a card taken back (a defender's becomes a penalty card); penalty cards are
  recorded with the tricks they lay on the table for (:class:`~laws.bridge.tricks.PenaltyCard`: a revoke
  found after play may have been a failure to play one, law 64B3); what else they oblige is left to the
  director (docs/laws.md ``BP-50-52``).
* Revoke check: the model keeps, for each seat whose hand is known, its cards still held and how many of
  each suit, updated as each card is played; a card is a revoke when its seat still holds the suit led.
  That is constant time per card. With hands unknown, only dummy's hand (:meth:`dummy_faced`) is known,
  and a penalty card of the suit led lying on the table (:meth:`holds_suit`, law 50).

The state is plain data (dataclasses of seats, cards, ints, lists, dicts), so ``laws.snapshot`` keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from laws.bridge import revokes
from laws.bridge.claims import Claims
from laws.bridge.out_of_turn import out_of_turn
from laws.bridge.tricks import (
    PenaltyCard,
    PlayError,
    PlayIrregularity,
    PlayResult,
    PlayVerdict,
    Revoke,
    RevokeStatus,
    Transfer,
    Trick,
    TrickClaim,
    check_deal,
    penalty_card_words,
    swap_last_two,
    trick_winner,
)
from laws.bridge.verdicts import name
from laws.cards import SUIT_NAMES, SUITS, Card, Seat, Side, clockwise_from
from laws.scoring.bridge import Contract

_DUP = "Duplicate Bridge"
_RUBBER = "Rubber Bridge"
_P = PlayIrregularity


@dataclass
class Play(Claims):
    """One deal's play.

    Args:
        contract: the final contract (its strain gives the trump suit; NT none).
        declarer: the declarer.
        hands: the deal, seat -> its 13 cards, when known (from the shoe or a hand record); or None.
        rubber: the rubber code governs (a rubber table): verdicts cite it, not the 2017 duplicate code.

    Attributes (besides the arguments):
        dummy: declarer's partner.
        remaining: for each seat whose hand is known, the cards it still holds.
        counts: for the same seats, how many cards of each suit it still holds (the revoke check).
        played_by: every card played to a trick (and standing), with its seat.
        tricks: the completed tricks.
        current: the trick in progress (no cards: the next trick, to be led by its ``leader``).
        to_play: whose turn it is (read :attr:`turn`).
        won: completed tricks won by each side.
        revokes: every revoke seen, with its status.
        penalties: every card that became a penalty card, with the tricks it lay on the table for (read
            :attr:`penalty_cards` for those lying there now).
        withdrawn: every card taken back, ``(seat, card, clause)``.
        claim_state: the claim made, if any (None after one is withdrawn).
        ended: play is over (13 tricks, or a claim agreed or ruled).
        director_tricks: the director's figure for declarer's tricks, when he entered one.
        director_note: why, in his words.
    """

    contract: Contract
    declarer: Seat
    hands: dict[Seat, list[Card]] | None = None
    rubber: bool = False
    dummy: Seat = field(init=False)
    remaining: dict[Seat, list[Card]] = field(init=False)
    counts: dict[Seat, dict[str, int]] = field(init=False)
    played_by: dict[Card, Seat] = field(init=False)
    tricks: list[Trick] = field(init=False)
    current: Trick = field(init=False)
    to_play: Seat = field(init=False)
    won: dict[Side, int] = field(init=False)
    revokes: list[Revoke] = field(init=False)
    penalties: list[PenaltyCard] = field(init=False)
    withdrawn: list[tuple[Seat, Card, str]] = field(init=False)
    claim_state: TrickClaim | None = field(init=False)
    ended: bool = field(init=False)
    director_tricks: int | None = field(init=False)
    director_note: str = field(init=False)

    @property
    def code(self) -> str:
        """The code the verdicts cite: "Rubber Bridge" at a rubber table, else "Duplicate Bridge"."""
        return _RUBBER if self.rubber else _DUP

    def __post_init__(self) -> None:
        self.dummy = self.declarer.partner
        self.remaining, self.counts = {}, {}
        if self.hands is not None:
            check_deal(self.hands)
            self.hands = {s: list(self.hands[s]) for s in clockwise_from(Seat.N)}
            for seat, cards in self.hands.items():
                self._know(seat, cards)
        self.played_by = {}
        self.tricks = []
        self.current = Trick(1, self.declarer.left)
        self.to_play = self.declarer.left
        self.won = {Side.NS: 0, Side.EW: 0}
        self.revokes, self.penalties, self.withdrawn = [], [], []
        self.claim_state = None
        self.ended = False
        self.director_tricks = None
        self.director_note = ""

    # -- reading ----------------------------------------------------------------------------------

    @property
    def penalty_cards(self) -> list[tuple[Seat, Card]]:
        """The penalty cards lying on the table now (not yet played), ``(seat, card)``."""
        return [(p.seat, p.card) for p in self.penalties if p.played is None]

    @property
    def trump(self) -> str | None:
        return None if self.contract.strain == "NT" else self.contract.strain

    @property
    def opening_leader(self) -> Seat:
        """Declarer's left-hand opponent (``BP-41``)."""
        return self.declarer.left

    @property
    def turn(self) -> Seat | None:
        """Who plays next; None when play has ended or a claim stops it."""
        return None if self.ended or self.claim_state is not None else self.to_play

    @property
    def trick_number(self) -> int:
        """The trick being played (1-13)."""
        return self.current.number

    def holds(self, seat: Seat) -> list[Card] | None:
        """The cards ``seat`` still holds, when its hand is known; else None."""
        cards = self.remaining.get(seat)
        return None if cards is None else list(cards)

    def holds_suit(self, seat: Seat, suit: str) -> bool:
        """Whether ``seat`` is known to hold ``suit``: his known hand, or his penalty card lying there (law 50)."""
        return self.counts.get(seat, {}).get(suit, 0) > 0 or (seat, suit) in {(s, c.suit) for s, c in self.penalty_cards}

    def legal_cards(self, seat: Seat) -> list[Card] | None:
        """The cards ``seat`` may play to the current trick without revoking (hand known), else None."""
        cards = self.remaining.get(seat)
        if cards is None:
            return None
        led = self.current.suit_led
        if led is None or self.counts[seat][led] == 0:
            return list(cards)
        return [c for c in cards if c.suit == led]

    def _defender(self, seat: Seat) -> bool:
        return seat.side is not self.declarer.side

    # -- judging ----------------------------------------------------------------------------------

    def judge(self, seat: Seat, card: Card) -> PlayVerdict:
        """What the laws say of ``seat`` playing ``card`` now; nothing changes.

        Raises:
            PlayError: bad input: play is over or stopped by a claim, the card was played already, or the
                seat cannot hold it (its known hand, or dummy's faced hand, says otherwise).
        """
        self._check_can_hold(seat, card)
        t = self.current
        n, turn, led = t.number, self.to_play, t.suit_led

        def base(**kw: Any) -> PlayVerdict:
            return PlayVerdict(seat=seat, card=card, turn=turn, trick=n, suit_led=led, **kw)

        if seat in t.cards:
            if self._defender(seat) and seat.partner not in t.cards:
                return base(kind=_P.PREMATURE_PLAY, detail="lead_to_next_trick",
                                   penalty_card=True, law=f"{self.code}, law 57",
                                   reason=f"{name(seat)} led {card.name} to the next trick before "
                                          f"{name(seat.partner)} had played to this one.")
            return base(kind=_P.SECOND_CARD, law=f"{self.code}, laws 66-67",
                               reason=f"{name(seat)} put {card.name} on the trick after playing "
                                      f"{t.cards[seat].name} to it; the director puts the trick right.")
        if seat != turn:
            return out_of_turn(self, seat, card, base)
        if led is not None and card.suit != led and self.holds_suit(seat, led):
            by_dummy = seat == self.dummy
            return base(kind=_P.REVOKE, detail="by_dummy" if by_dummy else "",
                               law=f"{self.code}, law 61",
                               reason=f"{name(seat)} played {card.name} to a {SUIT_NAMES[led][:-1]} lead "
                                      f"while holding {SUIT_NAMES[led]}: a revoke.")
        return base(law=f"{self.code}, law 44")

    def _check_can_hold(self, seat: Seat, card: Card) -> None:
        if self.ended:
            raise PlayError("play has ended")
        if self.claim_state is not None:
            raise PlayError("a claim has stopped play: agree, dispute, rule or withdraw it first")
        if card in self.played_by:
            raise PlayError(f"{card.name} was already played, by {name(self.played_by[card])}")
        mine = self.remaining.get(seat)
        if mine is not None:
            if card not in mine:
                raise PlayError(f"{name(seat)} does not hold {card.name}")
            return
        for other, cards in self.remaining.items():
            if card in cards:
                raise PlayError(f"{card.name} is in {name(other)}'s hand, not {name(seat)}'s")
        # A penalty card lies face up as its player's (law 50): the table knows it is in his hand, whether
        # or not it knows the rest. So nobody else holds it, and a player whose every card left lies there
        # holds no other (else his last card, a penalty card, would make a revoke in trick 13 that no play
        # could establish or correct: the entries, not the player, are wrong).
        lying = self.penalty_cards
        for other, faced in lying:
            if faced == card and other != seat:
                raise PlayError(f"the {card.name} lies on the table as {name(other)}'s penalty card, "
                                f"not {name(seat)}'s")
        own = [faced for other, faced in lying if other == seat]
        left = 13 - sum(1 for s in self.played_by.values() if s == seat)
        if own and card not in own and left <= len(own):
            count = "only card left is" if left == 1 else "only cards left are"
            raise PlayError(f"{name(seat)}'s {count} {penalty_card_words(own)}, on the table: "
                            f"he cannot hold the {card.name}")

    # -- applying ---------------------------------------------------------------------------------

    def play(self, seat: Seat, card: Card) -> PlayVerdict:
        """Apply a card played in turn: a legal card, or a revoke (it is on the table; it is recorded as
        an open revoke). Returns its verdict.

        Raises:
            PlayError: bad input (see :meth:`judge`), or a card out of turn or a second card (use
                :meth:`accept` or :meth:`withdraw`).
        """
        v = self.judge(seat, card)
        if not (v.legal or v.kind is _P.REVOKE):
            raise PlayError(f"{v.reason} It is not played: accept or withdraw it.")
        self._apply(seat, card, revoke=v.kind is _P.REVOKE, out_of_turn=False)
        return v

    def put_on_table(self, seat: Seat) -> None:
        """``seat`` has put a card on the table out of turn, which waits for a ruling (accepted, taken back,
        or played at his turn). Whatever becomes of it, it was his side's lead or play to this trick (to the
        next, when he has played to this one), so it establishes his side's revokes of earlier tricks now
        (``BP-63``; law 63A1: any such play, legal or illegal): they can no longer be corrected."""
        to = self.current.number + (1 if seat in self.current.cards else 0)
        for r in self.revokes:
            if r.status is RevokeStatus.OPEN and r.trick < to and seat in (r.seat, r.seat.partner):
                r.status = RevokeStatus.ESTABLISHED

    def accept(self, seat: Seat, card: Card) -> PlayVerdict:
        """Apply a lead out of turn that the other side accepted (a defender's: declarer; declarer's side's:
        a defender), or a card declarer's side played early, which stands (``stands``). It is played; the
        turn is then the first player clockwise from the trick's leader still to play (module docstring).
        A card that also fails to follow suit while able is recorded as a revoke.

        Raises:
            PlayError: the card is in turn (use :meth:`play`), or nobody may accept it.
        """
        v = self.judge(seat, card)
        if v.legal or v.kind is _P.REVOKE:
            raise PlayError(f"{name(seat)} is in turn: play the card, there is nothing to accept")
        if not (v.accept_by or v.stands):
            raise PlayError(f"{v.reason} It cannot be accepted.")
        led = self.current.suit_led
        revoke = led is not None and card.suit != led and self.holds_suit(seat, led)
        self._apply(seat, card, revoke=revoke, out_of_turn=True)
        return v

    def withdraw(self, seat: Seat, card: Card, *, at_turn: bool = False) -> PlayVerdict:
        """Record a card out of turn, or a second card, that is taken back (not accepted): it goes back
        to the hand; a defender's lead out of turn, premature play or play out of turn becomes a penalty
        card (``BP-53-56``, ``BP-57``). Returns its verdict.

        Args:
            seat: the card's player.
            card: the card.
            at_turn: a defender's card played at his right-hand opponent's turn (law 57D) that has reached
                his turn and would revoke there: it is taken back as a penalty card.
        """
        v = self.judge(seat, card)
        if at_turn and v.kind is _P.REVOKE and not self._defender(seat):
            raise PlayError(f"{name(seat)} is not a defender: law 57D does not apply")
        if v.legal or (v.kind is _P.REVOKE and not at_turn):
            raise PlayError(f"{name(seat)} is in turn: there is nothing to take back")
        if at_turn and v.kind is _P.REVOKE:
            v = replace(v, kind=_P.PLAY_OUT_OF_TURN, penalty_card=True, law=f"{self.code}, law 57")
        self.withdrawn.append((seat, card, v.clause))
        if v.penalty_card and (seat, card) not in self.penalty_cards:
            # he plays to this trick with it on the table, unless his card to it is already there (57A)
            since = self.current.number + (1 if seat in self.current.cards else 0)
            self.penalties.append(PenaltyCard(seat, card, since))
        return v

    def spread(self) -> Seat:
        """Declarer spreads his hand after a defender's opening lead out of turn (``BP-53-56``, law 54A):
        he becomes dummy and his partner declarer, so the opening lead is the new declarer's left-hand
        opponent's. Returns the new declarer.

        Raises:
            PlayError: a card has already been played to the first trick, or play has gone past it.
        """
        if self.tricks or self.current.cards or self.current.number != 1 or self.ended:
            raise PlayError("declarer may spread his hand only before the opening lead is played (law 54)")
        self.declarer = self.declarer.partner
        self.dummy = self.declarer.partner
        self.current = Trick(1, self.declarer.left)
        self.to_play = self.declarer.left
        return self.declarer

    def dummy_faced(self, cards: list[Card]) -> None:
        """Dummy's hand is seen (``BP-41``): known from now on, so a revoke from it is detected.

        Raises:
            PlayError: the cards contradict what is known (the deal, cards already played).
        """
        d = self.dummy
        left = 13 - sum(1 for s in self.played_by.values() if s == d)
        if len(set(cards)) != len(cards) or len(cards) != left:
            raise PlayError(f"dummy should show {left} different cards, not {len(cards)}")
        known = self.remaining.get(d)
        if known is not None:
            if set(known) != set(cards):
                raise PlayError("the cards faced are not dummy's hand by the deal")
            return
        for c in cards:
            if c in self.played_by:
                raise PlayError(f"{c.name} was already played, by {name(self.played_by[c])}")
        self._know(d, cards)

    def forget_hands(self) -> None:
        """The deal is no longer known (a fouled board: the cards held are not the record's): from now on
        no hand is known, so no card is refused for its hand and revokes are the director's to find."""
        self.hands = None
        self.remaining, self.counts = {}, {}

    def _know(self, seat: Seat, cards: list[Card]) -> None:
        self.remaining[seat] = list(cards)
        self.counts[seat] = {s: sum(1 for c in cards if c.suit == s) for s in SUITS}

    def _apply(self, seat: Seat, card: Card, *, revoke: bool, out_of_turn: bool) -> None:
        t = self.current
        if not t.cards:
            t.leader = seat
            t.led_out_of_turn = out_of_turn
        led = t.suit_led or card.suit
        t.cards[seat] = card
        self.played_by[card] = seat
        self._take(seat, card)
        revokes.played_on(self.revokes, self.penalties, seat, card, t.number)
        for r in self.revokes:
            if r.status is RevokeStatus.OPEN and r.trick < t.number and seat in (r.seat, r.seat.partner):
                r.status = RevokeStatus.ESTABLISHED   # BP-63: the offending side played to a later trick
        if revoke:   # law 64B3: every card of the suit he is known to hold lies there as a penalty card
            lying = {c for s, c in self.penalty_cards if s == seat and c.suit == led}
            held = {c for c in self.remaining.get(seat, lying) if c.suit == led}
            self.revokes.append(Revoke(seat, t.number, card, led, by_dummy=seat == self.dummy, faced=held <= lying))
        self._advance(seat)

    def _take(self, seat: Seat, card: Card) -> None:
        if seat in self.remaining:
            self.remaining[seat].remove(card)
            self.counts[seat][card.suit] -= 1

    def _give_back(self, seat: Seat, card: Card) -> None:
        """``card`` goes back from a trick to ``seat``'s hand; a penalty card played there lies on the table
        again (its span goes on)."""
        self.played_by.pop(card, None)
        for p in self.penalties:
            if p.played is not None and (p.seat, p.card) == (seat, card):
                p.played = None
        if seat in self.remaining:
            self.remaining[seat].append(card)
            self.counts[seat][card.suit] += 1

    def _advance(self, last: Seat) -> None:
        t = self.current
        if t.complete:
            t.winner = trick_winner(t.cards, t.leader, self.trump)
            self.won[t.winner.side] += 1
            self.tricks.append(t)
            self.to_play = t.winner
            if t.number == 13:
                self.ended = True
                self.current = Trick(14, t.winner)
            else:
                self.current = Trick(t.number + 1, t.winner)
            return
        # the first player clockwise from the trick's leader still to play: after a card declarer's side
        # played early (57C) the player it skipped is still the one to play, not the early card's left
        s = t.leader
        while s in t.cards:
            s = s.left
        self.to_play = s

    # -- revokes ----------------------------------------------------------------------------------

    def correct(self, seat: Seat, card: Card) -> Revoke:
        """``seat`` corrects his revoke (``BP-62``): the revoking card goes back to his hand and ``card``, of
        the suit led, takes its place in the trick. Allowed for an open revoke, and for a revoke on the
        twelfth trick even when established. A defender's revoking card becomes a penalty card (not at the
        twelfth trick, where it is simply his last card). If the revoke trick was already complete its
        winner is worked out again, and cards played since to the next trick (the other side's: the
        offenders' own would have established it) go back to their hands, the trick to be led again by
        the revoke trick's winner. Cards the other side played after the revoke in the revoke trick itself
        stand (law 62C lets them change them: the director's).

        Returns:
            The revoke, now corrected.

        Raises:
            PlayError: no such revoke, or ``card`` is not a card of the suit led that ``seat`` holds.
        """
        r = next((r for r in reversed(self.revokes) if r.seat == seat and (
            r.status is RevokeStatus.OPEN or (r.status is RevokeStatus.ESTABLISHED and r.trick == 12))), None)
        if r is None:
            raise PlayError(f"{name(seat)} has no revoke that can be corrected now")
        if card.suit != r.suit:
            raise PlayError(f"the correction must be a card of {SUIT_NAMES[r.suit]}, the suit led")
        last_two = r.trick == 12 and len(self.tricks) == 13
        if last_two:
            if self.tricks[12].cards[seat] != card:
                raise PlayError(f"{name(seat)}'s only other card was {self.tricks[12].cards[seat].name}")
            swap_last_two(self.tricks[11], self.tricks[12], seat, self.trump)
        else:
            later = r.trick < self.current.number          # the revoke trick is complete
            held = self.remaining.get(seat)     # unknown: any card not played nor in a known hand (a penalty card)
            free = card not in self.played_by and all(card not in cards for cards in self.remaining.values())
            if not (card in held if held is not None else free) and not (later and self.current.cards.get(seat) == card):
                raise PlayError(f"{name(seat)} does not hold {card.name}")
            if later:
                for s, c in self.current.cards.items():
                    self._give_back(s, c)
                self.current = Trick(r.trick + 1, self.declarer.left)
            t = self.tricks[r.trick - 1] if r.trick <= len(self.tricks) else self.current
            t.cards = {s: (card if s == seat else c) for s, c in t.cards.items()}
            self._give_back(seat, r.card)
            self._take(seat, card)
            self.played_by[card] = seat
            # his penalty card, if it was one; and, like any card of a suit he revoked in before, proof that he
            # held it then unless it lay on the table at that revoke (BP-61: not only a faced card's revoke)
            revokes.played_on(self.revokes, self.penalties, seat, card, r.trick)
            if self._defender(seat) and r.trick != 12 and (seat, r.card) not in self.penalty_cards:
                self.penalties.append(PenaltyCard(seat, r.card, r.trick + 1))   # he played to r.trick
            if t.complete:
                t.winner = trick_winner(t.cards, t.leader, self.trump)
                self.current.leader = self.to_play = t.winner
        r.status = RevokeStatus.CORRECTED
        self._recount()
        return r

    def find_revokes(self, side: Side) -> list[Revoke]:
        """The revokes by ``side`` the trick record proves (``revokes.proven``) not yet recorded: recorded as
        established (BP-63), rectified with the rest (BP-64); a duplicate table's ``revoke`` demand. Returns them."""
        record = self.tricks + ([self.current] if self.current.cards else [])
        seen = {(r.seat, r.trick) for r in self.revokes}
        new = [replace(r, by_dummy=r.seat == self.dummy) for r in revokes.proven(record, side.seats, self.penalties)
               if (r.seat, r.trick) not in seen]
        self.revokes.extend(new)
        return new

    def _recount(self) -> None:
        self.won = {Side.NS: 0, Side.EW: 0}
        for t in self.tricks:
            if t.winner is not None:
                self.won[t.winner.side] += 1

    # -- the end (claims: ``laws.bridge.claims``) -------------------------------------------------

    def rectification(self) -> list[Transfer]:
        """The trick transfer for each established revoke (``BP-64``, see ``laws.bridge.revokes``).

        Raises:
            PlayError: play has not ended.
        """
        if not self.ended:
            raise PlayError("revokes are rectified when play has ended")
        record = self.tricks + ([self.current] if self.current.cards else [])
        return revokes.transfers(record, self.revokes, self.claimed_tricks(), rubber=self.rubber,
                                 penalties=self.penalties)

    def enter_result(self, tricks: int, note: str = "") -> None:
        """The director's figure for declarer's tricks (restoring equity, or any adjustment): it overrides
        what the tricks and transfers give."""
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
            raise PlayError(f"declarer's tricks are 0 to 13, not {tricks}")
        self.director_tricks = tricks
        self.director_note = note

    def result(self) -> PlayResult:
        """Tricks won by declarer's side after rectification, with the trick record.

        Raises:
            PlayError: play has not ended.
        """
        moves = self.rectification()
        mine = self.declarer.side
        table = self.won[mine] + self.claimed_tricks()[mine]
        after = table + sum(m.tricks if m.to_side is mine else -m.tricks for m in moves)
        record = tuple(self.tricks + ([self.current] if self.current.cards else []))
        entered = self.director_tricks is not None
        return PlayResult(self.director_tricks if self.director_tricks is not None else after, table,
                          tuple(moves), record, self.claim_state, entered)

