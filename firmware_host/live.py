"""A real table built from its configuration: what ``cardtable run`` starts.

Devices come from ``config/table.toml``: the shoe (the open protocol, or a plain barcode scanner) on a
serial port, the camera, the pins. Configuration is validated before any device is touched.

The club procedure with a shoe (``ShoeProcedure``): the pack is shuffled by the dealer's partner and
the dealer and cut by the dealer's right-hand opponent before it goes into the shoe, so the shoe's
"pack loaded" (journaled) stands for that shuffle and cut; the host then starts the deal for the player
whose turn it is: once the last hand's result is in, or, for a bridge hand the table scored from its
cards, once it is scored (nothing is typed). When a ruling voids a deal, the host stops the shoe; when
that ruling is ``replace_pack``, the next deal waits for the director's acknowledgement as well (the
replacement pack is in).

A missing device is a state, not an error: the shoe link reopens its port with backoff, the camera is
opened (and reopened) with backoff (``table.adapters.ReopeningSource``), and their OFFLINE lamps say so.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_host.club.results import ResultError, parse_result
from firmware_host.config import Config
from firmware_host.records.journal import Journal
from firmware_host.table.adapters import CameraFeeder, ReopeningSource, ShoeAdapter, connect_shoe
from firmware_host.table.controller import DeviceStatus, DirectorCommand, Input, LawInput, TableController
from firmware_host.table.ordering import check_chain
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import PackCut, PackShuffled, event_to_dict
from laws.games.bridge_hand import scored_from_cards
from laws.state import Phase

log = logging.getLogger(__name__)


class ShoeProcedure:
    """Starts each deal on the shoe and stops a deal a ruling has voided.

    Its state lives in the journal (``TableController.loaded_pack``, the engine's shuffles and phase), so
    a restarted host carries on at the same step: ``resume`` after the controller is built.

    Args:
        ctl: the controller.
        link: a ``ShoeLink`` or ``ScannerLink``.
        game: the game (for the deal pattern).
    """

    def __init__(self, ctl: TableController, link: Any, game: str) -> None:
        self.ctl = ctl
        self.link = link
        self.game = game
        self.prepared_for = 0   # the deal (deals started + 1) whose shuffle and cut were submitted
        self.started_for = 0    # the deal START_DEAL was sent for by this process
        self.dealing_number = 0
        self.paused = False
        self.start_waiting = False  # a START_DEAL held back until the link has caught up with the shoe
        self.held_for = 0           # the deal said to wait for a replacement pack (said once)
        ctl.on_pack_loaded(lambda pack: self._prepare(ctl.engine.state.phase))
        ctl.on_fault(self.journal_fault)
        ctl.on_shoe_progress(self._shoe_progress)

    def _shoe_progress(self) -> None:
        """Controller thread, after a shoe message is committed or the shoe comes online: a deal held back
        goes out once the link has caught up (and only if the journal still says the pack is cut)."""
        if self.start_waiting and self._settled():
            self.start_waiting = False
            self.on_phase(self.ctl.engine.state.phase, self.ctl.engine)

    def new_pack_owed(self) -> bool:
        """The last deal stopped for a ``replace_pack`` (a damaged, unreadable or foreign card stays in the
        pack) and the director has not acknowledged since: no deal starts, whatever pack the shoe reports
        loaded. A shoe cannot tell a replacement pack from the same one put back (PACK_LOADED names no
        pack, hardware/shoe/PROTOCOL.md 7), and a dealer who puts the same pack in again would have it
        stop at the same card, deal after deal. The director's acknowledgement (his button, or the
        dashboard's) puts the NEW PACK lamp out: it says the pack has been replaced. Both are journaled, so a
        restarted host holds as the stopped one did."""
        d = self.ctl.engine.state.deal
        return d is not None and d.void and d.new_pack and bool(self.ctl.lamps.get("replace_pack"))

    def _settled(self) -> bool:
        """The journal holds all the shoe has said: the link has caught up with the shoe's past, and every
        message it delivered has been committed (the controller reached its ``AckPoint``). Caught up alone
        is not enough while the journal lags behind (a stall): the shoe's past may be delivered and not yet
        in the table's state. A link without a ring (the scanner) always is."""
        if not getattr(self.link, "caught_up", True):
            return False
        delivered = getattr(self.link, "delivered", 0)
        done = self.ctl.shoe_committed or self.ctl.shoe_mark
        return delivered <= 0 or (done is not None and done[0] == getattr(self.link, "boot_id", done[0])
                                  and done[1] >= delivered)

    def journal_fault(self, error: str | None) -> None:
        """Pause the deal while the journal cannot take its cards (the shoe holds only so many
        unacknowledged messages); resume it when the journal works again."""
        from firmware_host.shoe import messages as m

        if error is not None and self.ctl.engine.state.phase == Phase.DEALING and not self.paused:
            self.paused = True
            self.link.send(m.Pause())
        elif error is None and self.paused:
            self.paused = False
            self.link.send(m.Resume())

    def resume(self) -> None:
        """Continue the step the journal says the table is at (the restart of a host).

        A deal under way is resumed on the shoe as well: the host that stopped may have paused it for a
        journal that could not be written, and that PAUSE is in no journal (nothing could be written). A
        RESUME to a shoe that is not paused is ok and changes nothing (hardware/shoe/PROTOCOL.md 4.3); one
        to a shoe that has finished the deal meanwhile is answered bad state and changes nothing either.
        """
        from firmware_host.shoe import messages as m

        state = self.ctl.engine.state
        if state.phase == Phase.DEALING:
            self.dealing_number = state.deals_started  # the shoe is dealing it: stop it if it is voided
            self.link.send(m.Resume())
        self.on_phase(state.phase, self.ctl.engine)

    def _prepare(self, phase: Phase) -> None:
        """Record the shuffle and cut that loading the pack stands for (once per deal; after a restart
        only the steps the journal does not have yet)."""
        state = self.ctl.engine.state
        number = state.deals_started + 1
        ready = phase in (Phase.FORMING, Phase.SHUFFLE) or (phase is Phase.SCORING and scored_from_cards(state))
        if self.ctl.loaded_pack is None or self.prepared_for == number or not ready:
            return
        self.prepared_for = number
        dealer = state.next_dealer or Seat.N
        shuffles = [dealer.partner, dealer]
        done = list(state.shuffles)
        todo = shuffles[len(done):] if done == shuffles[:len(done)] else shuffles
        for event in (*(PackShuffled(s) for s in todo), PackCut(dealer.right)):
            self.ctl.submit(LawInput(event, "shoe"))

    def on_phase(self, phase: Phase, engine: LawEngine) -> None:
        """Controller thread: deal when the pack is cut; stop the shoe when the deal is void."""
        from firmware_host.shoe import messages as m
        from firmware_host.shoe.games import start_deal

        state = engine.state
        deal = state.deal
        if deal is not None and deal.void and deal.number == self.dealing_number:
            self.dealing_number = 0
            self.link.send(m.Abort())
        if phase == Phase.CUT:
            pack, number = self.ctl.loaded_pack, state.deals_started + 1
            if pack is not None and self.started_for != number and self.new_pack_owed():
                if self.held_for != number:
                    self.held_for = number
                    log.info("deal %d waits for the director: the last deal stopped for a replacement pack",
                             number)
                return
            if pack is not None and self.started_for != number:
                if not self._settled():
                    # A restarted host (or a link back after a cut) may not have seen yet a deal the
                    # shoe dealt meanwhile, still in its ring, or may have it delivered and not yet
                    # committed (a stalled journal): starting one now would deal the next pack.
                    self.start_waiting = True
                    return
                self.started_for = self.dealing_number = number
                self.link.send(start_deal(self.game, state.next_dealer or Seat.N, pack))
        elif phase in (Phase.FORMING, Phase.SHUFFLE, Phase.SCORING):
            self._prepare(phase)


class ClubCommands:
    """What the director's dashboard sends a table (``command/<kind>`` on the broker), handed to the
    controller as a ``DirectorCommand`` that it does once per id, across restarts (the ids are in its
    journal): an acknowledgement (the director's button), a result (checked again here, ``club.results``,
    and ruled on like any other event from source ``director``), a choice (``choose``: an option of an
    open claim), the outcome of the missing-card search (``search``), a euchre ``bid`` or ``discard``, a
    bridge ``call`` (checked by the controller against the table's own state, ``firmware_host.table.choices``). A command
    the link refused (``problem``) or whose result does not check out is journaled as a refusal. A
    ``correct`` (a deal's result corrected) is checked as a result is and journaled by the controller as a
    correction. ``ack``
    tells the broker, after the controller has committed the command's rows."""

    def __init__(self, game: str, submit: Callable[[Input], None]) -> None:
        self.game = game
        self.submit = submit

    def __call__(self, kind: str, body: dict[str, Any], problem: str = "",
                 ack: Callable[[], None] | None = None) -> None:
        cid = body.get("id")
        refused, event = problem, None
        if kind in ("result", "correct") and not refused:
            try:
                event = parse_result(self.game, body.get("result"))
            except ResultError as exc:
                refused = str(exc)
        by, payload = str(body.get("by", "?"))[:40], dict(body)
        if kind == "correct" and event is not None:  # the controller journals it as a correction, not an event
            payload = {"deal": body.get("deal"), "result": {k: v for k, v in event_to_dict(event).items() if k != "type"}}
            event = None
        self.submit(DirectorCommand(kind[:20], str(cid)[:64] if isinstance(cid, str) else "", by, payload, event,
                                    refused, ack))


@dataclass
class Table:
    """A running table and its devices."""

    cfg: Config
    ctl: TableController
    journal: Journal
    panel: Any
    link: Any | None = None
    camera: CameraFeeder | None = None
    capture: Any | None = None
    display: Any | None = None
    publisher: Any | None = None
    duplicate: Any | None = None
    results: Any | None = None
    stop_event: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        """Process inputs until ``stop()``."""
        self.ctl.run(self.stop_event)

    def stop(self) -> None:
        self.stop_event.set()
        for part in (self.camera, self.link):
            if part is not None:
                part.stop()
        if self.capture is not None:
            self.capture.release()
        if self.publisher is not None:
            self.publisher.stop()
        self.panel.close()
        if self.display is not None:
            self.display.close()
        self.journal.close()


def build_table(cfg: Config, *, display: Any | None = None, synchronous: str = "FULL") -> Table:
    """Open every device the configuration names and wire them to a controller.

    Args:
        cfg: the checked configuration.
        display: the terminal display, if any.
        synchronous: the journal's SQLite ``synchronous``: ``FULL`` (a table's: survives power loss) or
            ``NORMAL`` (survives a crash; the duplicate demo's simulated tables).

    Raises:
        firmware_host.devices.panel.PanelError, firmware_host.records.journal.JournalError,
        firmware_host.table.controller.ControllerError: a device or the journal cannot be used.
    """
    from firmware_host.devices.panel import Panel, make_pin_factory, use_lgpio_folder
    from firmware_host.devices.panel_retry import RetryingPanel

    cfg.table.data_dir.mkdir(parents=True, exist_ok=True)
    journal = Journal.open(cfg.table.data_dir, synchronous=synchronous)
    use_lgpio_folder(cfg.table.data_dir)  # before lgpio is first imported
    # A pin backend that cannot start is the panel offline (retried), not a configuration error.
    panel = RetryingPanel(lambda: Panel(cfg.pins, make_pin_factory(cfg.pins.factory), time.monotonic),
                          time.monotonic)
    try:
        ctl = TableController(game=cfg.table.game, journal=journal, panel=panel, clock=time.time,
                              table_id=cfg.table.id, table_name=cfg.table.name, display=display)
    except Exception:
        panel.close()
        journal.close()
        raise
    check_chain(ctl)    # a journal edited since it was written is said at every start, not refused
    panel.on_state(lambda online, why: ctl.submit(DeviceStatus("panel", online, why)))
    table = Table(cfg, ctl, journal, panel, display=display)
    if cfg.mqtt is not None:
        from firmware_host.tablelink import too_large
        from firmware_host.tablelink.publisher import MqttPublisher

        publisher = MqttPublisher(cfg.mqtt, cfg.table.id, journal, time.time, deals=ctl.deals())
        publisher.on_command(ClubCommands(cfg.table.game, ctl.submit), acknowledges=True)
        ctl.observers.append(publisher)
        # the status as restored, sent on connecting: else the broker's retained status (and the director's
        # page) stays the one left before the stop (a journal fault, another journal's phase) until an input
        publisher.status(ctl.snapshot())
        too_large.connect(publisher, ctl)   # a message the broker would refuse: a note, shown, not a loop
        if cfg.duplicate is not None and cfg.duplicate.session:
            from firmware_host.tablelink.duplicate_results import DuplicateResults, connect

            # the seating in, results out: wired here, before the publisher starts
            table.results = connect(DuplicateResults(ctl, publisher), ctl, publisher)
        if cfg.table.game == "euchre":
            from firmware_host.tablelink.euchre_night import NightTable
            from firmware_host.tablelink.euchre_night import connect as connect_night

            # a euchre night's seats in, hands out (docs/euchre.md): wired before the publisher starts
            table.results = connect_night(NightTable(ctl, publisher), ctl, publisher)
        publisher.start()
        table.publisher = publisher
    dup = cfg.duplicate
    if cfg.shoe.driver != "none":
        from firmware_host.shoe.link import ShoeLink
        from firmware_host.shoe.scanner import ScannerLink

        adapter = ShoeAdapter(ctl.submit, time.time, boards=dup is not None and dup.deal == "shoe")
        link: Any
        if cfg.shoe.driver == "scanner":
            link = ScannerLink(cfg.shoe.port, adapter, baudrate=cfg.shoe.baudrate)
        else:
            link = ShoeLink(cfg.shoe.port, adapter, baudrate=cfg.shoe.baudrate, auto_ack=False)
            connect_shoe(ctl, link, adapter)  # acknowledged after the commit; resumed after a restart
        if dup is None:
            procedure = ShoeProcedure(ctl, link, cfg.table.game)
            ctl.on_phase(procedure.on_phase)
            procedure.resume()  # START_DEAL waits in the link for the shoe's handshake
        table.link = link
    if dup is not None:
        table.duplicate = duplicate_procedure(cfg, ctl, table.link)
    if str(cfg.camera.source) != "none":
        table.camera, table.capture = _camera(cfg, ctl)
    panel.start()
    if table.link is not None:
        table.link.start()
    if table.camera is not None:
        table.camera.start()
    return table


def duplicate_procedure(cfg: Config, ctl: TableController, link: Any | None) -> Any:
    """A duplicate table's procedure (``table.duplicate``): its hand records read, its seating from the
    configuration (alone) or the club's session; resumed where the journal stopped.

    Raises:
        ConfigError: the hand records cannot be used, or name no board the configuration names (the
            message names the key, then the file, the board and what is wrong).
    """
    from firmware_host.duplicate.handrecords.table_records import table_records
    from firmware_host.table.duplicate import DuplicateProcedure, TableRound

    d = cfg.duplicate
    assert d is not None
    boards, wanted = table_records(d, cfg.source)   # as check-config checks them
    seating = None if d.session else TableRound(d.section, d.table, d.round, d.ns, d.ew, wanted)
    proc = DuplicateProcedure(ctl, boards, seating, "shoe" if d.deal == "shoe" else "board", link,
                              source="session" if d.session else "config", commitment=d.commitment)
    proc.resume()
    return proc


def _camera(cfg: Config, ctl: TableController) -> tuple[CameraFeeder, Any]:
    from vision.camera import CaptureThread, Exposure, SyntheticCamera, open_camera
    from vision.watcher import build_watcher, from_sections

    vcfg = from_sections(cfg.vision, cfg.zones, cfg.source, cfg.camera.decoder)   # a ValueError naming the key
    size = (cfg.camera.width, cfg.camera.height)
    if cfg.camera.source == "synthetic":
        source: Any = SyntheticCamera(size=size)
    else:
        exposure = Exposure(cfg.camera.exposure_us, cfg.camera.gain, cfg.camera.v4l2_gain)
        source = ReopeningSource(lambda: open_camera(cfg.camera.source, size, exposure))
    capture = CaptureThread(source, max_failures=sys.maxsize).start()  # the source itself never gives up
    watcher = build_watcher(vcfg, packs=())
    feeder = CameraFeeder(capture, watcher, ctl.submit, max_failures=3,
                          why=lambda: str(getattr(source, "problem", "")) or
                          f"camera {cfg.camera.source!r}: no frames from it")
    ctl.on_phase(feeder.set_phase)
    feeder.set_phase(ctl.engine.state.phase, ctl.engine)
    return feeder, capture
