"""The device adapters: shoe messages and camera frames into the controller's queue."""

from __future__ import annotations

import queue
import time
from typing import Any

from firmware_host.shoe import messages as m
from firmware_host.table.adapters import CameraFeeder, ShoeAdapter, vision_phase
from firmware_host.table.controller import (
    AckPoint,
    ButtonInput,
    DeviceNote,
    DeviceStatus,
    LawInput,
    PackLoaded,
)
from laws.cards import Card, Seat
from laws.engine import LawEngine
from laws.events import CardDealt, CardFaced, DealStarted
from laws.state import Phase


def test_shoe_adapter_maps_every_kind_of_message() -> None:
    got: list[Any] = []
    a = ShoeAdapter(got.append, lambda: 0.0, pack=lambda: "red", boot=lambda: 77)
    a(m.LinkStatus(False, "unplugged"))
    a(m.DealBegan(1, Seat.N, 0, (1,) * 13, ""))
    a(m.CardOut(2, 0, Seat.E, False, Card.parse("AS"), m.Orientation.UP, 90, "red"))
    a(m.ButtonPressed(3, Seat.W, m.ButtonKind.DEMAND))
    a(m.Jam(4, 7, False))
    a(m.DealFinished(5, m.FinishReason.COMPLETE, 52, 0))
    a(m.PackLoaded(6, ""))
    assert got[0] == DeviceStatus("shoe", False, "unplugged")
    # every numbered message: what it means, then the point where the shoe may be acknowledged
    assert [x for x in got if isinstance(x, AckPoint)] == [AckPoint(77, n) for n in range(1, 7)]
    got = [x for x in got if not isinstance(x, AckPoint)]
    assert isinstance(got[1], LawInput) and got[1].event == DealStarted(Seat.N, "red")
    assert got[1].mark == (77, 1)
    assert got[2] == LawInput(CardDealt(Seat.E, Card.parse("AS"), True, "red"), "shoe", (77, 2))
    assert got[3] == ButtonInput("W", "demand", (77, 3))
    assert isinstance(got[4], DeviceNote) and "jam" in got[4].text
    assert got[6] == PackLoaded("", (77, 6))
    assert a.deal_finished.is_set()


def test_a_deal_the_shoe_does_not_name_has_an_unknown_pack() -> None:
    """Two packs in turn: the previous deal's pack says nothing about this one's."""
    got: list[Any] = []
    ShoeAdapter(got.append, lambda: 0.0)(m.DealBegan(1, Seat.N, 0, (1,) * 13, ""))
    assert got[0].event == DealStarted(Seat.N, "unknown")


class _Flaky:
    """A camera that gives no frames for a while, then frames again."""

    def __init__(self, bad: int) -> None:
        self.bad = bad

    def read(self) -> tuple[bool, Any]:
        if self.bad > 0:
            self.bad -= 1
            return False, None
        return True, object()


class _Watcher:
    def __init__(self) -> None:
        self.phase = "idle"

    def set_phase(self, phase: str, **kw: Any) -> None:
        self.phase = phase

    def feed(self, frame: Any) -> list[Any]:
        return [CardFaced(Card.parse("QH"), "cut")] if self.phase == "cut" else []

    def take_notes(self) -> list[str]:
        return ["South's bidding card 2H lies in West's zone"] if self.phase == "auction" else []

    def take_members(self) -> list[tuple[str, str]]:
        return []


def test_camera_feeder_reports_offline_then_online_and_submits_events() -> None:
    q: queue.Queue[Any] = queue.Queue()
    watcher = _Watcher()
    feeder = CameraFeeder(_Flaky(12), watcher, q.put, max_failures=10)
    eng = LawEngine("contract-bridge")
    eng.state.shuffles.append(Seat.N)
    feeder.set_phase(Phase.SHUFFLE, eng)
    assert watcher.phase == "cut"
    feeder.start()
    seen: list[Any] = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(isinstance(x, LawInput) for x in seen):
        try:
            seen.append(q.get(timeout=0.2))
        except queue.Empty:
            pass
    feeder.stop()
    statuses = [x for x in seen if isinstance(x, DeviceStatus)]
    assert statuses[:2] == [DeviceStatus("camera", False, "no frames from the camera"), DeviceStatus("camera", True)]
    assert any(isinstance(x, LawInput) and x.source == "camera" for x in seen)


def test_vision_phase_table() -> None:
    eng = LawEngine("euchre")
    assert vision_phase(Phase.FORMING, eng) == "draw"
    assert vision_phase(Phase.SHUFFLE, eng) == "shuffle"
    eng.state.shuffles.append(Seat.S)
    assert vision_phase(Phase.SHUFFLE, eng) == "cut"
    assert vision_phase(Phase.DEALING, eng) == "deal"
    assert vision_phase(Phase.PLAY, eng) == "play"
    assert vision_phase(Phase.AUCTION, eng) == "play"  # euchre's making of trump has no bidding cards
    assert vision_phase(Phase.SCORING, eng) == "idle"


def test_a_bridge_auction_is_the_watchers_auction() -> None:
    eng = LawEngine("contract-bridge")
    assert vision_phase(Phase.AUCTION, eng) == "auction"
    assert vision_phase(Phase.PLAY, eng) == "play"
    assert vision_phase(Phase.DEALING, eng) == "deal"


def test_the_watchers_notes_go_to_the_controller_as_the_cameras_device_notes() -> None:
    q: queue.Queue[Any] = queue.Queue()
    watcher = _Watcher()
    feeder = CameraFeeder(_Flaky(0), watcher, q.put)
    feeder.set_phase(Phase.AUCTION, LawEngine("contract-bridge"))
    assert watcher.phase == "auction"
    assert feeder.step() == 0
    assert list(q.queue) == [DeviceNote("camera", "South's bidding card 2H lies in West's zone")]


def test_a_camera_missing_at_first_is_opened_later_and_reopened_after_failing() -> None:
    from firmware_host.table.adapters import ReopeningSource

    now = [0.0]
    attempts: list[float] = []
    cams: list[_Flaky] = []

    def opener() -> _Flaky:
        attempts.append(now[0])
        if len(attempts) < 3:
            raise RuntimeError("camera '/dev/video9': cannot open")
        cams.append(_Flaky(bad=0))
        return cams[-1]

    src = ReopeningSource(opener, clock=lambda: now[0], backoff=(0.5, 1.0), max_failures=2)
    for _ in range(2):  # missing: one attempt, then none until the backoff has passed
        assert src.read() == (False, None)
        now[0] += 0.6
    assert src.read() == (False, None)   # the second attempt failed; the wait doubles (to the cap)
    now[0] += 1.1
    ok, _ = src.read()
    assert ok and attempts == [0.0, 0.6, 2.3] and src.opens == 1
    cams[-1].bad = 5  # it stops giving frames: after two failures it is closed and opened again
    assert src.read() == (False, None) and src.read() == (False, None)
    now[0] += 1.0
    ok, _ = src.read()
    assert ok and src.opens == 2
    src.release()
    assert src.read() == (False, None)


def test_camera_feeder_says_the_camera_is_online_at_its_first_frame() -> None:
    """Found by the soak (issue 20): a table restarted while its journal had the camera offline never
    journaled it back, because the feeder assumed it online from the start and reported only changes.
    The feeder now reports the first state it finds (the controller journals only a change)."""
    q: queue.Queue[Any] = queue.Queue()
    feeder = CameraFeeder(_Flaky(0), _Watcher(), q.put, max_failures=10)
    feeder.start()
    try:
        first = q.get(timeout=10)
    finally:
        feeder.stop()
    assert first == DeviceStatus("camera", True)
