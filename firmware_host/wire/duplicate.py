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

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.wire.messages import (
    ANSWERS_KEPT,
    FINGERPRINT,
    SEATS,
    BoardResult,
    DuplicateSeating,
    Foul,
    MessageError,
    RoundCall,
    SessionAnswer,
    board_envelope,
    is_seating,
    row_envelope,
    text,
    whole,
)
from firmware_host.wire.reader import MAX_BYTES, read_json
from firmware_host.wire.topics import TOPICS
from laws.duplicate.deal import Board
from laws.duplicate.movement import Move, move_dicts, move_words

__all__ = ["ANSWERS_KEPT", "FINGERPRINT", "MAX_PAYLOAD", "ROUND_TOPIC", "SEATS", "SESSION_PREFIX", "LinkError",
           "SEATING_MOST", "SEATING_REST", "Fitted", "board_topic", "fit_seating", "hand_records_part", "next_part", "parse_players", "parse_result",
           "parse_session_message", "players_body", "players_part", "result_body", "round_message",
           "seating_message", "seating_room", "seating_topic"]

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
    env = board_envelope(_read(payload), table=table)
    body = BoardResult.from_dict(env.body).to_dict()
    return {"type": "result", "table": table, "source": f"{table}:{env.seq}", "t": env.t, **body}


def refused_says(topic: str, payload: bytes) -> dict[str, Any]:
    """What a ``board`` (or ``players``) message that the session refused still says plainly, for its answer: ``source``
    (``"<table>:<seq>"``, the table from the topic) when its envelope's ``seq`` is a whole number, and
    ``board`` when a board message's body's is one (1-9999). A table matches an answer to its result by these (it stops
    sending a result answered ``refused``); a message whose ``seq`` or ``board`` cannot be read has none."""
    name = TOPICS.parse(topic)
    if name is None or name.family != "table" or name.kind not in ("board", "players"):
        return {}
    # a lone surrogate in one field (the refusal's reason) leaves the seq and the board readable
    msg = read_json(payload, max_bytes=MAX_BYTES, surrogates_ok=True).value
    if not isinstance(msg, Mapping):
        return {}

    def whole(v: Any, top: int) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= top

    out: dict[str, Any] = {}
    if whole(msg.get("seq"), 2**62):
        out["source"] = f"{name.table}:{msg['seq']}"
    body = msg.get("body")
    board = body.get("board") if isinstance(body, Mapping) and name.kind == "board" else None
    if whole(board, 9999) and board >= 1:
        out["board"] = board
    return out


def round_message(section: str, called: int, rounds: int, seq: int, t: float, commitment: str = "") -> dict[str, Any]:
    """``<prefix>/session/round``: the round the director called, and the session's commitment to its hand
    records (a table refuses records committed to by another)."""
    return RoundCall(section, called, rounds, seq, t, commitment).to_dict()


# -- what the session tells one table beside its seating (issue 29: players, hand records, the next move) --

def hand_records_part(boards: Sequence[Board], index: Sequence[tuple[int, str]], commitment: str,
                      file: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The seating's ``hand_records``: the records of the boards the table is to play, the session's
    commitment and its index (every board's hash), so the table checks each record alone
    (``laws.duplicate.deal.check_board``; docs/handrecords.md); and ``file``, when the hand records file
    holds boards the session does not play (``laws.duplicate.deal.file_part``), so a table pinned to the
    whole file's commitment checks them against that one."""
    out = {"commitment": commitment, "index": [[n, h] for n, h in index],
           "deals": [{"board": b.number, "deal": b.deal.pbn()} for b in boards]}
    if file:
        out["file"] = {"commitment": file["commitment"], "others": [[n, h] for n, h in file["others"]]}
    return out


#: the largest packet a club's broker takes (``max_packet_size 65536``: docs/mqtt.md, "The broker"); a
#: bigger one is refused and its sender disconnected, so a table's seating must fit in one
BROKER_PACKET = 65536
#: a PUBLISH packet's bytes beside its topic and payload, at most: the fixed header (a byte and a length
#: of up to 4; Mosquitto 2.0 counts only the byte, another broker may count all 5), the topic's length
#: (2), the packet id (2: QoS 1) and MQTT 5's properties length (1: the session sends no property)
PUBLISH_OVERHEAD = 5 + 2 + 2 + 1
#: the largest seating a session can send any table: the packet less the topic of a table whose id is
#: the longest (64 characters, ``topics.TABLE_ID``) and the overhead; 65,438 bytes
SEATING_MOST = BROKER_PACKET - PUBLISH_OVERHEAD - len(TOPICS.seating("t" * 64))
#: room kept in a seating for what grows as the session is played beyond what is measured when it is
#: opened: its 16 answers (``ANSWERS_KEPT``, each ``why`` cut to ``WHY_MOST`` characters and ``WHY_BYTES``
#: bytes: some 760 bytes an answer at its longest) and the players' names (four names of 60 characters
#: beyond the BMP, 12 bytes each as JSON writes them): some 15 KB at their longest
#: (``tests/duplicate/test_seating_size.py``). The rest (the round, its boards and their records, the index
#: of every board, the next moves, and the boards to replay at their most: every board of the table's
#: rounds) is known when the session is opened, and measured then
#: (``session.duplicate_session.largest_seating``)
SEATING_REST = 16384


def seating_room(topic: str) -> int:
    """The bytes a message on ``topic`` may take within the broker's packet (``SEATING_MOST`` for the
    longest table id; more for a shorter one). Read at each call, so a test may lower the packet."""
    return BROKER_PACKET - PUBLISH_OVERHEAD - len(topic.encode())


@dataclass(frozen=True)
class Fitted:
    """A seating as it is to be published: ``text`` (its JSON; ``""`` when it does not fit even with no
    answer), ``size`` (the bytes of the whole message, before any answer was left out) and ``dropped``
    (how many of its oldest answers were left out to fit)."""

    text: str
    size: int
    dropped: int


def fit_seating(topic: str, msg: Mapping[str, Any]) -> Fitted:
    """``msg`` as JSON that fits the broker's packet on ``topic``: whole when it fits (always, for a pairs
    session's seating, by what ``duplicate open`` measures and ``SEATING_REST`` keeps), else with its
    oldest answers left out, one by one, until it does (the table's latest answer is the one it is most
    likely still waiting for; every answer is in the session's journal). A packet over the broker's
    ``max_packet_size`` is refused and the session's client dropped, so every table would lose its
    seating: a reduced seating is the lesser harm, and none at all (``text`` ``""``) when even that is
    too big."""
    room = seating_room(topic)
    text = json.dumps(msg, separators=(",", ":"))
    size = len(text.encode())
    if size <= room:
        return Fitted(text, size, 0)
    answers = list(msg.get("answers") or [])
    for n in range(1, len(answers) + 1):
        text = json.dumps({**msg, "answers": answers[n:]}, separators=(",", ":"))
        if len(text.encode()) <= room:
            return Fitted(text, size, n)
    return Fitted("", size, len(answers))


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
    name = TOPICS.parse(topic)
    if name is None or name.family != "table" or name.kind != "players":
        raise LinkError(f"{topic[:200]!r} is not a players topic ({TOPICS.table('<table>', 'players')})")
    msg = _read(payload)
    # ordered like a board message, with its envelope's rules (docs/mqtt.md, "Member cards at the table")
    env = row_envelope(msg, table=name.table, kind="players")
    b = env.body
    members = b.get("members")
    if not isinstance(members, list) or len(members) != 2 or not all(isinstance(x, str) and 0 < len(x) <= 16
                                                                      for x in members):
        raise LinkError(f"members must be two member numbers, got {str(members)[:60]}")
    if b.get("side") not in ("ns", "ew"):
        raise LinkError(f"side must be ns or ew, got {str(b.get('side'))[:10]!r}")
    # ordered like a board message: its seq is the row of the table's journal note, 1 or more
    return {"table": name.table, "source": f"{name.table}:{env.seq}",
            "table_number": whole(b.get("table_number"), "table_number", 1, 999),
            "round": whole(b.get("round"), "round", 1, 999), "side": b["side"],
            "pair": text(b.get("pair"), "pair", 16), "members": list(members)}


def next_part(moves: Sequence[Move]) -> dict[str, Any]:
    """The seating's ``next``: after the table's round, where each pair and the boards go
    (``laws.duplicate.movement.moves``), as values and as the sentences the table shows."""
    return {"moves": move_dicts(tuple(moves)), "said": move_words(tuple(moves))}


def seating_message(table: str, section: str, seating: Mapping[str, Any], *, called: int, rounds: int,
                    records: Mapping[int, str], page: str, answers: Sequence[Mapping[str, Any]], seq: int,
                    t: float, extra: Mapping[str, Any] | None = None,
                    replay: Sequence[tuple[int, int]] = ()) -> dict[str, Any]:
    """``<prefix>/session/table/<table>``: the table's round, pairs and boards (each with its record's
    fingerprint), whether it must move, its page's address, the latest answers to its results and the
    ``(round, board)`` of its lines taken off to be replayed; ``extra``: the parts above
    (``hand_records``, ``players``, ``next``)."""
    return {**(extra or {}), **DuplicateSeating(
        table=table, section=section, table_number=seating["table"], round=seating["round"], called=called,
        rounds=rounds, ns=seating["ns"], ew=seating["ew"], boards=tuple((b, records[b]) for b in seating["boards"]),
        left=tuple(seating["left"]), sit_out=seating["sit_out"],
        move=seating["round"] > 1 and seating["left"] == seating["boards"], page=page,
        answers=tuple(SessionAnswer(str(a.get("source") or ""), a.get("board"), str(a["status"]), str(a.get("why") or ""),
                                    str(a.get("kind") or "board"))
                      for a in list(answers)[-ANSWERS_KEPT:]), seq=seq, t=t,
        replay=tuple((int(r), int(b)) for r, b in replay)).to_dict()}


def parse_session_message(table: str, topic: str, payload: bytes) -> dict[str, Any]:
    """A message on ``<prefix>/session/...`` as a table reads it (the round, or its own seating: a pairs
    session's, a euchre night's, or an event's table view).

    Raises:
        LinkError: another table's seating, an unknown topic, a payload too large or not a JSON object.
    """
    if len(payload) > MAX_PAYLOAD:
        raise LinkError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    if topic not in (ROUND_TOPIC, seating_topic(table)):
        raise LinkError(f"{topic[:200]!r} is not this table's session topic")
    msg = _read(payload)
    seats = is_seating(msg) or (isinstance(msg, dict) and msg.get("kind") == "euchre_seating")
    if not isinstance(msg, dict) or (msg.get("kind") != "round" and not seats):
        raise LinkError("payload is not a round or seating message")
    if seats and msg.get("table") != table:
        raise LinkError(f"a seating for table {str(msg.get('table'))[:64]!r} on table {table}'s topic")
    return msg
