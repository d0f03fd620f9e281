"""The [vision] and [zones] TOML sections: defaults, valid files, and errors that name the key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from laws.cards import Card, Seat
from laws.events import CardFaced, CardPlayed, event_from_dict, event_to_dict
from vision.watcher import build_watcher
from vision.zones import ConfigError, VisionConfig, Zones, load_vision_config, parse_vision_config

GOOD = """
[vision]
decoder = "pyzbar"
variants = ["qr"]
table_mm = [900, 500]
confirm_k = 3
confirm_n = 4
gone_m = 6
heavy_ec_below = 0.4

[zones.N]
rect = [300, 0, 600, 120]
[zones.centre]
rect = [300, 150, 600, 350]
"""


def test_defaults_work_without_a_file() -> None:
    cfg = parse_vision_config({})
    assert cfg == VisionConfig()
    assert cfg.zones.zone_at(400, 225) == "centre" and cfg.zones.zone_at(100, 50) == "cut"
    w = build_watcher(cfg)
    assert (w.k, w.n, w.m) == (2, 3, 5) and w.decoder.name == "zxing"


def test_a_full_file(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(GOOD)
    cfg = load_vision_config(path)
    assert cfg.decoder == "pyzbar" and cfg.variants == ("qr",) and cfg.table_mm == (900.0, 500.0)
    assert (cfg.confirm_k, cfg.confirm_n, cfg.gone_m, cfg.heavy_ec_below) == (3, 4, 6, 0.4)
    assert [z.name for z in cfg.zones.zones] == ["N", "centre"]
    assert cfg.zones.zone_at(450, 60) == "N" and cfg.zones.zone_at(10, 10) is None


def test_the_tables_decoder_sizes_unreadable_cards_by_its_table_mm(tmp_path: Path) -> None:
    """Audit 61: the table's decoder took a card in a frame where no code read to be a 75th of the frame,
    whatever ``table_mm``; it is given the configured framing now, as ``scan --config`` is."""
    path = tmp_path / "table.toml"
    path.write_text(GOOD.replace('decoder = "pyzbar"\nvariants = ["qr"]\n', ""))
    decoder = build_watcher(load_vision_config(path)).decoder
    assert decoder.table_mm == (900.0, 500.0)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("text", "key"), [
    ('[vision]\ndecoder = "opencv"', "vision.decoder"),
    ("[vision]\nconfirm_k = 0", "vision.confirm_k"),
    ('[vision]\nvariants = ["aztec"]', "vision.variants"),
    ("[vision]\nconfirm_k = 4\nconfirm_n = 3", "vision.confirm_k"),
    ('[vision]\ngone_m = "5"', "vision.gone_m"),
    ("[vision]\ntable_mm = [800]", "vision.table_mm"),
    ("[vision]\nheavy_ec_below = 2", "vision.heavy_ec_below"),
    ("[vision]\nspeed = 3", "vision.speed"),
    ("[zones.N]\nrect = [5, 5, 1, 1]", "zones.N.rect"),
    ("[zones.N]\nwhere = 1", "zones.N.rect"),
    ('[zones.cut]\nrect = [0, 0, "a", 9]', "zones.cut.rect"),
    # audit 61: accepted before, a zone that held nothing (nan) or everything beyond (inf), a key ignored
    ("[zones.N]\nrect = [nan, 0, 250, 110]", "zones.N.rect: want a finite number, got nan"),
    ("[zones.N]\nrect = [0, 0, inf, 110]", "zones.N.rect: want a finite number, got inf"),
    ('[zones.N]\nrect = [250, 0, 550, 110]\ncolour = "red"', "zones.N.colour: unknown key"),
    ("[vision]\ntable_mm = [inf, 450]", "vision.table_mm: want a finite number"),
    # p1: a zone written as a bare rectangle (or a number) was told "zones.N.rect: missing", a key that is
    # not what is wrong: the zone itself is not a table
    ("[zones]\nN = [250, 0, 550, 110]", r"zones.N: want a table \(\[zones.N\] rect = \[x0, y0, x1, y1\]\), got \[250"),
    ("[zones]\nN = 5", r"zones.N: want a table \(\[zones.N\] rect = \[x0, y0, x1, y1\]\), got 5"),
])
def test_bad_values_name_their_key(text: str, key: str) -> None:
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        parse_vision_config(tomllib.loads(text))


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="missing.toml"):
        load_vision_config(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[vision\n")
    with pytest.raises(ConfigError, match="bad.toml"):
        load_vision_config(bad)


@pytest.mark.parametrize(("content", "says"), [
    (b"\x98\x00\xffbinary", "not UTF-8 text"),
    (b"x = " + b"9" * 5000 + b"\n", "a value TOML cannot hold"),
])
def test_a_file_that_is_no_toml_text_names_the_file(tmp_path: Path, content: bytes, says: str) -> None:
    """``cardtable scan --config picture.png`` (a binary file named by mistake) said only "'utf-8' codec
    can't decode byte 0x98 in position 2", naming no file; a number TOML cannot hold was a traceback. The table's own loader (``check-config``) said all three already."""
    bad = tmp_path / "picture.png"
    bad.write_bytes(content)
    with pytest.raises(ConfigError, match=f"picture.png: {says}"):
        load_vision_config(bad)


def test_nearest_seat_among_the_mapped_ones() -> None:
    z = Zones()
    assert z.nearest_seat(400, 150) == "N"
    assert z.nearest_seat(400, 150, among=("E", "W")) in ("E", "W")


def test_pack_on_card_events_round_trips() -> None:
    faced = CardFaced(Card("Q", "H"), "cut", pack="R2", t=1.5)
    d = event_to_dict(faced)
    assert d["pack"] == "R2" and event_from_dict(d) == faced
    played = CardPlayed(Seat.E, Card("T", "S"), pack="B7")
    assert event_from_dict(event_to_dict(played)) == played
    assert "pack" not in event_to_dict(CardPlayed(Seat.E, Card("T", "S")))
    assert event_from_dict({"type": "card_faced", "card": "AS", "where": "deal"}).pack is None  # type: ignore[attr-defined]
