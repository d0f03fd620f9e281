"""Bidding cards through the synthetic camera, the real decoder and the watcher's auction phase: each call
laid in its seat's zone is that seat's ``call`` (in the event format), once; a misplaced one is a note and
no call; nothing outside the auction; and no bidding card ever becomes a playing card's event."""

from __future__ import annotations

import numpy as np
from conftest import MILD, SMALL, card, frame_of

from laws.bridge.calls import DOUBLE, PASS, parse_call
from laws.cards import Seat
from laws.events import CardPlayed, DamagedCardFound, Event, event_to_dict
from vision.camera import SyntheticCamera
from vision.decode import make_decoder
from vision.render import Scene
from vision.watcher import TableWatcher


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        self.now += 0.1
        return self.now


def _table() -> tuple[SyntheticCamera, TableWatcher]:
    cam = SyntheticCamera(size=SMALL, degrade=MILD, seed=5)
    return cam, TableWatcher(make_decoder("zxing"), k=2, n=3, m=3, clock=FakeClock(), packs=("B7",))


def _frames(cam: SyntheticCamera, watcher: TableWatcher, n: int) -> list[Event]:
    out: list[Event] = []
    for _ in range(n):
        ok, frame = cam.read()
        assert ok
        out += watcher.feed(frame)
    return out


def _calls(events: list[Event]) -> list[dict]:
    """The events as the format writes them, without their times."""
    return [{k: v for k, v in event_to_dict(e).items() if k != "t"} for e in events]


def test_the_decoder_keeps_calls_and_cards_apart() -> None:
    scene = Scene()
    scene.place_call("N", parse_call("1H"))
    scene.place_call("W", PASS, "2")
    scene.place(card("AS"), "B7", zone="centre")
    reading = make_decoder("zxing").read(frame_of(scene))
    assert sorted((c.code.seat.value, c.code.call.code, c.code.copy) for c in reading.calls) == \
        [("N", "1H", "1"), ("W", "pass", "2")]
    assert [s.code.card for s in reading.sightings] == [card("AS")]
    assert reading.rejections == () and reading.unreadable == ()


def test_an_auction_laid_out_call_by_call_gives_each_call_once_in_order() -> None:
    cam, w = _table()
    w.set_phase("auction")
    auction = [("N", "1H", "1"), ("E", "pass", "1"), ("S", "2NT", "1"), ("W", "double", "1"), ("N", "3NT", "1"),
               ("E", "pass", "2"), ("S", "pass", "1"), ("W", "pass", "1")]
    told: list[dict] = []
    for seat, text, copy in auction:
        cam.scene.place_call(seat, parse_call(text), copy)
        told += _calls(_frames(cam, w, 3))  # every earlier card still lies there: no call again
    assert told == [{"type": "call", "seat": s, "call": c} for s, c, _ in auction]
    assert _frames(cam, w, 4) == []
    assert len(w.visible_calls()) == len(auction)


def test_one_frame_is_not_a_call_and_a_covered_call_seen_again_is_the_same_call() -> None:
    cam, w = _table()
    w.set_phase("auction")
    cam.scene.place_call("S", parse_call("1S"))
    assert _frames(cam, w, 1) == []
    assert _calls(_frames(cam, w, 2)) == [{"type": "call", "seat": "S", "call": "1S"}]
    for _ in range(5):  # a hand over the whole table for five frames: the card is gone...
        ok, frame = cam.read()
        frame[:] = (120, 150, 205)
        w.feed(frame)
    assert w.visible_calls() == []
    assert _frames(cam, w, 4) == []  # ...and seen again, it is the call already made


def test_a_card_of_another_seats_set_is_a_note_and_no_call_until_moved_home() -> None:
    cam, w = _table()
    w.set_phase("auction")
    cam.scene.place_call("S", parse_call("2H"), zone="W")
    cam.scene.place_call("N", DOUBLE, zone="centre")
    assert _frames(cam, w, 4) == []
    notes = w.take_notes()
    assert sorted(notes) == [
        "North's bidding card X lies outside every seat's zone (centre): not taken as a call (the director "
        "enters the call if it was made)",
        "South's bidding card 2H lies in West's zone: not taken as a call (the director enters the call if it "
        "was made)"]
    assert w.take_notes() == [] and w.stats.misplaced_calls == 2
    assert _frames(cam, w, 3) == [] and w.take_notes() == []  # said once
    cam.scene.remove_call("S", parse_call("2H"))
    cam.scene.place_call("S", parse_call("2H"))  # slid across to South's own zone
    assert _calls(_frames(cam, w, 3)) == [{"type": "call", "seat": "S", "call": "2H"}]


def test_bidding_cards_are_calls_in_the_auction_alone() -> None:
    cam, w = _table()
    for phase in ("deal", "play", "idle", "shuffle"):
        w.set_phase(phase)
        cam.scene.clear()
        _frames(cam, w, 4)  # the last phase's cards are gone
        cam.scene.place_call("E", parse_call("4S"))
        assert _frames(cam, w, 3) == [], phase
        assert w.take_notes() == []


def test_cards_already_on_the_table_when_the_auction_begins_are_not_calls() -> None:
    cam, w = _table()
    w.set_phase("play")
    cam.scene.place_call("N", parse_call("4H"))  # the last deal's call, not put away
    _frames(cam, w, 3)
    w.set_phase("auction")
    assert _frames(cam, w, 3) == []
    cam.scene.place_call("E", PASS)
    assert _calls(_frames(cam, w, 3)) == [{"type": "call", "seat": "E", "call": "pass"}]


def test_the_next_auction_takes_the_same_cards_again() -> None:
    cam, w = _table()
    w.set_phase("auction")
    cam.scene.place_call("N", PASS)
    assert len(_frames(cam, w, 3)) == 1
    w.set_phase("play")
    cam.scene.clear_calls()  # put back in the box
    _frames(cam, w, 4)
    w.set_phase("auction")  # the next deal
    cam.scene.place_call("N", PASS)
    assert _calls(_frames(cam, w, 3)) == [{"type": "call", "seat": "N", "call": "pass"}]


def test_the_opening_lead_in_the_auction_phase_is_played() -> None:
    cam, w = _table()
    w.set_phase("auction")
    cam.scene.place_call("S", parse_call("3NT"))
    _frames(cam, w, 3)
    cam.scene.place(card("QD"), "B7", zone="centre", toward="W")
    events = _frames(cam, w, 3)
    assert [(type(e), e.seat, e.card) for e in events] == [(CardPlayed, Seat.W, card("QD"))]  # type: ignore[attr-defined]


def test_a_covered_bidding_card_is_never_reported_as_a_damaged_card() -> None:
    """A bidding card is nearly square: the decoder's search for playing cards whose code did not read
    passes it by, so one whose code is blotted (or under a hand) is no damaged card of the pack."""
    cam, w = _table()
    w.set_phase("auction")
    cam.scene.place(card("7C"), "B7", zone="cut")
    cam.scene.place_call("N", parse_call("1C"), damage="blotted")
    events = _frames(cam, w, 6)
    assert not any(isinstance(e, DamagedCardFound) for e in events)
    assert make_decoder("zxing").read(frame_of(cam.scene)).unreadable == ()
    # the check is not blind: a blotted playing card beside it is found
    cam.scene.place(card("8C"), "B7", zone="E", damage="blotted")
    assert any(isinstance(e, DamagedCardFound) for e in _frames(cam, w, 6))


def test_many_calls_in_one_zone_all_read() -> None:
    """West's zone holds a grid of three by three: a long auction's calls all stay readable."""
    scene = Scene()
    calls = [PASS, parse_call("1NT"), DOUBLE, parse_call("2S"), parse_call("3D")]
    for i, c in enumerate(calls):
        scene.place_call("W", c, str(i + 1))
    got = make_decoder("zxing").read(frame_of(scene, seed=3)).calls
    assert sorted(c.code.copy for c in got) == ["1", "2", "3", "4", "5"]
    assert np.ptp([c.y for c in got]) > 0  # two rows


def _calls_and_a_card(tmp_path):  # type: ignore[no-untyped-def]
    """A picture of North's 1H, South's pass (copy 3, in the centre) and the ten of diamonds in East's zone."""
    import cv2

    scene = Scene()
    scene.place_call("N", parse_call("1H"))
    scene.place_call("S", PASS, "3", zone="centre")
    scene.place(card("TD"), "B7", zone="E")
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), frame_of(scene))
    return path


def test_scan_reports_bidding_cards_apart_from_cards(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from firmware_host.cli import main

    path = _calls_and_a_card(tmp_path)
    assert main(["scan", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [c["card"] for c in record["cards"]] == ["TD"]
    assert sorted((c["seat"], c["call"], c["copy"], c["zone"]) for c in record["calls"]) == \
        [("N", "1H", "1", "N"), ("S", "pass", "3", "centre")]
    assert all(isinstance(c["x"], int) for c in record["calls"])


def test_scan_stats_count_the_calls_read_and_every_reason(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``--stats`` counts the bidding cards read beside the cards, and names every rejection reason (0 when
    none was met), so that a reader of the line need not know which reasons exist."""
    import json

    from firmware_host.cli import main

    path = _calls_and_a_card(tmp_path)
    assert main(["scan", str(path), str(path), "--stats"]) == 0
    stats = json.loads(capsys.readouterr().out.splitlines()[-1])["stats"]
    assert stats["images"] == 2 and stats["cards"] == 2 and stats["calls"] == 4
    assert stats["rejected"] == {r: 0 for r in ("length", "charset", "version", "check", "card", "seat", "call")}
