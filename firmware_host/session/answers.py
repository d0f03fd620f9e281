"""The answers a session gives a table's messages, for every kind of session that seats duplicate tables:
a pairs session's desk (``duplicate_session.SessionDesk``) and an event's (``events/desk.EventDesk``).

A table reads both kinds of seating with one reader (``wire.messages.DuplicateSeating``) and matches an
answer to what it sent by ``kind``, ``source`` and ``board`` (``docs/mqtt.md``, "The seating": ``answers``).
Each desk once built its answers itself, and an event's lacked ``kind``: a refused ``players`` message
read as a ``board`` message nobody could match. One function now says which records are answered and
how (:func:`answer_of`), and one reads them back from a session's journal after a restart
(:func:`journaled_answers`). Pure: records and journal rows in, answers out. :func:`fitted` is the one
way every desk (a pairs session's, an event's, a euchre night's) turns a seating into what it publishes:
whole, or with its oldest answers left out when it would not fit the broker's packet (logged), never a
packet the broker refuses.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

from firmware_host.wire.duplicate import fit_seating
from firmware_host.wire.messages import ANSWER_STATUSES, ANSWERS_KEPT, SessionAnswer, short_why
from firmware_host.wire.topics import TOPICS

__all__ = ["answer_of", "fitted", "journaled_answers"]

log = logging.getLogger(__name__)

#: records made from a table's ``board`` message: a result, one the link could not read, one refused past
#: its login's budget (``journalled.SessionOrdering``)
BOARD_RECORDS = ("result", "message", "quiet")
#: records made from a table's ``players`` message (its member cards): a pairs session's ``players``, an
#: event's ``names``; the director's and a table page's carry no ``source`` and are not answered
NAMING_RECORDS = ("players", "names")


def answer_of(rec: Mapping[str, Any], status: str, why: str) -> tuple[str, dict[str, Any]] | None:
    """``(table, answer)``: what a table's seating says of a record from one of its messages, or None
    for a record no table's message made (the director's), or one not answered.

    ``kind`` says which message it answers, so a table does not take a refused ``players`` message for a
    ``board`` message it could not match. A ``players`` message is answered only when refused (with the
    reason: the link could not read it, it names a pair not seated there, or the naming rules refuse it);
    one taken is answered by the names the table's next seating carries.
    """
    table, kind = rec.get("table"), rec.get("type")
    if status not in ANSWER_STATUSES or not table:
        return None
    name = TOPICS.parse(str(rec.get("topic") or ""))
    if kind in NAMING_RECORDS:
        if status != "refused" or not rec.get("source"):
            return None
        players = True
    elif kind in BOARD_RECORDS and (kind != "result" or rec.get("source")):
        players = name is not None and name.kind == "players"
    else:
        return None
    board = rec.get("board")
    if players or isinstance(board, bool) or not isinstance(board, int):
        board = None
    return str(table), SessionAnswer(str(rec.get("source") or ""), board, status, why,
                                     "players" if players else "board").to_dict()


def journaled_answers(rows: Iterable[Any]) -> dict[str, deque[dict[str, Any]]]:
    """Each table's latest answers as they stood, from a session's journal rows (a restart would
    otherwise forget them, and a table whose result was refused just before it would wait for an
    answer that never comes): a result taken (with its reused number's word), a message refused. A
    repeat is not journaled and is not among them; the table's next resend is answered ``repeat``."""
    out: dict[str, deque[dict[str, Any]]] = {}
    last: dict[str, Any] | None = None
    for row in rows:
        body = row.body
        if row.kind == "event" and body.get("type") == "result":
            said = answer_of(body, "taken", "")
        elif row.kind == "note" and isinstance(body.get("refused"), dict) and isinstance(body["refused"].get("record"), dict):
            said = answer_of(body["refused"]["record"], "refused", str(body["refused"].get("why") or ""))
        elif row.kind == "note" and isinstance(body.get("reused_number"), dict) and last is not None \
                and last["source"] == body["reused_number"].get("source"):
            last["why"] = short_why(str(body["reused_number"].get("why") or ""))   # as SessionAnswer cuts it
            continue
        else:
            continue
        if said is not None:
            out.setdefault(said[0], deque(maxlen=ANSWERS_KEPT)).append(said[1])
            last = said[1]
    return out

def fitted(topic: str, msg: Mapping[str, Any]) -> str:
    """``msg``'s JSON as it may be published on ``topic`` (``wire.duplicate.fit_seating``), saying in the
    log when it is not whole: a seating with its oldest answers left out (WARNING), or none (ERROR) rather
    than a packet the broker refuses, dropping the session's client and every table's link with it. A
    pairs session's seating always fits (``largest_seating``, ``SEATING_REST``); an event's is checked the
    same way."""
    out = fit_seating(topic, msg)
    table = str(msg.get("table") or topic)
    if not out.text:
        log.error("table %s's seating is %d bytes, too big for the broker's packet even without its answers: "
                  "not sent (the broker would drop the session's client); the table keeps its last seating",
                  table, out.size)
    elif out.dropped:
        log.warning("table %s's seating is %d bytes, too big for the broker's packet: sent without its %d oldest "
                    "answers (the session's journal keeps them)", table, out.size, out.dropped)
    return out.text
