"""The form of a euchre hand in the notation (``docs/euchre.md``, "The hand notation"), checked where it
enters the night.

A hand comes from a table's login, and every field of it is journaled, exported and drawn on the pages;
a field checked only by the code that scores it (makers, tricks, penalties, void) would let anything else
through as it came (a renege's ``trick`` holding markup, say). So every field the notation names is held
to the form the document gives it here, once, and a hand that fails is refused with the field named.
The night's own facts (the table, its number, the round, the hand's number, the players) are checked
against the night by ``Night.check``; the scoring facts by ``hand_from_body``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from laws.errors import as_typed
from laws.rulings import Remedy

NOTATION = "cardtable-euchre-hand/1"
SEATS = ("N", "E", "S", "W")
# the fields a table's message may carry, by its type (docs/euchre.md, "The hand notation" and the stop);
# ``corrections`` is the night's own and is kept only to be refused by name
FIELDS = {
    "hand": frozenset(("type", "notation", "table", "table_number", "round", "hand", "deal", "players", "dealer",
                       "turn_up", "trump", "makers", "alone", "hands", "discard", "plays", "tricks", "penalties",
                       "void", "reneges", "rulings", "corrections", "night_id")),
    "stop": frozenset(("type", "table", "table_number", "round", "hands", "night_id")),
}
CARD = re.compile(r"[AKQJT987][SHDC]\Z")
REMEDIES = frozenset(r.value for r in Remedy)
TRICKS = range(1, 6)


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _card(v: object) -> bool:
    return isinstance(v, str) and CARD.match(v) is not None


def _strings(item: Mapping[str, Any], where: str, names: tuple[str, ...]) -> str:
    for name in names:
        if not isinstance(item.get(name), str):
            return f"{where}.{name} must be text, got {as_typed(item.get(name))}"
    return ""


def _cards(b: Mapping[str, Any]) -> str:
    """``turn_up``, ``trump``, ``dealer``, ``hands``, ``discard`` and ``plays``."""
    if b.get("dealer") not in SEATS:
        return f"dealer must be a seat (N, E, S, W), got {as_typed(b.get('dealer'))}"
    if not _card(b.get("turn_up")):
        return f"turn_up must be a card code (such as JH), got {as_typed(b.get('turn_up'))}"
    if b.get("trump") not in ("S", "H", "D", "C"):
        return f"trump must be a suit (S, H, D, C), got {as_typed(b.get('trump'))}"
    hands = b.get("hands")
    if not isinstance(hands, dict) or sorted(hands) != sorted(SEATS):
        return f"hands must be an object of the seats N, E, S, W, got {as_typed(hands, 60)}"
    for seat in SEATS:
        cards = hands[seat]
        if not isinstance(cards, list) or not all(_card(c) for c in cards):
            return f"hands.{seat} must be a list of card codes, got {as_typed(cards, 60)}"
    if b.get("discard") is not None and not _card(b.get("discard")):
        return f"discard must be a card code or null, got {as_typed(b.get('discard'))}"
    plays = b.get("plays")
    if not isinstance(plays, list):
        return f"plays must be a list of [seat, card], got {as_typed(plays, 60)}"
    for i, p in enumerate(plays):
        if not (isinstance(p, list) and len(p) == 2 and p[0] in SEATS and _card(p[1])):
            return f"plays[{i}] must be [seat, card] (such as [\"N\", \"JH\"]), got {as_typed(p, 60)}"
    return ""


def _objects(b: Mapping[str, Any], key: str, shape: str) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """``b[key]`` as a list of objects, each with where it is (``reneges[0]``); or the reason it is not."""
    items = b.get(key)
    if not isinstance(items, list):
        return f"{key} must be a list, got {as_typed(items, 60)}", []
    for i, r in enumerate(items):
        if not isinstance(r, dict):
            return f"{key}[{i}] must be an object {{{shape}}}, got {as_typed(r, 60)}", []
    return "", [(f"{key}[{i}]", r) for i, r in enumerate(items)]


def _named(b: Mapping[str, Any]) -> str:
    """``reneges``, ``rulings`` and the text of ``penalties``."""
    why, reneges = _objects(b, "reneges", "seat, trick, clause, law")
    if why:
        return why
    for where, r in reneges:
        if r.get("seat") not in SEATS:
            return f"{where}.seat must be a seat (N, E, S, W), got {as_typed(r.get('seat'))}"
        if not (_whole(r.get("trick")) and r["trick"] in TRICKS):
            return f"{where}.trick must be a trick number 1 to 5, got {as_typed(r.get('trick'))}"
        if r.get("clause") != "EU-64":
            return f"{where}.clause must be EU-64, got {as_typed(r.get('clause'))}"
        if why := _strings(r, where, ("law",)):
            return why
    why, rulings = _objects(b, "rulings", "clause, law, remedy, text")
    if why:
        return why
    for where, r in rulings:
        if why := _strings(r, where, ("clause", "law", "text")):
            return why
        if r.get("remedy") not in REMEDIES:
            return f"{where}.remedy must be a remedy of the rulings' format, got {as_typed(r.get('remedy'))}"
        if "deal" in r and not (_whole(r["deal"]) and r["deal"] >= 1):
            return f"{where}.deal must be a deal number from 1, got {as_typed(r['deal'])}"
    for i, p in enumerate(b.get("penalties") or []):   # the director's correction names no law and no text
        named = tuple(f for f in ("law", "text") if isinstance(p, dict) and f in p)
        if isinstance(p, dict) and (why := _strings(p, f"penalties[{i}]", named)):
            return why
    return ""


def hand_form_problem(b: Mapping[str, Any]) -> str:
    """What is wrong with the form of hand ``b`` (``""``: nothing), field by field in the notation's order;
    the scoring facts (``makers``, ``alone``, ``tricks``, ``penalties``' clause, side and points, ``void``)
    are left to ``hand_from_body``, which reads them."""
    if b.get("type") != "hand":
        return f"type must be hand, got {as_typed(b.get('type'))}"
    if b.get("notation") != NOTATION:
        return f"notation must be {NOTATION}, got {as_typed(b.get('notation'), 40)}"
    if not (_whole(b.get("deal")) and b["deal"] >= 1):
        return f"deal must be a deal number from 1, got {as_typed(b.get('deal'))}"
    players = b.get("players")
    if not isinstance(players, dict) or sorted(players) != sorted(SEATS) or not all(_whole(p) for p in players.values()):
        return f"players must be an object of the seats N, E, S, W to player numbers, got {as_typed(players, 60)}"
    return _cards(b) or _named(b)
