"""The messages a club sends the federation, as plain JSON values (``docs/federation.md`` gives each).

A message is ``{"club", "number", "op", ...}``: ``op`` is ``line`` (a traveller line as it now stands:
a table's confirmed result, or the director's correction or adjusted score of it) or ``remove`` (the
director took the line off). A line is ``{"board", "ns", "ew", "group", "result"}`` with the pairs as
``[number, "NS"|"EW"|null]`` and the result one of ``{"played": {"contract": "4SX"|null, "declarer":
"N"|null, "tricks": 10, "lead": "KC"|null}}``, ``{"assigned": {"ns": 420, "ew": null}}`` or
``{"artificial": {"ns": "60", "ew": "40"}}`` (each side's percentage as text, read as an exact number:
``"60"``; 60.5 is written ``"121/2"``, and ``"60.5"`` reads the same).
The digest of a message (what tells a repeat from a conflict) is the SHA-256 of its canonical JSON.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from laws.cards import Card, Seat
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Artificial, Assigned, Line, Pair, Played


class MessageError(ValueError):
    """A message that is not in the format; the message names the field."""


def _pair(p: Pair) -> list[Any]:
    return [p.number, None if p.direction is None else p.direction.value]


def line_to_dict(line: Line) -> dict[str, Any]:
    """A traveller line as the message's ``line`` value."""
    r = line.result
    result: dict[str, Any]
    if isinstance(r, Played):
        result = {"played": {"contract": None if r.contract is None else r.contract.code,
                             "declarer": None if r.declarer is None else r.declarer.value, "tricks": r.tricks,
                             "lead": None if r.lead is None else f"{r.lead.rank}{r.lead.suit}"}}
    elif isinstance(r, Assigned):
        result = {"assigned": {"ns": r.ns, "ew": r.ew}}
    else:
        result = {"artificial": {"ns": str(Fraction(r.ns)), "ew": str(Fraction(r.ew))}}
    return {"board": line.board, "ns": _pair(line.ns), "ew": _pair(line.ew), "group": line.group, "result": result}


def _read_pair(value: Any, where: str) -> Pair:
    if not isinstance(value, list) or len(value) != 2 or value[1] not in (None, "NS", "EW"):
        raise MessageError(f"{where}: a pair is [number, \"NS\"|\"EW\"|null], got {value!r}")
    try:
        return Pair(value[0], value[1])
    except ValueError as exc:
        raise MessageError(f"{where}: {exc}") from None


def line_from_dict(value: Any) -> Line:
    """A line from its message form; :class:`MessageError` naming what is wrong."""
    if not isinstance(value, Mapping):
        raise MessageError(f"a line is an object, got {type(value).__name__}")
    board = value.get("board")
    if isinstance(board, bool) or not isinstance(board, int) or not 1 <= board <= 9999:
        raise MessageError(f"line: board is a whole number 1-9999, got {board!r}")
    where = f"board {board}"
    group = value.get("group", "A")
    if not isinstance(group, str) or not 1 <= len(group) <= 64:
        raise MessageError(f"{where}: group is a short name, got {group!r}")
    result = value.get("result")
    if not isinstance(result, Mapping) or len(result) != 1:
        raise MessageError(f"{where}: result is one of played, assigned, artificial")
    kind, body = next(iter(result.items()))
    try:
        if kind == "played" and isinstance(body, Mapping):
            contract = None if body.get("contract") in (None, "Pass") else parse_contract(str(body["contract"]))
            declarer = None if body.get("declarer") is None else Seat(str(body["declarer"]))
            tricks = body.get("tricks")
            if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
                raise MessageError(f"{where}: tricks is 0-13, got {tricks!r}")
            lead = body.get("lead")
            card = None if lead is None else Card(str(lead)[0], str(lead)[1])
            res: Played | Assigned | Artificial = Played(contract, declarer, tricks, card)
        elif kind == "assigned" and isinstance(body, Mapping):
            res = Assigned(int(body["ns"]), None if body.get("ew") is None else int(body["ew"]))
        elif kind == "artificial" and isinstance(body, Mapping):
            res = Artificial(Fraction(str(body["ns"])), Fraction(str(body["ew"])))
        else:
            raise MessageError(f"{where}: result is one of played, assigned, artificial, got {kind!r}")
    except MessageError:
        raise
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise MessageError(f"{where}: {kind}: {exc}") from None
    return Line(board, _read_pair(value.get("ns"), where), _read_pair(value.get("ew"), where), res, group)


def digest(message: Mapping[str, Any]) -> str:
    """The SHA-256 of the message's canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(message, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
