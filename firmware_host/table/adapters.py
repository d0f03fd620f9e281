"""Adapters between the devices and the controller's queue: they run in the devices' threads and only
translate and submit (the controller does the rest in its own thread).

* ``ShoeAdapter``: shoe-link messages -> law events, device status, buttons, notes, packs loaded, the
  shoe's restarts; each
  numbered message is followed by an ``AckPoint`` (the shoe is acknowledged once it is committed).
* ``CameraFeeder``: frames -> the vision watcher -> law events (and the watcher's notes, as device
  notes of the camera), in a capture thread of its own.
* ``ReopeningSource``: a camera that may be missing or fail: opened, and opened again, with backoff.
* ``vision_phase``: which vision phase an engine phase means (what a face-up card seen then is).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from firmware_host.table.controller import (
    AckPoint,
    ButtonInput,
    DeviceNote,
    DeviceStatus,
    Input,
    LawInput,
    MemberSeen,
    PackLoaded,
    ShoeLost,
    ShoeRestart,
)
from laws.cards import Seat, clockwise_from
from laws.engine import LawEngine
from laws.state import Phase

log = logging.getLogger(__name__)

# The shoe's seat buttons (PROTOCOL.md 4.2, BUTTON): a call (short press) asks for attention, or takes a
# claim open to the player, as the panel's one press; a demand (long press) is the player's demand for a
# redeal or new deal (``choices.shoe_demand`` says which); a confirm (double press) reclaims the side's pack.
SHOE_BUTTONS = {1: "attention", 2: "demand", 3: "restore_pack"}


class ShoeAdapter:
    """The ``on_event`` callback of a ``ShoeLink`` or ``ScannerLink``.

    Args:
        submit: the controller's ``submit``.
        clock: for event times.
        pack: the pack to name in a deal's start when the shoe names none (None: the deal's pack is
            unknown until its first card names it; a table that alternates packs must leave it so).
        boot: the shoe's boot id now (``ShoeLink.boot_id``), journaled with each message's number.
        boards: a duplicate table: a board the shoe deals from its record gives law events
            (``shoe.laws_map.to_law_event``), and a card it rejects is a note.
    """

    def __init__(self, submit: Callable[[Input], None], clock: Callable[[], float],
                 pack: Callable[[], str | None] = lambda: None,
                 boot: Callable[[], int | None] = lambda: None, *, boards: bool = False) -> None:
        self.submit = submit
        self.clock = clock
        self.pack = pack
        self.boot = boot
        self.boards = boards
        self.deal_finished = threading.Event()
        self._deal: Any = None      # the DealBegan of the deal being dealt (not a board's), None between deals
        self._index = 0             # the index of its last card reported
        self._stopped = False       # the last deal or board was aborted and no card has left since

    def __call__(self, msg: Any) -> None:
        from firmware_host.shoe import messages as m

        if isinstance(msg, m.LinkStatus):
            self.submit(DeviceStatus("shoe", msg.online, msg.reason))
            return
        if isinstance(msg, m.ShoeRestarted):
            self._deal = None
            self.submit(ShoeRestart(msg.old_boot, msg.boot_id))
            return
        if isinstance(msg, m.MessagesLost):
            self._lost(msg)
            return
        numbered = isinstance(msg, m.ShoeMessage) and not isinstance(msg, (m.Heartbeat, m.Pong)) and msg.seq > 0
        mark = (self.boot(), msg.seq) if numbered else None
        self._translate(msg, mark)
        if mark is not None:
            self.submit(AckPoint(*mark))  # acknowledged once all of the above is committed

    def _translate(self, msg: Any, mark: tuple[int | None, int] | None) -> None:
        from firmware_host.shoe import messages as m
        from firmware_host.shoe.laws_map import to_law_event

        self._follow(msg)
        if isinstance(msg, m.Skipped):
            self._skipped(msg, mark)
            return
        event = to_law_event(msg, pack=self.pack(), boards=self.boards)
        if event is not None:
            self.submit(LawInput(event, "shoe", mark))
            if isinstance(msg, m.DealFinished):
                self.deal_finished.set()
            return
        if isinstance(msg, m.PackLoaded):
            self.submit(PackLoaded(msg.pack, mark))
        elif isinstance(msg, m.ButtonPressed):
            kind = SHOE_BUTTONS.get(int(msg.kind))
            who = msg.seat.value    # a BUTTON names a seat: the shoe has no director's button (PROTOCOL.md 4.2)
            if kind is None:        # a kind of a newer minor version: passed on as its number (PROTOCOL.md 4.2)
                self.submit(DeviceNote("shoe", f"a button of unknown kind {int(msg.kind)} was pressed at {who}",
                                       mark))
            else:
                self.submit(ButtonInput(who, kind, mark))
        elif isinstance(msg, m.Jam):
            self.submit(DeviceNote("shoe", "card jammed at the exit" if not msg.cleared else "jam cleared", mark))
        elif isinstance(msg, m.Empty):
            self.submit(DeviceNote("shoe", f"the shoe ran empty after {msg.dealt} cards", mark))
        elif isinstance(msg, m.ShoeError):
            self.submit(DeviceNote("shoe", f"error {msg.code}: {msg.detail}", mark))
        elif isinstance(msg, m.CardRejected):
            what = msg.card.name if msg.card is not None else "an unreadable card"
            # a card already placed names one in the open board's pockets: the log says "a card"
            self.submit(DeviceNote("shoe", f"rejected {what} (reason {int(msg.reason)}): not in any pocket", mark,
                                   logged=f"rejected a card (reason {int(msg.reason)}): not in any pocket "
                                          f"(named in the journal, not here)"))
        elif isinstance(msg, m.CardOut) and msg.seat is None and not msg.turn_up:
            # a card outside a deal (index 0, seat 255): no seat's, but journaled before the shoe is
            # acknowledged, so the director can rule on it (PROTOCOL.md 7)
            # the card in the exit when the ABORT came leaves after DEAL_FINISHED (PROTOCOL.md 4.3): how a
            # stopped shoe ends, so not a warning; any other stray card is one
            stopped, self._stopped = self._stopped, False
            if stopped:
                self.submit(DeviceNote("shoe", f"a card left the shoe outside a deal, after the deal was stopped: "
                                       f"{_card_words(msg)}", mark, logging.INFO))
            else:
                self.submit(DeviceNote("shoe", f"a card left the shoe outside a deal: {_card_words(msg)}", mark))
        elif isinstance(msg, m.BoardBegan) and self.boards:
            self.submit(DeviceNote("shoe", f"board {msg.board}: the shoe goes on with {len(msg.placed)} cards "
                                   "already in their pockets", mark))


    def _follow(self, msg: Any) -> None:
        """Which deal is being dealt and its last card's index (a board's cards are counted by the laws)."""
        from firmware_host.shoe import messages as m

        if isinstance(msg, (m.DealBegan, m.BoardBegan)):
            self._stopped = False
        if isinstance(msg, (m.DealFinished, m.BoardFinished)):
            self._stopped = msg.reason == m.FinishReason.ABORTED
        if isinstance(msg, m.DealBegan):
            self._deal, self._index = msg, 0
        elif isinstance(msg, (m.DealFinished, m.BoardBegan, m.BoardFinished)):
            self._deal = None
        elif isinstance(msg, m.CardOut) and self._deal is not None and msg.index and not msg.board:
            self._index = msg.index

    def _lost(self, msg: Any) -> None:
        """Messages gone from the shoe's ring before the host got them (PROTOCOL.md 5, ERROR 4): passed on
        with the last one's mark (their numbers are used up: a restart resumes after them). Whether a deal
        or board was under way, and so ends there as lost, the controller says from the engine, which a
        restarted table rebuilt from its journal: this adapter may not have heard the deal begin."""
        mark = (msg.boot_id, msg.last)
        self._deal = None       # its later cards are not counted: an unreadable one is only a note
        self.submit(ShoeLost(msg.first, msg.last, mark))
        self.submit(AckPoint(*mark))

    def _skipped(self, msg: Any, mark: tuple[int | None, int] | None) -> None:
        """A numbered message the host could not read: its number is used up (PROTOCOL.md 5: skipped,
        counted, logged) and the journal says so before the shoe is acknowledged. A CARD_OUT of the deal
        being dealt is a card that left all the same: it is the deal's next card, unreadable, at the seat
        the deal's pattern gives that index (PROTOCOL.md 7), so the cards after it keep their places."""
        from firmware_host.shoe import messages as m
        from laws.events import CardDealt, DamagedCardFound

        what = f"message {msg.seq} (type 0x{msg.mtype:02x}) could not be read ({msg.reason}): skipped"
        deal = self._deal
        if msg.mtype != m.MsgType.CARD_OUT or deal is None:
            self.submit(DeviceNote("shoe", what, mark))
            return
        self._index += 1
        seat, turn_up = seat_of(self._index - 1, deal.dealer, deal.pattern, deal.turn_up)
        where = "the table (the turn-up)" if turn_up or seat is None else seat.value
        self.submit(DeviceNote("shoe", f"{what}; taken as card {self._index} of the deal, unreadable, to {where}",
                               mark))
        if turn_up or seat is None:
            event: Any = DamagedCardFound(None, self.pack() or deal.pack or "unknown")
        else:
            event = CardDealt(seat, None, False, None)
        self.submit(LawInput(event, "shoe", mark))


def seat_of(i: int, dealer: Seat, pattern: tuple[int, ...], turn_up: int) -> tuple[Seat | None, bool]:
    """Where the deal's card of 0-based position ``i`` goes by PROTOCOL.md section 7's formula: a seat,
    or (None, True) for a turned-up card, (None, False) beyond the deal."""
    for size in pattern:
        if i < 4 * size:
            return clockwise_from(dealer)[(1 + i // size) % 4], False
        i -= 4 * size
    return None, i < turn_up


def _card_words(msg: Any) -> str:
    """"the ace of spades (AS, pack A1, face down)" for a ``CardOut``."""
    from firmware_host.shoe import messages as m

    what = f"the {msg.card.name} ({msg.card.code}" if msg.card is not None else "an unreadable card (no code"
    faced = {m.Orientation.DOWN: "face down", m.Orientation.UP: "face up"}.get(msg.orientation, "face not known")
    return f"{what}, pack {msg.pack or 'not read'}, {faced})"


def connect_shoe(ctl: Any, link: Any, adapter: ShoeAdapter) -> None:
    """Wire a ``ShoeLink`` (made with ``auto_ack=False``) to a controller under the ordering rules: the
    adapter journals each message's number with the shoe's boot id, the link resumes after the last
    message the journal holds, and the shoe is acknowledged only once the controller has committed.
    Call before ``link.start()``."""
    adapter.boot = lambda: link.boot_id
    if ctl.shoe_mark is not None and ctl.shoe_mark[0] is not None:
        link.resume(ctl.shoe_mark[0], ctl.shoe_mark[1])
    ctl.acknowledge = lambda boot, seq: link.acknowledge(seq, boot)


def vision_phase(phase: Phase, engine: LawEngine) -> str:
    """The watcher's phase for an engine phase: what a face-up card newly seen then means. A bridge
    table's auction is the watcher's ``auction`` (its bidding cards are calls; a card led is played); a
    euchre table's making of trump is ``play`` as before (it has no bidding cards)."""
    if phase == Phase.FORMING:
        return "draw"
    if phase == Phase.SHUFFLE:
        return "cut" if engine.state.shuffles else "shuffle"
    if phase == Phase.CUT:
        return "cut"
    if phase == Phase.DEALING:
        return "deal"
    if phase == Phase.AUCTION and engine.rules.name in ("contract-bridge", "duplicate-bridge"):
        return "auction"
    if phase in (Phase.AUCTION, Phase.PLAY):
        return "play"
    return "idle"


class CameraFeeder:
    """Reads frames, feeds the watcher, submits what it sees; marks the camera offline when frames stop.

    Args:
        source: anything with ``read() -> (ok, frame)`` (a ``CaptureThread``, ``cv2.VideoCapture``...).
        watcher: a ``vision.watcher.TableWatcher``.
        submit: the controller's ``submit``.
        max_failures: failed reads in a row before the camera counts as offline.
        why: why the camera gives no frames, in the camera's own words ("picamera2 is not installed"),
            "" when not known; said with the camera's OFFLINE state.
    """

    def __init__(self, source: Any, watcher: Any, submit: Callable[[Input], None],
                 max_failures: int = 10, period: float = 0.0, why: Callable[[], str] | None = None) -> None:
        self.source = source
        self.why = why or (lambda: "")
        self.watcher = watcher
        self.submit = submit
        self.max_failures = max_failures
        self.period = period
        self.frames = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._said: tuple[str, frozenset[str]] | None = None

    def set_phase(self, phase: Phase, engine: LawEngine) -> None:
        """Phase listener for the controller (called from its thread); tells the watcher only changes,
        with the packs in play so that a card of any other pack is flagged as foreign."""
        packs = frozenset(engine.state.pack_owners.values())
        if engine.state.deal is not None:
            packs |= {engine.state.deal.pack}
        said = (vision_phase(phase, engine), packs)
        if said == self._said:
            return
        with self._lock:
            self._said = said
            self.watcher.set_phase(said[0], packs=packs or None)

    def draw_names(self, names: dict[str, str]) -> None:
        """For the draw: which candidate stands at which zone."""
        with self._lock:
            self.watcher.set_phase("draw", names=names)
            self._said = None

    def start(self) -> CameraFeeder:
        self._thread = threading.Thread(target=self._run, name="camera-feeder", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def step(self) -> int:
        """Read and process one frame; returns the number of events submitted (-1: no frame)."""
        ok, frame = self.source.read()
        if not ok or frame is None:
            return -1
        return self._look(frame)

    def _look(self, frame: Any) -> int:
        self.frames += 1
        with self._lock:
            events = self.watcher.feed(frame)
            notes = self.watcher.take_notes()
            members = self.watcher.take_members()
        for seat, number in members:      # a club member's card at a seat (a duplicate table names its players)
            self.submit(MemberSeen(str(getattr(seat, "value", seat)), number))
        for e in events:
            self.submit(LawInput(e, "camera"))
        for text in notes:
            self.submit(DeviceNote("camera", text))
        return len(events)

    def _run(self) -> None:
        failures = 0
        online: bool | None = None  # not known yet: the first state found is reported (the controller
        #                             journals only a change, so a camera the journal has offline from
        #                             before a restart is journaled back)
        while not self._stop.is_set():
            try:
                ok, frame = self.source.read()
            except Exception as exc:  # a camera that fails must not stop the table
                log.warning("camera read failed: %s", exc)
                ok, frame = False, None
            if not ok or frame is None:
                failures += 1
                if online is not False and failures >= self.max_failures:
                    online = False
                    self.submit(DeviceStatus("camera", False, self.why() or "no frames from the camera"))
                self._stop.wait(0.05)
                continue
            failures = 0
            if online is not True:
                online = True
                self.submit(DeviceStatus("camera", True))
            try:
                self._look(frame)
            except Exception as exc:  # a corrupt frame is logged and skipped
                log.warning("camera frame not processed: %s", exc)
            if self.period:
                self._stop.wait(self.period)


class ReopeningSource:
    """A camera that may be missing at boot or fail later: ``read`` opens it when it is closed (waiting
    out a backoff between attempts, at most ``backoff[1]`` seconds), and closes it after
    ``max_failures`` failed reads in a row so that the next read opens it again. It never raises; why a
    camera cannot be opened is kept in ``problem`` (the table says it with the camera's OFFLINE state,
    once, at WARNING) and logged here at INFO only, once per distinct reason.

    Args:
        opener: returns an open frame source (``vision.camera.open_camera``), raising if it cannot.
        clock: monotonic seconds.
        backoff: first and longest wait between attempts to open.
        max_failures: failed reads in a row before the source is closed and opened again.
    """

    def __init__(self, opener: Callable[[], Any], clock: Callable[[], float] = time.monotonic,
                 backoff: tuple[float, float] = (0.5, 10.0), max_failures: int = 30) -> None:
        self.opener = opener
        self.clock = clock
        self.backoff = backoff
        self.max_failures = max_failures
        self.opens = 0
        self._src: Any = None
        self._delay = backoff[0]
        self._next = 0.0
        self._failures = 0
        self._said: str | None = None
        self.problem = ""
        self._closed = threading.Event()

    def read(self) -> tuple[bool, Any]:
        if self._closed.is_set():
            return False, None
        if self._src is None and not self._open():
            return False, None
        try:
            ok, frame = self._src.read()
        except Exception as exc:  # noqa: BLE001 - a camera failing in any way is a camera offline
            log.warning("camera read failed: %s", exc)
            ok, frame = False, None
        if not ok or frame is None:
            self._failures += 1
            if self._failures >= self.max_failures:
                self._drop()
            return False, None
        self._failures, self._delay, self._said, self.problem = 0, self.backoff[0], None, ""
        return True, frame

    def _open(self) -> bool:
        wait = self._next - self.clock()
        if wait > 0:
            self._closed.wait(min(wait, 0.25))
            return False
        try:
            self._src = self.opener()
        except Exception as exc:  # noqa: BLE001 - CameraError, or whatever a driver raises
            text = str(exc)
            if text != self._said:
                log.info("%s; trying again", text)
                self._said = text
            self.problem = text
            self._next = self.clock() + self._delay
            self._delay = min(self._delay * 2, self.backoff[1])
            return False
        self.opens += 1
        self._failures = 0
        return True

    def _drop(self) -> None:
        src, self._src = self._src, None
        try:
            src.release()
        except Exception:  # noqa: BLE001
            pass
        self._next = self.clock() + self._delay
        self._delay = min(self._delay * 2, self.backoff[1])

    def release(self) -> None:
        self._closed.set()
        if self._src is not None:
            self._drop()
