"""Values of the play model: tricks, revokes, claims and the play verdict (docs/laws.md ``BP-41`` to
``BP-71``). All plain dataclasses of seats, cards, ints and strings, so ``laws.snapshot`` keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from laws.cards import RANK_NAMES, RANKS, SUIT_NAMES, SUITS, Card, Seat, Side, clockwise_from

RANK_VALUE = {r: len(RANKS) - i for i, r in enumerate(RANKS)}   # A=13 … 2=1


class PlayError(ValueError):
    """Bad input to the play model (a card nobody can play now, a claim for more tricks than remain): not
    an irregularity of the laws, so no verdict, just refused."""


@dataclass
class Trick:
    """One trick, complete or in progress.

    Attributes:
        number: 1 to 13.
        leader: who led it (for a trick not yet led: who is to lead).
        cards: seat -> card, in the order played.
        winner: who won it (None until complete).
        led_out_of_turn: its lead was a lead out of turn that was accepted (PBN ``^L``).
    """

    number: int
    leader: Seat
    cards: dict[Seat, Card] = field(default_factory=dict)
    winner: Seat | None = None
    led_out_of_turn: bool = False

    @property
    def complete(self) -> bool:
        return len(self.cards) == 4

    @property
    def suit_led(self) -> str | None:
        lead = self.cards.get(self.leader)
        return None if lead is None else lead.suit


def trick_winner(cards: dict[Seat, Card], leader: Seat, trump: str | None) -> Seat:
    """Who wins four cards led by ``leader`` (``BP-44``): the highest trump, else the highest card of the
    suit led."""
    led = cards[leader].suit

    def key(seat: Seat) -> tuple[bool, bool, int]:
        c = cards[seat]
        return (c.suit == trump, c.suit == led, RANK_VALUE[c.rank])

    return max(cards, key=key)


def swap_last_two(t12: Trick, t13: Trick, seat: Seat, trump: str | None) -> None:
    """The twelfth-trick correction when all 52 cards are out (``BP-62``): ``seat``'s cards of tricks 12 and
    13 change places (his revoking card, in trick 12, is his last) and both tricks are worked out again
    (13 is led by 12's new winner)."""
    mine = t12.cards[seat]
    t12.cards = {s: (t13.cards[seat] if s == seat else c) for s, c in t12.cards.items()}
    t13.cards[seat] = mine
    t12.winner = trick_winner(t12.cards, t12.leader, trump)
    t13.leader = t12.winner
    t13.cards = {s: t13.cards[s] for s in clockwise_from(t13.leader)}
    t13.winner = trick_winner(t13.cards, t13.leader, trump)


def check_deal(hands: dict[Seat, list[Card]]) -> None:
    """A known deal is four hands of thirteen different cards.

    Raises:
        PlayError: it is not.
    """
    if set(hands) != set(Seat) or any(len(hands[s]) != 13 for s in Seat):
        raise PlayError("a known deal gives all four hands, thirteen cards each")
    cards = [c for s in Seat for c in hands[s]]
    if len(set(cards)) != 52:
        raise PlayError("a known deal has 52 different cards")


class RevokeStatus(StrEnum):
    """Where a revoke is in its life (``BP-62``, ``BP-63``)."""

    OPEN = "open"                  # on the table, not yet established: must be corrected if noticed
    CORRECTED = "corrected"        # taken back and replaced by a card of the suit (BP-62)
    ESTABLISHED = "established"    # the offending side played on or claimed (BP-63): rectified (BP-64)


@dataclass
class Revoke:
    """A failure to follow suit while holding the suit (``BP-61``).

    Attributes:
        seat: who revoked (dummy's seat for a card declarer played from dummy).
        trick: the trick it happened in (1-13).
        card: the card played instead.
        suit: the suit led, which the player held.
        status: open, corrected or established.
        by_dummy: the card came from dummy's spread hand (no trick transfer, ``BP-64``).
        faced: every card of the suit led that the offender held lay faced on the table (a penalty card):
            the revoke was a failure to play a faced card, which moves no trick (law 64B3, ``BP-64``).
    """

    seat: Seat
    trick: int
    card: Card
    suit: str
    status: RevokeStatus = RevokeStatus.OPEN
    by_dummy: bool = False
    faced: bool = False


@dataclass
class PenaltyCard:
    """A card that became a penalty card (a defender's card taken back, ``BP-53-56`` and ``BP-57``, or his
    corrected revoking card, ``BP-62``), with when it lay on the table. The trick record alone cannot say
    whether a revoke found after play (law 66D) was a failure to play a penalty card (law 64B3, no trick
    moves): a penalty card is on the table, not in a trick, until it is played, so its span is kept here.

    Attributes:
        seat: the player whose penalty card it is.
        card: the card.
        since: the first trick its player plays to while it lies on the table: the trick it became a
            penalty card in, or the next one when he had already played to that trick (a premature play,
            a corrected revoke).
        played: the trick it was played to; None while it lies on the table.
    """

    seat: Seat
    card: Card
    since: int
    played: int | None = None

    def lay_at(self, trick: int) -> bool:
        """Whether it lay on the table, a penalty card, when its player played to ``trick``."""
        return self.since <= trick and (self.played is None or self.played > trick)


def penalty_card_words(cards: Sequence[Card]) -> str:
    """A player's penalty cards in words, the noun counted: "his penalty card, the ten of diamonds", "his
    penalty cards, the ten and the four of diamonds". Every sentence that names penalty cards takes it from
    here, so a single card is never called "penalty cards".

    Raises:
        ValueError: no card is given (a sentence about no penalty card is a bug).
    """
    if not cards:
        raise ValueError("penalty_card_words needs at least one card")
    ordered = sorted(cards, key=lambda c: (SUITS.index(c.suit), -RANK_VALUE[c.rank]))
    if len({c.suit for c in ordered}) == 1:
        names = [f"the {RANK_NAMES[c.rank]}" for c in ordered]
        names[-1] += f" of {SUIT_NAMES[ordered[0].suit]}"
    else:
        names = [f"the {c.name}" for c in ordered]
    which = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"his penalty card{'' if len(cards) == 1 else 's'}, {which}"


class ClaimStatus(StrEnum):
    PENDING = "pending"      # made; play has stopped, waiting for the others
    AGREED = "agreed"        # the other side agreed: play ends with it (BP-68-71)
    DISPUTED = "disputed"    # the director is called
    RULED = "ruled"          # the director entered the tricks


@dataclass
class TrickClaim:
    """A claim or concession (``BP-68-71``): ``seat``'s side will take ``tricks`` of the ``remaining``
    tricks (the rest go to the other side); ``ruled`` is the director's figure when he decided it;
    ``corrected`` the claimer's side's figure once an agreed concession of tricks the cards show cannot be
    lost was cancelled (law 71, ``laws.bridge.concessions``)."""

    seat: Seat
    tricks: int
    remaining: int
    status: ClaimStatus = ClaimStatus.PENDING
    ruled: int | None = None
    corrected: int | None = None

    @property
    def for_claimer(self) -> int:
        """Tricks of the remaining ones that go to the claimer's side, as agreed (and corrected) or ruled."""
        if self.ruled is not None:
            return self.ruled
        return self.corrected if self.corrected is not None else self.tricks


class PlayIrregularity(StrEnum):
    """What a card is, when it is not a legal play now. Each has its docs/laws.md row (:data:`PLAY_CLAUSES`)."""

    LEAD_OUT_OF_TURN = "lead_out_of_turn"   # BP-53-56: the first card of a trick, by the wrong player
    PREMATURE_PLAY = "premature_play"       # BP-57: a defender plays before his partner, at his turn
    PLAY_OUT_OF_TURN = "play_out_of_turn"   # BP-57 (law 57C, 57D): another card played out of turn
    REVOKE = "revoke"                       # BP-61: fails to follow suit while able (hands known)
    SECOND_CARD = "second_card"             # BP-66-67: a second card from one player into a trick


PLAY_CLAUSES: dict[PlayIrregularity, str] = {
    PlayIrregularity.LEAD_OUT_OF_TURN: "BP-53-56",
    PlayIrregularity.PREMATURE_PLAY: "BP-57",
    PlayIrregularity.PLAY_OUT_OF_TURN: "BP-57",
    PlayIrregularity.REVOKE: "BP-61",
    PlayIrregularity.SECOND_CARD: "BP-66-67",
}


@dataclass(frozen=True)
class PlayVerdict:
    """The play model's word on one card, given without changing the play.

    Attributes:
        seat: whose card it is (dummy's seat for a card from dummy).
        card: the card.
        kind: the irregularity, or None for a legal card.
        turn: whose turn it was.
        trick: the trick the card would go to (1-13).
        detail: for ``LEAD_OUT_OF_TURN`` ``by_defender``, ``by_declarer``, ``from_dummy`` (with
            ``_opening`` appended at the first trick); for ``PLAY_OUT_OF_TURN`` ``by_declarer_side``,
            ``by_defender_at_rho`` or ``by_defender_out_of_turn``; for ``PREMATURE_PLAY`` ``play`` or
            ``lead_to_next_trick``; for ``REVOKE`` ``by_dummy`` or ``""``.
        suit_led: the suit led to the trick, if any.
        accept_by: who may accept the card as played (``Play.accept``); empty when nobody may.
        stands: the card counts as played without anyone accepting it (declarer's side playing early,
            law 57C): apply it with ``Play.accept``.
        penalty_card: whether the card, taken back, becomes a penalty card (a defender's card).
        reason: one sentence in players' words.
        law: the citation.
    """

    seat: Seat
    card: Card
    kind: PlayIrregularity | None = None
    turn: Seat | None = None
    trick: int = 0
    detail: str = ""
    suit_led: str | None = None
    accept_by: tuple[Seat, ...] = ()
    stands: bool = False
    penalty_card: bool = False
    reason: str = ""
    law: str = ""

    @property
    def legal(self) -> bool:
        return self.kind is None

    @property
    def clause(self) -> str:
        """The docs/laws.md id (``BP-61`` …); ``BP-44`` for a legal card."""
        return PLAY_CLAUSES[self.kind] if self.kind is not None else "BP-44"


@dataclass(frozen=True)
class Transfer:
    """The tricks one established revoke moves after play (``BP-64``).

    Attributes:
        revoke: the revoke.
        tricks: how many tricks move (0, 1 or 2).
        to_side: the side that receives them (the non-offending side).
        counted: the tricks moved, by number (14 and up stand for tricks won by a claim).
        reason: the rule applied, in players' words.
    """

    revoke: Revoke
    tricks: int
    to_side: Side
    counted: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class PlayResult:
    """The outcome of play.

    Attributes:
        declarer_tricks: tricks won by declarer's side after rectification (or as the director entered).
        table_tricks: tricks declarer's side won at the table (played and claimed), before transfers.
        transfers: one per established revoke.
        tricks: the trick record, in order (an unfinished trick at a claim included).
        claim: the claim that ended play, if any.
        director_entry: declarer_tricks is the director's figure (``Play.enter_result``).
    """

    declarer_tricks: int
    table_tricks: int
    transfers: tuple[Transfer, ...]
    tricks: tuple[Trick, ...]
    claim: TrickClaim | None
    director_entry: bool = False

