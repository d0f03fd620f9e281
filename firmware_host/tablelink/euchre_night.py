"""A euchre table at a club's euchre night (``docs/euchre.md``): its seats in, its hands out.

* **In.** The night's seating for this table (``euchre_seating`` on the table's session topic, through
  ``MqttPublisher.on_session``) is put in the controller's queue as a ``SessionInput``, journaled, then
  read here (:class:`~firmware_host.wire.euchre.EuchreSeating`): the round, who sits where, the hands
  of the round, and whether the director called the round.
* **Scored from the cards.** At a night's round (a seating with seats, the round not over), when the
  fifth trick of a hand is complete (the cards played, as the
  camera or the shoe reported them), the table itself records the hand's ``result`` from the cards
  (``laws.euchre_night.notation.tricks_won``): nobody types it. A euchre table that is not at a night's
  round is not touched: nothing is counted or sent. The engine settles the hand first
  (reneges, laws 62-71), then scores it (laws 2-3).
* **Out.** Once the engine's ``score`` ruling for the hand is committed, the hand in the notation (its
  cards, plays, makers, tricks, and every ruling of the hand with its law: a renege named by ``EU-64``,
  its penalty ``EU-63``; and the rulings of any deal since the last hand sent that came to nothing, a
  misdeal, each with its ``deal``) is journaled as a note and sent on ``<prefix>/<table>/hand`` through the
  outbox (at least once, in order). Until the night's seating answers them, the unanswered hands are
  sent again, all of them in order, under new rows (``RESEND_AFTER`` seconds, doubling up to
  ``RESEND_MOST``): the night takes a table's hands only in order.
* **Restarted.** The seating last journaled, the hands sent and the rulings of the deals not yet sent are
  read back from the journal. A hand the table was stopped at the end of (its fifth trick's last card
  journaled, the hand not) is finished first thing: its result counted from the cards unless its score is
  journaled already, then the hand sent, once.
* **The director's call.** When the seating says the round is called, the table finishes the hand in
  play (if any), sends it, then sends a ``stop`` with the number of hands it played in the round.

Everything runs in the controller's thread (observer callbacks, session listeners, and the resend
check, which a small timer thread only queues), with the timer, waits and wiring ``duplicate_results``
uses (``tablelink/resend.py``); :func:`connect` wires it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from firmware_host.table.inputs import CommandAck, LawInput
from firmware_host.tablelink import resend
from firmware_host.tablelink.resend import RESEND_AFTER, RESEND_MOST, TIMER_EVERY, Resending
from firmware_host.wire.euchre import EuchreSeating
from firmware_host.wire.messages import MessageError
from laws.euchre_night.notation import hand_body, tricks_won
from laws.events.types import ResultRecorded
from laws.state import DealState

log = logging.getLogger(__name__)
__all__ = ["RESEND_AFTER", "RESEND_MOST", "TIMER_EVERY", "NightTable", "connect"]


class NightTable(Resending[str]):
    """The table's side of a euchre night (see the module docstring; unanswered: by ``"round/hand"`` or
    ``"round/stop"``, all sent again in order once one is due; ``resend.Resending``).

    Args:
        ctl: the controller (``submit``, ``journal_note``, ``journal``, ``on_session``, ``engine``).
        publisher: the table's ``MqttPublisher`` (``euchre_hand``, ``on_session``).
        clock: monotonic seconds, for the resend delay.
    """

    def __init__(self, ctl: Any, publisher: Any, clock: Callable[[], float] = time.monotonic, *,
                 timer: float | None = TIMER_EVERY) -> None:
        super().__init__(ctl, publisher, clock, timer)
        self.seating: EuchreSeating | None = None
        self.rulings: dict[int, list[dict[str, Any]]] = {}
        self.resulted: set[int] = set()       # deals whose result the table recorded from the cards
        self.scored: set[int] = set()         # deals scored (sent, or scored outside a night's round)
        self.sent_in: dict[tuple[str, int], int] = {}   # (night_id, round) -> hands sent
        self.stopped: set[tuple[str, int]] = set()      # (night_id, round): the rounds the table sent its stop for
        self._sources: dict[str, set[str]] = {}
        self._owed: tuple[str, int] | None = None   # the hand a kill at its end left to finish (``_restore``)
        self._restore()
        if self._owed is not None:   # first in the controller's queue, before anything said after the restart
            self.ctl.submit(CommandAck(self._finish))

    thread_name = "euchre-resend"

    def _restore(self) -> None:
        """After a restart: the seating in force, the hands sent before it, answered or not, and the rulings
        of the deals not yet scored (the deal in play, a misdeal since the last hand sent), from the journal.
        The observer hears a ruling once, as it is committed, and the restart replays the engine without it:
        kept in memory only, a renege ruled before the restart (``EU-64``: who, in which trick) and a
        misdeal before it were missing from the hand sent after it.

        A hand the table was killed at the end of is owed (``_owed``, finished by :meth:`_finish`): its
        fifth trick's last card is journaled, but no result counted from the cards (the count runs as that
        card is committed), or its score is journaled but not the hand sent (the hand is sent as the score
        is committed). The restarted table held such a hand in play, or took it for sent, and sent nothing:
        the night waited for it."""
        seating: EuchreSeating | None = None    # the seating in force as each row was written
        at_last_event: EuchreSeating | None = None
        scored_under: dict[int, EuchreSeating | None] = {}   # deal -> the seating its score was made under
        noted: set[int] = set()                 # deals sent, or noted not sent
        for row in self.ctl.journal.rows():
            if row.kind == "event":
                at_last_event = seating
                continue
            if row.kind == "ruling":
                deal = row.body.get("deal")
                if isinstance(deal, int) and deal > 0:
                    self.rulings.setdefault(deal, []).append(row.body)
                    if _scores(row.body):
                        self.scored.add(deal)
                        scored_under[deal] = seating
                continue
            if row.kind != "note":
                continue
            msg = row.body.get("session")
            if isinstance(msg, dict) and msg.get("kind") == "euchre_seating":
                try:
                    read = EuchreSeating.from_dict(msg)
                except MessageError:
                    continue   # refused when it came (``euchre_seating_refused``): the seating before it stood
                self._begin(seating, read)
                seating = read
                self._settle(seating)   # what it answered then is not owed now (a finished night's hands)
                continue
            not_sent = row.body.get("euchre_hand_not_sent")
            if isinstance(not_sent, dict) and isinstance(not_sent.get("deal"), int):
                self.scored.add(not_sent["deal"])
                noted.add(not_sent["deal"])
            body = row.body.get("euchre_hand")
            if isinstance(body, dict):
                key = _key(body)
                rnd = (str(body.get("night_id", "")), int(body.get("round") or 0))
                if body.get("type") == "hand":
                    self.sent_in[rnd] = max(self.sent_in.get(rnd, 0), int(body.get("hand") or 0))
                    deal = int(body.get("deal") or 0)
                    self.scored.add(deal)
                    noted.add(deal)
                    for n in [n for n in self.rulings if n < deal]:   # sent with it, as ``ruling`` forgets them
                        del self.rulings[n]
                else:
                    self.stopped.add(rnd)
                self.unanswered[key] = (body, float("-inf"))
                self._sources.setdefault(key, set()).add(f"{self.ctl.table_id}:{row.seq}")
        self.seating = seating
        if seating is not None:
            self._owed = _owed(self.ctl.engine.state.deal, seating, at_last_event, scored_under, noted)
        owed = self._owed[1] if self._owed is not None else None
        for deal in [n for n in self.rulings if n in self.scored and n != owed]:   # sent, or scored outside a round
            del self.rulings[deal]

    def _finish(self) -> None:
        """Controller thread, first after a restart: finish the hand a kill at its end left (``_owed``) as
        the live table would have: count its tricks from the cards and record the result (scored, then
        sent by :meth:`ruling`), or send the hand its journaled score made. Once."""
        owed, self._owed = self._owed, None
        d = self.ctl.engine.state.deal
        if owed is None or d is None or d.number != owed[1]:
            return
        if owed[0] == "count":
            self._count(d)
        else:
            self._hand(owed[1])

    # -- what the people at the table may ask ------------------------------------------------------------

    def in_play(self) -> bool:
        """A hand is under way (dealt or being dealt, not yet scored)."""
        d = self.ctl.engine.state.deal
        return d is not None and not d.void and d.number not in self.scored

    def at_round(self) -> bool:
        """Seated at a night's round now: a hand in play is scored from its cards at its fifth trick, and a
        result typed before then sends the night nothing (what a restarted table tells its operator)."""
        s = self.seating
        return s is not None and bool(s.seats) and not s.done and not s.finished

    def hands_sent(self, rnd: int) -> int:
        """Hands sent in round ``rnd`` of the night in force (the seating's ``night_id``)."""
        return self.sent_in.get((self.seating.night_id if self.seating else "", rnd), 0)

    def may_deal(self) -> bool:
        """Whether a new hand may start: seated, the round neither called nor played out."""
        s = self.seating
        if s is None or not s.seats or s.done or s.called or s.finished:
            return False
        return self.sent_in.get(_round(s), 0) < s.hands

    # -- sending ----------------------------------------------------------------------------------------

    def _send(self, body: dict[str, Any], deal: int = 0, again: bool = False) -> None:
        seq = self.ctl.journal_note({"euchre_hand_again" if again else "euchre_hand": body})
        self.publisher.euchre_hand(body, seq, deal)
        key = _key(body)
        self._sources.setdefault(key, set()).add(f"{self.ctl.table_id}:{seq}")
        self.unanswered[key] = (body, self.clock())
        if again:
            self.resent += 1
        else:
            self._wait.pop(key, None)
            self.sent += 1

    def resend_due(self) -> int:
        """Controller thread: once the wait of any unanswered hand is over, send every unanswered one again,
        in order (round, hand, the stop last): the night takes a table's hands only in order, and leaves
        one unanswered that arrives before a hand still missing. How many were sent."""
        due = self._due(self.clock())
        if not due:
            return 0
        wait = min(max(self._wait.get(key, RESEND_AFTER) for key in due) * 2, RESEND_MOST)
        for key in sorted(self.unanswered, key=_order):
            body, _ = self.unanswered[key]
            self._send(body, int(body.get("deal") or 0), again=True)
            self._wait[key] = wait
        return len(self.unanswered)

    def _maybe_stop(self) -> None:
        s = self.seating
        if s is None or not s.seats or not s.called or s.done or _round(s) in self.stopped or self.in_play():
            return
        self.stopped.add(_round(s))
        self._send({"type": "stop", "table": s.table, "table_number": s.table_number, "round": s.round,
                    "hands": self.sent_in.get(_round(s), 0), **_night(s)})

    # -- the observer ------------------------------------------------------------------------------------

    def ruling(self, ruling: dict[str, Any], deal: int, seq: int) -> None:
        if deal < 1:
            # before the table's first deal (a cut made again, EU-29): the table's own, as a ruling between
            # later hands is (it bears the deal just scored). Sent as deal 0, it had the night refuse the hand.
            return
        self.rulings.setdefault(deal, []).append(ruling)
        if not _scores(ruling):
            return
        if deal in self.scored:
            return
        self.scored.add(deal)
        self._hand(deal)

    def _hand(self, deal: int) -> None:
        """Controller thread: deal ``deal``'s score is committed: at a night's round, send it as the round's
        next hand, with the rulings of the deals since the last hand sent that came to nothing."""
        s = self.seating
        d = self.ctl.engine.state.deal
        if s is None or not s.seats or s.done or d is None or d.number != deal:
            return   # a hand outside the night's rounds: the table scores it, the night does not
        number = self.sent_in.get(_round(s), 0) + 1
        if number > s.hands:
            return
        try:
            body = hand_body(d, self.rulings.get(deal, []), round=s.round, table=s.table,
                             table_number=s.table_number, hand=number, players=s.players())
        except ValueError as exc:   # a result typed before play was out: the night takes no hand
            self.ctl.journal_note({"euchre_hand_not_sent": {"deal": deal, "why": str(exc)}})
            return
        # deals that came to nothing since the last hand sent (a misdeal): their rulings come with this hand
        earlier = [{"deal": n, "clause": r.get("clause"), "law": r.get("law"), "remedy": r.get("remedy"),
                    "text": r.get("reason", "")}
                   for n in sorted(self.rulings) if n < deal and n not in self.scored
                   for r in self.rulings[n] if r.get("remedy") not in ("score", "game_won", "rubber_won")]
        for n in [n for n in self.rulings if n < deal]:
            del self.rulings[n]
        body["rulings"] = earlier + body["rulings"]
        body.update(_night(s))   # the night it was played in, which refuses it when it is another's
        self.sent_in[_round(s)] = number
        self._send(body, deal)
        self._maybe_stop()

    def event(self, event: dict[str, Any], deal: int, seq: int) -> None:
        if event.get("type") != "card_played" or deal in self.resulted:
            return
        s = self.seating
        if s is None or not s.seats or s.done or s.finished:
            return   # not at a night's round: the table is used as it always is (a result is entered)
        d = self.ctl.engine.state.deal
        if d is None or d.void or d.number != deal or d.makers is None:
            return
        self._count(d)

    def _count(self, d: DealState) -> None:
        """Controller thread: once the fifth trick of deal ``d`` is complete, record its result counted from
        the cards (then, if the engine did not score it, say so: ``_not_scored``)."""
        won = tricks_won(d)
        if won is None or d.makers is None:
            return
        deal = d.number
        self.resulted.add(deal)
        self.ctl.submit(LawInput(ResultRecorded(t=self.ctl.clock(), tricks=won[d.makers], makers=d.makers,
                                                alone=d.alone_seat is not None), "cards"))
        self.ctl.submit(CommandAck(lambda: self._not_scored(deal)))

    def _not_scored(self, deal: int) -> None:
        """Controller thread, after the result from the cards: if the engine did not score it (it was
        not taken), say so in the journal and let the table go on to its next hand."""
        if deal not in self.scored:
            self.scored.add(deal)
            self.ctl.journal_note({"euchre_hand_not_sent": {"deal": deal, "why": "the table did not score the "
                                                            "result counted from the cards"}})

    # -- the seating -------------------------------------------------------------------------------------

    def on_session(self, msg: dict[str, Any]) -> None:
        """Controller thread: take the seating, forget what it answers, stop after a call."""
        if msg.get("kind") != "euchre_seating":
            return
        try:
            s = EuchreSeating.from_dict(msg)
        except MessageError as exc:
            self.ctl.journal_note({"euchre_seating_refused": str(exc)})
            return
        self._begin(self.seating, s)
        self.seating = s
        self._settle(s)
        self._maybe_stop()
        self.resend_due()


    def _begin(self, before: EuchreSeating | None, s: EuchreSeating) -> None:
        """A seating naming another night (``night_id``), after a finished one, or of an earlier round than the
        one before it (a night's round never goes back) is a new night: its hands are counted from nothing,
        and the last night's, sent or stopped, are its no more. Counted by round number for good, a table's
        second night on the same journal had its rounds "played out" by the first night's hands before they
        began, and sent none; without the night's identity, a night left in round 1 (its process stopped for
        good) and the next night's round 1 were one night, the old hands owed to the new one."""
        if before is None or not (before.night_id != s.night_id or before.finished and not s.finished
                                  or s.round < before.round):
            return
        self.sent_in.clear()
        self.stopped.clear()
        for key in list(self.unanswered):
            self._forget(key)
        self._sources.clear()

    def _settle(self, s: EuchreSeating) -> None:
        """Forget the hands seating ``s`` answers, those of its rounds gone by, and all once its night is
        finished: live as each seating comes, and at a restart as each journaled one is read back, in order
        (read back without them, a finished night's hands were owed again and the next night took them)."""
        answered = {a.source for a in s.answers if a.kind == "hand"}   # the night's answers to its hands
        for key in list(self.unanswered):
            body, _ = self.unanswered[key]
            if self._sources.get(key, set()) & answered or int(body.get("round") or 0) < s.round or s.finished:
                self._forget(key)


def connect(night: NightTable, ctl: Any, publisher: Any) -> NightTable:
    """Put the table's side of a euchre night on the link, in one visible place (before
    ``publisher.start()``, which subscribes to the session's topics only when someone listens): the
    night's messages from the publisher go into the controller's queue; the controller's journaled
    session messages and observer calls come here; the resend timer starts (``resend.connect``)."""
    return resend.connect(night, ctl, publisher)


def _order(key: str) -> tuple[int, int]:
    rnd, what = key.split("/")[-2:]
    return int(rnd), 10**6 if what == "stop" else int(what)


def _key(body: dict[str, Any]) -> str:
    """``"round/hand"`` or ``"round/stop"``, after ``"<night_id>/"`` when the night has one."""
    night = f"{body['night_id']}/" if body.get("night_id") else ""
    return f"{night}{body.get('round')}/{body.get('hand') if body.get('type') == 'hand' else 'stop'}"


def _round(s: EuchreSeating) -> tuple[str, int]:
    """The seating's round, as the hands sent and the stops are counted: by night, then round number."""
    return s.night_id, s.round


def _night(s: EuchreSeating) -> dict[str, str]:
    """What a hand or stop says of its night: ``night_id``, when the seating named one."""
    return {"night_id": s.night_id} if s.night_id else {}


def _owed(d: DealState | None, seating: EuchreSeating, at_last_event: EuchreSeating | None,
          scored_under: dict[int, EuchreSeating | None], noted: set[int]) -> tuple[str, int] | None:
    """The hand a kill at its end left to finish, from the journal read back: ``("count", deal)``, its
    fifth trick complete at a night's round (as the last card's row was written) and no score since;
    ``("send", deal)``, scored under the seating still in force, at a night's round, and neither sent nor
    noted not sent. None: nothing owed (a deal still in play is the players' to finish; a hand outside a
    night's round is the table's own)."""
    if d is None or d.void or d.number in noted:
        return None
    if d.number in scored_under:
        s = scored_under[d.number]
        # the hand is sent as its score is committed: a seating written after the score means it was
        return ("send", d.number) if s is seating and s.seats and not s.done else None
    s = at_last_event
    if s is None or not s.seats or s.done or s.finished or d.makers is None or tricks_won(d) is None:
        return None
    return ("count", d.number)


def _scores(ruling: dict[str, Any]) -> bool:
    """The engine's score of a hand (the table's own ``score`` line, by a euchre clause)."""
    return ruling.get("remedy") == "score" and str(ruling.get("clause", "")).startswith("EU-")
