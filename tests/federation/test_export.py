"""`cardtable federation close` and `export`: the field's PBN and USEBIO read back by an outsider's reader
written from PBN 2.1 (tags, ``[ScoreTable]``/``[TotalScoreTable]`` column headers ``Name\\<width><L|R>``)
and USEBIO 1.2 (``SECTION``/``PARTICIPANTS``/``PAIR``/``BOARD``/``TRAVELLER_LINE``, ``HANDSET``), without
the exporter: every matchpoint and percentage is recomputed from the file alone."""

from __future__ import annotations

import re
import shlex
import xml.etree.ElementTree as ET
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.federation.service import JOURNAL
from firmware_host.records.journal import Journal

from .test_audit import _messages
from .test_cli import PBN


@pytest.fixture()
def event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    records = tmp_path / "boards.pbn"
    records.write_text(PBN, encoding="utf-8")
    folder = tmp_path / "e"
    assert main(["federation", "open", "--dir", str(folder), "--event", "sim1", "--hand-records", str(records),
                 "--clubs", "c1,c2"]) == 0
    with Journal.open(folder / JOURNAL) as journal:      # the rows the service commits, one a message taken
        for club, bias in (("c1", 0), ("c2", 2)):
            for m in _messages(club, bias=bias):
                journal.append("event", {"type": "message", "club": club, "number": m["number"], "message": m}, 2.0)
    capsys.readouterr()
    return folder


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    rc = main(argv)
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err
    return rc, cap.err


def read_pbn(text: str) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """Games as {tags, tables: {name: [row dicts]}} (an outsider's PBN reader)."""
    games: list[dict[str, Any]] = []
    game: dict[str, Any] | None = None
    table: tuple[str, list[str]] | None = None
    for raw in text.split("\r\n"):
        if raw.startswith("%"):
            continue
        if not raw.strip():
            game, table = None, None
            continue
        m = re.fullmatch(r'\[(\w+) "(.*)"\]', raw)
        if m:
            if game is None:
                game = {"tags": {}, "tables": {}}
                games.append(game)
            name, value = m.group(1), m.group(2)
            if name.endswith("Table"):
                cols = [c.split("\\")[0] for c in value.split(";")]
                game["tables"][name] = []
                table = (name, cols)
            else:
                game["tags"][name] = value
                table = None
            continue
        assert game is not None and table is not None, raw
        cells = shlex.split(raw)
        game["tables"][table[0]].append(dict(zip(table[1], cells)))
    ranking = games[0]["tables"]["TotalScoreTable"]
    return games, ranking


def _mp(mine: int, others: list[int]) -> Fraction:
    return Fraction(sum(2 if mine > o else 1 if mine == o else 0 for o in others))


def _ns_score(row: dict[str, str]) -> int:
    return int(row["Score_NS"]) if row["Score_NS"] != "-" else -int(row["Score_EW"])


def test_close_then_export_both_formats_read_back(event: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "field.pbn"
    rc, err = _cli(["federation", "export", "--dir", str(event), "--format", "pbn", "--out", str(out)], capsys)
    assert rc == 2 and "not closed yet" in err and not out.exists()
    assert _cli(["federation", "close", "--dir", str(event)], capsys)[0] == 0
    rc, err = _cli(["federation", "close", "--dir", str(event)], capsys)
    assert rc == 2 and "closed already" in err
    assert _cli(["federation", "export", "--dir", str(event), "--format", "pbn", "--out", str(out)], capsys)[0] == 0
    rc, err = _cli(["federation", "export", "--dir", str(event), "--format", "pbn", "--out", str(out)], capsys)
    assert rc == 2 and "--force" in err
    xml = tmp_path / "field.xml"
    assert _cli(["federation", "export", "--dir", str(event), "--format", "usebio", "--out", str(xml)], capsys)[0] == 0

    games, ranking = read_pbn(out.read_bytes().decode("utf-8"))
    assert [g["tags"]["Board"] for g in games] == ["1", "2"]
    assert games[0]["tags"]["Deal"] == "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 654.8765.876.876 32.432.5432.5432"
    totals: dict[tuple[str, str, str], Fraction] = defaultdict(Fraction)
    tops: dict[tuple[str, str, str], Fraction] = defaultdict(Fraction)
    for g in games:
        rows = g["tables"]["ScoreTable"]
        assert len(rows) == 6 and {r["Section"] for r in rows} == {"c1", "c2"}    # both clubs' tables
        scores = [_ns_score(r) for r in rows]
        for k, r in enumerate(rows):
            others = scores[:k] + scores[k + 1:]
            ns = _mp(scores[k], others)
            assert Fraction(r["MP_NS"]) == ns and Fraction(r["MP_EW"]) == 2 * len(others) - ns
            for pair, mp in ((r["PairId_NS"] + "NS", ns), (r["PairId_EW"] + "EW", 2 * len(others) - ns)):
                key = (r["Section"], pair[:-2], pair[-2:])
                totals[key] += mp
                tops[key] += 2 * len(others)
    assert len(ranking) == 12
    # docs/federation.md: the field's NS ranking, then its EW one (EW came first)
    directions = [r["Direction"] for r in ranking]
    assert directions == sorted(directions, key=lambda d: d != "NS") and directions[0] == "NS"
    for row in ranking:
        key = (row["Section"], row["PairId"], row["Direction"])
        assert Fraction(row["TotalScoreMP"]) == totals[key]
        assert abs(float(row["TotalPercentage"]) - float(100 * totals[key] / tops[key])) < 0.006

    root = ET.fromstring(xml.read_bytes())
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    sections = root.findall("./EVENT/SESSION/SECTION")
    assert [s.get("SECTION_ID") for s in sections] == ["c1", "c2"]
    by_pbn = {(r["Section"], r["PairId"], r["Direction"]): r for r in ranking}
    for s in sections:
        for p in s.findall("./PARTICIPANTS/PAIR"):
            r = by_pbn[(s.get("SECTION_ID"), p.findtext("PAIR_NUMBER"), p.findtext("DIRECTION"))]
            assert (p.findtext("PLACE"), p.findtext("PERCENTAGE")) == (r["Rank"], r["TotalPercentage"])
        lines = s.findall("./BOARD/TRAVELLER_LINE")
        assert len(lines) == 6 and all(ln.findtext("NS_MATCH_POINTS") for ln in lines)
    hands = root.findall("./EVENT/HANDSET/BOARD")
    assert [h.findtext("BOARD_NUMBER") for h in hands] == ["1", "2"]
    assert hands[0].find("HAND").findtext("SPADES") == "AKQJ"   # type: ignore[union-attr]


def test_export_refuses_hand_records_that_are_not_the_events(event: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.federation.service import hold_event

    served = hold_event(event)      # something holds the event as `serve` does, but never closes it
    rc, err = _cli(["federation", "close", "--dir", str(event), "--wait", "0.5"], capsys)
    served.close()
    assert rc == 2 and "did not close it within 0.5 s" in err and err.count("\n") == 1
    assert (event / "close.request").is_file()    # the request stays for `serve` to see when it starts
    (event / "close.request").unlink()
    assert _cli(["federation", "close", "--dir", str(event)], capsys)[0] == 0
    rc, err = _cli(["federation", "close", "--dir", str(event)], capsys)
    assert rc == 2 and "closed already" in err
    other = tmp_path / "other.pbn"
    other.write_text(PBN.replace("N:AKQJ.AKQ.AKQ.AKQ T987", "N:T987.AKQ.AKQ.AKQ AKQJ"), encoding="utf-8")
    rc, err = _cli(["federation", "export", "--dir", str(event), "--format", "usebio", "--out",
                    str(tmp_path / "x.xml"), "--hand-records", str(other)], capsys)
    assert rc == 2 and "not the event's" in err and err.count("\n") == 1
    assert not (tmp_path / "x.xml").exists()


def _neuberg(points: Fraction, results: int, due: int) -> Fraction:
    """A board's matchpoints (a top of 2(n - 1)) factored from ``results`` compared to ``due`` (docs/scoring.md §4)."""
    return (points + 1) * due / results - 1


def test_adjusted_scores_are_in_the_files_as_the_pairs_sessions_files_write_them(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A split assigned score keeps East-West's own score (``Score_EW``) and an artificial score its
    percentages (``Contract`` ``A60/40``; USEBIO ``SCORE`` ``A6040``), as a club's session files write them
    (docs/session.md), so that every matchpoint is recomputed from the PBN alone (the split line's
    East-West score was lost, and the artificial line was ``-`` everywhere)."""
    adjusted = [("c1", {"board": 1, "ns": [1, "NS"], "ew": [3, "EW"], "group": "A",
                        "result": {"artificial": {"ns": "60", "ew": "40"}}}),
                ("c2", {"board": 2, "ns": [1, "NS"], "ew": [1, "EW"], "group": "A",
                        "result": {"assigned": {"ns": 420, "ew": -1500}}})]
    with Journal.open(event / JOURNAL) as journal:
        for club, line in adjusted:
            number = 1 + sum(1 for r in journal.rows() if r.kind == "event" and r.body.get("club") == club)
            journal.append("event", {"type": "message", "club": club, "number": number,
                                     "message": {"op": "line", "line": line, "club": club, "number": number}}, 2.0)
    assert _cli(["federation", "close", "--dir", str(event)], capsys)[0] == 0
    pbn, xml = tmp_path / "field.pbn", tmp_path / "field.xml"
    assert _cli(["federation", "export", "--dir", str(event), "--format", "pbn", "--out", str(pbn)], capsys)[0] == 0
    assert _cli(["federation", "export", "--dir", str(event), "--format", "usebio", "--out", str(xml)], capsys)[0] == 0

    games, _ranking = read_pbn(pbn.read_bytes().decode("utf-8"))
    due = 6
    top = 2 * (due - 1)
    for g in games:
        rows = g["tables"]["ScoreTable"]
        compared = []
        for r in rows:
            percents = re.fullmatch(r"A(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", r["Contract"])
            if percents:          # an artificial score: a percentage of the top to each side, no score
                assert (r["Score_NS"], r["Score_EW"], r["Declarer"], r["Result"]) == ("-", "-", "-", "-")
                assert Fraction(r["MP_NS"]) == Fraction(percents.group(1)) * top / 100
                assert Fraction(r["MP_EW"]) == Fraction(percents.group(2)) * top / 100
                continue
            # each side on its own score: North-South's, and East-West's own (North-South's view negated)
            ns = int(r["Score_NS"]) if r["Score_NS"] != "-" else -int(r["Score_EW"])
            ew = int(r["Score_EW"]) if r["Score_EW"] != "-" else -int(r["Score_NS"])
            compared.append((r, ns, ew))
        for r, ns, ew in compared:
            others = [(n, e) for x, n, e in compared if x is not r]
            assert Fraction(r["MP_NS"]) == _neuberg(_mp(ns, [n for n, _e in others]), len(compared), due)
            assert Fraction(r["MP_EW"]) == _neuberg(_mp(ew, [e for _n, e in others]), len(compared), due)
    split = [r for r in games[1]["tables"]["ScoreTable"] if r["Section"] == "c2" and r["PairId_NS"] == "1"]
    assert [(r["Contract"], r["Score_NS"], r["Score_EW"]) for r in split] == [("-", "420", "1500")]
    artificial = [r for r in games[0]["tables"]["ScoreTable"] if r["Section"] == "c1" and r["PairId_NS"] == "1"]
    assert [(r["Contract"], r["MP_NS"], r["MP_EW"]) for r in artificial] == [("A60/40", "6.00", "4.00")]

    root = ET.fromstring(xml.read_bytes())
    lines = {(s.get("SECTION_ID"), b.findtext("BOARD_NUMBER"), ln.findtext("NS_PAIR_NUMBER")): ln
             for s in root.findall("./EVENT/SESSION/SECTION") for b in s.findall("BOARD")
             for ln in b.findall("TRAVELLER_LINE")}
    art = lines[("c1", "1", "1")]
    assert [art.findtext(t) for t in ("CONTRACT", "PLAYED_BY", "LEAD", "TRICKS", "SCORE")] == ["", "", "", "", "A6040"]
    assert lines[("c2", "2", "1")].findtext("SCORE") == "420"   # USEBIO has one SCORE: East-West's is in the PBN
    assert all(ln.findtext("SCORE") for ln in lines.values())   # never empty


def test_an_artificial_score_s_usebio_score_can_always_be_split() -> None:
    """An audit's: 60.5/39.5 was written ``A60.539.5`` (and 100/0 ``A1000``), which no reader can split.
    Two whole two-digit percentages keep the converter's ``A6040``; anything else has a slash between,
    as the PBN's ``Contract``. One writer for the session's USEBIO and the federation's."""
    from firmware_host.duplicate.results.results_usebio import artificial_score
    from firmware_host.federation.files import _percent

    assert artificial_score("60", "40") == "A6040"
    assert artificial_score(_percent(Fraction(121, 2)), _percent(Fraction(79, 2))) == "A60.5/39.5"
    assert artificial_score("100", "0") == "A100/0" and artificial_score("5", "95") == "A5/95"
    for ns, ew in (("60", "40"), ("60.5", "39.5"), ("100", "0"), ("5", "95")):
        split = re.fullmatch(r"A(\d\d)(\d\d)|A([\d.]+)/([\d.]+)", artificial_score(ns, ew))
        assert split is not None and [g for g in split.groups() if g] == [ns, ew]


def test_a_passed_out_board_is_written_as_pbn_s_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PBN 2.1's ScoreTable takes a ``Contract`` "as in the Contract tag", whose passed-out game is
    ``Pass`` (as a club's session and an event write it); the field's PBN wrote ``PASS``, which a reader
    holding to PBN's spelling does not take as a pass-out. USEBIO's CONTRACT stays ``PASS``."""
    records = tmp_path / "boards.pbn"
    records.write_text(PBN, encoding="utf-8")
    folder = tmp_path / "e"
    assert main(["federation", "open", "--dir", str(folder), "--event", "sim1", "--hand-records", str(records),
                 "--clubs", "c1,c2"]) == 0
    with Journal.open(folder / JOURNAL) as journal:
        for club, bias in (("c1", 0), ("c2", 2)):
            for m in _messages(club, bias=bias):
                line = m.get("line")
                if club == "c2" and line and line["board"] == 2 and line["ns"] == [2, "NS"]:
                    line["result"] = {"played": {"contract": None, "declarer": None, "tricks": 0, "lead": None}}
                journal.append("event", {"type": "message", "club": club, "number": m["number"], "message": m}, 2.0)
    assert _cli(["federation", "close", "--dir", str(folder)], capsys)[0] == 0
    pbn, xml = tmp_path / "field.pbn", tmp_path / "field.xml"
    assert _cli(["federation", "export", "--dir", str(folder), "--format", "pbn", "--out", str(pbn)], capsys)[0] == 0
    assert _cli(["federation", "export", "--dir", str(folder), "--format", "usebio", "--out", str(xml)], capsys)[0] == 0
    games, _ranking = read_pbn(pbn.read_bytes().decode("utf-8"))
    rows = [r for r in games[1]["tables"]["ScoreTable"] if (r["Section"], r["PairId_NS"]) == ("c2", "2")]
    assert [(r["Contract"], r["Declarer"], r["Result"], r["Score_NS"], r["Score_EW"]) for r in rows] == [
        ("Pass", "-", "-", "0", "0")]
    root = ET.fromstring(xml.read_bytes())
    passed = [ln.findtext("CONTRACT") for s in root.findall("./EVENT/SESSION/SECTION") if s.get("SECTION_ID") == "c2"
              for b in s.findall("BOARD") if b.findtext("BOARD_NUMBER") == "2" for ln in b.findall("TRAVELLER_LINE")
              if ln.findtext("NS_PAIR_NUMBER") == "2"]
    assert passed == ["PASS"]


def test_an_arrow_switched_club_s_pairs_stay_two_pairs_in_the_files(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """docs/federation.md, "The end": a pair is named by its club and its number, with its direction. A club
    ranked in one field (an arrow-switched Mitchell, the entry's ``fields``) had its 2 NS and 2 EW both
    written ``2 "one field"`` in the PBN's ranking and ``DIRECTION`` ``one field`` in the USEBIO: two pairs
    no reader could tell apart, and a direction neither format has (audit m17). The files give each pair
    its own direction (a Howell's pair none), and the traveller names a pair sitting the other way as a
    club's session does, ``3EW``."""
    records = tmp_path / "boards.pbn"
    records.write_text(PBN, encoding="utf-8")
    folder = tmp_path / "e"
    assert main(["federation", "open", "--dir", str(folder), "--event", "sim1", "--hand-records", str(records),
                 "--clubs", "a,h"]) == 0

    def line(board: int, ns: list[Any], ew: list[Any], tricks: int) -> dict[str, Any]:
        return {"op": "line", "line": {"board": board, "ns": ns, "ew": ew, "group": "A", "result": {
            "played": {"contract": "4S", "declarer": "N", "tricks": tricks, "lead": None}}}}

    mitchell = [[n, d] for n in (1, 2, 3) for d in ("NS", "EW")]
    arrow = [{"op": "entry", "pairs": mitchell, "due": 3,
              "fields": {f"{n}{d}": "one field" for n, d in mitchell}}]
    howell = [{"op": "entry", "pairs": [[n, None] for n in (1, 2, 3, 4)], "due": 2}]
    for board in (1, 2):
        arrow += [line(board, [1, "NS"], [2, "EW"], 9), line(board, [2, "NS"], [3, "EW"], 10),
                  line(board, [1, "EW"], [3, "NS"], 11)]        # an arrow-switched round: 1 EW sat North-South
        howell += [line(board, [1, None], [2, None], 10), line(board, [3, None], [4, None], 8)]
    with Journal.open(folder / JOURNAL) as journal:
        for club, messages in (("a", arrow), ("h", howell)):
            for number, m in enumerate(messages, 1):
                m = m | {"club": club, "number": number}
                journal.append("event", {"type": "message", "club": club, "number": number, "message": m}, 2.0)
    assert _cli(["federation", "close", "--dir", str(folder)], capsys)[0] == 0
    assert _cli(["federation", "export", "--dir", str(folder), "--format", "pbn", "--out",
                 str(tmp_path / "f.pbn")], capsys)[0] == 0
    assert _cli(["federation", "export", "--dir", str(folder), "--format", "usebio", "--out",
                 str(tmp_path / "f.xml")], capsys)[0] == 0

    games, ranking = read_pbn((tmp_path / "f.pbn").read_bytes().decode("utf-8"))
    named = sorted((r["Section"], r["PairId"], r["Direction"]) for r in ranking)
    assert named == sorted([("a", str(n), d) for n, d in mitchell] + [("h", str(n), "-") for n in (1, 2, 3, 4)])
    seated = {(r["PairId_NS"], r["PairId_EW"]) for r in games[0]["tables"]["ScoreTable"] if r["Section"] == "a"}
    assert seated == {("1", "2"), ("2", "3"), ("1EW", "3NS")}

    root = ET.parse(tmp_path / "f.xml").getroot()
    pairs = sorted((s.get("SECTION_ID"), p.findtext("PAIR_NUMBER"), p.findtext("DIRECTION"))
                   for s in root.iter("SECTION") for p in s.iter("PAIR"))
    assert pairs == sorted([("a", str(n), d) for n, d in mitchell] + [("h", str(n), None) for n in (1, 2, 3, 4)])
