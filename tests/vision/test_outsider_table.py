"""The outsider's table (``vision.measure_outsider``): pictures made from CARD_CODES.md alone.

Small samples only (a frame takes about two seconds to draw); the figures are the bench's
(``cardtable bench vision --bidding``). What is checked here: the generator follows the document (its
check character, its symbol), draws codes the decoder can read when nothing spoils them, knows what a
later card or a hand covers, and its score can fail (a blind decoder reads nothing, a decoder that
invents a call is caught).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.decode import CallSighting, FrameReading, ZxingDecoder
from vision.measure_outsider import Camera, Hand, Item, Scene, check, draw, expose, symbol
from vision.measure_outsider_run import auction_scene, in_view, run_outsider, score

DOC = (Path(__file__).resolve().parents[2] / "vision" / "CARD_CODES.md").read_text()
CLEAN = Camera(ppm=3.2, blur=0.4, shot=0.0005, read=0.001, jpeg=92)


def test_the_check_character_is_the_documents() -> None:
    assert check("1B7TD") == "Y" and check("BN1H1") == "Z" and check("M11021") == "E"
    from vision.codes import check_char

    rng = np.random.default_rng(1)
    for _ in range(300):
        body = "".join(rng.choice(list("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"), 5))
        assert check(body) == check_char(body)


def test_the_symbol_is_the_documents() -> None:
    rows = re.findall(r"```\n((?:[#.]{13}\n){13})```", DOC)
    drawn = [np.array([[ch == "#" for ch in line] for line in r.split()]) for r in rows]
    assert (symbol("1B7TDY").astype(bool) == drawn[0]).all()
    assert (symbol("BN1H1Z").astype(bool) == drawn[1]).all()


def _two(at: float = 0.0) -> Scene:
    """North's one heart and the ten of diamonds of pack B7, side by side in the middle."""
    return Scene([Item("call", "BN1H1Z", 700, 420, at, "1H", True), Item("card", "1B7TDY", 800, 420, 20.0, "10d", True)])


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_clean_picture_reads(size: tuple[int, int]) -> None:
    scene = _two()
    rng = np.random.default_rng(5)
    frame = expose(draw(scene, CLEAN, rng), CLEAN, size, rng)
    view = in_view(scene, CLEAN, size)
    assert all(v[0] for v in view)
    assert abs(view[0][1] - 3.2 * size[1] / 720) < 0.3  # px a module as the camera was set
    s = score(scene, view, ZxingDecoder().read(frame))
    assert s["cards"][0][0] and s["calls"][0][0] and s["tops"] == [True] and s["false"] == 0


def test_a_later_card_and_a_hand_hide_a_code() -> None:
    scene = _two()
    over = replace(scene.items[0], x=705, y=400, angle=3.0, text="BN2S1" + check("BN2S1"))
    assert [v[0] for v in in_view(Scene([*scene.items, over]), CLEAN, (1280, 720))] == [False, True, True]
    hand = Hand(800, 440, -90.0)  # fingers towards North, the forearm towards South
    assert [v[0] for v in in_view(Scene(list(scene.items), [hand]), CLEAN, (1280, 720))] == [True, False]


def test_the_score_fails_a_blind_decoder_and_an_invented_call() -> None:
    scene = _two()
    view = in_view(scene, CLEAN, (1280, 720))
    blind = score(scene, view, FrameReading((), (), (), ()))
    assert blind["cards"] == [(False, view[1][1])] and blind["tops"] == [False] and blind["false"] == 0
    from laws.bridge.calls import parse_call
    from laws.cards import Seat
    from vision.codes import CallCode

    x, y = view[0][2]
    wrong_seat = CallSighting(CallCode(Seat.S, parse_call("1H"), "1"), x, y, ())
    assert score(scene, view, FrameReading((), (), (), (wrong_seat,)))["false"] == 1
    right = CallSighting(CallCode(Seat.N, parse_call("1H"), "1"), x, y, ())
    far = replace(right, x=x + 400)
    assert score(scene, view, FrameReading((), (), (), (right,)))["false"] == 0
    assert score(scene, view, FrameReading((), (), (), (far,)))["false"] == 1


def test_layouts_lay_each_seats_calls_in_front_of_it() -> None:
    from vision.measure_outsider import random_camera

    rng = np.random.default_rng(8)
    cam = random_camera(rng)
    for kind in ("stack", "fan", "row", "column"):
        scene = auction_scene(rng, cam, kind)
        calls = [it for it in scene.items if it.kind == "call"]
        assert {it.text[1] for it in calls} == set("NESW")
        north = [it for it in calls if it.text[1] == "N"]
        south = [it for it in calls if it.text[1] == "S"]
        assert max(it.y for it in north) < min(it.y for it in south)
        assert len({it.text for it in calls}) == len(calls)  # each card of a set once
    with pytest.raises(ValueError, match="layout"):
        auction_scene(rng, cam, "heap")


def test_a_small_run_reports_every_kind_and_size() -> None:
    r = run_outsider({"now": ZxingDecoder()}, 1, ("deal", "row"), sizes=((1280, 720),))
    assert set(r) == {"deal|1280x720|now", "row|1280x720|now"}
    assert r["row|1280x720|now"]["calls_shown"] > 0 and r["deal|1280x720|now"]["cards_shown"] > 0



def test_each_decoder_keeps_its_fastest_read_and_they_take_turns() -> None:
    """``_fastest``: the decoders read in turn, the first to go alternating, and each keeps its fastest
    read's time (a fake clock: each read takes the seconds its decoder is given); a slow read (a machine
    busy for a moment) does not count against it."""
    from vision.measure_outsider_run import _fastest

    now = [0.0]
    order: list[str] = []

    class Timed:
        def __init__(self, name: str, takes: list[float]) -> None:
            self.name, self.takes = name, takes

        def read(self, frame: np.ndarray) -> str:
            order.append(self.name)
            now[0] += self.takes.pop(0)
            return self.name

    best = _fastest({"now": Timed("now", [0.5, 0.02, 0.03]), "today": Timed("today", [0.01, 0.4, 0.02])},
                    np.zeros((2, 2), np.uint8), 3, clock=lambda: now[0])
    assert order == ["now", "today", "today", "now", "now", "today"]
    assert best["now"] == ("now", pytest.approx(20.0)) and best["today"] == ("today", pytest.approx(10.0))
