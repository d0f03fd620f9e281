"""vision/CARD_CODES.md's "Table zones" is the contract: its default-zones table is the code's, its TOML
example parses to what it says, and `cardtable scan --help` names everything a record holds."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from vision.zones import DEFAULT_ZONES, Zones, parse_vision_config

DOC = (Path(__file__).resolve().parents[2] / "vision" / "CARD_CODES.md").read_text(encoding="utf-8")
SECTION = DOC.split("## Table zones", 1)[1].split("\n## ", 1)[0]


def test_the_documented_default_zones_are_the_codes() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", SECTION, re.M)
    assert [(n, *map(float, r)) for n, *r in rows] == [(z.name, z.x0, z.y0, z.x1, z.y1) for z in DEFAULT_ZONES]


def test_the_documented_example_parses_as_said() -> None:
    example = SECTION.split("```toml", 1)[1].split("```", 1)[0]
    cfg = parse_vision_config(tomllib.loads(example))
    assert [z.name for z in cfg.zones.zones] == ["N", "centre"]     # the section replaces the defaults
    assert cfg.zones.zone_at(300, 50) == "N" and cfg.zones.zone_at(100, 50) is None


@pytest.mark.parametrize("point, zone", [((225, 50), None), ((400, 120), None), ((250, 0), "N"), ((100, 50), "cut"),
                                         ((700, 400), "shoe"), ((400, 200), "centre")])
def test_points_between_zones_are_in_none(point: tuple[float, float], zone: str | None) -> None:
    assert Zones().zone_at(*point) == zone


def test_scan_help_names_calls_and_every_rejection_reason(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.cli import main

    with pytest.raises(SystemExit):
        main(["scan", "--help"])
    out = capsys.readouterr().out
    for word in ('"calls"', "seat", "call", "copy", "length, charset, version,", "check, card", "Table zones"):
        assert word in out, word
