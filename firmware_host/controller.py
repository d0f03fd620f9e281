"""The table controller: one queue in, the law engine in the middle, journal, lamps and display out.

Producers (the shoe link's reader thread, the camera thread, the panel's buttons, a script) only
``submit`` inputs. One consumer (``run`` or ``drain``) takes each input to completion, in order:

1. reconcile it with what other sensors already said (one fact, one ruling);
2. append the event to the journal (committed), feed the law engine, append each ruling;
3. work out the lamps, append them to the journal, and only then change the pins;
4. tell the display and the observers.

While the shoe is offline during a deal, inputs from other sources wait, so that no ruling is made from
a deal the table cannot see whole; they are processed in order when the shoe returns. On start the
controller rebuilds the engine from the journal (mid-deal included) and puts the lamps back as they were:
from the newest checkpoint (the engine's state saved after a deal, every ``CHECKPOINT_ROWS`` rows, beside
the journal's hash chain) and the rows after it, or from every row when there is no usable checkpoint.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host import lamps as lamp_policy
from firmware_host.config import LAMPS
from firmware_host.journal import Journal
from firmware_host.observer import TableObserver
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import (
    CardDealt,
    CardFaced,
    CardPlayed,
    DamagedCardFound,
    DemandMade,
    Event,
    EventFormatError,
    GameChosen,
    event_from_dict,
    event_to_dict,
)
from laws.rulings import Ruling
from laws.state import Phase

log = logging.getLogger(__name__)

CHECKPOINT_ROWS = 2000  # rows between checkpoints (a bridge deal with its play is about 120)


@functools.cache
def laws_version() -> str:
    """A fingerprint of the law engine's source: a checkpoint is used only by the code that took it."""
    import laws

    root = Path(laws.__file__).resolve().parent
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py")):
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class LawInput:
    """A law-engine event and where it came from: ``shoe``, ``camera``, ``button``, ``script`` or
    ``director`` (entered on the club's dashboard)."""

    event: Event
    source: str


@dataclass(frozen=True)
class ButtonInput:
    """A decoded button press: ``who`` a seat letter or ``director``; ``kind`` from the panel."""

    who: str
    kind: str


@dataclass(frozen=True)
class DeviceStatus:
    """A device came online or went offline."""

    device: str
    online: bool
    reason: str = ""


@dataclass(frozen=True)
class DeviceNote:
    """Something a device reported that is not a law event (a jam, an empty shoe, an error)."""

    device: str
    text: str


Input = LawInput | ButtonInput | DeviceStatus | DeviceNote
BUTTON_DEMANDS = {"attention": "attention", "new_shuffle": "new_shuffle", "restore_pack": "restore_pack"}


class ControllerError(RuntimeError):
    """The controller cannot start (e.g. the journal belongs to another game)."""


class TableController:
    """One table.

    Args:
        game: ``contract-bridge`` or ``euchre``.
        journal: the open journal (its events are replayed on start).
        panel: the lamps and buttons, or None for a table without a panel.
        clock: seconds; used for journal times.
        table_id: the table's id for observers.
        observers: told about statuses, events and rulings (after the journal commit).
        display: told about the same, for people at the table.
        checkpoints: start from the journal's newest checkpoint and save new ones after deals
            (False: replay the whole journal and save none).
    """

    def __init__(self, *, game: str, journal: Journal, panel: Any | None, clock: Callable[[], float],
                 table_id: str = "table", observers: Sequence[TableObserver] = (),
                 display: Any | None = None, checkpoints: bool = True) -> None:
        self.game = game
        self.engine = LawEngine(game)
        self.journal = journal
        self.panel = panel
        self.clock = clock
        self.table_id = table_id
        self.observers = list(observers)
        self.display = display
        self.queue: queue.Queue[Input] = queue.Queue()
        self.lamps: dict[str, bool] = dict.fromkeys(LAMPS, False)
        self.online = {"shoe": True, "camera": True}
        self.last_ruling: dict[str, Any] | None = None
        self.seq = 0
        self._held: list[LawInput] = []
        self._facts: set[tuple[int, str, str]] = set()
        self._phase_listeners: list[Callable[[Phase, LawEngine], None]] = []
        self.packs: dict[str, dict[str, int]] = {}  # pack -> unreadable, damaged, deals
        self._told_over: set[int] = set()  # deals whose end the observers know (secrecy release)
        self._checkpoint_seq = 0  # the row of the newest checkpoint
        self.checkpoints = checkpoints
        self._restore()
        if panel is not None:
            panel.on_button(lambda who, kind: self.submit(ButtonInput(who, kind)))

    # -- producers' side ------------------------------------------------------------------------------

    def submit(self, item: Input) -> None:
        """Queue an input (thread-safe)."""
        self.queue.put(item)

    def on_phase(self, listener: Callable[[Phase, LawEngine], None]) -> None:
        """Call ``listener(phase, engine)`` after every event (from the consumer thread)."""
        self._phase_listeners.append(listener)

    # -- consumer -------------------------------------------------------------------------------------

    def run(self, stop: threading.Event, poll: float = 0.02) -> None:
        """Process inputs until ``stop`` is set."""
        while not stop.is_set():
            try:
                item = self.queue.get(timeout=poll)
            except queue.Empty:
                continue
            try:
                self.process(item)
            except Exception:  # one bad input must not stop the table; it is in the log
                log.exception("input %r not processed", item)
            finally:
                self.queue.task_done()

    def drain(self) -> int:
        """Process everything queued now; returns how many inputs were processed."""
        n = 0
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return n
            try:
                self.process(item)
            finally:
                self.queue.task_done()
            n += 1

    def process(self, item: Input) -> list[Ruling]:
        """Take one input to completion."""
        if isinstance(item, DeviceStatus):
            self._device(item)
            return []
        if isinstance(item, DeviceNote):
            self._note(f"{item.device}: {item.text}", {"device": item.device, "text": item.text})
            return []
        if isinstance(item, ButtonInput):
            law = self._button(item)
            if law is None:
                return []
            item = law
        return self._law(item)

    # -- internals ------------------------------------------------------------------------------------

    def _law(self, item: LawInput) -> list[Ruling]:
        e = item.event
        state = self.engine.state
        if not self.online["shoe"] and state.phase == Phase.DEALING and item.source != "shoe":
            self._held.append(item)
            return []
        if not self._reconcile(item):
            log.debug("%s from %s is already known this deal; not ruled twice", e.TYPE, item.source)
            return []
        t = self.clock()
        body = event_to_dict(e)
        if e.t is None:
            body["t"] = round(t, 6)
        body["src"] = item.source
        before = state.deal.number if state.deal else 0
        ignored = self.engine.ignored
        try:
            rulings = self.engine.feed(e)
        except ValueError as exc:
            self.seq = self.journal.append_many([("event", body, t), ("note", {"error": str(exc), "event": body},
                                                                      t)])[-1]
            self._note_shown(f"event not applied: {exc}")
            return []
        deal = state.deal.number if state.deal else before
        if self.engine.ignored > ignored:  # journaled, not ruled: the event does not fit this phase
            text = f"{e.TYPE} from {item.source} ignored: the table is in phase {state.phase.value}"
            self.seq = self.journal.append_many([("event", body, t), ("note", {"ignored": body}, t)])[-1]
            if item.source == "director":
                self._note_shown(text)
            else:
                log.info("%s", text)
            return []
        ruling_rows = [r.to_dict() | {"deal": deal} for r in rulings]
        lamps = lamp_policy.after_event(self.lamps, e, rulings)
        rows: list[tuple[str, dict[str, Any], float]] = [("event", body, t)]
        rows += [("ruling", rd, t) for rd in ruling_rows]
        if lamps != self.lamps:
            rows.append(("lamp", dict(lamps), t))
        seqs = self.journal.append_many(rows)  # one commit: event, rulings and lamps, before any pin moves
        self.seq = seqs[-1]
        if lamps != self.lamps:
            self.lamps = lamps
            if self.panel is not None:
                self.panel.set_lamps(lamps)
        play_over = e.TYPE in ("result", "play_end")
        if play_over:
            self._deal_over(deal)  # play has ended: this event and its rulings (the score) go out whole
        self._tell("event", body, deal, seqs[0])
        for r, rd, seq in zip(rulings, ruling_rows, seqs[1:]):
            self.last_ruling = rd
            self._tell("ruling", rd, deal, seq)
            if self.display is not None:
                self.display.ruling(r, deal)
        pack = self._count_pack(e)
        if pack is not None:
            h = self.packs[pack]
            for obs in self.observers:
                self._safe(obs.pack_health, pack, h["unreadable"], h["damaged"], h["deals"])
        if rulings and lamp_policy.buzz_for(rulings) and self.panel is not None:
            self.panel.buzz(0.3)
        voided = state.deal is not None and state.deal.void
        if voided:
            self._deal_over(deal)
        if play_over or voided:
            self.checkpoint()
        for listener in self._phase_listeners:
            listener(state.phase, self.engine)
        self._status()
        return rulings

    def _deal_over(self, deal: int) -> None:
        """Tell the observers, once, that the cards of ``deal`` may now leave the table."""
        if deal and deal not in self._told_over:
            self._told_over.add(deal)
            for obs in self.observers:
                self._safe(obs.deal_over, deal)

    def _count_pack(self, e: Event) -> str | None:
        """Pack health: deals, unreadable and damaged cards per pack; the pack whose counts moved."""
        d = self.engine.state.deal
        if e.TYPE == "deal_start" and d is not None:
            pack, key = d.pack, "deals"
        elif isinstance(e, CardDealt) and e.card is None and d is not None:
            pack, key = d.pack, "unreadable"
        elif isinstance(e, DamagedCardFound):
            pack, key = e.pack, "damaged"
        else:
            return None
        counts = self.packs.setdefault(pack, {"unreadable": 0, "damaged": 0, "deals": 0})
        counts[key] += 1
        return pack

    def _reconcile(self, item: LawInput) -> bool:
        """Keep one fact once per deal: a face-up card the shoe dealt and the camera then saw, a
        damaged card both devices report, a card the camera saw played."""
        e = item.event
        d = self.engine.state.deal
        number = d.number if d else 0
        if isinstance(e, CardDealt):
            if e.face_up and e.card is not None:
                self._facts.add((number, "faced", e.card.code))
            if e.card is None:
                self._facts.add((number, "damaged", "?"))
            return True
        if isinstance(e, CardFaced) and e.card is not None and d is not None and e.card == d.trump_card:
            return False  # the euchre turn-up lies face up by law; the camera seeing it is no exposure
        if isinstance(e, CardFaced) and e.card is not None and e.where in ("deal", "pack", "table"):
            key = (number, "faced", e.card.code)
            if key in self._facts:
                return False
            self._facts.add(key)
        if isinstance(e, CardPlayed) and item.source == "camera" and d is not None and \
                any(c == e.card for _, c in d.plays):
            return False  # seen again after a hand hid it, or gathered and turned: played once only
        if isinstance(e, DamagedCardFound):
            key = (number, "damaged", e.card.code if e.card else "?")
            same_pack = d is not None and e.pack == d.pack
            if key in self._facts or (item.source == "camera" and same_pack and
                                      (number, "damaged", "?") in self._facts):
                return False
            self._facts.add(key)
        return True

    def _button(self, item: ButtonInput) -> LawInput | None:
        t = self.clock()
        if item.who == "director":
            self.seq = self.journal.append("note", {"ack": "director"}, t)
            self._set_lamps(lamp_policy.after_ack(self.lamps), t)
            self._status()
            return None
        try:
            seat = Seat(item.who)
        except ValueError:
            self._note(f"button from unknown seat {item.who!r}", {"button": item.who})
            return None
        what = BUTTON_DEMANDS.get(item.kind)
        if what is None:
            self._note(f"unknown button kind {item.kind!r} from {seat.value}", {"button": item.kind})
            return None
        from laws.games.base import open_claims_for
        if what == "attention" and open_claims_for(self.engine.state, seat):
            what = "redeal"  # with a claim open to his side, a player's press claims it
        return LawInput(DemandMade(seat, what), "button")

    def _device(self, item: DeviceStatus) -> None:
        t = self.clock()
        was = self.online.get(item.device)
        self.online[item.device] = item.online
        if was == item.online:
            return
        self.seq = self.journal.append("note", {"device": item.device, "online": item.online,
                                                "reason": item.reason}, t)
        lamp = lamp_policy.DEVICE_LAMPS.get(item.device)
        if lamp is not None:
            self._set_lamps(self.lamps | {lamp: not item.online}, t)
        if self.display is not None:
            self.display.device(item.device, item.online, item.reason)
        if item.online and item.device == "shoe" and self._held:
            held, self._held = self._held, []
            for h in held:
                self._law(h)
        self._status()

    def _set_lamps(self, lamps: dict[str, bool], t: float) -> None:
        if lamps == self.lamps:
            return
        self.seq = self.journal.append("lamp", dict(lamps), t)  # committed before any pin moves
        self.lamps = dict(lamps)
        if self.panel is not None:
            self.panel.set_lamps(self.lamps)

    def _note(self, text: str, body: dict[str, Any]) -> None:
        self.seq = self.journal.append("note", body, self.clock())
        self._note_shown(text)

    def _note_shown(self, text: str) -> None:
        log.warning("%s", text)
        if self.display is not None:
            self.display.note(text)

    def _tell(self, what: str, body: dict[str, Any], deal: int, seq: int) -> None:
        for obs in self.observers:
            self._safe(getattr(obs, what), body, deal, seq)

    @staticmethod
    def _safe(fn: Callable[..., None], *args: Any) -> None:
        try:
            fn(*args)
        except Exception:  # an observer never stops the table
            log.exception("observer failed")

    def snapshot(self) -> dict[str, Any]:
        """The table's state for displays and observers (no card identities)."""
        s = self.engine.state
        d = s.deal
        score = s.game_state.get("score")
        return {
            "table": self.table_id, "game": self.game, "phase": s.phase.value,
            "deal": d.number if d else 0, "dealer": d.dealer.value if d else None,
            "next_dealer": s.next_dealer.value if s.next_dealer else None,
            "lamps": dict(self.lamps), "shoe_online": self.online["shoe"],
            "camera_online": self.online["camera"],
            "counts": {seat.value: n for seat, n in d.counts.items()} if d else {},
            "cards_dealt": d.cards_dealt if d else 0,
            "players": {seat.value: name for seat, name in s.players.items()},
            "score": score.snapshot() if score is not None else {},
            "ruling": self.last_ruling, "seq": self.seq, "t": self.clock(),
        }

    def _status(self) -> None:
        snap = self.snapshot()
        for obs in self.observers:
            self._safe(obs.status, snap)
        if self.display is not None:
            self.display.status(snap)

    def _restore(self) -> None:
        """Rebuild the engine and lamps from the journal; start a new journal with its game line.

        If the process died between journaling an event and journaling its rulings and lamps, the step
        is completed now: the engine gives the same rulings again, and they are journaled and lit.
        """
        replayed = 0
        owed: list[Ruling] = []
        last_event: Event | None = None
        last_rulings: list[Ruling] = []
        lamp_after_event = False
        since = self._from_checkpoint()
        self._checkpoint_seq = self.seq = since
        for row in self.journal.rows(since):
            self.seq = row.seq
            if row.kind == "lamp":
                lamp_after_event = True
                continue
            if row.kind == "ruling":
                self.last_ruling = row.body
                if owed:
                    owed.pop(0)
                continue
            if row.kind != "event":
                continue
            try:
                event = event_from_dict(row.body)
            except EventFormatError as exc:
                raise ControllerError(f"{self.journal.path}: journal row {row.seq} cannot be read: "
                                      f"{exc}") from None
            if isinstance(event, GameChosen):
                if event.game != self.game:
                    raise ControllerError(f"{self.journal.path} is the journal of a {event.game} table, "
                                          f"but this table plays {self.game}")
                continue
            try:
                owed = self.engine.feed(event)
            except ValueError as exc:
                log.warning("journaled event not applied on restore: %s", exc)
                owed = []
            self._count_pack(event)
            last_event, last_rulings, lamp_after_event = event, list(owed), False
            replayed += 1
        if replayed == 0 and self.seq == 0:
            self.seq = self.journal.append("event", {"type": "game", "game": self.game}, self.clock())
        saved = self.journal.last_lamps()
        if saved:
            self.lamps = {name: bool(saved.get(name, False)) for name in LAMPS}
        if last_event is not None and not lamp_after_event:
            t = self.clock()
            deal = self.engine.state.deal.number if self.engine.state.deal else 0
            for r in owed:
                rd = r.to_dict() | {"deal": deal}
                self.seq = self.journal.append("ruling", rd, t)
                self.last_ruling = rd
            if owed:
                log.warning("completed %d ruling(s) interrupted by the last stop", len(owed))
            expected = lamp_policy.after_event(self.lamps, last_event, last_rulings)
            if expected != self.lamps:
                self.lamps = expected
                self.seq = self.journal.append("lamp", dict(self.lamps), t)
        if self.panel is not None:
            self.panel.set_lamps(self.lamps)
        if replayed or since:
            log.info("restored %d events from %s%s", replayed, self.journal.path,
                     f" after the checkpoint at row {since}" if since else "")

    def _from_checkpoint(self) -> int:
        """Take the engine, pack health and last ruling from the journal's newest checkpoint taken by
        this code; returns its row (0: none, replay from the start)."""
        found = self.journal.checkpoint(laws_version()) if self.checkpoints else None
        if found is None:
            return 0
        seq, text = found
        try:
            data = json.loads(text)
            self.engine.restore(data["engine"])  # raises SnapshotError (a ValueError) if unusable
            self.packs = {str(p): {str(k): int(v) for k, v in c.items()} for p, c in data["packs"].items()}
            self.last_ruling = data["last_ruling"]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("checkpoint at row %d of %s not used (%s); replaying the whole journal", seq,
                        self.journal.path, exc)
            self.engine = LawEngine(self.game)
            self.packs, self.last_ruling = {}, None
            return 0
        return seq

    def checkpoint(self, *, force: bool = False) -> None:
        """Save the state a restart starts from (after a deal is over, once ``CHECKPOINT_ROWS`` rows
        have gone by since the last; ``force``: now)."""
        if not self.checkpoints or self.seq == self._checkpoint_seq or \
                (not force and self.seq - self._checkpoint_seq < CHECKPOINT_ROWS):
            return
        state = json.dumps({"engine": self.engine.snapshot(), "packs": self.packs,
                            "last_ruling": self.last_ruling})
        try:
            self.seq = self.journal.save_checkpoint(self.seq, laws_version(), state)  # its binding row
        except Exception as exc:  # a checkpoint only saves time at the next start
            log.warning("checkpoint not saved: %s", exc)
            return
        self._checkpoint_seq = self.seq
