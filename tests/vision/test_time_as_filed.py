"""``tools/time_as_filed.py``: a commit's ``vision`` package imported under another name reads as that code."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CODES = ["AS", "KH", "QD", "JC", "TS", "9H"]


def _tool(name: str = "time_as_filed") -> object:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_commits_vision_is_its_own_package_and_reads_as_todays(tmp_path: Path) -> None:
    """HEAD's package, imported as ``vision_filed``, is loaded from the folder it was written to (none of its
    modules from today's ``vision``) and reads a rendered frame as today's decoder does."""
    from tests.vision.conftest import spread_scene
    from vision.decode import ZxingDecoder
    from vision.render import render

    tool = _tool()
    old = tool.import_as_filed("HEAD", tmp_path)  # type: ignore[attr-defined]
    try:
        loaded = {name: m for name, m in sys.modules.items() if name.startswith("vision_filed")}
        assert {"vision_filed.decode", "vision_filed.lookagain", "vision_filed.codes"} <= set(loaded)
        assert all(Path(m.__file__).is_relative_to(tmp_path) for m in loaded.values())  # type: ignore[arg-type]
        assert old.lookagain.__name__ == "vision_filed.lookagain"  # type: ignore[attr-defined]
        assert old.CardCode.__module__ == "vision_filed.codes"  # type: ignore[attr-defined]
        frame = render(spread_scene(CODES), (1280, 720))
        then = {str(s.code) for s in old.ZxingDecoder().read(frame).sightings}  # type: ignore[attr-defined]
        assert then and then == {str(s.code) for s in ZxingDecoder().read(frame).sightings}
    finally:
        for name in [n for n in sys.modules if n.startswith("vision_filed")]:
            del sys.modules[name]
        sys.path.remove(str(tmp_path))


def test_a_commit_that_cannot_be_read_is_one_line_and_exit_2() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "time_as_filed.py"), "--commit", "0" * 40,
                        "--frames", "1", "--seeds", "3"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "cannot read commit" in r.stderr


# Python 3.12 and later warn that extracting without a filter will change in 3.14: the fallback this test takes
@pytest.mark.filterwarnings("ignore:Python 3.14 will, by default, filter:DeprecationWarning")
def test_without_tarfiles_filter_the_package_is_written_all_the_same(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Python before 3.11.4 (Raspberry Pi OS 12 has 3.11.2) has no ``tarfile.data_filter``: the package is
    still written, every module of it."""
    import tarfile

    monkeypatch.delattr(tarfile, "data_filter")
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    _tool().import_as_filed("HEAD", tmp_path)  # type: ignore[attr-defined]
    written = {p.name for p in (tmp_path / "vision_filed").glob("*.py")}
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", "HEAD", "vision/"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert written == {Path(n).name for n in listed if n.endswith(".py")} and "decode.py" in written


def test_a_wrong_size_seeds_or_frames_is_one_line_and_exit_2() -> None:
    for args, named in ((["--size", "720p"], "--size"), (["--seeds", "3,x"], "--seeds"), (["--frames", "0"], "--frames")):
        r = subprocess.run([sys.executable, str(ROOT / "tools" / "time_as_filed.py"), *args], capture_output=True,
                           text=True, cwd=ROOT)
        assert r.returncode == 2 and "Traceback" not in r.stderr, args
        assert r.stderr.count("\n") == 1 and named in r.stderr, r.stderr


def test_the_parts_are_timed_where_the_decoder_calls_them_and_put_back() -> None:
    """``--parts``: while timed, a frame's second look adds its finding and its remedies (read or not) to the
    tally, no more than the frame's own time; afterwards the decoder's functions are its own again."""
    import time

    from tests.vision.conftest import spread_scene
    from vision import lookagain, regrid
    from vision.decode import ZxingDecoder
    from vision.render import render

    tool = _tool()
    before = (lookagain.code_candidates, lookagain.glare_candidates, lookagain.read_glare_candidate,
              regrid.read_by_grid)
    frame = render(spread_scene(CODES), (1280, 720))
    spent: dict[str, float] = {}
    with tool.parts_timed(spent):  # type: ignore[attr-defined]
        assert lookagain.code_candidates is not before[0]
        t = time.perf_counter()
        ZxingDecoder().read(frame)
        took = time.perf_counter() - t
    assert (lookagain.code_candidates, lookagain.glare_candidates, lookagain.read_glare_candidate,
            regrid.read_by_grid) == before
    assert spent[tool.FIND] > 0  # type: ignore[attr-defined]
    assert set(spent) <= {tool.FIND, tool.READ, tool.UNREAD}  # type: ignore[attr-defined]
    assert sum(spent.values()) <= took


def test_sizes_are_read_as_width_by_height() -> None:
    tool = _tool()
    assert tool.parse_size("1920x1080") == (1920, 1080)  # type: ignore[attr-defined]
    assert tool.parse_size(" 1280x720 ") == (1280, 720)  # type: ignore[attr-defined]
    assert tool.parse_size("1080p") is None and tool.parse_size("1920*1080") is None  # type: ignore[attr-defined]


def test_the_menus_wrong_arguments_are_one_line_and_exit_2() -> None:
    for args, named in ((["--size", "big"], "--size"), (["--seeds", ""], "--seeds"), (["--frames", "-1"], "--frames"),
                        (["--commit", "0" * 40, "--frames", "1", "--seeds", "3"], "cannot read commit")):
        r = subprocess.run([sys.executable, str(ROOT / "tools" / "decoder_menu.py"), *args], capture_output=True,
                           text=True, cwd=ROOT)
        assert r.returncode == 2 and "Traceback" not in r.stderr, args
        assert r.stderr.count("\n") == 1 and named in r.stderr, r.stderr


def test_the_menus_variants_are_todays_decoder_with_remedies_off_and_each_is_tallied() -> None:
    """Every variant is a ``[vision] remedies`` value the table takes, today's the default, and one frame of each
    kind is tallied for each decoder: a playing-card frame's time, and what was shown of each kind (a decoder
    reading nothing reads none)."""
    from vision.decode import FrameReading, ZxingDecoder
    from vision.zones import DEFAULT_REMEDIES, parse_vision_config

    menu = _tool("decoder_menu")
    for remedies in menu.VARIANTS.values():  # type: ignore[attr-defined]
        assert parse_vision_config({"vision": {"remedies": list(remedies)}}).remedies == remedies
    assert menu.VARIANTS["today"] == DEFAULT_REMEDIES  # type: ignore[attr-defined]

    class Blind:
        def read(self, frame: object) -> FrameReading:
            return FrameReading((), (), (), ())

    t = menu.tally({"today": ZxingDecoder(find_unreadable=True), "blind": Blind()}, 7, 1, (1280, 720))  # type: ignore[attr-defined]
    assert len(t["today"]["ms"]) == len(t["blind"]["ms"]) == 1
    assert t["today"]["cards"] and t["today"]["calls"] and len(t["blind"]["cards"]) == len(t["today"]["cards"])
    assert not any(t["blind"]["cards"] + t["blind"]["calls"] + t["blind"]["tops"]) and any(t["today"]["cards"])
    assert t["today"]["false"] == t["blind"]["false"] == 0
