"""Table events: the law engine's input (``types``), and the JSON Lines event format (``format``,
``docs/events.md``).

Every event is a frozen dataclass named in the past tense. ``event_from_dict`` turns one decoded JSON
object into an event, raising ``EventFormatError`` that names the faulty field; ``event_to_dict`` is
its inverse. Unknown fields are ignored; ``t`` (seconds) may appear on any event.
"""

from laws.events.format import event_from_dict, event_to_dict
from laws.events.types import (
    BAR_REST,
    BIDS,
    BOARD_HOW,
    BRIDGE_EVENTS,
    DEMANDS,
    DUPLICATE_EVENTS,
    EVENT_TYPES,
    FACED_WHERE,
    FOUL_DECISIONS,
    INTERRUPTIONS,
    SURPLUS_CAUSES,
    BidMade,
    BoardPlaced,
    BoardShort,
    CallMade,
    CandidateArrived,
    CardDealt,
    CardDiscarded,
    CardFaced,
    CardPlayed,
    CardsDrawn,
    CardWithdrawn,
    ClaimAnswered,
    ClaimRuled,
    DamagedCardFound,
    DealEnded,
    DealInterrupted,
    DealStarted,
    DemandMade,
    DummyFaced,
    Event,
    EventFormatError,
    FoulRuled,
    GameChosen,
    HandCounted,
    IrregularityAccepted,
    MissingCardReported,
    PackCut,
    PacksAssigned,
    PackShuffled,
    PlayEnded,
    PlayerBarred,
    PlayerLeft,
    ResultConfirmed,
    ResultRecorded,
    RevokeCorrected,
    SurplusCardFound,
    TricksClaimed,
    TrumpMade,
    TrumpTurned,
    WrongHandPicked,
)

__all__ = ["BAR_REST", "BOARD_HOW", "BoardPlaced", "BoardShort", "DUPLICATE_EVENTS", "FOUL_DECISIONS", "FoulRuled", "ResultConfirmed", "BIDS", "BRIDGE_EVENTS", "CallMade", "CardWithdrawn", "ClaimAnswered", "ClaimRuled", "DummyFaced", "IrregularityAccepted", "PlayerBarred", "RevokeCorrected", "TricksClaimed", "BidMade", "CandidateArrived", "CardDealt", "CardDiscarded", "CardFaced", "CardPlayed", "CardsDrawn", "DEMANDS", "DamagedCardFound", "DealEnded", "DealInterrupted", "DealStarted", "DemandMade", "EVENT_TYPES", "Event", "EventFormatError", "FACED_WHERE", "GameChosen", "HandCounted", "INTERRUPTIONS", "MissingCardReported", "PackCut", "PackShuffled", "PacksAssigned", "PlayEnded", "PlayerLeft", "ResultRecorded", "SURPLUS_CAUSES", "SurplusCardFound", "TrumpMade", "TrumpTurned", "WrongHandPicked", "event_from_dict", "event_to_dict"]
