"""The table controller: one queue in, the law engine in the middle, journal, lamps and display out.

Producers (the shoe link's reader thread, the camera thread, the panel's buttons, a script) only
``submit`` inputs. One consumer (``run`` or ``drain``) takes each input to completion, in order, under
the rules of ``firmware_host.table.ordering`` (commit before the engine, commit before pins, acknowledge the
shoe only what is committed, hold every input while the journal fails, restart where it stopped):

1. reconcile it with what other sensors already said (one fact, one ruling; ``facts``);
2. commit the event to the journal, then feed the law engine;
3. work out the rulings' lamps, commit rulings and lamps, and only then change the pins;
4. tell the display and the observers.

While the shoe is offline during a deal, inputs from other sources wait, so that no ruling is made from
a deal the table cannot see whole; they are processed in order when the shoe returns. On start the
controller rebuilds the engine from the journal (mid-deal included) and puts the lamps back as they were:
from the newest checkpoint (the engine's state saved after a deal, every ``CHECKPOINT_ROWS`` rows, beside
the journal's hash chain) and the rows after it, or from every row when there is no usable checkpoint
(``ordering.restore``).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from firmware_host.config import LAMPS
from firmware_host.records.journal import Journal
from firmware_host.table import bridge_choices, choices, commands, ordering, setaside, shoe_ends
from firmware_host.table import lamps as lamp_policy
from firmware_host.table.facts import Fact, count_pack, reconcile
from firmware_host.table.inputs import (
    BUTTON_DEMANDS,
    ButtonInput,
    CommandAck,
    DeviceNote,
    DeviceStatus,
    DirectorCommand,
    Input,
    LawInput,
    Mark,
    MemberSeen,
    PackLoaded,
    SessionInput,
    ShoeLost,
    ShoeRestart,
)
from firmware_host.table.observer import TableObserver
from firmware_host.table.ordering import (
    CHECKPOINT_ROWS,
    AckPoint,
    ControllerError,
    Ordering,
    laws_version,
)
from firmware_host.table.outputs import TableOutputs, safe
from firmware_host.table.redact import printable
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import DemandMade, Event, ResultConfirmed, event_to_dict
from laws.rulings import Ruling
from laws.state import Phase

log = logging.getLogger(__name__)
ANSWERS_KEPT = 16  # outcomes of the director's checked commands, told in every status
__all__ = ["CHECKPOINT_ROWS", "AckPoint", "ButtonInput", "CommandAck", "ControllerError", "DeviceNote", "DeviceStatus",
           "DirectorCommand", "Input", "LawInput", "MemberSeen", "PackLoaded", "SessionInput", "ShoeLost", "ShoeRestart", "TableController",
           "laws_version"]


class TableController:
    """One table.

    Args:
        game: ``contract-bridge`` or ``euchre``.
        journal: the open journal (its events are replayed on start).
        panel: the lamps and buttons, or None for a table without a panel.
        clock: seconds; used for journal times and the journal's retry backoff.
        table_id: the table's id for observers.
        table_name: the table's name as people call it (``[table] name``); default the id.
        observers: told about statuses, events and rulings (after the journal commit).
        display: told about the same, for people at the table.
        checkpoints: start from the journal's newest checkpoint and save new ones after deals
            (False: replay the whole journal and save none).
    """

    def __init__(self, *, game: str, journal: Journal, panel: Any | None, clock: Callable[[], float],
                 table_id: str = "table", observers: Sequence[TableObserver] = (),
                 display: Any | None = None, checkpoints: bool = True, table_name: str = "") -> None:
        self.game = game
        self.engine = LawEngine(game)
        self.journal = journal
        self.panel = panel
        self.clock = clock
        self.table_id = table_id
        self.table_name = table_name or table_id
        self.observers = list(observers)
        self.display = display
        self.out = TableOutputs(panel, display, self.observers)
        self.queue: queue.Queue[Input] = queue.Queue()
        self.order = Ordering(journal, clock, self._journal_fault)
        self.lamps: dict[str, bool] = dict.fromkeys(LAMPS, False)
        self.online = {"shoe": True, "camera": True}
        self.offline: dict[str, str] = {}  # device -> why it is offline, in its own words
        self._said_offline: set[str] = set()  # devices this run has warned about (the journal may know already)
        self.last_ruling: dict[str, Any] | None = None
        self.seq = 0
        self.loaded_pack: str | None = None  # journaled: the pack the shoe holds for the next deal
        self.shoe_mark: Mark | None = None   # journaled: the last shoe message committed
        self.pack_in_at: float | None = None  # the director's ack of a replacement pack (``lamps.new_pack``)
        self.shoe_committed: Mark | None = None  # the last shoe message whose inputs are all committed
        self.acknowledge: Callable[[int | None, int], None] | None = None  # tells the shoe (ordering)
        self._held: list[LawInput] = []
        self._facts: set[Fact] = set()
        self._phase_listeners: list[Callable[[Phase, LawEngine], None]] = []
        self._pack_listeners: list[Callable[[str], None]] = []
        self._fault_listeners: list[Callable[[str | None], None]] = []
        self._shoe_listeners: list[Callable[[], None]] = []
        self._session_listeners: list[Callable[[dict[str, Any]], None]] = []
        self._member_listeners: list[Callable[[str, str], None]] = []
        # a duplicate table's board that comes after the one on it (None: the round is over here), for the
        # status; set by the duplicate procedure, whose seating knows the round's boards (the engine does not)
        self.board_after: Callable[[], int | None] | None = None
        self.packs: dict[str, dict[str, int]] = {}  # pack -> unreadable, damaged, deals
        self._checkpoint_seq = 0  # the row of the newest checkpoint
        self._results: dict[int, list[Ruling] | None] = {}  # rulings of inputs given to ``process``
        self._queued: set[int] = set()  # inputs taken from ``queue`` and not yet completed
        self._told_held = 0
        self.answers: deque[dict[str, Any]] = deque(maxlen=ANSWERS_KEPT)  # outcomes of director commands
        self._not_applied: str | None = None  # why the engine refused the event being ruled on
        self.set_aside: list[setaside.SetAside] = []  # reported in the status until the director's ack
        self.set_aside_rows: set[int] = set()  # journal rows the engine goes on without (``setaside``)
        self.commands_seen: set[str] = set()  # ids of the director's commands in the journal (done once)
        self.order.on_done = self._done
        self.checkpoints = checkpoints
        ordering.restore(self)
        if panel is not None:
            panel.on_button(lambda who, kind: self.submit(ButtonInput(who, kind)))

    # -- producers' side ------------------------------------------------------------------------------

    def submit(self, item: Input) -> None:
        """Queue an input (thread-safe)."""
        self.queue.put(item)

    def waiting(self) -> list[Input]:
        """The inputs behind the one in hand (consumer thread): taken into the backlog or still queued. A
        listener may look ahead with it (the duplicate procedure acts on the newest of several seatings
        that came at once), never take them."""
        behind = [i for i in list(self.order.backlog)[1:] if not isinstance(i, AckPoint)]
        with self.queue.mutex:
            return behind + list(self.queue.queue)

    def on_phase(self, listener: Callable[[Phase, LawEngine], None]) -> None:
        """Call ``listener(phase, engine)`` after every event, note and director's acknowledgement (from
        the consumer thread)."""
        self._phase_listeners.append(listener)

    def on_pack_loaded(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(pack)`` once a pack the shoe loaded is journaled (consumer thread)."""
        self._pack_listeners.append(listener)

    def on_fault(self, listener: Callable[[str | None], None]) -> None:
        """Call ``listener(error)`` when commits start failing, ``listener(None)`` when they work again."""
        self._fault_listeners.append(listener)

    def on_shoe_progress(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` (controller thread) after each shoe message is committed and acknowledged,
        and after the shoe comes online."""
        self._shoe_listeners.append(listener)

    def journal_note(self, body: dict[str, Any]) -> int:
        """Controller thread only (a listener, an observer): commit a note row now; its seq."""
        self.seq = self.order.commit([("note", dict(body), self.clock())])[-1]
        return self.seq

    def on_member(self, listener: Callable[[str, str], None]) -> None:
        """Call ``listener(seat, member number)`` (controller thread) once a ``MemberSeen`` is journaled."""
        self._member_listeners.append(listener)

    def on_session(self, listener: Callable[[dict[str, Any]], None]) -> None:
        """Call ``listener(message)`` (controller thread) once a ``SessionInput`` is journaled."""
        self._session_listeners.append(listener)

    # -- consumer -------------------------------------------------------------------------------------

    def run(self, stop: threading.Event, poll: float = 0.02) -> None:
        """Process inputs until ``stop`` is set."""
        while not stop.is_set():
            try:
                self._take(self.queue.get(timeout=poll))
            except queue.Empty:
                pass
            self.drain()

    def drain(self) -> int:
        """Process everything queued now (as far as the journal lets); returns how many inputs were
        completed."""
        while True:
            try:
                self._take(self.queue.get_nowait())
            except queue.Empty:
                break
        done = self.order.pump(self._handle)
        if self.order.fault is not None and self.order.held != self._told_held:
            self._told_held = self.order.held  # holding: the display and the club see how many wait
            self._status()
        return done

    def process(self, item: Input) -> list[Ruling]:
        """Take one input (after any held before it) to completion; its rulings."""
        self._results[id(item)] = None
        self.order.backlog.extend(_with_ack(item))
        self.order.pump(self._handle)
        return self._results.pop(id(item), None) or []

    def _take(self, item: Input) -> None:
        self._queued.add(id(item))
        self.order.backlog.extend(_with_ack(item))

    def _done(self, item: Input) -> None:
        if id(item) in self._queued:
            self._queued.discard(id(item))
            self.queue.task_done()  # ``queue.join()`` waits for inputs completed, not just taken

    # -- internals ------------------------------------------------------------------------------------

    def _handle(self, item: Input) -> None:
        rulings: list[Ruling] = []
        if isinstance(item, AckPoint):
            self.shoe_committed = (item.boot, item.seq)  # everything the shoe said up to here is committed
            upto = ordering.ack_upto(self.shoe_mark, item)
            if self.acknowledge is not None and upto is not None:
                safe(self.acknowledge, item.boot, upto)
            self._shoe_progress()
        elif isinstance(item, CommandAck):
            safe(item.ack)  # the command before it is committed: now the broker may forget it
        elif isinstance(item, DeviceStatus):
            self._device(item)
            if item.device == "shoe" and item.online:  # also when the journal already had it online
                self._shoe_progress()
        elif isinstance(item, DeviceNote):
            self._note(f"{item.device}: {item.text}", {"device": item.device, "text": item.text}, item.mark,
                       item.level, f"{item.device}: {item.logged}" if item.logged is not None else None)
        elif isinstance(item, PackLoaded):
            self._pack_loaded(item)
        elif isinstance(item, ButtonInput):
            law = self._button(item)
            rulings = self._law(law) if law is not None else []
        elif isinstance(item, DirectorCommand):
            rulings = self._director(item)
        elif isinstance(item, SessionInput):
            self.seq = self.order.commit([("note", {"session": item.message}, self.clock())])[-1]
            for listener in self._session_listeners:
                safe(listener, item.message)
        elif isinstance(item, MemberSeen):      # a member card at a seat: journaled, then the session told
            self.seq = self.order.commit([("note", {"member_card": {"seat": item.seat, "member": item.member}},
                                           self.clock())])[-1]
            for listener in self._member_listeners:
                safe(listener, item.seat, item.member)
        elif isinstance(item, ShoeRestart):
            rulings = self._shoe_restarted(item)
        elif isinstance(item, ShoeLost):
            rulings = self._shoe_lost(item)
        else:
            rulings = self._law(item)
        if id(item) in self._results:
            self._results[id(item)] = rulings

    def _shoe_restarted(self, item: ShoeRestart) -> list[Ruling]:
        """The shoe restarted: a note, and a deal it was dealing ends here, since no end message will
        ever come for it (hardware/shoe/PROTOCOL.md 6.3: after a restart no deal is going on). A deal
        ends as one the shoe stopped (``deal_end``: the laws rule on the cards dealt so far, as after an
        ABORT); a board the shoe dealt from its record as a ``board_short`` naming the cards not seen
        placed (PROTOCOL.md 7.1: the board is finished with the cards seen placed)."""
        text = f"the shoe restarted (boot {item.old_boot:08x} -> {item.boot_id:08x}): it is dealing nothing now"
        note = {"device": "shoe", "text": text, "shoe_restarted": [item.old_boot, item.boot_id]}

        def noted() -> None:
            # nothing of the new boot is committed yet: a restart resumes the link there (ordering.restore),
            # so the shoe's HELLO is no news to it and the restart is not noted twice
            self.shoe_mark = (item.boot_id, 0)
            log.warning("shoe: %s", text)
            self.out.note(f"shoe: {text}")

        event = shoe_ends.after_restart(self.engine.state)
        if event is None:
            self.seq = self.order.commit([("note", note, self.clock())])[-1]
            noted()
            return []
        # the note and the row ending the deal in one commit: killed between two, a restart noted the
        # shoe's restart again (audit a4, finding 3)
        return self._law(LawInput(event, "shoe"), lead=(note, noted))

    def _shoe_lost(self, item: ShoeLost) -> list[Ruling]:
        """Shoe messages lost on the link: their note (the last one's mark) and, in the same commit, the
        end of the deal the engine has under way (one its journal had, after a restart) and why."""
        text, event = shoe_ends.after_loss(self.engine.state, item.first, item.last)
        if event is None:
            self._note(f"shoe: {text}", {"device": "shoe", "text": text}, item.mark)
            return []
        return self._law(LawInput(event, "shoe", item.mark, note=text))

    def _shoe_progress(self) -> None:
        for listener in self._shoe_listeners:
            safe(listener)

    def _law(self, item: LawInput, lead: tuple[dict[str, Any], Callable[[], None]] | None = None) -> list[Ruling]:
        """Commit ``item``'s event, feed the engine, commit its rulings and lamps, then act on them.
        ``lead``: a note committed in the same transaction just before the event, and what to do once it
        is (alone, if the event is not journaled)."""
        e = item.event
        state = self.engine.state
        if lead is None and item.note is not None:
            text = printable(f"{item.source}: {item.note}")

            def said() -> None:
                log.warning("%s", text)
                self.out.note(text)

            lead = (printable({"device": item.source, "text": item.note}), said)
        if not self.online["shoe"] and state.phase == Phase.DEALING and item.source != "shoe":
            self._held.append(item)
            return []
        keep, facts = reconcile(self._facts, state, e, item.source)
        if not keep:
            log.debug("%s from %s is already known this deal; not ruled twice", e.TYPE, item.source)
            if lead is not None:
                self.seq = self.order.commit([("note", lead[0], self.clock())])[-1]
                lead[1]()
            return []
        t = self.clock()
        body = event_to_dict(e)
        if e.t is None:
            body["t"] = round(t, 6)
        body["src"] = item.source
        if item.mark is not None:
            body["shoe"] = list(item.mark)
        if item.command is not None:
            body["command"] = {"id": item.command[0], "by": item.command[1]}
        first: ordering.Rows = [("event", body, t)]
        if lead is not None:
            first.insert(0, ("note", lead[0], t))
        event_seq = self.order.commit(first)[-1]  # before the engine sees it
        self.seq = event_seq
        if lead is not None:
            lead[1]()
        if item.command is not None and item.command[0]:
            self.commands_seen.add(item.command[0])  # done: a repeat of it is answered, not done again
        self._facts |= facts
        if item.mark is not None:
            self.shoe_mark = item.mark
        if e.TYPE == "deal_start":
            self.loaded_pack = None  # the loaded pack is being dealt
        before = state.deal.number if state.deal else 0
        phase_before = state.phase
        ignored = self.engine.ignored
        try:
            rulings = self.engine.feed(e)
        except Exception as exc:  # refused, or a fault in a clause: set aside, the table goes on
            setaside.live(self, setaside.SetAside.of(event_seq, body, exc), ordering.laws_version())
            return []
        deal = state.deal.number if state.deal else before
        if self.engine.ignored > ignored:  # journaled, not ruled: the event does not fit this phase
            # (killed before the note is committed, the restart writes it: ordering.restore)
            level, text = ordering.ignored_words(state, e.TYPE, item.source)
            self.order.commit_then([("note", {"ignored": body}, t)],
                                   lambda seqs: self._after_note(seqs, text if item.source == "director" else None,
                                                                 text, level))
            return []
        pack = count_pack(self.packs, state, e)
        ruling_rows = [r.to_dict() | {"deal": deal} for r in rulings]
        lamps = lamp_policy.after_event(self.lamps, e, rulings)
        rows: ordering.Rows = [("ruling", rd, t) for rd in ruling_rows]
        if lamps != self.lamps:
            rows.append(("lamp", dict(lamps), t))

        # the hand is over when play ends, whether by an entry (play_end, result) or by the cards (the last
        # trick, a claim agreed or ruled, a deal passed out)
        over = e.TYPE in ("result", "play_end") or (
            phase_before in (Phase.AUCTION, Phase.PLAY) and state.phase in (Phase.SCORING, Phase.SHUFFLE, Phase.FORMING))

        def done(seqs: list[int]) -> None:
            self._ruled(e, body, deal, event_seq, rulings, ruling_rows, seqs, lamps, pack, over)

        self.order.commit_then(rows, done)  # rulings and lamps, before any pin moves
        return rulings

    def _ruled(self, e: Event, body: dict[str, Any], deal: int, event_seq: int, rulings: list[Ruling],
               ruling_rows: list[dict[str, Any]], seqs: list[int], lamps: dict[str, bool],
               pack: str | None, play_over: bool) -> None:
        """An event and its rulings and lamps are committed: move the pins, tell everyone."""
        state = self.engine.state
        if seqs:
            self.seq = seqs[-1]
        if lamps != self.lamps:
            self.lamps = lamps
            self._show_lamps()
        if play_over:
            self.out.deal_over(deal)  # play has ended: this event and its rulings (the score) go out whole
        self.out.event(body, deal, event_seq)
        for r, rd, seq in zip(rulings, ruling_rows, seqs):
            self.last_ruling = rd
            self.out.ruling(r, rd, deal, seq)
        if pack is not None:
            self.out.pack_health(pack, self.packs[pack])
        if rulings and lamp_policy.buzz_for(rulings):
            self.out.buzz()
        voided = state.deal is not None and state.deal.void
        if voided:
            self.out.deal_over(deal)
        if play_over or voided:
            self.checkpoint()
        for listener in self._phase_listeners:
            listener(state.phase, self.engine)
        self._status()

    def _after_note(self, seqs: list[int], shown: str | None, logged: str, level: int = logging.WARNING) -> None:
        self.seq = seqs[-1]
        log.log(level, "%s", logged)
        if shown is not None:
            self.out.note(shown)
        for listener in self._phase_listeners:
            listener(self.engine.state.phase, self.engine)

    def _pack_loaded(self, item: PackLoaded) -> None:
        body: dict[str, Any] = {"pack_loaded": item.pack}
        if item.mark is not None:
            body["shoe"] = list(item.mark)
        self.seq = self.order.commit([("note", body, self.clock())])[-1]
        self.loaded_pack = item.pack
        if item.mark is not None:
            self.shoe_mark = item.mark
        for listener in self._pack_listeners:
            listener(item.pack)

    def _button(self, item: ButtonInput) -> LawInput | None:
        if item.who == "director":
            self.director_ack(mark=item.mark)
            return None
        try:
            seat = Seat(item.who)
        except ValueError:
            self._note(f"button from unknown seat {item.who!r}", {"button": item.who}, item.mark)
            return None
        what = BUTTON_DEMANDS.get(item.kind)
        if what is None:
            self._note(f"unknown button kind {item.kind!r} from {seat.value}", {"button": item.kind}, item.mark)
            return None
        call = choices.button_call(self.engine.state, seat, item.kind)
        if call is not None:  # two presses in a bridge auction: a pass
            return LawInput(call, "button", item.mark)
        if what == "attention" and choices.confirms(self.engine.state, seat):
            return LawInput(ResultConfirmed(seat), "button", item.mark)   # a duplicate result awaits his side
        if what == "attention":  # with a claim open to his side, a player's press claims it
            what = choices.press_option(self.engine.state, seat) or what
        if item.kind == "demand":  # the shoe's long press: a redeal claimed, or a new shuffle and cut
            what = choices.shoe_demand(self.engine.state, seat)
        return LawInput(DemandMade(seat, what), "button", item.mark)

    def director_ack(self, command: dict[str, Any] | None = None, mark: Mark | None = None) -> None:
        """The director's acknowledgement (his panel button, ``command`` from the dashboard; ``mark``: a shoe
        message's, if one brought it): the ruling lamps go out, and the set-aside events reported are seen."""
        t = self.clock()
        lamps = lamp_policy.after_ack(self.lamps)
        note: dict[str, Any] = {"ack": "director"}
        if command is not None:
            note["command"] = command
        if mark is not None:    # the journal holds the shoe's message: a restart resumes after it
            note["shoe"] = list(mark)
        rows: ordering.Rows = [("note", note, t)]
        if lamps != self.lamps:
            rows.append(("lamp", dict(lamps), t))
        self.seq = self.order.commit(rows)[-1]
        self.pack_in_at = t if lamp_policy.pack_owed(self.engine.state, self.lamps) else self.pack_in_at
        if mark is not None:
            self.shoe_mark = mark
        self.set_aside = []  # the director has seen them (docs/ordering.md)
        self._lamps_committed(lamps)
        for listener in self._phase_listeners:  # a deal held for a replacement pack may start now
            listener(self.engine.state.phase, self.engine)
        self._status()

    def _director(self, item: DirectorCommand) -> list[Ruling]:
        return commands.take(self, item)

    def _answer(self, answer: dict[str, Any]) -> None:
        commands.answer(self, answer)

    def _device(self, item: DeviceStatus) -> None:
        was = self.online.get(item.device)
        if was == item.online:
            if not item.online and item.device not in self._said_offline:
                # offline since before a restart (the journal says so, nothing to journal): this run
                # still says it once, naming the device, or a missing camera would go unsaid for good
                self._said_offline.add(item.device)
                self.offline[item.device] = item.reason or "no reason given"
                log.warning("%s offline: %s", item.device, item.reason or "no reason given")
            return
        t = self.clock()
        rows: ordering.Rows = [("note", {"device": item.device, "online": item.online, "reason": item.reason}, t)]
        lamp = lamp_policy.DEVICE_LAMPS.get(item.device)
        lamps = self.lamps | {lamp: not item.online} if lamp is not None else self.lamps
        if lamps != self.lamps:
            rows.append(("lamp", dict(lamps), t))
        self.seq = self.order.commit(rows)[-1]
        self.online[item.device] = item.online
        if item.online:
            self.offline.pop(item.device, None)
        else:
            self.offline[item.device] = item.reason or "no reason given"
        if item.online:
            log.info("%s online%s", item.device, f": {item.reason}" if item.reason else "")
        else:
            self._said_offline.add(item.device)
            log.warning("%s offline: %s", item.device, item.reason or "no reason given")
        self._lamps_committed(lamps)
        self.out.device(item.device, item.online, item.reason)
        if item.online and item.device == "shoe" and self._held:
            held, self._held = self._held, []
            for i, h in enumerate(held):  # next in line, in their order, right after this input
                self.order.backlog.insert(1 + i, h)
        self._status()

    def _lamps_committed(self, lamps: dict[str, bool]) -> None:
        if lamps != self.lamps:
            self.lamps = dict(lamps)
            self._show_lamps()

    def _lit(self) -> dict[str, bool]:
        """The lamps as the pins show them: the journaled ones and the journal's own fault lamp."""
        return self.lamps | {"journal_fault": self.order.fault is not None}

    def _show_lamps(self) -> None:
        self.out.lamps(self._lit())

    def _journal_fault(self, text: str | None) -> None:
        """The journal stopped (``text``) or started again (None) taking commits."""
        self._show_lamps()
        for listener in self._fault_listeners:
            safe(listener, text)
        self.out.note(f"journal cannot be written ({text}): every input is held and retried" if text
                      else "journal writable again: going on")
        self._status()

    def _note(self, text: str, body: dict[str, Any], mark: Mark | None = None, level: int = logging.WARNING,
              logged: str | None = None) -> None:
        body, text = printable(body), printable(text)  # a refusal is journaled whatever it quotes
        if mark is not None:
            body = body | {"shoe": list(mark)}
        self.seq = self.order.commit([("note", body, self.clock())])[-1]
        if mark is not None:
            self.shoe_mark = mark
        log.log(level, "%s", printable(logged) if logged is not None else text)
        self.out.note(text)

    def deals(self) -> tuple[int, int]:
        """How many deals the engine has started, and the number of the one whose play has not ended (0:
        none): a restarted table's publisher still holds that deal's cards back (``tablelink.restart``)."""
        s = self.engine.state
        d = s.deal
        in_play = d is not None and not d.void and s.phase in (Phase.DEALING, Phase.AUCTION, Phase.PLAY)
        return s.deals_started, d.number if in_play and d is not None else 0

    def snapshot(self) -> dict[str, Any]:
        """The table's state for displays and observers (no card identities)."""
        s = self.engine.state
        d, score = s.deal, s.game_state.get("score")
        if (board := choices.open_board(s)) is not None:
            board["next"] = self.board_after() if self.board_after is not None else None
        return {
            "table": self.table_id, "name": self.table_name, "game": self.game, "phase": s.phase.value,
            "deal": d.number if d else 0, "dealer": d.dealer.value if d else None,
            "next_dealer": s.next_dealer.value if s.next_dealer else None, "lamps": self._lit(),
            "shoe_online": self.online["shoe"], "camera_online": self.online["camera"], "offline": dict(self.offline),
            "journal_fault": self.order.fault, "held": self.order.held, "cards_dealt": d.cards_dealt if d else 0,
            "counts": {seat.value: n for seat, n in d.counts.items()} if d else {},
            "players": {seat.value: name for seat, name in s.players.items()}, "ruling": self.last_ruling,
            "score": score.snapshot() if score is not None else {}, "seq": self.seq, "t": self.clock(),
            "claims": choices.open_claims(s), "search": choices.open_search(s), "answers": list(self.answers),
            "bridge": bridge_choices.open_bridge(s), "duplicate": board,
            "set_aside": [a.status() for a in self.set_aside], "new_pack": lamp_policy.new_pack(s, self.lamps, self.pack_in_at),
        }

    def _status(self) -> None:
        self.out.status(self.snapshot())

    def checkpoint(self, *, force: bool = False) -> None:
        """Save the state a restart starts from (after a deal is over, once ``CHECKPOINT_ROWS`` rows
        have gone by since the last; ``force``: now)."""
        ordering.checkpoint(self, force=force)


def _with_ack(item: Input) -> list[Input]:
    """An input and, for a director's command that must be acknowledged, the point after its commit."""
    ack = getattr(item, "ack", None) if isinstance(item, DirectorCommand) else None
    return [item] if ack is None else [item, CommandAck(ack)]
