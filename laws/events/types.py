"""The table events as frozen dataclasses, named in the past tense, and ``EVENT_TYPES`` (the format's
``type`` -> class). Their JSON form is ``laws.events.format``; both are described in ``docs/events.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from laws.cards import Card, Seat, Side


class EventFormatError(ValueError):
    """An event object that does not follow the event format."""


@dataclass(frozen=True)
class Event:
    """Base of all events. ``t`` is an optional timestamp in seconds."""

    TYPE: ClassVar[str] = ""
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class GameChosen(Event):
    TYPE: ClassVar[str] = "game"
    game: str


@dataclass(frozen=True)
class PacksAssigned(Event):
    TYPE: ClassVar[str] = "packs"
    owners: dict[Side, str]


@dataclass(frozen=True)
class CardsDrawn(Event):
    """Candidates' cuts for forming the table, in order of arrival."""

    TYPE: ClassVar[str] = "draw"
    cuts: tuple[tuple[str, Card], ...]
    seats: dict[str, Seat] | None = None
    exposed: dict[str, int] | None = None


@dataclass(frozen=True)
class CandidateArrived(Event):
    """A candidate declares entry to the table (euchre laws 15-21)."""

    TYPE: ClassVar[str] = "candidate"
    name: str
    fresh: bool = True


@dataclass(frozen=True)
class PlayerLeft(Event):
    """A player leaves the table, optionally appointing a substitute (euchre laws 18-19)."""

    TYPE: ClassVar[str] = "leave"
    name: str
    substitute: str | None = None
    consent: bool = False


@dataclass(frozen=True)
class PackShuffled(Event):
    TYPE: ClassVar[str] = "shuffle"
    seat: Seat


@dataclass(frozen=True)
class PackCut(Event):
    TYPE: ClassVar[str] = "cut"
    seat: Seat
    faced: bool = False
    top: int | None = None
    bottom: int | None = None
    exposed: int | None = None


@dataclass(frozen=True)
class DealStarted(Event):
    TYPE: ClassVar[str] = "deal_start"
    dealer: Seat
    pack: str
    on_behalf_of: Seat | None = None


@dataclass(frozen=True)
class CardDealt(Event):
    """A card left the pack towards ``seat``; ``card`` is None when its code could not be read."""

    TYPE: ClassVar[str] = "card_dealt"
    seat: Seat
    card: Card | None
    face_up: bool = False
    pack: str | None = None


INTERRUPTIONS = ("touched", "interrupted")


@dataclass(frozen=True)
class DealInterrupted(Event):
    """An opponent touched the cards, or wrongly interrupted the dealer (euchre laws 43-44)."""

    TYPE: ClassVar[str] = "deal_interrupted"
    seat: Seat
    how: str


@dataclass(frozen=True)
class DealEnded(Event):
    """The deal ended. ``lost``: the table's link to its shoe lost messages of this deal, so which cards
    went where is not known (the table ends the deal there; the laws rule on that, not on the cards).
    ``left_in_shoe``: the shoe said a card was still in its well when the deal was over (its DEAL_FINISHED
    or BOARD_FINISHED flag, hardware/shoe/PROTOCOL.md 4.2): the kitty in euchre, a card too many in the
    pack in bridge. Kept on the event, so the journal's row is what a restarted table rules on again."""

    TYPE: ClassVar[str] = "deal_end"
    lost: bool = False
    left_in_shoe: bool = False


@dataclass(frozen=True)
class TrumpTurned(Event):
    TYPE: ClassVar[str] = "trump_turned"
    card: Card


BIDS = ("pass", "order", "name")


@dataclass(frozen=True)
class BidMade(Event):
    """Euchre: a declaration in the making of trump (laws 74-82), as a button enters it. ``order`` accepts
    the turned card (ordering up, assisting, taking up) in the first round; ``name`` names ``suit`` in the
    second; ``alone`` plays it alone (also a partner's or the dealer's takeover, laws 74-75)."""

    TYPE: ClassVar[str] = "bid"
    seat: Seat
    call: str
    suit: str | None = None
    alone: bool = False


@dataclass(frozen=True)
class CardDiscarded(Event):
    """Euchre: the dealer who took up the trump card put a card under the pack (laws 86-89); ``card``
    when the camera or the shoe read it."""

    TYPE: ClassVar[str] = "discard"
    seat: Seat
    card: Card | None = None


FACED_WHERE = ("pack", "cut", "deal", "trump", "table", "hand")


@dataclass(frozen=True)
class TrumpMade(Event):
    """Euchre: trump is made (ordered up, taken up or named) by ``seat``; ``alone`` for a lone hand."""

    TYPE: ClassVar[str] = "trump_made"
    seat: Seat
    suit: str
    alone: bool = False


@dataclass(frozen=True)
class CardFaced(Event):
    TYPE: ClassVar[str] = "card_faced"
    card: Card | None
    where: str
    by: Seat | None = None
    pack: str | None = None  # the pack the card's code names, when the camera read it


DEMANDS = ("new_shuffle", "new_cut", "redeal", "restore_pack", "new_cards", "attention", "new_deal",
           "call_card", "call_suit", "win_trick", "lose_trick", "name_card", "revoke", "search_tricks",
           "play_out", "place_cards", "hold_order", "call_highest", "call_lowest")


@dataclass(frozen=True)
class DemandMade(Event):
    """A player's demand (a button, or the director for him). The euchre calls of play name what they
    call: ``call_card`` a ``card`` (which exposed card), ``call_suit`` a ``suit``."""

    TYPE: ClassVar[str] = "demand"
    seat: Seat
    what: str
    card: Card | None = None
    suit: str | None = None


@dataclass(frozen=True)
class DamagedCardFound(Event):
    TYPE: ClassVar[str] = "damaged_card"
    card: Card | None
    pack: str
    distinguishable: bool = True


@dataclass(frozen=True)
class WrongHandPicked(Event):
    TYPE: ClassVar[str] = "wrong_hand"
    seat: Seat
    looked: bool


@dataclass(frozen=True)
class HandCounted(Event):
    TYPE: ClassVar[str] = "hand_count"
    seat: Seat
    count: int


@dataclass(frozen=True)
class MissingCardReported(Event):
    """``found`` is ``"loose"``, a seat, ``"trick"``, or None (never found)."""

    TYPE: ClassVar[str] = "missing_card"
    card: Card | None
    seat: Seat
    found: str | Seat | None


SURPLUS_CAUSES = ("pack", "deal", "play", "trick")


@dataclass(frozen=True)
class SurplusCardFound(Event):
    TYPE: ClassVar[str] = "surplus_card"
    seat: Seat
    cause: str


@dataclass(frozen=True)
class CardPlayed(Event):
    TYPE: ClassVar[str] = "card_played"
    seat: Seat
    card: Card
    pack: str | None = None  # the pack the card's code names, when the camera read it


@dataclass(frozen=True)
class PlayEnded(Event):
    TYPE: ClassVar[str] = "play_end"


@dataclass(frozen=True)
class ResultRecorded(Event):
    """A hand's result. Bridge uses declarer/contract/honours; euchre uses makers/alone."""

    TYPE: ClassVar[str] = "result"
    tricks: int
    declarer: Seat | None = None
    contract: str | None = None
    honours: tuple[Side, int] | None = None
    makers: Side | None = None
    alone: bool = False


# -- bridge as it is played: the auction and the play (docs/laws.md BP-) ----------------------------------

@dataclass(frozen=True)
class CallMade(Event):
    """Bridge: a call in the auction (a bidding card the camera read, a seat button, the table's page, or
    the director). ``call`` is the event spelling: ``1C`` … ``7NT``, ``pass``, ``double``, ``redouble``."""

    TYPE: ClassVar[str] = "call"
    seat: Seat
    call: str


@dataclass(frozen=True)
class IrregularityAccepted(Event):
    """Bridge: the irregular call or card just made (an insufficient bid, a call out of rotation, a lead
    out of turn, a card played early) is accepted by ``seat`` (or the director for him) and stands."""

    TYPE: ClassVar[str] = "accept"
    seat: Seat


@dataclass(frozen=True)
class IrregularityDeclined(Event):
    """Bridge: the irregular call waiting for acceptance (an insufficient bid, a call out of rotation) is not
    accepted by ``seat``, who may accept it (or the director for him): it is cancelled, with what the law
    makes of that, and the player whose turn it was calls. The only way to decline a call made at its
    acceptor's own turn, whose call would accept it."""

    TYPE: ClassVar[str] = "decline"
    seat: Seat


@dataclass(frozen=True)
class CardWithdrawn(Event):
    """Bridge: a card played irregularly is taken back (a lead out of turn not accepted, a premature
    play, a card too many in a trick); a defender's becomes a penalty card as the laws say."""

    TYPE: ClassVar[str] = "withdraw"
    seat: Seat
    card: Card


@dataclass(frozen=True)
class RevokeCorrected(Event):
    """Bridge: ``seat`` corrects a revoke before it is established: ``card``, of the suit led, replaces
    the revoking card (BP-62)."""

    TYPE: ClassVar[str] = "correct"
    seat: Seat
    card: Card


@dataclass(frozen=True)
class HandSpread(Event):
    """Bridge: after a defender's opening lead out of turn, declarer ``seat`` spreads his hand (BP-53-56,
    law 54A): he becomes dummy, his partner becomes declarer, and the lead stands (it is now in turn)."""

    TYPE: ClassVar[str] = "spread"
    seat: Seat


BAR_REST = "rest"


@dataclass(frozen=True)
class PlayerBarred(Event):
    """Bridge: the director's choice under BP-27, BP-28-32 or BP-35-36: ``seat`` must pass at his next
    ``rounds`` turns, or for the rest of the auction (``"rest"``)."""

    TYPE: ClassVar[str] = "bar"
    seat: Seat
    rounds: int | str


@dataclass(frozen=True)
class TricksClaimed(Event):
    """Bridge: ``seat`` claims ``tricks`` of the remaining tricks for his side (0: a concession); play
    stops (BP-68-71)."""

    TYPE: ClassVar[str] = "claim"
    seat: Seat
    tricks: int


@dataclass(frozen=True)
class ClaimAnswered(Event):
    """Bridge: an opponent of the claimer agrees (play ends with the claim) or disputes it (the director
    is called)."""

    TYPE: ClassVar[str] = "claim_reply"
    seat: Seat
    agree: bool


@dataclass(frozen=True)
class ClaimRuled(Event):
    """Bridge: the director's decision on a disputed claim: ``tricks`` of the remaining ones go to the
    claimer's side."""

    TYPE: ClassVar[str] = "claim_ruled"
    tricks: int


@dataclass(frozen=True)
class DummyFaced(Event):
    """Bridge: dummy's hand as the camera saw it spread, when the deal is not known from the shoe or a
    hand record."""

    TYPE: ClassVar[str] = "dummy"
    cards: tuple[Card, ...]


# The events of the bridge auction and play: a table of another game refuses them.
BRIDGE_EVENTS = frozenset({"call", "accept", "decline", "withdraw", "correct", "bar", "claim", "claim_reply",
                           "claim_ruled", "dummy", "spread"})


# -- duplicate bridge: the board on the table (docs/laws.md DB-) -----------------------------------------

BOARD_HOW = ("board", "shoe")
FOUL_DECISIONS = ("fouled", "wrong_board")


@dataclass(frozen=True)
class BoardPlaced(Event):
    """Duplicate: the board now on the table (from the session's movement, or the table's configuration):
    its number, its hand record (``record``: the deal's fingerprint; ``deal``: the deal in PBN), where it is
    played, and how its cards reach the players: ``board`` (a physical board: each player takes his
    pocket's cards) or ``shoe`` (the table's shoe deals it from the record)."""

    TYPE: ClassVar[str] = "board"
    board: int
    record: str
    deal: str
    how: str = "board"
    section: str | None = None
    table: int | None = None
    round: int | None = None
    ns: str | None = None
    ew: str | None = None


@dataclass(frozen=True)
class BoardShort(Event):
    """Duplicate, a board the table's shoe deals: it stopped before every card was in its pocket
    (the pack ran out, a card rejected, the deal stopped); ``missing`` are the cards not placed. None:
    the shoe said the board is not whole but named no card missing, so which cards are in the pockets is
    not known (hardware/shoe/PROTOCOL.md 7.2): the board is dealt again from empty pockets. ``lost``: the
    table's link to its shoe lost messages of the board (its cards, most likely), so which cards are in
    the pockets is not known either, whatever ``missing`` says: dealt again, saying why."""

    TYPE: ClassVar[str] = "board_short"
    missing: tuple[Card, ...] | None = None
    lost: bool = False


@dataclass(frozen=True)
class FoulRuled(Event):
    """Duplicate: the director's decision on a card played against the record: ``fouled`` (the board
    is played on as it is held and scored in its own group, DB-87) or ``wrong_board`` (the cards are
    another board's: this play is cancelled and the right board is played, DB-15)."""

    TYPE: ClassVar[str] = "foul_ruled"
    decision: str


@dataclass(frozen=True)
class BoardAbandoned(Event):
    """Duplicate: the board on the table is no longer this table's to finish, because the session holds its
    result already (the director entered it by hand, gave a score, or took it off to score it himself) while
    the table had it in play, unconfirmed: a table restarted after the director scored its board, or one
    whose round the session has moved on. Its play here ends; nothing more of it is ruled, scored or sent,
    and the table goes on with the boards of its seating (``docs/session.md``, "A result without a working
    table"). ``board`` and ``round`` name the board on the table (``round`` None: any)."""

    TYPE: ClassVar[str] = "board_abandoned"
    board: int
    round: int | None = None


@dataclass(frozen=True)
class ResultConfirmed(Event):
    """Duplicate: a player confirms his side's agreement with the board's result (a seat button, the
    table's page), as a scoring terminal asks one player of each side to."""

    TYPE: ClassVar[str] = "confirm"
    seat: Seat


# The events of a duplicate table: a table of another game refuses them.
DUPLICATE_EVENTS = frozenset({"board", "board_short", "foul_ruled", "confirm", "board_abandoned"})

# The events only a euchre table takes (the roster of laws 15-21, the deal's interruptions, the making of trump
# and the dealer's discard): at a bridge table they fit no phase and are ignored (laws.engine).
EUCHRE_EVENTS = frozenset({"candidate", "leave", "deal_interrupted", "trump_turned", "bid", "trump_made", "discard"})


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameChosen, PacksAssigned, CardsDrawn, CandidateArrived, PlayerLeft, PackShuffled, PackCut,
        DealStarted, CardDealt, DealInterrupted, DealEnded, TrumpTurned, TrumpMade, BidMade, CardDiscarded, CardFaced, DemandMade,
        DamagedCardFound,
        WrongHandPicked, HandCounted, MissingCardReported, SurplusCardFound, CardPlayed, PlayEnded,
        ResultRecorded, CallMade, IrregularityAccepted, IrregularityDeclined, CardWithdrawn, RevokeCorrected, HandSpread, PlayerBarred,
        TricksClaimed, ClaimAnswered, ClaimRuled, DummyFaced, BoardPlaced, BoardShort, FoulRuled,
        BoardAbandoned, ResultConfirmed,
    )
}
