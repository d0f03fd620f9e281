"""Arrow switches in an event of sections: a Mitchell section whose pairs change directions in the rounds
the director names (``--sections A:5:mitchell:5``). A switched line is credited to the pair that sat
North-South there (its home direction said in the files: PBN's ``PairId_NS`` ``3EW``, USEBIO's
``NS_PAIR_DIRECTION``), the outsider recomputes every figure from the files alone and fails on a file
that credits the wrong pair."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.events.files import render
from laws.competition.event_sections import score_sections
from laws.competition.event_spec import EventError, EventKind, EventSpec, SectionSpec
from tests.events import outsider
from tests.events.test_outsider_events import played

SPEC = EventSpec(EventKind.SECTIONS, 20, 5, 2, name="Switched",
                 sections=(SectionSpec("A", 5, "mitchell", (5,)), SectionSpec("B", 5, "mitchell")))


def test_a_switched_last_round_is_credited_to_the_pair_that_sat_north_south() -> None:
    state = played(SPEC)
    seat = SPEC.movements()["A"].at(5, 1)
    assert seat is not None and str(seat.ns) == "2 EW" and str(seat.ew) == "1 NS"     # round 5: switched
    # the laws' totals are each pair's own lines: the switched round's North-South line is 2 EW's
    event = score_sections(state)
    mine: dict[str, Fraction] = defaultdict(Fraction)
    for board in event.sessions["A"].boards:
        for ln in board.lines:
            mine[ln.ns.label] += ln.ns_points
            mine[ln.ew.label] += ln.ew_points
    ranked = {sp.pair.label: st.total for field, rows in event.rankings if field.startswith("A ")
              for _p, sp, st in rows}
    assert ranked == mine and len(ranked) == 10
    assert sorted(f for f, _rows in event.rankings) == ["A one field", "B EW", "B NS"]
    files = render(state, "2026-12-02", club="Test club")
    pbn, xml = files["results.pbn"].decode(), files["results.xml"]
    assert outsider.check_pbn(pbn) == [] and outsider.check_usebio(xml) == []
    assert "A   5  1   2EW   1NS" in pbn
    line = next(ln for ln in ET.fromstring(xml).iter("TRAVELLER_LINE")
                if ln.findtext("ROUND_NUMBER") == "5" and ln.findtext("TABLE_NUMBER") == "1")
    assert [line.findtext(t) for t in ("NS_PAIR_NUMBER", "NS_PAIR_DIRECTION", "EW_PAIR_NUMBER",
                                       "EW_PAIR_DIRECTION")] == ["2", "EW", "1", "NS"]
    assert b"<WINNER_TYPE>1</WINNER_TYPE>" in xml                    # section A has one field


def test_the_outsider_fails_on_a_switched_line_credited_to_the_wrong_pair() -> None:
    files = render(played(SPEC), "2026-12-02")
    pbn, xml = files["results.pbn"].decode(), files["results.xml"].decode()
    # USEBIO: round 5's line at table 1 said to be pair 2 NS's (the pair 2 EW sat there)
    first = re.search(r"<ROUND_NUMBER>5</ROUND_NUMBER>\s*<TABLE_NUMBER>1</TABLE_NUMBER>\s*"
                      r"<NS_PAIR_NUMBER>2</NS_PAIR_NUMBER>\s*<NS_PAIR_DIRECTION>EW</NS_PAIR_DIRECTION>", xml)
    assert first is not None
    bad = xml.replace(first.group(0), first.group(0).replace(">EW<", ">NS<"), 1)
    assert any("recomputed" in p for p in outsider.check_usebio(bad.encode()))
    # PBN: the same line's PairId_NS written without its home direction (pair 2 NS)
    row = next(ln for ln in pbn.split("\r\n") if ln.startswith("A   5  1   2EW   1NS"))
    tampered = pbn.replace(row, row.replace("2EW", "2NS", 1), 1)
    assert any("recomputed" in p for p in outsider.check_pbn(tampered))


def test_the_switch_goes_to_and_from_the_setup() -> None:
    back = EventSpec.from_dict(SPEC.to_dict())
    assert back == SPEC and SPEC.to_dict()["sections"][0]["arrow_switch"] == [5]
    assert "arrow_switch" not in SPEC.to_dict()["sections"][1]


@pytest.mark.parametrize(("sections", "across", "said"), [
    ((SectionSpec("A", 5, "mitchell", (6,)), SectionSpec("B", 5)), False,
     "section A: arrow switch rounds [6] are not all among rounds 1-5"),
    ((SectionSpec("A", 5, "mitchell", (5,)), SectionSpec("B", 3, "howell", (2,))), False,
     "section B: only a Mitchell's pairs switch arrows"),
    ((SectionSpec("A", 5, "mitchell", (5,)), SectionSpec("B", 5)), True,
     "sections scored across the field switch no arrows"),
    ((SectionSpec("A", 5), SectionSpec("B", 5, "barometer", (2,))), False,
     "section B: only a Mitchell's pairs switch arrows (a barometer's are not offered"),
])
def test_a_switch_that_cannot_be_played_is_refused(sections: tuple[SectionSpec, ...], across: bool,
                                                    said: str) -> None:
    with pytest.raises(EventError, match=re.escape(said)):
        EventSpec(EventKind.SECTIONS, 16 if sections[1].movement == "howell" else 20, 5, 2,
                  sections=sections, across=across)


def test_the_command_takes_the_switch_and_refuses_a_bad_one(tmp_path: Path, capsys: Any) -> None:
    tables = ",".join(f"t{k}" for k in range(1, 11))
    args = ["event", "open", str(tmp_path / "ev"), "--kind", "pairs-sections", "--entrants", "20", "--rounds", "5",
            "--boards", "2", "--tables", tables]
    assert main([*args, "--sections", "A:5:mitchell:5,B:5:mitchell"]) == 0
    assert "section A: Mitchell, 5 tables, arrow switch in round 5" in capsys.readouterr().out
    assert main([*args[:2], str(tmp_path / "ev2"), *args[3:], "--sections", "A:5:mitchell:x,B:5:mitchell"]) == 2
    err = capsys.readouterr().err
    assert "--sections: each section is NAME:TABLES:MOVEMENT[:SWITCHED ROUNDS]" in err and err.count("\n") == 1
