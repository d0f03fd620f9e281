"""What a restarted table still owes the club, read from its journal (``MqttPublisher`` at start).

A table's publisher holds back the cards of the deal in play and releases them in that deal's ``deal`` message
when its play ends (``secrecy.SecrecyFilter``, docs/mqtt.md "Hands stay secret"). What it held lived only in
memory, so a table restarted in the middle of a deal released, at the deal's end, only the cards sent after
the restart; and a table stopped between a commit and its outbox queued the rows after the last message
at restart under deal numbers guessed from the rulings before them (0 when there were none, and deal 0's
cards are not held back). This reads the journal once more at restart:

- each row's deal, as the controller gave it live: the deal the newest ``deal_start`` the engine took
  before it started (ignored and set-aside events are not the engine's), counted back from the number of
  deals the engine has started;
- the events of the deal still in play that were sent with their cards held back (to release at its end);
- the deals whose play ended after the last message queued with no ``deal`` message yet (``released``:
  the newest deal one was queued for), whose held events are released at once.

Pure over the journal's rows; the publisher queues what it says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from firmware_host.records.journal import Journal, Row
from firmware_host.tablelink.secrecy import SecrecyFilter


@dataclass
class Owed:
    """What the publisher queues at restart.

    Attributes:
        rows: the journal's event and ruling rows after the last message queued that were published live
            (not an ignored or set-aside event), each with its deal, in order.
        held: the deal in play's events up to the last message queued whose cards were held back.
        ended: each deal whose play has ended and whose ``deal`` message was never queued, with its events up
            to the last message queued whose cards were held back, oldest deal first.
    """

    rows: list[tuple[Row, int]] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)
    ended: list[tuple[int, list[dict[str, Any]]]] = field(default_factory=list)


def _skipped(journal: Journal) -> tuple[set[int], dict[int, Any]]:
    """The seqs of events set aside, and each ignored event's note (by the seq of the row before it)."""
    aside: set[int] = set()
    ignored: dict[int, Any] = {}
    for note in journal.rows_with(("ignored", "set_aside")):
        if isinstance(note.body.get("set_aside"), int):
            aside.add(note.body["set_aside"])
        if isinstance(note.body.get("ignored"), dict):
            ignored[note.seq - 1] = note.body["ignored"]   # the controller notes it right after the event
    return aside, ignored


def deals_started(journal: Journal) -> int:
    """How many deals the engine started: the ``deal_start`` events it took (for a publisher not told)."""
    aside, ignored = _skipped(journal)
    return sum(1 for r in journal.events_of_type("deal_start")
               if r.seq not in aside and ignored.get(r.seq) != r.body)


def owed(journal: Journal, since: int, started: int, in_play: int, released: int | None) -> Owed:
    """What a table whose last queued message is journal row ``since`` owes the club, the engine having
    started ``started`` deals, ``in_play`` the one whose play has not ended (0: none), ``released`` the newest
    deal whose ``deal`` message was queued (None: not known, an outbox of before it was kept)."""
    aside, ignored = _skipped(journal)

    def taken(r: Row) -> bool:
        return r.seq not in aside and ignored.get(r.seq) != r.body

    starts: list[int] = []    # the deal starts from the one in play at ``since`` on, newest first
    for r in journal.events_of_type("deal_start"):
        if taken(r):
            starts.append(r.seq)
            if r.seq <= since:
                break
    starts.reverse()
    first = started - len(starts) + 1        # the number of the deal starting at starts[0]
    at_since = first if starts and starts[0] <= since else first - 1
    if released is None:   # not known: the deal in play at ``since`` may have ended before it or after; a
        released = at_since - 1   # second ``deal`` message for it is better than none
    out = Owed()
    held: dict[int, list[dict[str, Any]]] = {}
    deal = first - 1
    nxt = 0
    for r in journal.rows(min(starts[0] - 1, since) if starts else since):
        while nxt < len(starts) and r.seq >= starts[nxt]:
            deal, nxt = first + nxt, nxt + 1
        if r.kind == "ruling":
            if r.seq > since:
                out.rows.append((r, r.body["deal"] if isinstance(r.body.get("deal"), int) else deal))
            continue
        if r.kind != "event" or not taken(r):
            continue
        if r.seq > since:
            out.rows.append((r, deal))
        elif deal > 0 and SecrecyFilter.holds(r.body):
            held.setdefault(deal, []).append({"seq": r.seq, **r.body})
    out.held = held.get(in_play, []) if in_play > 0 else []
    out.ended = [(d, held.get(d, [])) for d in range(max(released + 1, 1), started + 1) if d != in_play]
    return out
