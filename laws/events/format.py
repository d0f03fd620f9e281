"""The JSON Lines event format (``docs/events.md``): ``event_from_dict`` turns one decoded JSON object
into an event, raising ``EventFormatError`` that names the faulty field; ``event_to_dict`` is its
inverse. Unknown fields are ignored; ``t`` (seconds) may appear on any event.
"""

from __future__ import annotations

import math
import re
from dataclasses import MISSING, fields
from typing import Any

from laws.cards import Card, Seat, Side
from laws.errors import quoted
from laws.events.types import (
    BAR_REST,
    BIDS,
    BOARD_HOW,
    DEMANDS,
    EVENT_TYPES,
    FACED_WHERE,
    FOUL_DECISIONS,
    INTERRUPTIONS,
    SURPLUS_CAUSES,
    BidMade,
    BoardAbandoned,
    BoardPlaced,
    BoardShort,
    CallMade,
    CardDealt,
    CardDiscarded,
    CardFaced,
    CardsDrawn,
    DamagedCardFound,
    DealStarted,
    DummyFaced,
    Event,
    EventFormatError,
    MissingCardReported,
    PackCut,
    PlayerBarred,
)

# ---------------------------------------------------------------------------------------------------
# Decoding: one small converter per field kind, each raising EventFormatError naming the field.


def _seat(v: Any, name: str) -> Seat:
    try:
        return Seat(v)
    except (ValueError, TypeError):
        raise EventFormatError(f"field {name!r}: unknown seat {quoted(v)} (want N, E, S or W)") from None


def _side(v: Any, name: str) -> Side:
    try:
        return Side(v)
    except (ValueError, TypeError):
        raise EventFormatError(f"field {name!r}: unknown side {quoted(v)} (want NS or EW)") from None


def _card(v: Any, name: str) -> Card:
    try:
        return Card.parse(v)
    except ValueError as exc:
        raise EventFormatError(f"field {name!r}: {exc}") from None


def _card_or_none(v: Any, name: str) -> Card | None:
    return None if v is None else _card(v, name)


def _bool(v: Any, name: str) -> bool:
    if not isinstance(v, bool):
        raise EventFormatError(f"field {name!r}: want true or false, got {quoted(v)}")
    return v


def _int(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise EventFormatError(f"field {name!r}: want a whole number, got {quoted(v)}")
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
    return quoted(v)


def _str(v: Any, name: str) -> str:
    if not isinstance(v, str) or not v:
        raise EventFormatError(f"field {name!r}: want a non-empty string, got {quoted(v)}")
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
            raise EventFormatError(f"field {name!r}: {quoted(v)} is not one of {', '.join(options)}")
        return str(v)
    return conv


def _exposed(v: Any, name: str) -> dict[str, int]:
    if not isinstance(v, dict):
        raise EventFormatError(f"field {name!r}: want an object of name -> number of cards exposed")
    return {_str(k, name): _cards(n, name) for k, n in sorted(v.items(), key=_key)}


def _key(item: tuple[Any, Any]) -> str:
    """Objects are read in the order of their keys, not of their writing: the journal writes keys sorted,
    so a restart reads an event exactly as the live table did."""
    return str(item[0])


def _suit(v: Any, name: str) -> str:
    if v not in ("S", "H", "D", "C"):
        raise EventFormatError(f"field {name!r}: unknown suit {quoted(v)} (want S, H, D or C)")
    return str(v)


def _owners(v: Any, name: str) -> dict[Side, str]:
    if not isinstance(v, dict) or not v:
        raise EventFormatError(f"field {name!r}: want an object of side -> pack id")
    return {_side(k, name): _str(p, name) for k, p in sorted(v.items(), key=_key)}


def _cuts(v: Any, name: str) -> tuple[tuple[str, Card], ...]:
    if not isinstance(v, list) or not v:
        raise EventFormatError(f"field {name!r}: want a list of [name, card] pairs")
    out = []
    for item in v:
        if not isinstance(item, list) or len(item) != 2:
            raise EventFormatError(f"field {name!r}: want [name, card] pairs, got {quoted(item)}")
        out.append((_str(item[0], name), _card(item[1], name)))
    return tuple(out)


def _seat_map(v: Any, name: str) -> dict[str, Seat]:
    if not isinstance(v, dict):
        raise EventFormatError(f"field {name!r}: want an object of name -> seat")
    return {_str(k, name): _seat(s, name) for k, s in sorted(v.items(), key=_key)}


def _found(v: Any, name: str) -> str | Seat | None:
    if v is None:
        return None
    if v in ("loose", "trick"):
        return str(v)
    if v in ("N", "E", "S", "W"):
        return Seat(v)
    raise EventFormatError(f"field {name!r}: want 'loose', 'trick', a seat or null, got {quoted(v)}")


def _honours(v: Any, name: str) -> tuple[Side, int]:
    if not isinstance(v, dict) or "side" not in v or "points" not in v:
        raise EventFormatError(f"field {name!r}: want {{'side': NS|EW, 'points': 100|150}}")
    pts = _int(v["points"], name)
    if pts not in (100, 150):
        raise EventFormatError(f"field {name!r}: honours are worth 100 or 150, got {pts}")
    return (_side(v["side"], name), pts)


_BRIDGE_BID = re.compile(r"^[1-7](NT|N|C|D|H|S)$")
_ABOVE_SEVEN = re.compile(r"^([89]|[1-9][0-9])(NT|N|C|D|H|S)$")
_BRIDGE_WORDS = ("pass", "double", "redouble")


def _bridge_call(v: Any, name: str) -> str:
    """A bridge call in event spelling (``1C`` … ``7NT``, ``1N`` … ``7N``, ``pass``, ``double``,
    ``redouble``), returned as the auction model writes it (``1N`` becomes ``1NT``; a bid's letters may be
    lower case, the words may not). A bid above seven (``8C`` … ``99NT``) is taken too: no bidding card
    names one, but a player may say one, and the director or a replay enters it for the laws to rule on
    (an inadmissible call, ``BP-35-36``)."""
    if isinstance(v, str) and v in _BRIDGE_WORDS:
        return v
    if isinstance(v, str) and _BRIDGE_BID.match(v.upper()) or \
            isinstance(v, str) and _ABOVE_SEVEN.match(v.upper()):
        text = v.upper()
        return text + "T" if text.endswith("N") else text
    if isinstance(v, str) and re.match(r"^\d+(NT|N|C|D|H|S)$", v.upper()):
        raise EventFormatError(f"field {name!r}: {quoted(v)} is no bid: a bid names one to 99 tricks over six "
                               "(one to seven make a contract; a bid above seven is ruled by the laws)")
    raise EventFormatError(f"field {name!r}: {_short(v)} is not a call (want 1C … 7NT, a bid above seven "
                           "such as 8S, pass, double or redouble)")


def _rounds(v: Any, name: str) -> int | str:
    if v == BAR_REST:
        return BAR_REST
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 52:
        raise EventFormatError(f"field {name!r}: want a whole number of turns from 1 to 52, or \"rest\", "
                               f"got {_short(v)}")
    return v


def _card_list(v: Any, name: str) -> tuple[Card, ...]:
    if not isinstance(v, list) or not 1 <= len(v) <= 13:
        raise EventFormatError(f"field {name!r}: want a list of one to thirteen cards, got {_short(v)}")
    cards = tuple(_card(c, name) for c in v)
    if len(set(cards)) != len(cards):
        raise EventFormatError(f"field {name!r}: a card is listed twice")
    return cards


_FINGERPRINT = re.compile(r"^[0-9a-f]{64}$")


def _fingerprint(v: Any, name: str) -> str:
    if not isinstance(v, str) or not _FINGERPRINT.match(v):
        raise EventFormatError(f"field {name!r}: want a deal's fingerprint (64 lower-case hex digits), got "
                               f"{_short(v)}")
    return v


def _pbn_deal(v: Any, name: str) -> str:
    """A whole deal in PBN (``N:AKQ.… …``), checked as a hand record: four hands of thirteen, every card
    once."""
    from laws.duplicate.deal import Deal

    text = _str(v, name)
    try:
        Deal.from_pbn(text)
    except ValueError as exc:
        raise EventFormatError(f"field {name!r}: {exc}") from None
    return text


def _whole(low: int, high: int) -> Any:
    def conv(v: Any, name: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise EventFormatError(f"field {name!r}: want a whole number from {low} to {high}, got {_short(v)}")
        return v
    return conv


def _missing(v: Any, name: str) -> tuple[Card, ...]:
    if not isinstance(v, list) or not 1 <= len(v) <= 52:
        raise EventFormatError(f"field {name!r}: want a list of one to 52 cards, got {_short(v)}")
    cards = tuple(_card(c, name) for c in v)
    if len(set(cards)) != len(cards):
        raise EventFormatError(f"field {name!r}: a card is listed twice")
    return cards


def _short_text(limit: int) -> Any:
    def conv(v: Any, name: str) -> str:
        text = _str(v, name)
        if len(text) > limit:
            raise EventFormatError(f"field {name!r}: at most {limit} characters, got {_short(v)}")
        return text
    return conv


# Converters of one event type's field where the field's name means something else elsewhere (a euchre
# ``bid``'s ``call`` is one of its three declarations).
_OWN_CONVERTERS: dict[tuple[type[Event], str], Any] = {
    (CardsDrawn, "exposed"): _exposed, (PackCut, "exposed"): _cards,  # a mapping on a draw, a count on a cut
    (CallMade, "call"): _bridge_call, (PlayerBarred, "rounds"): _rounds, (DummyFaced, "cards"): _card_list,
    (BoardPlaced, "board"): _whole(1, 9999), (BoardPlaced, "record"): _fingerprint,
    (BoardPlaced, "deal"): _pbn_deal, (BoardPlaced, "how"): _choice(BOARD_HOW),
    (BoardPlaced, "section"): _short_text(8), (BoardPlaced, "table"): _whole(1, 999),
    (BoardPlaced, "round"): _whole(1, 999), (BoardPlaced, "ns"): _short_text(16),
    (BoardPlaced, "ew"): _short_text(16), (BoardShort, "missing"): _missing,
    (BoardAbandoned, "board"): _whole(1, 9999), (BoardAbandoned, "round"): _whole(1, 999),
}

_CONVERTERS: dict[str, Any] = {
    "game": _str, "owners": _owners, "cuts": _cuts, "seats": _seat_map, "name": _str,
    "fresh": _bool, "substitute": _str, "consent": _bool, "seat": _seat, "faced": _bool,
    "top": _cards, "bottom": _cards, "dealer": _seat, "pack": _str,
    "face_up": _bool, "where": _choice(FACED_WHERE), "by": _seat, "what": _choice(DEMANDS),
    "distinguishable": _bool, "looked": _bool, "count": _cards, "found": _found,
    "cause": _choice(SURPLUS_CAUSES), "tricks": _cards, "declarer": _seat, "contract": _contract,
    "honours": _honours, "makers": _side, "alone": _bool,
    "on_behalf_of": _seat, "how": _choice(INTERRUPTIONS), "suit": _suit, "call": _choice(BIDS),
    "agree": _bool, "decision": _choice(FOUL_DECISIONS), "lost": _bool, "left_in_shoe": _bool,
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
        raise EventFormatError(f"unknown event type {quoted(kind)}")
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
            conv = _OWN_CONVERTERS.get((cls, f.name)) or _CONVERTERS[f.name]
            kwargs[f.name] = conv(value, f.name)
    if cls is CardsDrawn and kwargs.get("exposed"):
        # a name that did not cut here (a typo: "ann" for "Ann") would leave law 10's cut again unruled
        cutters = {name for name, _ in kwargs["cuts"]}
        for name in kwargs["exposed"]:
            if name not in cutters:
                raise EventFormatError(f"field 'exposed': {quoted(name)} did not cut in this draw")
    if cls is BidMade and kwargs["call"] == "name" and kwargs.get("suit") is None:
        raise EventFormatError("bid: a 'name' call needs the 'suit' it names")
    if cls is DealStarted and kwargs.get("on_behalf_of") not in (None, kwargs["dealer"].partner):
        # only a partner's turn can be dealt for him (euchre law 45); naming anyone else would hand the
        # deal, and the next one, to a seat whose turn it never was
        dealer = kwargs["dealer"]
        raise EventFormatError(f"deal_start: 'on_behalf_of' is {kwargs['on_behalf_of'].value}, but {dealer.value} "
                               f"can deal only for his partner, {dealer.partner.value}")
    if cls is BoardPlaced:
        from laws.duplicate.deal import Deal

        if Deal.from_pbn(kwargs["deal"]).fingerprint != kwargs["record"]:
            raise EventFormatError("board: 'record' is not the fingerprint of its 'deal' (docs/handrecords.md)")
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
