"""The club link for duplicate, as data: the result a table publishes when a board's result is
confirmed, and what the session tells the tables (``docs/mqtt.md``, "Duplicate"). The topics, the
reader and the message types are the wire's (``firmware_host.wire``); this module puts them together
for the two ends.

* From a table: ``<prefix>/<table>/board`` (QoS 1, ordered like ``event``: the envelope's ``seq`` is the
  table's journal row, ``prev`` the one before, sent from the table's outbox, at least once).
  :func:`result_body` builds the body (``wire.messages.BoardResult``); :func:`parse_result` checks a
  received message and turns it into the session's ``result`` record, or raises :class:`LinkError`
  naming the field.
* To the tables: ``<prefix>/session/round`` (retained: the round the director called) and
  ``<prefix>/session/table/<table>`` (retained, one per table: its round, pairs, boards and their
  records, the latest answers to its results). :func:`round_message` and :func:`seating_message` build
  them; :func:`parse_session_message` is what a table reads them with.

Nothing here touches the network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from firmware_host.wire.messages import (
    ANSWERS_KEPT,
    FINGERPRINT,
    SEATS,
    BoardResult,
    Envelope,
    Foul,
    MessageError,
    RoundCall,
    Seating,
    SessionAnswer,
)
from firmware_host.wire.reader import MAX_BYTES, read_json
from firmware_host.wire.topics import TOPICS

__all__ = ["ANSWERS_KEPT", "FINGERPRINT", "MAX_PAYLOAD", "ROUND_TOPIC", "SEATS", "SESSION_PREFIX", "LinkError",
           "board_topic", "parse_result", "parse_session_message", "result_body", "round_message",
           "seating_message", "seating_topic"]

MAX_PAYLOAD = MAX_BYTES
SESSION_PREFIX = TOPICS.session_root
ROUND_TOPIC = TOPICS.round
board_topic = TOPICS.board
seating_topic = TOPICS.seating
LinkError = MessageError  # a message that does not follow docs/mqtt.md; the text names the field


def result_body(*, section: str, table_number: int, round: int, board: int, ns: str, ew: str,
                contract: str, declarer: str | None, tricks: int, lead: str | None, record: str,
                verified: bool, foul: Mapping[str, Any] | None = None, play: Sequence[str] = (),
                auction: Sequence[str] = (), confirmed: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The body of a ``board`` message (the table's side; see docs/mqtt.md for each field)."""
    return BoardResult(
        section=section, table_number=table_number, round=round, board=board, ns=ns, ew=ew, contract=contract,
        declarer=declarer, lead=lead, tricks=tricks, record=record, verified=verified,
        foul=Foul(str(foul["card"]), str(foul["played_by"]), str(foul["record_seat"]), int(foul["trick"]),
                  tuple(foul["seats"])) if foul else None,
        auction=tuple(auction), play=tuple(play), confirmed=dict(confirmed or {})).to_dict()


def _read(payload: bytes) -> Any:
    read = read_json(payload, max_bytes=MAX_PAYLOAD)  # the one checked reader: size, UTF-8, depth, JSON
    if read.refusal is not None:
        r = read.refusal
        raise LinkError(f"payload is not JSON ({r.detail if r.kind == 'json' else r.why})"
                        if r.kind in ("json", "utf8") else
                        r.why if r.kind == "size" else f"payload refused: {r.why}")
    return read.value


def parse_result(topic: str, payload: bytes) -> dict[str, Any]:
    """A ``board`` message as the session's ``result`` record.

    The record is the body's fields plus ``type`` ``"result"``, ``table`` (the club table's id, from the
    topic), ``source`` (``"<table>:<seq>"``: the same message delivered twice has the same source) and
    ``t`` (the table's time).

    Raises:
        LinkError: the topic is not a board topic, the payload is too large or not JSON, names another
            table, or a field is missing or malformed (named).
    """
    name = TOPICS.parse(topic)
    if name is None or name.family != "table" or name.kind != "board":
        raise LinkError(f"{topic[:200]!r} is not a board topic ({TOPICS.board('<table>')})")
    table = name.table
    env = Envelope.from_dict(_read(payload), table=table, kind="board")
    body = BoardResult.from_dict(env.body).to_dict()
    return {"type": "result", "table": table, "source": f"{table}:{env.seq}", "t": env.t, **body}


def round_message(section: str, called: int, rounds: int, seq: int, t: float) -> dict[str, Any]:
    """``<prefix>/session/round``: the round the director called."""
    return RoundCall(section, called, rounds, seq, t).to_dict()


def seating_message(table: str, section: str, seating: Mapping[str, Any], *, called: int, rounds: int,
                    records: Mapping[int, str], page: str, answers: Sequence[Mapping[str, Any]], seq: int,
                    t: float) -> dict[str, Any]:
    """``<prefix>/session/table/<table>``: the table's round, pairs and boards (each with its record's
    fingerprint), whether it must move, its page's address and the latest answers to its results."""
    return Seating(
        table=table, section=section, table_number=seating["table"], round=seating["round"], called=called,
        rounds=rounds, ns=seating["ns"], ew=seating["ew"], boards=tuple((b, records[b]) for b in seating["boards"]),
        left=tuple(seating["left"]), sit_out=seating["sit_out"],
        move=seating["round"] > 1 and seating["left"] == seating["boards"], page=page,
        answers=tuple(SessionAnswer(str(a.get("source") or ""), a.get("board"), str(a["status"]), str(a.get("why") or ""))
                      for a in list(answers)[-ANSWERS_KEPT:]), seq=seq, t=t).to_dict()


def parse_session_message(table: str, topic: str, payload: bytes) -> dict[str, Any]:
    """A message on ``<prefix>/session/...`` as a table reads it (the round, or its own seating).

    Raises:
        LinkError: another table's seating, an unknown topic, a payload too large or not a JSON object.
    """
    if len(payload) > MAX_PAYLOAD:
        raise LinkError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    if topic not in (ROUND_TOPIC, seating_topic(table)):
        raise LinkError(f"{topic[:200]!r} is not this table's session topic")
    msg = _read(payload)
    if not isinstance(msg, dict) or msg.get("kind") not in ("round", "seating"):
        raise LinkError("payload is not a round or seating message")
    if msg["kind"] == "seating" and msg.get("table") != table:
        raise LinkError(f"a seating for table {str(msg.get('table'))[:64]!r} on table {table}'s topic")
    return msg
