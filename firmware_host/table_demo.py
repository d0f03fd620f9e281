"""``cardtable demo``: a whole simulated table, ruled by the real law engine.

The virtual shoe (the reference firmware on a real pseudo-terminal) deals; the synthetic camera renders
the table and the real decoder reads it; the lamps and buttons are gpiozero devices on MockFactory pins;
the journal is SQLite. A narrator plays the people at the table: they shuffle, cut, press buttons and
make mistakes. Every ruling and lamp appears as it happens; the journal and a PBN file of the bridge
deals stay in the output folder.

The bridge hands are played (``firmware_host.players``): a real auction and legal play, so every result
is one the cards allow. The first hand's calls are bidding cards the camera reads in each seat's zone and
its opening lead is seen in the centre; the second hand is bid without bidding cards, as a club without
them would: passes are two presses of a seat's button, bids the director enters from the dashboard's path
(a checked ``call`` command). The rest of the cards are played by the script. The PBN file carries each
hand's auction and play sections.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.config import Config, load_config
from firmware_host.devices.display import TerminalDisplay
from firmware_host.devices.panel import Panel
from firmware_host.players import HandPlan, plan_hand
from firmware_host.records.journal import Journal
from firmware_host.table.adapters import CameraFeeder, ShoeAdapter, connect_shoe
from firmware_host.table.controller import DirectorCommand, LawInput, TableController
from laws.bridge.calls import Call, bid
from laws.cards import Seat
from laws.events import Event, event_from_dict
from laws.state import Phase

log = logging.getLogger(__name__)
PLAYERS = {"contract-bridge": [["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"]],
           "euchre": [["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "7C"]]}


@dataclass
class Rig:
    """One simulated table: devices, controller, display."""

    game: str
    cfg: Config
    ctl: TableController
    display: TerminalDisplay
    shoe: Any
    link: Any
    adapter: ShoeAdapter
    factory: Any
    panel: Panel
    journal: Journal
    camera: CameraFeeder | None
    scene: Any | None
    stop: threading.Event
    thread: threading.Thread
    seen: _Seen

    # -- the people at the table ----------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.display.say(f"» {text}", "bold cyan")

    def script(self, kind: str, **fields: Any) -> None:
        """Something a person reports at the table (through the director's terminal)."""
        self.submit(event_from_dict({"type": kind, **fields}), "script")

    def submit(self, event: Event, source: str) -> None:
        self.ctl.submit(LawInput(event, source))
        self.ctl.queue.join()

    def shuffle_and_cut(self, dealer: Seat) -> None:
        self.script("shuffle", seat=dealer.partner.value)
        self.script("shuffle", seat=dealer.value)
        self.script("cut", seat=dealer.right.value, top=21, bottom=31 if self.game != "euchre" else 11)

    def press(self, who: str, times: int = 1) -> None:
        """Press a seat's button on the panel (real gpiozero mock pins, real press decoding)."""
        name = "director_ack" if who == "director" else f"seat_{who}"
        pin = self.factory.pin(self.cfg.pins.buttons[name])
        for _ in range(times):
            pin.drive_low()
            time.sleep(0.06)
            pin.drive_high()
            time.sleep(0.06)
        time.sleep(self.cfg.pins.double_press + 0.15)  # let a single press be decided
        self.ctl.queue.join()

    def deal(self, dealer: Seat, pack: str, inject: str | None = None,
             pattern: tuple[int, ...] | None = None) -> None:
        """The shoe deals; a ruling that voids the deal stops the shoe."""
        from firmware_host.shoe import messages as m
        from firmware_host.shoe.games import start_deal

        if inject:
            self.shoe.inject(inject)
        self.shoe.load_pack(pack)
        self.adapter.deal_finished.clear()
        before = self.ctl.engine.state.deals_started
        cmd = start_deal(self.game, dealer, pack)
        if pattern is not None:
            cmd = m.StartDeal(dealer, pattern, cmd.turn_up, pack)
        self.link.send(cmd)
        deadline = time.monotonic() + 20
        aborted = False
        while time.monotonic() < deadline and not self.adapter.deal_finished.is_set():
            d = self.ctl.engine.state.deal
            if not aborted and d is not None and d.void and d.number > before:
                self.link.send(m.Abort())
                aborted = True
            time.sleep(0.01)
        self.ctl.queue.join()

    def start_and_pause(self, dealer: Seat, pack: str, after: int) -> None:
        """Start a deal and pause the shoe once ``after`` cards of it have been dealt."""
        from firmware_host.shoe import messages as m
        from firmware_host.shoe.games import start_deal

        self.shoe.load_pack(pack)
        self.adapter.deal_finished.clear()
        before = self.ctl.engine.state.deals_started
        self.link.send(start_deal(self.game, dealer, pack))

        def far_enough() -> bool:
            d = self.ctl.engine.state.deal
            return d is not None and d.number > before and d.cards_dealt >= after

        wait(self, far_enough)
        self.link.send(m.Pause())
        self.ctl.queue.join()

    def abort_deal(self) -> None:
        """Stop the shoe's deal (the table obeys a ruling that voided it)."""
        from firmware_host.shoe import messages as m

        self.link.send(m.Abort())
        wait(self, self.adapter.deal_finished.is_set)
        self.ctl.queue.join()

    def enter_call(self, seat: Seat, call: Call) -> None:
        """The director enters a call for a player, as the dashboard's ``command/call`` does."""
        self.ctl.submit(DirectorCommand("call", f"demo-{self.seen.count('call')}", "director",
                                        {"seat": seat.value, "call": call.code}))
        self.ctl.queue.join()

    def camera_sees(self, frames: int = 6) -> None:
        """Let the camera look at the table for a few frames."""
        if self.camera is None:
            return
        for _ in range(frames):
            self.camera.step()
        self.ctl.queue.join()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.link.stop()
        self.shoe.close()
        self.panel.close()
        self.display.close()
        self.journal.close()


def build_rig(game: str, out: Path, seed: int, with_camera: bool = True) -> Rig:
    from gpiozero.pins.mock import MockFactory

    from firmware_host.shoe.link import ShoeLink
    from firmware_host.shoe.virtual import VirtualShoe

    cfg = load_config(None, env={}, check_devices=False)
    data = out / game
    data.mkdir(parents=True, exist_ok=True)
    factory = MockFactory()
    panel = Panel(cfg.pins, factory, time.monotonic)
    panel.start()
    journal = Journal.open(data)
    display = TerminalDisplay(deal_size=52 if game == "contract-bridge" else 20,
                              title=f"cardtable demo — {game}")
    ctl = TableController(game=game, journal=journal, panel=panel, clock=time.time, display=display,
                          table_id=f"demo-{game}")
    # the cable stays out long enough for the link to call the shoe offline (1.5 s of silence)
    shoe = VirtualShoe(game, seed=seed, packs=("R1", "B1"), down_ms=1800)
    adapter = ShoeAdapter(ctl.submit, time.time)
    link = ShoeLink(shoe.open(), adapter, auto_ack=False)
    connect_shoe(ctl, link, adapter)
    link.start()
    camera, scene = _camera(ctl) if with_camera else (None, None)
    stop = threading.Event()
    thread = threading.Thread(target=ctl.run, args=(stop,), name="controller", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not link.online and time.monotonic() < deadline:
        time.sleep(0.01)
    seen = _Seen()
    ctl.observers.append(seen)
    return Rig(game, cfg, ctl, display, shoe, link, adapter, factory, panel, journal, camera, scene, stop,
               thread, seen)


class _Seen:
    """An observer of the table counting the events it journaled, by type (did the camera see the call?)."""

    def __init__(self) -> None:
        self.types: list[str] = []

    def count(self, kind: str) -> int:
        return self.types.count(kind)

    def event(self, event: dict[str, Any], deal: int, seq: int) -> None:
        self.types.append(str(event.get("type")))

    def status(self, *told: Any) -> None:
        """Statuses, rulings, deals over and pack health: nothing to count."""

    ruling = deal_over = pack_health = status


def _camera(ctl: TableController) -> tuple[CameraFeeder | None, Any | None]:
    try:
        from vision.camera import SyntheticCamera
        from vision.render import Scene
        from vision.watcher import build_watcher
        from vision.zones import parse_vision_config
    except ImportError as exc:  # pragma: no cover - vision is part of the package
        log.warning("no camera in the demo: %s", exc)
        return None, None
    scene = Scene()
    source = SyntheticCamera(scene, size=(1280, 720))
    watcher = build_watcher(parse_vision_config({}), clock=time.monotonic)
    feeder = CameraFeeder(source, watcher, ctl.submit)
    ctl.on_phase(feeder.set_phase)
    feeder.set_phase(ctl.engine.state.phase, ctl.engine)
    return feeder, scene


def wait(rig: Rig, cond: Callable[[], bool], timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.01)
    return False


def bridge_table(rig: Rig) -> None:
    from laws.cards import Card

    N, E, W = Seat.N, Seat.E, Seat.W
    rig.say("Contract Bridge. Four players draw for partners and seats; the camera reads their cards.")
    _draw(rig, "contract-bridge")
    rig.script("packs", owners={"NS": "R1", "EW": "B1"})
    rig.say("South and North shuffle; West cuts, and the queen of hearts shows face up in the cut.")
    rig.script("shuffle", seat="S")
    rig.script("shuffle", seat="N")
    if rig.scene is not None:
        rig.scene.place(Card.parse("QH"), "R1", zone="cut")
        rig.camera_sees()
        rig.scene.clear()
        rig.camera_sees(6)
    else:
        rig.submit(event_from_dict({"type": "card_faced", "card": "QH", "where": "cut"}), "camera")
    rig.say("A new shuffle and cut. The shoe deals; its 12th card comes out face up.")
    rig.shuffle_and_cut(N)
    rig.deal(N, "R1", inject="face_up@12")
    rig.say("East double-presses his button: he wants a new shuffle before the redeal starts.")
    rig.shuffle_and_cut(N)
    rig.press("E", times=2)
    rig.say("Shuffled and cut again; the shoe's cable drops mid-deal and comes back.")
    rig.shuffle_and_cut(N)
    rig.deal(N, "R1", inject="drop@30")
    rig.say("Before the opening lead South counts fourteen cards and West twelve.")
    rig.script("hand_count", seat="S", count=14)
    rig.script("hand_count", seat="W", count=12)
    rig.say("The redeal: a card's code will not read — it is torn.")
    rig.shuffle_and_cut(N)
    rig.deal(N, "R1", inject="unreadable@20")
    rig.say("The director brings a fresh pack for North-South and acknowledges the lamps.")
    rig.script("packs", owners={"NS": "R2", "EW": "B1"})
    rig.press("director")
    rig.say("Redeal with the new pack; one card is missing from it.")
    rig.shuffle_and_cut(N)
    rig.deal(N, "R2", inject="missing@40")
    rig.say("The table searches for it; the director declares it not found, so the deal is redealt.")
    deal = rig.ctl.engine.state.deal
    short = deal.search if deal is not None and deal.search is not None else N
    rig.script("missing_card", card=None, seat=short.value, found=None)
    rig.say("The pack is made complete again. A clean deal at last.")
    rig.shuffle_and_cut(N)
    rig.deal(N, "R2")
    play_hand(rig, N, bidding_cards=True)
    rig.say("East's deal, but West picks up the shoe and starts dealing.")
    rig.shuffle_and_cut(E)
    _deal_out_of_turn(rig, W, "B1")
    rig.say("North presses his button to demand the redeal before the last card.")
    rig.press("N")
    rig.abort_deal()
    rig.shuffle_and_cut(E)
    rig.deal(E, "B1")
    rig.say("The bidding boxes have gone to another table: passes are two presses of a seat's button, and "
            "the director enters the bids.")
    play_hand(rig, E, bidding_cards=False)


SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def play_hand(rig: Rig, dealer: Seat, bidding_cards: bool) -> HandPlan | None:
    """The players bid and play the deal just dealt (``firmware_host.players``), and the result is
    recorded. With ``bidding_cards`` (and a camera) each call is a bidding card laid in its seat's zone and
    the opening lead is laid in the centre, for the camera; otherwise passes are two presses of the seat's
    button and bids are entered by the director. A call or lead the camera does not confirm is entered by
    the director (or the script), as at a real table."""
    d = rig.ctl.engine.state.deal
    if d is None or d.void or any(len(d.hands[s]) != 13 for s in Seat):
        rig.display.note("the deal is not known whole; the hand is not played")
        return None
    plan = plan_hand(dealer, {s: list(d.hands[s]) for s in Seat})
    words = ", ".join(f"{SEAT_WORDS[s.value]} {c.words}" for s, c in plan.calls)
    rig.say(f"The auction: {words}.")
    copies: dict[tuple[Seat, str], int] = {}
    for seat, call in plan.calls:
        before = rig.seen.count("call")
        if bidding_cards and rig.scene is not None:
            n = copies[(seat, call.code)] = copies.get((seat, call.code), 0) + 1
            rig.scene.place_call(seat, call, str(n))
            rig.camera_sees(4)
            if rig.seen.count("call") == before:
                rig.display.note(f"the camera did not confirm {SEAT_WORDS[seat.value]}'s call; the director enters it")
                rig.enter_call(seat, call)
        elif call.code == "pass":
            rig.press(seat.value, times=2)
        else:
            rig.enter_call(seat, call)
    if plan.contract is None or plan.declarer is None:
        rig.say("Four passes: the deal is passed out.")
        if rig.scene is not None:
            rig.scene.clear_calls()
        return plan
    leader, lead = plan.plays[0]
    rest = plan.plays[1:]
    if bidding_cards and rig.scene is not None:
        before = rig.seen.count("card_played")
        rig.scene.place(lead, d.pack, zone="centre", toward=leader.value)
        rig.camera_sees(4)
        if rig.seen.count("card_played") == before:
            rig.display.note("the camera did not confirm the opening lead; it is entered")
            rest = plan.plays
        rig.scene.clear()  # the bidding cards go back in the boxes once the lead is faced
    else:
        rest = plan.plays
    for seat, card in rest:
        rig.script("card_played", seat=seat.value, card=card.code)
    assert plan.tricks is not None and plan.contract_text is not None
    need = 6 + plan.contract.level
    how = "makes it" if plan.tricks >= need else f"goes down {need - plan.tricks}"
    rig.say(f"{SEAT_WORDS[plan.declarer.value]} plays {_contract_words(plan)} and takes {plan.tricks} tricks: {how}.")
    if rig.ctl.engine.state.phase is Phase.PLAY:  # the 52nd card ends the play itself: play_end then is refused
        rig.script("play_end")
    rig.script("result", declarer=plan.declarer.value, contract=plan.contract_text, tricks=plan.tricks)
    return plan


def _contract_words(plan: HandPlan) -> str:
    c = plan.contract
    assert c is not None
    return bid(c.level, c.strain).words + {0: "", 1: " doubled", 2: " redoubled"}[c.doubled]


def _deal_out_of_turn(rig: Rig, dealer: Seat, pack: str) -> None:
    """The wrong player deals; the dealer pauses after a few cards so the players can object."""
    rig.start_and_pause(dealer, pack, after=8)


def _draw(rig: Rig, game: str) -> None:
    from laws.cards import Card

    cuts = PLAYERS[game]
    zones = ["N", "S", "E", "W"]  # where each candidate stands, in order of arrival
    if rig.scene is not None and rig.camera is not None:
        rig.camera.draw_names({z: name for z, (name, _) in zip(zones, cuts)})
        for z, (_, card) in zip(zones, cuts):
            rig.scene.place(Card.parse(card), "R1", zone=z)
        rig.camera_sees(6)
        rig.scene.clear()
        rig.camera_sees(6)
        if rig.ctl.engine.state.players:
            return
        rig.display.note("the camera did not confirm the draw; the director enters it")
    rig.script("draw", cuts=cuts)


def euchre_table(rig: Rig) -> None:
    from laws.cards import Card

    N, E = Seat.N, Seat.E
    rig.say("Euchre, Somerset Club laws. The knave is highest in the draw.")
    _draw(rig, "euchre")
    rig.script("packs", owners={"NS": "R1", "EW": "B1"})
    rig.say("North deals, but gives East one card and moves on: a misdeal.")
    rig.shuffle_and_cut(N)
    rig.deal(N, "R1", pattern=(1, 4))
    rig.say("The deal has passed to East. While he deals, a card turns face up on the table.")
    rig.shuffle_and_cut(E)
    rig.start_and_pause(E, "B1", after=3)
    if rig.scene is not None:
        rig.scene.place(Card.parse("KD"), "B1", zone="S")
        rig.camera_sees()
        rig.scene.clear()
    else:
        rig.submit(event_from_dict({"type": "card_faced", "card": "KD", "where": "deal"}), "camera")
    rig.say("South claims the new deal with his button.")
    rig.press("S")
    rig.abort_deal()
    if rig.scene is not None:
        rig.camera_sees(6)
    rig.say("East deals again; the shoe turns up the trump card.")
    rig.shuffle_and_cut(E)
    rig.deal(E, "B1")
    trump = rig.ctl.engine.state.deal.trump_card if rig.ctl.engine.state.deal else None
    suit = trump.suit if trump else "H"
    rig.script("trump_made", seat="S", suit=suit)
    rig.say("After the turn West finds he holds only four cards.")
    rig.script("hand_count", seat="W", count=4)
    rig.script("play_end")
    rig.script("result", makers="NS", alone=False, tricks=3)


def quick_table(rig: Rig) -> None:
    """A short session (``cardtable demo --quick``): the draw, one clean deal, its result."""
    N = Seat.N
    rig.say(f"{rig.game}: four players draw for partners and seats.")
    rig.script("draw", cuts=PLAYERS[rig.game])
    rig.script("packs", owners={"NS": "R1", "EW": "B1"})
    rig.say("Shuffled and cut; the shoe deals one clean deal.")
    rig.shuffle_and_cut(N)
    rig.deal(N, "R1")
    if rig.game == "euchre":
        trump = rig.ctl.engine.state.deal.trump_card if rig.ctl.engine.state.deal else None
        rig.script("trump_made", seat="E", suit=trump.suit if trump else "H")
        rig.script("play_end")
        rig.script("result", makers="EW", alone=False, tricks=3)
    else:
        play_hand(rig, N, bidding_cards=False)


def run_demo(out: Path, seed: int = 7, camera: bool = True, quick: bool = False) -> int:
    from firmware_host.config import load_config
    from firmware_host.records.pbn import deals_from_events, session_tags, write_pbn

    # the name `cardtable export pbn` reads from the configuration, so both files say the same
    table_name = load_config(None, env={}, check_devices=False).table.name

    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    summary = []
    sessions = ((("contract-bridge", quick_table), ("euchre", quick_table)) if quick else
                (("contract-bridge", bridge_table), ("euchre", euchre_table)))
    for game, session in sessions:
        rig = build_rig(game, out, seed, with_camera=camera and not quick)
        try:
            session(rig)
        finally:
            rig.close()
        with Journal.open(out / game) as j:
            check = j.verify()
            events = list(j.events())
            rulings = sum(1 for row in j.rows() if row.kind == "ruling")
        line = f"{game}: {len(events)} events, {rulings} rulings, {check.message()}"
        if game == "contract-bridge":
            deals = deals_from_events(events, **session_tags(table_name))
            write_pbn(out / "bridge.pbn", deals)
            line += f"; {len(deals)} completed deals in {out / 'bridge.pbn'}"
        summary.append(line)
    print()
    for line in summary:
        print(line)
    print(f"journals and PBN in {out} ({time.monotonic() - t0:.1f} s)")
    print("A whole duplicate evening of such tables, on a local broker (needs mosquitto): cardtable duplicate "
          "demo --tables 8 --boards 24 --movement mitchell --foul 2 --out DIR")
    return 0
