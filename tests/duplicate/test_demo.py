"""The issue's "done when": ``cardtable duplicate demo --tables 8 --boards 24 --movement mitchell --foul 2``
plays a whole session through a real Mosquitto and writes the three files; its PBN (read with endplay)
and USEBIO (read with the standard library) have every traveller's score and matchpoints right by an
independent recomputation, and the two misboarded boards are scored by group."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from firmware_host.cli import main

from . import recompute


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (Debian package mosquitto; `make test` installs it)")


def _recomputed(rows: list[dict], fouled: dict[int, int],
                due: int) -> tuple[list[tuple[int, Fraction, Fraction]], list[dict]]:
    """Scores and matchpoints of one board's traveller rows, from the rows' results alone."""
    rows = sorted(rows, key=lambda r: int(r["Round"]))
    lines, group = [], "A"
    for r in rows:
        contract = "Pass" if r["Contract"] == "Pass" else r["Contract"]
        played = contract != "Pass"
        if r["board"] in fouled and int(r["Round"]) >= fouled[r["board"]] and played:
            group = "B"
        tricks = int(r["Result"]) if played else 0
        lines.append(recompute.Line(recompute.score(r["board"], contract, r["Declarer"] if played else "", tricks),
                                    group))
    return [(ln.ns_score or 0, ns, ew) for ln, (ns, ew) in zip(lines, recompute.matchpoints(lines, due))], rows


@pytest.mark.slow
def test_the_demo_evening_writes_results_that_read_back_right_with_the_fouled_boards_in_groups(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from endplay.parsers import pbn as pbn_parser

    _need_mosquitto()
    out = tmp_path / "evening"
    assert main(["duplicate", "demo", "--tables", "8", "--boards", "24", "--movement", "mitchell", "--foul", "2",
                 "--seed", "20251130", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "174 records taken, 0 refused" in said   # 8 tables x 7 rounds x 3 boards, and 6 round calls
    fouled = {int(b): int(r) for b, r in re.findall(r"misboarded: board (\d+), the travelling copy from round (\d+)", said)}
    assert len(fouled) == 2, said
    for name in ("results.pbn", "results.xml", "results.html"):
        assert (out / name).stat().st_size > 1000

    games = pbn_parser.loads((out / "results.pbn").read_text(encoding="utf-8"))
    expected: dict[tuple[int, str, str], tuple[int, Fraction, Fraction]] = {}
    groups_seen: dict[int, set[str]] = {}
    for g in (g for g in games if "ScoreTable" in g.info):
        head = [c["name"] if isinstance(c, dict) else c for c in g.info["ScoreTable"]["headers"]]
        rows = [dict(zip(head, row), board=g.board_num) for row in g.info["ScoreTable"]["rows"]]
        assert len(rows) == 7                        # a 7-round skip Mitchell: each board at 7 tables
        figures, ordered = _recomputed(rows, fouled, 7)
        for r, (score, ns, ew) in zip(ordered, figures):
            got = int(r["Score_NS"]) if r["Score_NS"] != "-" else -int(r["Score_EW"])
            assert got == score, (g.board_num, r)
            assert recompute.close(float(r["MP_NS"]), float(ns)), (g.board_num, r, float(ns))
            assert recompute.close(float(r["MP_EW"]), float(ew)), (g.board_num, r, float(ew))
            expected[(g.board_num, r["PairId_NS"], r["PairId_EW"])] = (score, ns, ew)
        groups_seen[g.board_num] = {"B" if g.board_num in fouled and int(r["Round"]) >= fouled[g.board_num] else "A"
                                    for r in rows}
    assert len(expected) == 168
    assert all(groups_seen[b] == {"A", "B"} for b in fouled)   # both misboarded boards split in two groups

    root = ET.parse(out / "results.xml").getroot()
    assert root.get("Version") == "1.2" and len(root.findall(".//PARTICIPANTS/PAIR")) == 16
    checked = 0
    for b in root.findall(".//SECTION/BOARD"):
        number = int(b.findtext("BOARD_NUMBER") or 0)
        for ln in b.findall("TRAVELLER_LINE"):
            score, ns, ew = expected[(number, ln.findtext("NS_PAIR_NUMBER"), ln.findtext("EW_PAIR_NUMBER"))]
            assert int(ln.findtext("SCORE") or "x") == score
            assert recompute.close(float(ln.findtext("NS_MATCH_POINTS") or "nan"), float(ns))
            assert recompute.close(float(ln.findtext("EW_MATCH_POINTS") or "nan"), float(ew))
            checked += 1
    assert checked == 168
    html = (out / "results.html").read_text(encoding="utf-8")
    assert html.count('<section class="board">') == 24 and "fouled board" in html
