"""Hypothesis strategies for every event type of the format, built from ``laws.events.EVENT_TYPES`` and
the fields' kinds (their type hints), so a type added to the format is fuzzed without editing this file.

``any_event(game)`` draws one event of any type with random fields (each a value of its kind, or now and
then any JSON value) and passes it through the format's decoder, as every line from outside does; the
events the format refuses are not events and are left out. ``table_events(game)`` mixes such events into a
table that goes on through its phases (formed, shuffled, cut, dealt, bid, played, scored), so the random
events meet every phase in a random order.

Where a field is a plain ``str``, its words come from the format's own vocabularies: every tuple of
strings in ``laws.events.types`` (``DEMANDS``, ``FACED_WHERE``, ``BIDS`` ... and any tuple a new event
brings), beside seats, suits, packs, contracts and arbitrary text; the words the format's decoder takes
for that field (tried one by one on its converter) come first, so ``where`` is mostly one of its six
places and ``what`` one of the demands.
"""

from __future__ import annotations

import functools
import types
import typing
from dataclasses import fields
from typing import Any

from hypothesis import strategies as st

import laws.events.types as event_types
from laws.cards import RANKS, SEATS, Card, Seat, Side, clockwise_from, full_pack
from laws.engine import LawEngine
from laws.events import EVENT_TYPES, Event, EventFormatError, event_from_dict, event_to_dict
from laws.state import Phase

BRIDGE_PACK = full_pack(RANKS)
EUCHRE_PACK = full_pack("AKQJT987")
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "x")


def _vocabulary() -> tuple[str, ...]:
    words: set[str] = {"loose", "trick", "red", "blue", "unknown", "", "contract-bridge", "euchre",
                       "4S", "3NT", "6HX", "7NTXX", "1C", "S", "H", "D", "C", "NT", "N", "E", "W", "NS", "EW"}
    for value in vars(event_types).values():  # every vocabulary the event types declare
        if isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
            words.update(value)
    return tuple(sorted(words))


VOCABULARY = _vocabulary()
JSON_ANY = st.recursive(st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False, allow_infinity=False)
                        | st.text(max_size=6),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                    max_size=3),
                        max_leaves=6)


@functools.cache
def field_words(name: str) -> tuple[str, ...]:
    """The words of ``VOCABULARY`` the format takes in field ``name`` (empty: none known)."""
    from laws.events import format as event_format

    convert = getattr(event_format, "_CONVERTERS", {}).get(name)
    if convert is None:
        return ()
    taken = []
    for word in VOCABULARY:
        try:
            convert(word, name)
        except (EventFormatError, ValueError, TypeError):
            continue
        taken.append(word)
    return tuple(taken) if len(taken) < len(VOCABULARY) else ()


def kind_strategy(hint: Any, name: str = "") -> st.SearchStrategy[Any]:
    """Values of field ``name`` whose type hint is ``hint`` (Seat, Card, ``str | None``,
    ``dict[Side, str]`` ...), as the event format writes them in JSON."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(kind_strategy(a, name) for a in args))
    if hint is type(None):
        return st.none()
    if hint is Seat:
        return st.sampled_from([s.value for s in Seat])
    if hint is Side:
        return st.sampled_from([s.value for s in Side])
    if hint is Card:
        return st.sampled_from([c.code for c in BRIDGE_PACK])
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(0, 14) | st.integers(-2, 60)
    if hint is float:
        return st.floats(0, 1e6)
    if hint is str:
        own = field_words(name)
        anything = st.sampled_from(VOCABULARY) | st.text(max_size=8)
        return st.one_of(st.sampled_from(own), st.sampled_from(own), anything) if own else anything
    if origin is dict:
        return st.dictionaries(kind_strategy(args[0]) if args[0] is not str else st.sampled_from(NAMES),
                               kind_strategy(args[1]), max_size=6)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(kind_strategy(args[0]), max_size=7)
        return st.tuples(*(kind_strategy(a) for a in args)).map(list)
    return JSON_ANY  # a kind this file does not know yet: any JSON value


@functools.cache
def _field_values(cls: type[Event]) -> st.SearchStrategy[dict[str, Any]]:
    hints = typing.get_type_hints(cls)
    out: dict[str, st.SearchStrategy[Any]] = {}
    for f in fields(cls):
        if f.name == "t":
            continue
        value = kind_strategy(hints[f.name], f.name)
        # mostly a value of its kind, sometimes any JSON value, sometimes left out
        out[f.name] = st.one_of(value, value, value, JSON_ANY, st.just(_ABSENT))
    return st.fixed_dictionaries(out).map(lambda d: {k: v for k, v in d.items() if v is not _ABSENT})


_ABSENT = object()


@st.composite
def any_event(draw: st.DrawFn, types_: tuple[str, ...] = ()) -> Event | None:
    """One event of a random type (among ``types_``, or all), random fields, decoded by the format;
    None when the format refuses it (a refusal is not an event)."""
    kind = draw(st.sampled_from(types_ or tuple(t for t in EVENT_TYPES if t != "game")))
    obj = {"type": kind, **draw(_field_values(EVENT_TYPES[kind]))}
    if draw(st.booleans()):
        obj["t"] = draw(st.floats(0, 1e6))
    try:
        return event_from_dict(obj)
    except EventFormatError:
        return None


def next_step(draw: st.DrawFn, engine: LawEngine, deck: list[Card]) -> Event:
    """An ordinary next event for the table as the engine now sees it, so the table moves through its
    phases between the random events."""
    s = engine.state
    game = s.game
    d = s.deal
    dealer = s.next_dealer or Seat.N
    phase = s.phase
    if phase is Phase.FORMING:
        cards = ["AS", "KH", "7D", "2C"] if game == "contract-bridge" else ["JS", "AH", "9D", "8C"]
        return event_from_dict({"type": "draw", "cuts": [[n, c] for n, c in zip(NAMES, cards)]})
    if phase is Phase.SHUFFLE:
        return event_from_dict({"type": draw(st.sampled_from(["shuffle", "cut"])),
                                "seat": draw(st.sampled_from([dealer.partner.value, dealer.right.value]))})
    if phase is Phase.CUT:
        return event_from_dict({"type": "deal_start", "dealer": dealer.value,
                                "pack": draw(st.sampled_from(["red", "blue", "unknown"]))})
    if phase is Phase.DEALING and d is not None:
        if d.cards_dealt >= engine.rules.cards_dealt or d.void:
            if game == "euchre" and d.trump_card is None and not d.void:
                return event_from_dict({"type": "trump_turned", "card": deck[-1].code})
            return event_from_dict({"type": "deal_end"})
        seat = clockwise_from(d.dealer.left)[d.cards_dealt % 4]
        card = deck[d.cards_dealt % len(deck)]
        return event_from_dict({"type": "card_dealt", "seat": seat.value,
                                "card": None if draw(st.integers(0, 40)) == 0 else card.code})
    if phase is Phase.AUCTION and game == "euchre" and d is not None and d.makers is None:
        return event_from_dict({"type": draw(st.sampled_from(["bid", "trump_made"])),
                                "seat": draw(st.sampled_from([x.value for x in SEATS])), "call": "order",
                                "suit": draw(st.sampled_from("SHDC"))})
    if phase in (Phase.AUCTION, Phase.PLAY) and d is not None:
        if len(d.plays) >= 4 * engine.rules.hand_size or draw(st.integers(0, 30)) == 0:
            return event_from_dict({"type": "play_end"})
        seat = draw(st.sampled_from(SEATS))
        held = [c for c in d.hands[seat] if (seat, c) not in d.plays] or list(deck[:1])
        return event_from_dict({"type": "card_played", "seat": seat.value, "card": draw(st.sampled_from(held)).code})
    if game == "contract-bridge":
        return event_from_dict({"type": "result", "declarer": draw(st.sampled_from("NESW")),
                                "contract": draw(st.sampled_from(["4S", "3NT", "2CX", "7NTXX"])),
                                "tricks": draw(st.integers(0, 13))})
    return event_from_dict({"type": "result", "makers": draw(st.sampled_from(["NS", "EW"])),
                            "alone": draw(st.booleans()), "tricks": draw(st.integers(0, 5))})


@st.composite
def table_events(draw: st.DrawFn, game: str, steps: int = 120) -> list[Event]:
    """A table of ``game`` that goes on through its phases, with random events of every type among its
    ordinary ones (about one in three), in a random order. The events are fed to a scratch engine as they
    are drawn (the ordinary next event depends on where the table is); one the engine refuses, or one
    that makes it fail, is kept in the list all the same (the tests judge the engine, not this)."""
    engine = LawEngine(game)
    deck = list(draw(st.permutations(BRIDGE_PACK if game == "contract-bridge" else EUCHRE_PACK)))
    out: list[Event] = [event_from_dict({"type": "game", "game": game})]
    for _ in range(draw(st.integers(1, steps))):
        event = draw(any_event()) if draw(st.integers(0, 2)) == 0 else next_step(draw, engine, deck)
        if event is None:
            continue
        out.append(event)
        try:
            engine.feed(event)
        except Exception:  # noqa: BLE001 - judged by the test that feeds the list
            pass
    return out


def as_rows(events: list[Event]) -> list[dict[str, Any]]:
    """The events as the journal's event rows hold them."""
    return [event_to_dict(e) for e in events]
