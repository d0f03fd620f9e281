"""The table's state as the law engine keeps it: phase, rotation, packs, the current deal, claims.

The engine owns one ``TableState`` and changes it only through ``LawEngine.feed``; clauses read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from laws.cards import Card, Seat, Side


class Phase(StrEnum):
    """Phases of the table. Which events move between them is the table ``TRANSITIONS`` in engine.py."""

    FORMING = "forming"      # forming the table: the draw for partners and seats
    SHUFFLE = "shuffle"      # between deals: shuffling, before a valid cut
    CUT = "cut"              # the pack is cut and waits for the deal
    DEALING = "dealing"      # cards are leaving the pack
    AUCTION = "auction"      # the deal is complete; bidding (bridge) or making trump (euchre)
    PLAY = "play"            # cards are being played to tricks
    SCORING = "scoring"      # play has ended; waiting for the result


@dataclass
class Claim:
    """An open right to demand a redeal (or new deal) because of a fact the engine saw.

    Attributes:
        clause: the clause that opened it.
        law: its citation.
        side: the side that may claim, or None when any player may.
        dealer: who deals if the claim is made.
        until: the event type that closes the right (``deal_end``, ``trump_turned``, ``deal_start``,
            ``card_played``...).
        why: the facts, in our words.
        grants: the remedy the claim wins (a redeal, or a reshuffle under euchre law 27).
        lapse: the sentence said when the right lapses unused ("" for the usual one).
    """

    clause: str
    law: str
    side: Side | None
    dealer: Seat
    until: str
    why: str
    grants: str = "redeal"
    lapse: str = ""
    options: tuple[str, ...] = ()   # for grants == "call": the demands that take the claim (euchre play)
    offender: Seat | None = None    # the player the option is exercised against
    card: Card | None = None        # the card concerned (a card led out of turn or exposed)
    trick: int | None = None        # the trick concerned
    otherwise: Seat | None = None   # who deals if the claim lapses, where the deal is already void (law 44)


@dataclass(frozen=True)
class Call:
    """A call in force against one player (euchre laws 47, 52, 54-59): until it is met or fails.

    Attributes:
        seat: the player it binds (for a suit call, he or his partner, whichever leads first).
        kind: ``card`` (play this exposed card at the first lawful chance), ``suit`` (lead this suit at
            the next lead of his side), ``win`` or ``lose`` (win or lose trick ``trick`` if able),
            ``highest`` or ``lowest`` (his highest or lowest card of the suit led to ``trick``, law 89).
        law, clause: the law that gave it.
        card, suit, trick: what it names.
    """

    seat: Seat
    kind: str
    law: str
    clause: str
    card: Card | None = None
    suit: str | None = None
    trick: int | None = None


# Pack ids that mean "not known yet" (a shoe reports the pack only once it reads a card).
UNKNOWN_PACKS = frozenset({"", "unknown"})


@dataclass
class DealState:
    """The deal in progress (or the last one)."""

    number: int
    dealer: Seat
    pack: str
    in_turn: bool
    cut: bool
    on_behalf_of: Seat | None = None
    expected: Seat | None = None  # whose deal it was by rotation when it started (None: unknown)
    stood: bool = False           # dealt out of turn, and the right to stop it lapsed: the deal is its dealer's
    dealt: list[tuple[Seat, Card | None]] = field(default_factory=list)
    hands: dict[Seat, list[Card]] = field(default_factory=lambda: {s: [] for s in Seat})
    counts: dict[Seat, int] = field(default_factory=lambda: dict.fromkeys(Seat, 0))
    seen: set[Card] = field(default_factory=set)
    void: bool = False            # a ruling ended this deal; its remaining cards are ignored
    void_by: str = ""             # the law of that ruling ("Euchre, law 41"), to say why later ("": unknown)
    new_pack: bool = False        # the ruling that ended it was ``replace_pack``: the pack must not be dealt again
    ended: bool = False           # deal_end received
    trump_card: Card | None = None
    trump_suit: str | None = None
    makers: Side | None = None
    alone_seat: Seat | None = None
    plays: list[tuple[Seat, Card]] = field(default_factory=list)
    played: dict[Seat, int] = field(default_factory=lambda: dict.fromkeys(Seat, 0))
    reported_counts: dict[Seat, int] = field(default_factory=dict)
    interruptions: list[tuple[Seat, str]] = field(default_factory=list)
    exposed: dict[Seat, list[Card]] = field(default_factory=lambda: {s: [] for s in Seat})  # liable to call
    calls: list[Call] = field(default_factory=list)       # calls in force (euchre laws 52-59)
    call_failures: list[Seat] = field(default_factory=list)  # each a revoke (law 54), scored at play end
    set_aside: bool = False       # the game ruled the card_played being applied an exposure, not a play
    hands_down: list[Seat] = field(default_factory=list)  # players who laid their hand face up (48-50)
    bids: list[tuple[Seat, str, str | None, bool]] = field(default_factory=list)  # euchre, in order
    silenced: Seat | None = None  # a player who must pass
    silenced_by: str = "80"       # the law that silenced him (80, or 82 for the dealer's turn-down)
    discarded: Card | None = None  # the euchre dealer's discard, when the table saw it (laws 86-88)
    discards: int = 0             # discard events so far
    free_fourth: int = 0          # trick in which the third hand played early, freeing the fourth (58)
    stood_lead: tuple[int, Seat] | None = None  # euchre 53: the last lead out of turn everyone played to (trick, leader)
    may_withdraw: list[Seat] = field(default_factory=list)  # euchre 69: who may take back his card ...
    withdraw_trick: int = 0       # ... in this trick, after a revoke corrected in it
    search: Seat | None = None    # bridge: a deficient hand whose missing card is being searched for
    search_card: Card | None = None  # the card searched for, when the shoe read every other card
    bridge: Any = None            # bridge: the auction and the play (laws.games.bridge_hand.BridgeHand)

    @property
    def taken_up(self) -> bool:
        """Euchre: the dealer took the turned card into his hand (trump was made in its suit)."""
        return self.trump_card is not None and self.trump_suit == self.trump_card.suit

    @property
    def known_pack(self) -> str | None:
        """The pack this deal is dealt from, or None while the table does not know it (UNKNOWN_PACKS)."""
        return None if self.pack in UNKNOWN_PACKS else self.pack

    @property
    def rightful_dealer(self) -> Seat:
        """Who should deal again after a redeal: the same dealer, unless this deal was out of turn and
        could still be stopped (once it stands, as euchre law 40 says after the trump card, it is the
        deal of the one who dealt it, and a "same dealer" redeal is his)."""
        if not self.in_turn and not self.stood and self.expected is not None:
            return self.expected
        return self.on_behalf_of or self.dealer

    @property
    def cards_dealt(self) -> int:
        return len(self.dealt)

    def expected_in_hand(self, seat: Seat) -> int:
        """Cards ``seat`` should hold now: dealt to it minus played by it."""
        return self.counts[seat] - self.played[seat]


@dataclass
class TableState:
    """Everything the engine knows about the table."""

    game: str
    phase: Phase = Phase.FORMING
    players: dict[Seat, str] = field(default_factory=dict)
    next_dealer: Seat | None = None          # whose deal it is by rotation (None until known)
    pack_owners: dict[Side, str] = field(default_factory=dict)
    deal: DealState | None = None
    deals_started: int = 0
    shuffles: list[Seat] = field(default_factory=list)   # shuffles since the last deal
    reshuffle_owed: Seat | None = None   # euchre law 27: a dealer compelled to reshuffle; that shuffle is no second one
    cut_done: bool = False
    claims: list[Claim] = field(default_factory=list)
    restore_pack: dict[Side, str] = field(default_factory=dict)  # packs reclaimed for the next deal
    # Game-specific state (the scorer, the draw, the roster), created by the game module's ``setup``.
    game_state: dict[str, Any] = field(default_factory=dict)

    def side_of_pack(self, pack: str) -> Side | None:
        for side, p in self.pack_owners.items():
            if p == pack:
                return side
        return None
