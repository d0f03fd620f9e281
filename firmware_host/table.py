"""A real table built from its configuration: what ``cardtable run`` starts.

Devices come from ``config/table.toml``: the shoe (the open protocol, or a plain barcode scanner) on a
serial port, the camera, the pins. Configuration is validated before any device is touched.

The club procedure with a shoe (``ShoeProcedure``): the pack is shuffled by the dealer's partner and
the dealer and cut by the dealer's right-hand opponent before it goes into the shoe, so the shoe's
"pack loaded" stands for that shuffle and cut; the host then starts the deal for the player whose turn
it is. When a ruling voids a deal, the host stops the shoe.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_host.club.results import ResultError, parse_result
from firmware_host.config import Config
from firmware_host.controller import ButtonInput, DeviceNote, Input, LawInput, TableController
from firmware_host.journal import Journal
from firmware_host.wiring import CameraFeeder, ShoeAdapter
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import PackCut, PackShuffled
from laws.state import Phase

log = logging.getLogger(__name__)


class ShoeProcedure:
    """Starts each deal on the shoe and stops a deal a ruling has voided.

    Args:
        ctl: the controller.
        link: a ``ShoeLink`` or ``ScannerLink``.
        game: the game (for the deal pattern).
    """

    def __init__(self, ctl: TableController, link: Any, game: str) -> None:
        self.ctl = ctl
        self.link = link
        self.game = game
        self.pending_pack: str | None = None
        self.prepared = False
        self.dealing_number = 0
        self._lock = threading.Lock()

    def pack_loaded(self, pack: str) -> None:
        """From the shoe's reader thread: a pack is in the shoe."""
        with self._lock:
            self.pending_pack = pack  # "" when the shoe cannot tell before reading a card
        self._prepare(self.ctl.engine.state.phase)

    def _prepare(self, phase: Phase) -> None:
        """Record the shuffle and cut that loading the pack stands for (once per pack)."""
        with self._lock:
            if self.pending_pack is None or self.prepared or phase not in (Phase.FORMING, Phase.SHUFFLE):
                return
            self.prepared = True
        dealer = self.ctl.engine.state.next_dealer or Seat.N
        for event in (PackShuffled(dealer.partner), PackShuffled(dealer), PackCut(dealer.right)):
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
            with self._lock:
                pack, self.pending_pack, self.prepared = self.pending_pack, None, False
            if pack is not None:
                self.dealing_number = state.deals_started + 1
                self.link.send(start_deal(self.game, state.next_dealer or Seat.N, pack))
        elif phase == Phase.SHUFFLE:
            self._prepare(phase)


class ProcedureAdapter(ShoeAdapter):
    """The shoe adapter that also tells the procedure about loaded packs."""

    def __init__(self, procedure: ShoeProcedure | None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.procedure = procedure

    def __call__(self, msg: Any) -> None:
        from firmware_host.shoe import messages as m

        super().__call__(msg)
        if isinstance(msg, m.PackLoaded) and self.procedure is not None:
            self.procedure.pack_loaded(msg.pack)


class ClubCommands:
    """What the director's dashboard sends a table (``command/<kind>`` on the broker): an acknowledgement
    is the director's button here; a result is checked again (``club.results``) and ruled on like any
    other event, from source ``director``. A command id seen before (QoS 1 may deliver twice) or a result
    that does not check out is journaled as a note and goes no further."""

    def __init__(self, game: str, submit: Callable[[Input], None], remember: int = 256) -> None:
        self.game = game
        self.submit = submit
        self._seen: deque[str] = deque(maxlen=remember)

    def __call__(self, kind: str, body: dict[str, Any]) -> None:
        cid = body.get("id")
        if isinstance(cid, str):
            if cid in self._seen:
                log.info("club command %s %s delivered again; done once already", kind, cid)
                return
            self._seen.append(cid)
        if kind == "ack":
            self.submit(ButtonInput("director", "ack"))
        elif kind == "result":
            try:
                event = parse_result(self.game, body.get("result"))
            except ResultError as exc:
                self.submit(DeviceNote("club", f"result from {str(body.get('by', '?'))[:40]} refused: {exc}"))
                return
            self.submit(LawInput(event, "director"))


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


def build_table(cfg: Config, *, display: Any | None = None) -> Table:
    """Open every device the configuration names and wire them to a controller.

    Raises:
        firmware_host.panel.PanelError, firmware_host.journal.JournalError,
        firmware_host.controller.ControllerError: a device or the journal cannot be used.
    """
    from firmware_host.panel import Panel, make_pin_factory

    cfg.table.data_dir.mkdir(parents=True, exist_ok=True)
    journal = Journal.open(cfg.table.data_dir)
    panel = Panel(cfg.pins, make_pin_factory(cfg.pins.factory), time.monotonic)
    try:
        ctl = TableController(game=cfg.table.game, journal=journal, panel=panel, clock=time.time,
                              table_id=cfg.table.id, display=display)
    except Exception:
        panel.close()
        journal.close()
        raise
    table = Table(cfg, ctl, journal, panel, display=display)
    if cfg.mqtt is not None:
        from firmware_host.club.publisher import MqttPublisher

        publisher = MqttPublisher(cfg.mqtt, cfg.table.id, journal, time.time)
        publisher.on_command(ClubCommands(cfg.table.game, ctl.submit))
        ctl.observers.append(publisher)
        publisher.start()
        table.publisher = publisher
    if cfg.shoe.driver != "none":
        from firmware_host.shoe.link import ShoeLink
        from firmware_host.shoe.scanner import ScannerLink

        adapter = ProcedureAdapter(None, ctl.submit, time.time,
                                   pack=lambda: ctl.engine.state.deal.pack if ctl.engine.state.deal else None)
        if cfg.shoe.driver == "scanner":
            link = ScannerLink(cfg.shoe.port, adapter, baudrate=cfg.shoe.baudrate)
        else:
            link = ShoeLink(cfg.shoe.port, adapter, baudrate=cfg.shoe.baudrate)
        procedure = ShoeProcedure(ctl, link, cfg.table.game)
        adapter.procedure = procedure
        ctl.on_phase(procedure.on_phase)
        table.link = link
    if str(cfg.camera.source) != "none":
        table.camera, table.capture = _camera(cfg, ctl)
    panel.start()
    if table.link is not None:
        table.link.start()
    if table.camera is not None:
        table.camera.start()
    return table


def _camera(cfg: Config, ctl: TableController) -> tuple[CameraFeeder, Any]:
    from vision.camera import CaptureThread, Exposure, SyntheticCamera, open_camera
    from vision.watcher import build_watcher
    from vision.zones import parse_vision_config

    vcfg = parse_vision_config(dict(cfg.vision))
    size = (cfg.camera.width, cfg.camera.height)
    source = SyntheticCamera(size=size) if cfg.camera.source == "synthetic" else \
        open_camera(cfg.camera.source, size,
                    Exposure(cfg.camera.exposure_us, cfg.camera.gain, cfg.camera.v4l2_gain))
    capture = CaptureThread(source).start()
    watcher = build_watcher(vcfg, packs=())
    feeder = CameraFeeder(capture, watcher, ctl.submit)
    ctl.on_phase(feeder.set_phase)
    feeder.set_phase(ctl.engine.state.phase, ctl.engine)
    return feeder, capture
