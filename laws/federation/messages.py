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
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from laws.cards import Card, Seat
from laws.scoring.bridge import parse_contract
from laws.scoring.duplicate import passed_out_lead
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
            said = body.get("contract")
            if isinstance(said, str) and said != "Pass" and PASS_WORDS.fullmatch(said.strip()):
                raise MessageError(f"{where}: played: contract {said!r}: {PASS_OUT}")
            contract = None if said in (None, "Pass") else parse_contract(str(said))
            declarer = None if body.get("declarer") is None else Seat(str(body["declarer"]))
            tricks = body.get("tricks")
            if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
                raise MessageError(f"{where}: tricks is 0-13, got {tricks!r}")
            lead = body.get("lead")
            if lead is not None and len(str(lead)) < 2:       # longer ones: message_problem (old journals)
                raise MessageError(f"{where}: played: {LEAD_FORM}, got {shown(lead)}")
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


LEAD_FORM = 'a lead is a card, its rank then its suit ("KC", "TD")'
PASS_OUT = 'a passed-out board is "contract": null (or "Pass"), "declarer": null, "tricks": 0'
PASS_WORDS = re.compile(r"p|pass|passed|passed[ -]?out|pass[ -]?out|all[ -]?pass|ap", re.IGNORECASE)


KEYS = {"entry": ("op", "club", "number", "pairs", "fields", "due", "boards"),
        "line": ("op", "club", "number", "line"), "remove": ("op", "club", "number", "line")}
LINE_KEYS = ("board", "ns", "ew", "group", "result")
RESULT_KEYS = {"played": ("contract", "declarer", "tricks", "lead"), "assigned": ("ns", "ew"),
               "artificial": ("ns", "ew")}
MAX_PAIR = 9999         # a club's pair numbers: the field numbers a club's pairs 10,000 apart
MAX_NAME = 64           # a field's name, a pair's key in ``fields``
MAX_DUE = 999           # an entry's results due per board (and the organiser's, ``federation open --due``)


def shown(value: Any) -> str:
    """A value as the message had it, for a refusal's words: JSON for plain values (``"14"``, ``14.0``,
    ``null``), cut to 60 characters; anything else (a whole number too long to read is kept as its
    length by the checked reader, and says so) as its own words."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _unknown(value: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> str:
    extra = [k for k in value if k not in allowed]
    if not extra:
        return ""
    return f"{where}: unknown key {shown(extra[0])} (the format has {', '.join(allowed)})"


def _whole(value: Any, least: int, most: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and least <= value <= most


def _line_problem(value: Any) -> str:
    """What in a message's ``line`` is outside the format (keys and types; ``line_from_dict`` reads the
    values)."""
    if not isinstance(value, Mapping):
        return f"a line is an object, got {shown(value)}"
    problem = _unknown(value, LINE_KEYS, "line")
    result = value.get("result")
    if problem or not isinstance(result, Mapping) or len(result) != 1:
        return problem
    kind, body = next(iter(result.items()))
    if kind not in RESULT_KEYS or not isinstance(body, Mapping):
        return ""                               # line_from_dict names it
    problem = _unknown(body, RESULT_KEYS[kind], f"line: {kind}")
    if problem:
        return problem
    if kind == "played":
        for key in ("contract", "declarer", "lead"):
            if body.get(key) is not None and not isinstance(body[key], str):
                return f"line: played: {key} is text or null, got {shown(body[key])}"
    elif kind == "assigned":
        for key in ("ns", "ew"):
            if (key == "ns" or body.get(key) is not None) and not _whole(body.get(key), -99999, 99999):
                return f"line: assigned: {key} is a score (a whole number){' or null' if key == 'ew' else ''}, " \
                       f"got {shown(body.get(key))}"
    else:
        for key in ("ns", "ew"):
            if not isinstance(body.get(key), str) and not _whole(body.get(key), 0, 100):
                return f"line: artificial: {key} is a percentage as text (\"60\", \"121/2\"), got {shown(body.get(key))}"
    return ""


def _entry_problem(message: Mapping[str, Any]) -> str:
    pairs = message.get("pairs")
    if not isinstance(pairs, list) or not pairs or len(pairs) > 2 * MAX_PAIR:
        return f"an entry's pairs are a list of [number, \"NS\"|\"EW\"|null], got {shown(pairs)}"
    for p in pairs:
        if not isinstance(p, list) or len(p) != 2 or not _whole(p[0], 1, MAX_PAIR) or p[1] not in (None, "NS", "EW"):
            return f"an entry's pair is [number 1-{MAX_PAIR}, \"NS\"|\"EW\"|null], got {shown(p)}"
    due = message.get("due")
    if not _whole(due, 1, MAX_DUE):
        return f"an entry's due (results due per board) is a whole number from 1 to {MAX_DUE}, got {shown(due)}"
    fields = message.get("fields", {})
    if not isinstance(fields, Mapping) or len(fields) > len(pairs):
        return f"an entry's fields are an object, a pair's key to its field's name, got {shown(fields)}"
    for k, v in fields.items():
        if len(k) > MAX_NAME or not isinstance(v, str) or not 1 <= len(v) <= MAX_NAME:
            return f"an entry's fields: {shown(k)} is to a field's name (1 to {MAX_NAME} characters), got {shown(v)}"
    boards = message.get("boards", [])
    if not isinstance(boards, list) or len(boards) > 9999 or not all(_whole(b, 1, 9999) for b in boards):
        return f"an entry's boards are a list of board numbers 1-9999, got {shown(boards)}"
    return ""


def field_key(pair: Pair) -> str:
    """A pair's key in an entry's ``fields``: its number then its direction (``"1NS"``, ``"5"``)."""
    return f"{pair.number}{pair.direction.value if pair.direction else ''}"


def entry_fields(message: Mapping[str, Any]) -> dict[Pair, str]:
    """Each pair of an entry (its form checked) with the field it is ranked in: the one the entry's
    ``fields`` names, the field the club's session ranks it in (a Mitchell with an arrow switch ranks
    every pair in ``"one field"``, and a federation that split them by direction ranked them apart from
    the pairs they were compared with); for a pair ``fields`` leaves out, its direction, or ``"one field"``
    without one. One function, so the service and the audit's rescore rank alike."""
    named = message.get("fields") or {}
    out: dict[Pair, str] = {}
    for number, direction in message["pairs"]:
        pair = Pair(int(number), direction)
        out[pair] = str(named.get(field_key(pair)) or direction or "one field")
    return out


def message_problem(club: str, message: Mapping[str, Any]) -> str:
    """What makes a club's message one the format does not have (``""`` when none), before anything of
    it is judged or kept: its ``number`` a whole number from 1, its ``club`` the club of the topic it
    came on, its ``op`` one of entry, line, remove, no key the format does not have (at the top, in
    ``line``, in its result), and each value of its type. A whole number too long for the checked reader
    (``firmware_host.wire.reader``, which keeps it as its length) is of no type here, so it is named by
    its field too. The values themselves (a contract, a card, a board of the event) are checked after,
    but for a ``line`` of a passed-out board with a lead, refused here by the session's own rule
    (``laws.scoring.duplicate.passed_out_lead``): the federation took what a club's session refused."""
    number = message.get("number")
    if "number" not in message:
        return "a message number is a whole number from 1, and the message has none"
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        return f"a message number is a whole number from 1, got {shown(number)}"
    if message.get("club") != club:
        return f"\"club\" is the club of the message's topic, {club}, got {shown(message.get('club'))}"
    op = message.get("op")
    if not isinstance(op, str) or op not in KEYS:
        return f"op is entry, line or remove, got {shown(op)}"
    problem = _unknown(message, KEYS[op], f"an {op}" if op == "entry" else f"a {op}")
    if problem:
        return problem
    if op == "entry":
        return _entry_problem(message)
    if "line" not in message:
        return f"a {op} has its line"
    problem = _line_problem(message["line"])
    if problem:
        return problem
    try:
        line = line_from_dict(message["line"])
    except MessageError as exc:
        return str(exc)
    if op == "line" and isinstance(line.result, Played):
        # the session's rule for a result's lead (a remove names the line as it was taken, and is not
        # refused for it: a line taken before the rule can still be taken off)
        problem = passed_out_lead(line.result.contract, line.result.lead)
        if problem:
            return f"board {line.board}: played: {problem}"
        # a card is two characters; the reader takes the first two, so "KCX" was taken as KC, the field
        # and the files holding a lead the club never sent (a remove of such a line is still taken)
        lead = message["line"]["result"]["played"].get("lead")
        if lead is not None and len(lead) != 2:
            return f"board {line.board}: played: {LEAD_FORM}, got {shown(lead)}"
    return ""


def digest(message: Mapping[str, Any]) -> str:
    """The SHA-256 of the message's canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(message, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
