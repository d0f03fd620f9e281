"""Table events: the law engine's input, and the JSON Lines event format (``docs/events.md``).

Every event is a frozen dataclass named in the past tense. ``event_from_dict`` turns one decoded JSON
object into an event, raising ``EventFormatError`` that names the faulty field; ``event_to_dict`` is
its inverse. Unknown fields are ignored; ``t`` (seconds) may appear on any event.
"""

from __future__ import annotations

import math
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

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
    TYPE: ClassVar[str] = "deal_end"


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


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameChosen, PacksAssigned, CardsDrawn, CandidateArrived, PlayerLeft, PackShuffled, PackCut,
        DealStarted, CardDealt, DealInterrupted, DealEnded, TrumpTurned, TrumpMade, BidMade, CardDiscarded, CardFaced, DemandMade,
        DamagedCardFound,
        WrongHandPicked, HandCounted, MissingCardReported, SurplusCardFound, CardPlayed, PlayEnded,
        ResultRecorded,
    )
}


# ---------------------------------------------------------------------------------------------------
# Decoding: one small converter per field kind, each raising EventFormatError naming the field.


def _seat(v: Any, name: str) -> Seat:
    try:
        return Seat(v)
    except (ValueError, TypeError):
        raise EventFormatError(f"field {name!r}: unknown seat {v!r} (want N, E, S or W)") from None


def _side(v: Any, name: str) -> Side:
    try:
        return Side(v)
    except (ValueError, TypeError):
        raise EventFormatError(f"field {name!r}: unknown side {v!r} (want NS or EW)") from None


def _card(v: Any, name: str) -> Card:
    try:
        return Card.parse(v)
    except ValueError as exc:
        raise EventFormatError(f"field {name!r}: {exc}") from None


def _card_or_none(v: Any, name: str) -> Card | None:
    return None if v is None else _card(v, name)


def _bool(v: Any, name: str) -> bool:
    if not isinstance(v, bool):
        raise EventFormatError(f"field {name!r}: want true or false, got {v!r}")
    return v


def _int(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise EventFormatError(f"field {name!r}: want a whole number, got {v!r}")
    return v


def _bounded(top: int) -> Any:
    """A whole number from 0 to ``top``: card, packet and trick counts (a pack holds 52 cards; how many
    tricks a game allows is the game's rule, not the format's)."""
    def conv(v: Any, name: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= top:
            raise EventFormatError(f"field {name!r}: want a whole number from 0 to {top}, got {_short(v)}")
        return v
    return conv


_cards = _bounded(52)


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _str(v: Any, name: str) -> str:
    if not isinstance(v, str) or not v:
        raise EventFormatError(f"field {name!r}: want a non-empty string, got {v!r}")
    return v


def _contract(v: Any, name: str) -> str:
    """A bridge contract in event notation (``4S``, ``3NT``, ``6HX``, ``7NTXX``), checked whatever the
    phase, so a log is malformed or not by its text alone."""
    from laws.scoring.bridge import parse_contract

    text = _str(v, name)
    try:
        parse_contract(text)
    except ValueError as exc:
        raise EventFormatError(f"field {name!r}: {exc}") from None
    return text


def _choice(options: tuple[str, ...]) -> Any:
    def conv(v: Any, name: str) -> str:
        if v not in options:
            raise EventFormatError(f"field {name!r}: {v!r} is not one of {', '.join(options)}")
        return str(v)
    return conv


def _exposed(v: Any, name: str) -> dict[str, int]:
    if not isinstance(v, dict):
        raise EventFormatError(f"field {name!r}: want an object of name -> number of cards exposed")
    return {_str(k, name): _cards(n, name) for k, n in v.items()}


def _suit(v: Any, name: str) -> str:
    if v not in ("S", "H", "D", "C"):
        raise EventFormatError(f"field {name!r}: unknown suit {v!r} (want S, H, D or C)")
    return str(v)


def _owners(v: Any, name: str) -> dict[Side, str]:
    if not isinstance(v, dict) or not v:
        raise EventFormatError(f"field {name!r}: want an object of side -> pack id")
    return {_side(k, name): _str(p, name) for k, p in v.items()}


def _cuts(v: Any, name: str) -> tuple[tuple[str, Card], ...]:
    if not isinstance(v, list) or not v:
        raise EventFormatError(f"field {name!r}: want a list of [name, card] pairs")
    out = []
    for item in v:
        if not isinstance(item, list) or len(item) != 2:
            raise EventFormatError(f"field {name!r}: want [name, card] pairs, got {item!r}")
        out.append((_str(item[0], name), _card(item[1], name)))
    return tuple(out)


def _seat_map(v: Any, name: str) -> dict[str, Seat]:
    if not isinstance(v, dict):
        raise EventFormatError(f"field {name!r}: want an object of name -> seat")
    return {_str(k, name): _seat(s, name) for k, s in v.items()}


def _found(v: Any, name: str) -> str | Seat | None:
    if v is None:
        return None
    if v in ("loose", "trick"):
        return str(v)
    if v in ("N", "E", "S", "W"):
        return Seat(v)
    raise EventFormatError(f"field {name!r}: want 'loose', 'trick', a seat or null, got {v!r}")


def _honours(v: Any, name: str) -> tuple[Side, int]:
    if not isinstance(v, dict) or "side" not in v or "points" not in v:
        raise EventFormatError(f"field {name!r}: want {{'side': NS|EW, 'points': 100|150}}")
    pts = _int(v["points"], name)
    if pts not in (100, 150):
        raise EventFormatError(f"field {name!r}: honours are worth 100 or 150, got {pts}")
    return (_side(v["side"], name), pts)


def _exposed_or_count(v: Any, name: str) -> Any:
    # `exposed` is a count on `cut` and a name -> count mapping on `draw`.
    return _exposed(v, name) if isinstance(v, dict) else _cards(v, name)


_CONVERTERS: dict[str, Any] = {
    "game": _str, "owners": _owners, "cuts": _cuts, "seats": _seat_map, "name": _str,
    "fresh": _bool, "substitute": _str, "consent": _bool, "seat": _seat, "faced": _bool,
    "top": _cards, "bottom": _cards, "dealer": _seat, "pack": _str,
    "face_up": _bool, "where": _choice(FACED_WHERE), "by": _seat, "what": _choice(DEMANDS),
    "distinguishable": _bool, "looked": _bool, "count": _cards, "found": _found,
    "cause": _choice(SURPLUS_CAUSES), "tricks": _cards, "declarer": _seat, "contract": _contract,
    "honours": _honours, "makers": _side, "alone": _bool, "exposed": _exposed_or_count,
    "on_behalf_of": _seat, "how": _choice(INTERRUPTIONS), "suit": _suit, "call": _choice(BIDS),
}
# Fields whose card may be null (unreadable) rather than required.
_NULLABLE_CARD = {CardDealt, CardFaced, DamagedCardFound, MissingCardReported, CardDiscarded}


def _finite(t: Any) -> bool:
    try:
        return not isinstance(t, bool) and isinstance(t, (int, float)) and math.isfinite(float(t))
    except OverflowError:  # an int too large for a float
        return False


def event_from_dict(obj: Any) -> Event:
    """Build an event from a decoded JSON object.

    Raises:
        EventFormatError: naming the type or field that is wrong.
    """
    if not isinstance(obj, dict):
        raise EventFormatError(f"want a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventFormatError(f"unknown event type {kind!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name == "t":
            continue
        optional = f.default is not MISSING
        if f.name not in obj:
            if optional:
                continue
            if f.name == "found" or (f.name == "card" and cls in _NULLABLE_CARD):
                kwargs[f.name] = None  # absent means "not read" / "not found"
                continue
            raise EventFormatError(f"{kind}: missing field {f.name!r}")
        value = obj[f.name]
        if f.name == "card":
            kwargs[f.name] = (_card_or_none if cls in _NULLABLE_CARD else _card)(value, f.name)
        elif value is None and (optional and f.default is None or f.name == "found"):
            kwargs[f.name] = None
        else:
            kwargs[f.name] = _CONVERTERS[f.name](value, f.name)
    if cls is BidMade and kwargs["call"] == "name" and kwargs.get("suit") is None:
        raise EventFormatError("bid: a 'name' call needs the 'suit' it names")
    t = obj.get("t")
    if t is not None and not _finite(t):
        raise EventFormatError(f"field 't': want seconds as a finite number, got {_short(t)}")
    return cls(**kwargs, t=None if t is None else float(t))


def _encode(v: Any) -> Any:
    if isinstance(v, (Seat, Side)):
        return v.value
    if isinstance(v, Card):
        return v.code
    if isinstance(v, dict):
        return {_encode(k): _encode(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return [_encode(x) for x in v]
    return v


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON object for an event; optional fields at their defaults are left out."""
    out: dict[str, Any] = {"type": event.TYPE}
    for f in fields(event):
        v = getattr(event, f.name)
        if f.name == "honours" and v is not None:
            out["honours"] = {"side": v[0].value, "points": v[1]}
            continue
        if f.default is MISSING or (f.name != "t" and v != f.default) or (f.name == "t" and v is not None):
            out[f.name] = _encode(v)
    return out
