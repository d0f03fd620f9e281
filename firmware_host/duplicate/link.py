"""The club link for duplicate, as data: the result a table publishes when a board's result is
confirmed, and what the session tells the tables (``docs/mqtt.md``, "Duplicate").

* From a table: ``cardtable/<table>/board`` (QoS 1, ordered like ``event``: the envelope's ``seq`` is the
  table's journal row, ``prev`` the one before, sent from the table's outbox, at least once).
  :func:`result_body` builds the body; :func:`parse_result` checks a received message and turns it into
  the session's ``result`` record, or raises :class:`LinkError` naming the field.
* To the tables: ``cardtable/session/round`` (retained: the round the director called) and
  ``cardtable/session/table/<table>`` (retained, one per table: its round, pairs, boards and their
  records, the latest answers to its results). :func:`round_message` and :func:`seating_message` build
  them; :func:`parse_session_message` is what a table reads them with.

Nothing here touches the network.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from firmware_host.records.lines import LineRefused, loads
from laws.cards import Card
from laws.duplicate.deal import Board
from laws.duplicate.movement import Move, move_dicts, move_words

PREFIX = "cardtable"
SESSION_PREFIX = "cardtable/session/"
ROUND_TOPIC = "cardtable/session/round"
MAX_PAYLOAD = 65536
BOARD_TOPIC = re.compile(r"^cardtable/([A-Za-z0-9_-]{1,64})/board$")
PLAYERS_TOPIC = re.compile(r"^cardtable/([A-Za-z0-9_-]{1,64})/players$")
SEATS = ("N", "E", "S", "W")
FINGERPRINT = re.compile(r"^[0-9a-f]{64}$")
ANSWERS_KEPT = 16


class LinkError(ValueError):
    """A message that does not follow docs/mqtt.md; the text names the field."""


def board_topic(table: str) -> str:
    return f"{PREFIX}/{table}/board"


def seating_topic(table: str) -> str:
    return f"{SESSION_PREFIX}table/{table}"


def result_body(*, section: str, table_number: int, round: int, board: int, ns: str, ew: str,
                contract: str, declarer: str | None, tricks: int, lead: str | None, record: str,
                verified: bool, foul: Mapping[str, Any] | None = None, play: Sequence[str] = (),
                auction: Sequence[str] = (), confirmed: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The body of a ``board`` message (the table's side; see docs/mqtt.md for each field)."""
    return {"section": section, "table_number": table_number, "round": round, "board": board, "ns": ns, "ew": ew,
            "contract": contract, "declarer": declarer, "lead": lead, "tricks": tricks, "auction": list(auction),
            "play": list(play), "record": record, "verified": verified, "foul": dict(foul) if foul else None,
            "confirmed": dict(confirmed or {})}


def _whole(v: Any, name: str, low: int, high: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise LinkError(f"{name} must be a whole number {low} to {high}, got {v!r}")
    return v


def _text(v: Any, name: str, limit: int = 64) -> str:
    if not isinstance(v, str) or not v or len(v) > limit:
        raise LinkError(f"{name} must be text of 1 to {limit} characters, got {v!r}")
    return v


def _card(v: Any, name: str) -> str:
    try:
        return Card.parse(v).code
    except ValueError:
        raise LinkError(f"{name}: {v!r} is not a card (rank then suit, e.g. 'AS')") from None


def _seat(v: Any, name: str) -> str:
    if v not in SEATS:
        raise LinkError(f"{name} must be N, E, S or W, got {v!r}")
    return str(v)


def _foul(v: Any) -> dict[str, Any] | None:
    if v is None:
        return None
    if not isinstance(v, dict):
        raise LinkError(f"foul must be null or an object, got {v!r}")
    seats = v.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= 4:
        raise LinkError(f"foul.seats must list the seats whose hands differ from the record, got {seats!r}")
    out = {"card": _card(v.get("card"), "foul.card"), "played_by": _seat(v.get("played_by"), "foul.played_by"),
           "record_seat": _seat(v.get("record_seat"), "foul.record_seat"),
           "trick": _whole(v.get("trick"), "foul.trick", 1, 13), "seats": [_seat(s, "foul.seats") for s in seats]}
    if out["played_by"] == out["record_seat"]:
        raise LinkError("foul: the seat that played the card is the seat the record gives it to")
    return out


def parse_result(topic: str, payload: bytes) -> dict[str, Any]:
    """A ``board`` message as the session's ``result`` record.

    The record is the body's fields plus ``type`` ``"result"``, ``table`` (the club table's id, from the
    topic), ``source`` (``"<table>:<seq>"``: the same message delivered twice has the same source) and
    ``t`` (the table's time).

    Raises:
        LinkError: the topic is not a board topic, the payload is too large or not JSON, names another
            table, or a field is missing or malformed (named).
    """
    m = BOARD_TOPIC.match(topic)
    if not m:
        raise LinkError(f"{topic[:200]!r} is not a board topic (cardtable/<table>/board)")
    table = m.group(1)
    if len(payload) > MAX_PAYLOAD:
        raise LinkError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    try:
        msg = loads(payload)  # checked where it enters: UTF-8, JSON, nesting, no lone surrogate
    except LineRefused as exc:
        raise LinkError(f"payload is not JSON ({exc.detail if exc.kind == 'json' else exc})"
                        if exc.kind in ("json", "utf8") else f"payload refused: {exc}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("body"), dict):
        raise LinkError("payload is not an envelope with a body object")
    if msg.get("table") != table or msg.get("kind") != "board":
        raise LinkError(f"the envelope names table {str(msg.get('table'))[:64]!r} and kind {str(msg.get('kind'))[:20]!r} "
                        f"on table {table}'s board topic")
    seq = _whole(msg.get("seq"), "seq", 0, 2**62)
    t = msg.get("t")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
        raise LinkError(f"t must be a finite number, got {t!r}")
    b = msg["body"]
    contract = _text(b.get("contract"), "contract", 8)
    rec: dict[str, Any] = {
        "type": "result", "table": table, "source": f"{table}:{seq}", "t": float(t),
        "section": _text(b.get("section"), "section", 8),
        "table_number": _whole(b.get("table_number"), "table_number", 1, 999),
        "round": _whole(b.get("round"), "round", 1, 999), "board": _whole(b.get("board"), "board", 1, 9999),
        "ns": _text(b.get("ns"), "ns", 16), "ew": _text(b.get("ew"), "ew", 16), "contract": contract,
        "declarer": None if b.get("declarer") is None else _seat(b.get("declarer"), "declarer"),
        "lead": None if b.get("lead") is None else _card(b.get("lead"), "lead"),
        "tricks": _whole(b.get("tricks"), "tricks", 0, 13),
        "record": str(b.get("record") or ""), "verified": b.get("verified"), "foul": _foul(b.get("foul")),
    }
    if rec["record"] and not FINGERPRINT.match(rec["record"]):
        raise LinkError(f"record must be the board's fingerprint (64 lower-case hex digits), got {rec['record'][:80]!r}")
    if not isinstance(rec["verified"], bool):
        raise LinkError(f"verified must be true or false, got {rec['verified']!r}")
    play, auction = b.get("play", []), b.get("auction", [])
    if not isinstance(play, list) or len(play) > 52:
        raise LinkError("play must be a list of at most 52 cards in the order played")
    if not isinstance(auction, list) or len(auction) > 400:
        raise LinkError("auction must be a list of calls from the dealer")
    rec["play"] = [_card(c, f"play[{i}]") for i, c in enumerate(play)]
    rec["auction"] = [_text(c, f"auction[{i}]", 8) for i, c in enumerate(auction)]
    if rec["play"] and rec["lead"] and rec["play"][0] != rec["lead"]:
        raise LinkError(f"the lead {rec['lead']} is not the first card of the play ({rec['play'][0]})")
    confirmed = b.get("confirmed") or {}
    if not isinstance(confirmed, dict):
        raise LinkError("confirmed must be an object {ns: seat, ew: seat}")
    rec["confirmed"] = {k: _seat(v, f"confirmed.{k}") for k, v in confirmed.items() if k in ("ns", "ew")}
    return rec


def round_message(section: str, called: int, rounds: int, seq: int, t: float, commitment: str = "") -> dict[str, Any]:
    """``cardtable/session/round``: the round the director called, and the session's commitment to its hand
    records (a table refuses records committed to by another)."""
    return {"kind": "round", "section": section, "round": called, "rounds": rounds, "commitment": commitment,
            "seq": seq, "t": t}


# -- what the session tells one table beside its seating (issue 29: players, hand records, the next move) --

def hand_records_part(boards: Sequence[Board], index: Sequence[tuple[int, str]], commitment: str) -> dict[str, Any]:
    """The seating's ``hand_records``: the records of the boards the table is to play, the session's
    commitment and its index (every board's hash), so the table checks each record alone
    (``laws.duplicate.deal.check_board``; docs/handrecords.md)."""
    return {"commitment": commitment, "index": [[n, h] for n, h in index],
            "deals": [{"board": b.number, "deal": b.deal.pbn()} for b in boards]}


def players_part(players: Mapping[str, Sequence[Mapping[str, str]]]) -> dict[str, list[dict[str, str]]]:
    """The seating's ``players``: the names (and member numbers) of the players seated at the table only,
    ``{"ns": [...], "ew": [...]}``."""
    return {side: [{"name": p["name"], "member": p.get("member", "")} for p in named]
            for side, named in players.items()}


def players_body(*, section: str, table_number: int, round: int, side: str, pair: str,
                 members: Sequence[str]) -> dict[str, Any]:
    """The body of a table's ``players`` message: the member numbers its camera read from the member cards
    laid at the two seats of ``side`` (``"ns"``/``"ew"``), North's (East's) first."""
    return {"section": section, "table_number": table_number, "round": round, "side": side, "pair": pair,
            "members": list(members)}


def parse_players(topic: str, payload: bytes) -> dict[str, Any]:
    """A table's ``players`` message as ``{table, source, table_number, round, side, pair, members}``.

    Raises:
        LinkError: not a players topic, too large, not JSON, another table's envelope, a field malformed.
    """
    m = PLAYERS_TOPIC.match(topic)
    if not m:
        raise LinkError(f"{topic[:200]!r} is not a players topic (cardtable/<table>/players)")
    if len(payload) > MAX_PAYLOAD:
        raise LinkError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    try:
        msg = loads(payload)
    except LineRefused as exc:
        raise LinkError(f"payload refused: {exc}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("body"), dict) or msg.get("table") != m.group(1) \
            or msg.get("kind") != "players":
        raise LinkError(f"payload is not table {m.group(1)}'s players envelope")
    b = msg["body"]
    members = b.get("members")
    if not isinstance(members, list) or len(members) != 2 or not all(isinstance(x, str) and 0 < len(x) <= 16
                                                                      for x in members):
        raise LinkError(f"members must be two member numbers, got {str(members)[:60]}")
    if b.get("side") not in ("ns", "ew"):
        raise LinkError(f"side must be ns or ew, got {str(b.get('side'))[:10]!r}")
    return {"table": m.group(1), "source": f"{m.group(1)}:{_whole(msg.get('seq'), 'seq', 0, 2**62)}",
            "table_number": _whole(b.get("table_number"), "table_number", 1, 999),
            "round": _whole(b.get("round"), "round", 1, 999), "side": b["side"],
            "pair": _text(b.get("pair"), "pair", 16), "members": list(members)}


def next_part(moves: Sequence[Move]) -> dict[str, Any]:
    """The seating's ``next``: after the table's round, where each pair and the boards go
    (``laws.duplicate.movement.moves``), as values and as the sentences the table shows."""
    return {"moves": move_dicts(tuple(moves)), "said": move_words(tuple(moves))}


def seating_message(table: str, section: str, seating: Mapping[str, Any], *, called: int, rounds: int,
                    records: Mapping[int, str], page: str, answers: Sequence[Mapping[str, Any]], seq: int,
                    t: float, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``cardtable/session/table/<table>``: the table's round, pairs and boards (each with its record's
    fingerprint), whether it must move, its page's address and the latest answers to its results;
    ``extra``: the parts above (``hand_records``, ``players``, ``next``)."""
    return {**(extra or {}), "kind": "seating", "table": table, "section": section, "table_number": seating["table"],
            "round": seating["round"], "called": called, "rounds": rounds, "ns": seating["ns"], "ew": seating["ew"],
            "boards": [{"board": b, "record": records[b]} for b in seating["boards"]], "left": seating["left"],
            "sit_out": seating["sit_out"], "move": seating["round"] > 1 and seating["left"] == seating["boards"],
            "page": page, "answers": list(answers)[-ANSWERS_KEPT:],
            "seq": seq, "t": t}


def parse_session_message(table: str, topic: str, payload: bytes) -> dict[str, Any]:
    """A message on ``cardtable/session/...`` as a table reads it (the round, or its own seating).

    Raises:
        LinkError: another table's seating, an unknown topic, a payload too large or not a JSON object.
    """
    if len(payload) > MAX_PAYLOAD:
        raise LinkError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    if topic not in (ROUND_TOPIC, seating_topic(table)):
        raise LinkError(f"{topic[:200]!r} is not this table's session topic")
    try:
        msg = loads(payload)  # checked where it enters: UTF-8, JSON, nesting, no lone surrogate
    except LineRefused as exc:
        raise LinkError(f"payload is not JSON ({exc.detail if exc.kind == 'json' else exc})"
                        if exc.kind in ("json", "utf8") else f"payload refused: {exc}") from None
    if not isinstance(msg, dict) or msg.get("kind") not in ("round", "seating"):
        raise LinkError("payload is not a round or seating message")
    if msg["kind"] == "seating" and msg.get("table") != table:
        raise LinkError(f"a seating for table {str(msg.get('table'))[:64]!r} on table {table}'s topic")
    return msg
