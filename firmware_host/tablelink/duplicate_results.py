"""A real duplicate table on the club's link (``docs/mqtt.md``, Duplicate): its seating in, its confirmed
results out.

* **In.** The session's messages for the table (``MqttPublisher.on_session``, paho's thread) are put in the
  controller's queue as ``SessionInput``: journaled first, then the table's procedure
  (``table.duplicate.DuplicateProcedure``) takes its round, pairs and boards from the seating.
* **Out.** When a board's result is confirmed by one player of each side (the engine's ``DB-77`` ruling
  with ``confirmed``, journaled), its ``board`` message (``wire.duplicate.result_body``) goes through the
  publisher's outbox with that ruling's row as its ``seq``: at least once, in order.
* **Until answered.** The session answers a result (its seating's ``answers``) only once it is committed
  in the session's journal (``docs/ordering.md``). A result no answer names, whose board the last seating
  still lists in ``left``, is sent again (a new journal row, the same body) ``RESEND_AFTER`` seconds after
  it was first sent, then after twice as long each time, up to ``RESEND_MOST`` seconds, **on the table's
  own timer**: not only when a seating arrives (a session killed before its commit, or whose journal is
  stalled, sends no new seating). On a restart the results are read back from the journal, so one
  confirmed just before a kill is still sent.
* **Too large to send.** A result the publisher does not send because it is larger than the broker's packet
  (``board_result`` says False; docs/mqtt.md, "The broker") is not sent again, now or after a restart (a
  ``board_result_not_sent`` note): the table's display says to enter it by hand (``tablelink.too_large``).
* **Member cards.** Once both seats of a side have laid a member card, the pair's members go to the
  session (a ``players`` message). One taken comes back as the names in the seating; one refused as a
  ``players`` answer, which the table shows on its display once (``session: member cards refused: <why>``,
  a journaled note), so the players who laid their cards learn why nobody was named.

Nothing is wired by side effect: :class:`DuplicateResults` is built alone, and :func:`connect` is the one
place it is put on the controller and the publisher (``live.build_table`` calls it, before the publisher
starts). The seating is read through the wire's typed message (``wire.messages.DuplicateSeating``).

Everything here runs in the controller's thread (observer callbacks, session listeners, and the timer's
check, which a small thread only queues as a ``CommandAck``: a callable the controller runs in its turn),
so its journal rows are written where every other row is. The timer, the waits and the wiring are the
ones a euchre night's table uses too (``tablelink/resend.py``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from firmware_host.table.inputs import DeviceNote
from firmware_host.tablelink import resend
from firmware_host.tablelink.resend import RESEND_AFTER, RESEND_MOST, TIMER_EVERY, Resending
from firmware_host.wire.duplicate import players_body, result_body
from firmware_host.wire.messages import DuplicateSeating, MessageError, is_seating

log = logging.getLogger(__name__)
__all__ = ["RESEND_AFTER", "RESEND_MOST", "TIMER_EVERY", "DuplicateResults", "body_of", "connect"]


def body_of(ruling: dict[str, Any]) -> dict[str, Any]:
    """The ``board`` message body of a confirmed result's ruling (``laws.games.duplicate_board``)."""
    foul = ruling.get("foul")
    return result_body(
        section=str(ruling.get("section") or "A"), table_number=int(ruling.get("table") or 1),
        round=int(ruling.get("round") or 1), board=int(ruling["board"]), ns=str(ruling.get("ns") or "-"),
        ew=str(ruling.get("ew") or "-"), contract=str(ruling["contract"]), declarer=ruling.get("declarer"),
        tricks=int(ruling["tricks"]), lead=ruling.get("lead"), record=str(ruling.get("record") or ""),
        verified=bool(ruling.get("verified")) and not foul,
        foul={k: foul[k] for k in ("card", "played_by", "record_seat", "trick", "seats")} if foul else None,
        play=list(ruling.get("play") or []), auction=list(ruling.get("auction") or []),
        confirmed=dict(ruling.get("confirmed") or {}))


class DuplicateResults(Resending[tuple[int, int]]):
    """The table's results to the session, and the session's seating to the table (unanswered: by
    (round, board), each sent again on its own wait; ``resend.Resending``).

    Args:
        ctl: the controller (``submit``, ``journal_note``, ``journal``, ``on_session``).
        publisher: the table's ``MqttPublisher`` (``board_result``, ``on_session``).
        clock: monotonic seconds, for the resend delay.
    """

    def __init__(self, ctl: Any, publisher: Any, clock: Callable[[], float] = time.monotonic, *,
                 timer: float | None = TIMER_EVERY) -> None:
        super().__init__(ctl, publisher, clock, timer)
        self.seating: DuplicateSeating | None = None
        self.told: set[tuple[str, str]] = set()   # (source, why) of the member-card refusals shown here
        for row in ctl.journal.rows():           # results confirmed before a restart: answered or not?
            if row.kind == "ruling" and row.body.get("clause") == "DB-77" and row.body.get("confirmed"):
                body = body_of(row.body)
                self.unanswered[(body["round"], body["board"])] = (body, float("-inf"))
            elif row.kind == "note" and is_seating(row.body.get("session")):
                # the seatings journaled after them answered them (docs/ordering.md): those are not sent again
                try:
                    seating = DuplicateSeating.from_any(row.body["session"])
                except MessageError:
                    continue
                self._settle(seating)
                self.told.update(_members_refused(seating))   # shown when that seating came in
            elif row.kind == "note" and isinstance(row.body.get("board_result_not_sent"), dict):
                gone = row.body["board_result_not_sent"]   # too large for the broker: entered by hand
                self.unanswered.pop((gone.get("round"), gone.get("board")), None)
        self.members: dict[tuple[int, str], str] = {}   # (round, seat) -> the member card read there
        self.named: set[tuple[int, str]] = set()         # (round, side) told the session

    thread_name = "duplicate-resend"

    def resend_due(self) -> int:
        """Controller thread: send again each unanswered result whose wait is over; how many were sent."""
        now = self.clock()
        due = self._due(now)
        for key in due:
            body, _ = self.unanswered[key]
            wait = self._wait.get(key, RESEND_AFTER)
            seq = self.ctl.journal_note({"board_result_again": body})
            if not self._sent(body, seq, 0):
                continue
            self.unanswered[key] = (body, now)
            self._wait[key] = min(wait * 2, RESEND_MOST)
            self.resent += 1
        return len(due)

    # -- the observer ------------------------------------------------------------------------------

    def ruling(self, ruling: dict[str, Any], deal: int, seq: int) -> None:
        if ruling.get("clause") != "DB-77" or not ruling.get("confirmed"):
            return
        body = body_of(ruling)
        if not self._sent(body, seq, deal):
            return
        self.unanswered[(body["round"], body["board"])] = (body, self.clock())
        self._wait.pop((body["round"], body["board"]), None)
        self.sent += 1

    def event(self, event: dict[str, Any], deal: int, seq: int) -> None:
        pass

    def _sent(self, body: dict[str, Any], seq: int, deal: int) -> bool:
        """Give a result to the publisher; one it refuses for its size (False, never None) is forgotten and
        noted, so it is not sent again every few seconds, nor after a restart."""
        if self.publisher.board_result(body, seq, deal) is not False:
            return True
        key = (body["round"], body["board"])
        if key in self.unanswered:
            self._forget(key)
        self.ctl.journal_note({"board_result_not_sent": {"round": key[0], "board": key[1], "row": seq}})
        return False

    # -- the seating -------------------------------------------------------------------------------

    def on_member(self, seat: str, member: str) -> None:
        """Controller thread: a member card read at a seat; once both seats of a side have one in this
        round, the pair's members go to the session (``players``: journaled, then sent in order)."""
        s = self.seating
        if s is None or seat not in ("N", "E", "S", "W"):
            return
        rnd = s.round
        self.members[(rnd, seat)] = member
        for side, pair, (a, b) in (("ns", s.ns, ("N", "S")), ("ew", s.ew, ("E", "W"))):
            if (rnd, a) in self.members and (rnd, b) in self.members and pair and (rnd, side) not in self.named:
                self.named.add((rnd, side))
                body = players_body(section=s.section or "A", table_number=s.table_number, round=rnd, side=side,
                                    pair=pair, members=[self.members[(rnd, a)], self.members[(rnd, b)]])
                self.publisher.players_seen(body, self.ctl.journal_note({"players_seen": body}))

    def on_session(self, msg: dict[str, Any]) -> None:
        """Controller thread: forget the results the seating answers; send again those it leaves
        unanswered for ``RESEND_AFTER`` seconds. The seating is read through ``wire.messages.DuplicateSeating``;
        one that does not read (already journaled, and refused by the procedure too) changes nothing."""
        if not is_seating(msg):                 # a duplicate session's seating, or an event's table view
            return
        try:
            seating = DuplicateSeating.from_any(msg)
        except MessageError as exc:
            log.warning("a seating that does not read is not used for the results: %s", exc)
            return
        self._settle(seating)
        self._tell_members_refused(seating)
        self.resend_due()

    def _tell_members_refused(self, seating: DuplicateSeating) -> None:
        """Show each refusal of the table's member cards (a ``players`` answer) on its display, once: the
        players who laid their cards and were named nobody learn why (the seating carries the answer
        until 16 newer ones push it out, so it is remembered as shown, and so after a restart)."""
        for key in _members_refused(seating):
            if key not in self.told:
                self.told.add(key)
                self.ctl.submit(DeviceNote("session", f"member cards refused: {key[1] or 'no reason given'}"))

    def _settle(self, seating: DuplicateSeating) -> None:
        """Forget the results a seating answers (or whose round or board it has left behind, unless it
        waits for that board to be replayed: ``replay``)."""
        self.seating = seating
        answered = {a.board for a in seating.answers if a.kind == "board" and a.status in ("taken", "repeat", "refused")}
        rnd, left = seating.round, seating.left
        for key in list(self.unanswered):
            r, board = key
            if board in answered or (r < rnd or (r == rnd and board not in left)) and key not in seating.replay:
                self._forget(key)


def _members_refused(seating: DuplicateSeating) -> list[tuple[str, str]]:
    """``(source, why)`` of each refusal of the table's member cards among a seating's answers."""
    return [(a.source, a.why) for a in seating.answers if a.kind == "players" and a.status == "refused"]


def connect(results: DuplicateResults, ctl: Any, publisher: Any) -> DuplicateResults:
    """Put the table's duplicate results on the link, in one visible place (before ``publisher.start()``,
    which subscribes to the session's topics only when someone listens): the session's messages from the
    publisher go into the controller's queue; the controller's journaled session messages, member cards
    and observer calls come here; the resend timer starts (``resend.connect``)."""
    return resend.connect(results, ctl, publisher, on_member=results.on_member)
