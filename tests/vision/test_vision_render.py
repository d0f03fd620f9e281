"""The renderer's ground truth of what the hands hide, which the benchmark uses to tell the decoder's
misses from cards no camera could see."""

from __future__ import annotations

import numpy as np

from tests.vision.conftest import spread_scene
from vision.codes import CardCode
from vision.decode import FrameReading, Sighting, ZxingDecoder
from vision.measure import Figures, _case
from vision.render import Degrade, render, render_with_cover

CODES = ["AS", "KH", "QD", "JC", "TS", "9H", "8D", "7C", "6S", "5H", "4D", "3C", "2S"]
HANDS = Degrade(hands=2)


def test_render_with_cover_draws_the_same_image() -> None:
    scene = spread_scene(CODES)
    for seed in range(3):
        a = render(scene, (1280, 720), HANDS, np.random.default_rng(seed))
        b, _ = render_with_cover(scene, (1280, 720), HANDS, np.random.default_rng(seed))
        assert np.array_equal(a, b)


def test_every_code_that_does_not_read_is_one_a_hand_covers() -> None:
    """With hands the only harm done to the picture, a card that does not read must be under a hand;
    over these seeds hands do cover codes, and most of those stop reading."""
    scene = spread_scene(CODES)
    decoder = ZxingDecoder()
    codes = [CardCode(p.pack, p.card) for p in scene.placements]
    covered = unread_covered = 0
    for seed in range(40):
        frame, hidden = render_with_cover(scene, (1280, 720), HANDS, np.random.default_rng(seed))
        got = {s.code for s in decoder.read(frame).sightings}
        unread = {i for i, c in enumerate(codes) if c not in got}
        assert unread <= hidden, f"seed {seed}: cards {sorted(unread - hidden)} unread but not covered"
        covered += len(hidden)
        unread_covered += len(unread)
    assert covered >= 5 and unread_covered >= covered // 3


class _Scripted:
    """A decoder that reads, frame by frame, the cards it is told to (by index in the scene)."""

    name = "scripted"

    def __init__(self, codes: list[CardCode], script: list[set[int]]) -> None:
        self.codes, self.script, self.frame = codes, script, 0

    def read(self, frame: np.ndarray) -> FrameReading:
        want = self.script[min(self.frame, len(self.script) - 1)]
        self.frame += 1
        return FrameReading(tuple(Sighting(self.codes[i], 0.0, 0.0, ()) for i in sorted(want)), (), ())


def test_bench_counts_a_card_in_its_first_three_frames_in_view() -> None:
    """No hands: reading card 0 in frames 1 and 3 confirms it; card 1 read once is not confirmed."""
    scene = spread_scene(["AS", "KH"])
    codes = [CardCode(p.pack, p.card) for p in scene.placements]
    fig = Figures([])
    _case(_Scripted(codes, [{0, 1}, set(), {0}]), scene, (640, 360), Degrade(), 1, fig)
    s = fig.summary()
    assert fig.frames == 3 and s["confirmed_share"] == 0.5 and s["all_confirmed_share"] == 0.0
    assert s["confirmed_share_raw"] == 0.5 and s["hidden_share"] == 0.0 and s["read_share"] == 0.5


def test_bench_waits_for_a_hidden_card_to_come_into_view() -> None:
    """With hands, frames go on until every card has had three frames in view; a decoder that reads
    every card in view confirms them all, whatever the raw first three frames say."""
    scene = spread_scene(CODES)
    codes = [CardCode(p.pack, p.card) for p in scene.placements]
    for seed in range(60):
        rng = np.random.default_rng(seed)
        hidden = [render_with_cover(scene, (1280, 720), HANDS, rng)[1] for _ in range(3)]
        if sum(1 for h in hidden if 0 in h) >= 2:
            break
    else:
        raise AssertionError("no seed hides card 0 twice")
    rng = np.random.default_rng(seed)
    script = [set(range(len(codes))) - h for h in
              (render_with_cover(scene, (1280, 720), HANDS, rng)[1] for _ in range(12))]
    fig = Figures([])
    _case(_Scripted(codes, script), scene, (1280, 720), HANDS, seed, fig)
    s = fig.summary()
    assert fig.frames > 3 and s["all_confirmed_share"] == 1.0 and s["all_confirmed_share_raw"] == 0.0
    assert s["read_share_in_view"] == 1.0 and s["hidden_share"] > 0
