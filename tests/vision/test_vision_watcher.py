"""Scripted scenes through the synthetic camera, the real decoder and the watcher: the right law events."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from conftest import MILD, SMALL, card

from laws.cards import Seat
from laws.events import CardFaced, CardPlayed, CardsDrawn, DamagedCardFound, Event
from vision.camera import SyntheticCamera
from vision.decode import make_decoder
from vision.watcher import TableWatcher


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        self.now += 0.1
        return self.now


def _table(packs: tuple[str, ...] = ("B7",)) -> tuple[SyntheticCamera, TableWatcher]:
    cam = SyntheticCamera(size=SMALL, degrade=MILD, seed=5)
    watcher = TableWatcher(make_decoder("zxing"), k=2, n=3, m=3, clock=FakeClock(), packs=packs)
    return cam, watcher


def _frames(cam: SyntheticCamera, watcher: TableWatcher, n: int) -> list[Event]:
    out: list[Event] = []
    for _ in range(n):
        ok, frame = cam.read()
        assert ok
        out += watcher.feed(frame)
    return out


def test_card_faced_in_the_cut() -> None:
    cam, w = _table()
    w.set_phase("cut")
    cam.scene.place(card("QH"), "B7", zone="cut")
    events = _frames(cam, w, 3)
    assert [(type(e), e.card, e.where, e.pack) for e in events] == [(CardFaced, card("QH"), "cut", "B7")]
    assert events[0].t is not None


def test_card_exposed_in_the_deal_and_one_frame_is_not_enough() -> None:
    cam, w = _table()
    w.set_phase("deal")
    assert _frames(cam, w, 2) == []
    cam.scene.place(card("2C"), "B7", zone="S")
    assert _frames(cam, w, 1) == []  # one sighting never becomes an event
    events = _frames(cam, w, 2)
    assert events == [CardFaced(card("2C"), "deal", pack="B7", t=events[0].t)]
    assert _frames(cam, w, 3) == []  # still lying there: no repeat


def test_a_glimpse_in_one_frame_gives_nothing() -> None:
    cam, w = _table()
    w.set_phase("deal")
    cam.scene.place(card("5D"), "B7", zone="E")
    assert _frames(cam, w, 1) == []
    cam.scene.clear()
    assert _frames(cam, w, 4) == []


def test_gone_after_m_frames_then_seen_again_is_not_a_second_exposure() -> None:
    """A card hidden (a hand over it) for more than m frames is gone; seen again, it is the same card
    and tells nothing new in the same phase. In the next phase it is news again."""
    cam, w = _table()
    w.set_phase("cut")
    cam.scene.place(card("9S"), "B7", zone="cut")
    assert len(_frames(cam, w, 3)) == 1
    cam.scene.clear()
    _frames(cam, w, 3)
    assert w.visible() == []
    cam.scene.place(card("9S"), "B7", zone="cut")
    assert _frames(cam, w, 3) == []
    assert [c.card for c in w.visible()] == [card("9S")]
    w.set_phase("deal")
    cam.scene.clear()
    _frames(cam, w, 3)
    cam.scene.place(card("9S"), "B7", zone="S")
    assert [(e.card, e.where) for e in _frames(cam, w, 3)] == [(card("9S"), "deal")]  # type: ignore[attr-defined]


def test_a_hand_over_the_trick_does_not_play_its_cards_twice() -> None:
    cam, w = _table()
    w.set_phase("play")
    cam.scene.place(card("AS"), "B7", zone="centre", toward="E")
    assert [(e.seat, e.card) for e in _frames(cam, w, 3)] == [(Seat.E, card("AS"))]  # type: ignore[attr-defined]
    for _ in range(6):  # a hand covers the card's code for six frames
        ok, frame = cam.read()
        assert ok
        frame[:] = (120, 150, 205)
        w.feed(frame)
    assert w.visible() == []
    assert _frames(cam, w, 4) == []
    assert [c.card for c in w.visible()] == [card("AS")]


def test_dummy_card_moved_to_the_centre_is_played() -> None:
    cam, w = _table()
    w.set_phase("play", dummy=Seat.N)
    cam.scene.place(card("2H"), "B7", zone="N")
    cam.scene.place(card("7C"), "B7", zone="N")
    assert _frames(cam, w, 3) == []
    cam.scene.remove(card("2H"))
    cam.scene.place(card("2H"), "B7", zone="centre", toward="N")
    events = _frames(cam, w, 3)
    assert [(type(e), e.seat, e.card) for e in events] == [(CardPlayed, Seat.N, card("2H"))]  # type: ignore[attr-defined]
    cam.scene.remove(card("2H"))
    cam.scene.place(card("2H"), "B7", zone="N")  # taken back to the table, then played again: once only
    _frames(cam, w, 2)
    cam.scene.remove(card("2H"))
    cam.scene.place(card("2H"), "B7", zone="centre", toward="N")
    assert _frames(cam, w, 3) == []


def _no_card_logged(caplog: pytest.LogCaptureFixture, *codes: str) -> None:
    """Hands are secret while a deal is open: no log line names a card, at any level."""
    for rec in caplog.records:
        text = rec.getMessage()
        for code in codes:
            assert code not in text and card(code).name not in text, text


def test_damaged_cards_blotted_and_worn(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    cam, w = _table()
    w.set_phase("idle")
    cam.scene.place(card("AS"), "B7", zone="N")
    cam.scene.place(card("KD"), "B7", zone="W")
    cam.scene.place(card("3C"), "B7", zone="E", damage="blotted")
    cam.scene.place(card("JS"), "B7", zone="S", damage="worn")
    events = _frames(cam, w, 4)
    damaged = [e for e in events if isinstance(e, DamagedCardFound)]
    assert sorted((str(e.card), e.pack) for e in damaged) == [("JS", "B7"), ("None", "B7")]
    assert all(isinstance(e, DamagedCardFound) for e in events)  # idle: the others say nothing
    assert _frames(cam, w, 3) == []  # reported once
    assert any("heavy error correction" in r.getMessage() for r in caplog.records)
    _no_card_logged(caplog, "AS", "KD", "3C", "JS")


def test_foreign_pack_card_carries_its_pack_and_is_counted(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    cam, w = _table(packs=("B7",))
    w.set_phase("deal")
    cam.scene.place(card("5C"), "R2", zone="N")
    events = _frames(cam, w, 3)
    assert [(e.card, e.pack) for e in events if isinstance(e, CardFaced)] == [(card("5C"), "R2")]
    assert w.foreign_packs["R2"] >= 2
    _no_card_logged(caplog, "5C")


def test_cards_played_to_the_trick_take_the_seat_of_their_side() -> None:
    cam, w = _table()
    w.set_phase("play", dummy=Seat.N)
    for seat, code in zip("NESW", ["AS", "KS", "QS", "JS"]):
        cam.scene.place(card(code), "B7", zone="centre", toward=seat)
    events = _frames(cam, w, 3)
    played = {(e.seat, e.card.code) for e in events if isinstance(e, CardPlayed)}
    assert played == {(Seat.N, "AS"), (Seat.E, "KS"), (Seat.S, "QS"), (Seat.W, "JS")}


def test_dummy_hand_is_not_an_exposed_card_but_another_seat_card_is() -> None:
    cam, w = _table()
    w.set_phase("play", dummy=Seat.N)
    cam.scene.place(card("2H"), "B7", zone="N")
    cam.scene.place(card("8D"), "B7", zone="W")
    events = _frames(cam, w, 3)
    assert [(e.card.code, e.where, e.by) for e in events] == [("8D", "table", Seat.W)]  # type: ignore[attr-defined]


def test_cards_cut_for_partners_feed_the_draw() -> None:
    cam, w = _table()
    w.set_phase("draw", names={"N": "ann", "E": "bob", "S": "cy", "W": "di"})
    for seat, code in zip("NESW", ["AH", "KH", "QH", "JH"]):
        cam.scene.place(card(code), "B7", zone=seat)
    events = _frames(cam, w, 3)
    assert len(events) == 1 and isinstance(events[0], CardsDrawn)
    assert dict(events[0].cuts) == {"ann": card("AH"), "bob": card("KH"), "cy": card("QH"), "di": card("JH")}


def test_face_down_cards_are_counted_and_make_no_events() -> None:
    cam, w = _table()
    w.set_phase("deal")
    for z in ("N", "E"):
        cam.scene.place(card("4S"), "B7", zone=z, face_up=False)
    assert _frames(cam, w, 3) == []
    assert w.face_down == 2


def test_corrupt_frames_are_counted_not_raised() -> None:
    cam, w = _table()
    assert w.feed(None) == []  # type: ignore[arg-type]
    assert w.feed(np.zeros((3, 3), np.uint8)) == []
    assert w.stats.corrupt_frames == 2


class _Scripted:
    """A decoder that reads, frame by frame, the given codes at the given table positions (px)."""

    name = "scripted"

    def __init__(self, frames: list[list[tuple[str, tuple[float, float]]]]) -> None:
        from vision.codes import CardCode
        from vision.decode import FrameReading, Sighting

        self.readings = [FrameReading(tuple(Sighting(CardCode("B7", card(c)), x, y, ()) for c, (x, y) in f), (), ())
                         for f in frames]
        self.frame = 0
        self.rejected: dict[str, int] = {}

    def read(self, frame: np.ndarray) -> object:
        r = self.readings[min(self.frame, len(self.readings) - 1)]
        self.frame += 1
        return r


def test_cards_confirmed_in_the_same_frame_are_told_in_the_order_they_appeared() -> None:
    """West leads the queen of clubs (read in frame 1, glare hides it in frame 2), North plays the two
    of clubs (frames 2 and 3): both confirm in frame 3, and the lead must still come first."""
    west, north = (560.0, 270.0), (480.0, 220.0)  # the centre, nearer West and nearer North
    w = TableWatcher(_Scripted([[("QC", west)], [("2C", north)], [("QC", west), ("2C", north)]]),  # type: ignore[arg-type]
                     clock=FakeClock())
    w.set_phase("play")
    frame = np.zeros((540, 960, 3), np.uint8)
    events = [e for _ in range(3) for e in w.feed(frame)]
    assert [e.card.code for e in events] == ["QC", "2C"]  # type: ignore[attr-defined]


class _Unread:
    """A decoder that reads a bidding card of North's at ``call_at`` (or none) and, every frame, an unread
    card shape at ``at``."""

    name = "unread"

    def __init__(self, at: tuple[float, float], call_at: tuple[float, float] | None) -> None:
        from laws.bridge.calls import parse_call
        from laws.cards import Seat
        from vision.codes import CallCode, CardCode
        from vision.decode import CallSighting, FrameReading, Sighting

        calls = () if call_at is None else (CallSighting(CallCode(Seat.N, parse_call("1H"), "1"), *call_at,
                                                         ((call_at[0] - 10, call_at[1] - 10), (call_at[0] + 10, call_at[1] - 10),
                                                          (call_at[0] + 10, call_at[1] + 10), (call_at[0] - 10, call_at[1] + 10))),)
        self.reading = FrameReading((Sighting(CardCode("B7", card("2C")), 480.0, 270.0, ()),), (), (at,), calls)
        self.rejected: dict[str, int] = {}

    def read(self, frame: np.ndarray) -> object:
        return self.reading


@pytest.mark.parametrize("call_at, damaged", [((470.0, 70.0), False), (None, True), ((100.0, 400.0), True)])
def test_an_unread_shape_where_bidding_cards_lie_is_no_damaged_card(call_at: tuple[float, float] | None,
                                                                     damaged: bool) -> None:
    """Two fanned bidding cards whose codes are both covered in a frame look like a card shape: beside a
    bidding card read this phase it is the bidding cards, not a damaged card (it was reported as one);
    a shape with no bidding card near is still reported."""
    north = (480.0, 60.0)
    w = TableWatcher(_Unread(north, call_at), clock=FakeClock())  # type: ignore[arg-type]
    w.set_phase("auction")
    frame = np.zeros((540, 960, 3), np.uint8)
    events = [e for _ in range(5) for e in w.feed(frame)]
    assert any(e.TYPE == "damaged_card" for e in events) is damaged
