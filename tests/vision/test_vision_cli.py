"""``cardtable scan``, ``labels`` and ``calibrate`` end to end, on real files."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from conftest import MILD, card, frame_of, spread_scene

from firmware_host.cli import main
from vision.calibrate import CalibrationError, calibrate, load_homography
from vision.decode import make_decoder
from vision.labels import pack_cards, write_labels
from vision.render import Degrade, Scene, render
from vision.scan import load_image
from vision.zones import to_table


def test_scan_reports_cards_zones_and_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scene = Scene()
    scene.place(card("AS"), "B7", zone="cut")
    scene.place(card("KH"), "B7", zone="centre", toward="N")
    scene.place(card("2D"), "B7", zone="S", face_up=False)
    scene.place(card("3C"), "B7", zone="E", damage="blotted")
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), frame_of(scene))
    assert main(["scan", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["image"] == str(path)
    cards = {(c["card"], c["pack"], c["face_up"], c["zone"]) for c in record["cards"]}
    assert cards == {("AS", "B7", True, "cut"), ("KH", "B7", True, "centre"), (None, "B7", False, "S")}
    assert len(record["unreadable"]) == 1
    assert all(isinstance(c["x"], int) and isinstance(c["y"], int) for c in record["cards"])


@pytest.mark.parametrize(("size", "table_mm"), [((1280, 720), (1200, 675)), ((1920, 1080), (2133, 1200))])
def test_scan_sizes_an_unreadable_card_by_the_configured_framing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 size: tuple[int, int],
                                                                 table_mm: tuple[int, int]) -> None:
    """Audit 61: in a frame where no code read, the decoder sized a card as a 75th of the frame (the default
    800 x 450 mm play area's), so at a band or whole-table framing the one card whose code was blotted was
    never listed as unreadable, whatever ``table_mm`` the ``--config`` gave. A 57 x 89 mm card at the
    configured framing's px/mm is looked for now."""
    scene = Scene(table_mm=(float(table_mm[0]), float(table_mm[1])))
    scene.place(card("3C"), "B7", at=(table_mm[0] / 2, table_mm[1] / 2), angle=10, damage="blotted")
    path = tmp_path / "band.png"
    cv2.imwrite(str(path), frame_of(scene, size=size))
    config = tmp_path / "table.toml"
    config.write_text(f"[vision]\ntable_mm = [{table_mm[0]}, {table_mm[1]}]\n")
    assert main(["scan", "--config", str(config), str(path)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["cards"] == []
    ((x, y),) = [(u["x"], u["y"]) for u in record["unreadable"]]
    assert abs(x - size[0] / 2) < 10 and abs(y - size[1] / 2) < 10


def test_scan_names_bad_images_exits_2_and_reports_the_rest(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.jpg"
    cv2.imwrite(str(good), frame_of(spread_scene(["9C"])))
    text = tmp_path / "notes.png"
    text.write_text("not an image")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    rc = main(["scan", str(text), str(good), str(empty), str(tmp_path / "gone.png")])
    out, err = capsys.readouterr()
    assert rc == 2
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["image"] for x in lines] == [str(good)]
    assert [c["card"] for c in lines[0]["cards"]] == ["9C"]
    for name in ("notes.png", "empty.png", "gone.png"):
        assert name in err


@pytest.mark.parametrize("small", [(1, 1), (8, 8), (500, 1), (1, 500), (15, 40)])
def test_scan_names_a_tiny_image_and_goes_on_with_the_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            small: tuple[int, int]) -> None:
    """Audit 61: a 1x1 (up to 15 px high or wide) image gave the decoder's FrameError as a traceback, exit 1,
    and the later images and the --stats line were lost. It is named on stderr as a missing file is, the
    rest are read, exit 2; so is any image the decoder itself refuses (here with ``load_image``'s size check
    taken away, so that the decoder sees the 1x1 picture)."""
    good = tmp_path / "good.jpg"
    cv2.imwrite(str(good), frame_of(spread_scene(["9C"])))
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((small[1], small[0], 3), np.uint8))
    for decoder_sees_it in (False, True):
        if decoder_sees_it:
            monkeypatch.setattr("vision.scan.MIN_FRAME_SIDE", 0)
        rc = main(["scan", "--stats", str(good), str(tiny), str(good)])
        out, err = capsys.readouterr()
        assert rc == 2
        lines = [json.loads(x) for x in out.splitlines()]
        assert [x.get("image") for x in lines[:-1]] == [str(good), str(good)]
        assert lines[-1]["stats"]["images"] == 2 and lines[-1]["stats"]["cards"] == 2
        (message,) = err.strip().splitlines()
        assert message.startswith(f"cardtable scan: {tiny}: ") and "Traceback" not in err
        if not decoder_sees_it:
            assert f"{small[0]}x{small[1]} pixels is too small" in message


@pytest.mark.parametrize("matrix", [[[0, 0, 0]] * 3, [[1, 2, 3], [2, 4, 6], [0, 0, 1]], [[1, 0, 0], [0, 1, 0], [0, 0, 0]]])
def test_scan_refuses_a_singular_homography_naming_file_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                matrix: list[list[int]]) -> None:
    """Audit 61: a homography file of zeros (or of rank under 3) was taken: numpy warned on stderr and every
    code's zone came out null. It is refused as the table refuses it, one line naming the file and key."""
    good = tmp_path / "good.jpg"
    cv2.imwrite(str(good), frame_of(spread_scene(["9C"])))
    (tmp_path / "h.json").write_text(json.dumps({"homography": matrix}))
    config = tmp_path / "table.toml"
    config.write_text('[vision]\nhomography_file = "h.json"\n')
    assert main(["scan", "--config", str(config), str(good)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    (message,) = err.strip().splitlines()
    assert message.startswith(f"cardtable scan: {config}: vision.homography_file: ")
    assert "h.json" in message and "singular" in message


@pytest.mark.parametrize(("game", "variant"), [("euchre", "micro"), ("contract-bridge", "qr")])
def test_every_printed_label_decodes_to_its_card(tmp_path: Path, game: str, variant: str) -> None:
    sheet = write_labels("C4", game, tmp_path / "labels.pdf", variant, backs=(game == "euchre"))
    assert sheet.pdf.is_file() and sheet.pdf.read_bytes().startswith(b"%PDF")
    decoder = make_decoder("zxing", variants=(variant,))
    found: list[tuple[int, str | None, tuple[float, float]]] = []
    for page_no, png in enumerate(sheet.pngs):
        # A phone photo of the sheet, not the pristine file: a quarter of the size, blurred.
        img = load_image(png)
        small = cv2.GaussianBlur(cv2.resize(img, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA), (0, 0), 0.7)
        for s in decoder.read(small).sightings:
            assert s.code.pack == "C4"
            found.append((page_no, None if s.code.card is None else s.code.card.code, (s.x * 4, s.y * 4)))
    expected = list(pack_cards(game)) + ([None] * 32 if game == "euchre" else [])
    assert len(found) == len(expected) == len(sheet.placed)
    for page_no, c, (x, y) in sheet.placed:
        assert any(p == page_no and f == (None if c is None else c.code) and abs(fx - x) < 40 and abs(fy - y) < 40
                   for p, f, (fx, fy) in found), (page_no, c)


def test_scan_reads_a_photo_of_a_printed_label_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``cardtable scan`` on a JPEG "photo" of each printed sheet finds every card of the pack once."""
    sheet = write_labels("D2", "euchre", tmp_path / "labels.pdf")
    photos = []
    for i, png in enumerate(sheet.pngs):
        img = cv2.GaussianBlur(cv2.resize(load_image(png), None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA),
                               (0, 0), 0.6)
        photos.append(tmp_path / f"photo-{i}.jpg")
        cv2.imwrite(str(photos[-1]), img, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert main(["scan", *map(str, photos), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["image"] for r in records] == list(map(str, photos))
    read = sorted(c["card"] for r in records for c in r["cards"] if c["face_up"])
    assert read == sorted(c.code for c in pack_cards("euchre"))
    assert all(c["pack"] == "D2" for r in records for c in r["cards"])


def test_labels_command_and_bad_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["labels", "--pack", "B7", "--game", "euchre", "--out", str(tmp_path / "b7")]) == 0
    assert (tmp_path / "b7.pdf").is_file() and (tmp_path / "b7-1.png").is_file()
    assert main(["labels", "--pack", "b-7", "--game", "euchre", "--out", str(tmp_path / "x")]) == 2
    assert "pack id" in capsys.readouterr().err


def test_labels_with_an_empty_pack_id_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``labels --pack ""`` (a script's variable left empty) printed pack A1's stickers, exit 0: a club
    sticking them on another pack would have two packs read as A1."""
    assert main(["labels", "--pack", "", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "pack id ''" in err and len(err.strip().splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_calibrate_recovers_a_tilted_camera(tmp_path: Path) -> None:
    scene = Scene(markers=True)
    placed = scene.place(card("AS"), "B7", at=(400, 225))
    frame = render(scene, (1280, 720), Degrade(tilt=0.04, blur=0.5, noise=2), np.random.default_rng(9))
    h = calibrate(frame)
    s = make_decoder().read(frame).sightings[0]
    x, y = to_table(h, s.x, s.y)
    assert abs(x - placed.x) < 8 and abs(y - placed.y) < 8
    image = tmp_path / "markers.png"
    cv2.imwrite(str(image), frame)
    out = tmp_path / "cal.json"
    assert main(["calibrate", "--image", str(image), "--out", str(out)]) == 0
    assert np.allclose(load_homography(out), h)


def test_calibrate_without_markers_names_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CalibrationError, match=r"\[0, 1, 2, 3\]"):
        calibrate(frame_of(spread_scene(["AS"]), degrade=MILD))
    bad = tmp_path / "cal.json"
    bad.write_text("{}")
    with pytest.raises(CalibrationError, match="cal.json"):
        load_homography(bad)
    assert main(["calibrate", "--camera", "/dev/video99", "--out", str(tmp_path / "c.json")]) == 2
    assert "video99" in capsys.readouterr().err


def test_scan_with_pyzbar_says_it_reads_full_qr_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Our labels are Micro QR: pyzbar finds nothing in them, and says why with a non-zero exit (issue 21);
    on QR labels it reads them and exits 0."""
    micro = write_labels("B7", "euchre", tmp_path / "micro")
    assert main(["scan", "--decoder", "pyzbar", str(micro.pngs[0])]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["cards"] == []
    assert "full QR" in err and "Micro QR" in err and "--decoder zxing" in err
    qr = write_labels("B7", "euchre", tmp_path / "qr", "qr")
    assert main(["scan", "--decoder", "pyzbar", str(qr.pngs[0])]) == 0
    assert json.loads(capsys.readouterr().out)["cards"]


def _hide_dejavu(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *, matplotlib: bool) -> None:
    """This machine as one without fonts-dejavu-core (and, unless ``matplotlib``, without matplotlib's copy)."""
    import sys

    import vision.labels_pdf

    monkeypatch.setattr(vision.labels_pdf, "FONT_FILES", (str(tmp_path / "no-fonts" / "DejaVuSans-Bold.ttf"),))
    if not matplotlib:
        monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError


@pytest.mark.parametrize("argv", [["--pack", "B7"], ["--bidding"], ["--members", "roster.csv"]])
def test_labels_without_a_dejavu_font_say_so_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    """A machine without fonts-dejavu-core (nor the club's extra, whose endplay brings matplotlib and its
    DejaVu Sans) cannot draw the labels' text: one line naming the font and the apt package, exit 2, nothing
    written. `--members` blamed the roster for it (`roster.csv: no DejaVu Sans font ...`)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "roster.csv").write_text("member number,name\n1001,Ann Smith\n", encoding="utf-8")
    _hide_dejavu(monkeypatch, tmp_path, matplotlib=False)
    assert main(["labels", *argv, "--out", str(tmp_path / "out")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.count("\n") == 1 and captured.err.startswith("cardtable labels: the labels' text needs "
                                                                      "the font DejaVu Sans Bold"), captured.err
    assert captured.err.rstrip().endswith(": sudo apt install fonts-dejavu-core") and "roster" not in captured.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roster.csv"]


def test_labels_with_only_matplotlibs_dejavu_draw_every_page_in_it(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With matplotlib's DejaVu Sans and no fonts-dejavu-core (the club's machine, hardware/SETUP.md C1), the
    PDF used matplotlib's copy but the PNG pages fell back to Pillow's default font: previews unlike the
    print and vision/CARD_CODES.md's label geometry. Both now draw from the one font."""
    import matplotlib

    from vision.labels import _font

    _hide_dejavu(monkeypatch, tmp_path, matplotlib=True)
    bundled = Path(matplotlib.__file__).parent / "mpl-data/fonts/ttf/DejaVuSans-Bold.ttf"
    assert Path(getattr(_font(40), "path", "")) == bundled
    assert main(["labels", "--pack", "B7", "--out", str(tmp_path / "b7")]) == 0


def test_scan_of_qr_labels_read_as_micro_qr_alone_says_which_variants_to_give(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``scan --variants micro`` (or a config naming micro alone) of a table with QR labels printed an empty
    line and nothing else; it says on stderr that codes of ours printed as QR are there, naming
    ``--variants micro,qr`` (exit status as before: the image was read)."""
    from test_vision_camcheck import _qr_labels_frame

    img = tmp_path / "qr-table.png"
    cv2.imwrite(str(img), _qr_labels_frame())
    assert main(["scan", str(img), "--variants", "micro"]) == 0
    got = capsys.readouterr()
    assert json.loads(got.out)["cards"] == []
    assert got.err == (f"cardtable scan: {img}: no code read, but card codes printed as QR are here, and only Micro QR "
                       "is read: give --variants micro,qr\n")
    assert main(["scan", str(img), "--variants", "micro,qr"]) == 0
    got = capsys.readouterr()
    assert len(json.loads(got.out)["cards"]) == 2 and got.err == ""
