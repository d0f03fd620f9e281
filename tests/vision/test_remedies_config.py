"""``[vision] remedies`` and ``cardtable scan --remedies``: a club chooses the zxing decoder's costly
second-look remedies (issue 37: the price of each is in vision/CARD_CODES.md, "The [vision] section").

Before, the remedies were flags of ``ZxingDecoder`` only, which no configuration reached: the table and
``scan`` always used the default set. The frame below is the outsider's (``vision.measure_outsider_run``),
seed 2026's 15th playing-card frame at 720p, with a face under a strong glare patch: ``scan`` reports 11
codes with no remedy, 12 with the default set and 13 with the fainter glare look too, none of them false.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from firmware_host.cli import main
from vision.decode import PyzbarDecoder, ZxingDecoder, make_decoder
from vision.watcher import build_watcher
from vision.zones import DEFAULT_REMEDIES, REMEDIES, ConfigError, VisionConfig, parse_vision_config

FLAGS = ("glare", "regrid", "narrow", "faint_glare")


def _flags(decoder: object) -> dict[str, bool]:
    assert isinstance(decoder, ZxingDecoder)
    return {name: getattr(decoder, name) for name in FLAGS}


def test_the_default_is_todays_decoder() -> None:
    assert VisionConfig().remedies == DEFAULT_REMEDIES == ("glare", "regrid", "narrow")
    assert parse_vision_config({}).remedies == DEFAULT_REMEDIES
    today = ZxingDecoder()
    assert _flags(make_decoder()) == _flags(today) == {"glare": True, "regrid": True, "narrow": True,
                                                       "faint_glare": False}
    assert set(REMEDIES) == set(FLAGS)


@pytest.mark.parametrize("remedies", [[], ["regrid"], ["glare", "faint_glare"], list(REMEDIES)])
def test_the_remedies_given_are_the_decoders_flags(remedies: list[str]) -> None:
    cfg = parse_vision_config({"vision": {"remedies": remedies}})
    assert cfg.remedies == tuple(remedies)
    want = {name: name in remedies for name in FLAGS}
    assert _flags(make_decoder("zxing", remedies=cfg.remedies)) == want
    assert _flags(build_watcher(cfg).decoder) == want


def test_pyzbar_takes_no_remedies_and_needs_none_given() -> None:
    cfg = parse_vision_config({"vision": {"decoder": "pyzbar"}})
    assert isinstance(build_watcher(cfg).decoder, PyzbarDecoder)
    assert isinstance(make_decoder("pyzbar", remedies=()), PyzbarDecoder)
    with pytest.raises(ValueError, match="pyzbar decoder has no second look"):
        make_decoder("pyzbar", remedies=("glare",))


@pytest.mark.parametrize(("value", "says"), [
    ("glare", "want a list of remedy names"),
    (["glare", 3], "want a list of remedy names"),
    (["glare", "sharpen"], "'sharpen' is not a remedy"),
    (["regrid", "regrid"], "'regrid' given more than once"),
    (["faint_glare"], "needs 'glare' too"),
])
def test_a_wrong_remedies_value_is_named(value: object, says: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_vision_config({"vision": {"remedies": value}})
    assert str(err.value).startswith("vision.remedies: ") and says in str(err.value)


def test_remedies_for_pyzbar_are_refused() -> None:
    with pytest.raises(ConfigError, match=r"^vision\.remedies: the pyzbar decoder"):
        parse_vision_config({"vision": {"decoder": "pyzbar", "remedies": ["glare"]}})
    assert parse_vision_config({"vision": {"decoder": "pyzbar", "remedies": []}}).remedies == ()


@dataclass
class GlareFrame:
    path: Path          # the frame, as a PNG
    scene: Any          # what the outsider's generator placed
    view: Any           # which of its codes are in view


@pytest.fixture(scope="module")
def glare_frame(tmp_path_factory: pytest.TempPathFactory) -> GlareFrame:
    """The outsider's frame with a face under strong glare."""
    from vision.measure_outsider import draw, expose, random_camera
    from vision.measure_outsider_run import deal_scene, in_view

    case, size = 774391813, (1280, 720)
    r = np.random.default_rng(case)
    cam = random_camera(r)
    scene = deal_scene(r, cam)
    assert cam.glare > 0.0
    frame = expose(draw(scene, cam, r), cam, size, np.random.default_rng(case + size[0]))
    path = tmp_path_factory.mktemp("glare") / "deal.png"
    cv2.imwrite(str(path), frame)
    return GlareFrame(path, scene, in_view(scene, cam, size))


def _cards(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[str]:
    assert main(argv) == 0
    out, _ = capsys.readouterr()
    return sorted(c["card"] or f"back at {c['x']},{c['y']}" for c in json.loads(out.splitlines()[0])["cards"])


def test_scan_reads_more_or_less_with_the_remedies_chosen(glare_frame: GlareFrame, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = glare_frame.path
    default = _cards(capsys, ["scan", str(path)])
    none = _cards(capsys, ["scan", str(path), "--remedies", "none"])
    more = _cards(capsys, ["scan", str(path), "--remedies", "glare,regrid,narrow,faint_glare"])
    assert (len(none), len(default), len(more)) == (11, 12, 13)
    assert set(none) < set(default) < set(more)          # each a card more, none lost
    cfg = tmp_path / "table.toml"
    cfg.write_text('[vision]\nremedies = ["glare", "regrid", "narrow", "faint_glare"]\n')
    assert _cards(capsys, ["scan", str(path), "--config", str(cfg)]) == more      # the config's choice
    assert _cards(capsys, ["scan", str(path), "--config", str(cfg), "--remedies", "none"]) == none  # the flag's


def test_nothing_false_is_read_with_any_choice(glare_frame: GlareFrame) -> None:
    """Each card read, with no remedy, the default set or every remedy, is one the scene placed in view."""
    from vision.measure_outsider_run import score

    frame = cv2.imread(str(glare_frame.path), cv2.IMREAD_UNCHANGED)
    read = []
    for remedies in ((), DEFAULT_REMEDIES, REMEDIES):
        s = score(glare_frame.scene, glare_frame.view, make_decoder("zxing", remedies=remedies).read(frame))
        assert s["false"] == 0
        read.append(sum(g for g, _ in s["cards"]))
    # fully visible faces read: the scan above also counts a back's pack mark, and the default's card more
    # (the six of clubs) is one the scorer does not count as fully in view (not false: the scene's own)
    assert read == [10, 10, 11]


@pytest.mark.parametrize(("argv", "says"), [
    (["--remedies", "glare,sharpen"], "--remedies: 'sharpen' is not a remedy"),
    (["--remedies", "faint_glare"], "--remedies: 'faint_glare' is a fainter ink for the glare look"),
    (["--decoder", "pyzbar", "--remedies", "glare"], "--remedies: the pyzbar decoder has no second look"),
])
def test_scan_names_a_wrong_remedies_flag_and_exits_2(glare_frame: GlareFrame, argv: list[str],
                                                      says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(glare_frame.path), *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and says in err
